"""The shipped networks answer from the exact endgame tables
(``NetEvaluator.with_endgames``): in evaluate, the searches, play and
rollouts, checked against answers reasoned from the dice and against the
oracle's twin (``oracle.evaluators.PlainTables``)."""
from __future__ import annotations

import numpy as np
import pytest

from bansugoroku_fast import Position, generate_plays, play_games, rollout
from bansugoroku_fast.endgames import race, race_batch, race_scores
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator, best_plays, evaluate, evaluate_position
from bansugoroku_fast.oracle import evaluators as plain
from tests.boards import BACKGAMMON, BAN_ARRIVAL, BAN_BEAR_OFF, rules_params

#: Backgammon, row 1 rolls next: a lone stone on its 6-point comes off at once with 27 rolls of 36
#: (all but 1-1, 1-2, 1-3, 1-4, 2-3), else row 0's lone stone on its 1-point comes off first.
LONE_SIX = Position([[14, 1] + [0] * 24, [14, 0, 0, 0, 0, 0, 1] + [0] * 19])


def test_a_table_position_is_scored_exactly_not_by_the_layers():
    net = NetEvaluator.shipped(BACKGAMMON)
    assert net.endgames
    assert float(evaluate(LONE_SIX.array[None], BACKGAMMON, "net")[0, 0]) * 36 == pytest.approx(9, abs=1e-5)
    layers = net.with_endgames(False)
    assert not layers.endgames and all(np.array_equal(a, b) for a, b in zip(layers.weights, net.weights))
    assert abs(float(layers(LONE_SIX.array[None])[0, 0]) * 36 - 9) > 1e-3     # the layers alone say otherwise
    # before its roll, row 1 wins 27/36: evaluate_position at 0, 1 and 2 plies
    for ply in (0, 1, 2):
        assert evaluate_position(LONE_SIX.swapped(), BACKGAMMON, "net", ply=ply)[0] * 36 == pytest.approx(27,
                                                                                                            abs=1e-4)


def test_the_net_bears_off_as_the_dice_say():
    # stones on the 6- and 5-points, roll 4-1, against four stones on the 1-point (off next turn only
    # with a double): leave a lone 6 (off next turn with 27 rolls) rather than 4 and 2, or 5 and 1 (23);
    # the other side's 30 rolls that are no double leave it that turn: P(win) = 30/36 * 27/36
    board = Position([[13, 0, 0, 0, 0, 1, 1] + [0] * 19, [11, 4] + [0] * 24])
    for ply in (0, 1):
        ranked = best_plays(board, (4, 1), BACKGAMMON, "net", ply=ply)
        assert str(ranked[0].play) == "5/off"
        assert ranked[0].equity == pytest.approx(2 * (30 / 36) * (27 / 36) - 1, abs=1e-5)
    plays = [scored.play for scored in best_plays(board, (4, 1), BACKGAMMON, "net")]
    children = np.stack([play.position.array for play in plays])
    choice = EvaluatorPolicy("net", rules=BACKGAMMON)(children, np.array([0, len(plays)]))    # the kernels' choice
    assert str(plays[int(choice[0])]) == "5/off"


@pytest.mark.parametrize("rules", rules_params([BACKGAMMON, BAN_BEAR_OFF[0], BAN_ARRIVAL[0]]))
def test_the_kernels_score_races_as_the_oracle_twin(rules):
    # table positions reached in games (a pass through every size of bear-off), scored by the kernels'
    # forward pass and by the oracle's plain look-up and convolution of the same tables
    # (arrival games by the net seldom end in a race: enough games to reach 20 table positions)
    records = play_games(rules, 400, policy="net", seed=2)
    after = records.after[race_batch(np.ascontiguousarray(records.after[:, ::-1]), rules, outside="nan").in_table]
    ended = np.array([plain.outcome(Position(p), rules) is None for p in after])
    after = np.ascontiguousarray(after[ended][:200])
    assert len(after) > 20
    twin = plain.PlainNetwork.of(NetEvaluator.shipped(rules))
    assert twin.tables is not None
    expected = np.array([plain.evaluate(Position(p), rules, twin) for p in after])
    np.testing.assert_allclose(NetEvaluator.shipped(rules)(after), expected, atol=1e-6)


def test_a_variance_reduced_rollout_of_a_two_sided_race_has_no_variance_left():
    # with the exact values as the judge and play by them, every roll's luck is the whole change in
    # value, so each game's luck-corrected result is the position's exact equity
    board = Position([[9, 0, 2, 1, 1, 1, 1] + [0] * 19, [10, 1, 1, 1, 1, 1] + [0] * 20])
    exact = race(board, BACKGAMMON)
    assert exact.method == "two-sided"
    result = rollout(board, BACKGAMMON, games=72, policy="net", variance_reduction=True, seed=3)
    assert result.equity == pytest.approx(exact.equity, abs=1e-6)
    assert result.stderr < 1e-6


@pytest.mark.parametrize("rules", rules_params([BACKGAMMON, BAN_ARRIVAL[1]]))
def test_games_choose_in_races_as_the_tables_do(rules):
    # every choice "net" makes in its games where all children are in the tables is a best one by them
    records = play_games(rules, 60, policy="net", seed=5)
    tabled = race_batch(records.positions, rules, outside="nan").in_table
    positions, dice, after = records.positions[tabled], records.dice[tabled], records.after[tabled]
    plays = generate_plays(np.ascontiguousarray(positions), np.ascontiguousarray(dice), rules, fields=("children",))
    scores = race_scores(plays.children, rules)
    checked = 0
    for i in range(len(positions)):
        lo, hi = plays.offsets[i], plays.offsets[i + 1]
        if hi - lo < 2:
            continue
        chosen = [k for k in range(lo, hi) if np.array_equal(plays.children[k], after[i])]
        assert chosen and scores[chosen[0]] >= scores[lo:hi].max() - 1e-6
        checked += 1
    assert checked >= 5
