"""docs/rules.md §3 (ending a Ban-sugoroku game and its value), §4.2 (the
value of a backgammon win) and the win-stop decision of §2.8: known answers worked out by hand.

Positions are drawn from the mover's side with ``tests.boards.board``
(``opponent_at`` keyed by the MOVER's point numbers). Closure: the opponent
has a stone on the bar and each of the mover's points 1..6 holds two or more.
"""
import pytest

from bansugoroku_fast import Outcome, Position, Rules, Step
from bansugoroku_fast.errors import InvalidPositionError
from tests.boards import (
    BACKGAMMON,
    BAN_ARRIVAL,
    BAN_BEAR_OFF,
    board,
    notations,
    rules_params,
    step_lists,
)

MULTIPLIED = Rules(closure="multiplied")
IMMEDIATE = Rules(closure="immediate")
OFF = Rules(closure="off")
ARRIVAL = rules_params(BAN_ARRIVAL)


def home(counts, outside=None) -> dict:
    """The mover's points 1..6 from counts listed from point 1 to point 6,
    plus the ``outside`` points ``{point: count}``."""
    return {point: count for point, count in zip(range(1, 7), counts) if count} | (outside or {})


def value_of(result: Outcome):
    return (result.winner, result.value, str(result.kind))


# --- the arrival win, and the win-stop ---------------------------------------------------


@pytest.mark.parametrize("rules", ARRIVAL)
def test_arrival_win_with_one_die(engine, rules):
    """'arrival: win the moment all 15 stones are on points 1..6'; 'A sequence
    stops the moment its side wins; a winning sequence counts as using all its
    dice ..., so the larger-die rule never restricts it. The unused dice are
    lost.' 8/6 and 8/2 each win with one die; both are legal."""
    position = board(mover={1: 14, 8: 1}, opponent_at={12: 15})
    plays = engine.legal_plays(position, (6, 2), rules)
    assert notations(plays) == ["8/6", "8/2"]
    assert [play.dice for play in plays] == [(2,), (6,)]
    assert engine.legal_first_steps(position, (6, 2), rules) == [Step(8, 6, 2, False), Step(8, 2, 6, False)]
    for play in plays:
        assert value_of(engine.outcome(play.position, rules)) == (0, 1, "arrival")


@pytest.mark.parametrize("rules", ARRIVAL)
def test_one_die_wins_coexist_with_two_dice_plays(engine, rules):
    """'a winning sequence counts as using all its dice when the rule above
    compares sequences': 3-1 with stones on 7 and 5 (the rest on 1). 7/6 and
    7/4 win at once; 5/4 7/4 and 5/2 7/6 win with the second die; 5/1 does not win."""
    position = board(mover={1: 13, 5: 1, 7: 1}, opponent_at={12: 15})
    plays = engine.legal_plays(position, (3, 1), rules)
    assert notations(plays) == ["7/6", "7/4", "7/4 5/4", "5/1", "7/6 5/2"]
    assert step_lists(plays) == [
        ((7, 6),),
        ((7, 4),),
        ((5, 4), (7, 4)),
        ((5, 4), (4, 1)),
        ((5, 2), (7, 6)),
    ]
    won = [engine.outcome(play.position, rules) is not None for play in plays]
    assert won == [True, True, True, False, True]


@pytest.mark.parametrize("dice, expected", [((1, 1), "7/6"), ((2, 2), "7/5")])
@pytest.mark.parametrize("rules", ARRIVAL)
def test_a_win_stops_a_double(engine, rules, dice, expected):
    """'A sequence stops the moment its side wins': the second move of the double is lost."""
    position = board(mover={1: 14, 7: 1}, opponent_at={12: 15})
    plays = engine.legal_plays(position, dice, rules)
    assert notations(plays) == [expected]
    assert len(plays[0].steps) == 1


@pytest.mark.parametrize("rules", ARRIVAL)
def test_fifteen_home_with_one_outside_is_not_a_win(engine, rules):
    """'win the moment all 15 stones are on points 1..6'."""
    assert engine.outcome(board(mover={1: 14, 7: 1}, opponent_at={12: 15}), rules) is None


# --- outcome values: Ban-sugoroku ---------------------------------------------------------

#: (home counts on points 1..6, opponent on the bar?) -> expected under 'multiplied'
MULTIPLIED_CASES = [
    pytest.param((2, 2, 2, 3, 3, 3), 1, (0, 3, "closed-home-x3"), id="222333-bar-x3"),
    pytest.param((2, 3, 2, 3, 2, 3), 1, (0, 3, "closed-home-x3"), id="232323-bar-x3"),
    pytest.param((3, 3, 3, 2, 2, 2), 1, (0, 2, "closed-home-x2"), id="333222-bar-x2"),
    pytest.param((3, 2, 3, 2, 3, 2), 1, (0, 2, "closed-home-x2"), id="323232-bar-x2"),
    pytest.param((2, 2, 2, 2, 2, 5), 1, (0, 2, "closed-home-x2"), id="222225-bar-x2"),
    pytest.param((2, 2, 2, 3, 3, 3), 0, (0, 1, "arrival"), id="222333-no-bar-x1"),
    pytest.param((1, 2, 3, 3, 3, 3), 1, (0, 1, "arrival"), id="one-on-1-x1"),
]


@pytest.mark.parametrize("counts, opponent_bar, expected", MULTIPLIED_CASES)
def test_multiplied_closure_values(engine, counts, opponent_bar, expected):
    """'multiplied: a win is worth 1; worth 2 (mushi-gachi) if the closure
    holds; worth 3 (mujō-gachi) if the closure holds and the home counts on
    points 1..6 are exactly 2-2-2-3-3-3 or 2-3-2-3-2-3' (read from point 1;
    the triple requires the opponent's stone on the bar too)."""
    position = board(mover=home(counts), opponent_at={12: 15 - opponent_bar}, opponent_bar=opponent_bar)
    assert value_of(engine.outcome(position, MULTIPLIED)) == expected
    # the same position seen by the other side: row 1 has won
    assert value_of(engine.outcome(position.swapped(), MULTIPLIED)) == (1,) + expected[1:]


@pytest.mark.parametrize("rules, kind", [(IMMEDIATE, "arrival"), (OFF, "arrival")], ids=["immediate", "off"])
@pytest.mark.parametrize("counts", [(2, 2, 2, 3, 3, 3), (3, 3, 3, 2, 2, 2)], ids=["222333", "333222"])
def test_closure_never_multiplies_outside_multiplied(engine, rules, kind, counts):
    """'immediate: ... worth 1' (finishing takes precedence in naming);
    'off: the closure has no effect; every win is worth 1'."""
    position = board(mover=home(counts), opponent_at={12: 14}, opponent_bar=1)
    assert value_of(engine.outcome(position, rules)) == (0, 1, kind)


#: A closure without a finish: points 1..6 held by two each, three stones on 8.
CLOSED = board(mover=home((2,) * 6, {8: 3}), opponent_at={12: 14}, opponent_bar=1)


@pytest.mark.parametrize(
    "rules, expected",
    [
        pytest.param(IMMEDIATE, (0, 1, "closure"), id="ban/arrival/immediate"),
        pytest.param(Rules(finish="bear_off", closure="immediate"), (0, 1, "closure"), id="ban/bear_off/immediate"),
        pytest.param(MULTIPLIED, None, id="ban/arrival/multiplied"),
        pytest.param(OFF, None, id="ban/arrival/off"),
        pytest.param(Rules(finish="bear_off", closure="multiplied"), None, id="ban/bear_off/multiplied"),
        pytest.param(BACKGAMMON, None, id="backgammon"),
    ],
)
def test_a_held_closure_is_over_only_under_immediate(engine, rules, expected):
    """'immediate: ... a position in which either side's closure already holds is over.'"""
    result = engine.outcome(CLOSED, rules)
    assert (None if result is None else value_of(result)) == expected
    swapped = engine.outcome(CLOSED.swapped(), rules)
    assert (None if swapped is None else value_of(swapped)) == (
        None if expected is None else (1,) + expected[1:]
    )


@pytest.mark.parametrize("rules", rules_params([IMMEDIATE, Rules(finish="bear_off", closure="immediate")]))
def test_a_held_closure_under_immediate_has_no_plays(engine, rules):
    """'a position whose game is already over also has no plays' (either side's closure)."""
    assert engine.legal_plays(CLOSED, (3, 1), rules) == []
    assert engine.legal_plays(CLOSED.swapped(), (3, 1), rules) == []
    assert engine.legal_first_steps(CLOSED, (3, 1), rules) == []


@pytest.mark.parametrize("dice", [(6, 5), (1, 1), (3, 2)])
@pytest.mark.parametrize("rules", [MULTIPLIED, OFF], ids=lambda r: r.short_name)
def test_a_held_closure_shuts_the_bar_stone_out(engine, rules, dice):
    """'While it holds, the opponent cannot enter at all: muji' (a pass, game on)."""
    facing = CLOSED.swapped()  # row 0 is now the side on the bar
    assert engine.outcome(facing, rules) is None
    assert engine.legal_plays(facing, dice, rules) == []


#: 6-5. Home 2-2-2-2-2-1, one stone on 11, three on 20 (20/14 and 20/15
#: blocked), an opponent stone on the bar. 11/6 forms the closure.
CLOSING = board(
    mover=home((2, 2, 2, 2, 2, 1), {11: 1, 20: 3}),
    opponent_at={14: 2, 15: 2, 22: 10},
    opponent_bar=1,
)


@pytest.mark.parametrize("rules", rules_params([IMMEDIATE, Rules(finish="bear_off", closure="immediate")]))
def test_immediate_closure_wins_mid_turn(engine, rules):
    """'immediate: forming the closure wins at once, worth 1, also in the middle
    of a turn': 11/6 stops the play, the 6 is lost."""
    plays = engine.legal_plays(CLOSING, (6, 5), rules)
    assert notations(plays) == ["11/6", "11/5 6/1"]
    assert value_of(engine.outcome(plays[0].position, rules)) == (0, 1, "closure")
    assert engine.outcome(plays[1].position, rules) is None
    assert engine.legal_first_steps(CLOSING, (6, 5), rules) == [
        Step(11, 6, 5, False),
        Step(11, 5, 6, False),
        Step(6, 1, 5, False),
    ]


@pytest.mark.parametrize(
    "rules",
    rules_params([MULTIPLIED, OFF] + [Rules(finish="bear_off", closure=c) for c in ("multiplied", "off")]),
)
def test_forming_the_closure_is_no_win_without_immediate(engine, rules):
    """'multiplied' and 'off': the closure alone wins nothing, so 11/6 (after
    which no 6 is playable) uses one die and is not legal."""
    assert notations(engine.legal_plays(CLOSING, (6, 5), rules)) == ["11/5 6/1"]


#: 6-5. Home held, three on 20; an opponent blot on 15, 14 blocked.
HIT_CLOSES = board(mover=home((2,) * 6, {20: 3}), opponent_at={15: 1, 14: 2, 22: 12})


@pytest.mark.parametrize("rules", rules_params([IMMEDIATE, Rules(finish="bear_off", closure="immediate")]))
def test_immediate_closure_by_a_hit(engine, rules):
    """'a hit that puts an opponent stone on the bar while the home is already
    held forms it too': 20/15* wins at once."""
    assert engine.outcome(HIT_CLOSES, rules) is None
    plays = engine.legal_plays(HIT_CLOSES, (6, 5), rules)
    assert notations(plays) == ["20/15*"]
    assert plays[0].hits == (True,)
    assert value_of(engine.outcome(plays[0].position, rules)) == (0, 1, "closure")


@pytest.mark.parametrize("rules", rules_params([MULTIPLIED, OFF, Rules(finish="bear_off", closure="off")]))
def test_a_closing_hit_does_not_stop_the_turn_otherwise(engine, rules):
    """Without 'immediate' the hitting stone goes on with the 6: 20/15*/9."""
    plays = engine.legal_plays(HIT_CLOSES, (6, 5), rules)
    assert notations(plays) == ["20/15*/9"]
    assert engine.outcome(plays[0].position, rules) is None


def test_multiplied_values_of_plays(engine):
    """'worth 3 ... if, at the moment of winning, the closure holds' and the
    home reads 2-2-2-3-3-3: 7/6 makes it; 7/5 makes 2-2-2-3-4-2 (x2)."""
    position = board(mover=home((2, 2, 2, 3, 3, 2), {7: 1}), opponent_at={12: 14}, opponent_bar=1)
    plays = {str(play): play for play in engine.legal_plays(position, (2, 1), MULTIPLIED)}
    assert value_of(engine.outcome(plays["7/6"].position, MULTIPLIED)) == (0, 3, "closed-home-x3")
    assert value_of(engine.outcome(plays["7/5"].position, MULTIPLIED)) == (0, 2, "closed-home-x2")
    assert len(plays["7/6"].steps) == len(plays["7/5"].steps) == 1


# --- the bear_off finish ----------------------------------------------------------------------


@pytest.mark.parametrize("rules", rules_params(BAN_BEAR_OFF))
def test_bear_off_finish_win_is_worth_one(engine, rules):
    """'first to bear off 15 wins'; 'With the bear_off finish ... multiplied
    never multiplies there: such wins are worth 1' (even with an opponent
    stone on the bar and none of its stones borne off)."""
    position = board(mover={}, mover_off=15, opponent_at={12: 14}, opponent_bar=1)
    assert value_of(engine.outcome(position, rules)) == (0, 1, "bear-off")
    assert value_of(engine.outcome(position.swapped(), rules)) == (1, 1, "bear-off")


@pytest.mark.parametrize("rules", rules_params(BAN_BEAR_OFF))
def test_bear_off_finish_needs_the_stones_off(engine, rules):
    """'gather all 15 home, then bear off; first to bear off 15 wins': all 15
    home is no win yet."""
    position = board(mover=home((3, 2, 2, 2, 3, 3)), opponent_at={12: 15})
    assert engine.outcome(position, rules) is None


def test_arrival_finish_has_no_borne_off_stones(engine):
    """'arrival: ... stones never leave the board' (a position with borne-off
    stones is refused under the arrival finish)."""
    position = board(mover={6: 14}, opponent_at={12: 15})
    with pytest.raises(InvalidPositionError):
        engine.legal_plays(position, (6, 5), Rules())


def test_both_sides_won_is_refused(engine):
    """A position where both sides have won is not a position any game reaches."""
    position = board(mover={6: 15}, opponent_at={19: 15})
    with pytest.raises(InvalidPositionError):
        engine.outcome(position, Rules())


@pytest.mark.parametrize("finish", ["arrival", "bear_off"])
def test_both_closures_held_under_immediate_is_refused(engine, finish):
    """docs/rules.md §3.8: each side holds its home with two on every point
    while the other has a stone on the bar. Under 'immediate' both have won:
    no game reaches that, so it is refused; under 'multiplied' neither has
    finished and the game goes on."""
    position = board(
        mover={point: 2 for point in range(1, 7)} | {10: 2},
        mover_bar=1,
        opponent_at={point: 2 for point in range(19, 25)} | {15: 2},
        opponent_bar=1,
    )
    with pytest.raises(InvalidPositionError, match="both sides have won"):
        engine.outcome(position, Rules(finish=finish, closure="immediate"))
    assert engine.outcome(position, Rules(finish=finish, closure="multiplied")) is None


# --- backgammon values ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "loser, expected",
    [
        pytest.param(dict(opponent_at={12: 14}, opponent_off=1), (0, 1, "single"), id="single"),
        pytest.param(dict(opponent_at={12: 13}, opponent_bar=1, opponent_off=1), (0, 1, "single"), id="single-bar"),
        pytest.param(dict(opponent_at={12: 15}), (0, 2, "gammon"), id="gammon"),
        pytest.param(dict(opponent_at={7: 15}), (0, 2, "gammon"), id="gammon-on-own-18"),
        pytest.param(dict(opponent_at={12: 14}, opponent_bar=1), (0, 3, "backgammon"), id="backgammon-bar"),
        pytest.param(dict(opponent_at={12: 14, 3: 1}), (0, 3, "backgammon"), id="backgammon-winners-home"),
        pytest.param(dict(opponent_at={6: 15}), (0, 3, "backgammon"), id="backgammon-own-19"),
    ],
)
def test_backgammon_values(engine, loser, expected):
    """'wins 1 (single; the loser has borne off at least one), 2 (gammon: the
    loser has borne off none) or 3 (backgammon: none borne off and a loser's
    stone on the bar or in the winner's home)'."""
    position = board(mover={}, mover_off=15, **loser)
    assert value_of(engine.outcome(position, BACKGAMMON)) == expected
    assert value_of(engine.outcome(position.swapped(), BACKGAMMON)) == (1,) + expected[1:]


def test_backgammon_value_times_the_cube(engine):
    """'..., times the cube.'"""
    result = engine.outcome(board(mover={}, mover_off=15, opponent_at={12: 15}), BACKGAMMON)
    assert result.value == 2 and result.points(4) == 8


def test_backgammon_is_not_over_before_the_last_stone(engine):
    """'the first side to bear off all 15 wins'."""
    assert engine.outcome(board(mover={1: 1}, opponent_at={12: 15}), BACKGAMMON) is None
    assert engine.outcome(Position.initial(), BACKGAMMON) is None
