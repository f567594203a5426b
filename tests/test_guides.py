"""The front page (README.md) and the guides (docs/guides/*.md): their
``>>>`` examples run as doctests (pytest's ``--doctest-glob``); here run the
plain code blocks that need an optional extra (when the extra is installed:
CI installs it) and every ``bansugoroku`` command the pages show, as
written, and the links between the pages are checked."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from . import source_tree

ROOT = source_tree.ROOT
README = ROOT / "README.md"
GUIDES = ROOT / "docs" / "guides"
PAGES = [README, *sorted(GUIDES.glob("*.md"))]
pytestmark = source_tree.needs("README.md", "docs/guides")


def code_blocks(language: str, pages: list[Path] = PAGES) -> list[tuple[Path, str]]:
    """(page, block) for the fenced blocks of ``language`` that are not doctests."""
    found = []
    for page in pages:
        for block in re.findall(rf"^```{language}\n(.*?)^```", page.read_text(encoding="utf-8"), re.M | re.S):
            if not block.lstrip().startswith(">>>"):
                found.append((page, block))
    return found


def the_block(marker: str) -> tuple[Path, str]:
    """The one plain Python block of the pages that contains ``marker``."""
    (found,) = [(page, block) for page, block in code_blocks("python") if marker in block]
    return found


def test_the_gymnasium_example_runs():
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    page, example = the_block("gymnasium.make")
    assert page.name == "reinforcement-learning.md"
    namespace: dict[str, object] = {}
    exec(compile(example, f"{page.name} (gymnasium example)", "exec"), namespace)
    assert namespace["done"] is True
    assert namespace["terminated"] or namespace["truncated"]
    # The game's value, won or lost: under bear_off with the immediate
    # closure every win is worth 1 (docs/rules.md §3.5, §3.7).
    assert namespace["reward"] in (-1, 1)


def test_the_dask_example_runs_with_the_distributed_extra_alone():
    # The 'distributed' extra installs dask[array,distributed]; the example
    # must need nothing else (no zarr).
    pytest.importorskip("distributed")
    pytest.importorskip("dask.array")
    from bansugoroku_fast import Position, Rules, count_plays, rollout

    page, example = the_block("dask.distributed")
    assert page.name == "dask.md"
    assert "import zarr" not in example and "from_zarr(" not in example.split("#")[0]
    namespace: dict[str, object] = {}
    exec(compile(example, f"{page.name} (Dask example)", "exec"), namespace)
    local = rollout(Position.initial(), Rules(variant="backgammon"), 5_184, "heuristic", seed=1)
    assert namespace["result"].equity == local.equity  # what the example's comment says
    records = namespace["records"]
    expected = count_plays(records.positions, (6, 5), "backgammon")
    assert (namespace["counts"].compute() == expected).all()


def test_every_plain_python_block_has_its_test():
    """A new example that is not a doctest needs its test here (with the extra it names)."""
    tested = ("gymnasium.make", "dask.distributed")
    for page, block in code_blocks("python"):
        assert sum(marker in block for marker in tested) == 1, (page.name, block.splitlines()[0])


def commands(block: str) -> list[str]:
    """The lines of a shell block, each command on one line (a line that
    ends with a backslash goes on on the next)."""
    return block.replace("\\\n", " ").splitlines()


def bansugoroku_lines() -> list[str]:
    """Every ``bansugoroku ...`` command of the pages' shell blocks, once each."""
    lines = [line.strip() for _, block in code_blocks("sh") for line in commands(block)]
    return list(dict.fromkeys(line for line in lines if line.startswith("bansugoroku ")))


def test_the_pages_show_the_commands():
    """The command-line guide's block shows every command, and the guides
    show some with their own pages (so the check below has work to do)."""
    shown = {line.split()[1] for line in bansugoroku_lines()}
    assert {"moves", "perft", "match", "conformance", "rollout", "race", "play", "hint", "--version"} <= shown


def test_every_command_of_the_pages_runs(tmp_path, monkeypatch, capsys):
    """The pages' ``bansugoroku`` lines, as written, in a scratch directory
    (stdin empty: an interactive game stops at once and is saved as it
    stands); a match file to read is the only thing supplied, and another
    engine's check is left to test_conformance."""
    import io
    import shlex
    import shutil

    from bansugoroku_fast.cli import main

    shutil.copy(ROOT / "tests" / "data" / "gnubg" / "auto5.mat", tmp_path / "game.mat")
    monkeypatch.chdir(tmp_path)
    ran = 0
    for line in bansugoroku_lines():
        argv = shlex.split(line, comments=True)
        if argv[:3] == ["bansugoroku", "conformance", "check"]:
            continue  # another engine's command
        if "--plot" in argv or "rollout" in argv:
            pytest.importorskip("matplotlib")
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        try:
            status = main(argv[1:])
        except SystemExit as stopped:  # --version
            status = stopped.code
        assert status == 0, line
        ran += 1
    assert ran >= 12
    assert (tmp_path / "rollout.png").stat().st_size > 0
    assert (tmp_path / "corpus" / "README.md").is_file()  # conformance export
    assert "Saved to game.mat" in capsys.readouterr().out


def relative_links(page: Path) -> list[str]:
    """The targets of the page's Markdown links that are not web addresses."""
    targets = re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8"))
    return [target for target in targets if not re.match(r"[a-z]+:", target)]


def test_every_relative_link_names_a_file_that_exists():
    links = [(page, link) for page in PAGES for link in relative_links(page)]
    assert len(links) >= 60  # the pages do link to each other
    missing = [(page.name, link) for page, link in links if not (page.parent / link.split("#")[0]).is_file()]
    assert missing == []


def test_the_front_page_links_every_guide_and_stays_short():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    linked = {Path(link).name for link in relative_links(README) if link.startswith("docs/guides/")}
    assert linked == {page.name for page in GUIDES.glob("*.md")}


def test_the_guides_index_lists_every_guide():
    """docs/guides/index.md's toctree names each page of docs/guides/ once (the site's navigation)."""
    index = (GUIDES / "index.md").read_text(encoding="utf-8")
    (toctree,) = re.findall(r"^```\{toctree\}\n(.*?)^```", index, re.M | re.S)
    entries = [line.strip() for line in toctree.splitlines() if line.strip() and not line.startswith(":")]
    assert sorted(entries) == sorted(page.stem for page in GUIDES.glob("*.md") if page.stem != "index")
