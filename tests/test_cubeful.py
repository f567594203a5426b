"""The computer's cube and cubeful games: decisions held against GNU
Backgammon's own (tests/data/gnubg/cube_reference.json, made by Debian's
gnubg 1.07), invariants of the points a cubeful game scores, cashing
positions rolled out, reproducibility, matches, and bad input."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from bansugoroku_fast import (
    Computer,
    CubeSettings,
    Game,
    Match,
    MatchScore,
    NetCube,
    Position,
    play_games,
    rollout,
    rollout_cube_decision,
)
from bansugoroku_fast.cli import main
from bansugoroku_fast.errors import (
    ArgumentTypeError,
    GameStateError,
    InvalidArgumentError,
    InvalidOptionError,
    InvalidRulesError,
)
from bansugoroku_fast.evaluators import flip
from bansugoroku_fast.formats import MatchState, read_match
from bansugoroku_fast.games.cubeful import ACTION_NAMES, BEAVER, DOUBLE, PASS, TAKE, CubeContext
from bansugoroku_fast.games.interactive import CubeRecord, ScriptedDice
from tests.boards import BACKGAMMON

REFERENCE = json.loads((Path(__file__).parent / "data" / "gnubg" / "cube_reference.json").read_text())
#: GNU Backgammon's classes whose 0-ply cube decisions are Janowski's (its
#: two-sided bear-offs are read from its exact cubeful database instead).
JANOWSKI_CLASSES = ("Contact", "Crashed", "Race", "Bearoff1")
OWNERS = {"centred": None, "roller": 0, "opponent": 1}
#: The states whose rules a game's cube follows (no Jacoby, no beavers; the
#: owned cube's decisions do not depend on either).
GAME_STATES = ("money_centred_nojacoby", "money_roller_owns_2", "m7_0-0", "m7_2-4", "m7_4-2", "m7_5-5",
               "m7_6-3_crawford", "m7_6-3_postcrawford", "m7_3-6_postcrawford", "m7_2-4_roller_owns_2")
#: gnubg agrees with the Janowski formulas within 0.002: closer choices are ties.
TIE = 0.003


def gnubg_evaluator(probabilities):
    """An evaluator giving every position gnubg's cubeless probabilities of
    the side on roll (it scores the other side, who has just moved: so flipped)."""
    theirs = flip(np.array([probabilities], dtype=np.float64))[0]
    return lambda positions: np.tile(theirs, (len(positions), 1))


def context_of(state):
    match = None
    if state["match_length"]:
        match = MatchScore(state["match_length"], tuple(state["score"]), state["crawford"])
    return CubeContext(BACKGAMMON, state["cube"], OWNERS[state["owner"]], match)


def janowski_positions():
    return [row for row in REFERENCE["positions"] if row["gnubg_class"] in JANOWSKI_CLASSES]


def money(row):
    """gnubg's no double, double/take, double/pass and action, money play, cube centred."""
    return row["cube"]["money_centred_nojacoby"][:4]


# --- the computer's cube decisions against GNU Backgammon's ---------------------------------------


@pytest.mark.parametrize("name", GAME_STATES)
def test_with_gnubgs_probabilities_the_computer_acts_as_gnubg_says(name):
    """Given gnubg's cubeless probabilities, the computer doubles exactly
    where gnubg's proper action doubles and takes exactly where it says
    take, money and match, cube centred and owned (choices within
    :data:`TIE` of each other left out)."""
    state = REFERENCE["states"][name]
    context = context_of(state)
    checked = 0
    for row in janowski_positions():
        no_double, double_take, double_pass, action = row["cube"][name][:4]
        if action == "Unknown cube decision":
            continue
        if abs(no_double - min(double_take, double_pass)) < TIE or abs(double_take - double_pass) < TIE:
            continue
        cube = NetCube(gnubg_evaluator(row["probabilities"]))
        position = Position.from_id(row["id"])
        doubles = action.startswith(("Double", "Redouble"))
        assert cube.offers_double(position, context) is doubles, (row["id"], name, action)
        if not action.startswith("Never"):      # a dead cube is never turned: there is no answer to weigh
            takes = action.endswith(("take", "beaver"))          # a beaver is a take and more
            assert cube.takes_double(position, context) is takes, (row["id"], name, action)
        checked += 1
    assert checked >= 200


def clear(row, action, margin=0.05):
    """gnubg's money action is ``action`` with every choice ``margin`` from the next."""
    no_double, double_take, double_pass, said = money(row)
    if said != action:
        return False
    if action == "Double, pass":
        return double_take - double_pass > margin and double_pass - no_double > margin
    return no_double - double_take > margin and double_pass - no_double > margin


CASHES = [row["id"] for row in janowski_positions() if row["gnubg_class"] in ("Race", "Bearoff1")
          and clear(row, "Double, pass")]
HOLDS = [row["id"] for row in janowski_positions() if row["gnubg_class"] in ("Contact", "Race")
         and clear(row, "No double, take", margin=0.15)]


def test_the_reference_has_clear_positions_of_both_kinds():
    assert len(CASHES) >= 5 and len(HOLDS) >= 30


@pytest.mark.parametrize("position_id", CASHES)
def test_the_network_computer_doubles_and_the_other_passes_where_gnubg_says_double_pass(position_id):
    """Races that gnubg calls a clear double/pass: the shipped network's
    computer doubles before its roll, the other computer passes, and the
    doubler wins the cube's value before the offer. (The shipped network
    is less sure of contact and crashed positions than gnubg: there the
    test above gives the computer gnubg's own probabilities.)"""
    game = Game.from_position(Position.from_id(position_id), "backgammon", ScriptedDice([6, 5] * 50))
    game.hand_over(0, "net")
    game.hand_over(1, "net")
    game.advance()
    assert [(r.seat, r.action) for r in game.history] == [(0, "double"), (1, "drop")]
    assert game.result.winner == 0 and game.result.points == 1 and game.result.dropped


@pytest.mark.parametrize("position_id", HOLDS)
def test_the_network_computer_holds_where_gnubg_says_no_double(position_id):
    game = Game.from_position(Position.from_id(position_id), "backgammon", ScriptedDice([6, 5] * 50))
    game.play_turn(Computer("net"))
    assert not [r for r in game.history if isinstance(r, CubeRecord)]
    assert game.history[-1].seat == 0 and game.dice is None


def test_the_pip_count_rule_stays_available():
    """Seat 0 leads a race 100 to 113 pips (13%): the pip-count rule doubles
    (at 8%) and drops (beyond 12%); the computer takes the rule by name."""
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 6], board[0, 8] = 10, 5
    board[1, 6], board[1, 8], board[1, 10], board[1, 15] = 8, 5, 1, 1
    game = Game.from_position(Position(board), "backgammon", ScriptedDice([2, 1] * 20))
    game.hand_over(0, Computer("first", cube="pips"))
    game.hand_over(1, Computer("first", cube="pips"))
    game.advance()
    assert [(r.seat, r.action) for r in game.history] == [(0, "double"), (1, "drop")]


# --- matches -------------------------------------------------------------------------------------


def test_nobody_doubles_in_the_crawford_game():
    row = next(row for row in janowski_positions() if money(row)[3] == "Double, pass")
    game = Game.from_position(Position.from_id(row["id"]), "backgammon", ScriptedDice([6, 5] * 100),
                              match=MatchScore(7, (6, 3), crawford=True))
    assert not game.can_double
    with pytest.raises(GameStateError, match="Crawford"):
        game.offer_double()
    game.play_turn(Computer("net"))
    assert not [r for r in game.history if isinstance(r, CubeRecord)]


def test_a_match_state_gives_the_score_too():
    game = Game("backgammon", 3, match=MatchState(match_length=5, score=(3, 1)))
    assert game.match == MatchScore(5, (3, 1))
    assert Game("backgammon", 3, match=MatchState()).match is None          # length 0: money


def test_a_match_is_played_to_its_length_with_one_crawford_game():
    match = Match("backgammon", seed=11, length=5)
    while not match.is_over:
        game = match.new_game()
        game.hand_over(0, "net")
        game.hand_over(1, "net")
        game.advance()
    scores = match.scores
    assert max(scores) >= 5 and match.winner == (0 if scores[0] >= 5 else 1)
    crawford = [game for game in match.games if game.match.crawford]
    assert len(crawford) == (1 if any(4 in g.match.score for g in match.games) else 0)
    for game in crawford:
        assert not [r for r in game.history if isinstance(r, CubeRecord)]
    with pytest.raises(GameStateError, match="over"):
        match.new_game()


# --- cubeful games: points, invariants, reproducibility ---------------------------------------------


@pytest.fixture(scope="module")
def cubeful_records():
    return play_games("backgammon", 120, "net", seed=7, cubeful=True)


def test_points_are_the_cube_times_the_result(cubeful_records):
    records, cube = cubeful_records, cubeful_records.cube
    played = ~cube.passed
    assert (cube.points[played] == cube.cube[played] * records.value[played]).all()
    assert (cube.points[cube.passed] == cube.cube[cube.passed]).all()
    assert set(np.unique(cube.cube)) <= {1, 2, 4, 8, 16, 32, 64}
    assert (records.kind[cube.passed] == -1).all() and (records.kind[played] >= 0).all()


def test_the_cube_actions_tell_each_games_story(cubeful_records):
    """Per game: doubles by alternating sides each answered by the other
    side; every take doubles the cube; a pass is the last action, its
    game won by the doubler."""
    records, cube = cubeful_records, cubeful_records.cube
    actions = cube.actions
    for game in range(len(records.winner)):
        mine = np.flatnonzero(actions.game == game)
        codes, seats = actions.action[mine], actions.seat[mine]
        assert (codes[0::2] == DOUBLE).all() and np.isin(codes[1::2], (TAKE, PASS, BEAVER)).all()
        assert (seats[1::2] == 1 - seats[0::2]).all()
        assert (np.diff(seats[0::2]) != 0).all()            # the taker owns the cube: the other side redoubles
        takes = int((codes == TAKE).sum())
        assert cube.cube[game] == 2 ** takes
        assert cube.passed[game] == (PASS in codes)
        if cube.passed[game]:
            assert codes[-1] == PASS and records.winner[game] == seats[-2]
    assert (actions.action == PASS).sum() == cube.passed.sum() > 0
    assert ACTION_NAMES[DOUBLE] == "double"


def test_cubeful_games_roll_the_cubeless_games_dice(cubeful_records):
    """Up to a pass, game g is the cubeless game g: same dice, same plays."""
    plain = play_games("backgammon", 120, "net", seed=7)
    for game in range(0, 120, 7):
        a = slice(cubeful_records.offsets[game], cubeful_records.offsets[game + 1])
        b = slice(plain.offsets[game], plain.offsets[game + 1])
        plies = min(a.stop - a.start, b.stop - b.start)
        assert (cubeful_records.dice[a][:plies] == plain.dice[b][:plies]).all()
        assert (cubeful_records.after[a][:plies] == plain.after[b][:plies]).all()
        if not cubeful_records.cube.passed[game]:
            assert cubeful_records.winner[game] == plain.winner[game]


def test_cubeful_games_are_reproducible(cubeful_records):
    again = play_games("backgammon", 120, "net", seed=7, cubeful=True, threads=2)
    for name in ("offsets", "dice", "after", "winner", "value"):
        assert (getattr(again, name) == getattr(cubeful_records, name)).all()
    for name in ("cube", "passed", "points"):
        assert (getattr(again.cube, name) == getattr(cubeful_records.cube, name)).all()
    different = play_games("backgammon", 120, "net", seed=8, cubeful=True)
    assert not (different.cube.points == cubeful_records.cube.points).all()


def test_jacoby_counts_gammons_only_once_the_cube_is_turned():
    records = play_games("backgammon", 120, "net", seed=3, cubeful=CubeSettings(jacoby=True))
    cube = records.cube
    centred = (cube.cube == 1) & ~cube.passed
    assert (cube.points[centred] == 1).all()
    turned = (cube.cube > 1) & ~cube.passed
    assert (cube.points[turned] == cube.cube[turned] * records.value[turned]).all()


def test_beavers_put_the_cube_at_four_times():
    records = play_games("backgammon", 200, "random", seed=2, cubeful=CubeSettings(beavers=True))
    actions = records.cube.actions
    for game in np.unique(actions.game[actions.action == BEAVER]):
        codes = actions.action[actions.game == game]
        expected = 1
        for code in codes:
            expected *= {TAKE: 2, BEAVER: 4}.get(int(code), 1)
        assert records.cube.cube[game] == expected


def test_games_at_a_match_score_read_the_score():
    """At 6-3 in the Crawford game nobody doubles; post-Crawford the
    trailer (seat 1, 4-away) doubles the leader at once, whatever the
    leader answers."""
    crawford = play_games("backgammon", 30, "net", seed=5,
                          cubeful=CubeSettings(match=MatchScore(7, (6, 3), crawford=True)))
    assert len(crawford.cube.actions.game) == 0 and (crawford.cube.cube == 1).all()
    after = play_games("backgammon", 30, "net", seed=5, cubeful=CubeSettings(match=MatchScore(7, (6, 3))))
    doubles = after.cube.actions.action == DOUBLE
    assert (after.cube.actions.seat[doubles] == 1).all() and doubles.any()


def test_a_rollout_is_the_mean_of_the_same_games_points():
    position = Position.initial()
    result = rollout(position, "backgammon", games=60, seed=4, cubeful=True)
    records = play_games("backgammon", 60, "net", seed=4, start=position, cubeful=True)
    seat_0 = np.where(records.winner == 0, records.cube.points, -records.cube.points)
    assert result.cubeful_equity == pytest.approx(seat_0.mean())
    assert result.passed == records.cube.passed.sum()
    assert result.mean_cube == pytest.approx(records.cube.cube.mean())


# --- cashing and the rollout of a cube decision ------------------------------------------------------


def test_a_cashing_position_rolls_out_at_one_point_a_game():
    """A race gnubg calls a clear double/pass: every game, seat 0 doubles
    before its first roll and seat 1 passes: exactly +1 a game, where the
    cubeless rollout (playing on) is worth less."""
    position = Position.from_id(CASHES[0])
    cubeful = rollout(position, "backgammon", games=200, seed=1, cubeful=True)
    assert cubeful.cubeful_equity == 1.0 and cubeful.cubeful_stderr == 0.0 and cubeful.passed == 200
    assert cubeful.mean_cube == 1.0
    cubeless = rollout(position, "backgammon", games=200, seed=1)
    assert cubeless.equity < 0.95


def test_the_other_sides_cube_doubles_the_points():
    """With the cube at 2 owned by seat 1, seat 0 cannot cash: the games
    are played out, worth 2 points a game or more."""
    position = Position.from_id(CASHES[0])
    result = rollout(position, "backgammon", games=100, seed=1, cubeful=CubeSettings(cube=2, owner=1))
    assert result.mean_cube >= 2 and result.cubeful_equity > 0.5


def test_a_clear_pass_rolls_out_as_double_pass():
    decision = rollout_cube_decision(Position.from_id(CASHES[0]), "backgammon", games=144, seed=2)
    assert decision.action == "Double, pass"
    assert decision.no_double < 1.0 < decision.double_take
    assert decision.difference_stderr >= 0 and decision.games == 144


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: play_games("backgammon", 2, cubeful="yes"), ArgumentTypeError, "cubeful"),
    (lambda: play_games("ban-sugoroku", 2, cubeful=True), InvalidRulesError, "no doubling cube"),
    (lambda: rollout(Position.initial(), "backgammon", games=2, cubeful=True, endgames=True), InvalidArgumentError,
     "endgames"),
    (lambda: rollout(Position.initial(), "backgammon", games=2, cubeful=CubeSettings(match=MatchScore(7))),
     InvalidArgumentError, "money play"),
    (lambda: CubeSettings(cube=3), InvalidArgumentError, "power of 2"),
    (lambda: CubeSettings(cube=2.0), ArgumentTypeError, "integer"),
    (lambda: CubeSettings(cube=2, owner=2), InvalidArgumentError, "owner"),
    (lambda: CubeSettings(cube=2), InvalidArgumentError, "owner"),
    (lambda: CubeSettings(jacoby=True, match=MatchScore(7)), InvalidArgumentError, "money-game"),
    (lambda: CubeSettings(jacoby=1), ArgumentTypeError, "jacoby"),
    (lambda: CubeSettings(match="7 points"), ArgumentTypeError, "MatchScore"),
    (lambda: rollout_cube_decision(Position.initial(), "backgammon", games=2, cubeful=CubeSettings(cube=2, owner=1)),
     InvalidArgumentError, "owns the cube"),
    (lambda: rollout_cube_decision(Position.initial(), "backgammon", games=2, cubeful=False),
     InvalidArgumentError, "rolls out with the cube"),
    (lambda: Computer("net", cube="dice"), InvalidArgumentError, "cube strategy"),
    (lambda: Computer("net", cube=5), ArgumentTypeError, "cube"),
    (lambda: NetCube(table="kazaross"), ArgumentTypeError, "MatchEquityTable"),
    (lambda: MatchScore(0), InvalidArgumentError, "match_length"),
    (lambda: MatchScore(5, (5, 0)), InvalidArgumentError, "0..4"),
    (lambda: MatchScore(5, (1, 1), crawford=True), InvalidArgumentError, "Crawford"),
    (lambda: Match("backgammon", length=-1), InvalidArgumentError, "length"),
    (lambda: Game("backgammon", match=5), ArgumentTypeError, "MatchScore"),
])
def test_bad_input_is_refused_with_a_typed_error(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_the_command_line_refuses_a_match_of_no_points(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["play", "--rules", "backgammon", "--vs", "net", "--match", "0"])
    assert stop.value.code == 2 and "--match needs a number of points" in capsys.readouterr().err
    assert issubclass(InvalidOptionError, ValueError)


# --- the command line ------------------------------------------------------------------------------


def test_two_computers_play_a_match_on_the_command_line(capsys, tmp_path):
    saved = tmp_path / "match.mat"
    assert main(["play", "--rules", "backgammon", "--seats", "net,net", "--match", "3", "--seed", "5",
                 "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "a 3-point match" in out and "Game 1 of a 3-point match" in out
    won = re.search(r"wins the match, (\d+)-(\d+)\.", out)
    assert won and int(won.group(1)) >= 3 > int(won.group(2))
    match = read_match(saved)
    assert match.match_length == 3 and max(sum(g.points for g in match.games if g.winner == seat)
                                           for seat in (0, 1)) >= 3


def test_a_person_plays_a_match_game_by_game(monkeypatch, capsys):
    """The person leaves in the first game: the computer plays the rest of the match."""
    answers = iter(["leave"] * 5)
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert main(["play", "--rules", "backgammon", "--vs", "net", "--match", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Game 1 of a 2-point match: you 0, the computer 0." in out
    won = re.search(r"(You win|The computer wins) the match, (\d+)-(\d+)\.$", out.rstrip())
    assert won and int(won.group(2)) >= 2 > int(won.group(3))
