"""The computer opponent: the pip-count cube rule on hand-built races, a
seat handed to the computer (for one turn, from now on, mid-turn, and given
back), and policies given as callables."""
import random

import numpy as np
import pytest

from bansugoroku_fast import Game, Position, Rules, legal_plays, play_games
from bansugoroku_fast.errors import GameStateError, InvalidPolicyError, PolicyOutputError
from bansugoroku_fast.games.computer import Computer, PipCountCube
from bansugoroku_fast.games.interactive import CubeRecord, ScriptedDice, TurnRecord

BACKGAMMON = Rules(variant="backgammon")


def side(points: dict) -> list[int]:
    """One row in its own numbering; stones not placed are borne off."""
    row = [0] * 26
    for point, count in points.items():
        row[point] = count
    row[0] = 15 - sum(points.values())
    return row


# The doubler (row 0, on roll) always has 100 pips: 10 stones on its 6-point
# and 5 on its 8-point. The other side's layouts below add up to the pip
# count in their name, on points that never clash with the doubler's (its
# 6 and 8 are the other side's 19 and 17).
DOUBLER = side({6: 10, 8: 5})
OTHER = {
    100: side({6: 10, 8: 5}),
    107: side({6: 8, 8: 5, 9: 1, 10: 1}),         # 48 + 40 + 9 + 10
    108: side({6: 8, 8: 5, 10: 2}),               # 48 + 40 + 20
    109: side({6: 8, 8: 5, 10: 1, 11: 1}),        # 48 + 40 + 10 + 11
    112: side({6: 8, 8: 5, 10: 1, 14: 1}),        # 48 + 40 + 10 + 14
    113: side({6: 8, 8: 5, 10: 1, 15: 1}),        # 48 + 40 + 10 + 15
    140: side({6: 5, 8: 5, 10: 2, 15: 2, 20: 1}),  # 30 + 40 + 20 + 30 + 20: far behind
}


def race(other_pips: int) -> Position:
    position = Position([DOUBLER, OTHER[other_pips]])
    assert position.pip_counts == (100, other_pips)
    return position


# Decisions reasoned from the documented thresholds (lead as a percentage of
# the doubler's 100 pips): double at >= 8, redouble at >= 9, take at <= 12.
@pytest.mark.parametrize("other_pips, doubles, redoubles, taken", [
    (100, False, False, True),   # no lead
    (107, False, False, True),   # 7%: below both thresholds
    (108, True, False, True),    # 8%: an initial double, not yet a redouble
    (109, True, True, True),     # 9%: both
    (112, True, True, True),     # 12%: still a take (at most 12)
    (113, True, True, False),    # 13%: a drop
    (140, True, True, False),
])
def test_pip_count_cube_decisions(other_pips, doubles, redoubles, taken):
    cube = PipCountCube()
    position = race(other_pips)
    assert cube.should_double(position, owns_cube=False) is doubles
    assert cube.should_double(position, owns_cube=True) is redoubles
    assert cube.should_take(position) is taken


def test_trailing_side_never_doubles():
    # Seen by the 140-pip side, it trails by 40 pips.
    assert not PipCountCube().should_double(race(140).swapped(), owns_cube=False)


def test_cube_thresholds_are_settable_and_checked():
    # A 7% lead: not enough by default, enough from 5%.
    assert not PipCountCube().should_double(race(107), owns_cube=False)
    assert PipCountCube(double_at=5).should_double(race(107), owns_cube=False)
    with pytest.raises(ValueError, match="double_at"):
        PipCountCube(double_at=-1)
    with pytest.raises(ValueError, match="take_up_to"):
        PipCountCube(take_up_to=2.5)


# --- the computer in a game -------------------------------------------------------------


def cube_game(other_pips: int, **cube_state) -> Game:
    """Seat 0 (the 100-pip doubler) on roll against seat 1 with
    ``other_pips``; dice 2-1 for every roll."""
    return Game.from_position(race(other_pips), BACKGAMMON, ScriptedDice([2, 1] * 200), **cube_state)


def pips() -> Computer:
    """A computer that plays the first play and handles the cube by the
    source page's pip-count rule (the default cube is the network's)."""
    return Computer("first", cube="pips")


def cube_actions(game: Game) -> list[tuple[int, str]]:
    return [(r.seat, r.action) for r in game.history if isinstance(r, CubeRecord)]


def test_computer_doubles_and_the_computer_takes():
    # 9% lead: seat 0 doubles (>= 8) and seat 1 takes (<= 12), then seat 0
    # rolls and plays; seat 1 now owns the cube at 2.
    game = cube_game(109)
    game.hand_over(0, pips())
    game.hand_over(1, pips())
    game.play_turn(game.computers[0])
    assert cube_actions(game) == [(0, "double"), (1, "take")]
    assert (game.cube, game.cube_owner) == (2, 1)
    assert isinstance(game.history[-1], TurnRecord) and game.history[-1].seat == 0


def test_computer_doubles_and_the_computer_drops():
    # 13% lead: a double that the other computer drops; seat 0 wins the
    # cube's value before the offer, 1 point.
    game = cube_game(113)
    game.hand_over(0, pips())
    game.hand_over(1, pips())
    game.advance()
    assert cube_actions(game) == [(0, "double"), (1, "drop")]
    assert game.result.winner == 0 and game.result.points == 1 and game.result.dropped


def test_computer_double_waits_for_a_person():
    # Only seat 0 is a computer: its double stops the turn until seat 1
    # answers; after the take, advance() lets seat 0 roll and play.
    game = cube_game(109)
    game.hand_over(0, pips())
    game.advance()
    assert game.double_offered_by == 0 and game.dice is None
    with pytest.raises(GameStateError, match="awaits an answer"):
        game.play_turn(pips())
    game.take()
    game.advance()
    assert game.history[-1].seat == 0 and game.history[-1].dice == (2, 1)
    assert game.seat_to_move == 1 and 1 not in game.computers


def test_redouble_needs_the_higher_lead():
    # Seat 0 owns the cube at 2 and leads by 8%: enough to double, not to
    # redouble (9%), so it just rolls. At 9% it redoubles to 4.
    game = cube_game(108, cube=2, cube_owner=0)
    game.hand_over(1, pips())
    game.play_turn(pips())
    assert cube_actions(game) == [] and game.history[-1].seat == 0
    game = cube_game(109, cube=2, cube_owner=0)
    game.hand_over(1, pips())
    game.play_turn(pips())
    assert cube_actions(game) == [(0, "double"), (1, "take")] and game.cube == 4


def test_person_doubles_the_computer():
    # The person (seat 0) leads by 13%: the computer in seat 1 drops.
    game = cube_game(113)
    game.hand_over(1, pips())
    game.offer_double()
    game.advance()
    assert game.result.winner == 0 and game.result.dropped


def test_no_cube_rule_never_doubles_and_always_takes():
    game = cube_game(140)
    game.play_turn(Computer("first", cube=None))
    assert cube_actions(game) == []
    game = cube_game(140)
    game.hand_over(1, Computer("first", cube=None))
    game.offer_double()
    game.advance()
    assert cube_actions(game) == [(0, "double"), (1, "take")]


def test_ban_sugoroku_computer_never_doubles():
    # No cube in Ban-sugoroku, whatever the lead.
    game = Game.from_position(race(140), Rules(variant="ban-sugoroku", finish="bear_off"),
                              ScriptedDice([2, 1] * 10))
    game.play_turn("first")
    assert cube_actions(game) == [] and game.turn_count == 1


# --- handing seats over -------------------------------------------------------------------


def person_plays_last(game: Game) -> None:
    """The person rolls and plays the last legal play (unless it passes)."""
    game.roll()
    if game.dice is not None:
        game.play(game.legal_plays()[-1])


def test_seat_handed_over_mid_game_and_given_back():
    # Two people play a turn each, then seat 0 leaves: the computer
    # ("first") plays seat 0 from now on, the first legal play of each roll,
    # and advance() stops at every turn of seat 1, still a person.
    game = Game(Rules(), random.Random(11))
    person_plays_last(game)
    person_plays_last(game)
    game.hand_over(0, "first")
    for _ in range(3):
        before = game.position
        game.advance()
        record = game.history[-1]
        assert game.seat_to_move == 1 and record.seat == 0
        plays = legal_plays(before, record.dice, game.rules)
        assert record.play == (plays[0] if plays else None)
        person_plays_last(game)
    game.take_back(0)  # the person comes back
    turns = game.turn_count
    game.advance()
    assert game.turn_count == turns
    with pytest.raises(GameStateError, match="not played by the computer"):
        game.take_back(0)


def test_seat_handed_over_mid_turn_keeps_the_dice():
    game = Game(Rules(), ScriptedDice([6, 5, 3, 1]))
    dice = game.roll()
    before = game.position
    game.hand_over(0, "first")
    game.advance()
    assert game.history[-1].dice == dice == (6, 5)
    assert game.history[-1].play == legal_plays(before, dice, game.rules)[0]


def test_computers_play_a_whole_game():
    game = Game(BACKGAMMON, random.Random(5))
    game.hand_over(0, Computer("random", rng=random.Random(1)))
    game.hand_over(1, "first")
    game.advance()
    assert game.is_over and game.result.winner in (0, 1)


# --- callable policies ----------------------------------------------------------------------


START = Position.initial()
START_65 = legal_plays(START, (6, 5), BACKGAMMON)  # 24/13, 24/18 13/8, ... (7 plays)


def test_callable_scores_and_choices():
    # Scores: the greatest wins, the first of a tie; choices: taken as given.
    def prefer_index_three(children, offsets):
        return np.where(np.arange(len(children)) == 3, 1.0, 0.0)

    # Plays are made when read: the choice equals play 3, it need not be the same object.
    assert Computer(prefer_index_three).choose(START, START_65, BACKGAMMON) == START_65[3]
    all_equal = Computer(lambda children, offsets: np.zeros(len(children)))
    assert all_equal.choose(START, START_65, BACKGAMMON) == START_65[0]
    assert Computer(lambda children, offsets: np.array([6])).choose(START, START_65, BACKGAMMON) == START_65[6]


def test_callable_sees_the_children_from_the_movers_side():
    seen = {}

    def record(children, offsets):
        seen["children"], seen["offsets"] = children, offsets
        return np.array([0])

    Computer(record).choose(START, START_65, BACKGAMMON)
    assert seen["offsets"].tolist() == [0, 7]
    assert all((child == play.position.array).all() for child, play in zip(seen["children"], START_65))


@pytest.mark.parametrize("output, message", [
    (np.array([7]), "choice 7 for game 0 is outside its 7 candidates"),
    (np.array([0.0, 1.0]), "one score per child: 7 children"),
    (np.array([np.nan] * 7), "child 0 of game 0 as NaN"),
    (np.array(["a"]), "integer choices"),
])
def test_callable_bad_output(output, message):
    with pytest.raises(PolicyOutputError, match=message):
        Computer(lambda children, offsets: output).choose(START, START_65, BACKGAMMON)


def test_callable_output_of_a_wrong_dtype_is_a_type_error():
    with pytest.raises(TypeError, match="integer choices"):
        Computer(lambda children, offsets: [None]).choose(START, START_65, BACKGAMMON)


def test_unknown_policy():
    with pytest.raises(InvalidPolicyError, match="unknown policy 'best'"):
        Computer("best").choose(START, START_65, BACKGAMMON)


@pytest.mark.parametrize("policy", ["heuristic", "pubeval", "first"])
def test_computer_chooses_what_the_policy_chooses_in_whole_games(policy):
    # The same policy code as play_games: at every ply of its games the
    # computer, shown the position and the legal plays, picks the play the
    # game recorded.
    records = play_games(BACKGAMMON, 4, policy=policy, seed=3)
    computer = Computer(policy)
    for before, dice, after in zip(records.positions, records.dice, records.after):
        position = Position(before)
        plays = legal_plays(position, tuple(dice.tolist()), BACKGAMMON)
        if plays:
            assert (computer.choose(position, plays, BACKGAMMON).position.array == after).all()
