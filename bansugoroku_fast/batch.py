"""The batch API: legal plays and rule queries over numpy arrays of positions.

Positions are ``int8[N, 2, 26]`` in the interchange layout (row 0 = side to
move), dice ``int8[N, 2]`` (one roll per position, or one roll for all). The
kernels run without the GIL, over ``threads`` threads (``None`` = every
core, at most :data:`~bansugoroku_fast.checks.MAX_THREADS`): the calling thread and threads of a
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

import numbers
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import numpy as np

from . import _kernel, layout
from ._kernel import FIELDS, KERNEL_BUILD, PlayBatch, idle_spin, set_idle_spin
from .checks import (
    as_checked_positions,
    as_fields,
    as_items,
    as_positions_array,
    as_rules,
    as_threads,
    as_valid_positions,
    positive_int,
)
from .errors import InvalidArgumentError, PolicyOutputError
from .play import OUTCOME_KINDS, OutcomeKind
from .typing import BatchLike, RulesLike

__all__ = [
    "PlayBatch", "OutcomeBatch", "FIELDS", "count_plays", "generate_plays", "play_buffers",
    "set_output_recycling", "set_idle_spin", "idle_spin", "KERNEL_BUILD",
    "iter_plays", "outcome",
    "blocked_points", "blots", "closure_holds", "pip_counts", "shots", "features", "OUTCOME_KINDS",
    "segment_argmax",
]

#: Default number of positions per chunk of :func:`iter_plays`.
CHUNK_SIZE = 8192  # small enough that freed outputs are reused, not fresh pages


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


# --- plays -------------------------------------------------------------------------


def count_plays(positions: BatchLike, dice: BatchLike, rules: RulesLike = None, *,
                threads: int | None = None) -> np.ndarray:
    """The number of legal plays (distinct resulting positions) of each
    (position, roll) as ``int32[N]``; 0 for a pass or a finished game.

    ``threads``: None (every CPU) or 1..:data:`~bansugoroku_fast.checks.MAX_THREADS`. A bad item
    raises :class:`~bansugoroku_fast.errors.InvalidPositionError` or
    :class:`~bansugoroku_fast.errors.InvalidDiceError` naming the first.

    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> count_plays(Position.initial().array[None], [[2, 1]], "backgammon")
    array([15], dtype=int32)
    """
    return _kernel.count(as_items(positions, dice, rules, threads))[0]


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
    return _kernel.generate(as_items(positions, dice, rules, threads), as_fields(fields), out)


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
    return _kernel.play_buffers(items, plays, as_fields(fields))


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
        raise InvalidArgumentError(f"limit_bytes must be an integer >= 0, got {limit_bytes!r}")
    return _kernel.set_recycling(int(limit_bytes))


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
    items = as_items(positions, dice, rules, threads)
    wanted = as_fields(fields)
    chunk_size = positive_int(chunk_size, "chunk_size")
    arena = _kernel.OutputArena(wanted) if reuse else None

    def chunks() -> Iterator[tuple[int, PlayBatch]]:
        for start in range(0, len(items.positions), chunk_size):
            yield start, _kernel.generate(items.chunk(start, start + chunk_size), wanted, arena=arena)

    return chunks()


# --- queries -------------------------------------------------------------------------


def outcome(positions: BatchLike, rules: RulesLike = None) -> OutcomeBatch:
    """The outcome of each position, as an :class:`OutcomeBatch`.

    >>> from bansugoroku_fast import Position
    >>> result = outcome(Position.initial().array[None])
    >>> result.winner.tolist(), result.kinds()
    ([-1], [None])
    """
    return OutcomeBatch(*_kernel.outcomes(as_positions_array(positions), as_rules(rules)))


def shots(positions: BatchLike, rules: RulesLike = None, *, threads: int | None = None) -> np.ndarray:
    """For each position, how many of the 36 rolls give the mover a legal
    play that hits (``int8[N]``; 0 once the game is over).

    >>> from bansugoroku_fast import Position
    >>> shots(Position.initial().array[None], "backgammon")
    array([0], dtype=int8)
    """
    return _kernel.shots_batch(as_positions_array(positions), as_rules(rules), as_threads(threads))


def blocked_points(positions: BatchLike) -> np.ndarray:
    """``bool[N, 25]``: ``[i, p]`` says the opponent holds the mover's point
    ``p`` (1..24) with two or more; column 0 is always False.

    >>> from bansugoroku_fast import Position
    >>> np.flatnonzero(blocked_points(Position.initial().array[None])[0]).tolist()
    [1, 12, 17, 19]
    """
    positions = as_valid_positions(positions)
    mask = np.zeros((len(positions), 25), dtype=np.bool_)
    mask[:, 1:] = positions[:, 1, 24:0:-1] >= 2  # mover point p = opponent index 25 - p
    return mask


def blots(positions: BatchLike) -> np.ndarray:
    """``bool[N, 2, 25]``: ``[i, row, p]`` says ``row`` has exactly one stone
    on its point ``p`` (1..24, its own numbering); column 0 is always False."""
    positions = as_valid_positions(positions)
    mask = np.zeros((len(positions), 2, 25), dtype=np.bool_)
    mask[:, :, 1:] = positions[:, :, 1:25] == 1
    return mask


def closure_holds(positions: BatchLike) -> np.ndarray:
    """``bool[N, 2]``: ``[i, side]`` says ``side``'s points 1..6 each hold
    two or more while the other side has a stone on the bar."""
    positions = as_valid_positions(positions)
    home_held = (positions[:, :, 1:7] >= 2).all(axis=2)
    other_on_bar = positions[:, ::-1, 25] >= 1
    return home_held & other_on_bar


def pip_counts(positions: BatchLike) -> np.ndarray:
    """``int32[N, 2]``: each row's pip count (sum of point x stones, bar = 25).

    >>> from bansugoroku_fast import Position
    >>> pip_counts(Position.initial().array[None]).tolist()
    [[167, 167]]
    """
    return layout.pip_counts(as_valid_positions(positions))


def features(positions: Any, rules: Any = None) -> np.ndarray:
    """``float32[N, F]``: the features of each position (row 0's side, then
    row 1's; names in :data:`~bansugoroku_fast.scoring.FEATURE_NAMES`,
    definitions in ``oracle.features.side_features``). Every value is an integer.

    >>> from bansugoroku_fast import Position
    >>> from bansugoroku_fast.scoring import FEATURE_NAMES
    >>> values = features(Position.initial().array[None], "backgammon")
    >>> values.shape, values.dtype, dict(zip(FEATURE_NAMES, values[0].tolist()))["own_pips"]
    ((1, 28), dtype('float32'), 167.0)
    """
    rules = as_rules(rules)
    return _kernel.features(as_checked_positions(positions, rules), rules)


def segment_argmax(scores: np.ndarray, offsets: np.ndarray, *, game_ids: np.ndarray | None = None) -> np.ndarray:
    """``int64[N]``: the index, within each segment ``offsets[i]:offsets[i+1]``,
    of the greatest score (ties: the first); ``-1`` for an empty segment.
    The segments are a batch's children as :func:`generate_plays` lays them
    out, so this picks a play per position from scores of its children (as a
    callable policy's scores are read: :mod:`bansugoroku_fast.games.policies`).

    Vectorised: a maximum per segment (``np.maximum.reduceat``), then the
    smallest local index holding it (``np.minimum.reduceat``). NaN scores
    are refused (:class:`~bansugoroku_fast.errors.PolicyOutputError` naming
    the segment, or ``game_ids[segment]`` when given), since a NaN is
    neither greater nor smaller than anything.

    >>> segment_argmax(np.array([1.0, 1.0, 0.0]), np.array([0, 0, 2, 3]))
    array([-1,  0,  0])
    >>> segment_argmax(np.array([1.0, np.nan]), np.array([0, 1, 2]), game_ids=np.array([4, 7]))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.PolicyOutputError: the policy scored child 0 of game 7 as NaN
    """
    scores = np.asarray(scores)
    offsets = np.asarray(offsets, dtype=np.int64)
    counts = np.diff(offsets)
    if scores.ndim != 1 or len(scores) != offsets[-1]:
        raise PolicyOutputError(
            f"scores must be one number per child: {offsets[-1]} children, got shape {scores.shape}"
        )
    _refuse_nan(scores, offsets, game_ids)
    choices = np.full(len(counts), -1, dtype=np.int64)
    filled = counts > 0
    if not filled.any():
        return choices
    starts = offsets[:-1][filled]
    best = np.maximum.reduceat(scores, starts)
    local = np.arange(len(scores), dtype=np.int64) - np.repeat(offsets[:-1], counts)
    at_best = scores == np.repeat(best, counts[filled])
    choices[filled] = np.minimum.reduceat(np.where(at_best, local, len(scores)), starts)
    return choices


def _refuse_nan(scores: np.ndarray, offsets: np.ndarray, game_ids: np.ndarray | None) -> None:
    if scores.dtype.kind != "f":
        return
    nan = np.isnan(scores)
    if nan.any():
        child = int(np.argmax(nan))
        segment = int(np.searchsorted(offsets, child, side="right")) - 1
        game = segment if game_ids is None else int(game_ids[segment])
        raise PolicyOutputError(f"the policy scored child {child - offsets[segment]} of game {game} as NaN")
