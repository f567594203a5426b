"""The one module that imports the compiled endgame tables
(``src/bansugoroku_fast/_tables.pyx``): each function allocates the buffers,
calls the kernel, and turns a status into an exception. Arguments are
checked by the callers (``tables``, ``race``) before they come here.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from .. import _tables

#: Rows of a one-sided table: every arrangement of up to 15 stones on 6 points.
POSITIONS: int = _tables.POSITION_COUNT
#: Rows (and columns) of a two-sided table: up to 6 stones on 6 points.
SMALL_POSITIONS: int = _tables.SMALL_POSITION_COUNT
#: Columns a one-sided table is built with (turns 0..63); trimmed after.
BUILD_TURNS = 64

RACE_TWO_SIDED: int = _tables.RACE_TWO_SIDED
RACE_ONE_SIDED: int = _tables.RACE_ONE_SIDED
RACE_NOT_IN_TABLE: int = _tables.RACE_NOT_IN_TABLE
RACE_OVER: int = _tables.RACE_OVER

_BUILD_PROBLEMS = {
    _tables.STATUS_NO_MEMORY: "out of memory",
    _tables.STATUS_NO_PLAY: "a table position has a roll with no legal play",
    _tables.STATUS_TOO_LONG: f"a distribution is longer than {BUILD_TURNS} turns",
}


class OneSidedArrays(NamedTuple):
    """What :func:`build_one_sided` fills (see ``_tables.build_one_sided``)."""

    finish: np.ndarray       # float64[POSITIONS, BUILD_TURNS]
    finish_mean: np.ndarray  # float64[POSITIONS]
    first: np.ndarray        # float64[POSITIONS, BUILD_TURNS], or [0, BUILD_TURNS] without it
    first_mean: np.ndarray   # float64[POSITIONS], or [0]
    ties: np.ndarray         # uint8[POSITIONS]


def _checked_status(status: int) -> int:
    if status < 0:
        raise RuntimeError(f"building an endgame table failed: {_BUILD_PROBLEMS.get(status, status)}")
    return status


def rank(counts: Sequence[int]) -> int:
    """The table row of six stone counts (the table's points 1..6)."""
    return int(_tables.rank(np.ascontiguousarray(counts, dtype=np.int8)))


def ranks(counts: np.ndarray) -> np.ndarray:
    """``int32[N]``: the rows of ``int8[N, 6]`` stone counts."""
    out = np.empty(len(counts), dtype=np.int32)
    _tables.ranks_of(np.ascontiguousarray(counts, dtype=np.int8), out)
    return out


def counts_of_rank(position_rank: int) -> list[int]:
    """The six stone counts of table row ``position_rank``."""
    return list(_tables.counts_of_rank(position_rank))


def build_one_sided(rule_code: int, with_first: bool, *, tie_turns: float = 1e-9,
                    progress: Callable[[int], None] | None = None) -> OneSidedArrays:
    """The one-sided tables of a rule code, every row (``_tables.build_one_sided``)."""
    first_rows = POSITIONS if with_first else 0
    arrays = OneSidedArrays(
        np.zeros((POSITIONS, BUILD_TURNS)), np.zeros(POSITIONS),
        np.zeros((first_rows, BUILD_TURNS)), np.zeros(first_rows), np.zeros(POSITIONS, dtype=np.uint8),
    )
    _checked_status(_tables.build_one_sided(rule_code, *arrays, tie_turns, progress))
    return arrays


def children(rule_code: int, positions: int) -> tuple[np.ndarray, np.ndarray]:
    """``(offsets int32[21 positions + 1], children int32[M])``: the table rows
    each legal play of each of the rows below ``positions`` reaches, roll by
    roll in the order (1,1), (1,2), .., (6,6)."""
    found = _tables.children(rule_code, positions)
    if isinstance(found, int):
        raise RuntimeError(f"listing the children of table positions failed: {_BUILD_PROBLEMS.get(found, found)}")
    offsets, rows = found
    return np.frombuffer(offsets, dtype=np.int32).copy(), np.frombuffer(rows, dtype=np.int32).copy()


def build_two_sided(rule_code: int) -> np.ndarray:
    """``float64[SMALL_POSITIONS, SMALL_POSITIONS]``: the exact chance that
    the side to roll (row) wins against the other (column), both playing to win."""
    offsets, rows = children(rule_code, SMALL_POSITIONS)
    win = np.zeros((SMALL_POSITIONS, SMALL_POSITIONS))
    _tables.build_two_sided(offsets, rows, win)
    return win


def race_lookup(positions: np.ndarray, bears_off: bool, gammons: bool, finish: np.ndarray,
                finish_mean: np.ndarray, first: np.ndarray, win: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(figures float64[N, 5], status int32[N])`` of valid positions
    ``int8[N, 2, 26]`` (``_tables.race_lookup``; ``win`` empty: one-sided only)."""
    count = len(positions)
    out = np.empty((count, 5))
    status = np.empty(count, dtype=np.int32)
    _tables.race_lookup(positions, bears_off, gammons, finish, finish_mean, first, win, out, status)
    return out, status
