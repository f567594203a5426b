"""Python policies at batch speed: :class:`GameBatch` holds many games in
numpy arrays and steps them together, so that a policy written in Python
(numpy, torch, a lookup table) scores every candidate child of every waiting
game in one call. :func:`segment_argmax` turns a score per child into one
choice per game; :mod:`bansugoroku_fast.games.policies` says what a callable policy
returns.

>>> import numpy as np
>>> from bansugoroku_fast import features, LinearPolicy
>>> batch = GameBatch("backgammon", 8, seed=1)
>>> wave = batch.candidates()
>>> scores = features(wave.children, "backgammon")[:, 0]    # own pips after each play
>>> batch.step(segment_argmax(-scores, wave.offsets))        # the fewest pips left
>>> batch.candidates().plies.tolist()
[1, 1, 1, 1, 1, 1, 1, 1]
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import numpy as np

from .. import _kernel
from ..batch import segment_argmax
from ..checks import (
    MAX_PLIES,
    as_on_long,
    as_seed,
    as_stratify,
    as_threads,
    check_position_for_rules,
    run_arguments,
)
from ..cube.decision import Cube, cubeful_values
from ..cube.janowski import CENTRED, OWNED
from ..errors import (
    ArgumentTypeError,
    GameStateError,
    GameTooLongError,
    InvalidArgumentError,
    PolicyOutputError,
    PolicyOutputTypeError,
)
from ..position import Position, as_position
from ..rules import Rules
from ..typing import PositionLike, RulesLike
from .cubeful import BEAVER, BEAVER_FACTOR, CUBE_LIMIT, DOUBLE, PASS, TAKE, CubeCalls, Cubing, cube_calls
from .policies import (
    PolicyCallable,
    ResolvedPolicy,
    call_policy,
    choose,
    within_candidates,
)
from .records import CubeActions, GameRecords

__all__ = ["Candidates", "CubefulBatch", "CubefulEnds", "GameBatch", "roll_dice", "segment_argmax"]


# --- many games stepped together ------------------------------------------------------


class Candidates(NamedTuple):
    """The plays open to every game of a :class:`GameBatch`, one
    ``generate_plays``-style batch, in ``legal_plays`` order. A slot whose
    game has finished (without restart) has none.

    Parameters
    ----------
    offsets : numpy.ndarray
        ``int64[n + 1]``: slot ``i``'s candidates are
        ``children[offsets[i]:offsets[i + 1]]``.
    children : numpy.ndarray
        ``int8[M, 2, 26]``: the position after each candidate, row 0 the
        side that played.
    positions : numpy.ndarray
        ``int8[n, 2, 26]``: each slot's position before the ply, seen by its
        mover.
    dice : numpy.ndarray
        ``int8[n, 2]``: each slot's roll to play.
    games : numpy.ndarray
        ``int64[n]``: the game in each slot (-1 once finished).
    plies : numpy.ndarray
        ``int64[n]``: the ply each slot's game is at (0 = the first).

    Examples
    --------
    >>> batch = GameBatch("backgammon", 2, seed=1)
    >>> wave = batch.candidates()
    >>> wave.games.tolist(), wave.plies.tolist(), len(wave.offsets)
    ([0, 1], [0, 0], 3)
    """

    offsets: np.ndarray
    children: np.ndarray
    positions: np.ndarray
    dice: np.ndarray
    games: np.ndarray
    plies: np.ndarray


Candidates.offsets.__doc__ = "``int64[n + 1]``: slot ``i``'s candidates are ``children[offsets[i]:offsets[i + 1]]``."
Candidates.children.__doc__ = "``int8[M, 2, 26]``: the position after each candidate play, row 0 the side that played."
Candidates.positions.__doc__ = "``int8[n, 2, 26]``: each slot's position before the ply, seen by its mover."
Candidates.dice.__doc__ = "``int8[n, 2]``: each slot's roll to play."
Candidates.games.__doc__ = "``int64[n]``: the game in each slot (-1 once finished)."
Candidates.plies.__doc__ = "``int64[n]``: the ply each slot's game is at (0 = the first)."


class GameBatch:
    """``n`` games of ``rules`` held in numpy arrays and stepped together, so
    that a Python policy scores every candidate of every game in one call.

    :meth:`candidates` lists the plays of each waiting game;
    :meth:`step` plays one chosen index per game, rolls the next dice from
    the same counter-based streams as :func:`~bansugoroku_fast.play_games`
    (game ``g``'s ply ``p`` rolls what it rolls there), passes automatically
    when a roll has no legal play, and records finished games. With
    ``restart=True`` a finished game's slot starts game ``next id`` at once
    (ids keep increasing: endless self-play); otherwise the slot stays
    finished and, once every game has finished, :meth:`step` refuses.

    ``start``: a position (row 0 = seat 0, to roll) or None for the rules'
    start (in backgammon ply 0 then plays the roll-off's non-double), as in
    ``play_games``. Games played with the choices ``play_games``'s policy
    makes are exactly its games: :meth:`records` equals its records.
    A game not over after ``max_plies`` plies raises
    :class:`~bansugoroku_fast.errors.GameTooLongError`, or with
    ``on_long="truncate"`` ends there unfinished (winner -1, ``truncated``
    in the records; with ``restart=True`` its slot starts a new game).

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules` or its label.
    n : int
        How many games are played at once (the slots).
    seed : int
        The dice, as in :func:`~bansugoroku_fast.play_games`.
    start : ~bansugoroku_fast.typing.PositionLike or None
        The position every game starts from, or None for the rules' start.
    restart : bool
        Start a new game in a slot as soon as its game ends.
    record : bool
        Keep every ply for :meth:`records`.
    stratify : int or None
        36 or 1296 deals the first roll (or two) evenly, as in
        :func:`~bansugoroku_fast.rollout`.
    max_plies : int
        The plies a game may last.
    threads : int or None
        Threads for the kernels (None: every core).
    on_long : str
        ``"raise"`` or ``"truncate"`` for a game not over after ``max_plies``.

    Examples
    --------
    >>> batch = GameBatch("backgammon", 4, seed=1)
    >>> while not batch.done:
    ...     wave = batch.candidates()
    ...     batch.step(np.zeros(4, dtype=np.int64))      # always the first play
    >>> records = batch.records()
    >>> records.plies.shape, int(records.offsets[-1]) == int(records.plies.sum())
    ((4,), True)
    """

    def __init__(self, rules: RulesLike, n: int, seed: int = 0, start: PositionLike | None = None, *,
                 restart: bool = False,
                 record: bool = True, stratify: int | None = None, max_plies: int = MAX_PLIES,
                 threads: int | None = None, on_long: str = "raise") -> None:
        rules, n, seed, max_plies, threads = run_arguments(rules, n, seed, max_plies, threads)
        on_long = as_on_long(on_long)
        start_array, opening = starting_array(start, rules)
        strata = as_stratify(stratify, opening)
        if restart and _kernel.outcomes(start_array[None], rules).winner[0] >= 0:
            raise GameStateError("start: the game is already over in this position; nothing to restart")
        self._setup(rules, np.repeat(start_array[None], n, axis=0), np.arange(n, dtype=np.int64), seed,
                    opening=opening, stratify=strata, restart=restart, record=record, max_plies=max_plies,
                    threads=threads, on_long=on_long)

    @classmethod
    def _of_items(cls, rules: Rules, starts: np.ndarray, games: np.ndarray, seed: int, *, stratify: int,
                  record: bool, max_plies: int, threads: int | None, on_long: str = "raise") -> GameBatch:
        """Slot ``i`` plays game ``games[i]`` from ``starts[i]`` (seat 0 to
        roll, checked positions), as ``rollout`` plays its items."""
        batch = cls.__new__(cls)
        batch._setup(rules, np.array(starts, dtype=np.int8), np.array(games, dtype=np.int64), seed,
                     opening=False, stratify=stratify, restart=False, record=record, max_plies=max_plies,
                     threads=threads, on_long=on_long)
        return batch

    def _setup(self, rules: Rules, boards: np.ndarray, games: np.ndarray, seed: int, *, opening: bool,
               stratify: int, restart: bool, record: bool, max_plies: int, threads: int | None,
               on_long: str) -> None:
        self.rules, self.n, self.seed, self.max_plies = rules, len(boards), seed, max_plies
        self.on_long = on_long
        self.restart, self.record = bool(restart), bool(record)
        self._threads = as_threads(threads)
        self._opening, self._stratify = opening, stratify
        self._start_array = boards[0].copy()
        self._boards = boards  # a writable copy per slot, seen by the side to move
        self._games = games
        self._plies = np.zeros(self.n, dtype=np.int64)
        self._dice = np.zeros((self.n, 2), dtype=np.int8)
        self._running = np.ones(self.n, dtype=bool)
        self._counts = np.zeros(self.n, dtype=np.int32)
        self._next_game = int(games.max()) + 1 if len(games) else 0
        self._plies_kept: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self._ended: list[tuple[np.ndarray, ...]] = []  # (slots, games, winner, value, kind, plies)
        ended = _kernel.outcomes(boards, rules)  # a start may be over already: a game of no plies
        over = np.flatnonzero(ended.winner >= 0)
        if over.size:
            self._finish(over, ended.winner[over], ended.value[over], ended.kind[over], seat=0)
        self._roll_until_a_play(np.flatnonzero(self._running))
        self._candidates = self._generate()

    # -- state --

    @property
    def done(self) -> bool:
        """Every game has finished (never with ``restart=True``)."""
        return not self._running.any()

    @property
    def games_started(self) -> int:
        """Games begun so far (ids ``0 .. games_started - 1``)."""
        return self._next_game

    @property
    def games_finished(self) -> int:
        return sum(len(ended[0]) for ended in self._ended)

    def _ends(self) -> list[np.ndarray]:
        """``[slots, games, winner, value, kind, plies]`` of the finished games."""
        dtypes = (np.int64, np.int64, np.int8, np.int8, np.int8, np.int32)
        if not self._ended:
            return [np.empty(0, dtype) for dtype in dtypes]
        return [np.concatenate(column) for column in zip(*self._ended)]

    def candidates(self) -> Candidates:
        """The plays open to each slot's game (see :class:`Candidates`)."""
        return self._candidates

    # -- playing --

    def step(self, choices: Any) -> None:
        """Play ``choices[i]`` (an index into slot ``i``'s candidates) in
        every waiting game; a finished slot's choice is ignored (-1, as
        :func:`segment_argmax` gives it, is fine). Raises
        :class:`~bansugoroku_fast.errors.PolicyOutputError` naming the game
        for choices of the wrong shape or dtype or outside a game's
        candidates, :class:`~bansugoroku_fast.errors.GameStateError` once
        every game has finished."""
        if self.done:
            raise GameStateError(
                f"all {self.n} games have finished (restart=False): nothing to step; read records()"
            )
        wave = self._candidates
        running = np.flatnonzero(self._running)
        chosen = self._checked(choices, wave, running)
        after = wave.children[wave.offsets[running] + chosen]
        self._keep(running, after)
        self._plies[running] += 1
        ended = _kernel.outcomes(after, self.rules)
        over = ended.winner >= 0
        self._boards[running] = after[:, ::-1]
        if over.any():
            self._finish(running[over], ended.winner[over], ended.value[over], ended.kind[over])
        self._roll_until_a_play(running[~over] if not self.restart else running)
        self._candidates = self._generate()

    def step_with(self, policy: PolicyCallable) -> None:
        """One :meth:`step` with the choices of callable ``policy`` (see
        :mod:`bansugoroku_fast.games.policies`), shown the waiting games only."""
        wave = self._candidates
        self.step(call_policy(policy, wave.offsets, wave.children, wave.games))

    def _checked(self, choices: Any, wave: Candidates, running: np.ndarray) -> np.ndarray:
        """The choices of the running slots, checked."""
        values = np.asarray(choices)
        if values.dtype.kind not in "iu":
            raise PolicyOutputTypeError(f"choices must be integers, int64[{self.n}], got dtype {values.dtype}")
        if values.shape != (self.n,):
            raise PolicyOutputError(
                f"choices must be one integer per game slot, shape ({self.n},), got shape {values.shape}"
            )
        counts = np.diff(wave.offsets)[running]
        return within_candidates(values[running], counts, self._games[running])

    def _keep(self, running: np.ndarray, after: np.ndarray) -> None:
        if self.record:
            self._plies_kept.append(
                (self._games[running], self._boards[running], self._dice[running], after)
            )

    def _finish(self, slots: np.ndarray, row_won: np.ndarray, value: np.ndarray, kind: np.ndarray,
                seat: int | None = None) -> None:
        """Record the games of ``slots``, over with row ``row_won`` of their
        board the winner: the board just played (row 0 = the last mover),
        or a start (row 0 = ``seat`` 0)."""
        row0_seat = (self._plies[slots] - 1) % 2 if seat is None else np.full(len(slots), seat)
        winner = np.where(row_won == 0, row0_seat, 1 - row0_seat).astype(np.int8)
        self._end(slots, winner, value, kind)

    def _end(self, slots: np.ndarray, winner: np.ndarray, value: np.ndarray, kind: np.ndarray) -> None:
        """Record the games of ``slots`` as ended (``winner`` a seat, or -1:
        cut off), then free their slots or start new games there."""
        self._ended.append((slots, self._games[slots], winner, value, kind, self._plies[slots].astype(np.int32)))
        if not self.restart:
            self._running[slots] = False
            self._games[slots] = -1
            return
        self._games[slots] = np.arange(self._next_game, self._next_game + len(slots))
        self._next_game += len(slots)
        self._plies[slots] = 0
        self._boards[slots] = self._start_array

    def _roll_until_a_play(self, slots: np.ndarray) -> None:
        """Roll for each slot's mover; a roll without a legal play is a pass
        (recorded), and the other side rolls, until every slot has a play."""
        while slots.size:
            slots = self._stop_before_roll(slots)
            if not slots.size:
                break
            too_long = self._plies[slots] >= self.max_plies
            if too_long.any():
                if self.on_long == "raise":
                    raise GameTooLongError.of_game(f"game {int(self._games[slots[np.argmax(too_long)]])}", self.seed,
                                        self.max_plies)
                cut = slots[too_long]
                self._end(cut, np.full(len(cut), -1, np.int8), np.zeros(len(cut), np.int8),
                          np.full(len(cut), -1, np.int8))
                if not self.restart:  # restarted slots roll their new games' first dice
                    slots = slots[~too_long]
                    continue
            self._roll(slots)
            boards = np.ascontiguousarray(self._boards[slots])
            self._counts[slots] = counts = _kernel.count(self._items(boards, self._dice[slots]))[0]
            passing = slots[counts == 0]
            if passing.size:
                self._keep(passing, self._boards[passing].copy())
                self._plies[passing] += 1
                self._boards[passing] = self._boards[passing][:, ::-1]
            slots = passing

    def _stop_before_roll(self, slots: np.ndarray) -> np.ndarray:
        """The slots of ``slots`` whose games go on to roll (a rollout's
        games may stop here: :class:`StoppedBatch`)."""
        return slots

    def _roll(self, slots: np.ndarray) -> None:
        """The dice of each slot's game at its ply."""
        self._dice[slots] = roll_dice(self.seed, self._games[slots], self._plies[slots],
                                      opening=self._opening, stratify=self._stratify)

    def _items(self, boards: np.ndarray, dice: np.ndarray) -> _kernel.Items:
        dice = np.ascontiguousarray(dice)
        return _kernel.Items(np.ascontiguousarray(boards), dice, dice, self.rules, self._threads)

    def _generate(self) -> Candidates:
        running = np.flatnonzero(self._running)
        counts = np.where(self._running, self._counts, 0).astype(np.int64)
        offsets = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        plays = _kernel.generate(self._items(self._boards[running], self._dice[running]),
                                counts=self._counts[running])
        return Candidates(offsets, plays.children, self._boards.copy(), self._dice.copy(),
                          self._games.copy(), self._plies.copy())

    # -- records --

    def records(self, clear: bool = False) -> GameRecords:
        """The finished games, in the order of their ids, as
        :func:`~bansugoroku_fast.play_games` records them (positions and
        dice are empty with ``record=False``). ``clear=True`` forgets them
        afterwards (endless self-play keeps only the games in progress)."""
        _, ids, winner, value, kind, plies = self._ends()
        order = np.argsort(ids, kind="stable")
        offsets = np.zeros(len(ids) + 1, dtype=np.int64)
        np.cumsum(plies[order], out=offsets[1:])
        positions, dice, after = self._plies_of(ids[order], clear)
        if clear:
            self._ended = []
        return GameRecords(offsets, positions, dice, after, winner[order], value[order], kind[order],
                           plies[order], rules=self.rules, truncated=winner[order] < 0)

    def _plies_of(self, ids: np.ndarray, clear: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The kept plies of games ``ids`` (sorted), game by game in ply order."""
        empty = np.empty((0, 2, 26), dtype=np.int8)
        if not self._plies_kept:
            return empty, np.empty((0, 2), dtype=np.int8), empty.copy()
        games, positions, dice, after = (np.concatenate(column) for column in zip(*self._plies_kept))
        finished = np.isin(games, ids)
        order = np.flatnonzero(finished)[np.argsort(games[finished], kind="stable")]  # kept in time order
        if clear:
            keep = ~finished
            self._plies_kept = [(games[keep], positions[keep], dice[keep], after[keep])] if keep.any() else []
        return positions[order], dice[order], after[order]

    def __repr__(self) -> str:
        return (f"<GameBatch {self.rules.short_name}: {self.n} slots, {self.games_started} games started, "
                f"{self.games_finished} finished>")


# --- policies of every kind in lockstep ---------------------------------------------------


def starting_array(start: Any, rules: Rules) -> tuple[np.ndarray, bool]:
    """A game's start: the position's array, and whether ply 0 is the
    backgammon opening (``start`` None: the rules' own start)."""
    if start is None:
        return Position.initial(rules).array, rules.is_backgammon
    position = as_position(start)
    check_position_for_rules(position, rules)
    _kernel.outcomes(position.array[None], rules)
    return position.array, False


def roll_dice(seed: int, games: np.ndarray, plies: np.ndarray, *, opening: bool = False,
              stratify: int = 0) -> np.ndarray:
    """The roll of ply ``plies[i]`` of game ``games[i]`` of ``seed``: what
    ``play_games`` rolls there.

    The dice are counter-based (``oracle.games.roll`` is their
    specification), so games may be at different plies: one kernel call
    rolls for all.

    Parameters
    ----------
    seed : int
        The seed, ``0 .. 2**64 - 1``.
    games : numpy.ndarray
        ``int[N]``, game numbers (>= 0).
    plies : numpy.ndarray
        ``int[N]``, each game's ply (>= 0).
    opening : bool
        Ply 0 is the backgammon opening's non-double (the roll-off).
    stratify : int
        0, 36 or 1296, as in :func:`~bansugoroku_fast.rollout`: the first
        roll (or two) dealt evenly over each 36 (or 1,296) games.

    Returns
    -------
    numpy.ndarray
        ``int8[N, 2]``, the rolls.

    Raises
    ------
    InvalidArgumentError
        A seed or ``stratify`` out of range (a stratified opening would deal
        doubles), a negative game or ply, or arrays of different lengths.
    ArgumentTypeError
        ``games`` or ``plies`` not a one-dimensional integer array, or
        ``opening`` not a bool.

    Examples
    --------
    >>> from bansugoroku_fast.oracle.games import roll
    >>> dice = roll_dice(3, np.array([0, 5, 5]), np.array([2, 0, 7]))
    >>> dice.tolist() == [list(roll(3, 0, 2)), list(roll(3, 5, 0)), list(roll(3, 5, 7))]
    True
    >>> a, b = roll_dice(3, np.arange(10), np.zeros(10, dtype=int), opening=True).T
    >>> bool((a != b).all())
    True
    """
    if not isinstance(opening, bool):
        raise ArgumentTypeError(f"opening must be True or False, got {opening!r}")
    checked_seed, strata = as_seed(seed), as_stratify(stratify, opening)
    game_numbers, ply_numbers = _counters(games, "games"), _counters(plies, "plies")
    if len(game_numbers) != len(ply_numbers):
        raise InvalidArgumentError(f"games and plies must have the same length, got {len(game_numbers)} "
                                   f"and {len(ply_numbers)}")
    return _kernel.roll_dice(checked_seed, game_numbers, ply_numbers, opening, strata)


def _counters(values: object, name: str) -> np.ndarray:
    """``values`` as a C-contiguous ``int64[N]`` of game or ply numbers (>= 0), or a typed error:
    the dice are counted from them, so a float would be truncated and a negative roll some other game's."""
    array = np.asarray(values)
    if array.dtype.kind not in "iu" or array.ndim != 1:
        raise ArgumentTypeError(f"{name} must be a one-dimensional integer array, got {array.dtype} {array.shape}")
    if len(array) and array.min() < 0:
        raise InvalidArgumentError(f"{name} must be >= 0, got {int(array.min())}")
    return np.ascontiguousarray(array, dtype=np.int64)


def _subwave(offsets: np.ndarray, children: np.ndarray, items: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The offsets and children of ``items`` of a wave only."""
    counts = np.diff(offsets)[items]
    sub_offsets = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(counts, out=sub_offsets[1:])
    rows = np.repeat(offsets[items] - sub_offsets[:-1], counts) + np.arange(sub_offsets[-1])
    return sub_offsets, children[rows]


def play_out(batch: GameBatch, policies: tuple[ResolvedPolicy, ResolvedPolicy]) -> None:
    """Step ``batch`` to its end with seat 0's and seat 1's policies (seat 0
    moves at even plies); a callable is called once per wave for all the
    games its seat has to move."""
    while not batch.done:
        _step_once(batch, policies)


def _step_once(batch: GameBatch, policies: tuple[ResolvedPolicy, ResolvedPolicy]) -> None:
    """One wave of :func:`play_out`."""
    wave = batch.candidates()
    if policies[0] == policies[1]:  # the whole wave (a finished slot has no candidates: -1)
        batch.step(choose(policies[0], wave.positions, wave.offsets, wave.children, batch.rules,
                          batch.seed, wave.games, wave.plies))
        return
    choices = np.full(batch.n, -1, dtype=np.int64)
    for seat in (0, 1):
        slots = np.flatnonzero((wave.games >= 0) & (wave.plies % 2 == seat))
        if slots.size:
            sub_offsets, sub_children = _subwave(wave.offsets, wave.children, slots)
            choices[slots] = choose(policies[seat], wave.positions[slots], sub_offsets, sub_children,
                                    batch.rules, batch.seed, wave.games[slots], wave.plies[slots])
    batch.step(choices)


def play_lockstep(rules: Rules, games: int, policies: tuple[ResolvedPolicy, ResolvedPolicy], seed: int,
                  start: Any, stratify: int, max_plies: int, threads: int | None,
                  on_long: str = "raise") -> GameRecords:
    """``play_games`` for policies that include a callable (checked arguments)."""
    batch = GameBatch(rules, games, seed, start, stratify=stratify, max_plies=max_plies, threads=threads,
                      on_long=on_long)
    play_out(batch, policies)
    return batch.records()


def rollout_lockstep(positions: np.ndarray, first_game: int, count: int,
                     policies: tuple[ResolvedPolicy, ResolvedPolicy], rules: Rules, seed: int, stratify: int,
                     max_plies: int, threads: int | None, on_long: str = "raise") -> _kernel.GameEnds:
    """What ``rollout``'s kernel gives for policies that include a callable:
    the ends of item ``i * count + j`` = game
    ``first_game + j`` from ``positions[i]`` (every position of the batch
    rolls the same dice for game ``g``)."""
    starts = np.repeat(positions, count, axis=0)
    games = np.tile(np.arange(first_game, first_game + count, dtype=np.int64), len(positions))
    batch = GameBatch._of_items(rules, starts, games, seed, stratify=stratify, record=False,
                                max_plies=max_plies, threads=threads, on_long=on_long)
    play_out(batch, policies)
    slots, _, winner, value, kind, plies = batch._ends()
    order = np.argsort(slots)
    return _kernel.GameEnds(winner[order], value[order], kind[order], plies[order].astype(np.int32),
                            np.zeros(len(order), dtype=np.int8))


#: The ``winner`` of a game that :func:`rollout_stopped` stopped at the
#: endgame tables or after its ``truncate`` plies (its result is a
#: probability vector, not a seat).
SETTLED = -2

#: ``settle(boards) -> (in_table, shares)``: for boards seen by the side to
#: roll (``int8[N, 2, 26]``), which are valued exactly, and their
#: ``float64[N, 2, 4]`` chances of each (row, value) (row 0 = the side to
#: roll), as ``endgames.RaceBatch.value_probabilities`` gives them.
Settle = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


def settled_at_start(values: np.ndarray, count: int) -> tuple[_kernel.GameEnds, np.ndarray]:
    """The ends and shares of ``count`` games a position, every one stopped
    at ply 0 by the tables (``values``: each position's chances, row 0 =
    seat 0, to roll)."""
    items = len(values) * count
    ends = _kernel.GameEnds(np.full(items, SETTLED, np.int8), np.zeros(items, np.int8), np.full(items, -1, np.int8),
                            np.zeros(items, np.int32), np.zeros(items, np.int8))
    return ends, np.repeat(values, count, axis=0)


# --- rollouts judged by an evaluator -------------------------------------------------------


class Judge(Protocol):
    """What values a rollout's positions (an evaluator policy's
    ``rollout_judge``): both take boards seen by the side to roll
    (``int8[N, 2, 26]``) and give ``float64[N, 2, 4]`` shares, row 0 =
    that side (the layout of :data:`Settle`'s)."""

    def value(self, boards: np.ndarray) -> np.ndarray:
        """Each board's chances of each (row, value) result."""

    def luck(self, boards: np.ndarray, dice: np.ndarray) -> np.ndarray:
        """The luck of rolling ``dice`` there: the value after the best
        play of that roll minus the mean over the 21 rolls."""


class Judging(NamedTuple):
    """How a rollout uses its :class:`Judge`: ``truncate`` (None or a
    number of plies: each game stops there, valued by the judge) and
    ``variance_reduction`` (each roll's luck is subtracted from the game's
    result)."""

    judge: Judge
    truncate: int | None
    variance_reduction: bool


class StoppedBatch(GameBatch):
    """A rollout's games (as :func:`rollout_lockstep` plays them) stopped
    and adjusted before each roll: at the tables (``settle``), after
    ``judging.truncate`` plies (valued by the judge), and with
    ``judging.variance_reduction`` every roll's luck summed by seat in
    ``luck`` (passes too: a roll without a play is luck as well).
    ``shares[slot, seat, value]`` holds a stopped game's value."""

    judging: Judging | None
    settle: Settle | None
    shares: np.ndarray
    luck: np.ndarray

    @classmethod
    def of_items(cls, rules: Rules, starts: np.ndarray, games: np.ndarray, seed: int, *, stratify: int,
                 max_plies: int, threads: int | None, on_long: str, judging: Judging | None,
                 settle: Settle | None) -> StoppedBatch:
        batch = cls.__new__(cls)
        batch.judging, batch.settle = judging, settle
        batch.shares = np.zeros((len(starts), 2, 4))
        batch.luck = np.zeros((len(starts), 2, 4))
        batch._setup(rules, np.array(starts, dtype=np.int8), np.array(games, dtype=np.int64), seed,
                     opening=False, stratify=stratify, restart=False, record=False, max_plies=max_plies,
                     threads=threads, on_long=on_long)
        return batch

    def _stop_before_roll(self, slots: np.ndarray) -> np.ndarray:
        if self.settle is not None and slots.size:
            in_table, values = self.settle(np.ascontiguousarray(self._boards[slots]))
            slots = self._stop(slots, in_table, values[in_table])
        if self.judging is not None and self.judging.truncate is not None and slots.size:
            due = self._plies[slots] >= self.judging.truncate
            if due.any():
                slots = self._stop(slots, due, self.judging.judge.value(np.ascontiguousarray(self._boards[slots[due]])))
        return slots

    def _stop(self, slots: np.ndarray, stop: np.ndarray, values: np.ndarray) -> np.ndarray:
        """End the games of ``slots[stop]``, worth ``values`` (row 0 = the
        side to roll), and return the other slots."""
        ended = slots[stop]
        if ended.size:
            self.shares[ended] = _by_seat(values, self._plies[ended])
            self._end(ended, np.full(len(ended), SETTLED, np.int8), np.zeros(len(ended), np.int8),
                      np.full(len(ended), -1, np.int8))
        remaining: np.ndarray = slots[~stop]
        return remaining

    def _roll(self, slots: np.ndarray) -> None:
        super()._roll(slots)
        if self.judging is not None and self.judging.variance_reduction and slots.size:
            luck = self.judging.judge.luck(np.ascontiguousarray(self._boards[slots]), self._dice[slots])
            self.luck[slots] += _by_seat(luck, self._plies[slots])


def _by_seat(values: np.ndarray, plies: np.ndarray) -> np.ndarray:
    """``values[item, row, value]`` of the side to roll at ``plies`` put in
    seat order (seat 0 rolls at even plies)."""
    out = np.array(values, dtype=np.float64)
    seat_1 = plies % 2 == 1
    out[seat_1] = out[seat_1][:, ::-1]
    return out


def rollout_stopped(positions: np.ndarray, first_game: int, count: int,
                      policies: tuple[ResolvedPolicy, ResolvedPolicy], rules: Rules, seed: int, stratify: int,
                      max_plies: int, threads: int | None, settle: Settle | None,
                      on_long: str = "raise", judging: Judging | None = None) -> tuple[_kernel.GameEnds, np.ndarray]:
    """:func:`rollout_lockstep`'s games, each stopped before the first roll
    at a position that ``settle`` values exactly (ply 0 if the start is)
    or, with ``judging``, after ``judging.truncate`` plies: the ends
    (``winner`` :data:`SETTLED` for a stopped game, its ``plies`` those
    played before it stopped) and ``shares[item, seat, value]``, each
    game's result (a one-hot for a game played to its end, the chances
    where it stopped, zeros for one cut off at ``max_plies``; with
    ``judging.variance_reduction`` its luck subtracted). Up to its stop,
    game ``g`` is the very game ``g`` of the played-out rollout (same dice,
    same choices)."""
    starts = np.repeat(positions, count, axis=0)
    games = np.tile(np.arange(first_game, first_game + count, dtype=np.int64), len(positions))
    batch = StoppedBatch.of_items(rules, starts, games, seed, stratify=stratify, max_plies=max_plies,
                                  threads=threads, on_long=on_long, judging=judging, settle=settle)
    play_out(batch, policies)
    slots, _, winner, value, kind, plies = batch._ends()
    shares = batch.shares - batch.luck
    played = winner >= 0
    shares[slots[played], winner[played], value[played]] += 1.0
    shares[slots[winner == -1]] = 0.0
    order = np.argsort(slots)
    ends = _kernel.GameEnds(winner[order], value[order], kind[order], plies[order].astype(np.int32),
                            np.zeros(len(order), dtype=np.int8))
    return ends, shares


# --- cubeful games: the cube before each roll ------------------------------------------------------
#
# Backgammon games stepped together with the cube: before every roll, each
# side on roll that may double decides by its evaluator (the games of one
# cube state in one call of decide_many), the other side answers, and a
# passed double ends its game (games.cubeful says how each side acts). A
# game's points are what its winner scores: the cube's value times the
# game's value (1, 2 or 3; 1 under the Jacoby rule while the cube is
# centred), or after a pass the cube's value before the offer. Game g rolls
# the very dice of the cubeless game g of the same seed, ply by ply, until a
# pass ends it.


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


def decide_cube(cubing: Cubing, positions: np.ndarray, rules: Rules, state: Cube, cube: np.ndarray,
                threads: int = 1) -> tuple[CubeCalls, np.ndarray]:
    """The cube actions of ``positions`` (each seen by its side on roll,
    in one cube ``state``, the cube's value ``cube``, by ``cubing``'s
    evaluator) and their 0-ply cubeless probabilities (``float64[N, 5]``,
    the side on roll's; NaN where it may not double). The equities are
    :func:`~bansugoroku_fast.cube.decision.decide_many`'s, taken for all
    the positions at once in float64 (no action named: the calls need
    the numbers alone)."""
    n = len(positions)
    if not state.may_double():
        nothing = np.zeros(n, dtype=bool)
        return CubeCalls(nothing, nothing, nothing), np.full((n, 5), np.nan)
    probabilities, values = cubeful_values(positions, rules, cubing.evaluator, [state, state.doubled()], 0, True,
                                           threads)
    choices = np.stack([values[:, 0], state.take(values[:, 1]), np.full(n, state.double_pass())], axis=1)
    room = BEAVER_FACTOR * np.asarray(cube) <= CUBE_LIMIT
    calls = cube_calls(state.equities(choices), beavers=cubing.beavers and cubing.match is None, beaver_room=room)
    return calls, probabilities


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

    def _decide(self, slots: np.ndarray, state: Cube) -> tuple[np.ndarray, np.ndarray]:
        """The cube actions of ``slots`` (one cube ``state``): the cube
        turned where a double is taken, the passers marked; returns the
        slots whose double was passed and the evaluator's probabilities there."""
        boards = np.ascontiguousarray(self._boards[slots])
        calls, probabilities = decide_cube(self.cubing, boards, self.rules, state, self.cube[slots], self._threads)
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
