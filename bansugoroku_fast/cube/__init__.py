"""Cube decisions and match equity.

* :func:`~.decision.cube_decision` and :class:`~.decision.CubeDecision`:
  whether the side on roll should double and the other side take, by GNU
  Backgammon's method (Janowski's interpolation at 0 ply, the cube states
  carried through the replies at 1 and 2 plies), in money play and in a
  match;
* :class:`~.met.MatchEquityTable`: match equity tables (Kazaross-XG2 by
  default; GNU Backgammon's ``met/*.xml`` files load);
* :mod:`~.kinds`, :mod:`~.janowski`, :mod:`~.states`, :mod:`~.actions`:
  the kinds of position and their cube efficiency, the money formulas,
  the cube's states, the proper action in GNU Backgammon's words.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .actions import ACTIONS, NOT_AVAILABLE
from .met import MatchEquityTable

if TYPE_CHECKING:
    from .decision import CubeDecision, cube_decision


def __getattr__(name: str) -> Any:
    """The decision's names, loaded on first use (they stand on the evaluators' search)."""
    if name in ("CubeDecision", "cube_decision"):
        return getattr(importlib.import_module(f"{__name__}.decision"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ACTIONS", "NOT_AVAILABLE", "CubeDecision", "MatchEquityTable", "cube_decision"]
