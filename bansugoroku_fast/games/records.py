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


RecordFields.offsets.__doc__ = "``int64[G + 1]``: game ``g`` owns plies ``offsets[g]:offsets[g + 1]``."
RecordFields.positions.__doc__ = "``int8[P, 2, 26]``: the position before each ply, seen by its mover (row 0)."
RecordFields.dice.__doc__ = "``int8[P, 2]``: the roll of each ply."
RecordFields.after.__doc__ = (
    "``int8[P, 2, 26]``: the position after each ply, seen by the same side (``positions`` for a pass)."
)
RecordFields.winner.__doc__ = "``int8[G]``: the seat that won each game (0 = the side that moved first; -1 cut off)."
RecordFields.value.__doc__ = "``int8[G]``: the points each game was won for, 1, 2 or 3 (0 cut off)."
RecordFields.kind.__doc__ = (
    "``int8[G]``: how each game was won, an index into ``games.tallies.KINDS`` (-1 cut off or passed)."
)
RecordFields.plies.__doc__ = "``int32[G]``: the plies each game lasted."


class CubeActions(NamedTuple):
    """The cube actions of cubeful games, in the order they were made:
    ``game`` (``int64``), ``ply`` (the ply whose roll they came before),
    ``seat`` (who acted) and ``action`` (``int8``, an index into
    :data:`~bansugoroku_fast.games.cubeful.ACTION_NAMES`: double, take,
    pass, beaver)."""

    game: np.ndarray
    ply: np.ndarray
    seat: np.ndarray
    action: np.ndarray


class CubeRecords(NamedTuple):
    """The cube of cubeful games (``play_games(..., cubeful=...)``), per
    game: ``cube`` (``int64[G]``, its value at the end; before the offer
    for a passed double), ``passed`` (``bool[G]``: the game ended by a
    passed double, its winner the doubler), ``points`` (``int64[G]``, what
    the winner scores: the cube times the game's value, or the cube after
    a pass; 0 for a game cut off), and ``actions`` (:class:`CubeActions`)."""

    cube: np.ndarray
    passed: np.ndarray
    points: np.ndarray
    actions: CubeActions


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

    Three attributes beside the eight fields (None if not given): ``rules``,
    the rule set the games were played under, so that
    :func:`~bansugoroku_fast.write_match` needs no ``rules=``;
    ``truncated``, ``bool[G]``, the games cut off unfinished at ``max_plies``
    (``on_long="truncate"``: winner and kind -1, value 0, their plies
    recorded); and ``cube``, the :class:`CubeRecords` of cubeful games (a
    passed game's winner is the doubler, its value 1, its kind -1). They
    are not fields: code that unpacks the eight fields, or indexes them, is
    unchanged.

    Parameters
    ----------
    offsets, positions, dice, after, winner, value, kind, plies : numpy.ndarray
        The eight fields above.
    rules : Rules or None
        The rule set the games were played under.
    truncated : numpy.ndarray or None
        ``bool[G]``: the games cut off unfinished at ``max_plies``.
    cube : CubeRecords or None
        The cube of cubeful games.

    Examples
    --------
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
    cube: CubeRecords | None

    def __new__(cls, offsets: np.ndarray, positions: np.ndarray, dice: np.ndarray, after: np.ndarray,
                winner: np.ndarray, value: np.ndarray, kind: np.ndarray, plies: np.ndarray,
                rules: Rules | None = None, truncated: np.ndarray | None = None,
                cube: CubeRecords | None = None) -> GameRecords:
        records = super().__new__(cls, offsets, positions, dice, after, winner, value, kind, plies)
        records.rules = rules  # a subclass of a NamedTuple has a __dict__: pickles keep it
        records.truncated = truncated
        records.cube = cube
        return records

    def _replace(self, /, **changes: Any) -> GameRecords:
        return GameRecords(*RecordFields(*self)._replace(**changes), rules=self.rules, truncated=self.truncated,
                           cube=self.cube)
