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

from collections.abc import Iterable, Iterator
from typing import NamedTuple

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
    non_negative_int,
    positive_int,
)
from .errors import PolicyOutputError
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
    """Outcomes of a batch, one entry per position.

    Parameters
    ----------
    winner : numpy.ndarray
        ``int8[N]``: 0 = row 0, 1 = row 1, -1 while the game goes on.
    value : numpy.ndarray
        ``int8[N]``: the points won (0 while the game goes on).
    kind : numpy.ndarray
        ``int8[N]``: an index into :data:`OUTCOME_KINDS` (-1 while the game
        goes on).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> won = Position([[15] + [0] * 25, [0] * 19 + [15] + [0] * 6]).array   # O has all 15 in X's home
    >>> found = outcome(np.stack([Position.initial().array, won]), "backgammon")
    >>> found.winner.tolist(), found.value.tolist(), found.kinds()[1].value
    ([-1, 0], [0, 3], 'backgammon')
    """

    winner: np.ndarray
    value: np.ndarray
    kind: np.ndarray

    def kinds(self) -> list[OutcomeKind | None]:
        """``kind`` as :class:`OutcomeKind` values (None where the game goes on)."""
        return [OUTCOME_KINDS[k] if k >= 0 else None for k in self.kind.tolist()]


OutcomeBatch.winner.__doc__ = "``int8[N]``: 0 when row 0 has won, 1 when row 1 has, -1 while the game goes on."
OutcomeBatch.value.__doc__ = "``int8[N]``: the points won, 1, 2 or 3 (0 while the game goes on)."
OutcomeBatch.kind.__doc__ = "``int8[N]``: how it was won, an index into ``OUTCOME_KINDS`` (-1 while the game goes on)."


# --- plays -------------------------------------------------------------------------


def count_plays(positions: BatchLike, dice: BatchLike, rules: RulesLike = None, *,
                threads: int | None = None) -> np.ndarray:
    """The number of legal plays (distinct resulting positions) of each
    (position, roll); 0 for a pass or a finished game.

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        The positions, ``int8[N, 2, 26]`` in the interchange layout (row 0
        to move); another integer array is copied once.
    dice : ~bansugoroku_fast.typing.BatchLike
        The rolls, ``int8[N, 2]`` (one per position) or ``[[a, b]]`` (one
        roll for all).
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.
    threads : int or None
        The threads to run on, 1..:data:`~bansugoroku_fast.checks.MAX_THREADS`;
        None for every core. The result does not depend on it.

    Returns
    -------
    numpy.ndarray
        ``int32[N]``, the counts.

    Raises
    ------
    InvalidPositionError
        The positions are not an integer array of shape ``(N, 2, 26)``, or
        an item is not a position (the error names the first by its index).
    InvalidDiceError
        The dice are not of shape ``(N, 2)`` or ``(1, 2)``, or a roll is not
        two integers in 1..6 (the first is named by its index).
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        ``threads`` is not None or an integer in 1..MAX_THREADS.

    Examples
    --------
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> count_plays(Position.initial().array[None], [[2, 1]], "backgammon")
    array([15], dtype=int32)
    """
    return _kernel.count(as_items(positions, dice, rules, threads))[0]


def generate_plays(positions: BatchLike, dice: BatchLike, rules: RulesLike = None, *,
                   threads: int | None = None, fields: Iterable[str] = FIELDS,
                   out: PlayBatch | None = None) -> PlayBatch:
    """Every legal play of each (position, roll), as a :class:`PlayBatch`.

    The plays of item ``i`` are rows ``offsets[i]:offsets[i + 1]`` of the
    fields, in the order of :func:`~bansugoroku_fast.legal_plays`.

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        The positions, ``int8[N, 2, 26]`` in the interchange layout (row 0
        to move); another integer array is copied once.
    dice : ~bansugoroku_fast.typing.BatchLike
        The rolls, ``int8[N, 2]`` (one per position) or ``[[a, b]]`` (one
        roll for all).
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.
    threads : int or None
        The threads to run on, 1..:data:`~bansugoroku_fast.checks.MAX_THREADS`;
        None for every core. The result does not depend on it.
    fields : Iterable of str
        What to write, any of :data:`FIELDS` with ``"children"`` among them
        (the others are None in the result): children alone is what
        analysis and rollouts read, and costs less.
    out : PlayBatch or None
        Preallocated buffers (offsets with room for N + 1, the fields asked
        for with room for every play; see :func:`play_buffers`): the result
        is then views of them, valid until they are written again, and
        nothing of the size of the output is allocated. None for fresh
        arrays.

    Returns
    -------
    PlayBatch
        ``offsets`` (``int64[N + 1]``), ``children`` (``int8[M, 2, 26]``,
        each with the other side to move), and ``steps``, ``dice``,
        ``hits`` where asked for.

    Raises
    ------
    InvalidPositionError
        The positions are not an integer array of shape ``(N, 2, 26)``, or
        an item is not a position (the error names the first by its index).
    InvalidDiceError
        The dice are not of shape ``(N, 2)`` or ``(1, 2)``, or a roll is not
        two integers in 1..6 (the first is named by its index).
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        ``threads`` or ``fields`` is not one of the accepted values, or a
        buffer of ``out`` is too small or of the wrong shape or dtype
        (``ArgumentTypeError`` when ``out`` is not a :class:`PlayBatch`).

    Examples
    --------
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
    """Empty buffers for ``generate_plays(..., out=...)``.

    ``generate_plays`` makes its fresh output here too. The offsets and the
    fields' rows are C-contiguous views of one allocation (one large block,
    which the OS backs with huge pages where it can: fresh output faults in
    far fewer pages); it lives as long as any of them does (keep a copy of
    the offsets alone, not the view, to let the rest go), and is then kept
    for a later call's output (see :func:`set_output_recycling`).

    Parameters
    ----------
    items : int
        The positions the buffers have room for (the offsets get
        ``items + 1``).
    plays : int
        The plays the fields have room for.
    fields : Iterable of str
        What to write, any of :data:`FIELDS` with ``"children"`` among them
        (the others are None in the result): children alone is what
        analysis and rollouts read, and costs less.

    Returns
    -------
    PlayBatch
        The buffers, uninitialised; the fields not named are None.

    Raises
    ------
    InvalidArgumentError
        ``items`` or ``plays`` is not an integer >= 0, or ``fields`` names
        something else than the fields or leaves out ``"children"``.

    Examples
    --------
    >>> buffers = play_buffers(10, 1000, fields=("children",))
    >>> buffers.offsets.shape, buffers.children.shape, buffers.steps
    ((11,), (1000, 2, 26), None)
    """
    return _kernel.play_buffers(non_negative_int(items, "items"), non_negative_int(plays, "plays"), as_fields(fields))


def set_output_recycling(limit_bytes: int) -> int:
    """Keep at most ``limit_bytes`` of released output for reuse.

    The output blocks of :func:`generate_plays` and :func:`play_buffers`
    of 1 MiB or more are kept once no array views them any more, and a
    later call of about the same size writes into one instead of fresh
    memory, which the OS would zero page by page on the first write (for
    50,000 Ban-sugoroku items, 40 MB of children, that costs more than the
    plays themselves). Each call still returns arrays that share nothing
    with any array alive. The price is memory: up to the limit stays
    allocated after the results are dropped.

    Parameters
    ----------
    limit_bytes : int
        The most to keep (256 MiB until changed); 0 keeps none and frees
        what is kept now.

    Returns
    -------
    int
        The previous limit.

    Raises
    ------
    InvalidArgumentError
        ``limit_bytes`` is not an integer >= 0.

    Examples
    --------
    >>> previous = set_output_recycling(0)      # every call's output from the OS
    >>> set_output_recycling(previous)
    0
    """
    return _kernel.set_recycling(non_negative_int(limit_bytes, "limit_bytes"))


def iter_plays(positions: BatchLike, dice: BatchLike, rules: RulesLike = None, *, chunk_size: int = CHUNK_SIZE,
               threads: int | None = None, reuse: bool = False,
               fields: Iterable[str] = FIELDS) -> Iterator[tuple[int, PlayBatch]]:
    """:func:`generate_plays` chunk by chunk, holding one chunk's children
    at a time.

    Shapes and types are checked at the call; each item when its chunk is
    generated (in the same pass that reads it, so a caller changing the
    arrays meanwhile cannot slip a bad item past the check).

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        The positions, ``int8[N, 2, 26]`` in the interchange layout (row 0
        to move); another integer array is copied once.
    dice : ~bansugoroku_fast.typing.BatchLike
        The rolls, ``int8[N, 2]`` (one per position) or ``[[a, b]]`` (one
        roll for all).
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.
    chunk_size : int
        The positions per chunk.
    threads : int or None
        The threads to run on, 1..:data:`~bansugoroku_fast.checks.MAX_THREADS`;
        None for every core. The result does not depend on it.
    reuse : bool
        Write every chunk into the same output memory (as
        ``generate_plays(..., out=...)`` writes): a yielded batch is then
        valid only until the next one is asked for, so copy what you keep.
        Without it each chunk is new arrays, whose memory is recycled once
        you drop them (:func:`set_output_recycling`), so that neither way
        pays the OS for fresh pages chunk after chunk.
    fields : Iterable of str
        What to write, any of :data:`FIELDS` with ``"children"`` among them
        (the others are None in the result): children alone is what
        analysis and rollouts read, and costs less.

    Yields
    ------
    tuple of (int, PlayBatch)
        ``(start, batch)``: ``batch`` holds the plays of items
        ``start:start + chunk_size`` (its offsets count from 0).

    Raises
    ------
    InvalidPositionError
        The positions are not an integer array of shape ``(N, 2, 26)``, or
        an item is not a position (the error names the first by its index).
        An item's error is raised from ``next()``, naming its index in the
        whole input.
    InvalidDiceError
        The dice are not of shape ``(N, 2)`` or ``(1, 2)``, or a roll is not
        two integers in 1..6 (the first is named by its index).
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        ``chunk_size`` is not a positive integer, or ``threads`` or
        ``fields`` is not one of the accepted values.

    Examples
    --------
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
    """The outcome of each position: who has won, how and for how much.

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        The positions, ``int8[N, 2, 26]`` in the interchange layout (row 0
        to move).
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.

    Returns
    -------
    OutcomeBatch
        ``winner``, ``value`` and ``kind``, ``int8[N]`` each (-1, 0 and -1
        where the game goes on).

    Raises
    ------
    InvalidPositionError
        The positions are not an integer array of shape ``(N, 2, 26)``, or
        an item is not a position (the error names the first by its index).
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> result = outcome(Position.initial().array[None])
    >>> result.winner.tolist(), result.kinds()
    ([-1], [None])
    """
    return OutcomeBatch(*_kernel.outcomes(as_positions_array(positions), as_rules(rules)))


def shots(positions: BatchLike, rules: RulesLike = None, *, threads: int | None = None) -> np.ndarray:
    """For each position, how many of the 36 rolls give the mover a legal
    play that hits (non-doubles count twice; 0 once the game is over).

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        The positions, ``int8[N, 2, 26]`` in the interchange layout (row 0
        to move).
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.
    threads : int or None
        The threads to run on, 1..:data:`~bansugoroku_fast.checks.MAX_THREADS`;
        None for every core. The result does not depend on it.

    Returns
    -------
    numpy.ndarray
        ``int8[N]``, the hitting rolls, 0 to 36.

    Raises
    ------
    InvalidPositionError
        The positions are not an integer array of shape ``(N, 2, 26)``, or
        an item is not a position (the error names the first by its index).
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        ``threads`` is not None or an integer in 1..MAX_THREADS.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> shots(Position.initial().array[None], "backgammon")
    array([0], dtype=int8)
    """
    return _kernel.shots_batch(as_positions_array(positions), as_rules(rules), as_threads(threads))


def blocked_points(positions: BatchLike) -> np.ndarray:
    """Which of the mover's points the opponent holds with two or more.

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        The positions, ``int8[N, 2, 26]`` in the interchange layout (row 0
        to move).

    Returns
    -------
    numpy.ndarray
        ``bool[N, 25]``: ``[i, p]`` says the opponent holds the mover's
        point ``p`` (1..24); column 0 is always False.

    Raises
    ------
    InvalidPositionError
        The positions are not an integer array of shape ``(N, 2, 26)``, or
        an item is not a position (the error names the first by its index).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> np.flatnonzero(blocked_points(Position.initial().array[None])[0]).tolist()
    [1, 12, 17, 19]
    """
    positions = as_valid_positions(positions)
    mask = np.zeros((len(positions), 25), dtype=np.bool_)
    mask[:, 1:] = positions[:, 1, 24:0:-1] >= 2  # mover point p = opponent index 25 - p
    return mask


def blots(positions: BatchLike) -> np.ndarray:
    """Which points of each side hold exactly one stone.

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        The positions, ``int8[N, 2, 26]`` in the interchange layout (row 0
        to move).

    Returns
    -------
    numpy.ndarray
        ``bool[N, 2, 25]``: ``[i, row, p]`` says ``row`` has exactly one
        stone on its point ``p`` (1..24, its own numbering); column 0 is
        always False.

    Raises
    ------
    InvalidPositionError
        The positions are not an integer array of shape ``(N, 2, 26)``, or
        an item is not a position (the error names the first by its index).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> position = Position.initial().array.copy()
    >>> position[0, 24], position[0, 23] = 1, 1         # split the back checkers
    >>> np.flatnonzero(blots(position[None])[0, 0]).tolist()
    [23, 24]
    """
    positions = as_valid_positions(positions)
    mask = np.zeros((len(positions), 2, 25), dtype=np.bool_)
    mask[:, :, 1:] = positions[:, :, 1:25] == 1
    return mask


def closure_holds(positions: BatchLike) -> np.ndarray:
    """For each position and side, whether that side's home is closed (its
    points 1..6 each hold two or more) while the other side is on the bar.

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        The positions, ``int8[N, 2, 26]`` in the interchange layout (row 0
        to move).

    Returns
    -------
    numpy.ndarray
        ``bool[N, 2]``: ``[i, side]``, side 0 being row 0.

    Raises
    ------
    InvalidPositionError
        The positions are not an integer array of shape ``(N, 2, 26)``, or
        an item is not a position (the error names the first by its index).

    Examples
    --------
    >>> closed = np.zeros((2, 26), dtype=np.int8)
    >>> closed[0, 1:7] = [2, 2, 2, 3, 3, 3]; closed[1, 25] = 1; closed[1, 1] = 14
    >>> closure_holds(closed[None]).tolist()
    [[True, False]]
    """
    positions = as_valid_positions(positions)
    home_held = (positions[:, :, 1:7] >= 2).all(axis=2)
    other_on_bar = positions[:, ::-1, 25] >= 1
    return home_held & other_on_bar


def pip_counts(positions: BatchLike) -> np.ndarray:
    """Each row's pip count: the sum of point x stones, the bar counting 25.

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        The positions, ``int8[N, 2, 26]`` in the interchange layout (row 0
        to move).

    Returns
    -------
    numpy.ndarray
        ``int32[N, 2]``: row 0's count, then row 1's.

    Raises
    ------
    InvalidPositionError
        The positions are not an integer array of shape ``(N, 2, 26)``, or
        an item is not a position (the error names the first by its index).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> pip_counts(Position.initial().array[None]).tolist()
    [[167, 167]]
    """
    return layout.pip_counts(as_valid_positions(positions))


def features(positions: BatchLike, rules: RulesLike = None) -> np.ndarray:
    """The features of each position, as the linear policies and the
    simple evaluators read them.

    Row 0's side comes first, then row 1's; names in
    :data:`~bansugoroku_fast.scoring.FEATURE_NAMES`, definitions in
    ``oracle.features.side_features``. Every value is an integer.

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        The positions, ``int8[N, 2, 26]`` in the interchange layout (row 0
        to move).
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.

    Returns
    -------
    numpy.ndarray
        ``float32[N, F]``, one row of features per position.

    Raises
    ------
    InvalidPositionError
        The positions are not an integer array of shape ``(N, 2, 26)``, or
        an item is not a position (the error names the first by its index).
        A position is also refused when it cannot arise under the rules.
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> from bansugoroku_fast.scoring import FEATURE_NAMES
    >>> values = features(Position.initial().array[None], "backgammon")
    >>> values.shape, values.dtype, dict(zip(FEATURE_NAMES, values[0].tolist()))["own_pips"]
    ((1, 28), dtype('float32'), 167.0)
    """
    rules = as_rules(rules)
    return _kernel.features(as_checked_positions(positions, rules), rules)


def segment_argmax(scores: np.ndarray, offsets: np.ndarray, *, game_ids: np.ndarray | None = None) -> np.ndarray:
    """The index, within each segment, of the greatest score (ties: the
    first); -1 for an empty segment.

    The segments are a batch's children as :func:`generate_plays` lays them
    out, so this picks a play per position from scores of its children (as a
    callable policy's scores are read: :mod:`bansugoroku_fast.games.policies`).
    Vectorised: a maximum per segment (``np.maximum.reduceat``), then the
    smallest local index holding it (``np.minimum.reduceat``).

    Parameters
    ----------
    scores : numpy.ndarray
        One score per child, ``float[M]`` (or integers).
    offsets : numpy.ndarray
        ``int[N + 1]``: segment ``i`` is ``scores[offsets[i]:offsets[i + 1]]``.
    game_ids : numpy.ndarray or None
        What to call each segment in an error (a game's number); None
        names segments by their index.

    Returns
    -------
    numpy.ndarray
        ``int64[N]``, the chosen index within each segment.

    Raises
    ------
    PolicyOutputError
        The scores are not one number per child, or one is NaN (neither
        greater nor smaller than anything): the error names the segment, or
        ``game_ids[segment]``.

    Examples
    --------
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
