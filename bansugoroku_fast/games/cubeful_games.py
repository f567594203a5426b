"""Cubeful games in lockstep: :class:`CubefulBatch` steps many backgammon
games together and, before every roll, lets each side on roll that may
double decide by its evaluator (the games of one cube state in one call of
:func:`~bansugoroku_fast.cube.decision.decide_many`), the other side answer,
and a passed double end its game (:mod:`~.cubeful` says how each side
acts). What ``play_games(..., cubeful=...)`` and ``rollout(...,
cubeful=...)`` play.

A game's **points** are what its winner scores: the cube's value times the
game's value (1, 2 or 3; 1 under the Jacoby rule while the cube is
centred), or after a pass the cube's value before the offer. Game ``g``
rolls the very dice of the cubeless game ``g`` of the same seed, ply by
ply, until a pass ends it.

>>> from bansugoroku_fast.games.cubeful import CubeSettings
>>> ends = cubeful_games("backgammon", 4, "net", seed=1, settings=CubeSettings())
>>> bool(((ends.points % ends.cube == 0) | ends.passed).all())     # a multiple of the cube, or a pass
True
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..checks import as_rules
from ..cube.janowski import CENTRED, OWNED
from ..rules import Rules
from .cubeful import BEAVER, BEAVER_FACTOR, CUBE_LIMIT, DOUBLE, PASS, TAKE, CubeSettings, Cubing, cubing_of
from .game_batch import StoppedBatch, play_out, starting_array
from .policies import ResolvedPolicy, resolve_policies
from .records import CubeActions, CubeRecords, GameRecords

__all__ = ["CubefulBatch", "CubefulEnds", "cubeful_batch", "cubeful_games", "play_cubeful", "shares_of"]


class CubefulEnds(NamedTuple):
    """How each cubeful game ended, by item (``int8``/``int64[G]``):
    ``winner`` (a seat; -1 for a game cut off at ``max_plies``),
    ``value`` and ``kind`` as the records hold them (a passed game: value 1,
    kind -1), ``plies``, ``cube`` (its value at the end, before the offer
    for a pass), ``centred`` (never turned), ``passed``, ``points`` (the
    winner's, 0 for a game cut off), and ``shares[item, seat, value]`` (a
    one-hot for a game played out, the evaluator's chances at the pass).
    ``actions``: every cube action (:class:`CubeActions`)."""

    winner: np.ndarray
    value: np.ndarray
    kind: np.ndarray
    plies: np.ndarray
    cube: np.ndarray
    centred: np.ndarray
    passed: np.ndarray
    points: np.ndarray
    shares: np.ndarray
    actions: CubeActions

    @property
    def seat_0_points(self) -> np.ndarray:
        """``int64[G]``: seat 0's signed points."""
        result: np.ndarray = np.where(self.winner == 0, self.points, -self.points)
        return result


def shares_of(probabilities: np.ndarray) -> np.ndarray:
    """``float64[N, 2, 4]``: cumulative probabilities of the side on roll
    (GNU Backgammon's five) as chances of each (row, value) result."""
    p = np.asarray(probabilities, dtype=np.float64)
    shares = np.zeros((len(p), 2, 4))
    shares[:, 0, 1:] = np.stack([p[:, 0] - p[:, 1], p[:, 1] - p[:, 2], p[:, 2]], axis=1)
    shares[:, 1, 1:] = np.stack([1 - p[:, 0] - p[:, 3], p[:, 3] - p[:, 4], p[:, 4]], axis=1)
    return shares


class CubefulBatch(StoppedBatch):
    """Games of ``rules`` (backgammon) stepped together with the cube (see
    the module): slot ``i`` plays game ``games[i]`` from ``starts[i]``
    (seat 0 to roll), the cube at ``cube[i]`` owned by ``owner[i]`` (-1
    centred, else a seat); ``hold[i]``: seat 0 does not double before its
    first roll (the "no double" of a cube decision's rollout). ``opening``:
    ply 0 plays the backgammon roll-off, before which nobody doubles."""

    cubing: Cubing
    cube: np.ndarray
    owner: np.ndarray
    hold: np.ndarray
    passed_by: np.ndarray
    _actions: list[tuple[np.ndarray, ...]]
    _cube_ends: list[tuple[np.ndarray, ...]]

    @classmethod
    def of_cubeful_items(cls, rules: Rules, starts: np.ndarray, games: np.ndarray, seed: int, *, cubing: Cubing,
                 cube: np.ndarray | int, owner: np.ndarray | int, hold: np.ndarray | bool, opening: bool,
                 stratify: int,
                 record: bool, max_plies: int, threads: int | None, on_long: str) -> CubefulBatch:
        batch = cls.__new__(cls)
        n = len(starts)
        batch.judging, batch.settle, batch.cubing = None, None, cubing
        batch.shares, batch.luck = np.zeros((n, 2, 4)), np.zeros((n, 2, 4))
        batch.cube = np.broadcast_to(np.asarray(cube, dtype=np.int64), n).copy()
        batch.owner = np.broadcast_to(np.asarray(owner, dtype=np.int8), n).copy()
        batch.hold = np.broadcast_to(np.asarray(hold, dtype=bool), n).copy()
        batch.passed_by = np.full(n, -1, dtype=np.int8)
        batch._actions, batch._cube_ends = [], []
        batch._setup(rules, np.array(starts, dtype=np.int8), np.array(games, dtype=np.int64), seed,
                     opening=opening, stratify=stratify, restart=False, record=record, max_plies=max_plies,
                     threads=threads, on_long=on_long)
        return batch

    # -- the cube before each roll --

    def _stop_before_roll(self, slots: np.ndarray) -> np.ndarray:
        deciding = slots[self._may_double(slots)]
        if not deciding.size:
            return slots
        mover = (self._plies[deciding] % 2).astype(np.int8)
        codes = np.where(self.owner[deciding] < 0, CENTRED, OWNED)
        in_match = self.cubing.match is not None
        # one evaluation per cube state: in money play the owner alone tells the states apart
        keys = np.stack([codes, self.cube[deciding] if in_match else 0 * codes, mover if in_match else 0 * codes],
                        axis=1)
        passed_shares = np.zeros((self.n, 2, 4))
        for key in np.unique(keys, axis=0):
            group = np.flatnonzero((keys == key).all(axis=1))
            state = self.cubing.state(int(self.cube[deciding[group[0]]]), int(key[0]), int(mover[group[0]]))
            passers, probabilities = self._decide(deciding[group], state)
            passed_shares[passers] = shares_of(probabilities)
        passed = self.passed_by[slots] >= 0
        return self._stop(slots, passed, passed_shares[slots[passed]]) if passed.any() else slots

    def _may_double(self, slots: np.ndarray) -> np.ndarray:
        """Which sides on roll of ``slots`` may offer the cube now."""
        plies = self._plies[slots]
        owner = self.owner[slots]
        may = (self.cube[slots] < CUBE_LIMIT) & ((owner < 0) | (owner == plies % 2))
        may &= ~(self.hold[slots] & (plies == 0))
        if self._opening:
            may &= plies > 0
        result: np.ndarray = may
        return result

    def _decide(self, slots: np.ndarray, state: Any) -> tuple[np.ndarray, np.ndarray]:
        """The cube actions of ``slots`` (one cube ``state``): the cube
        turned where a double is taken, the passers marked; returns the
        slots whose double was passed and the evaluator's probabilities there."""
        boards = np.ascontiguousarray(self._boards[slots])
        calls, probabilities = self.cubing.decide(boards, self.rules, state, self.cube[slots], self._threads)
        doubled = slots[calls.doubles]
        mover = (self._plies[doubled] % 2).astype(np.int8)
        takes, beavers = calls.takes[calls.doubles], calls.beavers[calls.doubles]
        self._log(doubled, mover, DOUBLE)
        self._log(doubled[takes & ~beavers], 1 - mover[takes & ~beavers], TAKE)
        self._log(doubled[beavers], 1 - mover[beavers], BEAVER)
        self._log(doubled[~takes], 1 - mover[~takes], PASS)
        taken = doubled[takes]
        self.cube[taken] *= np.where(beavers[takes], BEAVER_FACTOR, 2)
        self.owner[taken] = 1 - mover[takes]
        self.passed_by[doubled[~takes]] = mover[~takes]
        return doubled[~takes], probabilities[calls.doubles][~takes]

    def _log(self, slots: np.ndarray, seats: np.ndarray, action: int) -> None:
        if slots.size:
            self._actions.append((self._games[slots].copy(), self._plies[slots].copy(), seats.astype(np.int8),
                                  np.full(len(slots), action, dtype=np.int8)))

    def _end(self, slots: np.ndarray, winner: np.ndarray, value: np.ndarray, kind: np.ndarray) -> None:
        self._cube_ends.append((self.cube[slots].copy(), self.owner[slots] < 0, self.passed_by[slots].copy()))
        super()._end(slots, winner, value, kind)

    # -- what the games left --

    def actions(self) -> CubeActions:
        """Every cube action so far, in the order made."""
        if not self._actions:
            empty = np.empty(0, dtype=np.int64)
            return CubeActions(empty, empty.copy(), np.empty(0, np.int8), np.empty(0, np.int8))
        return CubeActions(*(np.concatenate(column) for column in zip(*self._actions)))

    def cubeful_ends(self) -> CubefulEnds:
        """Each slot's game's end (see :class:`CubefulEnds`), by slot."""
        slots, _, winner, value, kind, plies = self._ends()
        cube, centred, passed_by = (np.concatenate(column) for column in zip(*self._cube_ends))
        passed = passed_by >= 0
        winner = np.where(passed, passed_by, winner).astype(np.int8)
        value = np.where(passed, 1, value).astype(np.int8)
        counted = np.where(self.cubing.jacoby & centred, 1, value)
        points = np.where(winner >= 0, cube * counted, 0).astype(np.int64)
        shares = self.shares.copy()
        played = (winner >= 0) & ~passed
        shares[slots[played], winner[played], value[played]] += 1.0
        order = np.argsort(slots)
        return CubefulEnds(winner[order], value[order], kind[order], plies[order].astype(np.int32), cube[order],
                           centred[order], passed[order], points[order], shares, self.actions())


def cubeful_games(rules: Any, games: int, policy: Any, seed: int, settings: CubeSettings, *,
                  start: Any = None, threads: int | None = 1, stratify: int = 0, max_plies: int = 10_000,
                  on_long: str = "raise", record: bool = False) -> CubefulEnds:
    """``games`` cubeful games from ``start`` (None: the rules' start, its
    roll-off first) with ``settings`` (checked), as ``play_games`` plays
    them; for the docs and tests (``play_games`` checks its arguments)."""
    checked = as_rules(rules)
    policies = resolve_policies(policy, checked, callables=True, networks=True)
    batch = cubeful_batch(checked, games, policies, seed, settings, start, stratify, max_plies, threads, on_long,
                          record)
    play_out(batch, policies)
    return batch.cubeful_ends()


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
