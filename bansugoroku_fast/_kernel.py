"""The seam: the one Python module that imports the compiled kernels.

Every other module reaches the kernels through the named functions here,
which take values already checked by :mod:`bansugoroku_fast.checks`
(``int8`` C-contiguous arrays, a :class:`~bansugoroku_fast.rules.Rules`)
and return results or raise typed errors. What lives here and nowhere else:

* **which code runs**: the batch kernels carry copies for CPUs with AVX2,
  BMI1/2 and POPCNT beside their baseline code, and run them where the CPU
  has them (``BANSUGOROKU_KERNELS=baseline`` in the environment runs the
  baseline code), see :data:`KERNEL_BUILD`;
* **statuses into errors**: every kernel reports a problem as a Status
  (declared once in ``src/bansugoroku_fast/_board.pxd``; :data:`STATUS`
  names them): a single call returns it instead of its result, a batch
  call returns ``(item, status)`` of its first bad item, a whole-game call a
  status per game; :func:`status_error` says what is wrong, and where;
* **record layouts**: the play record of a single call and the rows of a
  batch's output, read from the kernels' own declarations and checked at
  import;
* **output buffers**: blocks of 1 MiB or more are recycled once nothing
  views them any more (:func:`output_block`), since fresh memory from the
  OS costs more to fault in than the plays written into it;
* **arguments**: an :class:`Items` batch carries positions, dice, rules and
  threads in the form the kernels read.

>>> from bansugoroku_fast import Rules
>>> status_error(STATUS["both_won"], Rules(), item=3)
InvalidPositionError('position 3: both sides have won in this position; no game reaches it')
"""
from __future__ import annotations

import math
import os
import threading
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias, TypeVar, cast

import numpy as np

from . import _batch, _cpu, _cube, _env, _games, _net, _play_records, _pool, _scoring, _single, _tables, _validate
from .errors import (
    ArgumentTypeError,
    GameTooLongError,
    InvalidArgumentError,
    InvalidDiceError,
    InvalidPositionError,
    PolicyOutputError,
)
from .layout import BAR, BOTH_WON, OFF, ROW_NAMES, STONES, borne_off_problem

if TYPE_CHECKING:
    from .rules import Rules

# --- which code of the batch kernels runs ---------------------------------------------
#
# The batch kernels' thread entry points have AVX2 copies (bsf_cpu.h, the
# one mechanism; the networks' entry points in bsf_net.h have theirs),
# which run where the CPU has AVX2, BMI1/2 and POPCNT. The environment
# variable runs the baseline code of the batch kernels instead, to test it
# on such a CPU.

#: The environment variable that chooses the batch kernels' code (value ``baseline``).
CHOICE_VARIABLE = "BANSUGOROKU_KERNELS"
CHOICES = ("fastest", "baseline")


def cpu_has_avx2() -> bool:
    """Whether this CPU has what the AVX2 copies use (AVX2, BMI1/2,
    POPCNT), asked of ``_cpu``, which is built for the baseline."""
    return _cpu.cpu_has_avx2()


def choose_batch_code() -> str:
    """Run the batch kernels' AVX2 copies where they were compiled and the
    CPU has what they use, unless ``BANSUGOROKU_KERNELS=baseline``; which
    code runs: ``"avx2"`` or ``"baseline"``."""
    choice = os.environ.get(CHOICE_VARIABLE, "fastest")
    if choice not in CHOICES:
        raise InvalidArgumentError(f"{CHOICE_VARIABLE}={choice!r}: accepted values are {', '.join(CHOICES)}")
    _batch.run_avx2_copies(choice == "fastest")
    return _batch.running_copies()


#: Which code the batch kernels run (``choose_batch_code``, at
#: import): ``"avx2"`` or ``"baseline"``; both give the same results.
KERNEL_BUILD: str = choose_batch_code()

# --- arguments -------------------------------------------------------------------------------


def holds_integers(array: np.ndarray) -> bool:
    """Whether ``array`` holds integers: signed or unsigned, not bools, not
    timedeltas (which numpy counts among its integers), nothing else."""
    return array.dtype.kind in "iu"


def as_int8_array(data: object, *, shape_text: str, what: str) -> np.ndarray:
    """``data`` as an int8 array, refusing non-integers and values outside int8.

    Only a range check and a cast: the caller checks the shape and the content.
    An empty array is empty whatever its dtype (``np.asarray([])`` is float64).
    """
    try:
        array = np.asarray(data)
    except ValueError as error:  # ragged nested lists
        raise InvalidPositionError(f"{what} must be a rectangular {shape_text} array: {error}") from None
    if array.size == 0:
        return np.zeros(array.shape, dtype=np.int8)
    if not holds_integers(array):
        raise InvalidPositionError(f"{what} must hold integers, got dtype {array.dtype}")
    if array.dtype != np.int8 and array.size:
        low, high = int(array.min()), int(array.max())
        if low < -128 or high > 127:
            bad = low if low < -128 else high
            raise InvalidPositionError(f"{what} holds {bad}, which no place can hold (at most {STONES})")
    return np.ascontiguousarray(array, dtype=np.int8)


# --- statuses into errors ----------------------------------------------------------------

#: Status values by name (the kernels' enum).
STATUS: dict[str, int] = _batch.STATUS

_Result = TypeVar("_Result")


def _place(row: int, index: int) -> str:
    where = {OFF: "borne off", BAR: "bar"}.get(index, f"point {index}")
    return f"{ROW_NAMES[row]} index {index} ({where})"


def describe_problem(code: int, where: int, value: int) -> str:
    """The message for a problem found by the validation kernel
    (``(code, where, value)`` of :func:`first_invalid`)."""
    if code == _validate.Problem.NEGATIVE_COUNT:
        return f"negative count {value} at {_place(where // 26, where % 26)}"
    if code == _validate.Problem.ROW_SUM:
        return f"{ROW_NAMES[where]} holds {value} stones, not {STONES}"
    if code == _validate.Problem.SHARED_POINT:
        return (
            f"point {where} (row 0 numbering; point {BAR - where} of row 1) "
            "holds stones of both sides"
        )
    raise AssertionError(f"unknown problem code {code}")


def first_invalid(positions: np.ndarray) -> tuple[int, str] | None:
    """``(item, message)`` of the first invalid position of an ``int8[N, 2,
    26]`` C-contiguous array (a negative count, a row not of 15 stones, a
    point shared by both sides), or None."""
    problem = _validate.first_invalid(positions)
    if problem is None:
        return None
    return problem[0], describe_problem(*problem[1:])


def key_problem(key: bytes) -> str | None:
    """What is wrong with the position whose ``int8[2, 26]`` array has the
    52 bytes ``key``, or None (the one-position check of :func:`first_invalid`)."""
    problem = _validate.key_problem(key)
    return None if problem is None else describe_problem(*problem)


def status_error(status: int, rules: Rules | None, *, item: int | None = None,
                 position: Any = None, dice: Any = None) -> Exception:
    """The error for kernel Status ``status`` about one item: of a batch
    (``item`` is its index in the whole batch) or of a single call
    (``item`` None). ``position`` and ``dice`` are the item's, read again
    for the message only."""
    where = "" if item is None else f"position {item}: "
    if status == STATUS["both_won"]:
        return InvalidPositionError(where + BOTH_WON)
    if status == STATUS["no_memory"]:
        return MemoryError("out of memory while searching the plays")
    if status in (STATUS["invalid_position"], STATUS["borne_off"]):
        array = np.ascontiguousarray(getattr(position, "array", position), dtype=np.int8).reshape(2, 26)
        problem = first_invalid(array[None])
        text: str | None
        if problem:
            text = problem[1]
        else:
            text = borne_off_problem(array, rules) if rules is not None else None
        return InvalidPositionError(where + (text or "it changed while it was being read"))
    if status == STATUS["invalid_dice"]:
        which = "dice" if item is None else f"dice {item}"
        return InvalidDiceError(f"{which}: {np.asarray(dice).tolist()} is not two integers in 1..6")
    if status == STATUS["changed"]:
        return InvalidPositionError(
            f"{where}its position or dice changed while the batch was being read "
            "(another thread writing them?)"
        )
    raise AssertionError(f"unknown kernel status {status}")


def _checked(result: _Result | int, rules: Rules, position: Any = None, dice: Any = None) -> _Result:
    """``result`` of a single-call kernel entry point, or raise its error
    if it is a Status (an int below 0)."""
    if type(result) is int and result < 0:
        raise status_error(result, rules, position=position, dice=dice)
    return cast(_Result, result)


def raise_first_problem(problem: tuple[int, int] | None, rules: Rules | None, positions: np.ndarray,
                        dice: np.ndarray | None = None, first_item: int = 0) -> None:
    """Raise the error of a batch entry point's first problem ``(item,
    status)``, if any; ``first_item`` is the index of the batch's first item
    in the caller's whole input (a chunk of ``iter_plays``)."""
    if problem is not None:
        item, status = problem
        raise status_error(status, rules, item=first_item + item, position=positions[item],
                           dice=None if dice is None else dice[item])


def check_valid(positions: np.ndarray) -> np.ndarray:
    """``positions`` (``int8[N, 2, 26]``, C-contiguous), or the error of the
    first invalid one."""
    problem = first_invalid(positions)
    if problem is not None:
        raise InvalidPositionError(f"position {problem[0]}: {problem[1]}")
    return positions


# --- single positions ----------------------------------------------------------------------

#: Where the fields of a single call's play record are (bytes from the
#: record's start): the board, the step count, then ``(origin, target, die,
#: hit)`` per step; the kernels' own declaration.
PLAY_RECORD: dict[str, int] = dict(_play_records.RECORD_OFFSETS)
#: The class single calls return their plays in, extended by the moves layer.
PlayRecords: type = _play_records.PlayRecords


def set_play_class(play_class: type, decoded_slots: tuple[str, ...]) -> None:
    """Make the plays of :func:`plays` instances of ``play_class``, created
    without ``__init__`` with ``decoded_slots`` set to None."""
    _play_records.set_play_class(play_class, decoded_slots)


def set_quick_forms(position_class: type, array_class: type, rules_class: type, default_rules: Rules,
                    rules_of_label: Callable[[str], Rules], plays_class: type) -> None:
    """Name the argument forms :data:`quick_plays` reads itself (see
    ``_single.set_quick_forms``)."""
    _single.set_quick_forms(position_class, array_class, rules_class, default_rules, rules_of_label,
                            plays_class)


#: ``quick_plays(position, dice, rules, all_orderings)``: the plays in one
#: call for the common argument forms, or None (then check in full and call
#: :func:`plays`). The kernel's function itself: no Python frame between.
quick_plays: Callable[[Any, Any, Any, bool], Any] = _single.quick_plays


def plays(key: bytes, dice: tuple[int, int], rules: Rules, all_orderings: bool, sequence_class: type,
          position: Any) -> Any:
    """The legal plays of the position ``key`` as a ``sequence_class``
    (a :data:`PlayRecords` subclass); ``position`` for messages only."""
    result = _single.plays(key, dice[0], dice[1], rules.code, all_orderings, sequence_class)
    if isinstance(result, int):  # a Status
        raise status_error(result, rules, position=position)
    return result


def count_roll_plays(key: bytes, dice: tuple[int, int], rules: Rules, position: Any, *,
                     fast_counts: bool = True) -> int:
    """The number of distinct legal plays of one roll."""
    count = _single.count_roll_plays(key, dice[0], dice[1], rules.code, fast_counts=fast_counts)
    return cast(int, _checked(count, rules, position))


def first_steps(key: bytes, dice: tuple[int, int], rules: Rules, position: Any) -> list[tuple[Any, ...]]:
    """``(origin, target, die, hit)`` of the single moves that start a legal play."""
    return cast(list[tuple[Any, ...]],
                _checked(_single.first_steps(key, dice[0], dice[1], rules.code), rules, position))


def outcome(key: bytes, rules: Rules, position: Any) -> tuple[int, int, int] | None:
    """``(winner, value, kind code)``, or None while the game goes on."""
    return _checked(_single.outcome(key, rules.code), rules, position)


def shots(key: bytes, rules: Rules, position: Any) -> int:
    """Rolls of 36 that give the mover a legal play that hits."""
    return cast(int, _checked(_single.shots(key, rules.code), rules, position))


def board_facts(key: bytes, position: Any) -> tuple[int, int, int, int]:
    """The kernel's masks of a position: blocked points, row 0's blots,
    row 1's blots, closures (bit = side)."""
    facts = _single.board_facts(key)
    if type(facts) is int:  # a Status: the position is invalid, whatever the rules
        raise status_error(facts, None, position=position)
    return cast("tuple[int, int, int, int]", facts)


def perft(key: bytes, depth: int, rules: Rules, position: Any, dice: tuple[int, int] = (0, 0), *,
          fast_counts: bool = True) -> int:
    """Leaves of the play tree ``depth`` plies deep (first roll ``dice``
    alone, unless ``(0, 0)``)."""
    count = _single.perft(key, depth, rules.code, dice[0], dice[1], fast_counts=fast_counts)
    return cast(int, _checked(count, rules, position))


# --- threads -------------------------------------------------------------------------------

#: The most threads the pool can run a job on.
MOST_THREADS: int = _pool.MOST_THREADS
set_idle_spin = _pool.set_idle_spin
idle_spin = _pool.idle_spin


# --- output blocks, recycled -----------------------------------------------------------------
#
# Fresh memory from the OS is zeroed page by page when first written: for
# the 40 MB of children of 50,000 Ban-sugoroku items that costs more than
# working out the plays. So a block of 1 MiB or more that output_block hands
# out is kept when the last array viewing it goes, up to set_recycling's
# limit, and handed out again by a later call of the same size class: the
# caller still gets new arrays with nothing in common with any array alive.
# How a block is known to be free without counting references: the arrays
# handed out are views of a _Lease, an object that only exposes the block
# (__array_interface__); every view refers to it, and when the last one goes
# the lease is collected and its finalizer puts the block back.

#: Smaller blocks come from malloc's own heap, which reuses them already.
SMALLEST_RECYCLED = 1 << 20
DEFAULT_LIMIT = 256 << 20

_released: dict[int, list[np.ndarray]] = {}     # size class -> blocks kept
_kept_bytes = 0
_limit = DEFAULT_LIMIT
# Reentrant: a finalizer can run in the middle of output_block, in the same
# thread, when the garbage collector frees a lease that was in a cycle.
_lock = threading.RLock()


def _after_fork_in_child() -> None:
    # Another thread may have held the lock when the process forked.
    global _lock
    _lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class _Lease:
    """The block ``raw`` exposed to numpy; collected when the last array
    viewing it goes."""

    def __init__(self, raw: np.ndarray) -> None:
        self.raw = raw
        # raw's own description (its memory, writeable): numpy's C getter,
        # where raw.ctypes runs Python code, slow with the caches cold
        # from a count pass (generate_plays makes its output between passes).
        self.__array_interface__ = raw.__array_interface__


def output_block(size: int) -> np.ndarray:
    """A new ``uint8[size]`` array of uninitialised memory, as
    ``np.empty(size, np.uint8)``, recycled from a released block of the
    same size class when there is one (1 MiB and more).

    >>> block = output_block(3 << 20)
    >>> address = block.ctypes.data
    >>> del block                       # the last view: the block is kept
    >>> output_block(3 << 20).ctypes.data == address
    True
    """
    if size < SMALLEST_RECYCLED:
        return np.empty(size, dtype=np.uint8)
    capacity = size_class(size)
    raw = _take(capacity)
    if raw is None:
        raw = np.empty(capacity, dtype=np.uint8)
    lease = _Lease(raw)
    weakref.finalize(lease, _release, raw).atexit = False
    return np.asarray(lease)[:size]


def size_class(size: int) -> int:
    """``size`` rounded up to a multiple of 1/16 of its power of two (at
    most 1/16 more), so that calls of nearly the same size share blocks.

    >>> size_class(1 << 20), size_class((1 << 20) + 1), size_class(3_000_000)
    (1048576, 1114112, 3014656)
    """
    step = 1 << max(size.bit_length() - 5, 0)
    return -(-size // step) * step


def set_recycling(limit: int) -> int:
    """Keep at most ``limit`` bytes of released blocks (0: none, and the
    ones kept are freed now); returns the previous limit."""
    global _limit
    with _lock:
        previous, _limit = _limit, limit
        _trim()
    return previous


def kept_bytes() -> int:
    """Bytes of released blocks kept for reuse now."""
    return _kept_bytes


def _take(capacity: int) -> np.ndarray | None:
    global _kept_bytes
    with _lock:
        blocks = _released.get(capacity)
        if not blocks:
            return None
        _kept_bytes -= capacity
        return blocks.pop()


def _release(raw: np.ndarray) -> None:
    global _kept_bytes
    with _lock:
        if raw.size > _limit:
            return
        _released.setdefault(raw.size, []).append(raw)
        _kept_bytes += raw.size
        _trim()


def _trim() -> None:
    """Free kept blocks, largest first, until within the limit."""
    global _kept_bytes
    while _kept_bytes > _limit:
        largest = max(_released)
        _released[largest].pop()
        _kept_bytes -= largest
        if not _released[largest]:
            del _released[largest]


# --- batches of plays ------------------------------------------------------------------------


class PlayBatch(NamedTuple):
    """The plays of a batch: those of item ``i`` are rows
    ``offsets[i]:offsets[i + 1]`` of the other arrays, ordered as
    :func:`bansugoroku_fast.legal_plays` orders them (canonical key, greatest
    first). A field left out of ``generate_plays(..., fields=...)`` is None.

    Parameters
    ----------
    offsets : numpy.ndarray
        ``int64[N + 1]``.
    children : numpy.ndarray
        ``int8[M, 2, 26]``: the position after each play (row 0 still the
        side that played).
    steps : numpy.ndarray or None
        ``int8[M, 4, 2]``: ``(from, to)`` per step, -1 padding.
    dice : numpy.ndarray or None
        ``int8[M, 4]``: the die of each step, -1 padding.
    hits : numpy.ndarray or None
        ``bool[M, 4]``: whether each step hit.

    Examples
    --------
    >>> from bansugoroku_fast import Position, generate_plays
    >>> plays = generate_plays(Position.initial().array[None], (6, 5), "backgammon")
    >>> plays.offsets.tolist(), plays.steps[0, :2].tolist(), plays.counts().tolist()
    ([0, 7], [[24, 18], [18, 13]], [7])
    """

    offsets: np.ndarray
    children: np.ndarray
    steps: np.ndarray | None
    dice: np.ndarray | None
    hits: np.ndarray | None

    def counts(self) -> np.ndarray:
        """Plays per item (``int64[N]``)."""
        return np.diff(self.offsets)


PlayBatch.offsets.__doc__ = (
    "``int64[N + 1]``: item ``i``'s plays are rows ``offsets[i]:offsets[i + 1]`` of the other arrays."
)
PlayBatch.children.__doc__ = "``int8[M, 2, 26]``: the position after each play, row 0 still the side that played."
PlayBatch.steps.__doc__ = "``int8[M, 4, 2]``: ``(from, to)`` of each step, -1 padding (None when not asked for)."
PlayBatch.dice.__doc__ = "``int8[M, 4]``: the die of each step, -1 padding (None when not asked for)."
PlayBatch.hits.__doc__ = "``bool[M, 4]``: whether each step hit (None when not asked for)."


#: The fields of a :class:`PlayBatch` that the generate kernel can write.
FIELDS = ("children", "steps", "dice", "hits")

#: Shape of one row and dtype of each field.
ROW_LAYOUT: dict[str, tuple[tuple[int, ...], type[np.generic]]] = {
    "children": ((2, 26), np.int8), "steps": ((4, 2), np.int8),
    "dice": ((4,), np.int8), "hits": ((4,), np.bool_),
}
_ROW_BYTES = {name: math.prod(shape) * np.dtype(dtype).itemsize for name, (shape, dtype) in ROW_LAYOUT.items()}
_ALIGN = 64     # each field's rows start a whole number of cache lines into the block


#: A record layout: ``(name, numpy dtype, shape of an entry)`` per field, in order.
Fields: TypeAlias = Sequence[tuple[str, Any, tuple[int, ...]]]


def as_fields(layout: Mapping[str, tuple[tuple[int, ...], Any]]) -> tuple[tuple[str, Any, tuple[int, ...]], ...]:
    """A ``{name: (shape, dtype)}`` mapping (in its order) as fields.

    >>> as_fields({"dice": ((4,), np.int8)})
    (('dice', <class 'numpy.int8'>, (4,)),)
    """
    return tuple((name, dtype, tuple(shape)) for name, (shape, dtype) in layout.items())


def row_bytes(fields: Iterable[tuple[str, Any, tuple[int, ...]]]) -> int:
    """The bytes of one entry of every field.

    >>> row_bytes([("children", "i1", (2, 26)), ("plies", "i4", ())])
    56
    """
    return sum(np.dtype(dtype).itemsize * math.prod(shape) for _, dtype, shape in fields)


def layout_differences(kernel: Fields, kernel_row_bytes: int, ours: Fields) -> list[str]:
    """What differs between a layout as a kernel declares it (its fields
    and the row size it states: ``_batch.OUTPUT_ROWS`` and
    ``OUTPUT_ROW_BYTES``, ``_games.GAME_FIELDS`` and ``GAME_ROW_BYTES``, ...)
    and as this module defines it: names in order, each field's dtype and
    shape, the bytes of a row.

    >>> layout_differences([("a", "i1", ())], 1, [("a", "i1", ()), ("b", "i4", ())])
    ["fields: kernel ['a'], package ['a', 'b']", 'row bytes: kernel 1, package 5']
    """
    problems = []
    kernel_names, our_names = [name for name, _, _ in kernel], [name for name, _, _ in ours]
    if kernel_names != our_names:
        problems.append(f"fields: kernel {kernel_names}, package {our_names}")
    else:
        for (name, kernel_dtype, kernel_shape), (_, our_dtype, our_shape) in zip(kernel, ours):
            if np.dtype(kernel_dtype) != np.dtype(our_dtype) or tuple(kernel_shape) != tuple(our_shape):
                problems.append(f"field {name!r}: kernel {np.dtype(kernel_dtype)} {tuple(kernel_shape)}, "
                                f"package {np.dtype(our_dtype)} {tuple(our_shape)}")
    if row_bytes(kernel) != kernel_row_bytes:
        problems.append(f"row bytes: the kernel's fields make {row_bytes(kernel)}, it states {kernel_row_bytes}")
    elif row_bytes(ours) != kernel_row_bytes:
        problems.append(f"row bytes: kernel {kernel_row_bytes}, package {row_bytes(ours)}")
    return problems


def check_layout(what: str, kernel: Fields, kernel_row_bytes: int, ours: Fields) -> None:
    """Raise ImportError naming every difference between the layout
    ``what`` as a kernel declares it and as this module defines it: a
    drift (kernels built from other sources, a layout changed on one side
    only) is a build error, never a misread.

    >>> check_layout("rows", [("hits", "?", (4,))], 4, as_fields({"hits": ((4,), np.bool_)}))
    >>> check_layout("rows", [("hits", "?", (4,))], 4, as_fields({"hits": ((4,), np.uint8)}))
    Traceback (most recent call last):
        ...
    ImportError: bansugoroku_fast: the kernels' rows differ from the package's: field 'hits': kernel bool (4,), \
package uint8 (4,) (kernels built from other sources? rebuild them: python setup.py build_ext --inplace)
    """
    problems = layout_differences(kernel, kernel_row_bytes, ours)
    if problems:
        raise ImportError(f"bansugoroku_fast: the kernels' {what} differ from the package's: {'; '.join(problems)} "
                          "(kernels built from other sources? rebuild them: python setup.py build_ext --inplace)")


def _check_layouts() -> None:
    """The layouts above against the kernels' own declarations."""
    check_layout("batch output rows", _batch.OUTPUT_ROWS, _batch.OUTPUT_ROW_BYTES, as_fields(ROW_LAYOUT))
    board = PLAY_RECORD["board_bytes"]
    if board != 2 * 26:
        raise ImportError(f"the kernels' play record holds a {board}-byte board, not 52: rebuild")


_check_layouts()


@dataclass(frozen=True)
class Items:
    """The arguments of a batch of plays as the kernels read them, not
    checked item by item: the kernels do that in the pass that reads each.

    ``positions`` is ``int8[N, 2, 26]`` C-contiguous, ``dice`` ``int8[N, 2]``
    with C-contiguous rows, ``dice_given`` the caller's dice (for messages),
    ``first_item`` the index of ``positions[0]`` in the caller's whole input.
    """

    positions: np.ndarray
    dice: np.ndarray
    dice_given: np.ndarray
    rules: Rules
    threads: int
    first_item: int = 0

    def chunk(self, start: int, stop: int) -> Items:
        """Items ``start:stop`` (views, no copy)."""
        return replace(self, positions=self.positions[start:stop], dice=self.dice[start:stop],
                       dice_given=self.dice_given[start:stop], first_item=self.first_item + start)

    def raise_problem(self, problem: tuple[int, int] | None) -> None:
        raise_first_problem(problem, self.rules, self.positions, self.dice_given, self.first_item)


def count(items: Items, *, fast_counts: bool = True, followed: bool = False) -> tuple[np.ndarray, int]:
    """The play counts of ``items`` (``int32[N]``) and their sum
    (``fast_counts=False``: by search alone, for tests; ``followed``:
    generating their plays follows at once, so pool threads stay awake)."""
    counts = np.empty(len(items.positions), dtype=np.int32)
    problem, total = _batch.count_batch(items.positions, items.dice, items.rules.code, items.threads,
                                               counts, fast_counts=fast_counts, followed=followed)
    items.raise_problem(problem)
    return counts, total


def play_buffers(items: int, plays: int, fields: frozenset[str]) -> PlayBatch:
    """Buffers for ``items`` items and ``plays`` plays in ``fields``
    (checked names; the others None): the offsets and each field's rows are
    views of one block (:func:`output_block`). It runs between a generate
    call's two passes, serial time on every thread, with caches cold from
    the count pass, so it makes as few Python and numpy calls as it can."""
    # One allocation: one large block is given huge pages where the system
    # has them, so the OS faults in a few 2 MB pages instead of a 4 KB page
    # at a time for the smaller arrays; and once released it is recycled.
    starts: dict[str, int] = {}     # where each field's rows start in the block, after the offsets
    end = _aligned((items + 1) * 8)
    for name in FIELDS:
        if name in fields:
            starts[name], end = end, end + _aligned(plays * _ROW_BYTES[name])
    block = output_block(end)
    views = {name: np.ndarray((plays, *ROW_LAYOUT[name][0]), ROW_LAYOUT[name][1], block, start)
             for name, start in starts.items()}
    return PlayBatch(np.ndarray((items + 1,), np.int64, block), views["children"],
                     views.get("steps"), views.get("dice"), views.get("hits"))


def _aligned(size: int) -> int:
    """``size`` rounded up to a whole number of cache lines."""
    return -(-size // _ALIGN) * _ALIGN


def output_views(out: PlayBatch | None, fields: frozenset[str], items: int, plays: int) -> PlayBatch:
    """Views of ``out`` (or fresh buffers) for ``items`` items and ``plays``
    plays, the fields not wanted None; a clear error if ``out`` is too small."""
    if out is None:
        return play_buffers(items, plays, fields)
    if not isinstance(out, PlayBatch):
        raise ArgumentTypeError(f"out must be a PlayBatch of buffers (see play_buffers), got {type(out).__name__}")

    def rows(name: str) -> np.ndarray:
        return _buffer(getattr(out, name), name, plays, *ROW_LAYOUT[name])

    optional = {name: rows(name) if name in fields else None for name in FIELDS[1:]}
    return PlayBatch(_buffer(out.offsets, "offsets", items + 1, (), np.int64), rows("children"), **optional)


def _buffer(array: object, name: str, rows: int, shape: tuple[int, ...], dtype: type[np.generic]) -> np.ndarray:
    """The first ``rows`` rows of the buffer ``array``, checked."""
    if not (isinstance(array, np.ndarray) and array.dtype == dtype and array.shape[1:] == shape
            and array.flags.c_contiguous and array.flags.writeable):
        raise InvalidArgumentError(f"out.{name} must be a writeable C-contiguous {np.dtype(dtype).name} "
                         f"array of shape (rows, {', '.join(map(str, shape))})")
    if len(array) < rows:
        raise InvalidArgumentError(f"out.{name} has room for {len(array)} rows, {rows} are needed")
    return array[:rows]


class OutputArena:
    """Buffers kept from chunk to chunk (``iter_plays(reuse=True)``), grown
    only when a chunk needs more: fresh memory must be zeroed by the OS page
    by page, which costs about as much as generating the plays that fill it."""

    def __init__(self, fields: frozenset[str]) -> None:
        self.fields = fields
        self.buffers = play_buffers(0, 0, fields)

    def take(self, items: int, plays: int) -> PlayBatch:
        have_items, have_plays = len(self.buffers.offsets) - 1, len(self.buffers.children)
        if items > have_items or plays > have_plays:
            self.buffers = play_buffers(max(items, have_items),
                                        max(plays, have_plays + have_plays // 4), self.fields)
        return self.buffers


def generate(items: Items, fields: frozenset[str] = frozenset(FIELDS), out: PlayBatch | None = None,
             arena: OutputArena | None = None, counts: np.ndarray | None = None) -> PlayBatch:
    """Count, then generate into ``out`` (or the arena's buffers, or fresh
    arrays of exactly the size counted); the kernels check each item in
    both passes (an item changed in between is refused, never misread).
    ``counts`` (``int32``, from :func:`count`) saves counting them again;
    the kernel overwrites it with each item's status."""
    if counts is None:
        counts, total = count(items, followed=True)
    else:
        total = int(counts.sum(dtype=np.int64))
    if arena is not None:
        out = arena.take(len(counts), total)
    result = output_views(out, fields, len(counts), total)
    _batch.play_offsets(counts, result.offsets)
    hits = None if result.hits is None else result.hits.view(np.uint8)
    items.raise_problem(_batch.generate_batch(
        items.positions, items.dice, items.rules.code, items.threads, result.offsets,
        result.children, result.steps, result.dice, hits, counts,
    ))
    return result


class Outcomes(NamedTuple):
    """The outcome kernel's answer for a batch: ``winner`` (-1 = the game
    goes on), ``value`` and ``kind`` code (-1 if none), each ``int8[N]``."""

    winner: np.ndarray
    value: np.ndarray
    kind: np.ndarray


def outcomes(positions: np.ndarray, rules: Rules) -> Outcomes:
    """The outcome of each position of an ``int8[N, 2, 26]`` array (the
    kernel checks each item, and the first bad one raises)."""
    n = len(positions)
    winner, value, kind = (np.empty(n, dtype=np.int8) for _ in range(3))
    problem = _batch.outcome_batch(positions, rules.code, winner, value, kind)
    raise_first_problem(problem, rules, positions)
    return Outcomes(winner, value, kind)


def shots_batch(positions: np.ndarray, rules: Rules, threads: int) -> np.ndarray:
    """``int8[N]``: rolls of 36 that hit, for each position."""
    result = np.empty(len(positions), dtype=np.int8)
    problem = _batch.shots_batch(positions, rules.code, threads, result)
    raise_first_problem(problem, rules, positions)
    return result


# --- whole games -------------------------------------------------------------------------------

#: Statuses of a game played by the kernels (the Status of ``_board.pxd``).
GAME_OK, GAME_TOO_LONG, GAME_NO_MEMORY = STATUS["ok"], STATUS["too_long"], STATUS["no_memory"]
#: The ``winner`` of a game stopped at the endgame tables (``rollout_games_to_tables``).
GAME_SETTLED = -2


class GameEnds(NamedTuple):
    """How each game played by the kernels ended, and its status."""

    winner: np.ndarray
    value: np.ndarray
    kind: np.ndarray
    plies: np.ndarray
    status: np.ndarray

    @classmethod
    def empty(cls, count: int) -> GameEnds:
        def small() -> np.ndarray:
            return np.zeros(count, dtype=np.int8)

        return cls(small(), small(), small(), np.zeros(count, dtype=np.int32), small())

    @property
    def truncated(self) -> np.ndarray:
        """``bool[G]``: the games cut off at ``max_plies`` (no winner)."""
        return self.winner < 0

    def check(self, seed: int, max_plies: int, first_game: int = 0, per_position: int = 0,
              on_long: str = "raise") -> None:
        """Raise for the first game that failed (a game cut off at
        ``max_plies`` fails only with ``on_long="raise"``): item ``i`` is game
        ``first_game + i``, or with ``per_position`` games a position, game
        ``first_game + i % per_position`` of position ``i // per_position``."""
        failed = np.flatnonzero(self.status if on_long == "raise" else self.status == GAME_NO_MEMORY)
        if not failed.size:
            return
        item = int(failed[0])
        name = f"game {first_game + item}"
        if per_position:
            name = f"game {first_game + item % per_position} from position {item // per_position}"
        if self.status[item] == GAME_NO_MEMORY:
            raise MemoryError(f"out of memory while playing {name}")
        raise GameTooLongError.of_game(name, seed, max_plies)


check_layout("game ends", _games.GAME_FIELDS, _games.GAME_ROW_BYTES,
             [(name, array.dtype, array.shape[1:]) for name, array in GameEnds.empty(1)._asdict().items()])


def features(positions: np.ndarray, rules: Rules) -> np.ndarray:
    """``float32[N, 28]``: the features of each (checked) position."""
    out = np.empty((len(positions), len(_games.FEATURE_NAMES)), dtype=np.float32)
    _games.features_batch(positions, rules.code, out)
    return out


def roll_dice(seed: int, games: np.ndarray, plies: np.ndarray, opening: bool, stratify: int) -> np.ndarray:
    """``int8[N, 2]``: the roll of ply ``plies[i]`` of game ``games[i]``
    (``int64`` arrays of one length) from the counter-based dice."""
    dice = np.empty((len(games), 2), dtype=np.int8)
    _games.dice_batch(seed, games, plies, opening, stratify, dice)
    return dice


def choose(code: int, weights: np.ndarray, parents: np.ndarray, offsets: np.ndarray, children: np.ndarray,
           rules: Rules, seed: int, games: np.ndarray, plies: np.ndarray) -> np.ndarray:
    """``int64[N]``: the child each parent's kernel policy ``code`` picks
    (-1 with none); ``"random"`` draws from ``(seed, game, ply)``'s stream."""
    choices = np.empty(len(parents), dtype=np.int32)
    _games.choose_batch(code, weights, parents, offsets, children, rules.code, seed, games, plies, choices)
    return choices.astype(np.int64)


#: The most units a hidden layer of a network may have to play in the
#: kernels' game loop (policy code ``NET``).
NET_MAX_HIDDEN: int = _games.NET_MAX_HIDDEN
#: The side features a network reads in the kernels; the others are folded
#: into the board's rows (``evaluators.kernel_arrays.model``).
NET_SIDE_FEATURES: tuple[str, ...] = _games.NET_SIDE_FEATURES


def net_fits(layer_sizes: Sequence[int]) -> bool:
    """Whether a network of ``layer_sizes`` (inputs, hidden layers,
    outputs) can choose plays in the kernels (game loop, best replies):
    every hidden layer within :data:`NET_MAX_HIDDEN` units."""
    return max(layer_sizes[1:-1]) <= NET_MAX_HIDDEN
NO_MODELS = (None, None)


def play_games(start: np.ndarray, games: int, opening: bool, stratify: int, codes: np.ndarray,
               weights: np.ndarray, rules: Rules, seed: int, max_plies: int, threads: int,
               on_long: str = "raise", *, models: tuple[Any, Any] = NO_MODELS,
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, GameEnds]:
    """``games`` logged games from ``start``: positions, dice, after (every
    ply) and the ends, checked. ``models``: each seat's network
    (:func:`net_model`) where its code is ``NET``, else None."""
    ends = GameEnds.empty(games)
    positions, dice, after = _games.play_batch(start, games, opening, stratify, codes, weights, models, rules.code,
                                               seed, max_plies, threads, *ends)
    ends.check(seed, max_plies, on_long=on_long)
    return positions, dice, after, ends


def rollout_games(positions: np.ndarray, first_game: int, count: int, codes: np.ndarray, weights: np.ndarray,
                  rules: Rules, seed: int, stratify: int, max_plies: int, threads: int,
                  on_long: str = "raise", *, models: tuple[Any, Any] = NO_MODELS) -> GameEnds:
    """The ends of games ``first_game .. first_game + count - 1`` from each
    position (item ``i * count + j``), checked; ``models`` as in
    :func:`play_games`."""
    ends = GameEnds.empty(len(positions) * count)
    _games.rollout_batch(positions, first_game, count, codes, weights, models, rules.code, seed, stratify,
                         max_plies, threads, *ends)
    ends.check(seed, max_plies, first_game, per_position=count, on_long=on_long)
    return ends


def rollout_games_to_tables(positions: np.ndarray, first_game: int, count: int, codes: np.ndarray,
                            weights: np.ndarray, rules: Rules, seed: int, stratify: int, max_plies: int,
                            threads: int, on_long: str, bears_off: bool, gammons: bool, finish: np.ndarray,
                            finish_mean: np.ndarray, first: np.ndarray, win: np.ndarray, *,
                            models: tuple[Any, Any] = NO_MODELS) -> tuple[GameEnds, np.ndarray]:
    """:func:`rollout_games`, each game stopped before the first ply whose
    position the endgame tables value (the arguments of :func:`race_lookup`):
    the ends (winner :data:`GAME_SETTLED` for a stopped game, its plies
    those played) and ``float64[G, 3]``, the mover's (win, win_gammon,
    lose_gammon) where it stopped (the mover: seat ``plies % 2``), checked."""
    ends = GameEnds.empty(len(positions) * count)
    race = np.zeros((len(ends.winner), 3))
    _games.rollout_batch_to_tables(positions, first_game, count, codes, weights, models, rules.code, seed, stratify,
                                   max_plies, threads, bears_off, gammons, finish, finish_mean, first, win,
                                   *ends, race)
    ends.check(seed, max_plies, first_game, per_position=count, on_long=on_long)
    return ends, race


def advance_games(rows: np.ndarray, choices: np.ndarray, state: Any, agent_seat: int, opponent_code: int,
                  opponent_weights: np.ndarray, max_plies: int, max_plays: int) -> None:
    """Play ``choices`` in the vector environment's games ``rows`` and on
    until a seat that chooses in Python has a choice (``state``: the
    environment's game arrays, advanced in place)."""
    advance_batch(
        rows, choices, state.boards, state.dice, state.ply, state.game, state.counts, state.winner,
        state.value, state.truncated.view(np.uint8), agent_seat, opponent_code, opponent_weights,
        state.rules.code, state.seed, state.rules.is_backgammon, max_plies, max_plays)


def advance_batch(rows: np.ndarray, choices: np.ndarray, boards: np.ndarray, dice: np.ndarray, plies: np.ndarray,
                  games: np.ndarray, counts: np.ndarray, winner: np.ndarray, value: np.ndarray,
                  truncated: np.ndarray, agent_seat: int, policy_code: int, weights: np.ndarray, code: int,
                  seed: int, opening: bool, max_plies: int, max_plays: int) -> None:
    """``_env.advance_batch`` (the arguments are its own), raising the
    error of the first problem it reports: a ValueError naming the row or
    the choice, or MemoryError."""
    problem = _env.advance_batch(rows, choices, boards, dice, plies, games, counts, winner, value, truncated,
                                 agent_seat, policy_code, weights, code, seed, opening, max_plies, max_plays)
    if problem is None:
        return
    k, status = problem
    row, choice = int(rows[k]), int(choices[k])
    if status == STATUS["no_such_row"]:
        raise PolicyOutputError(f"rows[{k}] = {row} is not a game (0..{len(boards) - 1})")
    if status == STATUS["row_twice"]:
        raise PolicyOutputError(f"rows[{k}] = {row} is listed twice")
    if status == STATUS["bad_choice"] and choice < -1:
        raise PolicyOutputError(f"choices[{k}] = {choice} is neither -1 (roll first) nor a play")
    if status == STATUS["bad_choice"]:
        raise PolicyOutputError(f"choices[{k}] = {choice}: game row {row} has {counts[row]} plays")
    if status == STATUS["no_memory"]:
        raise MemoryError("out of memory while advancing games")
    raise AssertionError(f"unknown kernel status {status}")


# --- exact endgame tables -----------------------------------------------------------------
# The one-sided and two-sided race tables (src/bansugoroku_fast/_tables.pyx); the callers
# (bansugoroku_fast.endgames) check the arguments before they come here.

#: Rows of a one-sided table: every arrangement of up to 15 stones on 6 points.
TABLE_POSITIONS: int = _tables.POSITION_COUNT
#: Rows (and columns) of a two-sided table: up to 6 stones on 6 points.
TABLE_SMALL_POSITIONS: int = _tables.SMALL_POSITION_COUNT
#: Columns a one-sided table is built with (turns 0..63); trimmed after.
TABLE_BUILD_TURNS = 64

RACE_TWO_SIDED: int = _tables.RACE_TWO_SIDED
RACE_ONE_SIDED: int = _tables.RACE_ONE_SIDED
RACE_NOT_IN_TABLE: int = _tables.RACE_NOT_IN_TABLE
RACE_OVER: int = _tables.RACE_OVER

_TABLE_BUILD_PROBLEMS = {
    _tables.STATUS_NO_MEMORY: "out of memory",
    _tables.STATUS_NO_PLAY: "a table position has a roll with no legal play",
    _tables.STATUS_TOO_LONG: f"a distribution is longer than {TABLE_BUILD_TURNS} turns",
}


class OneSidedArrays(NamedTuple):
    """What :func:`build_one_sided` fills (see ``_tables.build_one_sided``)."""

    finish: np.ndarray       # float64[TABLE_POSITIONS, TABLE_BUILD_TURNS]
    finish_mean: np.ndarray  # float64[TABLE_POSITIONS]
    first: np.ndarray        # float64[TABLE_POSITIONS, TABLE_BUILD_TURNS], or [0, TABLE_BUILD_TURNS] without it
    first_mean: np.ndarray   # float64[TABLE_POSITIONS], or [0]
    ties: np.ndarray         # uint8[TABLE_POSITIONS]


def _checked_table_status(status: int) -> int:
    if status < 0:
        raise RuntimeError(f"building an endgame table failed: {_TABLE_BUILD_PROBLEMS.get(status, status)}")
    return status


def table_rank(counts: Sequence[int]) -> int:
    """The table row of six stone counts (the table's points 1..6)."""
    return int(_tables.rank(np.ascontiguousarray(counts, dtype=np.int8)))


def table_ranks(counts: np.ndarray) -> np.ndarray:
    """``int32[N]``: the rows of ``int8[N, 6]`` stone counts."""
    out = np.empty(len(counts), dtype=np.int32)
    _tables.ranks_of(np.ascontiguousarray(counts, dtype=np.int8), out)
    return out


def table_counts_of_rank(position_rank: int) -> list[int]:
    """The six stone counts of table row ``position_rank``."""
    return list(_tables.counts_of_rank(position_rank))


def build_one_sided(rule_code: int, with_first: bool, *, tie_turns: float = 1e-9,
                    progress: Callable[[int], None] | None = None) -> OneSidedArrays:
    """The one-sided tables of a rule code, every row (``_tables.build_one_sided``)."""
    first_rows = TABLE_POSITIONS if with_first else 0
    arrays = OneSidedArrays(
        np.zeros((TABLE_POSITIONS, TABLE_BUILD_TURNS)), np.zeros(TABLE_POSITIONS),
        np.zeros((first_rows, TABLE_BUILD_TURNS)), np.zeros(first_rows), np.zeros(TABLE_POSITIONS, dtype=np.uint8),
    )
    _checked_table_status(_tables.build_one_sided(rule_code, *arrays, tie_turns, progress))
    return arrays


def table_children(rule_code: int, positions: int) -> tuple[np.ndarray, np.ndarray]:
    """``(offsets int32[21 positions + 1], children int32[M])``: the table rows
    each legal play of each of the rows below ``positions`` reaches, roll by
    roll in the order (1,1), (1,2), .., (6,6)."""
    found = _tables.children(rule_code, positions)
    if isinstance(found, int):
        raise RuntimeError(f"listing the children of table positions failed: {_TABLE_BUILD_PROBLEMS.get(found, found)}")
    offsets, rows = found
    return np.frombuffer(offsets, dtype=np.int32).copy(), np.frombuffer(rows, dtype=np.int32).copy()


def build_two_sided(rule_code: int, cubeful: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(win, no_double)``: ``win`` ``float64[TABLE_SMALL_POSITIONS,
    TABLE_SMALL_POSITIONS]``, the exact chance that the side to roll (row)
    wins against the other (column), both playing to win; with
    ``cubeful``, ``no_double`` ``float64[.., .., 3]``, its exact money
    equity when it rolls without doubling, cube centred / its own / the
    other side's (else ``float64[0, 0, 3]``)."""
    offsets, rows = table_children(rule_code, TABLE_SMALL_POSITIONS)
    win = np.zeros((TABLE_SMALL_POSITIONS, TABLE_SMALL_POSITIONS))
    size = TABLE_SMALL_POSITIONS if cubeful else 0
    no_double = np.zeros((size, size, 3))
    _tables.build_two_sided(offsets, rows, win, no_double)
    return win, no_double


def race_lookup(positions: np.ndarray, bears_off: bool, gammons: bool, finish: np.ndarray,
                finish_mean: np.ndarray, first: np.ndarray, win: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(figures float64[N, 5], status int32[N])`` of valid positions
    ``int8[N, 2, 26]`` (``_tables.race_lookup``; ``win`` empty: one-sided only)."""
    count = len(positions)
    out = np.empty((count, 5))
    status = np.empty(count, dtype=np.int32)
    _tables.race_lookup(positions, bears_off, gammons, finish, finish_mean, first, win, out, status)
    return out, status


# --- networks ---------------------------------------------------------------------------------
# The compiled forward pass (src/bansugoroku_fast/_net.pyx); bansugoroku_fast.evaluators
# prepares a network's arrays and checks the arguments before they come here.


def net_model(arrays: dict[str, np.ndarray], hidden1: int, hidden2: int, relu: bool, features: int,
              feature_mask: int, exact: bool = False) -> Any:
    """The kernels' model of a network whose arrays are laid out as
    ``bsf_net.h`` reads them (``feature_mask``: bit ``f`` set where
    feature ``f``'s row is read; ``exact``: ``arrays`` also holds the int16
    arrays of an exact network)."""
    return _net.Model(arrays, hidden1, hidden2, relu, features, feature_mask, exact)


#: The scales of an exact network's integers (``bsf_net.h``): its first
#: layer's arrays in units of 1 / EXACT_FIRST, its output weights of 1 / EXACT_OUT.
EXACT_FIRST, EXACT_OUT = 256, 1024


def net_scores(model: Any, positions: np.ndarray, code: int, threads: int, outcomes: bool = False) -> np.ndarray:
    """``float32[N, 5]``: the network's consistent outputs for ``int8[N, 2, 26]``
    positions under the rules of ``code`` (their features computed in the
    same pass; from the tables where the model has them and they apply;
    with ``outcomes``, a finished game's outcome)."""
    out = np.empty((len(positions), 5), dtype=np.float32)
    _scoring.score_batch(model, positions, code, out, threads, outcomes)
    return out


def net_children_scores(model: Any, parents: np.ndarray, offsets: np.ndarray, children: np.ndarray, code: int,
                        threads: int) -> np.ndarray:
    """``float32[M, 5]``: the network's consistent outputs for the ``int8[M,
    2, 26]`` children, ``offsets[i]:offsets[i + 1]`` being plays of parent
    ``i`` (each seen by its mover), scored from their parent's first layer
    as the game kernels score them; a finished child by its outcome."""
    out = np.empty((len(children), 5), dtype=np.float32)
    _scoring.children_batch(model, parents, offsets, children, code, out, threads)
    return out


def net_best_replies(model: Any, parents: np.ndarray, dice: np.ndarray, code: int,
                     threads: int) -> tuple[np.ndarray, np.ndarray]:
    """For each parent (row 0 to play, a game going on under the rules of
    ``code``) and each roll of ``dice`` (``int8[R, 2]``): ``int8[N * R, 2,
    26]``, the play the network picks at 0 ply (the game loop's choice; the
    parent on a pass), seen by its mover, and ``float32[N * R, 5]``, its
    five probabilities (a finished game's exact ones); or MemoryError."""
    count = len(parents) * len(dice)
    replies = np.empty((count, 2, 26), dtype=np.int8)
    values = np.empty((count, 5), dtype=np.float32)
    status = np.empty(len(parents), dtype=np.int8)
    _games.best_replies_batch(model, parents, dice, code, threads, replies, values, status)
    if (status != GAME_OK).any():
        raise MemoryError("out of memory while searching the replies")
    return replies, values


def net_best_children(model: Any, children: np.ndarray, offsets: np.ndarray, code: int,
                      features: np.ndarray) -> np.ndarray:
    """``int64[N]``: the child of greatest 0-ply equity in each segment
    ``offsets[i]:offsets[i + 1]`` (finished children scored exactly)."""
    out = np.empty(len(offsets) - 1, dtype=np.int64)
    _net.best_children(model, children, offsets, code, features, out)
    return out


# --- the cube ---------------------------------------------------------------------------------


_Arrays3: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray]
_Arrays7: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _cube_states(states: Any) -> _Arrays7:
    """The arrays of ``cube.states._MatchStates`` in the kernel's argument order."""
    return (states.cubeful.view(np.uint8), states.gammon, states.owner, states.levels, states.level_results,
            states.doubled_dead.view(np.uint8), states.prime_results)


def _rows(probabilities: np.ndarray, efficiency: np.ndarray, which: np.ndarray) -> _Arrays3:
    return (np.ascontiguousarray(probabilities, dtype=np.float64), np.ascontiguousarray(efficiency, dtype=np.float64),
            np.ascontiguousarray(which, dtype=np.int64))


def match_cube_values(probabilities: np.ndarray, efficiency: np.ndarray, which: np.ndarray,
                      states: Any) -> np.ndarray:
    """``float64[N]``: each row's cubeful match winning chance in its state
    ``which[i]`` of ``states`` (``cube.states._MatchStates``; see
    ``src/bansugoroku_fast/_cube.pyx``)."""
    out = np.empty(len(probabilities))
    _cube.match_values(*_rows(probabilities, efficiency, which), *_cube_states(states), out)
    return out


def match_equities_after_play(probabilities: np.ndarray, efficiency: np.ndarray, which: np.ndarray,
                              states: Any, may_double: np.ndarray, double_pass: np.ndarray, at_0: np.ndarray,
                              at_1: np.ndarray) -> np.ndarray:
    """``float64[N]``: each play's cubeful equity for its mover, the other
    side on roll in state ``which[i]`` of ``states`` (``cube.states._MatchStates``
    of 2S states: the other side's S, then each doubled); see
    ``src/bansugoroku_fast/_cube.pyx``."""
    out = np.empty(len(probabilities))
    _cube.match_equities_after_play(*_rows(probabilities, efficiency, which), *_cube_states(states),
                                    may_double.view(np.uint8), double_pass, at_0, at_1, out)
    return out


def position_kinds(positions: np.ndarray, on_roll: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``(int8[N], int32[N])``: each ``int8[N, 2, 26]`` position's kind
    code (``cube.kinds.KINDS``) and pip count, both for the side on roll,
    row ``on_roll`` (0 or 1)."""
    codes = np.empty(len(positions), dtype=np.int8)
    pips = np.empty(len(positions), dtype=np.int32)
    _cube.kinds(np.ascontiguousarray(positions, dtype=np.int8), on_roll, codes, pips)
    return codes, pips
