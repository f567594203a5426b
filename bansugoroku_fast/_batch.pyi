# Stub of the compiled module src/bansugoroku_fast/_batch.pyx, written by hand
# with the real types (stubtest holds it to the module: see .ci/run).
# Single positions cross as the 52 bytes of ``Position.key``, rules as
# ``Rules.code``; batches as C-contiguous int8 arrays the caller has checked.
from typing import Final, Literal, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

_PlayT = TypeVar("_PlayT")
_Int8: TypeAlias = npt.NDArray[np.int8]

#: Byte offsets in the record of a play that ``plays`` returns.
RECORD_OFFSETS: Final[dict[str, int]]

def set_fast_counts(enabled: bool) -> None:
    """Switch the closed-form counts of ``count_plays`` on or off (tests)."""

def outcome(key: bytes, code: int) -> tuple[int, int, int] | Literal[False] | None:
    """``(winner, value, kind code)``, ``None`` while the game goes on, or
    ``False`` if both rows have won."""

def plays(key: bytes, a: int, b: int, code: int, all_orderings: bool, play_class: type[_PlayT]) -> list[_PlayT] | None:
    """The plays as ``play_class`` objects (each with a ``_record``), or
    ``None`` if both rows have won."""

def count(key: bytes, a: int, b: int, code: int) -> int:
    """Distinct plays of one position, or -1 if both rows have won."""

def first_steps(key: bytes, a: int, b: int, code: int) -> list[tuple[int, int, int, bool]] | None:
    """Distinct ``(origin, target, die, hit)`` starting a legal sequence,
    descending; ``None`` if both rows have won."""

def shots(key: bytes, code: int) -> int:
    """Rolls out of 36 with a hitting legal play; -1 if both rows have won."""

def perft(key: bytes, depth: int, code: int, a: int = 0, b: int = 0) -> int:
    """perft of one position (or of its plays with the roll ``a``, ``b``);
    -1 if both rows have won somewhere."""

def count_batch(positions: _Int8, dice: _Int8, code: int, threads: int, out: npt.NDArray[np.int32]) -> None:
    """``out[i]`` = distinct plays of item i; -1: both rows have won, -2: out
    of memory, -3: not a valid position, -4: stones borne off although the
    rules never bear off."""

def generate_batch(
    positions: _Int8,
    dice: _Int8,
    code: int,
    threads: int,
    offsets: npt.NDArray[np.int64],
    children: _Int8,
    steps: _Int8,
    step_dice: _Int8,
    hits: npt.NDArray[np.uint8],
) -> int:
    """Write the plays of item i to rows ``offsets[i]:offsets[i+1]``; return
    the number of items whose play count differed from the offsets."""

def outcome_batch(positions: _Int8, code: int, winner: _Int8, value: _Int8, kind: _Int8) -> int:
    """Fill the outcome arrays; return the first item where both rows have
    won, or -1."""

def shots_batch(positions: _Int8, code: int, threads: int, out: _Int8) -> None:
    """``out[i]`` = shots of item i (-1: both rows have won, -2: out of memory)."""
