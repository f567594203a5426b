"""What is defined twice on purpose (the oracle's twins) is held equal, the
lazy names load on first use, and the removed paths stay removed."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import bansugoroku_fast
from bansugoroku_fast import oracle
from bansugoroku_fast.games import GameRecords


def test_the_oracle_s_game_records_have_the_package_s_fields():
    assert oracle.GameRecords._fields == GameRecords._fields
    spec = oracle.play_games("backgammon", games=2, policy="first", seed=4)
    kernels = bansugoroku_fast.play_games("backgammon", games=2, policy="first", seed=4)
    for field in (*GameRecords._fields, "truncated"):   # the same games, field by field
        assert np.asarray(getattr(kernels, field)).tolist() == np.asarray(getattr(spec, field)).tolist(), field


def test_a_lazy_name_loads_its_module_on_first_use():
    """``import bansugoroku_fast`` leaves the games, formats and tqdm for later."""
    code = ("import sys, bansugoroku_fast as b\n"
            "before = {m for m in ('bansugoroku_fast.games', 'bansugoroku_fast.formats', 'tqdm') if m in sys.modules}\n"
            "b.play_games; b.read_match\n"
            "after = {m for m in ('bansugoroku_fast.games', 'bansugoroku_fast.formats', 'tqdm') if m in sys.modules}\n"
            "print(sorted(before), sorted(after))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split("] [") == ["[", "'bansugoroku_fast.formats', 'bansugoroku_fast.games', 'tqdm']\n"]
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        bansugoroku_fast.no_such_name  # noqa: B018


@pytest.mark.parametrize("name", ["play_random_game", "match_play"])
def test_the_removed_names_are_gone(name):
    """Deprecated in 0.4.0, removed since (the removed alias modules:
    tests/test_architecture.py)."""
    assert name not in bansugoroku_fast.__all__
    with pytest.raises(AttributeError, match=f"has no attribute {name!r}"):
        getattr(bansugoroku_fast, name)
