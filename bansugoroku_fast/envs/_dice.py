"""Temporary: the counter-based dice of issue 7 as its draft documents them,
until ``bansugoroku_fast.oracle.games.roll`` is on main (then this goes)."""
from __future__ import annotations

import numpy as np

MASK64 = (1 << 64) - 1
OPENING_ROLLS = tuple((high, low) for high in range(2, 7) for low in range(1, high))


def _splitmix64(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def word(seed: int, game: int, ply: int, stream: int) -> int:
    return _splitmix64(_splitmix64(_splitmix64(seed) ^ game) ^ (2 * ply + stream))


def random_choice(seed: int, game: int, ply: int, count: int) -> int:
    return (word(seed, game, ply, 1) * count) >> 64


def roll(seed: int, game: int, ply: int, *, opening: bool = False) -> tuple[int, int]:
    value = word(seed, game, ply, 0)
    if opening and ply == 0:
        return OPENING_ROLLS[(value * 15) >> 64]
    index = (value * 36) >> 64
    return index // 6 + 1, index % 6 + 1


# numpy twins for whole batches (uint64 arithmetic wraps modulo 2**64)

def _splitmix64_array(x: np.ndarray) -> np.ndarray:
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def words(seed: int, games: np.ndarray, plies: np.ndarray, stream: int) -> np.ndarray:
    """:func:`word` of every ``(games[i], plies[i])``."""
    keyed = _splitmix64_array(np.array([seed], dtype=np.uint64))[0]
    mixed = _splitmix64_array(keyed ^ games.astype(np.uint64))
    return _splitmix64_array(mixed ^ (np.uint64(2) * plies.astype(np.uint64) + np.uint64(stream)))


def below_array(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``(values * counts) >> 64`` per item, for counts below 2**32."""
    high, low = values >> np.uint64(32), values & np.uint64(0xFFFFFFFF)
    counts = counts.astype(np.uint64)
    return ((high * counts + ((low * counts) >> np.uint64(32))) >> np.uint64(32)).astype(np.int64)


def rolls(seed: int, games: np.ndarray, plies: np.ndarray, opening: bool) -> np.ndarray:
    """``int8[N, 2]``: :func:`roll` of every ``(games[i], plies[i])``."""
    values = words(seed, games, plies, 0)
    index = below_array(values, np.full(len(values), 36))
    dice = np.stack([index // 6 + 1, index % 6 + 1], axis=1).astype(np.int8)
    if opening:
        first = plies == 0
        table = np.array(OPENING_ROLLS, dtype=np.int8)
        dice[first] = table[below_array(values[first], np.full(int(first.sum()), len(table)))]
    return dice


def random_choices(seed: int, games: np.ndarray, plies: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """:func:`random_choice` of every game."""
    return below_array(words(seed, games, plies, 1), counts)
