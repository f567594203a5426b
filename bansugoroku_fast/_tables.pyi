# Stub of the compiled module src/bansugoroku_fast/_tables.pyx (hand-written: real types).
from collections.abc import Callable
from typing import Final

import numpy as np
import numpy.typing as npt

POSITION_COUNT: Final[int]
SMALL_POSITION_COUNT: Final[int]
STATUS_NO_MEMORY: Final[int]
STATUS_NO_PLAY: Final[int]
STATUS_TOO_LONG: Final[int]
RACE_TWO_SIDED: Final[int]
RACE_ONE_SIDED: Final[int]
RACE_NOT_IN_TABLE: Final[int]
RACE_OVER: Final[int]

def rank(counts: npt.NDArray[np.int8]) -> int:
    """The rank of six counts (checked by the caller)."""

def counts_of_rank(position_rank: int) -> list[int]:
    """The six counts of a rank below POSITION_COUNT (checked by the caller)."""

def ranks_of(counts: npt.NDArray[np.int8], out: npt.NDArray[np.int32]) -> None:
    """``out[i]`` = the rank of row ``i`` of ``counts`` (``int8[N, 6]``)."""

def build_one_sided(
    rule_code: int,
    finish: npt.NDArray[np.float64],
    finish_mean: npt.NDArray[np.float64],
    first: npt.NDArray[np.float64],
    first_mean: npt.NDArray[np.float64],
    ties: npt.NDArray[np.uint8],
    tie_turns: float = 1e-9,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Fill the one-sided tables of a rule set: the longest distribution's length, or a STATUS_* < 0."""

def children(rule_code: int, positions: int) -> tuple[bytes, bytes] | int:
    """``(offsets, children)`` as bytes of int32 for the ranks below ``positions``, or a STATUS_* int."""

def build_two_sided(
    offsets: npt.NDArray[np.int32],
    children: npt.NDArray[np.int32],
    win: npt.NDArray[np.float64],
    cubeful: npt.NDArray[np.float64],
) -> None:
    """``win[a, b]``: the exact probability that the side to roll with ``a`` wins against ``b``;
    ``cubeful[a, b, s]`` (unless its shape is ``(0, 0, 3)``): its money equity when it rolls
    without doubling, the cube centred (s = 0), its own (1) or the other side's (2)."""

def race_lookup(
    positions: npt.NDArray[np.int8],
    bears_off: bool,
    gammons: bool,
    finish: npt.NDArray[np.float64],
    finish_mean: npt.NDArray[np.float64],
    first: npt.NDArray[np.float64],
    win_table: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
    status: npt.NDArray[np.int32],
) -> None:
    """Race figures of each position (row 0 to roll) and a RACE_* status each."""
