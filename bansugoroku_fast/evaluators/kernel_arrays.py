"""A network's arrays prepared as the compiled forward pass
(``src/bansugoroku_fast/_net.pyx`` and ``_scoring.pyx``, reached through
the seam) reads them, and the calls. Arguments come checked.

>>> from bansugoroku_fast import Position
>>> from bansugoroku_fast.evaluators import NetEvaluator
>>> net = NetEvaluator.random("backgammon", hidden=(8,))
>>> scores(model(net.weights, net.biases, net.encoding, net.activation), Position.initial().array[None], 0).shape
(1, 5)
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .. import _kernel
from ..layout import STONES
from ..rules import Rules
from ..scoring import SIDE_FEATURES
from .encoding import FEATURE_SCALES, RAW_INPUTS, ROW_UNITS, TURN_UNITS

__all__ = ["best_children", "best_replies", "children_scores", "exact_arrays", "first_layer_bounds", "fits", "model",
           "model_arrays", "rounded_layers", "scores"]


class _Linear(NamedTuple):
    """A side feature linear in the raw encoding's units of the board: its
    value is the sum of these weights over the side's stones (``stones``
    per stone on point p = 1..24, ``made`` per point of two or more,
    ``blot`` per point of exactly one, ``excess`` per stone beyond three
    on a point, ``bar`` and ``off`` per stone there)."""
    stones: np.ndarray = np.zeros(24)
    made: np.ndarray = np.zeros(24)
    blot: np.ndarray = np.zeros(24)
    excess: float = 0.0
    bar: float = 0.0
    off: float = 0.0


_POINTS = np.arange(1, 25, dtype=np.float64)
_HOME = (_POINTS <= 6).astype(np.float64)
_BACK = (_POINTS >= 19).astype(np.float64)

#: The side features folded into the board's rows, as linear functions of
#: the board (their definitions: ``oracle.features.side_features``; the tests
#: hold the kernels' scores to the oracle's). The kernels compute the others
#: (``_kernel.NET_SIDE_FEATURES``).
LINEAR_SIDE_FEATURES: dict[str, _Linear] = {
    "pips": _Linear(stones=_POINTS, bar=25.0),
    "off": _Linear(off=1.0),
    "bar": _Linear(bar=1.0),
    "home": _Linear(stones=_HOME),
    "back": _Linear(stones=_BACK, bar=1.0),
    "blots": _Linear(blot=np.ones(24)),
    "points": _Linear(made=np.ones(24)),
    "home_points": _Linear(made=_HOME),
    "anchors": _Linear(made=_BACK),
    "stacking": _Linear(excess=1.0),
}
assert sorted([*LINEAR_SIDE_FEATURES, *_kernel.NET_SIDE_FEATURES]) == sorted(SIDE_FEATURES)


def _fold(points: np.ndarray, bar: np.ndarray, off: np.ndarray, feature_rows: np.ndarray) -> None:
    """Adds the row of each linear feature (per unit of it, in
    ``feature_rows``) to the board's rows, in place, and zeroes it:
    ``points[side, p - 1]`` holds the rows of the thresholds n >= 1, 2, 3
    and the row per stone beyond three, ``bar`` and ``off`` the rows per
    stone. A point of n stones passes min(n, 3) thresholds and has
    max(n - 3, 0) stones beyond, so n counts on all four; a blot passes
    the first threshold and not the second; a made point passes the second."""
    for side in range(2):
        for index, name in enumerate(SIDE_FEATURES):
            linear = LINEAR_SIDE_FEATURES.get(name)
            if linear is None or len(SIDE_FEATURES) * side + index >= len(feature_rows):
                continue
            row = feature_rows[len(SIDE_FEATURES) * side + index].copy()
            stones = linear.stones[:, None] * row
            points[side, :, 0] += stones + linear.blot[:, None] * row
            points[side, :, 1] += stones + (linear.made - linear.blot)[:, None] * row
            points[side, :, 2] += stones
            points[side, :, 3] += stones + linear.excess * row
            bar[side] += linear.bar * row
            off[side] += linear.off * row
            feature_rows[len(SIDE_FEATURES) * side + index] = 0.0


#: The features the kernels read (their rows are not folded), as columns of ``features()``.
_READ = [SIDE_FEATURES.index(name) + len(SIDE_FEATURES) * side
         for side in range(2) for name in _kernel.NET_SIDE_FEATURES]


def _per_stone_rows(first: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The first layer's rows (float64 ``first``) per unit of what they
    count: ``points[side, p - 1]`` the thresholds' rows and the row per
    stone beyond three, ``bar`` and ``off`` per stone, each feature's per
    unit of it (its column divided by its scale)."""
    rows = first[:2 * ROW_UNITS].reshape(2, ROW_UNITS, first.shape[1])
    points = rows[:, :96].reshape(2, 24, 4, first.shape[1]).copy()
    points[:, :, 3] /= 2                     # the fourth unit is (n - 3) / 2
    bar, off = rows[:, 96] / 2, rows[:, 97] / 15
    feature_rows = first[RAW_INPUTS:] / np.array(FEATURE_SCALES)[:len(first) - RAW_INPUTS, None]
    return points, bar, off, feature_rows


def model_arrays(weights: Sequence[np.ndarray], biases: Sequence[np.ndarray],
                 ) -> tuple[dict[str, np.ndarray], list[int]]:
    """The arrays of a checked network as the kernels read them (see
    ``bsf_net.h``): the first layer's weight rows regrouped by point and
    threshold (summed and one by one), pre-scaled per stone, the turn units
    folded into the bias and the features linear in the board
    (:data:`LINEAR_SIDE_FEATURES`) into the board's rows; and the features
    the kernels read (the others), as columns of ``features()``."""
    first = np.asarray(weights[0], dtype=np.float64)
    points, bar, off, feature_rows = _per_stone_rows(first)
    _fold(points, bar, off, feature_rows)
    thresholds = points[:, :, :3].astype(np.float32)
    arrays = {
        "point_rows": np.cumsum(thresholds, axis=2, dtype=np.float32),
        "threshold_rows": thresholds,
        "excess_rows": points[:, :, 3],
        "bar_rows": bar,
        "off_rows": off,
        "feature_rows": feature_rows,
        "bias1": biases[0] + np.asarray(TURN_UNITS, dtype=np.float32) @ first[2 * ROW_UNITS:RAW_INPUTS],
        "weights2": weights[1] if len(weights) == 3 else np.zeros(0, dtype=np.float32),
        "bias2": biases[1] if len(weights) == 3 else np.zeros(0, dtype=np.float32),
        "out_weights": np.ascontiguousarray(np.asarray(weights[-1]).T),
        "out_bias": biases[-1],
    }
    return arrays, [f for f in _READ if f < len(first) - RAW_INPUTS]


def model(weights: Sequence[np.ndarray], biases: Sequence[np.ndarray], encoding: str, activation: str) -> Any:
    """The kernels' model (``_kernel.net_model``) of a checked network:
    its :func:`model_arrays`, and an exact network's int16 arrays
    (:func:`exact_arrays`) where it is one."""
    arrays, read = model_arrays(weights, biases)
    hidden1, hidden2 = np.shape(weights[0])[1], (np.shape(weights[1])[1] if len(weights) == 3 else 0)
    features = np.shape(weights[0])[0] - RAW_INPUTS
    mask = sum(1 << f for f in read)
    exact = exact_arrays(arrays, read) if activation == "relu" and not hidden2 else None
    return _kernel.net_model({**arrays, **(exact or {})}, hidden1, hidden2, activation == "relu", features, mask,
                             exact is not None)


def use_tables(net_model: Any, rules: Rules) -> None:
    """Make the kernels' model answer from the exact endgame tables of
    ``rules`` (built, or read from the cache, on first use)."""
    from ..endgames.store import kind_of, tables  # the tables import the evaluators' neighbours

    kind, built = kind_of(rules), tables(rules)
    net_model.use_tables(built.finish, built.finish_mean, built.first, built.win, kind.bears_off, kind.gammons)


#: The most each feature the kernels read takes (15 stones make at most
#: seven points; 36 rolls; a closure or not; a win worth 1 to 3).
_FEATURE_MOST = {"prime": 7, "exposure": 36, "closure": 1, "won": 3}
assert sorted(_FEATURE_MOST) == sorted(_kernel.NET_SIDE_FEATURES)


#: An exact network's int16 arrays: each one's name, the array of :func:`model_arrays` it is, and its scale.
_EXACT_NAMES = [(f"{name}16", f"{name}_rows", _kernel.EXACT_FIRST)
                for name in ("threshold", "excess", "bar", "off", "feature")]
_EXACT_NAMES += [("point16", "point_rows", _kernel.EXACT_FIRST), ("bias16", "bias1", _kernel.EXACT_FIRST),
                 ("out16", "out_weights", _kernel.EXACT_OUT)]


def _integers(values: np.ndarray, scale: int) -> np.ndarray | None:
    """``values * scale`` as int16 if every one is an integer within int16
    (to within float32's rounding of the weights they come from), else None."""
    scaled = np.asarray(values, dtype=np.float64) * scale
    integers = np.round(scaled)
    if np.any(np.abs(scaled - integers) > 1e-3) or np.any(np.abs(integers) > 32767):
        return None
    return integers.astype(np.int16)


def _place_values(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """``[side, place, n, unit]``: what n = 0..15 stones on each of a
    side's 26 places (points 1..24, bar, borne off) add to the first
    layer's sums."""
    thresholds, excess = np.asarray(arrays["threshold_rows"], np.float64), np.asarray(arrays["excess_rows"])
    hidden1 = thresholds.shape[-1]
    values = np.zeros((2, 26, STONES + 1, hidden1))
    for n in range(1, STONES + 1):
        values[:, :24, n] = thresholds[:, :, :min(n, 3)].sum(axis=2) + max(n - 3, 0) * excess
        values[:, 24, n] = n * np.asarray(arrays["bar_rows"], np.float64)
        values[:, 25, n] = n * np.asarray(arrays["off_rows"], np.float64)
    return values


def _most_of_side(values: np.ndarray) -> np.ndarray:
    """The greatest sum over the places of ``values[place, n]`` (``[26, 16,
    units]``) with at most 15 stones in all, unit by unit: a knapsack over
    the places, ``best[k]`` the greatest with k stones placed so far."""
    best = np.full((STONES + 1, values.shape[-1]), -np.inf)
    best[0] = 0.0
    for place in values:
        placed = np.full_like(best, -np.inf)
        for k in range(STONES + 1):
            for n in range(STONES + 1 - k):
                placed[k + n] = np.maximum(placed[k + n], best[k] + place[n])
        best = placed
    most: np.ndarray = best.max(axis=0)
    return most


def first_layer_bounds(arrays: dict[str, np.ndarray], read: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The least and the greatest first-layer sum of each hidden unit over
    every position of 15 stones a side (or bounds on them: the features'
    ranges are taken apart from the board's), for ``arrays`` as
    :func:`model` makes them and ``read``, the features the kernels read."""
    values = _place_values(arrays)
    feature_rows = np.asarray(arrays["feature_rows"], np.float64)
    bias = np.asarray(arrays["bias1"], np.float64)
    ranges = [_FEATURE_MOST[SIDE_FEATURES[f % len(SIDE_FEATURES)]] * feature_rows[f] for f in read]
    most = bias + sum(_most_of_side(values[side]) for side in range(2)) + sum(np.maximum(r, 0) for r in ranges)
    least = bias - sum(_most_of_side(-values[side]) for side in range(2)) + sum(np.minimum(r, 0) for r in ranges)
    return least, most


def exact_arrays(arrays: dict[str, np.ndarray], read: list[int]) -> dict[str, np.ndarray] | None:
    """The int16 arrays of an exact network (``bsf_net.h``: the kernels
    then score its children in 16-bit integers with the same sums), or
    None where the network (one hidden layer of ReLU units, ``arrays`` as
    :func:`model` makes them, ``read``: the features the kernels read) is
    not one: its first layer's arrays must be integers in units of 1 /
    ``_kernel.EXACT_FIRST`` and its output weights in units of 1 /
    ``_kernel.EXACT_OUT``, the first layer's sums of every position (of 15
    stones a side) within int16 and the output sums within int32.

    >>> from bansugoroku_fast.evaluators import NetEvaluator
    >>> net = NetEvaluator.random("backgammon", hidden=(16,), activation="relu")
    >>> net.native_model().exact, net.rounded().native_model().exact   # random weights are not integers
    (False, True)
    """
    hidden1 = np.asarray(arrays["bias1"]).shape[-1]
    integers = {exact: _integers(arrays[name], scale) for exact, name, scale in _EXACT_NAMES}
    if hidden1 % 16 or any(value is None for value in integers.values()):
        return None
    least, most = first_layer_bounds(arrays, read)
    limit = 32767 / _kernel.EXACT_FIRST
    output_most = np.abs(np.asarray(integers["out16"], np.float64)) @ (np.maximum(most, 0) * _kernel.EXACT_FIRST)
    if most.max() > limit or least.min() < -limit or output_most.max() >= 2.0 ** 31:
        return None
    return {name: value for name, value in integers.items() if value is not None}


def _features(net_model: Any, features: np.ndarray | None, count: int) -> np.ndarray:
    if net_model.features:
        assert features is not None and features.shape == (count, net_model.features)
        return np.ascontiguousarray(features, dtype=np.int32)
    return np.zeros((0, 0), dtype=np.int32)


def scores(net_model: Any, positions: np.ndarray, code: int, threads: int = 1, outcomes: bool = False) -> np.ndarray:
    """``float32[N, 5]``: the consistent outputs for checked ``int8[N, 2,
    26]`` positions under the rules of ``code`` (the features the network
    reads computed by the kernel in the same pass); ``threads``: of the
    package's pool; ``outcomes``: a finished game's figures are its
    outcome's, not the network's."""
    return _kernel.net_scores(net_model, positions, code, threads, outcomes)


def children_scores(net_model: Any, parents: np.ndarray, offsets: np.ndarray, children: np.ndarray, code: int,
                    threads: int = 1) -> np.ndarray:
    """``float32[M, 5]``: checked children grouped by ``offsets`` under
    their checked parents, scored from each parent's first layer (as the
    game kernels score a parent's plays; a finished child by its outcome)."""
    return _kernel.net_children_scores(net_model, parents, np.ascontiguousarray(offsets, dtype=np.int64), children,
                                       code, threads)


def best_children(net_model: Any, children: np.ndarray, offsets: np.ndarray, code: int,
                  features: np.ndarray | None) -> np.ndarray:
    """``int64[N]``: the kernels' choice (``net_best_child``) among each
    segment of checked children, by 0-ply equity, finished ones exactly.
    ``children``: ``int8[M, 2, 26]``, or ``int8[M, S]`` rows (S >= 52)
    each holding a board in its first 52 bytes."""
    rows = children.reshape(len(children), -1)    # a board per row (52 bytes, or wider rows holding one first)
    return _kernel.net_best_children(net_model, rows, np.ascontiguousarray(offsets, dtype=np.int64), code,
                                     _features(net_model, features, len(children)))


def best_replies(net_model: Any, parents: np.ndarray, dice: np.ndarray, code: int,
                 threads: int) -> tuple[np.ndarray, np.ndarray]:
    """For each checked parent (row 0 to play, a game going on) and each
    roll of ``dice`` (``int8[R, 2]``): ``int8[N * R, 2, 26]``, the play
    the kernels' ``"net"`` policy picks (the parent on a pass), and
    ``float32[N * R, 5]``, its five probabilities."""
    return _kernel.net_best_replies(net_model, parents, np.ascontiguousarray(dice, dtype=np.int8), code, threads)


def fits(layer_sizes: Sequence[int]) -> bool:
    """Whether a network of ``layer_sizes`` can choose plays in the kernels
    (:func:`best_replies`, the game loop): hidden layers small enough for
    their scratch on the stack.

    >>> fits((226, 128, 5)), fits((198, 5000, 5))
    (True, False)
    """
    return _kernel.net_fits(layer_sizes)


def rounded_layers(weights: Sequence[np.ndarray], biases: Sequence[np.ndarray],
                   ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """``weights`` and ``biases`` moved as little as possible for an exact
    network (:func:`exact_arrays`): each row the kernels read (a board's
    rows with the linear features folded in, a read feature's row per unit,
    the bias with the turn units) to a multiple of 1 / ``_kernel.EXACT_FIRST``,
    the output weights to multiples of 1 / ``_kernel.EXACT_OUT``. The folded
    features keep their weights; the board's rows take up the rounding."""
    first = np.array(weights[0], dtype=np.float64)
    points, bar, off, feature_rows = _per_stone_rows(first)
    folded = [points.copy(), bar.copy(), off.copy(), feature_rows.copy()]
    _fold(*folded)

    def grid(values: np.ndarray) -> np.ndarray:
        return np.round(values * _kernel.EXACT_FIRST) / _kernel.EXACT_FIRST

    points, bar, off = (grid(f) - (f - u) for f, u in zip(folded[:3], (points, bar, off)))
    rows = first[:2 * ROW_UNITS].reshape(2, ROW_UNITS, first.shape[1])
    points[:, :, 3] *= 2
    rows[:, :96] = points.reshape(2, 96, -1)
    rows[:, 96], rows[:, 97] = bar * 2, off * 15
    scales = np.array(FEATURE_SCALES)[:len(first) - RAW_INPUTS]
    for f in (f for f in _READ if f < len(scales)):
        first[RAW_INPUTS + f] = grid(feature_rows[f]) * scales[f]
    first[2 * ROW_UNITS] = grid(first[2 * ROW_UNITS])        # the turn unit that is 1 (TURN_UNITS)
    out = np.round(np.asarray(weights[-1], np.float64) * _kernel.EXACT_OUT) / _kernel.EXACT_OUT
    layers = [first, *weights[1:-1], out]
    return ([np.asarray(w, dtype=np.float32) for w in layers],
            [grid(np.asarray(biases[0], np.float64)).astype(np.float32),
             *(np.asarray(b, dtype=np.float32) for b in biases[1:])])
