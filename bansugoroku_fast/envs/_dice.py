"""Temporary: the counter-based dice of issue 7 as its draft documents them,
until ``bansugoroku_fast.oracle.games.roll`` is on main (then this goes)."""
from __future__ import annotations

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
