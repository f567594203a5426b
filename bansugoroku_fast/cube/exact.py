"""Exact cube figures of small races, from the endgame tables, as GNU
Backgammon takes them from its two-sided bear-off database.

A backgammon race in which both sides have at most 6 stones on their home
points (the two-sided table's positions) has exact money cubeful
equities (:attr:`~bansugoroku_fast.endgames.Tables.no_double`, perfect
cube play and cube-aware plays by both sides) and exact cubeless
probabilities ``(win, 0, 0, 0, 0)`` (no gammon: 9 stones are off). A cube
decision values such a position, wherever its search meets it, as GNU
Backgammon's ``EvaluatePositionCubeful`` values its ``BEAROFF2`` class:

* **money play**: each cube state's equity is the table's no-double
  equity of that state (the cube centred, the side on roll's, the other
  side's; Jacoby changes nothing without gammons), at any ply: an exact
  position is never searched further;
* **match play**: the table has no match figures, so the match formula
  (GNU Backgammon's generalisation of Janowski's) is kept, with the cube
  efficiency taken from the exact money equity of the same cube state:
  the ``x`` for which Janowski's money interpolation ``(1 - x) cubeless +
  x live`` gives it, kept within 0 and the kind's efficiency (0.6), and
  the kind's efficiency where the live and the dead cube are within 1e-4
  (GNU Backgammon's own rule); such positions are searched at 1 and 2
  plies like any other.

>>> from bansugoroku_fast import Rules
>>> board = np.zeros((1, 2, 26), dtype=np.int8)
>>> board[0, 0, 0], board[0, 0, 5] = 14, 1        # one stone on the 5-point, to roll
>>> board[0, 1, 0], board[0, 1, 6] = 14, 1        # against one on the 6-point
>>> found = exact_races(board, Rules(variant="backgammon"))
>>> found.rows.tolist(), (found.probabilities[0] * 1296).round(9).tolist()   # 31 x 36 + 5 x 9
([0], [1161.0, 0.0, 0.0, 0.0, 0.0])

Rolling without doubling, a miss loses 1 where the other side may double
then (it doubles out: centred, theirs), but only 18 / 36 on average where
the side to roll owns the cube (the other side wins with 27 rolls, loses
with 9): 31 - 5, and 31 - 5 x 18 / 36, in 36ths:

>>> (found.no_double[0] * 36).round(9).tolist()
[26.0, 28.5, 26.0]
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..endgames import CUBE_STATES, race_batch
from ..rules import Rules
from .janowski import CENTRED, OWNED, THEIRS, money_cubeful
from .states import MatchCube, MoneyCube

__all__ = ["LIVE_AND_DEAD_APART", "STATE_COLUMNS", "ExactRaces", "exact_races", "exact_values"]

#: The owner codes in the order of the tables' cube states (:data:`~bansugoroku_fast.endgames.CUBE_STATES`).
STATE_COLUMNS = {CENTRED: CUBE_STATES.index("centred"), OWNED: CUBE_STATES.index("owned"),
                 THEIRS: CUBE_STATES.index("theirs")}
#: Below this gap between the live and the dead money cube, the kind's
#: efficiency stands (GNU Backgammon's test).
LIVE_AND_DEAD_APART = 1e-4


class ExactRaces(NamedTuple):
    """The positions of a batch that the two-sided table values:
    ``rows`` (their indices), their cubeless ``probabilities``
    ``float64[K, 5]`` and their money ``no_double`` equities
    ``float64[K, 3]`` (centred, owned, theirs)."""

    rows: np.ndarray
    probabilities: np.ndarray
    no_double: np.ndarray


def exact_races(positions: np.ndarray, rules: Rules) -> ExactRaces:
    """The rows of checked ``positions`` (``int8[N, 2, 26]``, row 0 on
    roll) that are backgammon races of at most 6 stones a side (none
    under Ban-sugoroku's rules, which have no cube)."""
    if not rules.is_backgammon or not len(positions):
        return ExactRaces(np.zeros(0, dtype=np.int64), np.zeros((0, 5)), np.zeros((0, len(CUBE_STATES))))
    found = race_batch(positions, rules, outside="nan")
    rows = np.flatnonzero(~np.isnan(found.no_double[:, 0]))
    probabilities = np.zeros((len(rows), 5))
    probabilities[:, 0] = found.win[rows]
    return ExactRaces(rows, probabilities, found.no_double[rows])


def exact_values(state: MoneyCube | MatchCube, probabilities: np.ndarray, no_double: np.ndarray,
                 efficiency: np.ndarray) -> np.ndarray:
    """``float64[K]``: the cubeful value in ``state`` (its own units) of
    exact positions with these cubeless ``probabilities`` and money
    ``no_double`` equities; ``efficiency``: the kind's cube efficiency,
    the match bridge's ceiling (see the module)."""
    exact_money = no_double[:, STATE_COLUMNS[state.owner]]
    if isinstance(state, MoneyCube):
        result: np.ndarray = exact_money.copy()
        return result
    owner = np.full(len(probabilities), state.owner)
    cubeless = 2 * probabilities[:, 0] - 1
    live = money_cubeful(probabilities, owner, np.ones(len(probabilities)), jacoby=False)
    spread = live - cubeless
    apart = np.abs(spread) > LIVE_AND_DEAD_APART
    with np.errstate(divide="ignore", invalid="ignore"):
        bridged = np.where(apart, (exact_money - cubeless) / spread, efficiency)
    return state.values(probabilities, np.clip(bridged, 0.0, efficiency))
