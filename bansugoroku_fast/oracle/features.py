"""The features of a position written for reading: the 28 integers
:func:`~bansugoroku_fast.features` gives (each side's
:data:`~bansugoroku_fast.scoring.SIDE_FEATURES`), which the ``LinearPolicy``
policies and the networks' ``"raw198+features"`` encoding read.

Part of the oracle (see :mod:`bansugoroku_fast.oracle.games`); plain Python.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..checks import as_rules
from ..layout import BAR, OFF
from ..position import as_position
from ..rules import Rules
from ..typing import PositionLike, RulesLike
from .moves import side_win

__all__ = ["board_features", "features", "side_features"]



def _made(row: Sequence[int], point: int) -> bool:
    return row[point] >= 2


def _longest_prime(row: Sequence[int]) -> int:
    longest = run = 0
    for point in range(1, 25):
        run = run + 1 if _made(row, point) else 0
        longest = max(longest, run)
    return longest


def _reach(a: int, b: int, rules: Rules) -> set[int]:
    """Distances a roll can carry one stone, ignoring blocks."""
    if a == b:
        return {a * k for k in range(1, rules.doubles_moves + 1)}
    return {a, b, a + b}


def _exposure(own: Sequence[int], other: Sequence[int], rules: Rules) -> int:
    """Rolls (of the 36) on which ``other`` could hit a blot of ``own`` if no
    point were blocked: a stone of ``other`` on its place ``q`` (25 = bar)
    reaches ``own``'s point ``p`` after ``q + p - 25`` pips."""
    distances = {
        q + p - 25
        for p in range(1, 25) if own[p] == 1
        for q in range(1, 26) if other[q] > 0 and q + p - 25 >= 1
    }
    if not distances:
        return 0
    return sum(
        1 for a in range(1, 7) for b in range(1, 7) if _reach(a, b, rules) & distances
    )


def side_features(own: Sequence[int], other: Sequence[int], rules: Rules) -> list[int]:
    """The features of one side (``own``, against ``other``), in
    :data:`~bansugoroku_fast.games.policies.SIDE_FEATURES` order; every one an int:

    * ``pips``: sum of point x stones over points 1..24, the bar counting 25;
    * ``off``, ``bar``: stones borne off, on the bar;
    * ``home``: stones on points 1..6; ``back``: stones on 19..24 or the bar;
    * ``blots``: points (1..24) with exactly one stone; ``points``: with two
      or more; ``home_points``: points 1..6 with two or more; ``prime``: the
      longest run of consecutive points with two or more; ``anchors``: points
      19..24 with two or more;
    * ``exposure``: rolls of the 36 on which ``other`` could hit one of these
      blots if no point were blocked (bar stones included, entering first is
      ignored; a double moves ``doubles_moves`` times);
    * ``stacking``: stones beyond three on a point, over points 1..24;
    * ``closure``: 1 if each of points 1..6 holds two or more while ``other``
      has a stone on the bar, else 0;
    * ``won``: the value of this side's win in the position, 0 if none.
    """
    points = range(1, 25)
    win = side_win(own, other, rules)
    closure = other[BAR] >= 1 and all(_made(own, p) for p in range(1, 7))
    return [
        sum(p * own[p] for p in range(1, 26)),
        own[OFF],
        own[BAR],
        sum(own[1:7]),
        sum(own[19:26]),
        sum(1 for p in points if own[p] == 1),
        sum(1 for p in points if _made(own, p)),
        sum(1 for p in range(1, 7) if _made(own, p)),
        _longest_prime(own),
        sum(1 for p in range(19, 25) if _made(own, p)),
        _exposure(own, other, rules),
        sum(max(own[p] - 3, 0) for p in points),
        int(closure),
        win.value if win else 0,
    ]


def board_features(board: Sequence[Sequence[int]], rules: Rules) -> list[int]:
    """Row 0's side features, then row 1's, of a ``2 x 26`` board."""
    return side_features(board[0], board[1], rules) + side_features(board[1], board[0], rules)


def features(position: PositionLike, rules: RulesLike = None) -> list[float]:
    """The feature vector of one position: row 0's side features, then row
    1's.

    The plain-Python reading of :func:`bansugoroku_fast.features` (names in
    :data:`~bansugoroku_fast.games.policies.FEATURE_NAMES`).

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position: a :class:`~bansugoroku_fast.position.Position`, a GNU
        Backgammon Position ID or an ``int8[2, 26]`` array.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.

    Returns
    -------
    list of float
        The features, each an integer value.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that is
        not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> values = features(Position.initial(), "backgammon")
    >>> values[:4], values[6:9]
    ([167.0, 0.0, 0.0, 5.0], [4.0, 1.0, 1.0])
    """
    position = as_position(position)
    rules = as_rules(rules)
    return [float(value) for value in board_features(position.rows, rules)]
