"""Evaluators: the encodings, the network's forward pass and the searches
against the oracle's plain-Python float64 twin (bansugoroku_fast.oracle.evaluators),
and every bad input (network files, Python evaluators' output)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from bansugoroku_fast import (
    GameBatch,
    Position,
    Rules,
    features,
    generate_plays,
    legal_plays,
    oracle,
    play_games,
    rollout,
)
from bansugoroku_fast.errors import InvalidEvaluatorError
from bansugoroku_fast.evaluators import (
    EvaluatorPolicy,
    MoveFilter,
    NetEvaluator,
    best_plays,
    best_plays_batch,
    encode,
    equity,
    evaluate,
)
from bansugoroku_fast.oracle import evaluators as plain
from tests import source_tree
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


def oracle_unfinished(positions: np.ndarray, rules: Rules) -> np.ndarray:
    """``bool[N]``: the positions whose game goes on, by the oracle."""
    return np.array([oracle.outcome(Position(p), rules) is None for p in positions])


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
    positions = game_positions(rules, 1500, seed=2)
    ends = oracle_outcomes(positions, rules)
    live = positions[[e is None for e in ends]]
    assert len(live) > 1400
    twin = plain_network(net)
    got = net(live)
    expected = [twin.forward(plain.encode(Position(p), net.encoding, rules)) for p in live]
    np.testing.assert_allclose(got, np.array(expected), rtol=0, atol=1e-5)


@pytest.mark.parametrize("shape", NETS)
@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_kernel_forward_pass_matches_numpys(rules, shape):
    net = NetEvaluator.random(rules, seed=8, **shape)
    positions = game_positions(rules, 20000, seed=5)
    np.testing.assert_allclose(net(positions), net.forward(encode(positions, net.encoding, rules)), rtol=0, atol=1e-5)


def test_results_do_not_depend_on_the_thread_count():
    rules = BACKGAMMON
    net = NetEvaluator.random(rules, hidden=(16,), encoding="raw198+features", seed=3)
    positions = game_positions(rules, 5000, seed=7)
    one = net(positions)
    assert all(np.array_equal(one, net(positions, threads=k)) for k in (2, 3, 8))
    starts, dice = items(rules, 30, seed=10)
    single = best_plays_batch(starts, dice, rules, net, ply=1, threads=1)
    several = best_plays_batch(starts, dice, rules, net, ply=1, threads=3)
    assert all(np.array_equal(a, b) for a, b in zip(single, several))


@pytest.mark.parametrize("activation", ["sigmoid", "relu"])
def test_saturated_units_give_no_nan(activation):
    # weights a thousand times too large: hidden sums in the thousands, outputs at 0 or 1
    small = NetEvaluator.random(BACKGAMMON, hidden=(16, 8), activation=activation, seed=4)
    net = NetEvaluator([w * 1000 for w in small.weights], [b * 1000 for b in small.biases], activation=activation)
    positions = game_positions(BACKGAMMON, 2000, seed=6)
    got = net(positions)
    assert np.isfinite(got).all() and (np.minimum(got, 1 - got) < 1e-6).mean() > 0.5
    # sums in the thousands carry float32 rounding of about 1e-4 into the few unsaturated outputs
    np.testing.assert_allclose(got, net.forward(encode(positions, "raw198", BACKGAMMON)), rtol=0, atol=1e-3)


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_kernel_best_child_hook_matches_the_oracle(rules):
    from bansugoroku_fast.evaluators import kernel_arrays

    net = NetEvaluator.random(rules, hidden=(10,), encoding="raw198+features", seed=12)
    twin = plain_network(net)
    positions, dice = items(rules, 150, seed=9)
    plays = generate_plays(positions, dice, rules)
    values = features(plays.children, rules).astype(np.int32)
    chosen = kernel_arrays.best_children(net.native_model(), plays.children, plays.offsets, rules.code, values)
    # the same boards in wider rows (as a search's leaves hold them): the same choices
    padded = np.zeros((len(plays.children), 72), dtype=np.int8)
    padded[:, :52] = plays.children.reshape(-1, 52)
    padded[:, 52:] = 99
    wide = kernel_arrays.best_children(net.native_model(), padded, plays.offsets, rules.code, values)
    assert np.array_equal(wide, chosen)
    compared = 0
    for i in range(len(positions)):
        kids = plays.children[plays.offsets[i]:plays.offsets[i + 1]]
        equities = [plain.equity(plain.evaluate(Position(k), rules, twin)) for k in kids]
        ranked = sorted(equities, reverse=True)
        if len(ranked) == 1 or ranked[0] - ranked[1] > 1e-4:
            assert chosen[i] == equities.index(ranked[0])
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_kernel_best_replies_match_the_oracle(rules):
    # each reply the kernels pick for the other side's 21 rolls is the oracle's best play by
    # 0-ply equity (where its best two differ by more than 1e-4), valued within 1e-5
    from bansugoroku_fast.evaluators import kernel_arrays
    from bansugoroku_fast.evaluators.search import ROLL_DICE, swap_sides

    net = NetEvaluator.random(rules, hidden=(10,), encoding="raw198+features", seed=13)
    twin = plain_network(net)
    positions = game_positions(rules, 40, seed=14)
    positions = positions[oracle_unfinished(positions, rules)][:10]
    parents = swap_sides(positions)
    replies, values = kernel_arrays.best_replies(net.native_model(), parents, ROLL_DICE, rules.code, 1)
    on_two = kernel_arrays.best_replies(net.native_model(), parents, ROLL_DICE, rules.code, 2)
    assert np.array_equal(on_two[0], replies) and np.array_equal(on_two[1], values)
    compared = 0
    for i, parent in enumerate(parents):
        for r, roll in enumerate(ROLL_DICE.tolist()):
            reply, value = replies[21 * i + r], values[21 * i + r]
            plays = oracle.legal_plays(Position(parent), tuple(roll), rules)
            np.testing.assert_allclose(value, plain.evaluate(Position(reply), rules, twin), atol=1e-5)
            if not plays:
                assert np.array_equal(reply, parent)
                continue
            equities = sorted((plain.equity(plain.evaluate(p.position, rules, twin)) for p in plays), reverse=True)
            if len(equities) == 1 or equities[0] - equities[1] > 1e-4:
                best = plain.best_value(Position(parent), tuple(roll), rules, twin)
                np.testing.assert_allclose(value, best, atol=1e-5)
                compared += 1
    assert compared > 100


def test_kernel_best_replies_pass_and_finish():
    # the other side on the bar against a closed board passes every roll; a last bear-off wins
    from bansugoroku_fast.evaluators import kernel_arrays
    from bansugoroku_fast.evaluators.search import ROLL_DICE, swap_sides

    net = NetEvaluator.random(BACKGAMMON, hidden=(8,), seed=15)
    closed = board(mover={1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 13: 2}, opponent_at={20: 12, 19: 2},
                   opponent_bar=1).array
    last = board(mover={1: 1, 13: 13}, opponent_at={24: 1}, mover_off=1, opponent_off=14).array
    parents = swap_sides(np.stack([closed, last]))
    replies, values = kernel_arrays.best_replies(net.native_model(), parents, ROLL_DICE, BACKGAMMON.code, 1)
    assert (replies[:21] == parents[0]).all()
    np.testing.assert_array_equal(values[:21], np.repeat(net(parents[:1]), 21, axis=0))
    # the other side's last stone, on its 1-point, goes off with any roll: a single win (this side has
    # borne one off)
    np.testing.assert_array_equal(values[21:], [[1, 0, 0, 0, 0]] * 21)
    assert (replies[21:, 0, 0] == 15).all()


@pytest.mark.slow      # compiles the forward pass three times
@source_tree.needs("src/bansugoroku_fast")
@source_tree.needs_c_compiler()
def test_the_baseline_avx2_and_vnni_builds_of_the_forward_pass_agree_bit_for_bit(tmp_path):
    # tests/net_builds.c scores pseudo-random boards with pseudo-random networks; the package
    # runs the AVX2 clone of the batch loop where the CPU has AVX2, the baseline one elsewhere
    from bansugoroku_fast import _cpu

    kernels = source_tree.path("src", "bansugoroku_fast")
    # the baseline build without bsf_net.h's AVX2 paths for exact networks, one with AVX2 alone, one
    # with AVX-512 VNNI too where the CPU has it
    builds = [["-DBSF_NET_NO_AVX2"]]
    if _cpu.cpu_has_avx2():
        builds += [["-mavx2", "-DBSF_NET_NO_VNNI"], ["-mavx2"]]
    outputs = []
    for flags in builds:
        program = tmp_path / f"net_builds{''.join(flags)}"
        compiler = source_tree.c_compiler()
        subprocess.run([compiler, "-O3", "-ffp-contract=off", "-DBSF_NET_NO_CLONES", *flags, f"-I{kernels}",
                        str(Path(__file__).with_name("net_builds.c")), "-o", str(program), "-lm"],
                       check=True, capture_output=True, text=True)
        outputs.append(subprocess.run([str(program)], check=True, capture_output=True, text=True).stdout)
    values = np.array([float.fromhex(line) for line in outputs[0].split()])
    children = 12 * len(range(0, 500 - 12, 7))       # net_builds.c: a parent every 7 boards, 12 children each
    runs = values.reshape(10, 5 * 500 + 6 * children)      # the last three: exact networks (integer children)
    scratch, child = runs[:, :5 * 500], runs[:, 5 * 500:].reshape(10, children, 6)
    boards = [parent + 1 + i for parent in range(0, 500 - 12, 7) for i in range(12)]
    # an exact network's children, scored in 16-bit integers from their parents' sums, against
    # the float pass from scratch (the other runs' point_rows are random, not their thresholds' sums)
    assert np.abs(child[7:, :, :5] - scratch.reshape(10, 500, 5)[7:, boards]).max() < 1e-5
    assert ((scratch >= 0) & (scratch <= 1)).all() and ((child[..., :5] >= 0) & (child[..., :5] <= 1)).all()
    p = child[..., :5]
    np.testing.assert_allclose(child[..., 5], 2 * p[..., 0] - 1 + p[..., 1] - p[..., 3] + p[..., 2] - p[..., 4],
                               atol=1e-12)
    assert (p[..., 1] <= p[..., 0]).all() and (p[..., 4] <= p[..., 3]).all()      # made consistent
    assert all(output == outputs[0] for output in outputs)


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


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_a_network_scores_in_one_pass_as_its_outputs_set_beside_the_outcomes(rules):
    # evaluate runs a network's kernel once over every position, finished games and table races
    # included (the kernel gives them their outcome, the tables their figures, and computes the
    # features itself); through a plain callable the finished games are set aside and the network
    # scores the others: the same figures, bit for bit
    positions = game_positions(rules, 3000, seed=4)
    assert not all(oracle_unfinished(positions, rules))
    for net in (NetEvaluator.random(rules, hidden=(8,), encoding="raw198+features", seed=2),
                NetEvaluator.random(rules, hidden=(6, 5), encoding="raw198", seed=3), NetEvaluator.shipped(rules)):
        assert np.array_equal(evaluate(positions, rules, net), evaluate(positions, rules, net.__call__))


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_plays_scored_from_their_parent_are_scored_as_from_scratch(rules):
    # evaluate_plays scores each play from its parent's first layer (a few rows a play, as the game
    # kernels do): the figures of evaluate up to float32 rounding, whole games' plays included (the
    # winning ones, and the races the shipped network's tables cover), on any thread count
    from bansugoroku_fast.evaluators.scoring import evaluate_plays

    records = play_games(rules, 3, policy="random", seed=12)
    plays = generate_plays(records.positions, records.dice, rules, fields=("children",))
    assert (oracle_unfinished(plays.children, rules) == 0).any()
    nets = [NetEvaluator.random(rules, hidden=(8,), encoding="raw198+features", seed=2),
            NetEvaluator.random(rules, hidden=(6, 5), encoding="raw198", seed=3),
            NetEvaluator.random(rules, hidden=(32,), encoding="raw198+features", activation="relu", seed=4).rounded(),
            NetEvaluator.shipped(rules)]
    for net in nets:
        got = evaluate_plays(records.positions, plays.offsets, plays.children, rules, net)
        np.testing.assert_allclose(got, evaluate(plays.children, rules, net), rtol=0, atol=1e-5)
        assert np.array_equal(got, evaluate_plays(records.positions, plays.offsets, plays.children, rules, net,
                                                  threads=3))


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


def test_a_network_too_wide_for_the_kernels_is_searched_in_numpy():
    # hidden layers beyond NET_MAX_HIDDEN do not fit the kernels' scratch: its 1-ply search takes the
    # numpy path, the very one the same network called from Python takes
    from bansugoroku_fast._kernel import NET_MAX_HIDDEN

    position, dice, rules = small_cases()[0]
    wide = NetEvaluator.random(rules, hidden=(NET_MAX_HIDDEN + 1,), seed=7)
    ranked = best_plays(position, dice, rules, wide, ply=1, move_filter=None)
    called = best_plays(position, dice, rules, lambda positions: wide(positions), ply=1, move_filter=None)
    assert [str(r.play) for r in ranked] == [str(r.play) for r in called]
    assert [r.probabilities for r in ranked] == [r.probabilities for r in called]


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


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_games_played_by_the_policy_follow_the_oracles_choices(rules):
    # a random network may never finish a game: 40 plies of 4 games, each choice checked
    net = NetEvaluator.random(rules, hidden=(8,), seed=13)
    twin = plain_network(net)
    games, policy = GameBatch(rules, 4, seed=21, restart=True), EvaluatorPolicy(net)
    checked = 0
    for _ in range(40):
        wave = games.candidates()
        choices = policy(wave.children, wave.offsets)
        for i, (lo, hi) in enumerate(zip(wave.offsets[:-1], wave.offsets[1:])):
            if hi - lo >= 2:
                equities = [plain.equity(plain.evaluate(Position(k), rules, twin)) for k in wave.children[lo:hi]]
                assert equities[choices[i]] >= max(equities) - 1e-4
                checked += 1
        games.step(choices)
    assert checked > 60


@pytest.mark.parametrize("encoding", ["raw198", "raw198+features"])
def test_the_kernel_choice_is_the_search_choice_at_zero_ply(encoding):
    # EvaluatorPolicy(net) at 0 ply chooses in the kernels (net_best_child); ranking the same
    # children with best_plays_batch (numpy, float64 equities of the same float32 outputs) agrees exactly
    rules = BACKGAMMON
    net = NetEvaluator.random(rules, hidden=(12,), encoding=encoding, seed=15)
    positions, dice = items(rules, 300, seed=11)
    scored = best_plays_batch(positions, dice, rules, net, ply=0)
    assert np.array_equal(EvaluatorPolicy(net)(scored.children, scored.offsets), scored.best())


def test_rollouts_by_the_policy_do_not_depend_on_threads():
    net = NetEvaluator.random(BACKGAMMON, hidden=(8,), seed=14)
    one = rollout(Position.initial(), BACKGAMMON, games=8, policy=EvaluatorPolicy(net, ply=1), seed=3, threads=1)
    two = rollout(Position.initial(), BACKGAMMON, games=8, policy=EvaluatorPolicy(net, ply=1, threads=2), seed=3,
                  threads=2)
    assert one.counts.tolist() == two.counts.tolist() and one.mean_plies == two.mean_plies


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


# --- the shipped networks by name ------------------------------------------------------------


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_the_name_net_is_the_shipped_network_of_the_rules(rules):
    """``"net"`` scores, ranks and plays exactly as the rules' shipped file,
    loaded by hand, does: the name stands for that file and nothing else."""
    from bansugoroku_fast.evaluators.nets import network_file

    by_hand = NetEvaluator.load(network_file(rules), rules=rules)
    start = Position.initial(rules)
    children = np.stack([play.position.array for play in legal_plays(start, (3, 1), rules)])
    assert np.array_equal(evaluate(children, rules, "net"), evaluate(children, rules, by_hand))
    named = [(str(s.play), s.equity) for s in best_plays(start, (6, 5), rules, "net", ply=1)]
    assert named == [(str(s.play), s.equity) for s in best_plays(start, (6, 5), rules, by_hand, ply=1)]
    batch = best_plays_batch(children[:3], (2, 1), rules, "net")
    assert np.array_equal(batch.equity, best_plays_batch(children[:3], (2, 1), rules, by_hand).equity)
    games = play_games(rules, 4, policy=EvaluatorPolicy("net", rules=rules), seed=2)
    assert np.array_equal(games.winner, play_games(rules, 4, policy=EvaluatorPolicy(by_hand), seed=2).winner)


def test_a_shipped_network_is_loaded_once_and_refused_for_other_rules():
    assert NetEvaluator.shipped(BACKGAMMON) is NetEvaluator.shipped("backgammon")
    with pytest.raises(InvalidEvaluatorError, match="plays ban/arrival/multiplied, not backgammon"):
        best_plays(Position.initial(), (3, 1), "backgammon", NetEvaluator.shipped(Rules()))
