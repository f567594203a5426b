"""A network's arrays prepared as the compiled forward pass
(``src/bansugoroku_fast/_net.pyx``, reached through the seam) reads them,
and the calls. Arguments come checked.

>>> from bansugoroku_fast import Position
>>> from bansugoroku_fast.evaluators import NetEvaluator
>>> net = NetEvaluator.random("backgammon", hidden=(8,))
>>> forward(model(net.weights, net.biases, net.encoding, net.activation), Position.initial().array[None], None).shape
(1, 5)
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .. import _kernel
from ..scoring import SIDE_FEATURES
from .encoding import FEATURE_SCALES, RAW_INPUTS, ROW_UNITS, TURN_UNITS

__all__ = ["best_children", "best_replies", "fits", "forward", "model"]


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


def model(weights: Sequence[np.ndarray], biases: Sequence[np.ndarray], encoding: str, activation: str) -> Any:
    """The kernels' model (``_kernel.net_model``) of a checked network (see ``bsf_net.h`` for the
    arrays): the first layer's weight rows regrouped by point and
    threshold (summed and one by one), pre-scaled per stone, the turn units
    folded into the bias and the features linear in the board
    (:data:`LINEAR_SIDE_FEATURES`) into the board's rows, so that the
    kernels read only the others."""
    first = np.asarray(weights[0], dtype=np.float64)
    hidden1 = first.shape[1]
    rows = first[:2 * ROW_UNITS].reshape(2, ROW_UNITS, hidden1)
    points = rows[:, :96].reshape(2, 24, 4, hidden1).copy()
    points[:, :, 3] /= 2                     # the fourth unit is (n - 3) / 2
    bar, off = rows[:, 96] / 2, rows[:, 97] / 15
    feature_rows = first[RAW_INPUTS:] / np.array(FEATURE_SCALES)[:len(first) - RAW_INPUTS, None]
    _fold(points, bar, off, feature_rows)
    read = [SIDE_FEATURES.index(name) + len(SIDE_FEATURES) * side
            for side in range(2) for name in _kernel.NET_SIDE_FEATURES]
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
    hidden2 = weights[1].shape[1] if len(weights) == 3 else 0
    features = len(first) - RAW_INPUTS
    mask = sum(1 << f for f in read if f < features)
    return _kernel.net_model(arrays, hidden1, hidden2, activation == "relu", features, mask)


def _features(net_model: Any, features: np.ndarray | None, count: int) -> np.ndarray:
    if net_model.features:
        assert features is not None and features.shape == (count, net_model.features)
        return np.ascontiguousarray(features, dtype=np.int32)
    return np.zeros((0, 0), dtype=np.int32)


def forward(net_model: Any, positions: np.ndarray, features: np.ndarray | None, threads: int = 1) -> np.ndarray:
    """``float32[N, 5]``: the consistent outputs for checked ``int8[N, 2,
    26]`` positions; ``features``: their ``features()`` (integers) when the
    network reads them, else None; ``threads``: of the package's pool."""
    return _kernel.net_forward(net_model, positions, _features(net_model, features, len(positions)), threads)


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
