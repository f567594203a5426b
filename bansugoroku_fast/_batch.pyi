# Stub of the compiled module src/bansugoroku_fast/_batch.pyx, written by hand
# with the real types (stubtest holds it to the module: see .ci/run).
# Single positions cross as the 52 bytes of ``Position.key``, rules as
# ``Rules.code``; batches as int8 arrays. A problem is a Status (an int < 0,
# named in STATUS): single entry points return it instead of their result,
# batch entry points return the first ``(item, status)`` or None.
from collections.abc import Iterator
from typing import Any, ClassVar, Final, SupportsIndex, TypeAlias, TypeVar, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

_Int8: TypeAlias = npt.NDArray[np.int8]
_Int32: TypeAlias = npt.NDArray[np.int32]
_Problem: TypeAlias = tuple[int, int] | None

#: Byte offsets in the record of a play that ``plays`` returns.
RECORD_OFFSETS: Final[dict[str, int]]
#: Status values by name (the kernels' enum in _board.pxd).
STATUS: Final[dict[str, int]]
#: The calling thread of a batch looks for signals (Ctrl-C) once per this many seconds at most.
SIGNAL_CHECK_SECONDS: Final[float]
#: "avx2" if this build uses AVX2, BMI1/2 and POPCNT, else "baseline".
BUILT_FOR: Final[str]

def cpu_has_avx2() -> bool:
    """Whether the CPU has AVX2, BMI1, BMI2 and POPCNT (and the OS saves the AVX registers)."""

@disjoint_base
class PlayRecords:
    """The plays of one ``plays`` call as records, each play made when read."""

    @property
    def records(self) -> bytes: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: SupportsIndex, /) -> Any: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __eq__(self, other: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __reduce__(self) -> tuple[type[list[Any]], tuple[list[Any]]]: ...

def outcome(key: bytes, code: int) -> tuple[int, int, int] | int | None:
    """``(winner, value, kind code)``, ``None`` while the game goes on, or a Status."""

_SequenceT = TypeVar("_SequenceT", bound=PlayRecords)

def plays(
    key: bytes, a: int, b: int, code: int, all_orderings: bool, sequence_class: type[_SequenceT]
) -> _SequenceT | int:
    """The plays as a ``sequence_class`` (a PlayRecords), or a Status."""

def set_play_class(play_class: type, none_slots: tuple[str, ...] = ()) -> None:
    """Make PlayRecords' plays ``play_class`` objects (slots ``_records``, ``_index``;
    ``none_slots`` None)."""

def count_roll_plays(key: bytes, a: int, b: int, code: int, *, fast_counts: bool = True) -> int:
    """Distinct plays of one position and roll (0: a pass or a finished game), or a Status."""

def first_steps(key: bytes, a: int, b: int, code: int) -> list[tuple[int, int, int, bool]] | int:
    """Distinct ``(origin, target, die, hit)`` starting a legal sequence, descending, or a Status."""

def shots(key: bytes, code: int) -> int:
    """Rolls out of 36 with a hitting legal play, or a Status."""

def board_facts(key: bytes) -> tuple[int, int, int, int] | int:
    """``(blocked, blots of row 0, blots of row 1, closures)`` as bit masks, or a Status."""

def perft(key: bytes, depth: int, code: int, a: int = 0, b: int = 0, *, fast_counts: bool = True) -> int:
    """perft of one position (or of its plays with the roll ``a``, ``b``), or a Status."""

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
