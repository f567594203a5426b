"""Type aliases for annotating code that calls bansugoroku-fast (as
:mod:`numpy.typing` does for numpy).

* :data:`PositionLike`: what a position argument accepts -- a
  :class:`~bansugoroku_fast.position.Position`, a GNU Backgammon Position ID,
  or anything numpy reads as a ``2 x 26`` integer array (nested lists, an
  ``int8[2, 26]`` array);
* :data:`DiceLike`: a roll -- a tuple or list of two integers such as
  ``(6, 5)`` (numpy integers too), an integer array, or text such as
  ``"6-5"``;
* :data:`RulesLike`: a :class:`~bansugoroku_fast.rules.Rules`, a label such as
  ``"backgammon"`` or ``"ban/bear_off/immediate"``, or ``None`` for the
  default rules;
* :data:`Rows`: the two rows of the interchange layout as int sequences
  (``Position.rows``), what the board drawings and the id encoders read;
* :data:`BatchLike`: positions or dice for the batch functions, anything numpy
  reads as ``int8[N, 2, 26]`` (or ``int8[N, 2]``).

>>> from bansugoroku_fast import Position, legal_plays
>>> def count(position: PositionLike, dice: DiceLike, rules: RulesLike = None) -> int:
...     return len(legal_plays(position, dice, rules))
>>> count(Position.initial(), "6-5", "backgammon")
7
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, SupportsIndex, TypeAlias, Union

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .position import Position
    from .rules import Rules

__all__ = ["BatchLike", "DiceLike", "PositionLike", "Rows", "RulesLike"]

PositionLike: TypeAlias = Union["Position", str, npt.ArrayLike]
DiceLike: TypeAlias = Union[str, Sequence[SupportsIndex], "npt.NDArray[np.integer[Any]]"]
RulesLike: TypeAlias = Union["Rules", str, None]
Rows: TypeAlias = Sequence[Sequence[int]]
BatchLike: TypeAlias = npt.ArrayLike
