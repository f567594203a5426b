"""Exact endgames: one-sided and two-sided race tables built by the
kernels, exact race figures, and the best play of a race.

* :func:`one_sided` / :func:`first_off`: one side's distribution of the
  turns to finish / to take its first stone off;
* :func:`race` / :func:`race_batch`: winning and gammon chances, equity
  and expected turns of a race (row 0 to roll), exact from the tables, and
  in a backgammon race of up to 6 stones a side its exact money cubeful
  equities; :func:`race_cube`: the exact money cube decision there;
* :func:`race_play`, :func:`race_scores`, :class:`RacePolicy`: playing a
  race by the tables;
* :func:`~bansugoroku_fast.endgames.store.tables`: the tables themselves,
  built in seconds and cached on disk (``python -m
  bansugoroku_fast.endgames build`` builds them all).

docs/endgames.md explains what is exact and what is approximate.

A lone stone on the 6-point bears off in one backgammon turn unless the
roll is one of 1-1, 1-2, 1-3, 1-4, 2-3 (9 of 36):

>>> (one_sided([0, 0, 0, 0, 0, 1], "backgammon") * 36).round(9).tolist()
[0.0, 27.0, 9.0]
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..checks import as_rules
from ..errors import InvalidStonesError, TableRulesError
from ..typing import RulesLike
from .races import (
    CubefulEquities,
    Method,
    OneSidedError,
    RaceBatch,
    RaceCube,
    RacePolicy,
    RaceResult,
    TablePolicy,
    one_sided_differences,
    one_sided_error,
    race,
    race_batch,
    race_cube,
    race_play,
    race_scores,
)
from .store import (
    CUBE_STATES,
    KINDS,
    POSITIONS,
    SMALL_POSITIONS,
    TableKind,
    Tables,
    build,
    cache_dir,
    kind_of,
    play_children,
    rank,
    ranks,
    stone_counts,
    stones_of_rank,
    tables,
)

__all__ = [
    "CUBE_STATES",
    "KINDS",
    "POSITIONS",
    "SMALL_POSITIONS",
    "CubefulEquities",
    "Method",
    "OneSidedError",
    "RaceBatch",
    "RaceCube",
    "RacePolicy",
    "RaceResult",
    "TablePolicy",
    "TableKind",
    "Tables",
    "build",
    "cache_dir",
    "first_off",
    "kind_of",
    "one_sided",
    "one_sided_differences",
    "one_sided_error",
    "play_children",
    "race",
    "race_batch",
    "race_cube",
    "race_play",
    "race_scores",
    "rank",
    "ranks",
    "stone_counts",
    "stones_of_rank",
    "tables",
]

def _trimmed(row: np.ndarray) -> np.ndarray:
    """A copy of a distribution without its trailing zeros."""
    used = np.flatnonzero(row)
    return np.array(row[: int(used[-1]) + 1] if len(used) else row[:1], dtype=np.float64)


def one_sided(stones: Sequence[int] | np.ndarray, rules: RulesLike = None) -> np.ndarray:
    """The distribution of the turns one side needs to finish, playing each
    roll to least expected turns, under ``rules``' finish.

    ``stones[i]`` is the stones on the table's point ``i + 1``: the side's
    point ``i + 1`` in backgammon and under the bear-off finish (the other
    stones borne off; finishing = bearing off the last); under the arrival
    finish, the side's point ``i + 7`` (the other stones home on points
    1..6, where they never change the figures; finishing = the last stone
    reaching point 6 or below).

    Parameters
    ----------
    stones : Sequence of int
        Six counts >= 0, at most 15 in all.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    numpy.ndarray
        ``float64[T]``: entry ``t`` is the probability of finishing in
        exactly ``t`` turns (no trailing zeros). No stones: ``[1.0]``, done in
        0 turns.

    Raises
    ------
    InvalidStonesError
        Not six counts >= 0 of at most 15 stones (``StonesTypeError`` for a
        value that is not a sequence of integers).
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    Under Ban-sugoroku's arrival finish one stone on point 12 (the table's
    point 6) needs six pips; doubles move twice, so 1-1 and 2-2 miss too:

    >>> (one_sided([0, 0, 0, 0, 0, 1]) * 36).round(9).tolist()[:2]
    [0.0, 26.0]
    """
    counts = stone_counts(stones)
    built = tables(rules)
    return _trimmed(built.finish[rank(counts)])


def first_off(stones: Sequence[int] | np.ndarray, rules: RulesLike = None) -> np.ndarray:
    """The distribution of the turns one side needs to take its first stone
    off, playing to least expected turns of that.

    What gammons depend on, for a side with all 15 on the board. Bear-off
    rules only.

    Parameters
    ----------
    stones : Sequence of int
        Six counts as in :func:`one_sided`, at least one stone.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults (whose arrival finish has no such table).

    Returns
    -------
    numpy.ndarray
        ``float64[T]``: entry ``t`` is the probability that the first stone
        comes off in exactly ``t`` turns.

    Raises
    ------
    TableRulesError
        The rules' finish is the arrival: no stone leaves the board.
    InvalidStonesError
        No stone, or not six counts >= 0 of at most 15 stones
        (``StonesTypeError`` for a value that is not a sequence of
        integers).
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    Fifteen stones on the 6-point take the first off in one turn with a 6
    (11 rolls of 36), 5-1 or 4-2 (4) or 2-2 or 3-3 (2); a larger die may
    not bear off while stones stand higher, so 5-2 or 4-4 do not:

    >>> round(float(first_off([0, 0, 0, 0, 0, 15], "backgammon")[1]) * 36, 9)
    17.0
    """
    counts = stone_counts(stones)
    checked = as_rules(rules)
    if not kind_of(checked).bears_off:
        raise TableRulesError(f"no stone leaves the board under {checked.short_name}: no first-off table")
    if sum(counts) == 0:
        raise InvalidStonesError("first_off needs at least one stone on the board")
    return _trimmed(tables(checked).first[rank(counts)])
