"""The analysis of games and matches, as GNU Backgammon analyses them:
:func:`analyse` -> :class:`Analysis` (see :mod:`bansugoroku_fast.analysis.core`), GNU Backgammon's
marks and rating bands (:mod:`bansugoroku_fast.analysis.figures`), and the text summary, HTML report
and equity plot of ``bansugoroku analyse`` (:mod:`bansugoroku_fast.analysis.report`).

The names load on first use (PEP 562), so that importing the package, or its
figures and report, does not load the searches beneath :mod:`bansugoroku_fast.analysis.core`.

>>> from bansugoroku_fast.analysis import mark
>>> mark(0.07)
'bad'
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import Analysis, Decision, PlayerStatistics, analyse, cube_decisions, statistics
    from .figures import luck_mark, mark, rating

__all__ = ["Analysis", "Decision", "PlayerStatistics", "analyse", "cube_decisions", "luck_mark", "mark", "rating",
           "statistics"]

_WHERE = {**dict.fromkeys(["Analysis", "Decision", "PlayerStatistics", "analyse", "cube_decisions", "statistics"],
                          "core"),
          **dict.fromkeys(["luck_mark", "mark", "rating"], "figures")}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
