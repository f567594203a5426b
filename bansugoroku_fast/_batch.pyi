# Stub of the compiled module src/bansugoroku_fast/_batch.pyx (the batch
# entry points, with their AVX2 copies), written by
# hand with the real types (stubtest holds it to the module: see .ci/run).
# Rules cross as ``Rules.code``, batches as int8 arrays. A problem is a
# Status (an int < 0, named in STATUS): batch entry points return the first
# ``(item, status)`` or None.
from typing import Final, TypeAlias

import numpy as np
import numpy.typing as npt

_Int8: TypeAlias = npt.NDArray[np.int8]
_Int32: TypeAlias = npt.NDArray[np.int32]
_Problem: TypeAlias = tuple[int, int] | None

#: Status values by name (the kernels' enum in _board.pxd).
STATUS: Final[dict[str, int]]
#: The calling thread of a batch looks for signals (Ctrl-C) once per this many seconds at most.
SIGNAL_CHECK_SECONDS: Final[float]
#: The rows generate_batch writes, one array per field: (field, numpy dtype, shape of a row).
OUTPUT_ROWS: Final[tuple[tuple[str, str, tuple[int, ...]], ...]]
#: The bytes of one row over every field of OUTPUT_ROWS.
OUTPUT_ROW_BYTES: Final[int]

def running_copies() -> str:
    """Which code the batch kernels run: "avx2" or "baseline"."""

def run_avx2_copies(run: bool) -> bool:
    """Run the AVX2 copies (run) or the baseline code from now on; False, and no change, where they cannot run."""

def count_batch(
    positions: _Int8, dice: _Int8, code: int, threads: int, out: _Int32, *, fast_counts: bool = True,
    followed: bool = False,
) -> tuple[_Problem, int]:
    """``out[i]`` = distinct plays of item i, or its Status; the first problem or None,
    and the plays of the items without one."""

def play_offsets(counts: _Int32, offsets: npt.NDArray[np.int64]) -> int:
    """``offsets`` = 0 then the running sums of ``counts``; returns their total."""

def generate_batch(
    positions: _Int8,
    dice: _Int8,
    code: int,
    threads: int,
    offsets: npt.NDArray[np.int64],
    children: _Int8,
    steps: _Int8 | None,
    step_dice: _Int8 | None,
    hits: npt.NDArray[np.uint8] | None,
    status: _Int32,
) -> _Problem:
    """Write the plays of item i to rows ``offsets[i]:offsets[i+1]`` (None: a field
    not wanted); ``status[i]``
    0 or its Status; the first problem or None."""

def outcome_batch(positions: _Int8, code: int, winner: _Int8, value: _Int8, kind: _Int8) -> _Problem:
    """Fill the outcome arrays; the first problem ``(item, status)`` or None."""

def shots_batch(positions: _Int8, code: int, threads: int, out: _Int8) -> _Problem:
    """``out[i]`` = shots of item i, or its Status; the first problem or None."""
