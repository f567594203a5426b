"""README.md's examples: the ``>>>`` ones run as doctests (pytest's
``--doctest-glob``); the plain code blocks that need an optional extra run
here, as written, when the extra is installed (CI installs it)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


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
