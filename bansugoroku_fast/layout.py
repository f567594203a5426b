"""The interchange layout's constants, written once (docs/rules.md §1.4).

A position is ``int8[2, 26]``: row 0 the side to move, row 1 its opponent,
each in its own numbering; index :data:`OFF` holds the stones borne off,
1..24 the points, :data:`BAR` the bar. Each side has :data:`STONES` stones.
:func:`pip_counts` weighs each index by the pips a stone there still needs.

>>> BAR - 24, OFF, STONES   # point p of one side is point BAR - p of the other
(1, 0, 15)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["BAR", "OFF", "STONES", "pip_counts"]

OFF = 0  # index of the stones borne off; also the target of a bear-off move
BAR = 25  # index of the bar; also the origin of an entering move
STONES = 15  # stones per side

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
