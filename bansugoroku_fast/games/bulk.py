"""Whole games at kernel speed: :func:`play_games`, :func:`rollout`,
:func:`rank_plays` and the :func:`features` query.

Same arguments and the same games as their specification,
:mod:`bansugoroku_fast.oracle.games` (which documents the counter-based dice
exactly): game ``g`` of a run with seed ``s`` depends on ``(s, g)`` alone, so
results never depend on ``threads``, on chunking or on the other positions
of a batch. Policies are described in :mod:`bansugoroku_fast.games.policies`.

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
from typing import Any

import numpy as np
from tqdm import tqdm

from .. import _kernel
from ..batch import features
from ..checks import (
    BLOCK,
    MAX_PLIES,
    as_checked_positions,
    as_on_long,
    as_stderr_target,
    as_stratify,
    as_threads,
    positive_int,
    run_arguments,
    scoring_rules,
    warn_uneven_strata,
)
from ..endgames.races import race_batch
from ..endgames.store import kind_of, tables
from ..errors import ArgumentTypeError, InvalidArgumentError, PolicyTypeError
from ..moves import legal_plays
from ..position import Position, as_position
from ..rules import Rules
from ..scoring import FEATURE_NAMES
from ..typing import DiceLike, PoliciesLike, PositionLike, RulesLike
from .cubeful import CubeSettings, Cubing, as_cube_settings, cubing_of
from .game_batch import (
    SETTLED,
    CubefulBatch,
    CubefulEnds,
    Judging,
    Settle,
    play_lockstep,
    play_out,
    rollout_lockstep,
    rollout_stopped,
    settled_at_start,
    starting_array,
)
from .policies import (
    ResolvedPolicy,
    has_callable,
    policy_arrays,
    policy_models,
    resolve_policies,
)
from .records import CubeRecords, GameRecords
from .tallies import (
    GNUBG_FIGURES,
    KINDS,
    RankedPlay,
    RolloutResult,
    figure_values,
    mean_and_stderr,
    rank,
    summarize,
)

__all__ = ["FEATURE_NAMES", "GameRecords", "features", "play_games", "rank_plays", "rollout"]


def play_games(rules: RulesLike, games: int, policy: PoliciesLike = "random", seed: int = 0,
               start: PositionLike | None = None, threads: int | None = None, *, stratify: int | None = None,
               max_plies: int = MAX_PLIES, on_long: str = "raise",
               cubeful: bool | CubeSettings = False) -> GameRecords:
    """Play ``games`` whole games and record every ply (see :class:`GameRecords`).

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set (None: Ban-sugoroku with its default options).
    games : int
        How many games, at least 1.
    policy : ~bansugoroku_fast.typing.PoliciesLike
        One policy for both seats or a pair ``(seat 0's, seat 1's)``: a
        built-in's name (``"random"``, ``"first"``, ``"heuristic"``,
        ``"pubeval"``, ``"race"``, ``"net"``, ``"net1"``), an
        :class:`~bansugoroku_fast.evaluators.EvaluatorPolicy` or a Python
        policy (see :mod:`bansugoroku_fast.games`).
    seed : int
        The dice: game ``g`` of a seed always rolls the same dice.
    start : ~bansugoroku_fast.typing.PositionLike or None
        The position every game starts from (row 0 = seat 0, to roll; any
        roll), or None for the rules' start (in backgammon, ply 0 then
        plays the roll-off's non-double).
    threads : int or None
        Threads for the kernels (None: every core); the games do not
        depend on it.
    stratify : int or None
        36 or 1296 deals the first roll (or two) evenly, as
        :func:`rollout` does (a ``start`` is needed in backgammon), so that
        a stratified rollout's games can be replayed and recorded.
    max_plies : int
        The plies a game may last.
    on_long : str
        ``"raise"``: a game not over after ``max_plies`` plies raises;
        ``"truncate"``: it ends there, unfinished (``truncated`` in the
        records).
    cubeful : bool or CubeSettings
        ``True`` (or a :class:`~bansugoroku_fast.games.cubeful.CubeSettings`;
        backgammon only, the rules give Ban-sugoroku no cube): both sides
        double, take and pass by the evaluator's 0-ply cube decisions (seat
        0's policy's evaluator, else the shipped network; see
        :mod:`bansugoroku_fast.games.cubeful`), the games stepped in
        lockstep; the records' ``cube`` holds each game's cube, whether it
        ended by a passed double, the winner's points (cube times value)
        and every cube action. Up to a pass, game ``g`` rolls the dice of
        the cubeless game ``g``.

    Returns
    -------
    GameRecords
        Every ply of every game (positions, dice, plays, the position
        after), each game's winner, value and length.

    Raises
    ------
    InvalidArgumentError
        A count, seed or option out of its range (``games`` of 0, an
        unknown ``on_long``, ``stratify`` other than 36 or 1296).
    InvalidPolicyError
        A policy that is not one (an unknown name, a policy of other
        rules).
    InvalidPositionError
        ``start`` is not a position of the rules.
    GameTooLongError
        A game has not ended after ``max_plies`` plies (the message names
        the game and the seed), unless ``on_long="truncate"``.

    Examples
    --------
    >>> records = play_games("ban-sugoroku", games=2, policy="first", seed=5)
    >>> (records.positions[1:] == records.after[:-1][:, ::-1]).all(axis=(1, 2))[:3].tolist()
    [True, True, True]
    """
    rules, games, seed, max_plies, threads = run_arguments(rules, games, seed, max_plies, threads)
    on_long = as_on_long(on_long)
    threads = as_threads(threads)
    policies = resolve_policies(policy, rules, callables=True, networks=True)
    start_array, opening = starting_array(start, rules)
    strata = as_stratify(stratify, opening)
    settings = as_cube_settings(cubeful)
    if settings is not None:
        cubing_of(settings, rules, policies[0].function, "play_games")      # refused before any game
        return play_cubeful(rules, games, policies, seed, settings, start, strata, max_plies, threads, on_long)
    if has_callable(policies):
        return play_lockstep(rules, games, policies, seed, start, strata, max_plies, threads, on_long)
    codes, weights = policy_arrays(policies)
    positions, dice, after, ends = _kernel.play_games(
        np.ascontiguousarray(start_array), games, opening, strata, codes, weights, rules, seed, max_plies, threads,
        on_long, models=policy_models(policies, rules),
    )
    offsets = np.zeros(games + 1, dtype=np.int64)
    np.cumsum(ends.plies, out=offsets[1:])
    return GameRecords(offsets, positions, dice, after, ends.winner, ends.value, ends.kind, ends.plies, rules=rules,
                       truncated=ends.truncated)


# --- rollouts -------------------------------------------------------------------------


class RolloutTally:
    """Running tallies of a rollout of ``n`` positions (a truncated game
    counted apart: see :mod:`bansugoroku_fast.games.tallies`); ``exact``:
    games may stop at the endgame tables (or be judged), so ``counts`` sums
    probabilities and ``squares`` the squares of each game's figures.
    Floats do not add associatively, so those two sums are also kept per
    block of games (``block_sums``), for :meth:`add_tally` to add another
    run's blocks one by one: the same blocks give the same figures, bit for
    bit, however runs split them."""

    def __init__(self, n: int, exact: bool = False):
        self.exact = exact
        self.counts: np.ndarray = np.zeros((n, 2, 4), dtype=np.float64 if exact else np.int64)
        self.squares = np.zeros((n, len(GNUBG_FIGURES)))
        self.kind_counts = np.zeros((n, 2, len(KINDS)), dtype=np.int64)
        self.plies = np.zeros(n, dtype=np.int64)
        self.games = np.zeros(n, dtype=np.int64)
        self.truncated = np.zeros(n, dtype=np.int64)
        self.settled = np.zeros(n, dtype=np.int64)
        self.cut = np.zeros((n, 0), dtype=bool)  # [position, game]: truncated (set by rollout_values)
        self.block_sums: list[tuple[np.ndarray, np.ndarray]] = []  # exact: (counts, squares) per block

    def add_shares(self, count: int, ends: _kernel.GameEnds, shares: np.ndarray) -> None:
        """Tally ``count`` games a position (item ``i * count + j``) that may
        have stopped at the tables or been judged (``shares``: each game's
        result, see :func:`rollout_stopped`; a truncated game's are 0)."""
        n = len(self.plies)
        cut = (ends.winner == -1).reshape(n, count)
        squares = (figure_values(shares) ** 2).reshape(n, count, -1)
        self._add_block(shares.reshape(n, count, 2, 4).sum(axis=1), np.where(cut[:, :, None], 0.0, squares).sum(axis=1))
        played = np.flatnonzero(ends.winner >= 0)
        np.add.at(self.kind_counts, (played // count, ends.winner[played], ends.kind[played]), 1)
        self.plies += ends.plies.reshape(n, count).sum(axis=1)
        self.games += count
        self.truncated += cut.sum(axis=1)
        self.settled += (ends.winner == SETTLED).reshape(n, count).sum(axis=1)

    def _add_block(self, counts: np.ndarray, squares: np.ndarray) -> None:
        self.block_sums.append((counts, squares))
        self.counts += counts
        self.squares += squares

    def add_tally(self, other: RolloutTally) -> None:
        """Add the tallies of the next games of the same positions (block
        by block where they are floats: the sums a single run makes)."""
        for name in ("kind_counts", "plies", "games", "truncated", "settled"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        if not self.exact:
            self.counts += other.counts
        for counts, squares in other.block_sums:
            self._add_block(counts, squares)

    def add(self, item_position: np.ndarray, ends: _kernel.GameEnds) -> None:
        done = ~ends.truncated
        finished = item_position[done]
        np.add.at(self.counts, (finished, ends.winner[done], ends.value[done]), 1)
        np.add.at(self.kind_counts, (finished, ends.winner[done], ends.kind[done]), 1)
        np.add.at(self.plies, item_position, ends.plies)
        np.add.at(self.truncated, item_position[~done], 1)

    def results(self, backgammon: bool) -> list[RolloutResult]:
        if self.exact:
            return [
                summarize(self.counts[i].tolist(), self.kind_counts[i].tolist(), plies=int(self.plies[i]),
                          backgammon=backgammon, truncated=int(self.truncated[i]),
                          squares=self.squares[i].tolist(), finished=int(self.games[i] - self.truncated[i]),
                          settled=int(self.settled[i]))
                for i in range(len(self.plies))
            ]
        return [
            summarize(self.counts[i].tolist(), self.kind_counts[i].tolist(),
                      plies=int(self.plies[i]), backgammon=backgammon, truncated=int(self.truncated[i]))
            for i in range(len(self.plies))
        ]


def _blocks(games: int, in_blocks: bool) -> Iterator[tuple[int, int]]:
    """``(first, stop)`` game ranges: one range, or blocks of :data:`BLOCK`
    games (to check a stopping rule, or move a progress bar, between them)."""
    size = BLOCK if in_blocks else games
    for first in range(0, games, size):
        yield first, min(first + size, games)


def rollout_values(positions: np.ndarray, rules: Rules, games: int,
                    policies: tuple[ResolvedPolicy, ResolvedPolicy], seed: int, stratify: int,
                    max_plies: int, threads: int, stop_at: float | None, progress: bool,
                    first_game: int = 0, on_long: str = "raise",
                    settle: Settle | None = None, *, lockstep_only: bool = False,
                    judging: Judging | None = None) -> tuple[RolloutTally, np.ndarray]:
    """Tallies and seat 0's signed value of every game ``[position, game]``
    (checked arguments; a truncated game's value is 0, and ``tally.cut``
    marks it). ``settle``: stop each game at the first position it values
    (the endgame tables), its value then the expected one (floats): in the
    kernels for kernel policies and a :class:`TableStop` (unless
    ``lockstep_only``), else in lockstep. ``judging``: games truncated and
    their luck taken out (:func:`rollout_stopped`, in lockstep). Games whose
    values are floats are tallied in blocks of :data:`BLOCK`, so that the
    sums add up in the same order however the games are split."""
    codes, weights = policy_arrays(policies)
    models = policy_models(policies, rules)
    lockstep = has_callable(policies)
    n = len(positions)
    exact = settle is not None or judging is not None
    tally = RolloutTally(n, exact=exact)
    values, cuts = [], []
    with tqdm(total=games * n, disable=not progress, unit="game", leave=False) as bar:
        for first, stop in _blocks(games, stop_at is not None or progress or exact):
            count = stop - first
            if exact:
                if judging is None and isinstance(settle, TableStop) and not lockstep and not lockstep_only:
                    ends, shares = settle.kernel_games(positions, first_game + first, count, codes, weights, seed,
                                                       stratify, max_plies, threads, on_long, models)
                else:
                    ends, shares = rollout_stopped(positions, first_game + first, count, policies, rules, seed,
                                                     stratify, max_plies, threads, settle, on_long, judging)
                tally.add_shares(count, ends, shares)
                values.append(figure_values(shares)[:, -1].reshape(n, count))
                cuts.append((ends.winner == -1).reshape(n, count))
                bar.update(n * count)
                if _reached(tally, rules, stop_at, stop, games):
                    break
                continue
            if lockstep:
                ends = rollout_lockstep(positions, first_game + first, count, policies, rules, seed, stratify,
                                        max_plies, threads, on_long)
            else:
                ends = _kernel.rollout_games(positions, first_game + first, count, codes, weights, rules, seed,
                                             stratify, max_plies, threads, on_long, models=models)
            tally.add(np.repeat(np.arange(n), count), ends)
            signed = np.where(ends.winner == 0, ends.value, -ends.value).astype(np.int8)
            values.append(signed.reshape(n, count))
            cuts.append(ends.winner.reshape(n, count) < 0)
            bar.update(n * count)
            if _reached(tally, rules, stop_at, stop, games):
                break
    tally.cut = np.concatenate(cuts, axis=1)
    return tally, np.concatenate(values, axis=1)


class CubefulTally(RolloutTally):
    """:class:`RolloutTally` of cubeful games: the cubeless figures from
    each game's shares (a passed game settled at the evaluator's chances
    there), and seat 0's points with the cube, in integers (exact sums,
    the same however runs split the games), normalised by each position's
    ``start_cube`` at the end."""

    def __init__(self, start_cube: np.ndarray) -> None:
        super().__init__(len(start_cube), exact=True)
        self.start_cube = np.asarray(start_cube, dtype=np.int64)
        self.points = np.zeros(len(start_cube), dtype=np.int64)
        self.points_squared = np.zeros(len(start_cube), dtype=np.int64)
        self.passed = np.zeros(len(start_cube), dtype=np.int64)
        self.cubes = np.zeros(len(start_cube), dtype=np.int64)

    def add_cubeful(self, count: int, ends: CubefulEnds) -> np.ndarray:
        """Tally ``count`` games a position; returns seat 0's points
        ``int64[n, count]`` (0 for a game cut off)."""
        n = len(self.plies)
        winner = np.where(ends.passed, SETTLED, ends.winner).astype(np.int8)
        self.add_shares(count, _kernel.GameEnds(winner, ends.value, ends.kind, ends.plies,
                                                np.zeros(len(winner), dtype=np.int8)), ends.shares)
        points = ends.seat_0_points.reshape(n, count)
        self.points += points.sum(axis=1)
        self.points_squared += (points * points).sum(axis=1)
        self.passed += ends.passed.reshape(n, count).sum(axis=1)
        self.cubes += np.where(ends.winner >= 0, ends.cube, 0).reshape(n, count).sum(axis=1)
        return points

    def results(self, backgammon: bool) -> list[RolloutResult]:
        results = []
        for i, result in enumerate(super().results(backgammon)):
            finished = int(self.games[i] - self.truncated[i])
            mean, stderr = mean_and_stderr(float(self.points[i]), float(self.points_squared[i]), finished)
            cube = float(self.start_cube[i])
            results.append(dataclasses.replace(
                result, cubeful_equity=mean / cube, cubeful_stderr=stderr / cube, passed=int(self.passed[i]),
                mean_cube=self.cubes[i] / finished if finished else float("nan")))
        return results


def cubeful_rollout_tally(positions: np.ndarray, rules: Rules, games: int,
                          policies: tuple[ResolvedPolicy, ResolvedPolicy], seed: int, stratify: int,
                          max_plies: int, threads: int, stop_at: float | None, progress: bool, first_game: int,
                          on_long: str, cubing: Cubing, cube: np.ndarray, owner: np.ndarray,
                          hold: np.ndarray) -> tuple[CubefulTally, np.ndarray]:
    """A cubeful rollout's tally (checked arguments; see
    :func:`cubeful_rollout_ends` for
    ``cube``, ``owner`` and ``hold``) and seat 0's points ``[position,
    game]``, in blocks of :data:`BLOCK` games (a stopping rule and a
    progress bar between them)."""
    tally = CubefulTally(cube)
    points, cuts = [], []
    with tqdm(total=games * len(positions), disable=not progress, unit="game", leave=False) as bar:
        for first, stop in _blocks(games, True):
            ends = cubeful_rollout_ends(positions, first_game + first, stop - first, policies, rules, seed, stratify,
                                        max_plies, threads, on_long, cubing, cube, owner, hold)
            points.append(tally.add_cubeful(stop - first, ends))
            cuts.append((ends.winner < 0).reshape(len(positions), stop - first))
            bar.update(len(positions) * (stop - first))
            if _reached(tally, rules, stop_at, stop, games):
                break
    tally.cut = np.concatenate(cuts, axis=1)
    return tally, np.concatenate(points, axis=1)


def _reached(tally: RolloutTally, rules: Rules, stop_at: float | None, stop: int, games: int) -> bool:
    """Whether a rollout with a ``stderr_target`` may stop after game ``stop``."""
    if stop_at is None or stop >= games:
        return False
    return max(result.largest_stderr() for result in tally.results(rules.is_backgammon)) <= stop_at


class TableStop:
    """Where a rollout stops its games: the exact endgame tables of
    ``rules`` (built, or read, at once: a rules error or a cache warning
    comes before any game). Called on boards (the side to roll in row 0),
    it is a :data:`~bansugoroku_fast.games.game_batch.Settle` (for games in
    lockstep); :meth:`kernel_games` stops the kernels' games there."""

    def __init__(self, rules: Rules) -> None:
        self.rules, self.kind, self.tables = rules, kind_of(rules), tables(rules)

    def __call__(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        figures = race_batch(boards, self.rules, outside="nan")
        return figures.in_table, figures.value_probabilities()

    def kernel_games(self, positions: np.ndarray, first_game: int, count: int, codes: np.ndarray,
                     weights: np.ndarray, seed: int, stratify: int, max_plies: int, threads: int,
                     on_long: str, models: tuple[Any, Any] = _kernel.NO_MODELS) -> tuple[_kernel.GameEnds, np.ndarray]:
        """The ends and ``shares[item, seat, value]`` of the kernels' games,
        as :func:`~bansugoroku_fast.games.game_batch.rollout_stopped`
        gives them for games in lockstep."""
        in_table, values = self(positions)
        if in_table.all():  # every game stops at ply 0
            return settled_at_start(values, count)
        built = self.tables
        ends, race = _kernel.rollout_games_to_tables(
            positions, first_game, count, codes, weights, self.rules, seed, stratify, max_plies, threads, on_long,
            self.kind.bears_off, self.kind.gammons, built.finish, built.finish_mean, built.first, built.win,
            models=models)
        shares = np.zeros((len(ends.winner), 2, 4))
        played = np.flatnonzero(ends.winner >= 0)
        shares[played, ends.winner[played], ends.value[played]] = 1.0
        stopped = np.flatnonzero(ends.winner == SETTLED)
        mover = ends.plies[stopped] % 2
        win, win_gammon, lose_gammon = race[stopped].T   # as RaceBatch.value_probabilities lays them out
        shares[stopped, mover, 1] = win - win_gammon
        shares[stopped, mover, 2] = win_gammon
        shares[stopped, 1 - mover, 1] = 1 - win - lose_gammon
        shares[stopped, 1 - mover, 2] = lose_gammon
        return ends, shares


def table_settle(rules: Rules) -> TableStop:
    """Where a rollout with ``endgames=True`` stops: :class:`TableStop`."""
    return TableStop(rules)


def as_endgames(endgames: object) -> bool:
    """``endgames`` checked: True or False."""
    if not isinstance(endgames, (bool, np.bool_)):
        raise ArgumentTypeError(f"endgames must be True or False, got {endgames!r}")
    return bool(endgames)


def as_judging(policies: tuple[ResolvedPolicy, ResolvedPolicy], rules: Rules, truncate: object,
               variance_reduction: object, threads: int) -> Judging | None:
    """``truncate`` and ``variance_reduction`` checked, with the judge of
    seat 0's policy (an evaluator policy's ``rollout_judge``), or None for a
    plain rollout."""
    if truncate is not None:
        truncate = positive_int(truncate, "truncate")
    if not isinstance(variance_reduction, (bool, np.bool_)):
        raise ArgumentTypeError(f"variance_reduction must be True or False, got {variance_reduction!r}")
    if truncate is None and not variance_reduction:
        return None
    judge_of = getattr(policies[0].function, "rollout_judge", None)
    if judge_of is None:
        raise PolicyTypeError(
            "truncate and variance_reduction value positions with the policy's evaluator: seat 0's policy must be "
            "an EvaluatorPolicy (or 'net', 'net1')"
        )
    return Judging(judge_of(rules, threads), truncate, bool(variance_reduction))


def stacked(results: list[RolloutResult]) -> RolloutResult:
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
        if fields[tally].dtype.kind in "iu":        # (expected counts stay float64)
            fields[tally] = fields[tally].astype(np.int64)
    return RolloutResult(**fields)


def unstacked(result: RolloutResult) -> RolloutResult:
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


def rollout_positions(position: Any, rules: Rules) -> tuple[np.ndarray, bool]:
    """``int8[N, 2, 26]`` positions, and whether one position was given."""
    if isinstance(position, (Position, str)):
        return as_checked_positions(as_position(position).array[None], rules), True
    array = np.asarray(position)
    single = array.ndim == 2
    return as_checked_positions(array[None] if single else array, rules), single


def rollout(position: PositionLike, rules: RulesLike = None, games: int = 1296, policy: PoliciesLike = "net",
            seed: int = 0, threads: int | None = None, progress: bool = False, *,
            stratify: int | None = None, stderr_target: float | None = None,
            max_plies: int = MAX_PLIES, first_game: int = 0, on_long: str = "raise",
            endgames: bool = False, truncate: int | None = None,
            variance_reduction: bool = False, cubeful: bool | CubeSettings = False) -> RolloutResult:
    """Play ``games`` games from ``position`` (seat 0 = row 0, to roll) and
    tally them.

    Game ``g`` is game ``g`` of ``play_games(rules, games, policy, seed,
    start=position, stratify=stratify)``.

    **Defaults that cannot mislead.** A rollout scores a position, and a
    score says nothing of how it was made: so ``policy`` is ``"net"``, the
    network shipped for the rules (random play, the old default, gives
    every position's figures of random games, near-even and meaningless
    for a real decision; ``policy="random"`` still asks for it). ``rules``
    left out assumes the library's default rules, Ban-sugoroku's, as every
    call does, but says so with an
    :class:`~bansugoroku_fast.errors.AssumedRulesWarning` naming them: a
    position id reads the same in both games, so a GNU Backgammon id given
    without ``rules="backgammon"`` would otherwise be rolled out silently
    as Ban-sugoroku (with its network). A warning rather than a required
    argument keeps ``rules`` where it is in every call of the library
    (second, defaulting to Ban-sugoroku).

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike or numpy.ndarray
        One position (a :class:`Position`, an id or an ``int8[2, 26]``) or
        a batch ``int8[N, 2, 26]`` (every field of the result then gains a
        leading ``N`` axis; game ``g`` of every position rolls the same
        dice).
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes Ban-sugoroku's defaults and warns.
    games : int
        How many games, at least 1.
    policy : ~bansugoroku_fast.typing.PoliciesLike
        As in :func:`play_games`; by default ``"net"``, the shipped network.
    seed : int
        The dice: the same seed rolls the same games.
    threads : int or None
        Threads for the kernels (None: every core); the figures do not
        depend on it.
    progress : bool
        A progress bar (tqdm) on stderr.
    stratify : int or None
        36 (or 1296) deals the first roll (or two) evenly over each 36 (or
        1,296) consecutive games; the standard errors stay the plain,
        conservative formula (see :mod:`bansugoroku_fast.games.tallies`).
        More strata than ``games`` warns
        (:class:`~bansugoroku_fast.errors.UnevenStrataWarning`).
    stderr_target : float or None
        Play blocks of 1,296 games and stop after the first block at which
        every figure's standard error (of every position) is at most this.
    max_plies : int
        The plies a game may last.
    first_game : int
        Play games ``first_game .. first_game + games - 1`` of the seed, so
        that runs over consecutive ranges add up to one run (what
        :func:`bansugoroku_fast.distributed.rollout` does).
    on_long : str
        ``"raise"`` (:class:`~bansugoroku_fast.errors.GameTooLongError` for
        a game not over after ``max_plies`` plies) or ``"truncate"`` (it
        ends there, counted in ``truncated`` and left out of the figures).
    endgames : bool
        Stop each game the moment both sides are in an exact endgame table
        (a race on the tables' points: docs/endgames.md) and count the
        exact chances of each result from there (``counts`` then holds
        expected counts, floats; ``settled`` says how many games stopped
        so); up to that ply every game is the played-out rollout's.
    truncate : int or None
        With an evaluator policy (``"net"``, ``"net1"``, an
        :class:`~bansugoroku_fast.evaluators.EvaluatorPolicy`; seat 0's
        evaluator judges): stop each game after this many plies (or
        earlier, at its end or the tables) and count the evaluator's
        chances of each result there (0-ply; counted in ``settled``).
    variance_reduction : bool
        With an evaluator policy: subtract each roll's luck from its game's
        result, as GNU Backgammon does (see
        :class:`~bansugoroku_fast.evaluators.RolloutJudge`); the figures
        keep their expected values and their standard errors shrink.
    cubeful : bool or CubeSettings
        ``True`` (or a :class:`~bansugoroku_fast.games.cubeful.CubeSettings`:
        the cube at the start, Jacoby, beavers, the evaluator; backgammon
        only, money play): both sides double, take and pass by the
        evaluator's 0-ply cube decisions (see
        :mod:`bansugoroku_fast.games.cubeful`), the games in lockstep and
        in blocks of 1,296; the result gains ``cubeful_equity`` (seat 0's
        points per game with the cube, normalised to the cube at the
        start), ``cubeful_stderr``, ``passed`` and ``mean_cube``, and the
        cubeless figures count a passed game at the evaluator's chances
        there. ``stderr_target`` then holds the cubeful standard error down
        too. Not with ``endgames``, ``truncate`` or ``variance_reduction``;
        :func:`~bansugoroku_fast.rollout_cube_decision` rolls out a cube
        decision.

    Returns
    -------
    RolloutResult
        The games' counts by seat and value, the win probability, the
        equity and GNU Backgammon's figures, each with its standard error
        (see :class:`~bansugoroku_fast.games.tallies.RolloutResult`).

    Raises
    ------
    InvalidArgumentError
        A count or option out of its range (``games`` of 0, ``stratify``
        other than 36 or 1296, ``cubeful`` with ``truncate``...).
    InvalidPolicyError
        A policy that is not one (``PolicyTypeError`` when ``truncate`` or
        ``variance_reduction`` is asked of a policy without an evaluator).
    InvalidPositionError
        The position is not one of the rules.
    GameTooLongError
        A game has not ended after ``max_plies`` plies, unless
        ``on_long="truncate"``.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> batch = np.stack([Position.initial().array] * 2)
    >>> result = rollout(batch, "backgammon", games=36, policy="first", stratify=36)
    >>> result.counts.shape, result.equity.shape, bool((result.counts[0] == result.counts[1]).all())
    ((2, 2, 4), (2,), True)
    """
    rules = scoring_rules(rules, "rollout")
    rules, games, seed, max_plies, threads = run_arguments(rules, games, seed, max_plies, threads)
    on_long = as_on_long(on_long)
    threads = as_threads(threads)
    strata = as_stratify(stratify)
    warn_uneven_strata(strata, games, "rollout")
    stop_at = as_stderr_target(stderr_target)
    policies = resolve_policies(policy, rules, callables=True, networks=True)
    positions, single = rollout_positions(position, rules)
    if isinstance(first_game, bool) or not isinstance(first_game, (int, np.integer)) or first_game < 0:
        raise InvalidArgumentError(f"first_game must be a non-negative integer, got {first_game!r}")
    settings = as_cube_settings(cubeful)
    settle = table_settle(rules) if as_endgames(endgames) else None
    judging = as_judging(policies, rules, truncate, variance_reduction, threads)
    tally: RolloutTally
    if settings is not None:
        if settle is not None or judging is not None:
            raise InvalidArgumentError("a cubeful rollout plays its games out: leave out endgames, truncate and "
                                       "variance_reduction")
        if settings.match is not None:     # its figure would be match winning chances, not points
            raise InvalidArgumentError("a cubeful rollout is of money play; play_games takes a match score")
        cubing = cubing_of(settings, rules, policies[0].function, "rollout")
        n = len(positions)
        tally, _ = cubeful_rollout_tally(positions, rules, games, policies, seed, strata, max_plies, threads,
                                         stop_at, progress, int(first_game), on_long, cubing,
                                         np.full(n, settings.cube), np.full(n, settings.owner_seat),
                                         np.zeros(n, dtype=bool))
    else:
        tally, _ = rollout_values(positions, rules, games, policies, seed, strata, max_plies, threads,
                                  stop_at, progress, int(first_game), on_long, settle, judging=judging)
    result = stacked(tally.results(rules.is_backgammon))
    return unstacked(result) if single else result


def cubeful_batch(rules: Rules, games: int, policies: tuple[ResolvedPolicy, ResolvedPolicy], seed: int,
                  settings: CubeSettings, start: Any, stratify: int, max_plies: int, threads: int | None,
                  on_long: str, record: bool) -> CubefulBatch:
    """The batch of ``play_games(..., cubeful=settings)`` (checked arguments)."""
    cubing = cubing_of(settings, rules, policies[0].function, "play_games")
    start_array, opening = starting_array(start, rules)
    starts = np.repeat(start_array[None], games, axis=0)
    return CubefulBatch.of_cubeful_items(rules, starts, np.arange(games, dtype=np.int64), seed, cubing=cubing,
                                 cube=settings.cube, owner=settings.owner_seat, hold=False, opening=opening,
                                 stratify=stratify, record=record, max_plies=max_plies, threads=threads,
                                 on_long=on_long)



def play_cubeful(rules: Rules, games: int, policies: tuple[ResolvedPolicy, ResolvedPolicy], seed: int,
                 settings: CubeSettings, start: Any, stratify: int, max_plies: int, threads: int | None,
                 on_long: str) -> GameRecords:
    """``play_games(..., cubeful=settings)`` (checked arguments): every ply
    recorded, and the cube in the records' ``cube`` (:class:`CubeRecords`)."""
    batch = cubeful_batch(rules, games, policies, seed, settings, start, stratify, max_plies, threads, on_long,
                          record=True)
    play_out(batch, policies)
    ends = batch.cubeful_ends()
    plain = batch.records()           # the games' ids are their slots: the same order
    return GameRecords(plain.offsets, plain.positions, plain.dice, plain.after, ends.winner, ends.value, ends.kind,
                       ends.plies, rules=rules, truncated=ends.winner < 0,
                       cube=CubeRecords(ends.cube, ends.passed, ends.points, ends.actions))


def cubeful_rollout_ends(positions: np.ndarray, first_game: int, count: int,
                         policies: tuple[ResolvedPolicy, ResolvedPolicy], rules: Rules, seed: int, stratify: int,
                         max_plies: int, threads: int | None, on_long: str, cubing: Cubing, cube: np.ndarray,
                         owner: np.ndarray, hold: np.ndarray) -> CubefulEnds:
    """The ends of cubeful games ``first_game .. first_game + count - 1``
    from each of ``positions`` (item ``i * count + j``; seat 0 to roll),
    position ``i``'s cube at ``cube[i]`` owned by ``owner[i]`` (-1
    centred), seat 0 holding its first double where ``hold[i]``: what
    ``rollout(..., cubeful=...)`` tallies (every position rolls the same
    dice for game ``g``, until a pass)."""
    starts = np.repeat(positions, count, axis=0)
    games = np.tile(np.arange(first_game, first_game + count, dtype=np.int64), len(positions))
    batch = CubefulBatch.of_cubeful_items(rules, starts, games, seed, cubing=cubing, cube=np.repeat(cube, count),
                                  owner=np.repeat(owner, count), hold=np.repeat(hold, count), opening=False,
                                  stratify=stratify, record=False, max_plies=max_plies, threads=threads,
                                  on_long=on_long)
    play_out(batch, policies)
    return batch.cubeful_ends()


def rank_plays(position: PositionLike, dice: DiceLike, rules: RulesLike = None, games: int = 1296,
               policy: PoliciesLike = "net", seed: int = 0, threads: int | None = None,
               progress: bool = False, *, stratify: int | None = None,
               max_plies: int = MAX_PLIES, on_long: str = "raise", endgames: bool = False,
               truncate: int | None = None, variance_reduction: bool = False) -> list[RankedPlay]:
    """Roll out every legal play of ``dice`` in ``position`` and rank them,
    best first.

    The rollouts use duplicate dice (game ``g`` after every play sees the
    same rolls), so the differences between plays carry less noise than
    their equities. The defaults are :func:`rollout`'s, for the same
    reasons: ``policy="net"``, and ``rules`` left out warns which it
    assumed.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to play ``dice``.
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll whose plays are ranked.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes Ban-sugoroku's defaults and warns
        (:class:`~bansugoroku_fast.errors.AssumedRulesWarning`).
    games : int
        How many games after each play, at least 1.
    policy : ~bansugoroku_fast.typing.PoliciesLike
        As in :func:`~bansugoroku_fast.play_games`; by default ``"net"``,
        the shipped network.
    seed : int
        The dice: the same seed rolls the same games.
    threads : int or None
        Threads for the kernels (None: every core); the figures do not
        depend on it.
    progress : bool
        A progress bar (tqdm) on stderr.
    stratify : int or None
        36 (or 1296) deals the first roll (or two) evenly over each 36 (or
        1,296) consecutive games, as in :func:`~bansugoroku_fast.rollout`.
    max_plies : int
        The plies a game may last.
    on_long : str
        ``"raise"`` (:class:`~bansugoroku_fast.errors.GameTooLongError`)
        or ``"truncate"``: a game not over after ``max_plies`` plies is
        left out (see :func:`~bansugoroku_fast.games.tallies.rank`).
    endgames : bool
        Stop games at the exact endgame tables, as in :func:`rollout`
        (each game's value then the expected one).
    truncate : int or None
        As in :func:`rollout`: stop each game after this many plies and
        count the evaluator's chances there (an evaluator policy only).
    variance_reduction : bool
        As in :func:`rollout`; the duplicate dice then pair each game's
        luck-adjusted values.

    Returns
    -------
    list of RankedPlay
        Every legal play, greatest equity for the side that plays first
        (ties in ``legal_plays`` order), each with its standard error and
        that of its difference to the best play; empty when the roll has no
        play.

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules.
    InvalidDiceError
        The dice are not a roll.
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        A count or option out of its range (``games`` of 0, an ``on_long``
        other than the two, ``stratify`` other than 36 or 1296...).
    InvalidPolicyError
        A policy that is not one (``PolicyTypeError`` when ``truncate`` or
        ``variance_reduction`` is asked of a policy without an evaluator).
    GameTooLongError
        A game has not ended after ``max_plies`` plies, unless
        ``on_long="truncate"``.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> ranked = rank_plays(Position.initial(), (6, 5), "backgammon", games=100, policy="random")
    >>> len(ranked), ranked[0].difference_stderr, ranked[0].equity >= ranked[-1].equity
    (7, 0.0, True)
    """
    rules = scoring_rules(rules, "rank_plays")
    rules, games, seed, max_plies, threads = run_arguments(rules, games, seed, max_plies, threads)
    on_long = as_on_long(on_long)
    threads = as_threads(threads)
    strata = as_stratify(stratify)
    warn_uneven_strata(strata, games, "rank_plays")
    policies = resolve_policies(policy, rules, callables=True, networks=True)
    settle = table_settle(rules) if as_endgames(endgames) else None
    judging = as_judging(policies, rules, truncate, variance_reduction, threads)
    plays = legal_plays(position, dice, rules)
    if not plays:
        return []
    children = np.stack([play.position.swapped().array for play in plays])
    tally, values = rollout_values(children, rules, games, policies, seed, strata, max_plies, threads,
                                   None, progress, on_long=on_long, settle=settle, judging=judging)
    mover_values = [[None if cut else -value for value, cut in zip(row, cuts)]  # None: truncated
                    for row, cuts in zip(values.tolist(), tally.cut.tolist())]
    return rank(plays, mover_values)
