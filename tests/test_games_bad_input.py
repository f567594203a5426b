"""Bad input to whole games: each is refused with a ValueError subclass that
names the problem, by the oracle and the package alike (issue 7, item 5);
a game that never ends raises GameTooLongError naming the game and seed."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from bansugoroku_fast import LinearPolicy, Position, Rules, games, oracle
from bansugoroku_fast.errors import (
    AssumedRulesWarning,
    GameTooLongError,
    InvalidPolicyError,
    InvalidPositionError,
    PolicyTypeError,
    UnevenStrataWarning,
)
from bansugoroku_fast.games.policies import FEATURE_NAMES

ENGINES = [pytest.param(games, id="package"), pytest.param(oracle, id="oracle")]
BACKGAMMON = Rules(variant="backgammon")


@pytest.fixture(params=ENGINES)
def engine(request):
    return request.param


def _bad_row() -> list[list[int]]:
    rows = [list(row) for row in Position.initial().rows]
    rows[0][6] = 4  # 14 stones
    return rows


@pytest.mark.parametrize("seed, message", [
    (-1, "seed must be an integer in 0 .. 2**64 - 1, got -1"),
    (2**64, "seed must be an integer in 0 .. 2**64 - 1"),
    (1.5, "got 1.5"),
    (True, "got True"),
    ("7", "got '7'"),
])
def test_bad_seed(engine, seed, message):
    with pytest.raises(ValueError, match=message.replace("*", r"\*").replace("(", r"\(")):
        engine.play_games("backgammon", 1, seed=seed)


@pytest.mark.parametrize("count", [0, -3, 2.0, None, True])
def test_bad_game_count(engine, count):
    with pytest.raises(ValueError, match="games must be a positive integer"):
        engine.play_games("backgammon", count)
    with pytest.raises(ValueError, match="games must be a positive integer"):
        engine.rollout(Position.initial(), "backgammon", games=count)


@pytest.mark.parametrize("policy, message", [
    ("best", "policy: unknown policy 'best'"),
    (("random",), "a policy pair has one policy per seat"),
    (("random", "first", "first"), "a policy pair has one policy per seat"),
    (("random", "wise"), "policy of seat 1: unknown policy 'wise'"),
])
def test_bad_policy(engine, policy, message):
    with pytest.raises(InvalidPolicyError, match=message):
        engine.play_games("backgammon", 1, policy=policy)


@pytest.mark.parametrize("policy, message", [
    (3, "policy must be a policy name or a LinearPolicy, got int 3"),
    (None, "got NoneType"),
    (("random", 2.5), "policy of seat 1 must be a policy name or a LinearPolicy, got float"),
])
def test_policy_of_a_wrong_type(engine, policy, message):
    with pytest.raises(PolicyTypeError, match=message):
        engine.play_games("backgammon", 1, policy=policy)


def test_pubeval_plays_backgammon_only(engine):
    with pytest.raises(InvalidPolicyError, match="'pubeval' plays backgammon only"):
        engine.play_games("ban-sugoroku", 1, policy=("random", "pubeval"))


@pytest.mark.parametrize("weights, message", [
    ([1.0] * 27, "needs 28 weights"),
    ([1.0] * 29, "needs 28 weights"),
    ([math.nan] + [0.0] * 27, "weight 0 .own_pips. must be a finite number, got nan"),
    ([0.0] * 27 + [math.inf], "weight 27 .other_won. must be a finite number"),
    (["1"] * 28, "weight 0 .own_pips. must be a finite number, got '1'"),
])
def test_bad_linear_weights(weights, message):
    with pytest.raises(InvalidPolicyError, match=message):
        LinearPolicy(weights)


def test_linear_weights_of_a_wrong_type():
    with pytest.raises(PolicyTypeError, match="must be a sequence of 28 numbers, got 5"):
        LinearPolicy(5)


def test_numpy_weights_are_accepted():
    policy = LinearPolicy(np.arange(len(FEATURE_NAMES), dtype=np.float32))
    assert policy.weights[3] == 3.0


@pytest.mark.parametrize("target", [0, -0.1, math.nan, math.inf, "0.1", True])
def test_bad_stderr_target(engine, target):
    with pytest.raises(ValueError, match="stderr_target must be a positive number"):
        engine.rollout(Position.initial(), "backgammon", games=10, stderr_target=target)


@pytest.mark.parametrize("stratify", [35, 2, "36", 1.5])
def test_bad_stratify(engine, stratify):
    with pytest.raises(ValueError, match="stratify must be None, True, 36 or 1296"):
        engine.rollout(Position.initial(), "backgammon", games=10, stratify=stratify)
    with pytest.raises(ValueError, match="stratify must be None, True, 36 or 1296"):
        engine.play_games("ban-sugoroku", 10, stratify=stratify)


def test_stratified_backgammon_opening_is_refused(engine):
    # The opening roll is never a double: the 36 rolls cannot be dealt there.
    with pytest.raises(ValueError, match=r"stratify needs a start: the backgammon opening \(start=None\)"):
        engine.play_games("backgammon", 36, stratify=36)


def test_bad_start_position(engine):
    with pytest.raises(InvalidPositionError, match=r"row 0 .side to move. holds 14 stones"):
        engine.play_games("backgammon", 1, start=_bad_row())
    with pytest.raises(InvalidPositionError, match="holds 14 stones"):
        engine.rollout(_bad_row(), "backgammon", games=1)


def test_borne_off_stones_under_the_arrival_finish(engine):
    rows = [[1, 0, 0, 0, 0, 0, 4, *row[7:]] for row in Position.initial().rows]
    with pytest.raises(InvalidPositionError, match="'arrival' finish never bears off"):
        engine.play_games("ban-sugoroku", 1, start=rows)


def test_a_bad_item_of_a_rollout_batch_is_named():
    batch = np.stack([Position.initial().array] * 3)
    batch[2, 0, 6] = 4
    with pytest.raises(InvalidPositionError, match=r"position 2: row 0 .side to move. holds 14 stones"):
        games.rollout(batch, "backgammon", games=1)


def test_bad_threads_and_max_plies(engine):
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        engine.play_games("backgammon", 1, threads=0)
    with pytest.raises(ValueError, match="max_plies must be a positive integer"):
        engine.play_games("backgammon", 1, max_plies=0)


def test_a_game_too_long_names_the_game_and_the_seed(engine):
    # No backgammon game ends within 5 plies (each side needs 15 stones off).
    with pytest.raises(GameTooLongError, match=r"game 0 \(seed 3\) has not ended after 5 plies"):
        engine.play_games("backgammon", 2, seed=3, max_plies=5)


@pytest.mark.parametrize("call", [
    lambda engine: engine.play_games("backgammon", 2, seed=3, max_plies=5),
    lambda engine: engine.rollout(Position.initial(), "backgammon", 2, seed=3, max_plies=5),
    lambda engine: engine.rank_plays(Position.initial(), (6, 5), "backgammon", 2, seed=3, max_plies=5),
], ids=["play_games", "rollout", "rank_plays"])
def test_a_game_too_long_says_how_to_truncate_instead(engine, call):
    with pytest.raises(GameTooLongError, match=r'has not ended after 5 plies; on_long="truncate" ends such games'):
        call(engine)


@pytest.mark.parametrize("on_long", ["stop", "", None, True, "Truncate"])
def test_bad_on_long(engine, on_long):
    message = f"on_long must be 'raise' or 'truncate', got {on_long!r}"
    start = Position.initial()
    with pytest.raises(ValueError, match=re.escape(message)):
        engine.play_games("backgammon", 2, on_long=on_long)
    with pytest.raises(ValueError, match=re.escape(message)):
        engine.rollout(start, "backgammon", 2, on_long=on_long)
    with pytest.raises(ValueError, match=re.escape(message)):
        engine.rank_plays(start, (6, 5), "backgammon", 2, on_long=on_long)


def test_a_finished_start_is_a_game_of_no_ply(engine):
    # Row 0 has borne off all 15: the game is over before it starts, won by seat 0.
    rows = [[15] + [0] * 25, list(Position.initial().rows[1])]
    records = engine.play_games("backgammon", 2, start=rows)
    assert list(records.plies) == [0, 0] and list(records.winner) == [0, 0]
    assert list(records.value) == [3, 3]  # the loser still has stones in the winner's home


# --- defaults that cannot mislead ---------------------------------------------------------


def test_a_rollout_without_rules_says_which_it_assumed(engine):
    with pytest.warns(AssumedRulesWarning, match=r"rollout: no rules given, so it assumed ban-sugoroku,finish=arrival"):
        engine.rollout(Position.initial(), games=2, policy="first")
    with pytest.warns(AssumedRulesWarning, match=r'rank_plays: .*\(rules="backgammon" for a backgammon position'):
        engine.rank_plays(Position.initial(), (6, 5), games=1, policy="first")


def test_a_rollout_with_rules_does_not_warn(engine, recwarn):
    engine.rollout(Position.initial(), "backgammon", games=2, policy="first")
    engine.rank_plays(Position.initial(), (6, 5), "ban-sugoroku", games=1, policy="first")
    assert [warning for warning in recwarn if issubclass(warning.category, UserWarning)] == []


def test_what_scores_a_position_plays_by_the_network_unless_told_otherwise():
    start = Position.from_id("4HPwATDgc/ABMA")   # GNU Backgammon's opening position
    default = games.rollout(start, BACKGAMMON, games=36, seed=2).counts.tolist()
    assert default == games.rollout(start, BACKGAMMON, games=36, seed=2, policy="net").counts.tolist()
    assert default != games.rollout(start, BACKGAMMON, games=36, seed=2, policy="random").counts.tolist()
    ranked = games.rank_plays(start, (3, 1), BACKGAMMON, games=4, seed=2)
    assert ranked == games.rank_plays(start, (3, 1), BACKGAMMON, games=4, seed=2, policy="net")


def test_what_scores_a_position_defaults_to_the_shipped_network():
    from bansugoroku_fast import best_plays, cube_decision, evaluate, evaluate_position, legal_plays

    start = Position.from_id("4HPwATDgc/ABMA")
    children = np.stack([play.position.array for play in legal_plays(start, (3, 1), BACKGAMMON)])
    assert evaluate(children, BACKGAMMON).tolist() == evaluate(children, BACKGAMMON, "net").tolist()
    assert evaluate_position(start, BACKGAMMON).tolist() == evaluate_position(start, BACKGAMMON, "net").tolist()
    assert str(best_plays(start, (3, 1), BACKGAMMON)[0].play) == "8/5 6/5"   # making the 5-point
    assert cube_decision(start, BACKGAMMON).action == cube_decision(start, BACKGAMMON, "net").action


@pytest.mark.parametrize("name", ["evaluate", "evaluate_position", "best_plays", "cube_decision"])
def test_scoring_without_rules_says_which_it_assumed(name):
    import bansugoroku_fast

    call = getattr(bansugoroku_fast, name)
    start = Position.initial()
    arguments = {"evaluate": (start.array[None],), "best_plays": (start, (6, 5))}.get(name, (start,))
    with pytest.warns(AssumedRulesWarning, match=rf"{name}: no rules given, so it assumed ban-sugoroku"):
        call(*arguments, None)


@pytest.mark.parametrize("stratify, count, warns", [(1296, 100, True), (1296, 1296, False), (36, 35, True),
                                                     (36, 36, False), (None, 10, False)])
def test_stratifying_over_more_strata_than_games_warns(stratify, count, warns, recwarn):
    games.rollout(Position.initial(), BACKGAMMON, games=count, policy="first", stratify=stratify)
    found = [str(warning.message) for warning in recwarn if warning.category is UnevenStrataWarning]
    assert bool(found) == warns
    if stratify == 1296 and warns:
        assert found == ["rollout: stratify=1296 deals the first two rolls evenly over each 1,296 games, but 100 "
                         "games cover only 100 of them; play a multiple of 1,296 games or stratify=36"]


# --- the oracle's endgame tables ------------------------------------------------------------


@pytest.mark.parametrize("table_stones", [0, 7, 99, 2.5, "3", None])
def test_the_oracle_refuses_a_table_it_cannot_build(table_stones):
    """Its plain-Python table holds at most the package's 6 stones a side
    (99 would take forever, 0 would value nothing)."""
    message = f"table_stones must be an integer in 1..6, got {table_stones!r}"
    start = Position.initial()
    with pytest.raises(ValueError, match=re.escape(message)):
        oracle.rollout(start, "backgammon", 2, "first", endgames=True, table_stones=table_stones)
    with pytest.raises(ValueError, match=re.escape(message)):
        oracle.rank_plays(start, (6, 5), "backgammon", 2, "first", endgames=True, table_stones=table_stones)


@pytest.mark.parametrize("endgames", ["yes", 1, None])
def test_endgames_is_a_bool(engine, endgames):
    with pytest.raises(TypeError, match=re.escape(f"endgames must be True or False, got {endgames!r}")):
        engine.rollout(Position.initial(), "backgammon", 2, "first", endgames=endgames)


@pytest.mark.parametrize("games_, plies, keywords, words", [
    ([0, 1], [0], {}, "games and plies must have the same length, got 2 and 1"),
    ([-1], [0], {}, "games must be >= 0, got -1"),
    ([0.5], [0], {}, "games must be a one-dimensional integer array, got float64"),
    ([[0]], [[0]], {}, r"games must be a one-dimensional integer array, got int64 \(1, 1\)"),
    ([0], [0], {"opening": "yes"}, "opening must be True or False"),
])
def test_roll_dice_refuses_counters_it_cannot_count_from(games_, plies, keywords, words):
    # A float game number was truncated, a negative one rolled another game's dice, and
    # different lengths or a 2-D array raised a bare ValueError from the kernel.
    with pytest.raises(ValueError, match=words):
        games.roll_dice(1, np.array(games_), np.array(plies), **keywords)
