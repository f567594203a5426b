"""The rule queries (blocked points, blots, closure, pip counts, shots) on
positions drawn from the mover's side (``opponent_at`` keyed by the MOVER's
point numbers), with answers counted by hand."""
import pytest

from bansugoroku_fast import Position, Rules
from tests.boards import (
    BACKGAMMON,
    BAN,
    board,
    rules_params,
)

BAN_AND_BG = [pytest.param(r, 16, id=r.short_name) for r in BAN] + [pytest.param(BACKGAMMON, 17, id="backgammon")]


def test_blocked_points_of_the_start(engine):
    """'A point holding two or more opponent stones is blocked': the opponent
    holds the mover's 1, 12, 17 and 19 at the start."""
    assert engine.blocked_points(Position.initial()) == (1, 12, 17, 19)


def test_blocked_points_and_blots(engine):
    """Blocked: two or more; a blot (hashiishi) is exactly one; each side's blots in its own numbering."""
    position = board(mover={20: 1, 5: 1, 13: 13}, opponent_at={10: 1, 3: 1, 24: 13})
    assert engine.blocked_points(position) == (24,)
    # the opponent's blots on the mover's 10 and 3 are its own 15 and 22
    assert engine.blots(position) == ((5, 20), (15, 22))
    assert engine.blots(Position.initial()) == ((), ())


#: The mover holds points 1..6 with two each, three on 8; an opponent stone on the bar.
CLOSED = board(mover={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, opponent_at={12: 14}, opponent_bar=1)


@pytest.mark.parametrize(
    "position, side, holds",
    [
        pytest.param(CLOSED, 0, True, id="held"),
        pytest.param(CLOSED, 1, False, id="other-side"),
        pytest.param(CLOSED.swapped(), 1, True, id="held-by-row-1"),
        pytest.param(CLOSED.swapped(), 0, False, id="row-0-on-the-bar"),
        pytest.param(
            board(mover={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, opponent_at={12: 15}), 0, False, id="no-bar-stone"
        ),
        pytest.param(
            board(mover={1: 1, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, opponent_at={12: 14}, opponent_bar=1),
            0,
            False,
            id="point-1-single",
        ),
    ],
)
def test_closure_holds(engine, position, side, holds):
    """'Closure: the opponent has at least one stone on the bar and each of the
    mover's six home points holds two or more of the mover's stones.'"""
    assert engine.closure_holds(position, side) is holds


def test_pip_counts(engine):
    """Pip counts: point x stones, the bar counting 25, borne-off stones 0."""
    position = board(mover={6: 2}, mover_bar=1, opponent_at={24: 3})  # the opponent's own 1-point
    assert engine.pip_counts(position) == (25 + 2 * 6, 3)


# --- shots ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules, expected", BAN_AND_BG)
def test_shots_at_a_direct_six(engine, rules, expected):
    """A blot 6 away from the only free stone: every roll with a 6 (11), 5-1
    and 4-2 (2 each), 3-3 (1) and, in backgammon only (a double moves four
    times), 2-2 (1): 16 in Ban-sugoroku, 17 in backgammon."""
    position = board(mover={20: 1, 1: 14}, opponent_at={14: 1, 24: 14})
    assert engine.shots(position, rules) == expected


@pytest.mark.parametrize(
    "rules, blocked, expected",
    [pytest.param(r, True, 11, id=r.short_name + "-11-blocked") for r in BAN]
    + [pytest.param(r, False, 13, id=r.short_name + "-11-open") for r in BAN]
    + [
        pytest.param(BACKGAMMON, True, 12, id="backgammon-11-blocked"),
        pytest.param(BACKGAMMON, False, 14, id="backgammon-11-open"),
    ],
)
def test_shots_count_only_legal_plays(engine, rules, blocked, expected):
    """shots counts the rolls for which some LEGAL play hits. A blot 3 away:
    3-1, 3-2, 3-4, 3-5 (8), 2-1 (2), 3-3 (1), 1-1 in backgammon (1). With 6-3
    and 11 blocked only one die plays, the larger must be played (20/14), so
    20/17* is not legal and 6-3 does not count; with 11 open, 20/17*/11 counts (+2)."""
    opponent = {17: 1, 11: 2, 24: 12} if blocked else {17: 1, 24: 14}
    position = board(mover={20: 1, 1: 14}, opponent_at=opponent)
    assert engine.shots(position, rules) == expected


#: Entry points 24, 23, 22, 21 and 19 blocked: only a 5 enters (on the mover's 20).
SHUT_OUT = {24: 2, 23: 2, 22: 2, 21: 2, 19: 6, 14: 1}


@pytest.mark.parametrize("rules", rules_params(BAN + [BACKGAMMON]))
def test_shots_respect_the_bar(engine, rules):
    """'While the mover has stones on the bar, every move must enter one': the
    stone on 20 hits the blot on 14 only after entering with a 5, so only 6-5
    hits (2 of 36)."""
    position = board(mover={20: 1, 1: 13}, mover_bar=1, opponent_at=SHUT_OUT)
    assert engine.shots(position, rules) == 2


@pytest.mark.parametrize("rules, expected", BAN_AND_BG)
def test_shots_without_the_bar_stone(engine, rules, expected):
    """The same board with the bar stone on 20 instead: the direct-6 count again."""
    position = board(mover={20: 2, 1: 13}, opponent_at=SHUT_OUT)
    assert engine.shots(position, rules) == expected


def test_no_blot_no_shots(engine):
    assert engine.shots(Position.initial(), BACKGAMMON) == 0


def test_no_shots_when_the_game_is_over(engine):
    """'a position whose game is already over also has no plays': no shots
    (a held closure under 'immediate', though an opponent stone could be hit on 12)."""
    position = board(mover={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, opponent_at={12: 1, 7: 13}, opponent_bar=1)
    assert engine.shots(position, Rules(closure="immediate")) == 0
    assert engine.shots(position, Rules(closure="multiplied")) > 0


# --- perft (docs/rules.md §6.2, decision D9) ----------------------------------------------

#: The mover's last stone on the bar; the opponent holds all six entry points
#: (the mover's 19..24, its own home): no roll enters, every roll passes. That
#: is also the opponent's closure (docs/rules.md §3.3), which ends the game
#: only under 'immediate' (§3.5).
NO_ENTRY = board(
    mover={10: 1, 2: 7, 1: 6},
    mover_bar=1,
    opponent_at={19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3},
)


@pytest.mark.parametrize(
    "rules, expected",
    [pytest.param(r, 1 if r.closure == "immediate" else 21, id=r.short_name) for r in BAN]
    + [pytest.param(BACKGAMMON, 21, id="backgammon")],
)
def test_perft_counts_a_pass_as_one_node(engine, rules, expected):
    """'perft counts a roll with no play as one node, and a finished game as
    one leaf': each of the 21 rolls is a pass (21), unless the opponent's
    closure has already won the game (one leaf)."""
    assert engine.perft(NO_ENTRY, 1, rules) == expected


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_perft_of_a_finished_game_is_one_leaf(engine, depth):
    """A won game (all 15 of the mover's stones home, arrival finish) has no
    rolls to expand: one leaf at every depth."""
    won = board(mover={1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}, opponent_at={15: 15})
    assert engine.perft(won, depth, Rules()) == 1
