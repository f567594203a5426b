"""Every shell block of the site's pages (README.md and docs/) runs as printed.

Each ``sh`` block runs whole, as a reader pasting it would run it: in
``bash -e``, in a scratch folder that holds a match file ``game.mat`` (the
one file the pages expect you to have), with this source tree first on
``PYTHONPATH`` (so ``python -m benchmarks.NAME`` works as from a clone's
root) and stdin empty (an interactive game stops at once). Two things
differ from the page, both listed here and nowhere else:

* :data:`SMALLER`: the sizes of the long commands (training runs,
  benchmarks), so that the block runs in seconds; the other options stay
  as printed;
* :data:`SKIPPED`: the few lines that are not run, each with the reason
  (they install the package, run the suite itself, or need another engine).

Blocks made only of ``bansugoroku`` commands on the pages that
tests/test_guides.py reads (README.md and the guides) are left to it: it
runs each of those lines in this process, faster.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from . import source_tree

ROOT = source_tree.ROOT
# The pages are read at import, to make the tests: skip the module before that.
source_tree.require("README.md", "docs/guides", "benchmarks", "tests/data/gnubg/auto5.mat")

#: command -> {option: value run}: where the command has the option its value
#: is replaced, where it has not the option is added.
SMALLER: dict[str, dict[str, str]] = {
    "python -m bansugoroku_fast.train rollouts": {"--rounds": "1", "--games": "4", "--positions": "8",
                                                  "--rollout-games": "2", "--eval-games": "2", "--chunk": "4",
                                                  "--workers": "1"},
    "python -m bansugoroku_fast.train": {"--games": "16", "--parallel": "16", "--segment-games": "16",
                                         "--eval-every": "16", "--eval-games": "2"},
    "python -m benchmarks.speed": {"--repeats": "1", "--size": "2000"},
    "python -m benchmarks.threads": {"--repeats": "1", "--size": "2000"},
    "python -m benchmarks.cores": {"--repeats": "1", "--size": "2000"},
    "python -m benchmarks.games": {"--games": "200", "--repeats": "1", "--seeds": "2", "--win-games": "200"},
}

#: the start of a line not run -> why.
SKIPPED = {
    "pip install": "installs the package: CI runs the README's install command (.ci/run)",
    "python -m pytest": "the test suite itself",
    "bansugoroku conformance check": "checks another engine (tests/test_conformance.py checks the checker)",
}

#: The pages whose blocks of ``bansugoroku`` lines alone tests/test_guides.py runs.
GUIDE_PAGES = {ROOT / "README.md", *(ROOT / "docs" / "guides").glob("*.md")}


def site_pages() -> list[Path]:
    """README.md and the pages of the site (not docs/README.md, which tells
    how to build the site: CI runs its commands itself)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [page for page in pages
            if page != ROOT / "docs" / "README.md"
            and not {"_build", "_generated"} & set(page.relative_to(ROOT).parts)]


def shell_blocks() -> list[tuple[str, str]]:
    """(where, block) for each ``sh`` block of the site's pages."""
    found = []
    for page in site_pages():
        text = page.read_text(encoding="utf-8")
        for block in re.finditer(r"^```sh\n(.*?)^```", text, re.M | re.S):
            line = text.count("\n", 0, block.start()) + 1
            found.append((f"{page.relative_to(ROOT).as_posix()}:{line}", block.group(1)))
    return found


def commands(block: str) -> list[str]:
    """The block's commands, one a line (a backslash at the end of a line goes on)."""
    return [line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def left_to_test_guides(where: str, block: str) -> bool:
    page = ROOT / where.rsplit(":", 1)[0]
    lines = [line for line in commands(block) if not line.startswith("#")]
    return page in GUIDE_PAGES and all(line.startswith("bansugoroku ") for line in lines)


def smaller(command: str) -> str:
    """``command`` with the sizes of :data:`SMALLER`."""
    words = shlex.split(command, comments=True)
    for start, options in SMALLER.items():  # the longest start that fits first
        if words[:len(start.split())] != start.split():
            continue
        for option, value in options.items():
            if option in words:
                words[words.index(option) + 1] = value
            else:
                words += [option, value]
        return shlex.join(words)
    return command


def script(block: str) -> str:
    """The block as bash runs it here: sizes made smaller, skipped lines said."""
    lines = []
    for command in commands(block):
        skip = next((reason for start, reason in SKIPPED.items() if command.startswith(start)), None)
        lines.append(f": skipped, {shlex.quote(skip)}" if skip else smaller(command))
    return "\n".join(lines) + "\n"


BLOCKS = [(where, block) for where, block in shell_blocks() if not left_to_test_guides(where, block)]
#: The blocks that run benchmarks (tens of seconds even small): ``.ci/full`` runs them.
LONG_BLOCKS = {where for where, block in BLOCKS if "python -m benchmarks." in block}


def test_the_pages_have_shell_blocks_to_run():
    assert len(shell_blocks()) >= 15
    assert len(BLOCKS) >= 5


def test_the_sizes_are_made_smaller_and_the_rest_kept():
    printed = "python -m bansugoroku_fast.train --rules 'ban/*' --games 15000 --seed 41 --out nets/"
    assert smaller(printed) == ("python -m bansugoroku_fast.train --rules 'ban/*' --games 16 --seed 41 "
                                "--out nets/ --parallel 16 --segment-games 16 --eval-every 16 --eval-games 2")
    assert smaller("bansugoroku rollout --games 1296") == "bansugoroku rollout --games 1296"
    assert script("pip install -e '.[test]' && bansugoroku moves 6-5\n").startswith(": skipped, ")


@pytest.mark.parametrize(("where", "block"), [
    pytest.param(where, block, id=where, marks=pytest.mark.slow if where in LONG_BLOCKS else ())
    for where, block in BLOCKS])
def test_the_block_runs_as_printed(where, block, tmp_path):
    reasons = {reason for command in commands(block) if not command.startswith("#")
               for start, reason in SKIPPED.items() if command.startswith(start)}
    if all(line.startswith((":", "#")) for line in script(block).splitlines()):
        pytest.skip("; ".join(sorted(reasons)))
    if "--plot" in block:
        pytest.importorskip("matplotlib")
    shutil.copy(ROOT / "tests" / "data" / "gnubg" / "auto5.mat", tmp_path / "game.mat")
    # A path into the package (the shipped networks) reads as from a clone's root.
    (tmp_path / "bansugoroku_fast").symlink_to(ROOT / "bansugoroku_fast", target_is_directory=True)
    bin_folder = tmp_path / ".bin"   # `python` is this interpreter, as in the reader's environment
    bin_folder.mkdir()
    (bin_folder / "python").symlink_to(sys.executable)
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
                       PATH=os.pathsep.join([str(bin_folder), os.environ["PATH"]]), MPLBACKEND="Agg")
    ran = subprocess.run(["bash", "-e", "-c", script(block)], cwd=tmp_path, env=environment,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900)
    assert ran.returncode == 0, f"{where}\n{script(block)}\n{ran.stdout[-2000:]}\n{ran.stderr[-4000:]}"
