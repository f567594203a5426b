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
  reads as ``int8[N, 2, 26]`` (or ``int8[N, 2]``);
* :data:`EvaluatorLike`: what scores positions -- a
  :class:`~bansugoroku_fast.evaluators.NetEvaluator`, a callable
  ``positions -> float[N, 5]``, or ``"net"``, the shipped network;
* :data:`PolicyLike`: how one seat chooses its plays -- a built-in's name
  (``"random"``, ``"heuristic"``, ``"net"``...), a
  :class:`~bansugoroku_fast.LinearPolicy`, or a callable
  ``policy(children, offsets) -> choices or scores`` (an
  :class:`~bansugoroku_fast.evaluators.EvaluatorPolicy` is one);
* :data:`PoliciesLike`: one policy for both seats, or a pair ``(seat 0's,
  seat 1's)``, as ``play_games`` and ``rollout`` take them.

>>> from bansugoroku_fast import Position, legal_plays
>>> def count(position: PositionLike, dice: DiceLike, rules: RulesLike = None) -> int:
...     return len(legal_plays(position, dice, rules))
>>> count(Position.initial(), "6-5", "backgammon")
7
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, SupportsIndex, TypeAlias, Union

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .evaluators.network import NetEvaluator
    from .games.policies import LinearPolicy
    from .position import Position
    from .rules import Rules

__all__ = ["BatchLike", "DiceLike", "EvaluatorLike", "PoliciesLike", "PolicyLike", "PositionLike", "Rows",
           "RulesLike"]

PositionLike: TypeAlias = Union["Position", str, npt.ArrayLike]
DiceLike: TypeAlias = Union[str, Sequence[SupportsIndex], "npt.NDArray[np.integer[Any]]"]
RulesLike: TypeAlias = Union["Rules", str, None]
Rows: TypeAlias = Sequence[Sequence[int]]
BatchLike: TypeAlias = npt.ArrayLike
#: What scores positions: a NetEvaluator, a callable ``positions -> float[N, 5]``, or ``"net"``.
EvaluatorLike: TypeAlias = Union["NetEvaluator", Callable[[np.ndarray], Any], str]
#: How one seat plays: a built-in's name, a LinearPolicy, or a callable ``policy(children, offsets)``.
PolicyLike: TypeAlias = Union[str, "LinearPolicy", Callable[[np.ndarray, np.ndarray], Any]]
#: One policy for both seats, or a pair ``(seat 0's, seat 1's)``.
PoliciesLike: TypeAlias = PolicyLike | tuple[PolicyLike, PolicyLike]
