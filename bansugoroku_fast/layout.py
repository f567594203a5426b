"""The interchange layout's constants, written once (docs/rules.md §1.4), and
what a rule set refuses in it.

A position is ``int8[2, 26]``: row 0 the side to move, row 1 its opponent,
each in its own numbering; index :data:`OFF` holds the stones borne off,
1..24 the points, :data:`BAR` the bar. Each side has :data:`STONES` stones.
:func:`pip_counts` weighs each index by the pips a stone there still needs.

>>> BAR - 24, OFF, STONES   # point p of one side is point BAR - p of the other
(1, 0, 15)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["BAR", "BOTH_WON", "OFF", "ROW_NAMES", "STONES", "borne_off_problem", "pip_counts"]

OFF = 0  # index of the stones borne off; also the target of a bear-off move
BAR = 25  # index of the bar; also the origin of an entering move
STONES = 15  # stones per side
#: How messages name the two rows.
ROW_NAMES = ("row 0 (side to move)", "row 1 (opponent)")

#: The pips a stone at each index still needs: point p needs p, the bar 25,
#: a borne-off stone none (the index itself).
_PIPS = np.arange(BAR + 1, dtype=np.int32)


def pip_counts(rows: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
    """The pip count of each row of ``rows`` (``int8[..., 26]``): ``int32[...]``.

    >>> pip_counts(np.array([[0] * 24 + [1, 1]], dtype=np.int8)).tolist()   # one on 24, one on the bar
    [49]
    """
    counts: npt.NDArray[np.int32] = rows.astype(np.int32) @ _PIPS
    return counts


def rows_problem(rows: object) -> str | None:
    """What is wrong with ``rows`` as a position in the interchange layout
    (two rows of 26 non-negative integer counts, each summing to 15, no point
    holding stones of both sides), or None. Plain Python, for the encoders
    of ids, which take rows of any kind.

    >>> start = ((0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0),) * 2
    >>> rows_problem(start) is None
    True
    >>> rows_problem((start[0][:6] + (6,) + start[0][7:], start[1]))
    'row 0 (side to move) holds 16 stones, not 15'
    """
    try:
        table = [[int(count) for count in row] for row in rows]  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return f"a position is two rows of 26 integer counts, got {rows!r}"
    if len(table) != 2 or any(len(row) != BAR + 1 for row in table):
        return f"a position is two rows of 26 counts, got {[len(row) for row in table]} counts"
    for name, row in zip(ROW_NAMES, table):
        if min(row) < 0:
            return f"{name} has a negative count at index {row.index(min(row))}"
        if sum(row) != STONES:
            return f"{name} holds {sum(row)} stones, not {STONES}"
    shared = [point for point in range(1, BAR) if table[0][point] and table[1][BAR - point]]
    if shared:
        return f"point {shared[0]} (seen by row 0) holds stones of both sides"
    return None


# --- what a rule set refuses in a position ---------------------------------------------

#: The message of a position where both rows satisfy a win.
BOTH_WON = "both sides have won in this position; no game reaches it"


def borne_off_problem(array: npt.NDArray[np.int8], rules: Rules) -> str | None:
    """What these rules refuse in a valid ``int8[2, 26]`` array: borne-off
    stones under the arrival finish (stones never leave the board there).

    >>> from bansugoroku_fast import Rules
    >>> array = np.zeros((2, 26), dtype=np.int8); array[:, 6] = 15; array[1, 6] = 14; array[1, 0] = 1
    >>> borne_off_problem(array, Rules())
    "row 1 (opponent) has 1 stones borne off, but the 'arrival' finish never bears off"
    """
    off = array[:, 0]
    if rules.bears_off or not off.any():
        return None
    row = 0 if off[0] else 1
    return (f"{ROW_NAMES[row]} has {int(off[row])} stones borne off, but the "
            f"'{rules.finish}' finish never bears off")
