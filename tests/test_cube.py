"""Cube decisions: known answers by reasoning, the oracle twin, GNU
Backgammon's own figures (tests/data/gnubg/cube_reference.json, made by
Debian's gnubg 1.07: see the README there), and bad input."""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from bansugoroku_fast import Position
from bansugoroku_fast.cube import MatchEquityTable
from bansugoroku_fast.cube.actions import NOT_AVAILABLE
from bansugoroku_fast.cube.decision import cube_decision
from bansugoroku_fast.cube.janowski import CENTRED, OWNED, THEIRS, money_cubeful
from bansugoroku_fast.cube.kinds import cube_efficiency, position_kinds
from bansugoroku_fast.cube.states import MatchCube
from bansugoroku_fast.errors import CubeTypeError, InvalidCubeError, InvalidEvaluatorError
from bansugoroku_fast.evaluators import evaluate_position, flip
from bansugoroku_fast.formats import MatchState
from bansugoroku_fast.oracle import cube as plain
from bansugoroku_fast.oracle import met as plain_met
from tests.boards import BACKGAMMON
from tests.playouts import playout_items

REFERENCE = Path(__file__).parent / "data" / "gnubg" / "cube_reference.json"
#: GNU Backgammon's classes whose 0-ply cube decisions are Janowski's (its
#: two-sided bear-offs are read from its exact cubeful database instead).
JANOWSKI_CLASSES = ("Contact", "Crashed", "Race", "Bearoff1")
OWNERS = {"centred": None, "roller": 0, "opponent": 1}


def fixed(probabilities):
    """An evaluator giving every position the side on roll's ``probabilities``
    (it scores the other side, who has just moved: so flipped)."""
    theirs = flip(np.array([probabilities], dtype=np.float64))[0]
    return lambda positions: np.tile(theirs, (len(positions), 1))


def race_board(pips_on_roll_point: int = 2) -> Position:
    """A race: 15 stones each, the side on roll's all on one low point."""
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, pips_on_roll_point] = 15
    board[1, 3] = 15
    return Position(board)


# --- known answers by reasoning ----------------------------------------------------------


@pytest.mark.parametrize(("efficiency", "take_point"), [(0.0, 0.25), (1.0, 0.2), (0.6, 0.5 / 2.3)])
def test_a_gammonless_take_point_is_janowskis(efficiency, take_point):
    """Without gammons a take risks 2 to win 2 against a sure -1: 25% with
    a dead cube, 20% with a live one, ``0.5 / (2 + x / 2)`` between."""
    p = np.linspace(0.5, 0.95, 4001)
    probabilities = np.zeros((len(p), 5))
    probabilities[:, 0] = p
    take = 2 * money_cubeful(probabilities, np.full(len(p), THEIRS), np.full(len(p), efficiency), jacoby=False)
    first_pass = p[np.argmax(take >= 1.0)]
    assert abs((1 - first_pass) - take_point) < 2e-4


def test_the_decision_reports_the_take_point_of_its_efficiency():
    position = race_board(1)             # 15 pips on roll: a short race, efficiency 0.6
    decision = cube_decision(position, BACKGAMMON, fixed([0.7, 0, 0, 0, 0]))
    assert decision.kind == "bearoff" and decision.cube_efficiency == 0.6
    assert decision.take_point == pytest.approx(0.5 / 2.3, abs=1e-9)
    assert decision.cash_point == pytest.approx(1 - 0.5 / 2.3, abs=1e-9)


def test_a_dead_cube_equity_is_the_cubeless_one():
    """A finished game's efficiency is 0: every state's equity is the cubeless one."""
    probabilities = np.array([[0.8, 0.3, 0.05, 0.1, 0.01]])
    dead = 2 * 0.8 - 1 + 0.3 - 0.1 + 0.05 - 0.01
    for owner in (CENTRED, OWNED, THEIRS):
        assert money_cubeful(probabilities, np.array([owner]), np.array([0.0]), jacoby=False)[0] == pytest.approx(dead)


def test_owning_the_cube_is_worth_something_and_the_other_sides_cube_costs():
    probabilities = np.array([[0.6, 0.15, 0.01, 0.1, 0.005]])
    x = np.array([0.68])
    centred, mine, theirs = (money_cubeful(probabilities, np.array([o]), x, jacoby=False)[0]
                             for o in (CENTRED, OWNED, THEIRS))
    assert theirs < centred < mine


@pytest.mark.parametrize(("p", "action"), [(0.5, "No double, take"), (0.74, "Double, take"),
                                           (0.85, "Double, pass")])
def test_gammonless_actions_follow_the_take_point(p, action):
    """A long race without gammons: 50% is no double; a little under the
    other side's take point a double is taken; above it, passed."""
    assert cube_decision(race_board(6), BACKGAMMON, fixed([p, 0, 0, 0, 0])).action == action


def test_the_side_that_does_not_own_the_cube_has_no_action():
    decision = cube_decision(race_board(6), BACKGAMMON, fixed([0.9, 0, 0, 0, 0]), cube=2, owner=1)
    assert decision.action == NOT_AVAILABLE


def test_the_crawford_game_has_a_dead_cube():
    match = MatchState(match_length=5, score=(4, 2), crawford=True)
    decision = cube_decision(race_board(6), BACKGAMMON, fixed([0.3, 0, 0, 0, 0]), match=match)
    assert decision.action == "Never double, take (dead cube)"


def test_deeper_plies_score_the_position_as_evaluate_position_does():
    start = Position.initial()
    for ply in (0, 1):
        decision = cube_decision(start, BACKGAMMON, "net", ply=ply)
        assert np.allclose(decision.probabilities, evaluate_position(start, BACKGAMMON, "net", ply=ply))
        assert decision.ply == ply


# --- the oracle twin ---------------------------------------------------------------------


def random_probabilities(rng: random.Random) -> list[float]:
    win = rng.random()
    win_gammon = win * rng.random() * 0.5
    lose_gammon = (1 - win) * rng.random() * 0.5
    return [win, win_gammon, win_gammon * rng.random() * 0.2, lose_gammon, lose_gammon * rng.random() * 0.2]


@pytest.mark.parametrize("jacoby", [False, True])
def test_money_equities_match_the_oracle(jacoby):
    rng = random.Random(5)
    rows = [random_probabilities(rng) for _ in range(300)]
    for owner, name in ((CENTRED, "centred"), (OWNED, "mine"), (THEIRS, "theirs")):
        for x in (0.0, 0.6, 0.68, 1.0):
            fast = money_cubeful(np.array(rows), np.full(len(rows), owner), np.full(len(rows), x), jacoby)
            slow = [plain.money_equity(row, name, x, jacoby) for row in rows]
            assert np.allclose(fast, slow, atol=1e-12)


@pytest.mark.parametrize(("score", "crawford", "cube"), [((0, 0), False, 1), ((2, 4), False, 1), ((4, 2), False, 2),
                                                         ((6, 3), False, 1), ((3, 6), False, 1), ((6, 3), True, 1),
                                                         ((5, 5), False, 1)])
def test_match_values_match_the_oracle(score, crawford, cube):
    table, plain_table = MatchEquityTable.default(), plain_met.MatchEquityTable.default()
    rng = random.Random(sum(score) + cube)
    rows = [random_probabilities(rng) for _ in range(60)]
    for owner, name in ((CENTRED, "centred"), (OWNED, "mine"), (THEIRS, "theirs")):
        state = MatchCube(table, 7, score, crawford, cube, owner)
        fast = state.values(np.array(rows), np.full(len(rows), 0.68))
        slow = [plain.match_value(row, plain_table, 7, score, crawford, cube, name, 0.68) for row in rows]
        assert np.allclose(fast, slow, atol=1e-6)


def test_kinds_and_efficiencies_match_the_oracle():
    positions, _ = playout_items(BACKGAMMON, 3000, seed=3)
    kinds, efficiencies = position_kinds(positions), cube_efficiency(positions)
    assert set(kinds) >= {"contact", "race", "bearoff"}
    for position, found, efficiency in zip(positions, kinds, efficiencies):
        rows = position.tolist()
        assert found == plain.kind(rows)
        assert efficiency == pytest.approx(plain.efficiency(rows))


def test_actions_match_the_oracle():
    rng = random.Random(11)
    for _ in range(2000):
        p = random_probabilities(rng)
        owner, name = rng.choice([(None, "centred"), (0, "mine"), (1, "theirs")])
        got = cube_decision(race_board(6), BACKGAMMON, fixed(p), cube=1 if owner is None else 2, owner=owner)
        p = list(got.probabilities)      # as the evaluator's float32 output left them
        no_double, double_take, _double_pass, action = plain.decision(p, name, got.cube_efficiency)
        assert (got.no_double, got.double_take) == pytest.approx((no_double, double_take), abs=1e-12)
        assert got.action == action


# --- GNU Backgammon's own figures ------------------------------------------------------


def reference():
    if not REFERENCE.exists():
        pytest.skip(f"{REFERENCE} is absent")
    return json.loads(REFERENCE.read_text())


def gnubg_evaluator(data):
    """An evaluator answering GNU Backgammon's 0-ply probabilities for the reference's positions."""
    table = {}
    for item in data["positions"]:
        seen_by_the_mover = Position.from_id(item["id"]).array[::-1]
        table[seen_by_the_mover.tobytes()] = flip(np.array([item["probabilities"]]))[0]
    return lambda positions: np.array([table[position.tobytes()] for position in positions])


def arguments(state):
    owner = OWNERS[state["owner"]]
    if not state["match_length"]:
        return {"cube": state["cube"], "owner": owner, "jacoby": state["jacoby"], "beavers": state["beavers"]}
    match = MatchState(match_length=state["match_length"], score=tuple(state["score"]), crawford=state["crawford"],
                       cube=state["cube"], cube_owner=owner, player_on_roll=0)
    return {"match": match}


def test_zero_ply_decisions_are_gnu_backgammons():
    """With GNU Backgammon's cubeless probabilities, every 0-ply cube
    decision of its Janowski classes (hundreds of positions, money and
    match, centred and owned cubes, Crawford and post-Crawford) has its
    cubeful equities within 0.002 and its action."""
    data = reference()
    evaluator = gnubg_evaluator(data)
    checked = 0
    for item in data["positions"]:
        if item["gnubg_class"] not in JANOWSKI_CLASSES:
            continue
        position = Position.from_id(item["id"])
        for name, row in item["cube"].items():
            expected = dict(zip(data["header"]["cube_columns"], row))
            got = cube_decision(position, BACKGAMMON, evaluator, **arguments(data["states"][name]))
            where = f"{item['id']} {name}"
            assert got.no_double == pytest.approx(expected["no_double"], abs=0.002), where
            assert got.double_take == pytest.approx(expected["double_take"], abs=0.002), where
            assert got.double_pass == pytest.approx(expected["double_pass"], abs=0.002), where
            words = NOT_AVAILABLE if expected["action"] == "Unknown cube decision" else expected["action"]
            assert got.action == words, where
            if "mwc_no_double" in expected:
                assert (got.no_double_mwc, got.double_take_mwc, got.double_pass_mwc) == pytest.approx(
                    tuple(expected[f"mwc_{k}"] for k in ("no_double", "double_take", "double_pass")), abs=0.001)
            checked += 1
    assert checked >= 300 * 10


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(("arguments", "error", "message"), [
    ({"cube": 3}, InvalidCubeError, "power of 2"),
    ({"cube": 128}, InvalidCubeError, "power of 2 from 1 to 64"),
    ({"cube": "2"}, CubeTypeError, "integer"),
    ({"owner": 2}, InvalidCubeError, "owner"),
    ({"ply": 3}, InvalidCubeError, "ply"),
    ({"jacoby": "yes"}, CubeTypeError, "jacoby"),
    ({"match": (7, 0, 0)}, CubeTypeError, "MatchState"),
    ({"match": MatchState()}, InvalidCubeError, "money game"),
    ({"match": MatchState(match_length=7, cube=2, cube_owner=1), "cube": 4}, InvalidCubeError, "disagree"),
])
def test_bad_arguments_are_refused_before_any_evaluation(arguments, error, message):
    calls = []
    with pytest.raises(error, match=message):
        cube_decision(Position.initial(), BACKGAMMON, lambda p: calls.append(p), **arguments)
    assert calls == []


def test_an_unknown_evaluator_name_is_refused():
    with pytest.raises(InvalidEvaluatorError, match="unknown evaluator name"):
        cube_decision(Position.initial(), BACKGAMMON, "gnubg")
