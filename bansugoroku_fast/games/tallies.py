"""Rollout figures from game tallies (plain Python, shared by the oracle and
the kernel-backed rollouts: statistics, not rules).

A rollout of one position tallies its games in ``counts[seat][value]``
(games won by seat 0 = the side to move, or seat 1, worth ``value`` 1..3;
column 0 unused) and ``kind_counts[seat][kind]`` (kind = index in
:data:`KINDS`). Every figure below follows from those tallies, because a
game's signed value (seat 0's view) is ``+value`` or ``-value``.

**Truncated games** (``on_long="truncate"``: cut off unfinished after
``max_plies`` plies) have no winner and no value, so they are counted apart,
in ``truncated``: they are among the ``games`` played and their plies in
``mean_plies``, but not in ``counts`` or ``kind_counts``, and every figure
(equity, probabilities, standard errors) is over the ``games - truncated``
finished games alone. That is the rollout of the games that end within the
cap: unbiased only if ending late says nothing about who wins, so a
rollout with many truncated games needs a larger cap, or another estimate
of those positions.

Standard errors are those of a mean of independent games, ``sqrt(s^2 / n)``
with the sample variance ``s^2`` (``n - 1`` in the denominator; NaN for one
game). **Stratified rollouts report this same plain formula**, computed from
the tallies as if the games were independent draws; it is not the standard
error of a stratified mean. Over whole cycles (a multiple of 36, or 1,296,
games) each stratum (first roll, or first two) holds the same number of
games, so the plain ``s^2`` estimates the within-strata variance *plus* the
variance between the strata's means, while the stratified mean's variance
is the within-strata part alone divided by ``n``: the reported figures are
conservative (at least the true error, in expectation), and
``stderr_target`` stops no earlier than the true error would let it. The
reduction actually bought is measured by repeating seeds
(``python -m benchmarks.games``, ``benchmarks/README.md``).

>>> result = summarize([[0, 3, 1, 0], [0, 2, 0, 0]], [[0] * 8, [0] * 8], plies=120)
>>> result.games, result.equity, result.win_probability, result.mean_plies
(6, 0.5, 0.6666666666666666, 20.0)
>>> round(result.stderr, 6)
0.5
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..errors import InvalidArgumentError
from ..play import OutcomeKind, Play

#: Outcome kinds by code (the ``kind`` of game records and the columns of
#: ``kind_counts``).
KINDS = tuple(OutcomeKind)

#: The figures GNU Backgammon shows for a rollout, in its order; gammons
#: include backgammons, and ``equity`` is the cubeless equity.
GNUBG_FIGURES = ("win", "win_gammon", "win_backgammon", "lose", "lose_gammon", "lose_backgammon", "equity")


@dataclass(frozen=True)
class RolloutResult:
    """What a rollout found. For a batch of positions every field gains a
    leading axis (numpy arrays; ``gnubg`` values become arrays too).

    * ``counts[seat][value]``: games won by ``seat`` (0 = the side to move)
      worth ``value`` (1..3; column 0 unused);
    * ``kind_counts[seat][kind]``: the same games split by outcome kind
      (columns in :data:`KINDS` order);
    * ``games``: games played (fewer than asked when ``stderr_target`` stopped
      the rollout), ``truncated`` ones included;
    * ``truncated``: games cut off unfinished at ``max_plies``
      (``on_long="truncate"``): in no tally and no figure below;
    * ``settled``: games stopped before their end and valued by their
      chances there: at the exact endgame tables (``endgames=True``) or
      by the evaluator after ``truncate`` plies (``counts`` then holds
      expected counts, floats, and ``kind_counts`` the games played to
      their end only; with ``variance_reduction`` the counts are
      luck-adjusted, floats too);
    * ``equity``: seat 0's mean signed value, and its ``stderr``;
    * ``win_probability``: the share of games seat 0 won, and ``win_stderr``;
    * ``mean_plies``: plies per game played (passes included);
    * ``gnubg`` / ``gnubg_stderr`` (backgammon, else None): the seven figures
      of :data:`GNUBG_FIGURES` (probabilities in 0..1) and their standard errors;
    * a cubeful rollout (``cubeful=...``) only, else None: ``cubeful_equity``,
      seat 0's mean points per game with the cube, normalised to the cube
      at the start (GNU Backgammon's cubeful equity, money play), and its
      ``cubeful_stderr``; ``passed``, the
      games ended by a passed double (counted in ``settled``: their
      cubeless figures are the evaluator's chances at the pass); and
      ``mean_cube``, the cube's mean value at the games' end.

    Parameters
    ----------
    counts, kind_counts : Any
        As above (nested tuples; arrays for a batch).
    games : int
        As above.
    equity, stderr, win_probability, win_stderr, mean_plies : float
        As above.
    gnubg, gnubg_stderr : dict or None
        As above.
    truncated, settled : int
        As above.
    cubeful_equity, cubeful_stderr, passed, mean_cube : float or None
        As above.

    Examples
    --------
    >>> from bansugoroku_fast import Position, rollout
    >>> result = rollout(Position.initial(), "backgammon", games=36, policy="first", stratify=36)
    >>> result.games, int(sum(map(sum, result.counts))), result.truncated, result.cubeful_equity
    (36, 36, 0, None)
    """

    counts: Any
    kind_counts: Any
    games: Any
    equity: Any
    stderr: Any
    win_probability: Any
    win_stderr: Any
    mean_plies: Any
    gnubg: dict[str, Any] | None
    gnubg_stderr: dict[str, Any] | None
    truncated: Any = 0
    settled: Any = 0
    cubeful_equity: Any = None
    cubeful_stderr: Any = None
    passed: Any = None
    mean_cube: Any = None

    def largest_stderr(self) -> float:
        """The largest standard error among the reported figures (what
        ``stderr_target`` holds down)."""
        errors = [self.stderr, self.win_stderr, *(self.gnubg_stderr or {}).values()]
        if self.cubeful_stderr is not None:
            errors.append(self.cubeful_stderr)
        return max(_worst(error) for error in errors)


def _worst(value: Any) -> float:
    """The largest entry of a figure (a float, or an array for a batch); NaN
    counts as infinite."""
    values = value.ravel().tolist() if hasattr(value, "ravel") else [value]
    return max(math.inf if math.isnan(v) else v for v in values)


def mean_and_stderr(total: float, squares: float, games: int) -> tuple[float, float]:
    """Mean and standard error of ``games`` values whose sum is ``total`` and
    sum of squares ``squares``.

    >>> mean, stderr = mean_and_stderr(2.0, 2.0, 4)   # values 1, 1, 0, 0
    >>> mean, round(stderr ** 2, 12)                  # s^2 = 1/3, divided by 4
    (0.5, 0.083333333333)
    >>> mean_and_stderr(0.0, 0.0, 0)                  # no game: no figure
    (nan, nan)
    """
    if games == 0:
        return math.nan, math.nan
    mean = total / games
    if games < 2:
        return mean, math.nan
    variance = max(squares - games * mean * mean, 0.0) / (games - 1)
    return mean, math.sqrt(variance / games)


def _share(count: int, games: int) -> tuple[float, float]:
    """A proportion (0/1 values: the sum of squares is the count)."""
    return mean_and_stderr(count, count, games)


def figure_values(shares: np.ndarray) -> np.ndarray:
    """``float64[G, 7]``: each game's value of every figure of
    :data:`GNUBG_FIGURES` (win, win_gammon, win_backgammon, lose,
    lose_gammon, lose_backgammon, equity) from its ``shares[g, seat,
    value]`` (a one-hot for a game played to its end; exact chances for one
    stopped at the tables). A figure is the mean of these values.

    >>> shares = np.zeros((1, 2, 4)); shares[0, 0, 1], shares[0, 1, 2] = 0.75, 0.25
    >>> figure_values(shares).tolist()
    [[0.75, 0.0, 0.0, 0.25, 0.25, 0.0, 0.25]]
    """
    won, lost = shares[:, 0], shares[:, 1]
    values = np.arange(4)
    return np.stack([won[:, 1:].sum(axis=1), won[:, 2] + won[:, 3], won[:, 3],
                     lost[:, 1:].sum(axis=1), lost[:, 2] + lost[:, 3], lost[:, 3],
                     ((won - lost) * values).sum(axis=1)], axis=1)


def summarize(counts: Sequence[Sequence[float]], kind_counts: Sequence[Sequence[int]], *,
              plies: int, backgammon: bool = False, truncated: int = 0,
              squares: Sequence[float] | None = None, finished: int | None = None,
              settled: int = 0) -> RolloutResult:
    """The figures of one position's tallies (``plies``: the plies of
    every game played, ``truncated`` ones included; the figures are over
    the finished games, those of ``counts``).

    ``squares`` (with ``finished``, the number of finished games, and
    ``settled``, how many of them stopped at the tables): the sums over
    the games of the squares of each figure's per-game value, in
    :data:`GNUBG_FIGURES` order (:func:`figure_values`), for tallies whose
    ``counts`` are sums of probabilities; None: every game was played to
    its end (integer counts, each value 0 or 1, the square its own value).

    >>> result = summarize([[0, 3, 0, 0], [0, 1, 0, 0]], [[0] * 8, [0] * 8], plies=500, truncated=1)
    >>> result.games, result.truncated, result.equity, result.mean_plies
    (5, 1, 0.5, 100.0)

    Two games stopped at the tables, each a 3-in-4 win: the mean is exact
    and the standard error 0 (the games agree), where two played-out games
    could only say 0, 1/2 or 1:

    >>> result = summarize([[0, 1.5, 0, 0], [0, 0.5, 0, 0]], [[0] * 8] * 2, plies=0,
    ...                    squares=[1.125, 0, 0, 0.125, 0, 0, 0.5], finished=2, settled=2)
    >>> result.win_probability, result.win_stderr, result.equity, result.stderr
    (0.75, 0.0, 0.5, 0.0)
    """
    if squares is not None:
        return _summarize_shares([float(c) for c in counts[0]], [float(c) for c in counts[1]], kind_counts,
                                 plies, backgammon, truncated, squares, finished, settled)
    won, lost = [int(c) for c in counts[0]], [int(c) for c in counts[1]]
    games = sum(won) + sum(lost)
    total = sum(value * (won[value] - lost[value]) for value in (1, 2, 3))
    squares_total = sum(value * value * (won[value] + lost[value]) for value in (1, 2, 3))
    equity, stderr = mean_and_stderr(total, squares_total, games)
    win, win_stderr = _share(sum(won), games)
    gnubg = gnubg_stderr = None
    if backgammon:
        shares = {
            "win": _share(sum(won), games),
            "win_gammon": _share(won[2] + won[3], games),
            "win_backgammon": _share(won[3], games),
            "lose": _share(sum(lost), games),
            "lose_gammon": _share(lost[2] + lost[3], games),
            "lose_backgammon": _share(lost[3], games),
            "equity": (equity, stderr),
        }
        gnubg = {name: shares[name][0] for name in GNUBG_FIGURES}
        gnubg_stderr = {name: shares[name][1] for name in GNUBG_FIGURES}
    return RolloutResult(
        counts=tuple(tuple(row) for row in (won, lost)),
        kind_counts=tuple(tuple(int(c) for c in row) for row in kind_counts),
        games=games + truncated, equity=equity, stderr=stderr, win_probability=win, win_stderr=win_stderr,
        mean_plies=plies / (games + truncated) if games + truncated else math.nan, gnubg=gnubg,
        gnubg_stderr=gnubg_stderr, truncated=truncated,
    )


def _summarize_shares(won: list[float], lost: list[float], kind_counts: Sequence[Sequence[int]], plies: int,
                      backgammon: bool, truncated: int, squares: Sequence[float], finished: int | None,
                      settled: int) -> RolloutResult:
    """:func:`summarize` for tallies of probabilities (some games stopped
    at the tables): every figure from its sum and its sum of squares."""
    if finished is None:
        raise InvalidArgumentError("summarize: squares needs finished, the number of finished games")
    totals = (sum(won[1:]), won[2] + won[3], won[3], sum(lost[1:]), lost[2] + lost[3], lost[3],
              sum(value * (won[value] - lost[value]) for value in (1, 2, 3)))
    figures = {name: mean_and_stderr(total, float(square), finished)
               for name, total, square in zip(GNUBG_FIGURES, totals, squares)}
    equity, stderr = figures["equity"]
    win, win_stderr = figures["win"]
    gnubg = gnubg_stderr = None
    if backgammon:
        gnubg = {name: figures[name][0] for name in GNUBG_FIGURES}
        gnubg_stderr = {name: figures[name][1] for name in GNUBG_FIGURES}
    played = finished + truncated
    return RolloutResult(
        counts=(tuple(won), tuple(lost)),
        kind_counts=tuple(tuple(int(c) for c in row) for row in kind_counts),
        games=played, equity=equity, stderr=stderr, win_probability=win, win_stderr=win_stderr,
        mean_plies=plies / played if played else math.nan, gnubg=gnubg, gnubg_stderr=gnubg_stderr,
        truncated=truncated, settled=settled,
    )


class RankedPlay(NamedTuple):
    """One play of ``rank_plays``, with its rollout figures.

    Parameters
    ----------
    play : Play
        The play.
    equity : float
        The mover's rollout equity after it.
    stderr : float
        The standard error of ``equity``.
    difference_stderr : float
        The standard error of ``best equity - equity`` over the paired games
        (duplicate dice; 0.0 for the best play itself).

    Examples
    --------
    >>> from bansugoroku_fast import Position, rank_plays
    >>> ranked = rank_plays(Position.initial(), (6, 5), "backgammon", games=4, policy="first")
    >>> ranked[0].difference_stderr, ranked[0].equity >= ranked[-1].equity
    (0.0, True)
    """

    play: Play
    equity: float
    stderr: float
    difference_stderr: float


RankedPlay.play.__doc__ = "The play."  # type: ignore[misc]
RankedPlay.equity.__doc__ = "The mover's rollout equity after it."
RankedPlay.stderr.__doc__ = "The standard error of ``equity``."
RankedPlay.difference_stderr.__doc__ = (
    "The standard error of ``best equity - equity`` over the paired games (0.0 for the best play)."
)


def _mean_stderr(values: Sequence[float | None]) -> tuple[float, float]:
    """Mean and standard error of the values that are not None."""
    finished = [v for v in values if v is not None]
    return mean_and_stderr(float(sum(finished)), float(sum(v * v for v in finished)), len(finished))


def rank(plays: Sequence[Play], values: Sequence[Sequence[float | None]]) -> list[RankedPlay]:
    """``plays`` best first by the mean of their games' ``values`` (the
    mover's signed value of game ``g`` after each play; game ``g`` of every
    play saw the same dice). Ties keep the given order. A truncated game's
    value is None: left out of its play's mean, and of the differences
    (paired games finished after both plays); a play none of whose games
    finished has a NaN equity and comes last.

    >>> from bansugoroku_fast import Position, legal_plays
    >>> plays = legal_plays(Position.initial(), (6, 5))[:2]
    >>> [(str(r.play), r.equity, r.difference_stderr) for r in rank(plays, [[1, -1], [1, 1]])]
    [('24/18 13/8', 1.0, 0.0), ('24/13', 0.0, 1.0)]
    """
    means = [_mean_stderr(row) for row in values]
    order = sorted(range(len(plays)), key=lambda i: (math.isnan(means[i][0]), -means[i][0]))  # no game finished: last
    ranked = []
    for i in order:
        best = values[order[0]]
        differences: list[float | None] = [None if b is None or v is None else b - v
                                         for b, v in zip(best, values[i])]
        difference = 0.0 if i == order[0] else _mean_stderr(differences)[1]
        ranked.append(RankedPlay(plays[i], means[i][0], means[i][1], difference))
    return ranked
