"""The single-position functions, running on the Cython kernels.

Same signatures, results and errors as :mod:`bansugoroku_fast.oracle`; only
faster. A call checks its arguments, runs one kernel that fills one buffer,
and wraps that buffer: :func:`legal_plays` returns a :class:`Plays` sequence
that makes each :class:`Play` only when it is read, and a play reads its
steps and position from its record only when asked.

>>> from bansugoroku_fast import Position, Rules
>>> backgammon = Rules(variant="backgammon")
>>> plays = legal_plays(Position.initial(), (6, 5), backgammon)
>>> [str(play) for play in plays]
['24/13', '24/18 13/8', '24/18 8/3', '13/8 13/7', '13/2', '13/7 8/3', '8/3 8/2']
>>> plays[0].steps, plays[0].dice, plays[0].hits
(((24, 18), (18, 13)), (6, 5), (False, False))
>>> perft(Position.initial(), 1, backgammon)
447
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, SupportsIndex, overload

import numpy as np

from . import _kernel
from .checks import as_depth, as_dice, as_rules, as_side
from .notation import format_steps
from .play import OUTCOME_KINDS, Outcome, Play, Step
from .position import Position, as_position
from .position_id import encode_keys
from .rules import ALL_ROLLS, Rules
from .typing import DiceLike, PositionLike, RulesLike

__all__ = [
    "legal_plays", "legal_first_steps", "outcome", "shots", "blocked_points", "blots",
    "closure_holds", "pip_counts", "perft", "perft_divide", "legal_play_count", "ALL_ROLLS",
    "Plays",
]


_DEFAULT_RULES = Rules()

# Where the fields of a kernel play record are (see _KernelPlay).
_RECORD = _kernel.PLAY_RECORD
_RECORD_BYTES = _RECORD["bytes"]
_BOARD_START = _RECORD["board"]
_BOARD_BYTES = _RECORD["board_bytes"]
_NSTEPS = _RECORD["nsteps"]
_STEPS = _RECORD["steps"]
_STEP_BYTES = _RECORD["step_bytes"]


def _decoded(slot: str, decode: Callable[[_KernelPlay], None]) -> property:
    """A read-only property returning the slot ``slot``, filled by
    ``decode(self)`` on first access (the kernel makes the play with the
    slot None; no decoded value is None)."""
    fetch = attrgetter(slot)

    def get(self: _KernelPlay) -> object:
        value = fetch(self)
        if value is None:
            decode(self)
            value = fetch(self)
        return value

    return property(get)


class _KernelPlay(Play):
    """A :class:`Play` over one kernel record, decoded on first access.

    Behaves exactly like a Play built from its values (equality, hashing,
    ``str``); its record is record ``_index`` of the bytes ``_records`` (the
    records of its :class:`Plays`): the board bytes, the step count, then
    ``(origin, target, die, hit)`` per step (``_kernel.PLAY_RECORD``).
    The kernel creates these without calling ``__init__``, the slots they
    decode into None (see ``_kernel.set_play_class``).
    """

    __slots__ = ("_records", "_index")
    _records: bytes
    _index: int

    def _decode_steps(self) -> None:
        records, start = self._records, self._index * _RECORD_BYTES
        first_step = start + _STEPS
        fields = range(first_step, first_step + _STEP_BYTES * records[start + _NSTEPS], _STEP_BYTES)
        self._steps = tuple((records[i], records[i + 1]) for i in fields)
        self._dice = tuple(records[i + 2] for i in fields)
        self._hits = tuple(records[i + 3] == 1 for i in fields)

    def _decode_position(self) -> None:
        board = self._index * _RECORD_BYTES + _BOARD_START
        self._position = Position._from_key(self._records[board:board + _BOARD_BYTES])

    steps = _decoded("_steps", _decode_steps)
    dice = _decoded("_dice", _decode_steps)
    hits = _decoded("_hits", _decode_steps)
    position = _decoded("_position", _decode_position)


#: The slots a play decodes on first read (Play's own), None until then.
_DECODED_SLOTS = ("_steps", "_dice", "_hits", "_position")
_kernel.set_play_class(_KernelPlay, _DECODED_SLOTS)


class Plays(_kernel.PlayRecords, Sequence[Play]):  # type: ignore[misc]
    """What :func:`legal_plays` returns: an immutable sequence of its plays,
    each :class:`Play` made when it is read (``len`` makes none).

    It behaves as the list of its plays: indexing (negative too; a slice
    gives a list), iteration, ``in``, ``index``, ``count``, ``reversed``,
    ``repr``, and equality with that list; it is not hashable, and it
    pickles as a list. Reading an item twice gives equal plays, not the
    same object; ``list(plays)`` keeps them.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> plays = legal_plays(Position.initial(), (6, 5), "backgammon")
    >>> len(plays), plays[-1], plays[1:3]
    (7, <Play 8/3 8/2>, [<Play 24/18 13/8>, <Play 24/18 8/3>])
    >>> plays == list(plays), plays[0] == plays[0]
    (True, True)
    """

    __slots__ = ()

    def boards(self) -> np.ndarray:
        """``int8[len(self), 2, 26]``: every play's resulting board (row 0
        still the side that moved), read at once from the records, without
        making a play or a :class:`Position`: what a caller that wants the
        positions as an array (to score or encode them) needs.

        >>> from bansugoroku_fast import Position
        >>> plays = legal_plays(Position.initial(), (6, 5), "backgammon")
        >>> boards = plays.boards()
        >>> boards.shape, bool((boards[0] == plays[0].position.array).all())
        ((7, 2, 26), True)
        """
        records = np.frombuffer(self.records, dtype=np.uint8)[:len(self) * _RECORD_BYTES]
        rows = records.reshape(len(self), _RECORD_BYTES)[:, _BOARD_START:_BOARD_START + _BOARD_BYTES]
        boards: np.ndarray = rows.view(np.int8).reshape(len(self), 2, 26).copy()
        return boards

    def _record_starts(self) -> range:
        return range(0, len(self) * _RECORD_BYTES, _RECORD_BYTES)

    def position_ids(self, *, swapped: bool = False) -> list[str]:
        """Every play's resulting position as a Position ID, read at once
        from the records without making a play or a :class:`Position`:
        ``play.position.id`` for each play, or with ``swapped``
        ``play.position.swapped().id``, the position as the side then on
        roll sees it (what a program asking for the plays wants back).

        >>> from bansugoroku_fast import Position
        >>> plays = legal_plays(Position.initial(), (6, 5), "backgammon")
        >>> plays.position_ids()[0] == plays[0].position.id
        True
        >>> plays.position_ids(swapped=True)[0] == plays[0].position.swapped().id
        True
        """
        records = np.frombuffer(self.records, dtype=np.uint8)[:len(self) * _RECORD_BYTES]
        boards = records.reshape(len(self), _RECORD_BYTES)[:, _BOARD_START:_BOARD_START + _BOARD_BYTES]
        return encode_keys(boards, swapped=swapped)

    def notations(self) -> list[str]:
        """Every play's GNU Backgammon notation (``str(play)``), read from
        the records without making a play; each distinct step list is
        written once and remembered (the same few thousand recur).

        >>> from bansugoroku_fast import Position
        >>> legal_plays(Position.initial(), (6, 5), "backgammon").notations()[:3]
        ['24/13', '24/18 13/8', '24/18 8/3']
        """
        records = self.records
        out = []
        for start in self._record_starts():
            first_step = start + _STEPS
            out.append(_notation(records[first_step:first_step + _STEP_BYTES * records[start + _NSTEPS]]))
        return out

    if TYPE_CHECKING:  # the plays' type, for the type checker (PlayRecords holds any class)
        def __iter__(self) -> Iterator[Play]: ...

        @overload
        def __getitem__(self, index: SupportsIndex) -> Play: ...

        @overload
        def __getitem__(self, index: slice) -> list[Play]: ...

        def __getitem__(self, index: SupportsIndex | slice) -> Play | list[Play]: ...


@functools.lru_cache(maxsize=1 << 16)
def _notation(steps: bytes) -> str:
    """The notation of a play whose record holds the step fields ``steps``
    (``(origin, target, die, hit)`` per step)."""
    fields = range(0, len(steps), _STEP_BYTES)
    return format_steps([(steps[i], steps[i + 1]) for i in fields], [steps[i + 3] == 1 for i in fields])


def _prepare(position: PositionLike, rules: RulesLike) -> tuple[bytes, object, Rules]:
    """The 52 bytes the kernels read, what to name the position by in an
    error, and a canonical Rules. An ``int8[2, 26]`` array (a row of a numpy
    batch) goes to the kernel as its bytes, with no Position made: the kernel
    checks every position it reads, and the error then names the problem as
    ``Position`` would."""
    named: object
    if type(position) is Position:
        key, named = position._key, position
    elif type(position) is np.ndarray and position.dtype is _INT8 and position.shape == _SHAPE:  # `is`: == costs more
        key, named = position.tobytes(), position
    else:
        named = as_position(position)
        key = named._key
    if rules is None:
        rules = _DEFAULT_RULES
    elif type(rules) is not Rules:
        try:
            rules = as_rules(rules)
        except (ValueError, TypeError):
            as_position(named)  # a bad position is named first, as everywhere
            raise
    return key, named, rules


_INT8 = np.dtype(np.int8)
_SHAPE = (2, 26)


def _dice(dice: DiceLike) -> tuple[int, int]:
    """The two dice: tuples of ints and numpy rolls (``int[2]``) without
    the general checks of :func:`~bansugoroku_fast.checks.as_dice`."""
    if type(dice) is np.ndarray:
        dice = tuple(dice.tolist())  # ints from integer arrays; anything else fails the test below
    if type(dice) is tuple and len(dice) == 2:
        a, b = dice
        if type(a) is int and type(b) is int and 1 <= a <= 6 and 1 <= b <= 6:
            return a, b
    return as_dice(dice)


# The common argument forms (a Position or an int8[2, 26] array, a tuple or
# list of two ints, None, a Rules or a label) are read by the kernel in the
# same call that searches: legal_plays then runs no Python but its own line.
_kernel.set_quick_forms(Position, np.ndarray, Rules, _DEFAULT_RULES, as_rules, Plays)
_quick_plays = _kernel.quick_plays


def legal_plays(position: PositionLike, dice: DiceLike, rules: RulesLike = None, *,
                all_orderings: bool = False) -> Plays:
    """The legal plays of ``position`` (row 0 to move) with ``dice``.

    One play per distinct resulting position, with its canonical step list
    (the greatest ``(from, to, die)`` key among the legal orders reaching
    it), sorted by that key, greatest first. An empty list is a pass, or a
    game already over (see :func:`outcome`).

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`Position`, a GNU Backgammon
        Position ID or an ``int8[2, 26]`` array.
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll: a pair of integers in 1..6 or text such as ``"6-5"``.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules`, its label (``"backgammon"``), or None for
        Ban-sugoroku with every option at its default.
    all_orderings : bool
        One play per distinct legal order of the moves instead of one per
        resulting position.

    Returns
    -------
    Plays
        The plays, a sequence that behaves as the list of them (``len``,
        indexing, slices, iteration) and makes each :class:`Play` only
        when it is read.

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules (stone counts, shared points).
    InvalidDiceError
        The dice are not a roll.
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that
        is not a :class:`Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position, Rules
    >>> [str(p) for p in legal_plays(Position.initial(), (1, 1), Rules())][:4]
    ['24/23(2)', '24/22', '24/23 8/7', '24/23 6/5']
    >>> len(legal_plays(Position.initial(), "6-5", "backgammon", all_orderings=True))
    14
    """
    plays = _quick_plays(position, dice, rules, all_orderings)
    if plays is None:   # an argument of a rarer form, or bad input: checked in full, the error named
        pair = _dice(dice)
        key, named, rules = _prepare(position, rules)
        plays = _kernel.plays(key, pair, rules, all_orderings, Plays, named)
    return plays  # type: ignore[no-any-return]


def legal_play_count(position: PositionLike, dice: DiceLike, rules: RulesLike = None, *,
                     fast_counts: bool = True) -> int:
    """``len(legal_plays(position, dice, rules))`` without building the plays
    (the batch :func:`~bansugoroku_fast.batch.count_plays` counts many).

    ``fast_counts=False`` counts by search alone, without the closed forms
    (for tests that hold the two against each other).

    >>> legal_play_count("4HPwATDgc/ABMA", (1, 1), "backgammon")
    42
    """
    pair = _dice(dice)
    key, named, rules = _prepare(position, rules)
    return _kernel.count_roll_plays(key, pair, rules, named, fast_counts=fast_counts)


def legal_first_steps(position: PositionLike, dice: DiceLike, rules: RulesLike = None) -> list[Step]:
    """The single moves that start some legal play, greatest
    ``(origin, target, die)`` first.

    A move that would leave a die unplayable is never offered, so a program
    that lets a person play one stone at a time can offer exactly these.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`Position`, a GNU Backgammon
        Position ID or an ``int8[2, 26]`` array.
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll: a pair of integers in 1..6 or text such as ``"6-5"``.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules`, its label (``"backgammon"``), or None for
        Ban-sugoroku with every option at its default.

    Returns
    -------
    list of Step
        The first moves, empty when the roll has no play.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).
    InvalidDiceError
        The dice are not a roll.
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that
        is not a :class:`Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position, Rules
    >>> [str(step) for step in legal_first_steps(Position.initial(), (6, 5), Rules())]
    ['24/18', '13/8', '13/7', '8/3', '8/2']
    """
    pair = _dice(dice)
    key, named, rules = _prepare(position, rules)
    return [Step(*step) for step in _kernel.first_steps(key, pair, rules, named)]


def outcome(position: PositionLike, rules: RulesLike = None) -> Outcome | None:
    """Who has won in ``position``, how and for how much; None while the
    game goes on.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`Position`, a GNU Backgammon
        Position ID or an ``int8[2, 26]`` array.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules`, its label (``"backgammon"``), or None for
        Ban-sugoroku with every option at its default.

    Returns
    -------
    Outcome or None
        The winner (0 = row 0), the points won (1, 2 or 3) and how
        (``kind``, an :class:`OutcomeKind` value); None when nobody has won
        yet.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that
        is not a :class:`Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> outcome(Position.initial()) is None
    True
    >>> won = [[0] * 26, [0] * 26]
    >>> won[0][1:7] = [2, 2, 2, 3, 3, 3]; won[1][25] = 1; won[1][1] = 14
    >>> outcome(won)
    Outcome(winner=0, value=3, kind='closed-home-x3')
    """
    key, named, rules = _prepare(position, rules)
    result = _kernel.outcome(key, rules, named)
    if result is None:
        return None
    winner, value, kind = result
    return Outcome(winner, value, OUTCOME_KINDS[kind])


def shots(position: PositionLike, rules: RulesLike = None) -> int:
    """How many of the 36 rolls give the mover a legal play that hits.

    Non-doubles count twice, as they come twice in 36; a finished game has
    no shots.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`Position`, a GNU Backgammon
        Position ID or an ``int8[2, 26]`` array.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules`, its label (``"backgammon"``), or None for
        Ban-sugoroku with every option at its default.

    Returns
    -------
    int
        The hitting rolls, 0 to 36.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that
        is not a :class:`Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> shots(Position.initial(), "backgammon")
    0
    """
    key, named, rules = _prepare(position, rules)
    return _kernel.shots(key, rules, named)


def _facts(position: PositionLike) -> tuple[int, int, int, int]:
    """The kernel's masks of ``position`` (see ``_kernel.board_facts``)."""
    position = as_position(position)
    return _kernel.board_facts(position.key, position)


def _points(mask: int) -> tuple[int, ...]:
    """The points 1..24 whose bit is set in ``mask``."""
    return tuple(point for point in range(1, 25) if mask >> point & 1)


def blocked_points(position: PositionLike) -> tuple[int, ...]:
    """The mover's points (1..24) that the opponent holds with two or more.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`Position`, a GNU Backgammon
        Position ID or an ``int8[2, 26]`` array.

    Returns
    -------
    tuple of int
        The blocked points in the mover's numbering, ascending.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> blocked_points(Position.initial())
    (1, 12, 17, 19)
    """
    return _points(_facts(position)[0])


def blots(position: PositionLike) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Points holding exactly one stone: ``(mover's, opponent's)``.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`Position`, a GNU Backgammon
        Position ID or an ``int8[2, 26]`` array.

    Returns
    -------
    tuple of (tuple of int, tuple of int)
        The mover's blots and the opponent's, each side in its own
        numbering (1..24), ascending.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> blots(Position.initial())
    ((), ())
    """
    _, mover, opponent, _ = _facts(position)
    return _points(mover), _points(opponent)


def closure_holds(position: PositionLike, side: int = 0) -> bool:
    """Whether ``side``'s home is closed while the other side is on the bar.

    A closed home: each of the side's points 1..6 holds two or more stones.
    Ban-sugoroku's ``closure`` rule multiplies a win on it or ends the game
    at once.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`Position`, a GNU Backgammon
        Position ID or an ``int8[2, 26]`` array.
    side : int
        0 for row 0 (the mover), 1 for row 1.

    Returns
    -------
    bool
        True when the home is closed and the other side has a stone on the
        bar.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).
    InvalidArgumentError
        ``side`` is not 0 or 1.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> closure_holds(Position.initial())
    False
    """
    return bool(_facts(position)[3] >> as_side(side) & 1)


def pip_counts(position: PositionLike) -> tuple[int, int]:
    """The two sides' pip counts: the sum of point x stones, the bar
    counting 25.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`Position`, a GNU Backgammon
        Position ID or an ``int8[2, 26]`` array.

    Returns
    -------
    tuple of (int, int)
        ``(mover, opponent)``.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> pip_counts(Position.initial())
    (167, 167)
    """
    return as_position(position).pip_counts


def perft(position: PositionLike, depth: int, rules: RulesLike = None) -> int:
    """Leaf count of the play tree ``depth`` plies deep over the 21 rolls.

    A roll with no play counts as one node, and so does a finished game: the
    count checks move generation against other programs (as chess engines'
    perft does).

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`Position`, a GNU Backgammon
        Position ID or an ``int8[2, 26]`` array.
    depth : int
        The plies, 0 or more (0 counts the position itself).
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules`, its label (``"backgammon"``), or None for
        Ban-sugoroku with every option at its default.

    Returns
    -------
    int
        The leaves of the tree.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).
    InvalidArgumentError
        ``depth`` is not an integer >= 0.
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that
        is not a :class:`Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> perft(Position.initial(), 2, "backgammon")
    202782
    """
    key, named, rules = _prepare(position, rules)
    depth = as_depth(depth, 0)
    return _kernel.perft(key, depth, rules, named)


def perft_divide(position: PositionLike, depth: int, rules: RulesLike = None) -> dict[tuple[int, int], int]:
    """:func:`perft` split by the first roll.

    Rolls are ordered as the oracle orders them (6-6, 6-5, ..., 1-1), so
    the two implementations' counts can be compared roll by roll.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`Position`, a GNU Backgammon
        Position ID or an ``int8[2, 26]`` array.
    depth : int
        The plies, 1 or more, the first roll's included.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules`, its label (``"backgammon"``), or None for
        Ban-sugoroku with every option at its default.

    Returns
    -------
    dict of (int, int) to int
        ``{(a, b): count}`` over the 21 rolls; empty for a finished game.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).
    InvalidArgumentError
        ``depth`` is not an integer >= 1.
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that
        is not a :class:`Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> divide = perft_divide(Position.initial(), 1, "backgammon")
    >>> divide[(6, 5)], divide[(1, 1)], divide[(5, 5)], sum(divide.values())
    (7, 42, 4, 447)
    """
    key, named, rules = _prepare(position, rules)
    depth = as_depth(depth, 1)
    if outcome(position, rules) is not None:
        return {}  # a finished game has no rolls to split by (its perft is 1)
    return {
        roll: _kernel.perft(key, depth, rules, named, roll)
        for roll in ALL_ROLLS
    }
