"""Input encodings of the networks: a position as a vector of floats.

A position is seen by the side that has just moved: row 0 just moved (the
network's outputs are for it), row 1 rolls next. Every rule set uses the
same encodings (Ban-sugoroku plays on the same 24 points).

``"raw198"`` (:data:`RAW_INPUTS` = 198 units), Tesauro's raw board
encoding (TD-Gammon, 1992) in the interchange layout:

* for row 0, then row 1, in that row's own numbering:

  - for each point ``p`` = 1..24 holding ``n`` of the row's stones, four
    units ``[n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 2]`` (units
    ``98 r + 4 (p - 1)`` .. ``+ 3`` for row ``r``);
  - the row's bar stones / 2 (unit ``98 r + 96``);
  - the row's borne-off stones / 15 (unit ``98 r + 97``);

* two turn units, Tesauro's "whose turn it was": unit 196 = 1 says row 0
  is the side that has just moved, unit 197 = 1 would say row 1 is. In this
  perspective row 0 has always just moved, so they are the constants
  :data:`TURN_UNITS` = ``(1, 0)``; they are kept so that weights in
  Tesauro's 198-input layout (the moving side's board first, turn units
  naming it) port unchanged.

``"raw198+features"`` (226 units): the same 198, then the 28
:func:`~bansugoroku_fast.features` of the position
(:data:`~bansugoroku_fast.FEATURE_NAMES`: row 0's, then row 1's), each
divided by its entry in :data:`FEATURE_SCALES` so that typical values lie
within 0..1 or a little beyond.

>>> import numpy as np
>>> from bansugoroku_fast import Position
>>> inputs = encode(Position.initial().array[None], "raw198")
>>> inputs.shape, inputs.dtype
((1, 198), dtype('float32'))
>>> inputs[0, 4 * 5:4 * 6].tolist()      # row 0's point 6: five stones
[1.0, 1.0, 1.0, 1.0]
>>> inputs[0, 196:].tolist()
[1.0, 0.0]
>>> float(encode(Position.initial().array[None], "raw198+features", "backgammon")[0, 198])   # own pips / 167
1.0
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..batch import features, outcome
from ..checks import as_rules
from ..errors import InvalidEvaluatorError
from ..rules import Rules
from ..scoring import FEATURE_NAMES, SIDE_FEATURES
from ..typing import BatchLike, RulesLike

__all__ = ["ENCODINGS", "FEATURE_SCALES", "RAW_INPUTS", "SIDE_FEATURE_SCALES", "TURN_UNITS", "encode",
           "checked_positions", "encode_valid", "encoding_size"]

#: Units of the raw board encoding: 98 per row, then the two turn units.
RAW_INPUTS = 198
#: Units per row: 4 per point, bar, borne off.
ROW_UNITS = 98
#: The turn units' constant values (see the module docstring).
TURN_UNITS = (1.0, 0.0)

#: Each side feature is divided by this (in :data:`SIDE_FEATURES` order):
#: pips by the starting count 167; stones borne off, home and back by 15; bar
#: stones by 2 (as the raw encoding's bar unit); blots by 5; made points by
#: 12; home points, prime and anchors by 6; exposure by 36 rolls; stacking by
#: 12; closure by 1; the value of a win by 3 (the largest).
SIDE_FEATURE_SCALES: dict[str, float] = {
    "pips": 167.0, "off": 15.0, "bar": 2.0, "home": 15.0, "back": 15.0, "blots": 5.0, "points": 12.0,
    "home_points": 6.0, "prime": 6.0, "anchors": 6.0, "exposure": 36.0, "stacking": 12.0,
    "closure": 1.0, "won": 3.0,
}
assert tuple(SIDE_FEATURE_SCALES) == SIDE_FEATURES
#: The divisor of each column of ``features()`` (:data:`FEATURE_NAMES` order).
FEATURE_SCALES: tuple[float, ...] = tuple(SIDE_FEATURE_SCALES.values()) * 2

#: Encoding name -> number of input units.
ENCODINGS: dict[str, int] = {"raw198": RAW_INPUTS, "raw198+features": RAW_INPUTS + len(FEATURE_NAMES)}


def encoding_size(encoding: object) -> int:
    """The number of input units of ``encoding``, or
    :class:`~bansugoroku_fast.errors.InvalidEvaluatorError`.

    >>> encoding_size("raw198+features")
    226
    """
    if not isinstance(encoding, str) or encoding not in ENCODINGS:
        raise InvalidEvaluatorError(f"unknown encoding {encoding!r}; accepted: {', '.join(map(repr, ENCODINGS))}")
    return ENCODINGS[encoding]


def raw_units(positions: np.ndarray) -> np.ndarray:
    """``float32[N, 198]``: the raw encoding of valid ``int8[N, 2, 26]`` positions."""
    count = len(positions)
    stones = positions[:, :, 1:25].astype(np.float32)                        # N, 2, 24
    units = np.empty((count, 2, ROW_UNITS), dtype=np.float32)
    points = units[:, :, :96].reshape(count, 2, 24, 4)
    points[..., 0] = stones >= 1
    points[..., 1] = stones >= 2
    points[..., 2] = stones >= 3
    points[..., 3] = np.maximum(stones - 3, 0) / 2
    units[:, :, 96] = positions[:, :, 25] / np.float32(2)
    units[:, :, 97] = positions[:, :, 0] / np.float32(15)
    out = np.empty((count, RAW_INPUTS), dtype=np.float32)
    out[:, :2 * ROW_UNITS] = units.reshape(count, 2 * ROW_UNITS)
    out[:, 2 * ROW_UNITS:] = TURN_UNITS
    return out


def encode(positions: BatchLike, encoding: str = "raw198", rules: RulesLike = None) -> np.ndarray:
    """The input units of each position in ``encoding`` (see the module).

    Positions are checked as :func:`~bansugoroku_fast.features` checks
    them; ``rules`` matter to the features only (a win's value, a double's
    moves).

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2, 26]``, row 0 = the side that has just moved.
    encoding : str
        ``"raw198"`` (GNU Backgammon's 198 inputs) or ``"raw198+features"``
        (those and the scaled features), the keys of :data:`ENCODINGS`.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    numpy.ndarray
        ``float32[N, K]``, ``K = ENCODINGS[encoding]``.

    Raises
    ------
    InvalidEvaluatorError
        An unknown encoding.
    InvalidRulesError
        The rules are not a rule set.
    InvalidPositionError
        The positions are not an ``(N, 2, 26)`` integer array, or an item is
        not a position of the rules (named by its index).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> units = encode(Position.initial().array[None], "raw198+features", "backgammon")
    >>> units.shape, units[0, 20:24].tolist()     # row 0's five stones on its 6-point
    ((1, 226), [1.0, 1.0, 1.0, 1.0])
    >>> encode(np.zeros((0, 2, 26), dtype=np.int8)).shape
    (0, 198)
    """
    encoding_size(encoding)    # a known encoding
    rules = as_rules(rules)
    return encode_valid(checked_positions(positions, rules), encoding, rules)


def checked_positions(positions: Any, rules: Rules) -> np.ndarray:
    """``positions`` as a C-contiguous ``int8[N, 2, 26]`` array of positions
    ``rules`` accept, or the batch API's typed error naming the first bad one."""
    outcome(positions, rules)    # the kernel checks shape, range and every item
    return np.ascontiguousarray(positions, dtype=np.int8).reshape(-1, 2, 26)


def encode_valid(positions: np.ndarray, encoding: str, rules: Rules) -> np.ndarray:
    """:func:`encode` of checked ``int8[N, 2, 26]`` positions and arguments."""
    if ENCODINGS[encoding] == RAW_INPUTS:
        return raw_units(positions)
    out = np.empty((len(positions), ENCODINGS[encoding]), dtype=np.float32)
    out[:, :RAW_INPUTS] = raw_units(positions)
    out[:, RAW_INPUTS:] = features(positions, rules) / np.array(FEATURE_SCALES, dtype=np.float32)
    return out
