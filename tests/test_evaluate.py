"""Evaluators: the encodings, the network's forward pass and the searches
against the oracle's plain-Python float64 twin (bansugoroku_fast.oracle.evaluate),
and every bad input (network files, Python evaluators' output)."""
from __future__ import annotations

import numpy as np
import pytest

from bansugoroku_fast import GameBatch, Position, Rules, features, oracle, play_games
from bansugoroku_fast.evaluate import (
    EvaluatorPolicy,
    MoveFilter,
    NetEvaluator,
    best_plays,
    best_plays_batch,
    encode,
    equity,
    evaluate,
)
from bansugoroku_fast.oracle import evaluate as plain
from tests.boards import ALL_RULES, BACKGAMMON, board, rules_params


def plain_network(net: NetEvaluator) -> plain.PlainNetwork:
    """The oracle's copy of ``net`` (float32 weights as float64 lists)."""
    return plain.PlainNetwork([w.tolist() for w in net.weights], [b.tolist() for b in net.biases],
                              net.encoding, net.activation)


def game_positions(rules: Rules, count: int, seed: int) -> np.ndarray:
    """``count`` distinct positions reached in random games, each seen by the
    side that has just moved (the games' ``after`` boards), finished ones included."""
    records = play_games(rules, max(count // 40, 4), policy="random", seed=seed)
    after = np.unique(records.after, axis=0)
    rng = np.random.default_rng(seed)
    chosen = rng.choice(len(after), size=min(count, len(after)), replace=False)
    return np.ascontiguousarray(after[np.sort(chosen)])


NETS = [
    pytest.param(dict(hidden=(12,), activation="sigmoid", encoding="raw198"), id="raw-12-sigmoid"),
    pytest.param(dict(hidden=(10, 6), activation="relu", encoding="raw198"), id="raw-10-6-relu"),
    pytest.param(dict(hidden=(8,), activation="relu", encoding="raw198+features"), id="features-8-relu"),
    pytest.param(dict(hidden=(6, 5), activation="sigmoid", encoding="raw198+features"), id="features-6-5-sigmoid"),
]


# --- the encodings and the forward pass against the oracle -------------------------------------


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
@pytest.mark.parametrize("encoding", ["raw198", "raw198+features"])
def test_encoding_matches_the_oracle(rules, encoding):
    positions = game_positions(rules, 300, seed=1)
    units = encode(positions, encoding, rules)
    expected = [plain.encode(Position(p), encoding, rules) for p in positions]
    np.testing.assert_allclose(units, np.array(expected), rtol=0, atol=1e-7)


def test_encoding_reads_each_row_in_its_own_numbering():
    # row 0: 4 stones on its 6 (units 20..23); row 1: 1 stone on its 6 (units 98 + 20..23), 2 on its bar
    position = board(mover={6: 4}, opponent_at={19: 1}, opponent_bar=2, mover_off=11, opponent_off=12)
    units = encode(position.array[None], "raw198", BACKGAMMON)[0]
    assert units[20:24].tolist() == [1, 1, 1, 0.5]
    assert units[98 + 20:98 + 24].tolist() == [1, 0, 0, 0]
    assert units[98 + 96] == 1.0 and units[97] == pytest.approx(11 / 15) and units[98 + 97] == pytest.approx(12 / 15)
    assert units.sum() == pytest.approx(1 + 1 + 1 + 0.5 + 1 + 1 + 11 / 15 + 12 / 15 + 1)


@pytest.mark.parametrize("shape", NETS)
@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_forward_pass_matches_the_oracle(rules, shape):
    net = NetEvaluator.random(rules, seed=7, **shape)
    positions = game_positions(rules, 400, seed=2)
    ends = oracle_outcomes(positions, rules)
    live = positions[[e is None for e in ends]]
    twin = plain_network(net)
    got = net(live)
    expected = [twin.forward(plain.encode(Position(p), net.encoding, rules)) for p in live]
    np.testing.assert_allclose(got, np.array(expected), rtol=0, atol=1e-5)


def oracle_outcomes(positions, rules):
    return [oracle.outcome(Position(p), rules) for p in positions]


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_finished_positions_are_scored_from_their_outcome(rules):
    positions = game_positions(rules, 2000, seed=3)
    ends = oracle_outcomes(positions, rules)
    over = [i for i, e in enumerate(ends) if e is not None]
    assert over, "the sample holds finished positions"
    seen = []

    def evaluator(batch):
        seen.append(len(batch))
        return np.tile([0.5, 0.25, 0.125, 0.25, 0.125], (len(batch), 1))

    got = evaluate(positions, rules, evaluator)
    assert seen == [len(positions) - len(over)]    # one call, unfinished positions only
    for i in over:
        win = ends[i].winner == 0
        value = ends[i].value
        expected = [win, win and value >= 2, win and value >= 3, not win and value >= 2, not win and value >= 3]
        assert got[i].tolist() == [float(x) for x in expected]
    twin = plain_network(NetEvaluator.random(rules, hidden=(4,)))
    assert [plain.evaluate(Position(positions[i]), rules, twin) for i in over] == [tuple(got[i]) for i in over]


# --- searches against the oracle ----------------------------------------------------------------------


def items(rules: Rules, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` (position, roll) items from random games (the side to move, a roll with plays)."""
    records = play_games(rules, max(count // 30, 3), policy="random", seed=seed)
    moved = np.flatnonzero((records.after != records.positions).any(axis=(1, 2)))
    chosen = np.random.default_rng(seed).choice(moved, size=min(count, len(moved)), replace=False)
    return records.positions[chosen], records.dice[chosen]


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_zero_ply_choice_matches_the_oracle(rules):
    net = NetEvaluator.random(rules, hidden=(10,), seed=11)
    twin = plain_network(net)
    positions, dice = items(rules, 120, seed=4)
    scored = best_plays_batch(positions, dice, rules, net, ply=0)
    best = scored.best()
    compared = 0
    for i, (position, roll) in enumerate(zip(positions, dice)):
        ranked = plain.rank_plays(Position(position), tuple(roll), rules, twin)
        lo, hi = scored.offsets[i], scored.offsets[i + 1]
        np.testing.assert_allclose(sorted(scored.equity[lo:hi], reverse=True), [r[1] for r in ranked], atol=4e-5)
        if len(ranked) == 1 or ranked[0][1] - ranked[1][1] > 1e-4:
            plays = oracle.legal_plays(Position(position), tuple(roll), rules)
            assert str(plays[best[i]]) == ranked[0][0]
            compared += 1
    assert compared > 50


def small_cases():
    """Late positions with few plays, so that the brute force stays quick."""
    return [
        (board(mover={1: 2, 3: 1, 5: 2}, opponent_at={20: 2, 23: 3, 24: 1}), (4, 2), BACKGAMMON),
        (board(mover={2: 1, 7: 2, 9: 1}, opponent_at={3: 1, 4: 2, 18: 2}, opponent_bar=1), (5, 1), BACKGAMMON),
        (board(mover={4: 3, 6: 1, 10: 2}, opponent_at={22: 2, 17: 1, 5: 2}),
         (6, 3), Rules(finish="bear_off")),
        (board(mover={1: 2, 2: 2, 3: 2, 4: 3, 5: 2, 8: 2, 9: 2}, opponent_at={7: 1, 10: 14}, opponent_off=0,
               mover_off=0), (3, 1), Rules()),
    ]


@pytest.mark.parametrize("case", range(4))
def test_one_ply_matches_the_brute_force(case):
    position, dice, rules = small_cases()[case]
    net = NetEvaluator.random(rules, hidden=(6,), seed=case)
    twin = plain_network(net)
    ranked = best_plays(position, dice, rules, net, ply=1, move_filter=None)
    expected = plain.rank_plays(position, dice, rules, twin, ply=1)
    assert len(ranked) == len(expected) >= 2
    assert [r.ply for r in ranked] == [1] * len(ranked)
    np.testing.assert_allclose([r.equity for r in ranked], [e[1] for e in expected], atol=5e-5)
    np.testing.assert_allclose([r.probabilities for r in ranked], [e[2] for e in expected], atol=2e-5)
    if expected[0][1] - expected[1][1] > 1e-4:
        assert str(ranked[0].play) == expected[0][0]


def test_two_ply_with_a_filter_keeps_the_best_and_ranks_them_first():
    position, dice, rules = small_cases()[0]
    net = NetEvaluator.random(rules, hidden=(6,), seed=5)
    zero = best_plays(position, dice, rules, net, ply=0)
    two = best_plays(position, dice, rules, net, ply=2, move_filter=MoveFilter(keep=2, margin=1.0))
    assert [r.ply for r in two] == [2, 2] + [0] * (len(two) - 2)
    assert {str(r.play) for r in two[:2]} == {str(r.play) for r in zero[:2]}
    unfiltered = {str(r.play): r.equity for r in zero}
    assert all(r.equity == pytest.approx(unfiltered[str(r.play)]) for r in two[2:])


def test_two_ply_of_a_child_averages_its_one_ply_replies():
    # the 2-ply value of a play = mean over the other side's rolls of the 1-ply value of its best reply
    position, dice, rules = small_cases()[1]
    net = NetEvaluator.random(rules, hidden=(6,), seed=6)
    twin = plain_network(net)
    best = best_plays(position, dice, rules, net, ply=2, move_filter=MoveFilter(keep=1))[0]
    child = best.play.position
    theirs, total = child.swapped(), np.zeros(5)
    for roll in oracle.ALL_ROLLS:
        replies = oracle.legal_plays(theirs, roll, rules)
        reply = max(replies, key=lambda p: plain.equity(plain.evaluate(p.position, rules, twin))).position \
            if replies else theirs
        total += (1 if roll[0] == roll[1] else 2) * np.array(plain.flip(plain.one_ply_values(reply, rules, twin)))
    np.testing.assert_allclose(best.probabilities, total / 36, atol=3e-5)


def test_batch_form_ranks_as_the_single_form():
    rules = BACKGAMMON
    net = NetEvaluator.random(rules, hidden=(8,), seed=2)
    positions, dice = items(rules, 6, seed=8)
    scored = best_plays_batch(positions, dice, rules, net, ply=1)
    for i in range(len(positions)):
        single = best_plays(positions[i], tuple(dice[i]), rules, net, ply=1)
        lo = scored.offsets[i]
        order = np.argsort(scored.ranks[lo:scored.offsets[i + 1]], kind="stable")
        assert [r.play.position for r in single] == [Position(scored.children[lo + j]) for j in order]
        np.testing.assert_allclose([r.equity for r in single], scored.equity[lo + order], atol=1e-6)  # BLAS blocking


def test_evaluator_policy_plays_the_zero_ply_best_play():
    rules = BACKGAMMON
    net = NetEvaluator.random(rules, hidden=(8,), seed=9)
    twin = plain_network(net)
    games = GameBatch(rules, 4, seed=3)
    policy = EvaluatorPolicy(net)
    for _ in range(6):
        wave = games.candidates()
        choices = policy(wave.children, wave.offsets)
        for i in range(games.n):
            kids = wave.children[wave.offsets[i]:wave.offsets[i + 1]]
            values = [plain.equity(plain.evaluate(Position(k), rules, twin)) for k in kids]
            assert values[choices[i]] >= max(values) - 1e-4
        games.step(choices)
    records = play_games(rules, 3, policy=EvaluatorPolicy(net, ply=1), seed=5)
    assert set(records.winner.tolist()) <= {0, 1}


def test_a_won_play_is_always_taken():
    # bearing off the last two stones wins a backgammon (two of theirs in our home, none off);
    # an evaluator that hates every position still takes it
    position = board(mover={1: 1, 2: 1}, opponent_at={5: 2, 20: 13}, opponent_off=0)
    ranked = best_plays(position, (2, 1), BACKGAMMON, lambda p: np.tile([0.0, 0, 0, 1, 1], (len(p), 1)), ply=1)
    assert ranked[0].equity == 3.0 and ranked[0].probabilities == (1.0, 1.0, 1.0, 0.0, 0.0)
    assert equity(np.array([ranked[0].probabilities]))[0] == 3.0


def test_features_encoding_uses_the_features_function():
    positions = game_positions(BACKGAMMON, 50, seed=6)
    units = encode(positions, "raw198+features", BACKGAMMON)
    assert np.allclose(units[:, 198] * 167, features(positions, BACKGAMMON)[:, 0])
