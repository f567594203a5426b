"""Strength as players measure it: cubeless money games with duplicate dice
and seats swapped, scored in mean points per game with its standard error.

Player A plays ``games`` games against B from the rules' start, A in seat 0
(moving first); then the same ``games`` games (the same counter-based dice:
game ``g`` of seed ``s`` rolls the same numbers) with the seats swapped. The
two games of a pair share their luck, so their mean, A's points per game in
the pair, varies far less than one game does; the standard error is that of
the mean of the ``games`` independent pairs.

>>> score = duplicate_match("backgammon", "heuristic", "random", games=50, seed=1, progress=False)
>>> score.games, score.ppg > 0.5
(100, True)
"""
from __future__ import annotations

import math
from typing import Any, NamedTuple, Protocol, runtime_checkable

import numpy as np
from tqdm import tqdm

from .checks import as_rules
from .errors import InvalidArgumentError
from .games.bulk import play_games
from .games.game_batch import Candidates, GameBatch
from .games.policies import choose, resolve_policy
from .rules import Rules

__all__ = ["MatchScore", "MovePicker", "chunk_seed", "duplicate_match", "points_of_seat"]


@runtime_checkable
class MovePicker(Protocol):
    """A player that needs each game's position and dice, not only its
    candidate children (an engine driven move by move, such as GNU
    Backgammon): ``pick(wave)`` gets a :class:`~bansugoroku_fast.Candidates`
    of the games it has to move and returns one choice per game."""

    def pick(self, wave: Candidates) -> np.ndarray: ...


class MatchScore(NamedTuple):
    """Player A's result: ``ppg`` (mean points per game), ``stderr`` (its
    standard error over the duplicate pairs), ``games`` played in all,
    ``wins`` (A's share of the games won) and ``pair_points`` (``float64[n]``:
    A's mean points in each pair)."""

    ppg: float
    stderr: float
    games: int
    wins: float
    pair_points: np.ndarray

    def __str__(self) -> str:
        return f"{self.ppg:+.3f} ± {self.stderr:.3f} ppg over {self.games} games (wins {100 * self.wins:.1f}%)"


MatchScore.ppg.__doc__ = "Player A's mean points per game."
MatchScore.stderr.__doc__ = "The standard error of ``ppg`` over the duplicate pairs."
MatchScore.games.__doc__ = "The games played in all."
MatchScore.wins.__doc__ = "Player A's share of the games won."
MatchScore.pair_points.__doc__ = "``float64[n]``: A's mean points in each duplicate pair."


def points_of_seat(winner: np.ndarray, value: np.ndarray, seat: int) -> np.ndarray:
    """``float64[G]``: the points seat ``seat`` scored in each game (+value won, -value lost).

    >>> points_of_seat(np.array([0, 1]), np.array([2, 1]), 1).tolist()
    [-2.0, 1.0]
    """
    return np.where(np.asarray(winner) == seat, 1.0, -1.0) * np.asarray(value, dtype=np.float64)


def duplicate_match(rules: Any, player_a: Any, player_b: Any, games: int, seed: int = 0, *,
                    progress: bool = True, chunk: int = 2000) -> MatchScore:
    """A's :class:`MatchScore` against B over ``games`` duplicate pairs
    (``2 * games`` games). A player is anything ``play_games`` takes as a
    policy (a name, a ``LinearPolicy``, a callable scoring children). The
    games run ``chunk`` pairs at a time (a tqdm bar counts them), chunk
    ``k`` on the dice of :func:`chunk_seed` ``(seed, k)``: a match depends on
    ``seed``, ``games`` and ``chunk``."""
    rules = as_rules(rules)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 2:
        raise InvalidArgumentError(f"games must be an integer of at least 2 (pairs), got {games!r}")
    pairs: list[np.ndarray] = []
    wins = 0.0
    with tqdm(total=games, unit="pair", disable=not progress, desc=f"{rules.short_name}") as bar:
        for first in range(0, games, chunk):
            count = min(chunk, games - first)
            dice = chunk_seed(seed, first // chunk)
            a_first = _play(rules, count, (player_a, player_b), dice)
            b_first = _play(rules, count, (player_b, player_a), dice)
            points = (points_of_seat(a_first.winner, a_first.value, 0)
                      + points_of_seat(b_first.winner, b_first.value, 1)) / 2.0
            wins += float(np.sum(a_first.winner == 0) + np.sum(b_first.winner == 1))
            pairs.append(points)
            bar.update(count)
    pair_points = np.concatenate(pairs)
    ppg = float(pair_points.mean())
    stderr = float(pair_points.std(ddof=1) / math.sqrt(len(pair_points)))
    return MatchScore(ppg, stderr, 2 * games, wins / (2 * games), pair_points)


def chunk_seed(seed: int, index: int) -> int:
    """The dice seed of chunk ``index`` of a match of seed ``seed`` (chunk 0 plays ``seed`` itself).

    >>> chunk_seed(7, 0), chunk_seed(7, 1) != chunk_seed(7, 2)
    (7, True)
    """
    if index == 0:
        return seed
    return int(np.random.SeedSequence([seed, index]).generate_state(2, dtype=np.uint32).view(np.uint64)[0])


class _Ends(NamedTuple):
    winner: np.ndarray
    value: np.ndarray


def _play(rules: Rules, count: int, players: tuple[Any, Any], seed: int) -> _Ends:
    """``count`` games of ``players`` (seat 0's, seat 1's) from the start:
    by ``play_games`` unless a player is a :class:`MovePicker`, then in a
    :class:`~bansugoroku_fast.GameBatch` (the same dice either way)."""
    if not any(isinstance(player, MovePicker) for player in players):
        records = play_games(rules, count, players, seed=seed)
        return _Ends(records.winner, records.value)
    batch = GameBatch(rules, count, seed=seed, record=False, threads=1)
    while not batch.done:
        wave = batch.candidates()
        choices = np.full(batch.n, -1, dtype=np.int64)
        for seat, player in enumerate(players):
            slots = np.flatnonzero((wave.games >= 0) & (wave.plies % 2 == seat))
            if slots.size:
                choices[slots] = _choices(player, _part(wave, slots), rules, seed)
        batch.step(choices)
    records = batch.records()
    return _Ends(records.winner, records.value)


def _part(wave: Candidates, slots: np.ndarray) -> Candidates:
    """The games of ``slots`` of a wave, their children renumbered from 0."""
    counts = np.diff(wave.offsets)[slots]
    offsets = np.zeros(len(slots) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    rows = np.repeat(wave.offsets[slots] - offsets[:-1], counts) + np.arange(offsets[-1])
    children = wave.children[rows]
    return Candidates(offsets, children, wave.positions[slots], wave.dice[slots], wave.games[slots],
                      wave.plies[slots])


def _choices(player: Any, wave: Candidates, rules: Rules, seed: int) -> np.ndarray:
    if isinstance(player, MovePicker):
        return np.asarray(player.pick(wave), dtype=np.int64)
    policy = resolve_policy(player, rules, callables=True)
    return choose(policy, wave.positions, wave.offsets, wave.children, rules, seed, wave.games, wave.plies)
