"""The kind of a position, as GNU Backgammon classes positions for its cube
efficiency: how much of the cube's value a side on roll can use (Janowski's
``x``, between 0 for a dead cube and 1 for a fully live one).

* ``"over"``: the game has ended: 0;
* ``"contact"`` and ``"crashed"``: the sides can still hit: 0.68;
* ``"race"``: no contact: 0.55 + 0.00125 a pip of the side on roll,
  within [0.6, 0.7] (short races leave fewer turns to use the cube in);
* ``"bearoff"``: no contact and every stone of both sides in its home
  board or off: 0.6.

A position is seen by the side on roll (row 0). The sides are in contact
while row 0's rearmost stone at point ``a`` (25 = the bar) and row 1's at
``b`` (each in its own numbering) pass each other: ``a + b > 25``.
Crashed positions (a side with six stones or fewer left in play, counting
what its stones piled deep on its 1 and 2 points leave) have the contact
efficiency, as in GNU Backgammon.

>>> from bansugoroku_fast import Position
>>> start = Position.initial().array[None]
>>> position_kinds(start).tolist(), cube_efficiency(start).tolist()
(['contact'], [0.68])
"""
from __future__ import annotations

import numpy as np

from .. import _kernel

__all__ = ["KINDS", "CONTACT_EFFICIENCY", "BEAROFF_EFFICIENCY", "cube_efficiency", "kind_codes", "kinds_and_efficiency",
           "position_kinds",
           "race_efficiency"]

#: The kinds, in the order of their codes.
KINDS = ("over", "contact", "crashed", "race", "bearoff")
#: GNU Backgammon's cube efficiencies where the sides are in contact, and in a bear-off.
CONTACT_EFFICIENCY = 0.68
BEAROFF_EFFICIENCY = 0.6
#: A race's efficiency: ``RACE_BASE + RACE_PER_PIP * pips``, clipped to ``RACE_RANGE``.
RACE_BASE, RACE_PER_PIP, RACE_RANGE = 0.55, 0.00125, (0.6, 0.7)


#: The code of a bear-off (where the two-sided table's positions are).
BEAROFF = KINDS.index("bearoff")


def kind_codes(positions: np.ndarray) -> np.ndarray:
    """``int8[N]``: each position's kind as its index in :data:`KINDS`,
    seen by row 0, the side on roll (the kernel's; the oracle's
    ``cube.kind`` reads the same rules one position at a time)."""
    return _kernel.position_kinds(positions)[0]


def position_kinds(positions: np.ndarray) -> np.ndarray:
    """``str[N]``: each position's kind (:data:`KINDS`), seen by row 0, the
    side on roll."""
    kinds: np.ndarray = np.array(KINDS)[kind_codes(positions)]
    return kinds


def race_efficiency(pips: np.ndarray) -> np.ndarray:
    """``float64[N]``: a race's cube efficiency from the pips of the side on roll.

    >>> race_efficiency(np.array([30, 100, 200])).tolist()
    [0.6, 0.675, 0.7]
    """
    return np.clip(RACE_BASE + RACE_PER_PIP * np.asarray(pips, dtype=np.float64), *RACE_RANGE)


#: The efficiency of each kind but the race's (NaN), by code.
_BY_CODE = np.array([0.0, CONTACT_EFFICIENCY, CONTACT_EFFICIENCY, np.nan, BEAROFF_EFFICIENCY])


def kinds_and_efficiency(positions: np.ndarray, on_roll: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``(int8[N], float64[N])``: :func:`kind_codes` and :func:`cube_efficiency`
    in one pass, for the side on roll: row ``on_roll`` (1: the side that
    has not just played, with no copy of the positions made)."""
    codes, pips = _kernel.position_kinds(positions, on_roll)
    efficiency: np.ndarray = _BY_CODE[codes]
    race = np.flatnonzero(codes == KINDS.index("race"))
    efficiency[race] = race_efficiency(pips[race])
    return codes, efficiency


def cube_efficiency(positions: np.ndarray) -> np.ndarray:
    """``float64[N]``: each position's cube efficiency for row 0, the side
    on roll (see the module)."""
    return kinds_and_efficiency(positions)[1]
