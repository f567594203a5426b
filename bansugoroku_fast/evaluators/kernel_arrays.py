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
from typing import Any

import numpy as np

from .. import _kernel
from .encoding import FEATURE_SCALES, RAW_INPUTS, ROW_UNITS, TURN_UNITS

__all__ = ["best_children", "best_replies", "fits", "forward", "model"]


def model(weights: Sequence[np.ndarray], biases: Sequence[np.ndarray], encoding: str, activation: str) -> Any:
    """The kernels' model (``_kernel.net_model``) of a checked network (see ``bsf_net.h`` for the
    arrays): the first layer's weight rows regrouped by point and
    threshold (summed and one by one), pre-scaled, the turn units folded
    into the bias."""
    first = np.asarray(weights[0], dtype=np.float32)
    hidden1 = first.shape[1]
    rows = first[:2 * ROW_UNITS].reshape(2, ROW_UNITS, hidden1)
    points = rows[:, :96].reshape(2, 24, 4, hidden1)
    arrays = {
        "point_rows": np.cumsum(points[:, :, :3], axis=2, dtype=np.float32),
        "threshold_rows": np.ascontiguousarray(points[:, :, :3]),
        "excess_rows": points[:, :, 3] / np.float32(2),
        "bar_rows": rows[:, 96] / np.float32(2),
        "off_rows": rows[:, 97] / np.float32(15),
        "feature_rows": first[RAW_INPUTS:] / np.array(FEATURE_SCALES, dtype=np.float32)[:len(first) - RAW_INPUTS,
                                                                                        None],
        "bias1": biases[0] + np.asarray(TURN_UNITS, dtype=np.float32) @ first[2 * ROW_UNITS:RAW_INPUTS],
        "weights2": weights[1] if len(weights) == 3 else np.zeros(0, dtype=np.float32),
        "bias2": biases[1] if len(weights) == 3 else np.zeros(0, dtype=np.float32),
        "out_weights": np.ascontiguousarray(np.asarray(weights[-1]).T),
        "out_bias": biases[-1],
    }
    hidden2 = weights[1].shape[1] if len(weights) == 3 else 0
    return _kernel.net_model(arrays, hidden1, hidden2, activation == "relu", len(first) - RAW_INPUTS)


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
