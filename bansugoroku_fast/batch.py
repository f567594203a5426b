"""The batch API: legal plays and rule queries over numpy arrays of positions.

Positions are ``int8[N, 2, 26]`` in the interchange layout (row 0 = side to
move), dice ``int8[N, 2]`` (one roll per position, or one roll for all). The
kernels run without the GIL, over ``threads`` threads (``None`` = every
core, at most :data:`MAX_THREADS`): the calling thread and threads of a
pool kept by the process, which join the call as soon as they are awake,
never making it wait for one that is not (a short call runs on the calling
thread alone; :func:`set_idle_spin` says how long they stay awake after a
call). The kernels check each item in the same pass that reads it, from a
copy the call owns (so another thread writing the arrays meanwhile cannot
slip a bad item past the check); a bad item raises
:class:`~bansugoroku_fast.errors.InvalidPositionError` or
:class:`~bansugoroku_fast.errors.InvalidDiceError` naming the first, by its
index. Results never depend on the thread count.

Input conversion: an ``int8`` C-contiguous array is used as it is (no copy);
any other integer array (another dtype, or not C-contiguous) is copied once
into that form (positions after a range check).

>>> import numpy as np
>>> from bansugoroku_fast import Position, Rules
>>> positions = np.stack([Position.initial().array] * 3)
>>> dice = np.array([[6, 5], [1, 1], [5, 5]], dtype=np.int8)
>>> count_plays(positions, dice, Rules(variant="backgammon"))
array([ 7, 42,  4], dtype=int32)
>>> batch = generate_plays(positions, dice, "backgammon")
>>> batch.offsets
array([ 0,  7, 49, 53])
>>> batch.children.shape, batch.steps.shape, batch.dice.shape, batch.hits.shape
((53, 2, 26), (53, 4, 2), (53, 4), (53, 4))
>>> batch.steps[0].tolist(), batch.dice[0].tolist()
([[24, 18], [18, 13], [-1, -1], [-1, -1]], [6, 5, -1, -1])
"""
from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from . import _batch, _pool, _validate, layout
from ._blocks import output_block, set_recycling
from ._status import STATUS, raise_first_problem
from .api import OUTCOME_KINDS
from .checks import DICE_CONTAINERS, as_rules, is_positive_int, positive_int
from .errors import InvalidDiceError, InvalidPositionError
from .play import OutcomeKind
from .position import as_int8_array, holds_integers
from .rules import Rules
from .typing import BatchLike, RulesLike

__all__ = [
    "PlayBatch", "OutcomeBatch", "FIELDS", "count_plays", "generate_plays", "play_buffers",
    "set_output_recycling", "set_idle_spin", "idle_spin", "KERNEL_BUILD",
    "iter_plays", "outcome",
    "blocked_points", "blots", "closure_holds", "pip_counts", "shots", "OUTCOME_KINDS",
]

#: Which build of the kernels runs: ``"avx2"`` (the build for CPUs with
#: AVX2, BMI1/2 and POPCNT, chosen at import where the CPU has them) or
#: ``"baseline"`` (any CPU of the architecture; ``BANSUGOROKU_KERNELS=baseline``
#: forces it). Both give the same results.
KERNEL_BUILD: str = _batch.BUILT_FOR

set_idle_spin = _pool.set_idle_spin
idle_spin = _pool.idle_spin

#: Default number of positions per chunk of :func:`iter_plays`.
CHUNK_SIZE = 8192  # small enough that freed outputs are reused, not fresh pages


class PlayBatch(NamedTuple):
    """The plays of a batch: those of item ``i`` are rows
    ``offsets[i]:offsets[i + 1]`` of the other arrays, ordered as
    :func:`bansugoroku_fast.legal_plays` orders them (canonical key, greatest
    first).

    * ``offsets``: ``int64[N + 1]``;
    * ``children``: ``int8[M, 2, 26]``, the position after each play (row 0
      still the side that played);
    * ``steps``: ``int8[M, 4, 2]``, ``(from, to)`` per step, ``-1`` padding;
    * ``dice``: ``int8[M, 4]``, the die of each step, ``-1`` padding;
    * ``hits``: ``bool[M, 4]``, whether each step hit.

    A field left out of ``generate_plays(..., fields=...)`` is None.
    """

    offsets: np.ndarray
    children: np.ndarray
    steps: np.ndarray | None
    dice: np.ndarray | None
    hits: np.ndarray | None

    def counts(self) -> np.ndarray:
        """Plays per item (``int64[N]``)."""
        return np.diff(self.offsets)


#: The fields of a :class:`PlayBatch` that ``generate_plays`` can write.
FIELDS = ("children", "steps", "dice", "hits")

#: Shape of one row and dtype of each field.
_ROW_LAYOUT: dict[str, tuple[tuple[int, ...], type[np.generic]]] = {
    "children": ((2, 26), np.int8), "steps": ((4, 2), np.int8),
    "dice": ((4,), np.int8), "hits": ((4,), np.bool_),
}
_ROW_BYTES = {name: math.prod(shape) * np.dtype(dtype).itemsize for name, (shape, dtype) in _ROW_LAYOUT.items()}


class OutcomeBatch(NamedTuple):
    """Outcomes of a batch: ``winner`` (``int8[N]``, 0 = row 0, 1 = row 1,
    -1 = game goes on), ``value`` (``int8[N]``, 0 if none) and ``kind``
    (``int8[N]``, an index into :data:`OUTCOME_KINDS`, -1 if none)."""

    winner: np.ndarray
    value: np.ndarray
    kind: np.ndarray

    def kinds(self) -> list[OutcomeKind | None]:
        """``kind`` as :class:`OutcomeKind` values (None where the game goes on)."""
        return [OUTCOME_KINDS[k] if k >= 0 else None for k in self.kind.tolist()]


# --- argument checks -----------------------------------------------------------


#: The most threads a batch call takes: more than four per CPU never helps,
#: and each one is a thread of the pool (``_pool``), kept for the process's life.
MAX_THREADS = min(4 * (os.cpu_count() or 1), _pool.MOST_THREADS)


def _threads(threads: object) -> int:
    """``threads`` checked: None = every CPU this process may run on, else
    an integer in 1..:data:`MAX_THREADS`."""
    if threads is None:
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            return os.cpu_count() or 1
    if not is_positive_int(threads) or int(threads) > MAX_THREADS:
        raise ValueError(
            f"threads must be an integer in 1..{MAX_THREADS} (4 per CPU) or None, got {threads!r}"
        )
    return int(threads)


def _positions_array(positions: BatchLike) -> np.ndarray:
    """``positions`` as an ``int8[N, 2, 26]`` C-contiguous array, content
    unchecked: the kernels check each item as they read it."""
    if not (isinstance(positions, np.ndarray) and positions.dtype == np.int8
            and positions.flags.c_contiguous):
        positions = as_int8_array(positions, shape_text="N x 2 x 26", what="positions")
    if positions.shape == (0,):  # an empty list: no positions
        positions = positions.reshape(0, 2, 26)
    if positions.ndim != 3 or positions.shape[1:] != (2, 26):
        raise InvalidPositionError(f"positions must have shape (N, 2, 26), got {positions.shape}")
    return positions


def _valid_positions(positions: BatchLike) -> np.ndarray:
    """``positions`` as a valid ``int8[N, 2, 26]`` array, for the queries
    numpy answers (the kernels check their items themselves)."""
    positions = _positions_array(positions)
    problem = _validate.first_invalid(positions)
    if problem is not None:
        raise_first_problem((problem[0], STATUS["invalid_position"]), None, positions)
    return positions


def _dice(dice: BatchLike, count: int) -> tuple[np.ndarray, np.ndarray]:
    """``dice`` as an ``int8[N, 2]`` array with C-contiguous rows for the
    kernels, which check the values, and the caller's values for messages.
    One pair is used for every position (a view with stride 0: no copy).
    Values outside int8 become 0, which the kernels refuse like any die
    outside 1..6."""
    if not isinstance(dice, DICE_CONTAINERS):
        raise InvalidDiceError(f"dice must be an N x 2 integer array (or one roll), got {type(dice).__name__}")
    try:
        given = np.asarray(dice)
    except ValueError as error:
        raise InvalidDiceError(f"dice must be a rectangular N x 2 array: {error}") from None
    if count == 0 and given.shape == (0,):  # an empty list: no rolls
        given = np.empty((0, 2), dtype=np.int8)
    if not holds_integers(given):
        raise InvalidDiceError(f"dice must hold integers, got dtype {given.dtype}")
    if given.shape != (2,) and given.shape != (count, 2):
        raise InvalidDiceError(f"dice must have shape ({count}, 2) for {count} positions, got {given.shape}")
    array = given if given.dtype == np.int8 else np.clip(given, 0, 7).astype(np.int8)
    if given.shape == (2,):  # one roll for every position
        return np.broadcast_to(array, (count, 2)), np.broadcast_to(given, (count, 2))
    return np.ascontiguousarray(array), given


# --- plays -------------------------------------------------------------------------


def count_plays(positions: BatchLike, dice: BatchLike, rules: RulesLike = None, *,
                threads: int | None = None) -> np.ndarray:
    """The number of legal plays (distinct resulting positions) of each
    (position, roll) as ``int32[N]``; 0 for a pass or a finished game.

    ``threads``: None (every CPU) or 1..:data:`MAX_THREADS`. A bad item
    raises :class:`~bansugoroku_fast.errors.InvalidPositionError` or
    :class:`~bansugoroku_fast.errors.InvalidDiceError` naming the first.

    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> count_plays(Position.initial().array[None], [[2, 1]], "backgammon")
    array([15], dtype=int32)
    """
    return _count(_Items.of(positions, dice, rules, threads))


@dataclass(frozen=True)
class _Items:
    """The arguments of a batch of plays, converted (:func:`_positions_array`,
    :func:`_dice`) but not checked item by item: the kernels do that."""

    positions: np.ndarray
    dice: np.ndarray
    dice_given: np.ndarray  # the caller's dice, for messages
    rules: Rules
    threads: int
    first_item: int = 0  # index of positions[0] in the caller's whole input

    @classmethod
    def of(cls, positions: BatchLike, dice: BatchLike, rules: RulesLike, threads: int | None) -> _Items:
        rules = as_rules(rules)
        positions = _positions_array(positions)
        dice, given = _dice(dice, len(positions))
        return cls(positions, dice, given, rules, _threads(threads))

    def chunk(self, start: int, stop: int) -> _Items:
        """Items ``start:stop`` (views, no copy)."""
        return replace(self, positions=self.positions[start:stop], dice=self.dice[start:stop],
                       dice_given=self.dice_given[start:stop], first_item=self.first_item + start)

    def raise_problem(self, problem: tuple[int, int] | None) -> None:
        raise_first_problem(problem, self.rules, self.positions, self.dice_given, self.first_item)


def _count(items: _Items, *, fast_counts: bool = True) -> np.ndarray:
    """The play counts of checked items (``fast_counts=False``: by search
    alone, for tests)."""
    return _counted(items, fast_counts=fast_counts)[0]


def _counted(items: _Items, *, fast_counts: bool = True, followed: bool = False) -> tuple[np.ndarray, int]:
    """The play counts of checked items and their sum (``followed``:
    generating their plays follows)."""
    counts = np.empty(len(items.positions), dtype=np.int32)
    problem, total = _batch.count_batch(items.positions, items.dice, items.rules.code, items.threads, counts,
                                        fast_counts=fast_counts, followed=followed)
    items.raise_problem(problem)
    return counts, total


def generate_plays(positions: BatchLike, dice: BatchLike, rules: RulesLike = None, *,
                   threads: int | None = None, fields: Iterable[str] = FIELDS,
                   out: PlayBatch | None = None) -> PlayBatch:
    """Every legal play of each (position, roll), as a :class:`PlayBatch`
    (arguments and errors as :func:`count_plays`).

    ``fields`` names what to write, any of :data:`FIELDS` with
    ``"children"`` among them (the others are None in the result): children
    alone is what analysis and rollouts read, and costs less. ``out`` is a
    :class:`PlayBatch` of preallocated buffers (offsets with room for N + 1,
    the fields asked for with room for every play; see
    :func:`play_buffers`): the result is then views of them, valid until
    they are written again, and nothing of the size of the output is
    allocated.

    >>> from bansugoroku_fast import Position
    >>> batch = generate_plays(Position.initial().array[None], [[5, 5]], "backgammon")
    >>> batch.counts().tolist(), batch.steps[0].tolist()
    ([4], [[13, 8], [13, 8], [13, 8], [13, 8]])
    >>> generate_plays(Position.initial().array[None], [[5, 5]], "backgammon",
    ...                fields=("children",)).steps is None
    True
    """
    return _generate(_Items.of(positions, dice, rules, threads), _fields(fields), out)


def _fields(fields: Iterable[str]) -> frozenset[str]:
    """``fields`` checked: a collection of names from :data:`FIELDS`, children included."""
    if isinstance(fields, str) or not all(isinstance(field, str) for field in fields):
        raise ValueError(f"fields must be a collection of names among {FIELDS}, got {fields!r}")
    wanted = frozenset(fields)
    if not wanted <= set(FIELDS) or "children" not in wanted:
        raise ValueError(f"fields must name 'children' and any of {FIELDS[1:]}, got {fields!r}")
    return wanted


def play_buffers(items: int, plays: int, fields: Iterable[str] = FIELDS) -> PlayBatch:
    """Empty buffers for ``generate_plays(..., out=...)``: room for ``items``
    items and ``plays`` plays in the ``fields`` named (the others None).
    ``generate_plays`` makes its fresh output here too. The offsets and
    the fields' rows are C-contiguous views of one allocation (so one
    large block, which the OS backs with huge pages where it can: fresh
    output faults in far fewer pages); it lives as long as any of them
    does (keep a copy of the offsets alone, not the view, to let the rest
    go), and is then kept for a later call's output (see
    :func:`set_output_recycling`).

    >>> buffers = play_buffers(10, 1000, fields=("children",))
    >>> buffers.offsets.shape, buffers.children.shape, buffers.steps
    ((11,), (1000, 2, 26), None)
    """
    return _play_buffers(items, plays, _fields(fields))


def _play_buffers(items: int, plays: int, fields: frozenset[str]) -> PlayBatch:
    """:func:`play_buffers` for ``fields`` already checked. It runs between
    a generate call's two passes, serial time on every thread, with caches
    cold from the count pass (it then takes about four times what it takes
    run again at once: ``python -m benchmarks.startup --between-passes``),
    so it makes as few Python and numpy calls as it can."""
    # One allocation for the offsets and every field's rows, each a view of
    # it: one large block is given huge pages where the system has them
    # (numpy advises them from 4 MB), so the OS faults in a few 2 MB pages
    # instead of a 4 KB page at a time for the smaller arrays; and once
    # released it is recycled (_blocks), so that a later call pays no page
    # faults at all (400 KB of fresh offsets for 50,000 items cost a
    # two-thread generate 3 ns an item, all of it on one thread).
    starts: dict[str, int] = {}     # where each field's rows start in the block, after the offsets
    end = _aligned((items + 1) * 8)
    for name in FIELDS:
        if name in fields:
            starts[name], end = end, end + _aligned(plays * _ROW_BYTES[name])
    block = output_block(end)
    views = {name: np.ndarray((plays, *_ROW_LAYOUT[name][0]), _ROW_LAYOUT[name][1], block, start)
             for name, start in starts.items()}
    return PlayBatch(np.ndarray((items + 1,), np.int64, block), views["children"],
                     views.get("steps"), views.get("dice"), views.get("hits"))


def _aligned(size: int) -> int:
    """``size`` rounded up to a whole number of cache lines."""
    return -(-size // _ALIGN) * _ALIGN


_ALIGN = 64     # each field's rows start a whole number of cache lines into the block


def set_output_recycling(limit_bytes: int) -> int:
    """Keep at most ``limit_bytes`` (default 256 MiB) of released output
    for reuse; returns the previous limit. 0 keeps none and frees what is
    kept now.

    The output blocks of :func:`generate_plays` and :func:`play_buffers`
    of 1 MiB or more are kept once no array views them any more, and a
    later call of about the same size writes into one instead of fresh
    memory, which the OS would zero page by page on the first write (for
    50,000 Ban-sugoroku items, 40 MB of children, that costs more than the
    plays themselves). Each call still returns arrays that share nothing
    with any array alive. The price is memory: up to the limit stays
    allocated after the results are dropped.

    >>> previous = set_output_recycling(0)      # every call's output from the OS
    >>> set_output_recycling(previous)
    0
    """
    if isinstance(limit_bytes, bool) or not isinstance(limit_bytes, numbers.Integral) or limit_bytes < 0:
        raise ValueError(f"limit_bytes must be an integer >= 0, got {limit_bytes!r}")
    return set_recycling(int(limit_bytes))


def _output(out: PlayBatch | None, fields: frozenset[str], items: int, plays: int) -> PlayBatch:
    """Views of ``out`` (or fresh arrays) for ``items`` items and ``plays``
    plays, the fields not wanted None; a clear error if ``out`` is too small."""
    if out is None:
        return _play_buffers(items, plays, fields)
    if not isinstance(out, PlayBatch):
        raise ValueError(f"out must be a PlayBatch of buffers (see play_buffers), got {type(out).__name__}")

    def rows(name: str) -> np.ndarray:
        return _buffer(getattr(out, name), name, plays, *_ROW_LAYOUT[name])

    optional = {name: rows(name) if name in fields else None for name in FIELDS[1:]}
    return PlayBatch(_buffer(out.offsets, "offsets", items + 1, (), np.int64), rows("children"), **optional)


def _buffer(array: object, name: str, rows: int, shape: tuple[int, ...], dtype: type[np.generic]) -> np.ndarray:
    """The first ``rows`` rows of the buffer ``array``, checked."""
    if not (isinstance(array, np.ndarray) and array.dtype == dtype and array.shape[1:] == shape
            and array.flags.c_contiguous and array.flags.writeable):
        raise ValueError(f"out.{name} must be a writeable C-contiguous {np.dtype(dtype).name} "
                         f"array of shape (rows, {', '.join(map(str, shape))})")
    if len(array) < rows:
        raise ValueError(f"out.{name} has room for {len(array)} rows, {rows} are needed")
    return array[:rows]


class _OutputArena:
    """Buffers kept from chunk to chunk (``iter_plays(reuse=True)``), grown
    only when a chunk needs more: fresh memory must be zeroed by the OS page
    by page, which costs about as much as generating the plays that fill it."""

    def __init__(self, fields: frozenset[str]) -> None:
        self.fields = fields
        self.buffers = _play_buffers(0, 0, fields)

    def take(self, items: int, plays: int) -> PlayBatch:
        have_items, have_plays = len(self.buffers.offsets) - 1, len(self.buffers.children)
        if items > have_items or plays > have_plays:
            self.buffers = _play_buffers(max(items, have_items),
                                         max(plays, have_plays + have_plays // 4), self.fields)
        return self.buffers


def _generate(items: _Items, fields: frozenset[str] = frozenset(FIELDS), out: PlayBatch | None = None,
              arena: _OutputArena | None = None, counts: np.ndarray | None = None) -> PlayBatch:
    """Count, then generate into ``out`` (or the arena's buffers, or fresh
    arrays of exactly the size counted); the kernels check each item in
    both passes (an item changed in between is refused, never misread).
    ``counts`` (``int32``, from :func:`_count`) saves counting them again;
    the kernel overwrites it with each item's status."""
    if counts is None:
        counts, total = _counted(items, followed=True)
    else:
        total = int(counts.sum(dtype=np.int64))
    if arena is not None:
        out = arena.take(len(counts), total)
    result = _output(out, fields, len(counts), total)
    _batch.play_offsets(counts, result.offsets)
    hits = None if result.hits is None else result.hits.view(np.uint8)
    items.raise_problem(_batch.generate_batch(
        items.positions, items.dice, items.rules.code, items.threads, result.offsets,
        result.children, result.steps, result.dice, hits, counts,
    ))
    return result


def iter_plays(positions: BatchLike, dice: BatchLike, rules: RulesLike = None, *, chunk_size: int = CHUNK_SIZE,
               threads: int | None = None, reuse: bool = False,
               fields: Iterable[str] = FIELDS) -> Iterator[tuple[int, PlayBatch]]:
    """:func:`generate_plays` chunk by chunk: yields ``(start, batch)`` where
    ``batch`` holds the plays of items ``start:start + chunk_size`` (its
    offsets count from 0). Only one chunk's children are held at a time.

    Shapes and types are checked at the call; each item when its chunk is
    generated (in the same pass that reads it, so a caller changing the
    arrays meanwhile cannot slip a bad item past the check): a bad item
    raises from ``next()``, naming its index in the whole input.

    With ``reuse=True`` every chunk is written into the same output memory
    (as ``generate_plays(..., out=...)`` writes), and a yielded batch is
    valid only until the next one is asked for: copy what you keep. Without
    it each chunk is new arrays, whose memory is recycled once you drop
    them (:func:`set_output_recycling`), so that neither way pays the OS
    for fresh pages chunk after chunk. ``fields`` as for
    :func:`generate_plays`.

    >>> from bansugoroku_fast import Position
    >>> positions = np.stack([Position.initial().array] * 5)
    >>> dice = [[6, 5]] * 5
    >>> [(start, len(batch.children)) for start, batch in iter_plays(positions, dice, "backgammon", chunk_size=2)]
    [(0, 14), (2, 14), (4, 7)]
    """
    items = _Items.of(positions, dice, rules, threads)
    wanted = _fields(fields)
    chunk_size = positive_int(chunk_size, "chunk_size")
    arena = _OutputArena(wanted) if reuse else None

    def chunks() -> Iterator[tuple[int, PlayBatch]]:
        for start in range(0, len(items.positions), chunk_size):
            yield start, _generate(items.chunk(start, start + chunk_size), wanted, arena=arena)

    return chunks()


# --- queries -------------------------------------------------------------------------


def outcome(positions: BatchLike, rules: RulesLike = None) -> OutcomeBatch:
    """The outcome of each position, as an :class:`OutcomeBatch`.

    >>> from bansugoroku_fast import Position
    >>> result = outcome(Position.initial().array[None])
    >>> result.winner.tolist(), result.kinds()
    ([-1], [None])
    """
    rules = as_rules(rules)
    return _outcome(_positions_array(positions), rules)


def _outcome(positions: np.ndarray, rules: Rules) -> OutcomeBatch:
    """:func:`outcome` of an ``int8[N, 2, 26]`` array (the kernel checks each item)."""
    count = len(positions)
    winner = np.empty(count, dtype=np.int8)
    value = np.empty(count, dtype=np.int8)
    kind = np.empty(count, dtype=np.int8)
    problem = _batch.outcome_batch(positions, rules.code, winner, value, kind)
    raise_first_problem(problem, rules, positions)
    return OutcomeBatch(winner, value, kind)


def shots(positions: BatchLike, rules: RulesLike = None, *, threads: int | None = None) -> np.ndarray:
    """For each position, how many of the 36 rolls give the mover a legal
    play that hits (``int8[N]``; 0 once the game is over).

    >>> from bansugoroku_fast import Position
    >>> shots(Position.initial().array[None], "backgammon")
    array([0], dtype=int8)
    """
    rules = as_rules(rules)
    positions = _positions_array(positions)
    result = np.empty(len(positions), dtype=np.int8)
    problem = _batch.shots_batch(positions, rules.code, _threads(threads), result)
    raise_first_problem(problem, rules, positions)
    return result


def blocked_points(positions: BatchLike) -> np.ndarray:
    """``bool[N, 25]``: ``[i, p]`` says the opponent holds the mover's point
    ``p`` (1..24) with two or more; column 0 is always False.

    >>> from bansugoroku_fast import Position
    >>> np.flatnonzero(blocked_points(Position.initial().array[None])[0]).tolist()
    [1, 12, 17, 19]
    """
    positions = _valid_positions(positions)
    mask = np.zeros((len(positions), 25), dtype=np.bool_)
    mask[:, 1:] = positions[:, 1, 24:0:-1] >= 2  # mover point p = opponent index 25 - p
    return mask


def blots(positions: BatchLike) -> np.ndarray:
    """``bool[N, 2, 25]``: ``[i, row, p]`` says ``row`` has exactly one stone
    on its point ``p`` (1..24, its own numbering); column 0 is always False."""
    positions = _valid_positions(positions)
    mask = np.zeros((len(positions), 2, 25), dtype=np.bool_)
    mask[:, :, 1:] = positions[:, :, 1:25] == 1
    return mask


def closure_holds(positions: BatchLike) -> np.ndarray:
    """``bool[N, 2]``: ``[i, side]`` says ``side``'s points 1..6 each hold
    two or more while the other side has a stone on the bar."""
    positions = _valid_positions(positions)
    home_held = (positions[:, :, 1:7] >= 2).all(axis=2)
    other_on_bar = positions[:, ::-1, 25] >= 1
    return home_held & other_on_bar


def pip_counts(positions: BatchLike) -> np.ndarray:
    """``int32[N, 2]``: each row's pip count (sum of point x stones, bar = 25).

    >>> from bansugoroku_fast import Position
    >>> pip_counts(Position.initial().array[None]).tolist()
    [[167, 167]]
    """
    return layout.pip_counts(_valid_positions(positions))
