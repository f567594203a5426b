"""README.md's examples: the ``>>>`` ones run as doctests (pytest's
``--doctest-glob``); the plain code blocks that need an optional extra run
here, as written, when the extra is installed (CI installs it)."""
from __future__ import annotations

import re

import pytest

from . import source_tree

README = source_tree.ROOT / "README.md"
pytestmark = source_tree.needs("README.md")


def code_blocks(language: str) -> list[str]:
    """The README's fenced blocks of ``language`` that are not doctests."""
    blocks = re.findall(rf"^```{language}\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)
    return [block for block in blocks if not block.lstrip().startswith(">>>")]


def test_the_gymnasium_example_runs():
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    (example,) = [block for block in code_blocks("python") if "gymnasium.make" in block]
    namespace: dict[str, object] = {}
    exec(compile(example, "README.md (gymnasium example)", "exec"), namespace)
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

    (example,) = [block for block in code_blocks("python") if "dask.distributed" in block]
    assert "import zarr" not in example and "from_zarr(" not in example.split("#")[0]
    namespace: dict[str, object] = {}
    exec(compile(example, "README.md (Dask example)", "exec"), namespace)
    local = rollout(Position.initial(), Rules(variant="backgammon"), 5_184, "heuristic", seed=1)
    assert namespace["result"].equity == local.equity  # what the README's comment says
    records = namespace["records"]
    expected = count_plays(records.positions, (6, 5), "backgammon")
    assert (namespace["counts"].compute() == expected).all()


def test_every_plain_python_block_of_the_readme_has_its_test():
    """A new example needs its test here (with the extra it names)."""
    tested = ("gymnasium.make", "dask.distributed")
    for block in code_blocks("python"):
        assert sum(marker in block for marker in tested) == 1, block.splitlines()[0]


def test_every_command_of_the_command_line_block_runs(tmp_path, monkeypatch, capsys):
    """The README's ``bansugoroku`` lines, as written, in a scratch directory
    (stdin empty: an interactive game stops at once and is saved as it
    stands); a match file to check and another engine to run are the only
    things supplied."""
    import io
    import shlex
    import shutil

    from bansugoroku_fast.cli import main

    (block,) = [block for block in code_blocks("sh") if "bansugoroku perft" in block]
    shutil.copy(README.parent / "tests" / "data" / "gnubg" / "auto5.mat", tmp_path / "game.mat")
    monkeypatch.chdir(tmp_path)
    for line in block.splitlines():
        argv = shlex.split(line, comments=True)
        if not argv or argv[:3] == ["bansugoroku", "conformance", "check"]:
            continue  # another engine's command: test_conformance runs the check
        if "--plot" in argv or "rollout" in argv:
            pytest.importorskip("matplotlib")
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        try:
            status = main(argv[1:])
        except SystemExit as stopped:  # --version
            status = stopped.code
        assert status == 0, line
    assert (tmp_path / "rollout.png").stat().st_size > 0
    assert "Saved to game.mat" in capsys.readouterr().out
