"""What moved keeps working, with a DeprecationWarning that says where it went;
what is defined twice on purpose (the oracle's twins) is held equal."""
from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest

import bansugoroku_fast
from bansugoroku_fast import Position, Rules, oracle
from bansugoroku_fast.games import GameRecords

MOVED = {
    "bansugoroku_fast.api": ("bansugoroku_fast.moves", "legal_plays"),
    "bansugoroku_fast.game": ("bansugoroku_fast.games.interactive", "Game"),
    "bansugoroku_fast.lockstep": ("bansugoroku_fast.games.game_batch", "GameBatch"),
    "bansugoroku_fast.policies": ("bansugoroku_fast.games.policies", "LinearPolicy"),
    "bansugoroku_fast.choices": ("bansugoroku_fast.games.policies", "segment_argmax"),
    "bansugoroku_fast.opponent": ("bansugoroku_fast.games.computer", "Computer"),
    "bansugoroku_fast.tallies": ("bansugoroku_fast.games.tallies", "RolloutResult"),
}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_path_warns_and_gives_the_new_module(old):
    new, name = MOVED[old]
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated: import {new} instead"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert getattr(module, name) is getattr(importlib.import_module(new), name)


def test_an_old_module_path_still_works_for_from_imports():
    """``from bansugoroku_fast.game import ScriptedDice`` in a fresh interpreter."""
    code = ("import warnings; warnings.simplefilter('error')\n"
            "try:\n    from bansugoroku_fast.game import ScriptedDice\nexcept DeprecationWarning as w:\n"
            "    print('warned:', w)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "warned: bansugoroku_fast.game is deprecated: import bansugoroku_fast.games.interactive" in run.stdout
    quiet = "import warnings; warnings.simplefilter('ignore')\nfrom bansugoroku_fast.game import ScriptedDice\n"
    subprocess.run([sys.executable, "-c", quiet], check=True)


def test_play_random_game_warns_and_still_plays():
    with pytest.warns(DeprecationWarning, match="play_random_game is deprecated"):
        game = bansugoroku_fast.play_random_game("backgammon", seed=3)
    assert game.is_over and game.result.winner in (0, 1)


def test_match_play_warns_and_parse_play_is_the_way():
    start = Position.initial()
    backgammon = Rules(variant="backgammon")
    with pytest.warns(DeprecationWarning, match="use parse_play"):
        match_play = bansugoroku_fast.match_play
    plays = bansugoroku_fast.legal_plays(start, (6, 5), backgammon)
    assert match_play(plays, "24/13") == bansugoroku_fast.parse_play(start, (6, 5), "24/18/13", backgammon)
    assert "match_play" not in bansugoroku_fast.__all__


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
