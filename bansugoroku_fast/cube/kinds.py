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

__all__ = ["KINDS", "CONTACT_EFFICIENCY", "BEAROFF_EFFICIENCY", "cube_efficiency", "kind_codes", "position_kinds",
           "race_efficiency"]

#: The kinds, in the order of their codes.
KINDS = ("over", "contact", "crashed", "race", "bearoff")
#: GNU Backgammon's cube efficiencies where the sides are in contact, and in a bear-off.
CONTACT_EFFICIENCY = 0.68
BEAROFF_EFFICIENCY = 0.6
#: A race's efficiency: ``RACE_BASE + RACE_PER_PIP * pips``, clipped to ``RACE_RANGE``.
RACE_BASE, RACE_PER_PIP, RACE_RANGE = 0.55, 0.00125, (0.6, 0.7)
#: A side with this many stones in play or fewer is crashed.
CRASHED_STONES = 6


def _rearmost(rows: np.ndarray) -> np.ndarray:
    """``int64[N]``: the point (1..25) of each row's rearmost stone, 0 for none."""
    occupied = rows[:, :0:-1] > 0                  # points 25 down to 1
    last = 25 - np.argmax(occupied, axis=1)
    rearmost: np.ndarray = np.where(occupied.any(axis=1), last, 0)
    return rearmost


def _crashed(rows: np.ndarray) -> np.ndarray:
    """``bool[N]``: GNU Backgammon's test of a crashed side (stones on 1..25)."""
    total = rows[:, 1:26].sum(axis=1, dtype=np.int16)
    on_1, on_2 = rows[:, 1].astype(np.int16), rows[:, 2].astype(np.int16)
    deep_1 = (on_1 > 1) & ((total <= CRASHED_STONES + on_1)
                           | ((on_2 > 1) & (1 + total - on_1 - on_2 <= CRASHED_STONES)))
    shallow_1 = (on_1 <= 1) & (total <= CRASHED_STONES + on_2 - 1)
    crashed: np.ndarray = (total <= CRASHED_STONES) | deep_1 | shallow_1
    return crashed


def kind_codes(positions: np.ndarray) -> np.ndarray:
    """``int64[N]``: each position's kind as its index in :data:`KINDS`,
    seen by row 0, the side on roll."""
    ours, theirs = _rearmost(positions[:, 0]), _rearmost(positions[:, 1])
    over = (ours == 0) | (theirs == 0)
    contact = ours + theirs > 25
    crashed = contact & (_crashed(positions[:, 0]) | _crashed(positions[:, 1]))
    bearoff = ~contact & (ours <= 6) & (theirs <= 6)
    codes: np.ndarray = np.select([over, crashed, contact, bearoff], [0, 2, 1, 4], default=3)
    return codes


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
_PIP_OF_POINT = np.arange(26, dtype=np.int16)


def cube_efficiency(positions: np.ndarray) -> np.ndarray:
    """``float64[N]``: each position's cube efficiency for row 0, the side
    on roll (see the module)."""
    codes = kind_codes(positions)
    out: np.ndarray = _BY_CODE[codes]
    race = codes == KINDS.index("race")
    if race.any():
        pips = positions[race, 0].astype(np.int16) @ _PIP_OF_POINT
        out[race] = race_efficiency(pips)
    return out
