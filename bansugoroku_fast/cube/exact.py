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

from ..endgames import CUBE_STATES, race_batch, stones_of_rank, tables
from ..position import Position
from ..rules import Rules
from .janowski import CENTRED, OWNED, THEIRS, money_cubeful
from .kinds import BEAROFF_EFFICIENCY
from .states import MatchCube, MoneyCube

__all__ = ["LIVE_AND_DEAD_APART", "STATE_COLUMNS", "ExactRaces", "JanowskiComparison", "exact_races",
           "exact_values", "janowski_comparison", "janowski_differences"]

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


ExactRaces.rows.__doc__ = "``int64[K]``: the indices, in the batch, of the positions the two-sided table values."
ExactRaces.probabilities.__doc__ = "``float64[K, 5]``: their exact cubeless outcome probabilities."
ExactRaces.no_double.__doc__ = (
    "``float64[K, 3]``: their exact money equities without doubling, cube centred, owned and theirs."
)


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


# --- how far Janowski's interpolation is from the exact figures ---------------------------


def janowski_differences(efficiency: float = BEAROFF_EFFICIENCY) -> np.ndarray:
    """``float64[924, 924, 3]``: over every pair of the backgammon
    two-sided table (the side to roll's rank, the other side's), Janowski's
    0-ply money equity with cube efficiency ``efficiency`` (from the exact
    cubeless winning chance) minus the exact no-double equity, per cube
    state (centred, owned, theirs); 0 where a side has finished."""
    built = tables(Rules(variant="backgammon"))
    win = built.win.ravel()
    probabilities = np.zeros((len(win), 5))
    probabilities[:, 0] = win
    x = np.full(len(win), efficiency)
    differences = np.zeros(built.no_double.shape)
    for owner, column in STATE_COLUMNS.items():
        janowski = money_cubeful(probabilities, np.full(len(win), owner), x, jacoby=False)
        differences[..., column] = janowski.reshape(built.win.shape) - built.no_double[..., column]
    differences[0, :] = differences[:, 0] = 0.0
    return differences


class JanowskiComparison(NamedTuple):
    """Janowski's 0-ply money figures against the exact table, over all
    923 x 923 pairs of non-empty positions: ``largest`` and ``mean``
    absolute difference of the no-double equity per cube state (centred,
    owned, theirs); with the cube centred, ``action_differs``, the share
    of pairs whose proper action (no double, double/take, double/pass)
    differs, and what Janowski's action costs valued exactly (the exact
    equity of the proper action minus that of Janowski's, the other side
    answering exactly): ``mean_cost``, ``largest_cost`` and a
    ``position`` where it is reached (row 0 to roll)."""

    largest: tuple[float, float, float]
    mean: tuple[float, float, float]
    action_differs: float
    mean_cost: float
    largest_cost: float
    position: Position


JanowskiComparison.largest.__doc__ = (
    "The largest absolute difference of the no-double equity, per cube state (centred, owned, theirs)."
)
JanowskiComparison.mean.__doc__ = "The mean absolute difference of the no-double equity, per cube state."
JanowskiComparison.action_differs.__doc__ = "With the cube centred, the share of pairs whose proper action differs."
JanowskiComparison.mean_cost.__doc__ = "The mean equity Janowski's action loses, valued exactly."
JanowskiComparison.largest_cost.__doc__ = "The largest equity Janowski's action loses, valued exactly."
JanowskiComparison.position.__doc__ = "A position where ``largest_cost`` is reached, row 0 to roll."  # type: ignore[misc]


def _centred_actions(no_double: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """0 no double, 1 double/take, 2 double/pass (GNU Backgammon's rule)."""
    double_take = 2 * theirs
    doubles = (double_take >= no_double) & (no_double <= 1.0)
    actions: np.ndarray = np.where(doubles, np.where(double_take >= 1.0, 2, 1), 0)
    return actions


def janowski_comparison(efficiency: float = BEAROFF_EFFICIENCY) -> JanowskiComparison:
    """How far Janowski's interpolation at ``efficiency`` (GNU Backgammon's
    bear-off efficiency by default) is from the exact money cubeful
    equities of the backgammon two-sided table (see
    :class:`JanowskiComparison`).

    >>> found = janowski_comparison()
    >>> 0.3 < found.largest[0] < 0.4, 0.05 < found.action_differs < 0.08, found.mean_cost < 0.002
    (True, True, True)
    """
    built = tables(Rules(variant="backgammon"))
    signed = janowski_differences(efficiency)[1:, 1:]
    differences = np.abs(signed)
    exact = built.no_double[1:, 1:]
    centred, theirs = STATE_COLUMNS[CENTRED], STATE_COLUMNS[THEIRS]
    estimated = exact + signed
    chosen = _centred_actions(estimated[..., centred], estimated[..., theirs])
    proper = _centred_actions(exact[..., centred], exact[..., theirs])
    doubled = np.minimum(2 * exact[..., theirs], 1.0)
    worth = np.where(proper > 0, doubled, exact[..., centred])
    worth_chosen = np.where(chosen > 0, doubled, exact[..., centred])
    cost = worth - worth_chosen
    a, b = (int(i) + 1 for i in np.unravel_index(int(cost.argmax()), cost.shape))
    rows = []
    for stones in (stones_of_rank(a), stones_of_rank(b)):
        rows.append([15 - sum(stones), *stones] + [0] * 19)
    return JanowskiComparison(
        tuple(float(v) for v in differences.max(axis=(0, 1))),  # type: ignore[arg-type]
        tuple(float(v) for v in differences.mean(axis=(0, 1))),  # type: ignore[arg-type]
        float((chosen != proper).mean()), float(cost.mean()), float(cost.max()), Position(rows))
