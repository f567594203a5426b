"""Cube decisions: known answers by reasoning, the oracle twin, GNU
Backgammon's own figures (tests/data/gnubg/cube_reference.json, made by
Debian's gnubg 1.07: see the README there), and bad input."""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from bansugoroku_fast import Position
from bansugoroku_fast.cube import MatchEquityTable, decision
from bansugoroku_fast.cube.actions import NOT_AVAILABLE
from bansugoroku_fast.cube.decision import cube_decision, equities_after_play, equities_after_plays
from bansugoroku_fast.cube.exact import exact_values
from bansugoroku_fast.cube.janowski import CENTRED, OWNED, THEIRS, money_cubeful
from bansugoroku_fast.cube.kinds import cube_efficiency, kind_codes, kinds_and_efficiency, position_kinds
from bansugoroku_fast.cube.states import MatchCube, MoneyCube, values_in_states
from bansugoroku_fast.endgames import SMALL_POSITIONS, race, race_cube, tables
from bansugoroku_fast.errors import CubeTypeError, InvalidArgumentError, InvalidCubeError, InvalidEvaluatorError
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
#: Its two-sided bear-offs: up to 6 stones a side, valued from the database.
EXACT_CLASS = "Bearoff2"
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


@pytest.mark.parametrize("ply", [0, 1, 2])
@pytest.mark.parametrize("match", [None, MatchState(match_length=7, score=(2, 4))])
def test_a_game_the_roller_ends_this_roll_is_a_leaf_at_every_ply(ply, match):
    """Row 0's last stone is on its 1-point and row 1 has borne none off:
    every roll wins a gammon, so the search must stop at the finished game
    (two sides never both win) and the roller is too good to double."""
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 0], board[0, 1] = 14, 1
    board[1, 1:6] = 3
    decision = cube_decision(Position(board), BACKGAMMON, "net", ply=ply, match=match)
    assert decision.action == "Too good to double, pass"
    if match is None:
        assert (decision.no_double, decision.double_pass) == pytest.approx((2.0, 1.0))


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


def match_states(table, lengths=(1, 3, 7, 11)):
    """Every kind of match cube state: each score of each length, cubes up
    to 8, each owner, the Crawford game where there is one."""
    names = {CENTRED: "centred", OWNED: "mine", THEIRS: "theirs"}
    states = []
    for length in lengths:
        for score in itertools.product(range(length), repeat=2):
            for cube in (1, 2, 4, 8):
                for owner in (CENTRED, OWNED, THEIRS):
                    for crawford in (False, True):
                        centred_above_1 = owner == CENTRED and cube > 1
                        impossible_crawford = crawford and (length - 1 not in score or owner != CENTRED)
                        if centred_above_1 or impossible_crawford:
                            continue
                        states.append((MatchCube(table, length, score, crawford, cube, owner), names[owner]))
    return states


def test_values_in_many_states_at_once_match_the_oracle():
    """The kernel values each row in its own state, as the oracle values it
    one position at a time (edges included: certain wins and losses)."""
    table, plain_table = MatchEquityTable.default(), plain_met.MatchEquityTable.default()
    states = match_states(table)
    rng = random.Random(17)
    rows = [random_probabilities(rng) for _ in range(3000)]
    rows[:20] = [[0.0, 0.0, 0.0, 0.4, 0.1]] * 10 + [[1.0, 0.3, 0.05, 0.0, 0.0]] * 10
    which = np.array([rng.randrange(len(states)) for _ in rows])
    efficiency = np.array([rng.random() for _ in rows])
    fast = values_in_states(np.array(rows), efficiency, [state for state, _ in states], which)
    for row, k, x, got in zip(rows, which, efficiency, fast):
        state, name = states[k]
        slow = plain.match_value(row, plain_table, state.length, state.score, state.crawford, state.cube, name, x)
        assert got == pytest.approx(slow, abs=1e-6), (state, row)


def test_equities_after_plays_in_mixed_states_are_each_states_own():
    """Children at different match scores and cubes in one call get what
    a call per state gives them, and the kernel what the states' numpy
    values give."""
    table = MatchEquityTable.default()
    states = [state for state, _ in match_states(table, lengths=(5,))]
    positions, _ = playout_items(BACKGAMMON, 400, seed=8)
    rng = np.random.default_rng(2)
    probabilities = np.array([random_probabilities(random.Random(i)) for i in range(len(positions))])
    which = rng.integers(0, len(states), len(positions))
    together = equities_after_plays(positions, probabilities, states, which)
    no_table = decision.ExactRaces(np.zeros(0, dtype=np.int64), np.zeros((0, 5)), np.zeros((0, 3)))
    by_arrays = decision._equities_by_arrays(probabilities, states, which, kinds_and_efficiency(positions, 1)[1],
                                             no_table)
    off_table = np.ones(len(positions), dtype=bool)
    off_table[decision._exact_bearoffs(positions, kind_codes(np.ascontiguousarray(positions[:, ::-1])),
                                       BACKGAMMON).rows] = False
    assert off_table.sum() > 300
    assert np.allclose(together[off_table], by_arrays[off_table], rtol=0, atol=1e-12)    # the kernel's, the numpy's
    for k in np.unique(which):
        rows = np.flatnonzero(which == k)
        alone = equities_after_play(positions[rows], probabilities[rows], states[k])
        assert np.array_equal(together[rows], alone)


def test_kinds_for_the_side_in_row_1_are_those_of_the_swapped_positions():
    positions, _ = playout_items(BACKGAMMON, 2000, seed=4)
    swapped = np.ascontiguousarray(positions[:, ::-1])
    codes, efficiency = kinds_and_efficiency(positions, on_roll=1)
    assert np.array_equal(codes, kind_codes(swapped))
    assert np.array_equal(efficiency, cube_efficiency(swapped))


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


def test_two_sided_bear_offs_are_gnu_backgammons():
    """The reference's two-sided bear-offs (40 positions x 14 states),
    which GNU Backgammon values from its database gnubg_ts0.bd: the same
    action everywhere; money equities within 3e-4 (the file's 16-bit
    entries are within 1.3e-4 of the exact figures,
    tests/test_endgames_gnubg.py; a double/take is twice an entry); in a
    match, where both sides carry the efficiency the exact money figures
    imply into the match formula, within 1e-3 EMG and 2e-4 MWC (an
    efficiency is a quotient of two such figures)."""
    data = reference()
    evaluator = gnubg_evaluator(data)
    checked = exact = 0
    for item in data["positions"]:
        if item["gnubg_class"] != EXACT_CLASS:
            continue
        position = Position.from_id(item["id"])
        for name, row in item["cube"].items():
            expected = dict(zip(data["header"]["cube_columns"], row))
            got = cube_decision(position, BACKGAMMON, evaluator, **arguments(data["states"][name]))
            where = f"{item['id']} {name}"
            money = not data["states"][name]["match_length"]
            tolerance = 3e-4 if money else 1e-3
            for key in ("no_double", "double_take", "double_pass"):
                assert getattr(got, key) == pytest.approx(expected[key], abs=tolerance), (where, key)
            words = NOT_AVAILABLE if expected["action"] == "Unknown cube decision" else expected["action"]
            assert got.action == words, where
            assert got.probabilities[0] == pytest.approx(item["probabilities"][0], abs=1e-4), where
            if not money:
                assert (got.no_double_mwc, got.double_take_mwc, got.double_pass_mwc) == pytest.approx(
                    tuple(expected[f"mwc_{k}"] for k in ("no_double", "double_take", "double_pass")), abs=2e-4)
            checked += 1
            exact += got.exact
    assert checked == 40 * 14 and exact == 40 * 5


def never_called(positions):
    raise AssertionError("an exact race needs no evaluator")


def race_position(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    board = np.zeros((2, 26), dtype=np.int8)
    for row, stones in enumerate((mine, theirs)):
        for point, count in stones.items():
            board[row, point] = count
        board[row, 0] = 15 - sum(stones.values())
    return Position(board)


@pytest.mark.parametrize("owner", [None, 0, 1])
def test_an_exact_race_is_final_at_every_ply_in_money_play(owner):
    """GNU Backgammon never searches a position of its two-sided database
    in money play: at 0, 1 and 2 plies the figures are the table's, and
    the evaluator is not asked."""
    position = race_position({6: 2, 4: 1, 2: 2}, {5: 2, 3: 2, 1: 1})
    exact = race_cube(position, BACKGAMMON, owner=owner)
    for ply in (0, 1, 2):
        got = cube_decision(position, BACKGAMMON, never_called, cube=1 if owner is None else 2, owner=owner,
                            ply=ply)
        assert got.exact
        assert (got.no_double, got.double_take, got.double_pass) == pytest.approx(
            (exact.no_double, exact.double_take, 1.0), abs=1e-12)
        assert got.probabilities[0] == pytest.approx(race(position, BACKGAMMON).win, abs=1e-15)


def test_gnu_backgammons_deeper_money_figures_of_two_sided_bear_offs_are_its_databases():
    """The reference's two-sided bear-offs at 1 and 2 plies, money play:
    GNU Backgammon does not search them (its figures are the 0-ply ones),
    and neither do we: its equities within 3e-4 and its action, with an
    evaluator that must not be asked."""
    data = reference()
    state = "money_centred_jacoby_beavers"
    assert state in data["deeper"]["states"]
    checked = 0
    for item in data["deeper"]["positions"]:
        if item["kind"] != "bearoff_two_sided":
            continue
        for ply, by_state in item["plies"].items():
            expected = dict(zip(data["header"]["cube_columns"], by_state[state]["cube"]))
            got = cube_decision(Position.from_id(item["id"]), BACKGAMMON, never_called, ply=int(ply),
                                **arguments(data["states"][state]))
            assert (got.no_double, got.double_take, got.double_pass) == pytest.approx(
                (expected["no_double"], expected["double_take"], expected["double_pass"]), abs=3e-4), item["id"]
            assert got.action == expected["action"], item["id"]
            checked += 1
    assert checked == 5 * 2


def test_a_search_meets_exact_races_at_its_leaves():
    """Seven stones on the 1-point, one more than the table holds: every
    roll bears off two (a double four), so at 1 ply each of the 21 leaves,
    the other side on roll, is in the table, and its cube decision there
    is the table's: no double is the mean over our rolls of minus its
    equity with the cube centred (its own double included), double/take
    twice the mean of minus its equity owning the cube. Whatever the
    evaluator says."""
    position = race_position({1: 7}, {6: 2, 5: 2, 2: 2})
    them = {6: 2, 5: 2, 2: 2}
    no_double = double_take = 0.0
    for a in range(1, 7):
        for b in range(a, 7):
            weight = (1 if a == b else 2) / 36
            theirs = race(race_position(them, {1: 7 - (4 if a == b else 2)}), BACKGAMMON).cubeful
            no_double -= weight * theirs.centred
            double_take -= 2 * weight * theirs.owned
    for guess in (0.2, 0.5):
        got = cube_decision(position, BACKGAMMON, fixed([guess, 0, 0, 0, 0]), ply=1)
        assert not got.exact
        assert (got.no_double, got.double_take) == pytest.approx((no_double, double_take), abs=1e-12)


def test_a_play_into_an_exact_race_is_valued_from_the_table():
    """The cubeful equity of a play (what the analysis ranks plays by)
    whose child is in the table: minus the other side's exact equity, its
    own cube action included, whatever probabilities are given."""
    child = race_position({5: 1, 1: 1}, {5: 1, 1: 1})            # row 0 has just played; row 1 is on roll
    their_view = Position(child.array[::-1].copy())
    their_cubeful = race(their_view, BACKGAMMON).cubeful
    wrong = np.array([[0.9, 0.0, 0.0, 0.0, 0.0]])
    for owner, theirs in ((CENTRED, their_cubeful.centred), (OWNED, their_cubeful.theirs),
                          (THEIRS, their_cubeful.owned)):
        worth = equities_after_play(child.array[None], wrong, MoneyCube(owner))
        assert worth[0] == pytest.approx(-theirs, abs=1e-12)


@pytest.mark.parametrize(("score", "crawford", "cube"), [((0, 0), False, 1), ((2, 4), False, 1), ((4, 2), False, 2),
                                                         ((6, 3), False, 1), ((5, 5), False, 1)])
def test_exact_match_values_match_the_oracle(score, crawford, cube):
    """In a match an exact race keeps the match formula, with the
    efficiency its exact money equity implies: the plain-Python twin."""
    table, plain_table = MatchEquityTable.default(), plain_met.MatchEquityTable.default()
    built = tables(BACKGAMMON)
    rng = np.random.default_rng(sum(score) + cube)
    pairs = rng.integers(1, SMALL_POSITIONS, size=(60, 2))
    probabilities = np.zeros((len(pairs), 5))
    probabilities[:, 0] = built.win[pairs[:, 0], pairs[:, 1]]
    no_double = built.no_double[pairs[:, 0], pairs[:, 1]]
    for owner, name in ((CENTRED, "centred"), (OWNED, "mine"), (THEIRS, "theirs")):
        state = MatchCube(table, 7, score, crawford, cube, owner)
        fast = exact_values(state, probabilities, no_double, np.full(len(pairs), 0.6))
        slow = [plain.exact_match_value(p.tolist(), float(money[owner]), plain_table, 7, score, crawford, cube,
                                        name, 0.6) for p, money in zip(probabilities, no_double)]
        assert np.allclose(fast, slow, atol=1e-6), name


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(("arguments", "error", "message"), [
    ({"cube": 3}, InvalidCubeError, "power of 2"),
    ({"cube": 128}, InvalidCubeError, "power of 2 from 1 to 64"),
    ({"cube": "2"}, CubeTypeError, "integer"),
    ({"owner": 2}, InvalidCubeError, "owner"),
    ({"ply": 3}, InvalidArgumentError, "ply must be 0, 1 or 2"),
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
