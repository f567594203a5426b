"""docs/rules.md §1 (the board and the position), §5 (names of rolls) and
the rule options of §3.1 and §4.1: known answers worked out by hand."""
import dataclasses

import numpy as np
import pytest

import bansugoroku_fast
from bansugoroku_fast import Position, Rules
from tests.boards import (
    ALL_RULES,
    BACKGAMMON,
    BAN_ARRIVAL,
    START,
    board,
    notations,
    rules_params,
)

# --- 1. Coordinates ---------------------------------------------------------------


def test_start_position():
    """'Start: each side has 2 on 24, 5 on 13, 3 on 8, 5 on 6 (pip count 167).'"""
    start = Position.initial()
    for row in start.rows:
        assert {p: row[p] for p in range(26) if row[p]} == {24: 2, 13: 5, 8: 3, 6: 5}
    # Seen from the mover: the opponent's 24, 13, 8, 6 are the mover's 1, 12, 17, 19.
    assert start == board(**START)
    assert start.pip_counts == (167, 167)


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_start_position_is_the_same_for_every_rule_set(rules):
    """The start position is the same in Ban-sugoroku and backgammon."""
    assert Position.initial(rules) == board(**START)


def test_start_pip_counts(engine):
    """'(pip count 167)'"""
    assert engine.pip_counts(Position.initial()) == (167, 167)


def test_point_p_is_point_25_minus_p_of_the_other_side():
    """'Point p of one side is point 25 - p of the other.'"""
    position = board(mover={20: 1, 3: 14}, opponent_at={5: 2, 24: 13})
    seen_by_opponent = position.swapped()
    # the mover's 20 and 3 are the other side's 5 and 22
    assert seen_by_opponent.rows[1][20] == 1 and seen_by_opponent.rows[1][3] == 14
    # the opponent's stones on the mover's 5 and 24 are on its own 20 and 1
    assert seen_by_opponent.rows[0][20] == 2 and seen_by_opponent.rows[0][1] == 13
    assert seen_by_opponent.swapped() == position


def test_a_hit_on_the_movers_point_p_empties_the_opponents_point_25_minus_p(engine):
    """'Point p of one side is point 25 - p of the other': hitting on the
    mover's 16 takes the blot off the opponent's 9."""
    position = board(mover={20: 1, 1: 14}, opponent_at={16: 1, 24: 14})
    (play,) = engine.legal_plays(position, (4, 4), BAN_ARRIVAL[2])
    assert str(play) == "20/16*/12" and play.hits == (True, False)
    assert play.position.rows[1][9] == 0 and play.position.rows[1][25] == 1


def test_home_is_points_1_to_6_for_the_arrival_finish(engine):
    """'Home = points 1..6': 15 stones on 1..6 have arrived; one on 7 has not."""
    home = board(mover={1: 3, 2: 2, 3: 2, 4: 2, 5: 3, 6: 3}, opponent_at={12: 15})
    outside = board(mover={1: 3, 2: 2, 3: 2, 4: 2, 5: 3, 6: 2, 7: 1}, opponent_at={12: 15})
    assert engine.outcome(home, Rules()).winner == 0
    assert engine.outcome(outside, Rules()) is None


@pytest.mark.parametrize(
    "loser_point, kind", [(19, "backgammon"), (18, "gammon")], ids=["own-19-in-winners-home", "own-18-outer"]
)
def test_opponents_home_is_points_19_to_24(engine, loser_point, kind):
    """'Opponent's home = points 19..24': a loser's stone on its own 19
    (the winner's 6) is in the winner's home; on its own 18 it is not."""
    position = board(mover={}, opponent_at={25 - loser_point: 1, 12: 14}, mover_off=15)
    assert engine.outcome(position, BACKGAMMON).kind == kind


def test_interchange_layout():
    """'int8[2, 26]: row 0 = the side to move, row 1 = the opponent, index 0 =
    stones borne off, 1..24 = points, 25 = bar.'"""
    position = board(mover={6: 3}, opponent_at={19: 2}, mover_bar=1, opponent_bar=4)
    array = position.array
    assert array.shape == (2, 26) and array.dtype == np.int8
    assert (array[0][0], array[0][6], array[0][25]) == (11, 3, 1)
    assert (array[1][0], array[1][6], array[1][25]) == (9, 2, 4)
    assert array.sum(axis=1).tolist() == [15, 15]


@pytest.mark.parametrize(
    "rows, problem",
    [
        pytest.param(
            ([0] * 6 + [15] + [0] * 19, [0] * 19 + [15] + [0] * 6), "both sides", id="shared-point"
        ),
        pytest.param(([0] * 6 + [14] + [0] * 19, [15] + [0] * 25), "15", id="row-sum-14"),
        pytest.param(([0] * 6 + [16] + [0] * 18 + [-1], [15] + [0] * 25), "negative", id="negative"),
    ],
)
def test_interchange_layout_constraints(rows, problem):
    """'All counts are >= 0, each row sums to 15, and no point holds stones of
    both sides (point p of row 0 and point 25 - p of row 1 are the same point).'"""
    with pytest.raises(ValueError, match=problem):
        Position(list(rows))


# --- options (section 3's table, section 3's backgammon paragraph) ---------------------


def test_rules_defaults():
    """Ban-sugoroku defaults: finish 'arrival', closure 'multiplied', start 'alternate'."""
    rules = Rules()
    assert (rules.variant, rules.finish, rules.closure, rules.start) == (
        "ban-sugoroku",
        "arrival",
        "multiplied",
        "alternate",
    )
    assert rules.doubles_moves == 2


def test_rules_backgammon():
    """'Modern backgammon: doubles move four times; bear-off mode'; the opening
    by each side rolling one die."""
    rules = Rules(variant="backgammon")
    assert (rules.finish, rules.closure, rules.start) == ("bear_off", "off", "roll_off")
    assert rules.doubles_moves == 4


def test_rules_frozen_and_hashable():
    """Rules are frozen and hashable (a dict key)."""
    rules = Rules(finish="bear_off")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.finish = "arrival"
    table = {rules: 1, Rules(variant="backgammon"): 2}
    assert table[Rules(finish="bear_off", closure="multiplied")] == 1
    assert hash(Rules()) == hash(Rules(closure="multiplied"))


@pytest.mark.parametrize(
    "options, accepted",
    [
        pytest.param({"variant": "chess"}, ["'ban-sugoroku'", "'backgammon'"], id="variant"),
        pytest.param({"finish": "sudden"}, ["'arrival'", "'bear_off'"], id="finish"),
        pytest.param({"closure": "sometimes"}, ["'multiplied'", "'immediate'", "'off'"], id="closure"),
        pytest.param({"start": "coin"}, ["'alternate'", "'roll_off'"], id="start"),
        pytest.param({"variant": "backgammon", "finish": "arrival"}, ["'bear_off'"], id="bg-finish"),
        pytest.param({"variant": "backgammon", "closure": "multiplied"}, ["'off'"], id="bg-closure"),
        pytest.param({"variant": "backgammon", "start": "alternate"}, ["'roll_off'"], id="bg-start"),
    ],
)
def test_rules_refuse_unknown_names(options, accepted):
    """Unknown names, and options the variant does not have, raise ValueError
    naming the accepted values."""
    with pytest.raises(ValueError) as caught:
        Rules(**options)
    for value in accepted:
        assert value in str(caught.value)


@pytest.mark.parametrize("start", ["alternate", "roll_off"])
def test_who_starts_options(engine, start):
    """'who starts: alternate / roll_off' are Ban-sugoroku options; neither
    changes move generation."""
    rules = Rules(start=start)
    assert rules.start == start
    plays = engine.legal_plays(Position.initial(), (6, 5), rules)
    assert notations(plays) == notations(engine.legal_plays(Position.initial(), (6, 5), Rules()))


# --- 4. Names ---------------------------------------------------------------------


def _roll_name(where):
    """``roll_name`` from the game module or at package level."""
    return (bansugoroku_fast if where == "package" else bansugoroku_fast.games.interactive).roll_name


@pytest.mark.parametrize("where", ["game", "package"])
@pytest.mark.parametrize(
    "dice, name",
    [((6, 6), "Chōroku"), ((4, 4), "Shushi"), ((6, 5), "Goroku"), ((5, 6), "Goroku"), ((1, 1), "Decchi")],
)
def test_roll_names(where, dice, name):
    """'The seeds name four rolls: Chōroku (6-6), Shushi (4-4), Goroku (6-5), Decchi (1-1).'"""
    assert _roll_name(where)(dice) == name


@pytest.mark.parametrize("where", ["game", "package"])
@pytest.mark.parametrize("dice", [(5, 5), (2, 1), (6, 4)])
def test_other_rolls_have_no_name(where, dice):
    """Only four rolls have names."""
    assert _roll_name(where)(dice) is None


def test_batch_layout():
    """'A batch is int8[N, 2, 26], C-contiguous': the start (6-5: 7 plays) and a
    lone runner on 20 (6-5: only 20/9) counted in one batch."""
    runner = board(mover={20: 1, 2: 7, 1: 7}, opponent_at={24: 13, 12: 2})
    batch = np.ascontiguousarray(np.stack([Position.initial().array, runner.array]), dtype=np.int8)
    assert batch.shape == (2, 2, 26)
    assert list(bansugoroku_fast.count_plays(batch, (6, 5), BACKGAMMON)) == [7, 1]
