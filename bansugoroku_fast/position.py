"""The position: an immutable value over the ``int8[2, 26]`` interchange layout.

Row 0 is the side to move, row 1 its opponent, each in its own numbering:
index 0 = stones borne off, 1..24 = points, 25 = bar. Point ``p`` of row 0 is
point ``25 - p`` of row 1.

>>> start = Position.initial()
>>> start.id
'4HPwATDgc/ABMA'
>>> start.pip_counts
(167, 167)
>>> Position.from_id("4HPwATDgc/ABMA") == start
True
>>> start.swapped() == start
True
>>> Position([[0] * 26, [0] * 26])
Traceback (most recent call last):
...
bansugoroku_fast.errors.InvalidPositionError: row 0 (side to move) holds 0 stones, not 15
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from . import _kernel, position_id, render
from ._kernel import as_int8_array
from .errors import InvalidPositionError
from .layout import pip_counts
from .typing import PositionLike, RulesLike

__all__ = ["INITIAL_ROW", "Position", "as_position"]

BoardArray = npt.NDArray[np.int8]  # int8[2, 26] (or a batch int8[N, 2, 26])

SHAPE = (2, 26)
_INT8 = np.dtype(np.int8)
#: The start position of both variants, one row (both rows are alike).
INITIAL_ROW = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def _frozen_if_valid(array: BoardArray) -> BoardArray:
    """``array`` (a fresh ``int8[2, 26]``) made read-only; raise if invalid."""
    problem = _kernel.first_invalid(array.reshape(1, *SHAPE))
    if problem is not None:
        raise InvalidPositionError(problem[1])
    array.flags.writeable = False
    return array


def validated_array(data: object) -> BoardArray:
    """A fresh read-only ``int8[2, 26]`` copy of ``data``; raise if invalid."""
    array = as_int8_array(data, shape_text="2 x 26", what="a position")
    if array.shape != SHAPE:
        raise InvalidPositionError(f"a position has shape (2, 26), got {array.shape}")
    return _frozen_if_valid(array.copy())


class Position:
    """An immutable, hashable position; see the module docstring for the layout.

    ``Position(data)`` takes anything numpy reads as a ``2 x 26`` integer
    array (or a Position ID string) and raises
    :class:`~bansugoroku_fast.errors.InvalidPositionError` naming the problem
    if it is not a valid position.

    Parameters
    ----------
    data : ~bansugoroku_fast.typing.PositionLike
        Anything numpy reads as a ``2 x 26`` integer array in the interchange
        layout (row 0 the side to move; index 0 borne off, 1..24 the points,
        25 the bar), or a GNU Backgammon Position ID.

    Examples
    --------
    >>> start = Position.initial()
    >>> Position("4HPwATDgc/ABMA") == start, start.rows[0][6], hash(start) == hash(Position(start.array))
    (True, 5, True)
    >>> Position([[14] + [0] * 25, [15] + [0] * 25])
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidPositionError: row 0 (side to move) holds 14 stones, not 15
    """

    __slots__ = ("_array_made", "_key")

    _array_made: BoardArray
    _key: bytes

    @property
    def _array(self) -> BoardArray:
        """The read-only array; a position made from its key alone (the
        kernels' plays, numpy input) makes it on first use: a view of the
        key's bytes costs more than the call that needed only the key."""
        try:
            return self._array_made
        except AttributeError:
            self._array_made = np.ndarray(SHAPE, _INT8, self._key)
            return self._array_made

    @_array.setter
    def _array(self, array: BoardArray) -> None:
        self._array_made = array

    def __init__(self, data: PositionLike) -> None:
        if isinstance(data, Position):
            array = data._array
        elif isinstance(data, str):
            array = Position.from_id(data)._array
        else:
            array = validated_array(data)
        self._array = array
        self._key = array.tobytes()

    @classmethod
    def _wrap(cls, array: BoardArray) -> Position:
        """A position over ``array``, a read-only ``int8[2, 26]`` already checked."""
        position = cls.__new__(cls)
        position._array = array
        position._key = array.tobytes()
        return position

    @classmethod
    def _trusted(cls, array: npt.ArrayLike) -> Position:
        """Wrap a copy of an array known to be valid (the kernels' output), without checks."""
        array = np.array(array, dtype=np.int8, copy=True).reshape(SHAPE)
        array.flags.writeable = False
        return cls._wrap(array)

    @classmethod
    def _from_key(cls, key: bytes) -> Position:
        """Rebuild from the 52 bytes of :attr:`key` (trusted), copying
        nothing: the array is a read-only view of the key's bytes, which
        are immutable (anything but a bytes object is copied to one)."""
        if type(key) is not bytes:
            key = bytes(key)
        position = cls.__new__(cls)
        position._key = key  # the array, a view of the key's bytes, is made on first use (_array)
        return position

    @classmethod
    def initial(cls, rules: RulesLike = None) -> Position:
        """The start position (the same for every rule set): 2 on 24, 5 on
        13, 3 on 8, 5 on 6 for each side."""
        return cls._trusted(np.array([INITIAL_ROW, INITIAL_ROW], dtype=np.int8))

    @classmethod
    def from_id(cls, text: str) -> Position:
        """The position of a GNU Backgammon Position ID (row 0 = side on roll)."""
        on_roll, other = position_id.decode(text)
        key = bytes(on_roll + other)  # counts 0..15: the int8 array's bytes
        problem = _kernel.key_problem(key)
        if problem is not None:
            raise InvalidPositionError(problem)
        return cls._from_key(key)

    @classmethod
    def from_xgid(cls, text: str) -> Position:
        """The position of an XGID; its turn field says which side is row 0.

        >>> Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10") == Position.initial()
        True
        """
        return cls._wrap(_frozen_if_valid(np.array(position_id.decode_xgid(text), dtype=np.int8)))

    @property
    def xgid(self) -> str:
        """The XGID of the position (side to move as X, money game, no dice)."""
        return position_id.encode_xgid(self.rows, valid=True)

    @property
    def array(self) -> BoardArray:
        """The read-only ``int8[2, 26]`` array."""
        return self._array

    @property
    def key(self) -> bytes:
        """The 52 bytes of the array: a compact, exact dictionary key."""
        return self._key

    @property
    def id(self) -> str:
        """The GNU Backgammon Position ID (14 characters)."""
        return position_id.id_of_key(self._key)

    @property
    def rows(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The two rows as tuples of ints (the oracle's view)."""
        mover, opponent = self._array.tolist()
        return tuple(mover), tuple(opponent)

    def tolist(self) -> list[list[int]]:
        rows: list[list[int]] = self._array.tolist()
        return rows

    def swapped(self) -> Position:
        """The same position seen by the other side (rows exchanged)."""
        half = len(self._key) // 2  # a row's 26 bytes: the key with its rows exchanged is the swapped key
        return Position._from_key(self._key[half:] + self._key[:half])

    def pip_count(self, side: int = 0) -> int:
        """Pips ``side`` (0 = to move) needs to bear everything off; bar = 25."""
        return int(pip_counts(self._array[side]))

    @property
    def pip_counts(self) -> tuple[int, int]:
        """``(side to move, opponent)`` pip counts."""
        return self.pip_count(0), self.pip_count(1)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        # The id implies borne-off stones, so it round-trips every position.
        return f"Position.from_id({self.id!r})"

    def __str__(self) -> str:
        return render.board(self.rows)

    def _repr_svg_(self) -> str:
        """The board as SVG, for notebooks."""
        return render.svg(self.rows)

    def __reduce__(self) -> tuple[type[Position], tuple[list[list[int]]]]:
        return (Position, (self._array.tolist(),))


def _of_layout_array(array: np.ndarray) -> Position:
    """The Position of an ``int8[2, 26]`` array (the interchange layout
    itself, the form the fast numpy path of every call takes): its bytes are
    the key, checked as they are, and the read-only array is a view of them,
    so one copy and one check make the Position."""
    key = array.tobytes()
    problem = _kernel.key_problem(key)
    if problem is not None:
        raise InvalidPositionError(problem)
    return Position._from_key(key)


def as_position(position: object) -> Position:
    """``position`` as a :class:`Position` (array-likes and ids are validated;
    anything else is refused by ``Position`` itself)."""
    if type(position) is Position:  # the common case first: a type test alone
        return position
    if type(position) is np.ndarray and position.dtype is _INT8 and position.shape == SHAPE:  # `is`: == costs more
        return _of_layout_array(position)
    return position if isinstance(position, Position) else Position(position)  # type: ignore[arg-type]
