"""Known-answer tests of the game layer (docs/rules.md §2.12 step by
step, §3.9 and §4.4 who starts, §4.3 the cube, §5 roll names). Every expected value is worked out by
hand in the comments, never copied from the program's output."""
import random

import numpy as np
import pytest

import bansugoroku_fast as bf
from bansugoroku_fast import Computer, IllegalPlayError, OutcomeKind, Position, Rules, Step
from bansugoroku_fast.games.interactive import (
    CubeRecord,
    Game,
    GameStateError,
    Match,
    ScriptedDice,
    Turn,
    TurnRecord,
    dice_to_play,
    play_random_turn,
    roll_name,
)
from tests.boards import board

BACKGAMMON = Rules(variant="backgammon")
BAN = Rules()  # arrival finish, multiplied closure, alternate start
BAN_ROLL_OFF = Rules(start="roll_off")


# Positions are drawn with tests.boards.board: both sides' stones keyed by
# the MOVER's point numbers (the opponent's own point p is the mover's 25 - p);
# whatever is missing from 15 is borne off.

# A drawn position (Ban-sugoroku, arrival) for "a first move never strands a die".
# Mover: 13 stones on point 1 (they can never move in arrival mode), one on 8
# (stone B) and one on 20 (stone A). The opponent holds the mover's points 3
# and 9 (its own points 22 and 16) with two stones each, 11 on its point 6.
# Roll 6-5:
#   A 20/14 (6): then the 5 has nothing: A 14/9 is blocked, B 8/3 is blocked.
#   A 20/15 (5): then the 6 plays B 8/2 (A 15/9 is blocked) -> both dice.
#   B 8/2 (6):   then the 5 plays A 20/15 -> both dice.
#   B 8/3 (5):   blocked.
# Both dice can be played, so 20/14 (which strands the 5) must not be offered.
STRANDING = board({1: 13, 8: 1, 20: 1}, {3: 2, 9: 2, 19: 11})

# Ban-sugoroku arrival: 14 stones on point 1, one on 7 -> any die brings it
# home and wins at once (15 on points 1..6, no closure: opponent's bar empty).
# The opponent waits on its point 13 (the mover's 12), far from home.
ONE_STONE_OUT = board({1: 14, 7: 1}, {12: 15})

# Backgammon: the mover has a stone on the bar, the opponent holds all six of
# its home points (the mover's 19..24) with two stones each: no entry, a pass.
SHUT_OUT = board({6: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3}, mover_bar=1)


def keys(steps):
    return [(s.origin, s.target, s.die) for s in steps]


# --- roll names (docs/rules.md §5) ------------------------------------------------


@pytest.mark.parametrize(
    "dice, name",
    [((6, 6), "Chōroku"), ((4, 4), "Shushi"), ((6, 5), "Goroku"), ((5, 6), "Goroku"),
     ((1, 1), "Decchi"), ("6-5", "Goroku"), ((5, 5), None), ((2, 1), None), ((6, 4), None)],
)
def test_roll_names(dice, name):
    assert roll_name(dice) == name


def test_roll_name_rejects_bad_dice():
    with pytest.raises(bf.errors.InvalidDiceError):
        roll_name((0, 6))


def test_dice_to_play_doubles_per_variant():
    # docs/rules.md §2.1: a double moves twice in Ban-sugoroku, four times in backgammon.
    assert dice_to_play((4, 4), BAN) == (4, 4)
    assert dice_to_play((4, 4), BACKGAMMON) == (4, 4, 4, 4)
    assert dice_to_play((6, 1), BAN) == (6, 1)


# --- a turn step by step (docs/rules.md §2.12) ------------------------------------------


def test_first_steps_at_backgammon_start():
    # 6-5 from the start: 24/18, 13/8, 13/7, 8/3, 8/2. Not 24/19 (the
    # opponent's 5 stones on its 6-point), not 6/1 or 6/0 (its 2 on its
    # 24-point block the 1; bearing off needs every stone home).
    turn = Turn(Position.initial(), (6, 5), BACKGAMMON)
    expected = [(24, 18, 6), (13, 8, 5), (13, 7, 6), (8, 3, 5), (8, 2, 6)]
    assert keys(turn.legal_steps()) == expected
    assert turn.legal_steps() == bf.legal_first_steps(Position.initial(), (6, 5), BACKGAMMON)


def test_a_first_step_never_strands_the_other_die():
    turn = Turn(STRANDING, (6, 5), BAN)
    assert keys(turn.legal_steps()) == [(20, 15, 5), (8, 2, 6)]
    with pytest.raises(IllegalPlayError, match="not legal"):
        turn.play("20/14")
    assert turn.steps == () and turn.position == STRANDING  # refused, nothing changed


def test_second_steps_follow_the_first():
    turn = Turn(STRANDING, (6, 5), BAN)
    turn.play("20/15")
    assert keys(turn.legal_steps()) == [(8, 2, 6)]  # A 15/9 is blocked
    assert turn.dice_left == (6,)
    turn.undo()
    turn.play((8, 2))
    assert keys(turn.legal_steps()) == [(20, 15, 5)]
    assert turn.dice_left == (5,)


def test_larger_die_when_only_one_can_be_played():
    # Only stone A (20) can move; its continuation to 9 is blocked either way,
    # so only one die can be played and it must be the 6: 20/14, not 20/15.
    position = board({1: 14, 20: 1}, {9: 2, 19: 13})
    turn = Turn(position, (6, 5), BAN)
    assert keys(turn.legal_steps()) == [(20, 14, 6)]
    turn.play("20/14")
    assert turn.is_complete and turn.dice_left == ()  # the 5 is lost


def test_undo_returns_to_the_start_while_dice_remain():
    start = Position.initial()
    turn = Turn(start, (6, 5), BACKGAMMON)
    turn.undo()  # nothing played: nothing to undo, no error
    turn.play("13/7")
    assert turn.position != start and turn.dice_left == (5,)
    turn.undo()
    assert turn.steps == () and turn.position == start and turn.dice_left == (6, 5)
    assert turn.legal_steps() == bf.legal_first_steps(start, (6, 5), BACKGAMMON)


def test_turn_passes_automatically_when_all_dice_are_used():
    turn = Turn(Position.initial(), (6, 5), BACKGAMMON)
    turn.play(Step(13, 7, 6, False))
    assert not turn.is_complete
    turn.play("7/2")
    assert turn.is_complete and turn.dice_left == () and turn.legal_steps() == []
    assert str(turn.play_result()) == "13/2"
    with pytest.raises(IllegalPlayError, match="can no longer be undone"):
        turn.undo()
    with pytest.raises(IllegalPlayError, match="complete"):
        turn.play("24/18")


def test_a_win_ends_the_turn_with_dice_left_over():
    # Ban-sugoroku: either die brings the last stone home and wins; the other
    # die is not played, and the larger-die rule does not remove 7/6.
    turn = Turn(ONE_STONE_OUT, (1, 2), BAN)
    assert keys(turn.legal_steps()) == [(7, 6, 1), (7, 5, 2)]
    turn.play("7/6")
    assert turn.is_complete and turn.dice_left == ()
    assert turn.play_result().dice == (1,)
    won = bf.outcome(turn.position, BAN)
    assert (won.winner, won.value, won.kind) == (0, 1, OutcomeKind.ARRIVAL)
    with pytest.raises(IllegalPlayError):
        turn.undo()


def test_backgammon_double_gives_four_steps():
    turn = Turn(Position.initial(), (3, 3), BACKGAMMON)
    assert turn.dice_left == (3, 3, 3, 3)
    turn.play("13/10")
    turn.play("13/10")
    assert turn.dice_left == (3, 3)
    turn.play("8/5(2)")
    assert turn.is_complete and str(turn.play_result()) == "13/10(2) 8/5(2)"


def test_a_hop_may_span_both_dice_and_is_all_or_nothing():
    turn = Turn(Position.initial(), (6, 5), BACKGAMMON)
    with pytest.raises(IllegalPlayError):
        turn.play("24/18 24/13")  # the 24/13 would need a third die
    assert turn.steps == ()
    turn.play("24/13")
    # The stone cannot stop on 19 (the opponent's 6-point holds 5), so the
    # hop is 24/18 with the 6, then 18/13 with the 5.
    assert keys(turn.steps) == [(24, 18, 6), (18, 13, 5)]


def test_bar_entry_and_hit_in_notation():
    # Mover: one stone on the bar, 14 on 6. The opponent has a blot on its
    # point 3 (the mover's 22) and 14 on its point 6 (the mover's 19).
    position = board({6: 14}, {22: 1, 19: 14}, mover_bar=1)
    turn = Turn(position, (3, 1), BACKGAMMON)
    # Every first step must enter: bar/22* with the 3, bar/24 with the 1.
    assert [(s.origin, s.target, s.die, s.hit) for s in turn.legal_steps()] == [
        (25, 24, 1, False), (25, 22, 3, True)]
    turn.play("bar/22*")
    assert turn.position.rows[1][25] == 1  # the opponent's blot is on its bar
    turn.play("6/5")
    assert str(turn.play_result()) == "bar/22* 6/5"


def test_pass_and_finished_game_turns_are_complete_at_once():
    turn = Turn(SHUT_OUT, (6, 6), BACKGAMMON)
    assert turn.is_pass and turn.is_complete and turn.play_result() is None
    assert turn.legal_steps() == [] and turn.dice_left == ()
    finished = board({}, {19: 15})  # the mover has borne off all 15
    assert Turn(finished, (2, 1), BACKGAMMON).is_pass


# --- who starts (docs/rules.md §3.9, §4.4) -------------------------------------------------------


def test_alternate_first_game_seat_0_rolls_both_dice():
    game = Game(BAN, ScriptedDice([3, 1]))
    assert game.starter == 0 and game.seat_to_move == 0 and game.opening_rolls == []
    assert game.roll() == (3, 1)


def test_alternate_starter_alternates_game_by_game():
    match = Match(BAN, seed=11)
    match.play_random_games(4)
    assert [game.starter for game in match.games] == [0, 1, 0, 1]
    assert all(game.history[0].seat == game.starter for game in match.games)
    assert sum(match.scores) == sum(game.result.points for game in match.games)


def test_roll_off_ties_roll_again_then_fresh_dice_in_ban_sugoroku():
    # 4-4 and 6-6 tie; then seat 0 rolls 2, seat 1 rolls 5: seat 1 starts and
    # rolls both dice afresh (3-1).
    dice = ScriptedDice([4, 4, 6, 6, 2, 5, 3, 1])
    game = Game(BAN_ROLL_OFF, dice)
    assert game.opening_rolls == [(4, 4), (6, 6), (2, 5)]
    assert game.starter == 1 and game.seat_to_move == 1
    assert game.roll() == (3, 1) and dice.remaining == 0


def test_backgammon_opening_plays_the_roll_off_dice():
    # 5-5 ties; then seat 0 rolls 6, seat 1 rolls 2: seat 0 plays 6-2 at once.
    dice = ScriptedDice([5, 5, 6, 2])
    game = Game(BACKGAMMON, dice)
    assert game.starter == 0 and game.opening_rolls == [(5, 5), (6, 2)]
    assert not game.can_double  # the opening dice are already rolled
    assert game.roll() == (6, 2) and dice.remaining == 0
    game.play("24/18 13/11")
    assert game.seat_to_move == 1
    assert (game.history[0].seat, game.history[0].dice) == (0, (6, 2))


def test_starter_is_refused_with_roll_off():
    with pytest.raises(GameStateError):
        Game(BACKGAMMON, 1, starter=1)


# --- playing and passing -----------------------------------------------------------


def test_a_roll_without_play_passes_at_once():
    game = Game.from_position(SHUT_OUT, BACKGAMMON, ScriptedDice([3, 1]))
    assert game.roll() == (3, 1)
    assert game.history == [TurnRecord(1, 0, (3, 1), None)]
    assert game.seat_to_move == 1 and game.dice is None
    assert game.position == SHUT_OUT.swapped()
    assert game.position_for(0) == SHUT_OUT


def test_play_before_rolling_and_illegal_plays_are_refused():
    game = Game(BAN, ScriptedDice([6, 5]))
    with pytest.raises(GameStateError, match="not rolled"):
        game.play("24/13")
    game.roll()
    with pytest.raises(IllegalPlayError):
        game.play("24/20")  # no 4 in 6-5
    with pytest.raises(IllegalPlayError, match="not a legal play"):
        game.play("24/18")  # half a play
    with pytest.raises(GameStateError, match="already rolled"):
        game.roll()


def test_play_takes_a_completed_turn():
    game = Game(BAN, ScriptedDice([6, 5]))
    game.roll()
    turn = game.start_turn()
    turn.play("13/7")
    turn.play("7/2")
    game.play(turn)
    played = game.history[-1].play
    assert str(played) == "13/2" and game.seat_to_move == 1
    # The position is now seen by seat 1; seat 0's view has the stone on 2.
    assert game.position_for(0).rows[0][2] == 1


def test_a_win_is_scored_for_the_seat_that_moved():
    game = Game.from_position(ONE_STONE_OUT, BAN, ScriptedDice([1, 2]), seat_to_move=1)
    game.roll()
    game.play("7/6")
    assert game.is_over and game.result.winner == 1 and game.result.points == 1
    assert game.result.outcome.kind == OutcomeKind.ARRIVAL
    with pytest.raises(GameStateError, match="over"):
        game.roll()


def random_game(rules: Rules, seed: object) -> Game:
    """A whole game of random plays: the computer in both seats, no cube,
    its choices drawn from ``random.Random(0)``, the dice from ``seed``."""
    game = Game(rules, seed)
    for seat in (0, 1):
        game.hand_over(seat, Computer("random", cube=None, rng=random.Random(0)))
    game.advance()
    return game


def test_same_seed_same_game():
    first, second = random_game(BACKGAMMON, 42), random_game(BACKGAMMON, 42)
    assert [str(r) for r in first.history] == [str(r) for r in second.history]
    assert first.result == second.result
    other = random_game(BACKGAMMON, np.random.default_rng(42))
    assert other.is_over


# --- the cube (docs/rules.md §4.3) ------------------------------------------------


def test_cube_offer_take_and_ownership():
    game = Game.from_position(Position.initial(), BACKGAMMON, random.Random(1))
    assert game.cube == 1 and game.cube_owner is None and game.can_double
    game.offer_double()
    with pytest.raises(GameStateError, match="answer the double"):
        game.roll()
    game.take()
    assert (game.cube, game.cube_owner) == (2, 1)  # the taker owns it
    assert game.history == [CubeRecord(0, "double", 1), CubeRecord(1, "take", 2)]
    assert game.seat_to_move == 0 and not game.can_double  # seat 1 owns the cube
    with pytest.raises(GameStateError, match="owns the cube"):
        game.offer_double()
    play_random_turn(game)
    assert game.seat_to_move == 1 and game.can_double  # the owner may redouble


def test_cube_drop_scores_the_value_before_the_offer():
    game = Game.from_position(Position.initial(), BACKGAMMON, random.Random(2),
                              cube=2, cube_owner=0)
    game.offer_double()
    game.drop()
    assert game.is_over and game.result.winner == 0 and game.result.points == 2
    assert game.result.dropped and game.cube == 2


def test_cube_doubles_to_64_and_stops():
    game = Game.from_position(Position.initial(), BACKGAMMON, random.Random(3))
    values = []
    for _ in range(6):
        game.offer_double()
        game.take()
        values.append(game.cube)
        play_random_turn(game)
    assert values == [2, 4, 8, 16, 32, 64]
    assert not game.is_over
    # Takes by seats 1, 0, 1, 0, 1, 0: seat 0 owns the 64 cube and is on roll.
    assert game.cube_owner == 0 and game.seat_to_move == 0
    assert not game.can_double
    with pytest.raises(GameStateError, match="64"):
        game.offer_double()


def test_no_double_after_rolling_or_in_ban_sugoroku():
    game = Game.from_position(Position.initial(), BACKGAMMON, ScriptedDice([3, 1]))
    game.roll()
    with pytest.raises(GameStateError, match="already rolled"):
        game.offer_double()
    with pytest.raises(GameStateError, match="no double"):
        game.take()
    ban = Game(BAN, 1)
    assert not ban.can_double
    with pytest.raises(GameStateError, match="Ban-sugoroku"):
        ban.offer_double()


def test_gammon_times_cube():
    # The mover has one stone left, on its point 1; the opponent has borne off
    # none and has all 15 on its own 6-point (not in the mover's home): a
    # gammon, 2 points, times the cube 2 the opponent took = 4.
    position = board({1: 1}, {19: 15})
    game = Game.from_position(position, BACKGAMMON, ScriptedDice([2, 1]))
    game.offer_double()
    game.take()
    game.roll()
    game.play("1/off")
    result = game.result
    assert (result.winner, result.outcome.kind, result.outcome.value) == (0, OutcomeKind.GAMMON, 2)
    assert result.cube == 2 and result.points == 4


def test_backgammon_times_cube_with_the_plain_must_play_rule():
    # docs/rules.md §2.9: last stone on 2, roll 2-1, an opponent blot on the mover's
    # 1-point (its 24): only 2/1* 1/off (both dice beat 2/off with one).
    # The hit leaves a loser's stone on the bar: a backgammon, 3 x cube 4 = 12.
    position = board({2: 1}, {1: 1, 19: 14})
    game = Game.from_position(position, BACKGAMMON, ScriptedDice([2, 1]), cube=4, cube_owner=1)
    game.roll()
    assert [str(play) for play in game.legal_plays()] == ["2/1*/off"]
    game.play(game.legal_plays()[0])
    assert game.result.outcome.kind == OutcomeKind.BACKGAMMON and game.result.points == 12


def test_from_a_finished_position_the_game_is_over():
    game = Game.from_position(board({}, {19: 15}), BACKGAMMON, seat_to_move=1)
    assert game.is_over and game.result.winner == 1 and game.result.points == 2


def _walk(position, dice, rules, prefix, found: set) -> None:
    """Every path through ``legal_steps`` (a fresh turn per path, since a
    complete turn cannot be undone): each must complete a legal play."""
    turn = Turn(position, dice, rules)
    for step in prefix:
        turn.play(step)
    if turn.is_complete:
        found.add(turn.steps)
        return
    for step in turn.legal_steps():
        _walk(position, dice, rules, prefix + (step,), found)


@pytest.mark.parametrize("rules", [BAN, Rules(finish="bear_off", closure="immediate"), BACKGAMMON],
                         ids=lambda rules: rules.short_name)
def test_step_by_step_walks_are_exactly_the_legal_orderings(rules):
    # Along a random game: walking the offered steps reaches every legal
    # ordering and nothing else, and the first offers are legal_first_steps.
    game = random_game(rules, seed=7)
    seen = 0
    for record in game.history[:: max(1, len(game.history) // 8)]:
        if record.play is None or bf.outcome(record.play.position, rules) is not None:
            continue
        position = record.play.position.swapped()
        for dice in ((6, 5), (2, 1)) + (((3, 3),) if not rules.is_backgammon else ()):
            orderings = {play.as_steps() for play in bf.legal_plays(position, dice, rules, all_orderings=True)}
            turn = Turn(position, dice, rules)
            assert turn.legal_steps() == bf.legal_first_steps(position, dice, rules)
            walked: set = set()
            _walk(position, dice, rules, (), walked)
            assert walked == orderings or (not orderings and walked == {()})
            seen += 1
    assert seen >= 12


def test_turn_takes_steps_with_their_die():
    turn = Turn(Position.initial(), (6, 5), BACKGAMMON)
    with pytest.raises(IllegalPlayError, match="13/7 with a 5"):
        turn.play((13, 7, 5))  # 13/7 is a 6
    turn.play((13, 7, 6))
    assert turn.steps == (Step(13, 7, 6, False),)


def test_the_cube_must_show_a_cube_value():
    with pytest.raises(ValueError, match="power of 2"):
        Game.from_position(Position.initial(), BACKGAMMON, cube=3)
    with pytest.raises(ValueError, match="power of 2"):
        Game.from_position(Position.initial(), BACKGAMMON, cube=128)


@pytest.mark.parametrize("seat", [2, -1, True, 1.0, None])
def test_a_seat_is_0_or_1(seat):
    # One check for every seat the package takes (checks.as_side): a bool
    # or a float is not a seat.
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        Game.from_position(Position.initial(), BACKGAMMON, seat_to_move=seat)
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        Game(BACKGAMMON, seed=1).position_for(seat)
    with pytest.raises(ValueError, match="cube_owner must be 0 or 1"):
        Game.from_position(Position.initial(), BACKGAMMON, cube=2, cube_owner=2)
