"""The counter-based dice of :mod:`bansugoroku_fast.oracle.games` for whole
batches of games each at its own ply, in numpy (``uint64`` arithmetic wraps
modulo 2**64 as the generator's does): the vector environment's games are
at different plies, where the kernels' dice take one ply per call. The tests
check every value against the oracle's :func:`~bansugoroku_fast.oracle.games.roll`.

>>> rolls(0, np.array([0, 0]), np.array([0, 0]), opening=True).tolist()   # roll(0, 0, 0, opening=True)
[[3, 2], [3, 2]]
"""
from __future__ import annotations

import numpy as np

from ..oracle.games import CHOICE_STREAM, DICE_STREAM, GAMMA, OPENING_ROLLS

_FACES = 36


def _splitmix64(x: np.ndarray) -> np.ndarray:
    z = x + np.uint64(GAMMA)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _words(seed: int, games: np.ndarray, plies: np.ndarray, stream: int) -> np.ndarray:
    keyed = _splitmix64(np.array([seed], dtype=np.uint64))[0]
    mixed = _splitmix64(keyed ^ games.astype(np.uint64))
    return _splitmix64(mixed ^ (np.uint64(2) * plies.astype(np.uint64) + np.uint64(stream)))


def _below(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``(values * counts) >> 64`` per item (counts below 2**32)."""
    high, low = values >> np.uint64(32), values & np.uint64(0xFFFFFFFF)
    counts = counts.astype(np.uint64)
    return ((high * counts + ((low * counts) >> np.uint64(32))) >> np.uint64(32)).astype(np.int64)


def rolls(seed: int, games: np.ndarray, plies: np.ndarray, opening: bool) -> np.ndarray:
    """``int8[N, 2]``: the roll of ply ``plies[i]`` of game ``games[i]``
    (``opening``: ply 0 is the backgammon opening's non-double)."""
    values = _words(seed, games, plies, DICE_STREAM)
    index = _below(values, np.full(len(values), _FACES))
    dice = np.stack([index // 6 + 1, index % 6 + 1], axis=1).astype(np.int8)
    if opening:
        first = plies == 0
        table = np.array(OPENING_ROLLS, dtype=np.int8)
        dice[first] = table[_below(values[first], np.full(int(first.sum()), len(table)))]
    return dice


def random_choices(seed: int, games: np.ndarray, plies: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``int64[N]``: the ``"random"`` policy's choice among ``counts[i]`` plays."""
    return _below(_words(seed, games, plies, CHOICE_STREAM), counts)
