# Stub of the compiled module src/bansugoroku_fast/_single.pyx (the entry
# points for one position), written by hand with the real types; stubtest
# holds it to the module (.ci/run). A position crosses as the 52 bytes of
# ``Position.key``, rules as ``Rules.code``. A problem is a Status (an int
# < 0, named in ``_batch.STATUS``), returned instead of the result.
from collections.abc import Callable
from typing import Final, TypeVar

from ._play_records import PlayRecords

#: "avx2" if this build uses AVX2, BMI1/2 and POPCNT, else "baseline".
BUILT_FOR: Final[str]

_SequenceT = TypeVar("_SequenceT", bound=PlayRecords)

def outcome(key: bytes, code: int) -> tuple[int, int, int] | int | None:
    """``(winner, value, kind code)``, ``None`` while the game goes on, or a Status."""

def plays(
    key: bytes, a: int, b: int, code: int, all_orderings: bool, sequence_class: type[_SequenceT]
) -> _SequenceT | int:
    """The plays as a ``sequence_class`` (a PlayRecords), or a Status."""

def set_quick_forms(
    position_class: type,
    array_class: type,
    rules_class: type,
    default_rules: object,
    rules_of_label: Callable[[str], object],
    plays_class: type[PlayRecords],
) -> None:
    """Name the classes quick_plays reads itself, the default rules, the label parser and the result class."""

def quick_plays(position: object, dice: object, rules: object, all_orderings: bool) -> PlayRecords | None:
    """The plays in one call for the common argument forms, or None (check in full, then call plays)."""

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
