"""Whole games at kernel speed: :func:`play_games`, :func:`rollout`,
:func:`rank_plays` and the :func:`features` query.

Same arguments and the same games as their specification,
:mod:`bansugoroku_fast.oracle.games` (which documents the counter-based dice
exactly): game ``g`` of a run with seed ``s`` depends on ``(s, g)`` alone, so
results never depend on ``threads``, on chunking or on the other positions
of a batch. Policies are described in :mod:`bansugoroku_fast.policies`.

>>> from bansugoroku_fast import Position
>>> records = play_games("backgammon", games=3, policy="heuristic", seed=1)
>>> records.offsets.shape, records.positions.shape[1:], records.dice.dtype
((4,), (2, 26), dtype('int8'))
>>> bool((records.plies == np.diff(records.offsets)).all())
True
>>> result = rollout(Position.initial(), "backgammon", games=72, policy="random", seed=1)
>>> result.counts.shape, int(result.counts.sum()), result.games
((2, 4), 72, 72)
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np
from tqdm import tqdm

from . import _games
from ._status import STATUS
from .api import legal_plays
from .batch import _outcome, _positions_array, _threads
from .checks import (
    BLOCK,
    MAX_PLIES,
    as_position,
    as_rules,
    as_stderr_target,
    as_stratify,
    check_position_for_rules,
    run_arguments,
)
from .errors import GameTooLongError
from .policies import CALLABLE, FEATURE_NAMES, ResolvedPolicy, resolve_policies
from .position import Position
from .rules import Rules
from .tallies import KINDS, RankedPlay, RolloutResult, rank, summarize

__all__ = ["FEATURE_NAMES", "GameRecords", "features", "play_games", "rank_plays", "rollout"]


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
      :data:`~bansugoroku_fast.tallies.KINDS`; ``plies``: ``int32[G]``.
    """

    offsets: np.ndarray
    positions: np.ndarray
    dice: np.ndarray
    after: np.ndarray
    winner: np.ndarray
    value: np.ndarray
    kind: np.ndarray
    plies: np.ndarray


def features(positions: Any, rules: Any = None) -> np.ndarray:
    """``float32[N, F]``: the features of each position (row 0's side, then
    row 1's; names in :data:`~bansugoroku_fast.policies.FEATURE_NAMES`,
    definitions in ``oracle.games.side_features``). Every value is an integer.

    >>> from bansugoroku_fast import Position
    >>> values = features(Position.initial().array[None], "backgammon")
    >>> values.shape, values.dtype, dict(zip(FEATURE_NAMES, values[0].tolist()))["own_pips"]
    ((1, 28), dtype('float32'), 167.0)
    """
    rules = as_rules(rules)
    positions = _checked_positions(positions, rules)
    out = np.empty((len(positions), len(FEATURE_NAMES)), dtype=np.float32)
    _games.features_batch(positions, rules.code, out)
    return out


def _checked_positions(positions: Any, rules: Rules) -> np.ndarray:
    """``positions`` as an ``int8[N, 2, 26]`` array of positions these rules
    accept (the outcome kernel checks each item and names the first bad one)."""
    array = _positions_array(positions)
    _outcome(array, rules)
    return array


# --- driving the kernels -------------------------------------------------------------------

#: Statuses of a game played by the kernels (the Status of ``_board.pxd``).
_TOO_LONG, _NO_MEMORY = STATUS["too_long"], STATUS["no_memory"]


class _Ends(NamedTuple):
    """How each game played by the kernels ended, and its status."""

    winner: np.ndarray
    value: np.ndarray
    kind: np.ndarray
    plies: np.ndarray
    status: np.ndarray

    @classmethod
    def empty(cls, count: int) -> _Ends:
        def small() -> np.ndarray:
            return np.zeros(count, dtype=np.int8)

        return cls(small(), small(), small(), np.zeros(count, dtype=np.int32), small())

    def check(self, seed: int, max_plies: int, first_game: int = 0, per_position: int = 0) -> None:
        """Raise for the first game that failed: item ``i`` is game
        ``first_game + i``, or with ``per_position`` games a position, game
        ``first_game + i % per_position`` of position ``i // per_position``."""
        failed = np.flatnonzero(self.status)
        if not failed.size:
            return
        item = int(failed[0])
        name = f"game {first_game + item}"
        if per_position:
            name = f"game {first_game + item % per_position} from position {item // per_position}"
        if self.status[item] == _NO_MEMORY:
            raise MemoryError(f"out of memory while playing {name}")
        raise GameTooLongError(f"{name} (seed {seed}) has not ended after {max_plies} plies")


def policy_weights(policy: ResolvedPolicy) -> np.ndarray:
    """``float64[F]``: the weights the kernels read for ``policy`` (a
    ``LinearPolicy``'s; zeros for the others, which ignore them)."""
    return np.array(policy.weights or (0.0,) * len(FEATURE_NAMES), dtype=np.float64)


def _policy_arrays(policies: tuple[ResolvedPolicy, ResolvedPolicy]) -> tuple[np.ndarray, np.ndarray]:
    """Policy codes ``int32[2]`` and weights ``float64[2, F]`` (zeros where unused)."""
    codes = np.array([policy.code for policy in policies], dtype=np.int32)
    return codes, np.stack([policy_weights(policy) for policy in policies])


def _has_callable(policies: tuple[ResolvedPolicy, ResolvedPolicy]) -> bool:
    """A seat plays a Python callable: the games are played in lockstep
    (:mod:`bansugoroku_fast.lockstep`), the callable once per wave."""
    return any(policy.code == CALLABLE for policy in policies)


def _start(start: Any, rules: Rules) -> tuple[np.ndarray, bool]:
    """The start position's array and whether ply 0 is the backgammon opening."""
    if start is None:
        return Position.initial(rules).array, rules.is_backgammon
    position = as_position(start)
    check_position_for_rules(position, rules)
    _outcome(position.array[None], rules)
    return position.array, False


def play_games(rules: Any, games: int, policy: Any = "random", seed: int = 0, start: Any = None,
               threads: int | None = None, *, stratify: int | None = None,
               max_plies: int = MAX_PLIES) -> GameRecords:
    """Play ``games`` whole games and record every ply (see :class:`GameRecords`).

    ``policy``: one policy for both seats or a pair ``(seat 0's, seat 1's)``;
    ``start``: a position (row 0 = seat 0, to roll; any roll) or None for the
    rules' start (in backgammon, ply 0 then plays the roll-off's non-double).
    ``stratify``: 36 or 1296 deals the first roll (or two) evenly, as
    :func:`rollout` does (a ``start`` is needed in backgammon), so that a
    stratified rollout's games can be replayed and recorded.
    Raises :class:`~bansugoroku_fast.errors.GameTooLongError` naming the game
    and seed if a game has not ended after ``max_plies`` plies.

    >>> records = play_games("ban-sugoroku", games=2, policy="first", seed=5)
    >>> (records.positions[1:] == records.after[:-1][:, ::-1]).all(axis=(1, 2))[:3].tolist()
    [True, True, True]
    """
    rules, games, seed, max_plies, threads = run_arguments(rules, games, seed, max_plies, threads)
    threads = _threads(threads)
    policies = resolve_policies(policy, rules, callables=True)
    start_array, opening = _start(start, rules)
    strata = as_stratify(stratify, opening)
    if _has_callable(policies):
        from .lockstep import play_lockstep  # lockstep builds on this module

        return play_lockstep(rules, games, policies, seed, start, strata, max_plies, threads)
    codes, weights = _policy_arrays(policies)
    ends = _Ends.empty(games)
    positions, dice, after = _games.play_batch(
        np.ascontiguousarray(start_array), games, opening, strata, codes, weights, rules.code, seed,
        max_plies, threads, *ends,
    )
    ends.check(seed, max_plies)
    offsets = np.zeros(games + 1, dtype=np.int64)
    np.cumsum(ends.plies, out=offsets[1:])
    return GameRecords(offsets, positions, dice, after, ends.winner, ends.value, ends.kind, ends.plies)


# --- rollouts -------------------------------------------------------------------------


class _Tally:
    """Running tallies of a rollout of ``n`` positions."""

    def __init__(self, n: int):
        self.counts = np.zeros((n, 2, 4), dtype=np.int64)
        self.kind_counts = np.zeros((n, 2, len(KINDS)), dtype=np.int64)
        self.plies = np.zeros(n, dtype=np.int64)

    def add(self, item_position: np.ndarray, ends: _Ends) -> None:
        np.add.at(self.counts, (item_position, ends.winner, ends.value), 1)
        np.add.at(self.kind_counts, (item_position, ends.winner, ends.kind), 1)
        np.add.at(self.plies, item_position, ends.plies)

    def results(self, backgammon: bool) -> list[RolloutResult]:
        return [
            summarize(self.counts[i].tolist(), self.kind_counts[i].tolist(),
                      plies=int(self.plies[i]), backgammon=backgammon)
            for i in range(len(self.plies))
        ]


def _blocks(games: int, in_blocks: bool) -> Iterator[tuple[int, int]]:
    """``(first, stop)`` game ranges: one range, or blocks of :data:`BLOCK`
    games (to check a stopping rule, or move a progress bar, between them)."""
    size = BLOCK if in_blocks else games
    for first in range(0, games, size):
        yield first, min(first + size, games)


def _rollout_values(positions: np.ndarray, rules: Rules, games: int,
                    policies: tuple[ResolvedPolicy, ResolvedPolicy], seed: int, stratify: int,
                    max_plies: int, threads: int, stop_at: float | None, progress: bool,
                    first_game: int = 0) -> tuple[_Tally, np.ndarray]:
    """Tallies and seat 0's signed value of every game ``[position, game]``
    (checked arguments)."""
    codes, weights = _policy_arrays(policies)
    lockstep = _has_callable(policies)
    if lockstep:
        from .lockstep import rollout_lockstep  # lockstep builds on this module
    n = len(positions)
    tally = _Tally(n)
    values = []
    with tqdm(total=games * n, disable=not progress, unit="game", leave=False) as bar:
        for first, stop in _blocks(games, stop_at is not None or progress):
            count = stop - first
            ends = _Ends.empty(n * count)
            if lockstep:
                for end, value in zip(ends, rollout_lockstep(positions, first_game + first, count, policies, rules,
                                                             seed, stratify, max_plies, threads)):
                    end[:] = value
            else:
                _games.rollout_batch(positions, first_game + first, count, codes, weights, rules.code, seed,
                                     stratify, max_plies, threads, *ends)
            ends.check(seed, max_plies, first_game + first, per_position=count)
            tally.add(np.repeat(np.arange(n), count), ends)
            signed = np.where(ends.winner == 0, ends.value, -ends.value).astype(np.int8)
            values.append(signed.reshape(n, count))
            bar.update(n * count)
            if stop_at is not None and stop < games:
                worst = max(result.largest_stderr() for result in tally.results(rules.is_backgammon))
                if worst <= stop_at:
                    break
    return tally, np.concatenate(values, axis=1)


def _stacked(results: list[RolloutResult]) -> RolloutResult:
    """One result whose fields gain a leading axis over ``results`` (the
    values of the ``gnubg`` dicts too)."""
    def stack(values: list[Any]) -> Any:
        if values[0] is None:
            return None
        if isinstance(values[0], dict):
            return {key: np.array([one[key] for one in values]) for key in values[0]}
        return np.array(values)

    fields = {field.name: stack([getattr(result, field.name) for result in results])
              for field in dataclasses.fields(RolloutResult)}
    for tally in ("counts", "kind_counts"):  # int64 whatever numpy's default integer
        fields[tally] = fields[tally].astype(np.int64)
    return RolloutResult(**fields)


def _unstacked(result: RolloutResult) -> RolloutResult:
    """The result of a one-position batch without its leading axis (arrays
    stay arrays, scalars become Python numbers)."""
    def first(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, dict):
            return {key: first(one) for key, one in value.items()}
        item = value[0]
        return item if isinstance(item, np.ndarray) else item.item()

    return RolloutResult(**{field.name: first(getattr(result, field.name))
                            for field in dataclasses.fields(RolloutResult)})


def _rollout_positions(position: Any, rules: Rules) -> tuple[np.ndarray, bool]:
    """``int8[N, 2, 26]`` positions, and whether one position was given."""
    if isinstance(position, (Position, str)):
        return _checked_positions(as_position(position).array[None], rules), True
    array = np.asarray(position)
    single = array.ndim == 2
    return _checked_positions(array[None] if single else array, rules), single


def rollout(position: Any, rules: Any = None, games: int = 1296, policy: Any = "random",
            seed: int = 0, threads: int | None = None, progress: bool = False, *,
            stratify: int | None = None, stderr_target: float | None = None,
            max_plies: int = MAX_PLIES, first_game: int = 0) -> RolloutResult:
    """Play ``games`` games from ``position`` (seat 0 = row 0, to roll) and
    tally them (see :class:`~bansugoroku_fast.tallies.RolloutResult`).

    ``position`` is one position (a :class:`Position`, an id or an ``int8[2,
    26]``) or a batch ``int8[N, 2, 26]`` (every field then gains a leading
    ``N`` axis; game ``g`` of every position rolls the same dice). Game ``g``
    is game ``g`` of ``play_games(rules, games, policy, seed,
    start=position, stratify=stratify)``; ``stratify=36`` (or ``1296``) deals
    the first roll (or two) evenly over each 36 (or 1,296) consecutive
    games, and the standard errors stay the plain, conservative formula (see
    :mod:`bansugoroku_fast.tallies`). ``stderr_target``: play blocks of 1,296 games and stop after the first
    block at which every figure's standard error (of every position) is at
    most the target. ``progress``: a progress bar (tqdm) on stderr.
    ``first_game``: play games ``first_game .. first_game + games - 1`` of
    the seed instead of ``0 .. games - 1``, so that runs over consecutive
    ranges add up to one run (what :func:`bansugoroku_fast.distributed.rollout`
    does).

    >>> from bansugoroku_fast import Position
    >>> batch = np.stack([Position.initial().array] * 2)
    >>> result = rollout(batch, "backgammon", games=36, policy="first", stratify=36)
    >>> result.counts.shape, result.equity.shape, bool((result.counts[0] == result.counts[1]).all())
    ((2, 2, 4), (2,), True)
    """
    rules, games, seed, max_plies, threads = run_arguments(rules, games, seed, max_plies, threads)
    threads = _threads(threads)
    strata = as_stratify(stratify)
    stop_at = as_stderr_target(stderr_target)
    policies = resolve_policies(policy, rules, callables=True)
    positions, single = _rollout_positions(position, rules)
    if isinstance(first_game, bool) or not isinstance(first_game, (int, np.integer)) or first_game < 0:
        raise ValueError(f"first_game must be a non-negative integer, got {first_game!r}")
    tally, _ = _rollout_values(positions, rules, games, policies, seed, strata, max_plies, threads,
                               stop_at, progress, int(first_game))
    result = _stacked(tally.results(rules.is_backgammon))
    return _unstacked(result) if single else result


def rank_plays(position: Any, dice: Any, rules: Any = None, games: int = 1296,
               policy: Any = "random", seed: int = 0, threads: int | None = None,
               progress: bool = False, *, stratify: int | None = None,
               max_plies: int = MAX_PLIES) -> list[RankedPlay]:
    """Roll out every legal play of ``dice`` in ``position`` with duplicate
    dice (game ``g`` after every play sees the same rolls) and return them
    best first: greatest equity for the side that plays, ties in
    ``legal_plays`` order, each with its standard error and that of its
    difference to the best play.

    >>> from bansugoroku_fast import Position
    >>> ranked = rank_plays(Position.initial(), (6, 5), "backgammon", games=100, policy="random")
    >>> len(ranked), ranked[0].difference_stderr, ranked[0].equity >= ranked[-1].equity
    (7, 0.0, True)
    """
    rules, games, seed, max_plies, threads = run_arguments(rules, games, seed, max_plies, threads)
    threads = _threads(threads)
    strata = as_stratify(stratify)
    policies = resolve_policies(policy, rules, callables=True)
    plays = legal_plays(position, dice, rules)
    if not plays:
        return []
    children = np.stack([play.position.swapped().array for play in plays])
    _, values = _rollout_values(children, rules, games, policies, seed, strata, max_plies, threads,
                                None, progress)
    return rank(plays, (-values.astype(np.int64)).tolist())
