"""The records of played games, as arrays: what :func:`play_games` and
:meth:`GameBatch.records <bansugoroku_fast.games.GameBatch.records>` return
and what match files read into (the oracle's twin returns lists of the
same fields; a test holds the two equal field by field)."""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..rules import Rules


class RecordFields(NamedTuple):
    """The eight arrays of :class:`GameRecords` (see there)."""

    offsets: np.ndarray
    positions: np.ndarray
    dice: np.ndarray
    after: np.ndarray
    winner: np.ndarray
    value: np.ndarray
    kind: np.ndarray
    plies: np.ndarray


class GameRecords(RecordFields):
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
      :data:`~bansugoroku_fast.games.tallies.KINDS`; ``plies``: ``int32[G]``.

    Two attributes beside the eight fields (None if not given): ``rules``,
    the rule set the games were played under, so that
    :func:`~bansugoroku_fast.write_match` needs no ``rules=``; and
    ``truncated``, ``bool[G]``, the games cut off unfinished at ``max_plies``
    (``on_long="truncate"``: winner and kind -1, value 0, their plies
    recorded). They are not fields: code that unpacks the eight fields, or
    indexes them, is unchanged.

    >>> from bansugoroku_fast import play_games
    >>> records = play_games("backgammon", games=2, seed=1)
    >>> records.rules.short_name, len(records), records._fields[-1]
    ('backgammon', 8, 'plies')
    >>> offsets, positions, dice, after, winner, value, kind, plies = records
    >>> records._replace(plies=plies).rules == records.rules
    True
    """

    rules: Rules | None
    truncated: np.ndarray | None

    def __new__(cls, offsets: np.ndarray, positions: np.ndarray, dice: np.ndarray, after: np.ndarray,
                winner: np.ndarray, value: np.ndarray, kind: np.ndarray, plies: np.ndarray,
                rules: Rules | None = None, truncated: np.ndarray | None = None) -> GameRecords:
        records = super().__new__(cls, offsets, positions, dice, after, winner, value, kind, plies)
        records.rules = rules  # a subclass of a NamedTuple has a __dict__: pickles keep it
        records.truncated = truncated
        return records

    def _replace(self, /, **changes: Any) -> GameRecords:
        return GameRecords(*RecordFields(*self)._replace(**changes), rules=self.rules, truncated=self.truncated)
