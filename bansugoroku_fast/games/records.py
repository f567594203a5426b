"""The records of played games, as arrays: what :func:`play_games` and
:meth:`GameBatch.records <bansugoroku_fast.games.GameBatch.records>` return
and what match files read into (the oracle's twin returns lists of the
same fields; a test holds the two equal field by field)."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np


class GameRecords(NamedTuple):
    """The games of :func:`play_games`. Game ``g`` owns plies
    ``offsets[g]:offsets[g + 1]``.

    * ``offsets``: ``int64[G + 1]``;
    * ``positions``: ``int8[P, 2, 26]``, the position before each ply, seen
      by its mover (row 0);
    * ``dice``: ``int8[P, 2]``, the roll of each ply;
    * ``after``: ``int8[P, 2, 26]``, the position after the ply, same side
      (equal to ``positions`` for a pass);
    * ``winner``: ``int8[G]``, the seat that won (0 = the side that moved first);
    * ``value``: ``int8[G]``; ``kind``: ``int8[G]``, an index into
      :data:`~bansugoroku_fast.games.tallies.KINDS`; ``plies``: ``int32[G]``;
    * ``truncated``: ``bool[G]``, the game was cut off unfinished at
      ``max_plies`` (``on_long="truncate"``): winner and kind -1, value 0,
      its plies recorded; None in records built by hand that do not say
      (no game truncated).
    """

    offsets: np.ndarray
    positions: np.ndarray
    dice: np.ndarray
    after: np.ndarray
    winner: np.ndarray
    value: np.ndarray
    kind: np.ndarray
    plies: np.ndarray
    truncated: np.ndarray | None = None
