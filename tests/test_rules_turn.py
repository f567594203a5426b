"""docs/rules.md §2 (a turn): known answers worked out by hand.

Positions are drawn from the mover's side with ``tests.boards.board``:
``opponent_at`` is keyed by the MOVER's point numbers. Many positions park the
mover's idle stones on points 1 and 2: no die of 3 or more moves them (in the
arrival finish a target below 1 does not exist; in bear-off mode a stone
outside home forbids bearing off), so only the drawn stones can move.
"""
import pytest

from bansugoroku_fast import Position, Step
from tests.boards import (
    ALL_RULES,
    BACKGAMMON,
    BAN,
    BAN_ARRIVAL,
    BAN_BEAR_OFF,
    BEARING_OFF,
    board,
    mover_row,
    notations,
    rules_params,
    step_lists,
)

ALL = rules_params(ALL_RULES)
START = Position.initial()

# --- two dice, doubles --------------------------------------------------------------

#: Backgammon start, 6-5. The opponent holds the mover's 1, 12, 17 and 19.
#: 6s: 24/18, 13/7, 8/2 (6/off is not allowed); 5s: 13/8, 8/3 (24/19 and 6/1
#: are blocked). 24/18/13; 13/7/2 = 13/8/2 = 8/2 13/8: one play (13/2).
START_65 = ["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/2", "13/7 8/3", "8/3 8/2"]


@pytest.mark.parametrize("rules", ALL)
def test_start_six_five_has_seven_plays(engine, rules):
    """'A non-double (a, b) gives two moves, one with each die'; 'two sequences
    are the same play when they reach the same position' (start 6-5: 7 plays)."""
    plays = engine.legal_plays(START, (6, 5), rules)
    assert notations(plays) == START_65
    assert all(len(play.steps) == 2 for play in plays)
    assert len({play.position for play in plays}) == 7


def test_canonical_step_lists_of_start_six_five(engine):
    """'each with one canonical move list': the greatest (from, to, die) key.
    13/2 is reached by 13/7/2, 13/8/2 and 8/2 13/8; the greatest is 13/8 8/2."""
    plays = {str(p): p for p in engine.legal_plays(START, (6, 5), BACKGAMMON)}
    assert plays["13/2"].steps == ((13, 8), (8, 2)) and plays["13/2"].dice == (5, 6)
    assert plays["24/13"].steps == ((24, 18), (18, 13)) and plays["24/13"].dice == (6, 5)
    assert plays["13/8 13/7"].steps == ((13, 8), (13, 7))
    assert plays["8/3 8/2"].steps == ((8, 3), (8, 2))
    assert plays["24/13"].position == board(
        mover={24: 1, 13: 6, 8: 3, 6: 5}, opponent_at={1: 2, 12: 5, 17: 3, 19: 5}
    )


@pytest.mark.parametrize("rules", ALL)
def test_all_orderings_of_start_six_five(engine, rules):
    """'enumerating every ordering is an option': 14 legal orders, 7 positions."""
    plays = engine.legal_plays(START, (6, 5), rules, all_orderings=True)
    assert step_lists(plays) == [
        ((24, 18), (18, 13)), ((24, 18), (13, 8)), ((24, 18), (8, 3)),
        ((13, 8), (24, 18)), ((13, 8), (13, 7)), ((13, 8), (8, 2)),
        ((13, 7), (13, 8)), ((13, 7), (8, 3)), ((13, 7), (7, 2)),
        ((8, 3), (24, 18)), ((8, 3), (13, 7)), ((8, 3), (8, 2)),
        ((8, 2), (13, 8)), ((8, 2), (8, 3)),
    ]  # fmt: skip
    assert len({play.position for play in plays}) == 7


@pytest.mark.parametrize("rules", ALL)
def test_first_steps_of_start_six_five(engine, rules):
    """'Step by step: a single move is offered only if some legal full play starts with it.'"""
    assert engine.legal_first_steps(START, (6, 5), rules) == [
        Step(24, 18, 6, False),
        Step(13, 8, 5, False),
        Step(13, 7, 6, False),
        Step(8, 3, 5, False),
        Step(8, 2, 6, False),
    ]


@pytest.mark.parametrize("rules", rules_params(BAN))
def test_start_six_six_ban_sugoroku_moves_twice(engine, rules):
    """'A double (a, a) gives two moves of a in Ban-sugoroku.' Start 6-6:
    24/18, 13/7, 8/2 (18/12 and 7/1 are blocked)."""
    plays = engine.legal_plays(START, (6, 6), rules)
    assert notations(plays) == ["24/18(2)", "24/18 13/7", "24/18 8/2", "13/7(2)", "13/7 8/2", "8/2(2)"]
    assert all(play.dice == (6, 6) for play in plays)


def test_start_six_six_backgammon_moves_four_times(engine):
    """'... four in modern backgammon.' Start 6-6: a x 24/18 (a <= 2),
    b x 13/7, c x 8/2 (c <= 3), a + b + c = 4: 11 plays."""
    plays = engine.legal_plays(START, (6, 6), BACKGAMMON)
    assert notations(plays) == [
        "24/18(2) 13/7(2)", "24/18(2) 13/7 8/2", "24/18(2) 8/2(2)",
        "24/18 13/7(3)", "24/18 13/7(2) 8/2", "24/18 13/7 8/2(2)", "24/18 8/2(3)",
        "13/7(4)", "13/7(3) 8/2", "13/7(2) 8/2(2)", "13/7 8/2(3)",
    ]  # fmt: skip
    assert all(play.dice == (6, 6, 6, 6) for play in plays)


#: One free stone on 20, the rest on 1 and 2, open board ahead.
LONE_RUNNER = board(mover={20: 1, 2: 7, 1: 7}, opponent_at={24: 13, 12: 2})


@pytest.mark.parametrize(
    "rules, expected, steps",
    [pytest.param(r, "20/14", 2, id=r.short_name) for r in BAN]
    + [pytest.param(BACKGAMMON, "20/8", 4, id="backgammon")],
)
def test_doubles_move_count(engine, rules, expected, steps):
    """'two moves of a in Ban-sugoroku, four in modern backgammon': 3-3 from 20."""
    (play,) = engine.legal_plays(LONE_RUNNER, (3, 3), rules)
    assert str(play) == expected
    assert play.steps == tuple((20 - 3 * i, 17 - 3 * i) for i in range(steps))


# --- play as many dice as possible, the larger die -------------------------------------


@pytest.mark.parametrize("dice", [(6, 5), (5, 6)])
@pytest.mark.parametrize("rules", ALL)
def test_larger_die_must_be_played(engine, rules, dice):
    """'If that number is one and the dice differ, the larger die must be the
    one played whenever some one-die play uses it.' 20/14 or 20/15, never
    both: 9 is blocked."""
    position = board(mover={20: 1, 2: 7, 1: 7}, opponent_at={9: 2, 24: 13})
    plays = engine.legal_plays(position, dice, rules)
    assert notations(plays) == ["20/14"]
    assert plays[0].dice == (6,)
    assert engine.legal_first_steps(position, dice, rules) == [Step(20, 14, 6, False)]


@pytest.mark.parametrize("dice", [(6, 5), (5, 6)])
@pytest.mark.parametrize("rules", ALL)
def test_smaller_die_when_only_it_is_playable(engine, rules, dice):
    """'... whenever some one-die play uses it': 14 blocked, so only the 5 (20/15)."""
    position = board(mover={20: 1, 2: 7, 1: 7}, opponent_at={9: 2, 14: 2, 24: 11})
    plays = engine.legal_plays(position, dice, rules)
    assert notations(plays) == ["20/15"]
    assert engine.legal_first_steps(position, dice, rules) == [Step(20, 15, 5, False)]


#: 6-3. 20/14 is open but then no 3 is playable (14/11 and 10/7 blocked), while
#: 20/17 10/4 and 10/4/1 use both dice.
KILLER = board(mover={20: 1, 10: 1, 2: 7, 1: 6}, opponent_at={11: 2, 7: 2, 24: 11})


@pytest.mark.parametrize("rules", ALL)
def test_a_first_move_that_kills_the_second_die_is_no_play(engine, rules):
    """'Of all sequences, only those using the greatest possible number of dice
    are legal': 20/14 alone uses one die."""
    plays = engine.legal_plays(KILLER, (6, 3), rules)
    assert notations(plays) == ["20/17 10/4", "10/1"]
    assert step_lists(plays) == [((20, 17), (10, 4)), ((10, 4), (4, 1))]


@pytest.mark.parametrize("rules", ALL)
def test_first_steps_never_kill_the_second_die(engine, rules):
    """'a single move is offered only if some legal full play starts with it,
    so a first move never prevents the second die' (20/14 is not offered)."""
    assert engine.legal_first_steps(KILLER, (6, 3), rules) == [
        Step(20, 17, 3, False),
        Step(10, 4, 6, False),
    ]


@pytest.mark.parametrize("rules", ALL)
def test_all_orderings_lists_each_legal_order(engine, rules):
    """'enumerating every ordering is an option': 20/17 10/4 two ways, 10/4/1 one way."""
    plays = engine.legal_plays(KILLER, (6, 3), rules, all_orderings=True)
    assert step_lists(plays) == [((20, 17), (10, 4)), ((10, 4), (20, 17)), ((10, 4), (4, 1))]
    assert [play.dice for play in plays] == [(3, 6), (6, 3), (6, 3)]
    assert plays[0].position == plays[1].position != plays[2].position


# --- blocked points, hits -------------------------------------------------------------


@pytest.mark.parametrize(
    "blocked, steps",
    [
        pytest.param((), ((20, 17), (17, 11)), id="both-open"),
        pytest.param((14,), ((20, 17), (17, 11)), id="14-blocked-via-17"),
        pytest.param((17,), ((20, 14), (14, 11)), id="17-blocked-via-14"),
    ],
)
@pytest.mark.parametrize("rules", ALL)
def test_one_stone_uses_both_dice_through_an_open_point(engine, rules, blocked, steps):
    """'a stone using both dice needs an open intermediate point too' (6-3, 20 to 11)."""
    opponent = {point: 2 for point in blocked}
    opponent.update({24: 13 - 2 * len(blocked), 12: 2})  # not all home: no arrival win
    position = board(mover={20: 1, 2: 7, 1: 7}, opponent_at=opponent)
    plays = engine.legal_plays(position, (6, 3), rules)
    assert notations(plays) == ["20/11"]
    assert plays[0].steps == steps


@pytest.mark.parametrize("rules", ALL)
def test_both_intermediate_points_blocked(engine, rules):
    """'A point holding two or more opponent stones is blocked: no move may end
    there': 14 and 17 blocked, 11 open, yet 20 cannot reach 11. A pass."""
    position = board(mover={20: 1, 2: 7, 1: 7}, opponent_at={14: 2, 17: 2, 24: 11})
    assert engine.legal_plays(position, (6, 3), rules) == []
    assert engine.legal_first_steps(position, (6, 3), rules) == []


@pytest.mark.parametrize("rules", rules_params(BAN))
def test_hits_go_to_the_opponents_bar(engine, rules):
    """'Landing on a point with exactly one opponent stone hits it: it goes to
    the opponent's bar (index 25 of row 1).' 3-3: 20/17*/14*."""
    position = board(mover={20: 1, 2: 7, 1: 7}, opponent_at={17: 1, 14: 1, 24: 13})
    (play,) = engine.legal_plays(position, (3, 3), rules)
    assert str(play) == "20/17*/14*"
    assert play.hits == (True, True)
    assert play.position == board(mover={14: 1, 2: 7, 1: 7}, opponent_at={24: 13}, opponent_bar=2)
    assert play.position.array[1][25] == 2


def test_backgammon_double_hits_and_moves_on(engine):
    """docs/rules.md §2.4: the same board in backgammon, 3-3 moves four times.
    The stones on 2 and 1 cannot move a 3 (no bear-off while 20 is outside),
    so the one stone goes 20/17*/14*/11/8, hitting twice."""
    position = board(mover={20: 1, 2: 7, 1: 7}, opponent_at={17: 1, 14: 1, 24: 13})
    (play,) = engine.legal_plays(position, (3, 3), BACKGAMMON)
    assert str(play) == "20/17*/14*/8"
    assert play.steps == ((20, 17), (17, 14), (14, 11), (11, 8))
    assert play.hits == (True, True, False, False)
    assert play.position.array[1][25] == 2


# --- the bar ----------------------------------------------------------------------------

#: Entry points: die d enters at 25 - d; 6-3 enters at 19 or 22.
BAR_STONES = {10: 1, 2: 7, 1: 6}


@pytest.mark.parametrize("rules", ALL)
def test_enter_with_one_die_then_move_any_stone(engine, rules):
    """'While the mover has stones on the bar, every move must enter one: die d
    enters at point 25 - d. Other stones may move only once the bar is empty,
    with the dice still unused.' 19 blocked: bar/22, then the 6 anywhere."""
    position = board(mover=BAR_STONES, mover_bar=1, opponent_at={19: 2, 24: 11, 12: 2})
    plays = engine.legal_plays(position, (6, 3), rules)
    assert notations(plays) == ["bar/16", "bar/22 10/4"]
    assert step_lists(plays) == [((25, 22), (22, 16)), ((25, 22), (10, 4))]
    assert engine.legal_first_steps(position, (6, 3), rules) == [Step(25, 22, 3, False)]


@pytest.mark.parametrize("rules", ALL)
def test_enter_two_stones_with_both_dice(engine, rules):
    """'every move must enter one': two on the bar, 6-3, both entries open."""
    position = board(mover={10: 1, 2: 6, 1: 6}, mover_bar=2, opponent_at={24: 13, 12: 2})
    plays = engine.legal_plays(position, (6, 3), rules)
    assert notations(plays) == ["bar/22 bar/19"]
    assert engine.legal_first_steps(position, (6, 3), rules) == [
        Step(25, 22, 3, False),
        Step(25, 19, 6, False),
    ]


@pytest.mark.parametrize("rules", ALL)
def test_second_bar_stone_cannot_enter(engine, rules):
    """'every move must enter one': two on the bar, 19 blocked: bar/22 only,
    the 6 is lost (10/4 may not be played while a stone is on the bar)."""
    position = board(mover={10: 1, 2: 6, 1: 6}, mover_bar=2, opponent_at={19: 2, 24: 11, 12: 2})
    plays = engine.legal_plays(position, (6, 3), rules)
    assert notations(plays) == ["bar/22"]
    assert plays[0].dice == (3,)


@pytest.mark.parametrize("dice", [(6, 3), (3, 3), (6, 6)])
@pytest.mark.parametrize("rules", ALL)
def test_no_entry_is_a_pass(engine, rules, dice):
    """'No legal sequence: the turn passes (also when bar stones cannot enter).
    A pass is an empty list of plays'; the outcome query says the game goes on."""
    position = board(mover=BAR_STONES, mover_bar=1, opponent_at={19: 2, 22: 2, 24: 9, 12: 2})
    assert engine.legal_plays(position, dice, rules) == []
    assert engine.legal_first_steps(position, dice, rules) == []
    assert engine.outcome(position, rules) is None


@pytest.mark.parametrize("rules", ALL)
def test_hit_on_entry(engine, rules):
    """'Landing on a point with exactly one opponent stone hits it', entering too."""
    position = board(mover=BAR_STONES, mover_bar=1, opponent_at={19: 2, 22: 1, 24: 10, 12: 2})
    plays = engine.legal_plays(position, (6, 3), rules)
    assert notations(plays) == ["bar/22*/16", "bar/22* 10/4"]
    assert [play.hits for play in plays] == [(True, False), (True, False)]
    assert plays[1].position == board(
        mover={22: 1, 4: 1, 2: 7, 1: 6}, opponent_at={19: 2, 24: 10, 12: 2}, opponent_bar=1
    )


@pytest.mark.parametrize(
    "rules, expected",
    [pytest.param(r, ["bar/22 10/7"], id=r.short_name) for r in BAN]
    + [pytest.param(BACKGAMMON, ["bar/22 10/1"], id="backgammon")],
)
def test_double_from_the_bar(engine, rules, expected):
    """3-3 with one on the bar: enter at 22 (22/19 blocked), then 10 moves:
    once in Ban-sugoroku, three times in backgammon."""
    position = board(mover=BAR_STONES, mover_bar=1, opponent_at={19: 2, 24: 11, 12: 2})
    assert notations(engine.legal_plays(position, (3, 3), rules)) == expected


# --- bearing off ------------------------------------------------------------------------

BEAR = rules_params(BEARING_OFF)


@pytest.mark.parametrize("rules", BEAR)
def test_bear_off_exact_and_higher_die(engine, rules):
    """'die d bears off a stone from point d; a die larger than the highest
    occupied point bears off from that highest point; otherwise the die must be
    played inside home.' Stones on 6 and 4, roll 6-4."""
    position = board(mover={6: 1, 4: 1}, opponent_at={12: 15})
    plays = engine.legal_plays(position, (6, 4), rules)
    # 6/2 then the 6 bears off from 4 (now the highest); or 6/off and 4/off.
    assert step_lists(plays) == [((6, 2), (4, 0)), ((6, 0), (4, 0))]
    assert notations(plays) == ["6/2 4/off", "6/off 4/off"]
    assert [mover_row(play.position) for play in plays] == [{2: 1, "off": 14}, {"off": 15}]


@pytest.mark.parametrize("rules", BEAR)
def test_bear_off_smaller_dice_must_move_inside(engine, rules):
    """'otherwise the die must be played inside home': two on 6, roll 4-3."""
    position = board(mover={6: 2}, opponent_at={12: 15})
    plays = engine.legal_plays(position, (4, 3), rules)
    assert notations(plays) == ["6/3 6/2"]


@pytest.mark.parametrize("rules", BEAR)
def test_no_bear_off_while_a_stone_is_outside(engine, rules):
    """'only when all of the mover's stones still on the board are on points
    1..6': 5/off is not a first move while a stone is on 7."""
    position = board(mover={7: 1, 5: 1}, opponent_at={12: 15})
    plays = engine.legal_plays(position, (6, 5), rules)
    assert step_lists(plays) == [((7, 2), (5, 0)), ((7, 1), (5, 0))]
    assert engine.legal_first_steps(position, (6, 5), rules) == [
        Step(7, 2, 5, False),
        Step(7, 1, 6, False),
    ]


@pytest.mark.parametrize("rules", BEAR)
def test_no_bear_off_while_a_stone_is_on_the_bar(engine, rules):
    """'(none on the bar, none outside)': 3/off would be exact, but the bar
    stone cannot enter on 22: a pass."""
    position = board(mover={3: 1}, mover_bar=1, opponent_at={22: 2, 12: 13})
    assert engine.legal_plays(position, (3, 3), rules) == []


@pytest.mark.parametrize("rules", BEAR)
def test_a_stone_hit_during_bear_off_must_come_home_first(engine, rules):
    """'A stone hit during bear-off must re-enter and come home before bearing
    off resumes': bar/20/14 (or bar/19/14); 2/off is never played."""
    position = board(mover={2: 1}, mover_bar=1, opponent_at={12: 15})
    plays = engine.legal_plays(position, (6, 5), rules)
    assert step_lists(plays) == [((25, 20), (20, 14))]
    assert str(plays[0]) == "bar/14"


@pytest.mark.parametrize("rules", rules_params(BAN_ARRIVAL))
def test_arrival_never_moves_past_point_1(engine, rules):
    """'In arrival mode never: a move whose target is below 1 does not exist.'
    4-2: 20 is shut in (18, 16 blocked); 3/1 is the only move, the 4 is lost."""
    position = board(mover={20: 1, 3: 14}, opponent_at={18: 2, 16: 2, 24: 11})
    plays = engine.legal_plays(position, (4, 2), rules)
    assert notations(plays) == ["3/1"]
    assert all(step.target >= 1 for step in engine.legal_first_steps(position, (4, 2), rules))


# --- the last stone ------------------------------------------------------------------------

#: Last stone on 2, roll 2-1, an opponent blot on the mover's 1-point.
LAST_STONE = board(mover={2: 1}, opponent_at={1: 1, 12: 14})


def test_backgammon_last_stone_must_use_both_dice(engine):
    """'a play that bears off the last stone with one die is legal only if no
    play uses both dice (...): only 2/1* 1/off.'"""
    plays = engine.legal_plays(LAST_STONE, (2, 1), BACKGAMMON)
    assert step_lists(plays) == [((2, 1), (1, 0))]
    assert plays[0].hits == (True, False)
    assert str(plays[0]) in ("2/1*/off", "2/1* 1/off")
    assert engine.legal_first_steps(LAST_STONE, (2, 1), BACKGAMMON) == [Step(2, 1, 1, True)]
    assert engine.outcome(plays[0].position, BACKGAMMON).kind == "backgammon"


@pytest.mark.parametrize("rules", rules_params(BAN_BEAR_OFF))
def test_ban_sugoroku_last_stone_may_stop_at_the_win(engine, rules):
    """'in Ban-sugoroku a won game uses no more dice ... in every finish': 2/off
    with the 2 wins at once (the 1 is lost); 2/1*/off is legal too."""
    plays = engine.legal_plays(LAST_STONE, (2, 1), rules)
    assert step_lists(plays) == [((2, 1), (1, 0)), ((2, 0),)]
    assert [play.dice for play in plays] == [(1, 2), (2,)]
    assert engine.legal_first_steps(LAST_STONE, (2, 1), rules) == [
        Step(2, 1, 1, True),
        Step(2, 0, 2, False),
    ]
    assert [engine.outcome(p.position, rules).kind for p in plays] == ["bear-off", "bear-off"]


@pytest.mark.parametrize(
    "rules, orders",
    [pytest.param(r, [((2, 1), (1, 0)), ((2, 0),)], id=r.short_name) for r in BAN_BEAR_OFF]
    + [pytest.param(BACKGAMMON, [((2, 1), (1, 0))], id="backgammon")],
)
def test_last_stone_without_a_blot(engine, rules, orders):
    """Without the blot, 2/1 1/off and 2/off reach one position: one play
    (canonical 2/1 1/off); its orders differ: backgammon must use both dice."""
    position = board(mover={2: 1}, opponent_at={12: 15})
    plays = engine.legal_plays(position, (2, 1), rules)
    assert step_lists(plays) == [((2, 1), (1, 0))]
    assert step_lists(engine.legal_plays(position, (2, 1), rules, all_orderings=True)) == orders


# --- pass vs game over ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules, position",
    [
        pytest.param(BACKGAMMON, board(mover={6: 15}, opponent_at={}, opponent_off=15), id="backgammon"),
        pytest.param(BAN_ARRIVAL[0], board(mover={13: 15}, opponent_at={24: 15}), id="ban/arrival"),
        pytest.param(BAN_BEAR_OFF[0], board(mover={13: 15}, opponent_at={}, opponent_off=15), id="ban/bear_off"),
    ],
)
@pytest.mark.parametrize("dice", [(6, 5), (1, 1)])
def test_a_finished_game_has_no_plays(engine, rules, position, dice):
    """'a position whose game is already over also has no plays, and the
    outcome query tells the two apart' (here the opponent, row 1, has won)."""
    assert engine.legal_plays(position, dice, rules) == []
    assert engine.legal_first_steps(position, dice, rules) == []
    assert engine.outcome(position, rules).winner == 1
