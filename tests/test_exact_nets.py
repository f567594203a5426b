"""Exact networks: rounded weights whose children the kernels score in
16-bit integers (``bsf_net.h``). The games they play are held to the
oracle's float64 forward pass in ``test_net_games.py``; here, what makes a
network exact, what rounding moves, and the bound that keeps the integer
sums exact."""
import numpy as np
import pytest

from bansugoroku_fast import Rules, _kernel, play_games
from bansugoroku_fast.evaluators import NetEvaluator, encode, evaluate, kernel_arrays
from bansugoroku_fast.evaluators.search import best_replies

BACKGAMMON = Rules(variant="backgammon")


def relu(hidden=(32,), encoding="raw198+features", seed=1):
    return NetEvaluator.random(BACKGAMMON, hidden=hidden, encoding=encoding, activation="relu", seed=seed)


@pytest.mark.parametrize("encoding", ["raw198", "raw198+features"])
def test_a_rounded_relu_network_is_exact_and_a_random_one_is_not(encoding):
    net = relu(encoding=encoding)
    assert not net.exact
    assert net.rounded().exact


@pytest.mark.parametrize("net", [
    NetEvaluator.random(BACKGAMMON, hidden=(32,), activation="sigmoid", seed=1),    # sigmoid units
    NetEvaluator.random(BACKGAMMON, hidden=(16, 16), activation="relu", seed=1),    # two hidden layers
    NetEvaluator.random(BACKGAMMON, hidden=(24,), activation="relu", seed=1),       # not a multiple of 16
], ids=["sigmoid", "two-layers", "24-units"])
def test_only_one_hidden_layer_of_relu_units_in_sixteens_is_exact(net):
    assert not net.rounded().exact


def test_rounding_moves_each_kernel_row_by_at_most_half_a_step():
    net = relu()
    before, _ = kernel_arrays.model_arrays(net.weights, net.biases)
    after, _ = kernel_arrays.model_arrays(*kernel_arrays.rounded_layers(net.weights, net.biases))
    for name in ("threshold_rows", "excess_rows", "bar_rows", "off_rows", "feature_rows", "bias1"):
        scaled = np.asarray(after[name], np.float64) * _kernel.EXACT_FIRST
        assert np.allclose(scaled, np.round(scaled), atol=1e-3), name            # on the grid
        moved = np.abs(np.asarray(after[name], np.float64) - np.asarray(before[name], np.float64))
        assert moved.max() <= 0.5 / _kernel.EXACT_FIRST + 1e-6, name
    moved = np.abs(after["out_weights"].astype(np.float64) - before["out_weights"])
    assert moved.max() <= 0.5 / _kernel.EXACT_OUT + 1e-6


def test_rounding_leaves_the_folded_features_weights_alone():
    # the board's rows take up the rounding of the features folded into them (pips, blots...)
    net = relu()
    rounded = net.rounded()
    _, read = kernel_arrays.model_arrays(net.weights, net.biases)
    folded = [f for f in range(28) if f not in read]
    assert np.array_equal(rounded.weights[0][198 + np.array(folded)], net.weights[0][198 + np.array(folded)])


def test_a_network_whose_sums_could_leave_16_bits_is_not_exact():
    rounded = relu().rounded()
    assert rounded.exact
    # every first-layer weight 64 times as large: still on the grid, but the sums could reach past 128
    weights = [rounded.weights[0] * 64, rounded.weights[1]]
    biases = [rounded.biases[0] * 64, rounded.biases[1]]
    louder = NetEvaluator(weights, biases, encoding=rounded.encoding, activation="relu")
    arrays, read = kernel_arrays.model_arrays(louder.weights, louder.biases)
    least, most = kernel_arrays.first_layer_bounds(arrays, read)
    assert max(most.max(), -least.min()) > 32767 / _kernel.EXACT_FIRST
    assert not louder.exact


@pytest.mark.parametrize("net", [NetEvaluator.shipped(BACKGAMMON), relu().rounded()], ids=["shipped", "random"])
def test_the_first_layer_sums_of_positions_played_lie_within_the_bounds(net):
    positions = play_games(BACKGAMMON, 200, "heuristic", seed=4, threads=1).after
    sums = encode(positions, net.encoding, BACKGAMMON).astype(np.float64) @ net.weights[0] + net.biases[0]
    arrays, read = kernel_arrays.model_arrays(net.weights, net.biases)
    least, most = kernel_arrays.first_layer_bounds(arrays, read)
    assert (sums >= least - 1e-9).all() and (sums <= most + 1e-9).all()
    # the bounds are bounds of positions, not of any inputs: far inside the sum of every row's extreme
    assert (most - least).max() < np.abs(net.weights[0] * 15).sum(axis=0).max()


def test_the_shipped_backgammon_network_is_exact():
    net = NetEvaluator.shipped(BACKGAMMON)
    assert net.exact and net.race is not None and net.race.exact


@pytest.mark.parametrize("hidden", [(32,), (128,), (144,)])
def test_the_integer_scores_of_children_agree_with_the_float_pass(hidden):
    # the best reply to each roll, chosen and scored in integers, against the batch pass (floats) on it
    rounded = relu(hidden=hidden).rounded()
    records = play_games(BACKGAMMON, 20, "heuristic", seed=9, threads=1)
    last = records.offsets[1:] - 1                              # the plies that end a game
    going_on = np.setdiff1d(np.arange(len(records.after)), last)[::7]
    replies, values = best_replies(records.after[going_on], BACKGAMMON, rounded)
    assert len(replies) == 21 * len(going_on)
    assert np.abs(evaluate(replies, BACKGAMMON, rounded) - values).max() < 1e-5


@pytest.mark.parametrize("net", [NetEvaluator.shipped(BACKGAMMON), NetEvaluator.random(BACKGAMMON, hidden=(80,))])
def test_the_kernel_model_s_arrays_start_on_cache_lines(net):
    # the kernels' vector loads of a row straddle two cache lines where an array does not
    arrays = dict(net.native_model().arrays)
    # the endgame tables (the shipped network's), read an entry at a time, are kept alive beside them
    assert ("race_tables" in arrays) == net.endgames
    arrays.pop("race_tables", None)
    assert "rows" in arrays and ("rows16" in arrays) == net.exact
    assert all(array.ctypes.data % 64 == 0 and array.flags.c_contiguous for array in arrays.values())
