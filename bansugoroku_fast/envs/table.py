"""One game as the environments see it: whose turn, which dice are left,
which actions are legal, and how an action changes the game.

**Actions.** Two encodings, chosen with ``actions=``:

* ``"step"`` (the default; ``Discrete(150)``): one stone moved by one die per
  action, ``action = 6 * (origin - 1) + (die - 1)`` with ``origin`` in
  1..25 (25 = the bar) in the mover's numbering and ``die`` in 1..6 (see
  :func:`step_action`, :func:`step_of_action`). The target follows from the
  origin, the die and the rules (a stone borne off with a higher die goes
  off), so ``(origin, die)`` names a single move exactly. The mask holds the
  single moves that continue some legal play after the moves already made
  this turn (:meth:`~bansugoroku_fast.Turn.legal_steps`), so any sequence of
  masked actions spells a legal play, and a move that would strand a
  playable die is never offered. The turn passes to the other side by
  itself once the play is complete (the dice are used, or the mover has
  won, or the rules leave the rest unplayable); a roll with no legal play
  is passed without an action.
* ``"play"`` (``Discrete(max_plays)``): the index of a whole play among
  the legal plays of the roll, in the order
  :func:`~bansugoroku_fast.legal_plays` lists them (the order the policies of
  :mod:`bansugoroku_fast.games.policies` index); the mask holds the first
  ``len(legal_plays)`` indices. A roll with more legal plays than
  ``max_plays`` raises :class:`ValueError` (raise ``max_plays``) rather than
  hide plays from the agent.

**Dice.** Game ``game`` of seed ``seed`` rolls the kernels' counter-based
dice (:func:`bansugoroku_fast.games.game_batch.roll_dice`): ply ``p`` of an episode
rolls exactly what ply ``p`` of game ``game`` rolls in
:func:`~bansugoroku_fast.play_games` with that seed (the backgammon opening
included), so episodes are reproducible and comparable with whole-game runs.

Seat 0 is the side that moves first, so seat ``ply % 2`` is to move (a pass
is a ply). There is no doubling cube: a game is worth its outcome's value
(1..3), to the winner, and the opposite to the loser.

>>> from bansugoroku_fast import Rules
>>> table = Table(Rules(variant="backgammon"), actions="step")
>>> table.new_game(seed=0, game=0)
>>> table.seat, table.dice
(0, (3, 2))
>>> [step_of_action(a) for a in np.flatnonzero(table.action_mask())]
[(6, 2), (6, 3), (8, 2), (8, 3), (13, 2), (13, 3), (24, 2), (24, 3)]
>>> table.act(step_action(13, 3)); table.seat, table.dice_left()
(0, (2,))
>>> table.act(step_action(13, 2)); table.seat, table.ply
(1, 1)
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _kernel
from ..checks import as_seed, positive_int
from ..errors import GameStateError, IllegalPlayError
from ..games.game_batch import roll_dice
from ..moves import legal_plays, outcome
from ..play import Play
from ..position import Position
from ..rules import Rules
from ..turn import Turn

#: Action count of the ``"step"`` encoding: 25 origins (1..24, 25 = bar) x 6 dice.
STEP_ACTIONS = 25 * 6
#: Default size of the ``"play"`` encoding. A few backgammon doubles (far
#: from any real game) have more distinct plays; those raise.
MAX_PLAYS = 1024
#: Default cap on the plies of an episode (then it is truncated).
MAX_PLIES = 10_000
#: Plies whose dice the kernel rolls in one call (most games end within 64).
DICE_AHEAD = 64
#: Longest dice-left vector: the four moves of a backgammon double.
DICE_SLOTS = 4
ACTION_KINDS = ("step", "play")
SEATS = (0, 1)


def step_action(origin: int, die: int) -> int:
    """The ``"step"`` action moving a stone from ``origin`` (1..25, 25 = bar)
    with ``die``.

    >>> step_action(25, 6), step_action(1, 1), step_action(13, 5)
    (149, 0, 76)
    """
    return 6 * (origin - 1) + die - 1


def step_of_action(action: int) -> tuple[int, int]:
    """``(origin, die)`` of a ``"step"`` action (the inverse of :func:`step_action`).

    >>> step_of_action(76)
    (13, 5)
    """
    return int(action) // 6 + 1, int(action) % 6 + 1


@functools.lru_cache(maxsize=8)
def _mask_rows(size: int) -> np.ndarray:
    """``int8[size + 1, size]`` (a read-only view of ``2 * size`` bytes): row
    ``size - k`` is the mask of ``k`` legal plays."""
    strip = np.concatenate([np.ones(size, dtype=np.int8), np.zeros(size, dtype=np.int8)])
    rows: np.ndarray = np.lib.stride_tricks.sliding_window_view(strip, size)
    return rows


def play_masks(counts: np.ndarray, size: int) -> np.ndarray:
    """``int8[N, size]``: the ``"play"`` masks of rolls with ``counts[i]``
    legal plays (their first ``counts[i]`` indices).

    >>> play_masks(np.array([2, 0]), 3).tolist()
    [[1, 1, 0], [0, 0, 0]]
    """
    masks: np.ndarray = _mask_rows(size)[size - np.asarray(counts)]  # a copy of the rows, one row gather
    return masks


def dice_slots(dice: np.ndarray, rules: Rules) -> np.ndarray:
    """``int8[N, 4]``: the dice each roll ``dice[i]`` (``int8[N, 2]``) has to
    play, highest first, 0 padding: both dice of a non-double, and
    ``rules.doubles_moves`` copies of a double (what
    :func:`~bansugoroku_fast.dice_to_play` says for one roll).

    >>> from bansugoroku_fast import Rules
    >>> dice_slots(np.array([[2, 5], [3, 3]]), Rules(variant="backgammon")).tolist()
    [[5, 2, 0, 0], [3, 3, 3, 3]]
    >>> dice_slots(np.array([[3, 3]]), Rules())[0].tolist()
    [3, 3, 0, 0]
    """
    slots = np.zeros((len(dice), DICE_SLOTS), dtype=np.int8)
    slots[:, 0], slots[:, 1] = dice.max(axis=1), dice.min(axis=1)
    doubles = slots[:, 0] == slots[:, 1]
    slots[doubles, 2:rules.doubles_moves] = slots[doubles, :1]
    return slots


# Where a kernel play record keeps its steps (``_kernel.PLAY_RECORD``).
_NSTEPS = _kernel.PLAY_RECORD["nsteps"]
_STEP_BYTES = _kernel.PLAY_RECORD["step_bytes"]
_STEPS_START = _kernel.PLAY_RECORD["steps"]
_STEPS_END = _STEPS_START + DICE_SLOTS * _STEP_BYTES
_SLOT_NUMBERS = np.arange(DICE_SLOTS)


def _records_of(plays: Sequence[Play]) -> np.ndarray:
    """``uint8[k, record bytes]``: the kernel's records of ``legal_plays`` output."""
    layout = _kernel.PLAY_RECORD
    records: np.ndarray = np.frombuffer(plays.records, dtype=np.uint8)  # type: ignore[attr-defined]
    return records.reshape(len(plays), layout["bytes"])


def children_of(plays: Sequence[Play]) -> np.ndarray:
    """``int8[k, 2, 26]``: the board after each play of ``legal_plays`` output."""
    layout = _kernel.PLAY_RECORD
    boards = _records_of(plays)[:, layout["board"]:layout["board"] + layout["board_bytes"]]
    children: np.ndarray = np.ascontiguousarray(boards).view(np.int8).reshape(len(plays), 2, 26)
    return children


class StepOrders:
    """Every legal order of single moves of one roll, as ``"step"`` actions:
    row ``i`` holds the actions of the ``i``-th play of
    ``legal_plays(..., all_orderings=True)`` (-1 padding), read from the
    kernel's play records with numpy. A turn in progress is the set of rows
    whose first moves are the moves made: the mask is their next actions,
    and the turn is complete when one of them has no more moves.

    (The same answers as :class:`~bansugoroku_fast.Turn`, which makes a
    :class:`~bansugoroku_fast.Step` of every move of every order: the
    environment asks only for actions, a few numpy operations a step.)
    """

    def __init__(self, plays: Sequence[Play]) -> None:
        records = _records_of(plays)
        # (origin, target, die, hit) per step slot, as int16 in one conversion.
        steps = records[:, _STEPS_START:_STEPS_END].astype(np.int16).reshape(len(plays), DICE_SLOTS, _STEP_BYTES)
        self.counts = records[:, _NSTEPS]
        actions = 6 * steps[:, :, 0] + steps[:, :, 2] - 7  # step_action(origin, die)
        actions[self.counts[:, None] <= _SLOT_NUMBERS] = -1  # the slots past a play's last step
        self.actions = actions
        self.plays = plays
        self.made: list[int] = []
        self._rows = np.ones(len(plays), dtype=bool)  # the orders that start with the moves made
        self._mask: np.ndarray | None = None

    def mask(self) -> np.ndarray:
        """``int8[STEP_ACTIONS]``: 1 for each action that continues some
        legal order (made once per move; the caller must not write to it)."""
        if self._mask is None:
            self._mask = np.zeros(STEP_ACTIONS, dtype=np.int8)
            done = len(self.made)
            if done < DICE_SLOTS:
                following = self.actions[self._rows, done]
                self._mask[following[following >= 0]] = 1
        return self._mask

    def next_actions(self) -> np.ndarray:
        """The actions that continue some legal order, ascending."""
        return np.flatnonzero(self.mask())

    def make(self, action: int) -> None:
        """Make the move ``action`` (one of :meth:`next_actions`)."""
        self._rows &= self.actions[:, len(self.made)] == action
        self.made.append(action)
        self._mask = None

    def finished_play(self) -> Play | None:
        """The play the moves made complete, or None while moves remain."""
        complete = self._rows & (self.counts == len(self.made))
        first = int(complete.argmax())  # the first True, or 0 when there is none
        return self.plays[first] if complete[first] else None

    def dice_made(self) -> list[int]:
        """The dice of the moves made, in order."""
        return [action % 6 + 1 for action in self.made]


def new_seed(generator: np.random.Generator) -> int:
    """A seed for the dice when ``reset`` was given none."""
    return int(generator.integers(2**63))


@dataclass(frozen=True)
class Result:
    """How a game ended, in seats; ``value`` is the outcome's value (1..3)."""

    winner: int
    value: int
    kind: str

    def points(self, seat: int) -> int:
        """What ``seat`` scores: the value if it won, minus the value if it lost."""
        return self.value if seat == self.winner else -self.value


class Table:
    """The state of one game between seat 0 and seat 1, moved one action at a
    time (see the module docstring for the encodings)."""

    def __init__(self, rules: Rules, actions: str = "step", max_plays: int = MAX_PLAYS,
                 max_plies: int = MAX_PLIES) -> None:
        if actions not in ACTION_KINDS:
            raise ValueError(f"actions must be one of {ACTION_KINDS}, got {actions!r}")
        self.rules = rules
        self.actions = actions
        self.max_plays = positive_int(max_plays, "max_plays")
        self.max_plies = positive_int(max_plies, "max_plies")
        self.action_count = STEP_ACTIONS if actions == "step" else self.max_plays
        self.seed: int | None = None  # None until the first game
        self.game = self.ply = 0
        self.position = Position.initial(rules)
        self.dice: tuple[int, int] = (1, 1)
        self.result: Result | None = None
        self.truncated = False
        self._plays: Sequence[Play] = ()
        self._turn: Turn | None = None
        self._orders: StepOrders | None = None
        self._dice_block: tuple[int | None, int, int] = (None, -1, -1)  # (seed, game, first ply) of _dice_rolled
        self._dice_rolled: list[tuple[int, int]] = []

    # -- the game ------------------------------------------------------------------

    def new_game(self, seed: int, game: int) -> None:
        """Start game ``game`` of ``seed`` from the rules' start, seat 0 to roll."""
        self.seed, self.game, self.ply = int(seed), int(game), 0
        self.position = Position.initial(self.rules)
        self.result, self.truncated = None, False
        self._roll()

    def next_game(self, seed: int | None, generator: np.random.Generator, game: int | None = None) -> None:
        """What ``reset(seed=seed)`` starts: game 0 of ``seed``; without a
        seed, the next game of the seed played so far (a first one drawn
        from ``generator``); ``game`` (given) picks the game instead."""
        if seed is None and self.seed is not None:
            seed, next_one = self.seed, self.game + 1
        else:
            seed, next_one = new_seed(generator) if seed is None else as_seed(seed), 0
        self.new_game(seed, next_one if game is None else game)

    @property
    def seat(self) -> int:
        """The seat to move (or that has just won): seat 0 moves at even plies."""
        return self.ply % 2

    @property
    def is_over(self) -> bool:
        """The game is won, or truncated after ``max_plies`` plies."""
        return self.result is not None or self.truncated

    def _roll(self) -> None:
        """Roll for the side to move; pass every roll with no legal play."""
        assert self.seed is not None
        while True:
            if self.ply >= self.max_plies:
                self.truncated = True
                return
            self.dice = self._dice_of(self.ply)
            self._plays = legal_plays(self.position, self.dice, self.rules)
            self._turn = self._orders = None
            if len(self._plays) > self.max_plays and self.actions == "play":
                raise ValueError(
                    f"game {self.game} (seed {self.seed}) ply {self.ply}: {len(self._plays)} legal plays "
                    f"with {self.dice}, more than max_plays={self.max_plays}; raise max_plays"
                )
            if self._plays:
                return
            self._next_ply(self.position)  # a pass

    def _dice_of(self, ply: int) -> tuple[int, int]:
        """The roll of ``ply``: the kernel rolls :data:`DICE_AHEAD` plies at a
        time (one call instead of one per ply; the same counter-based dice)."""
        block = ply - ply % DICE_AHEAD
        if self._dice_block != (self.seed, self.game, block):
            assert self.seed is not None
            plies = np.arange(block, block + DICE_AHEAD)
            rolled = roll_dice(self.seed, np.full(DICE_AHEAD, self.game), plies, opening=self.rules.is_backgammon)
            self._dice_rolled = [(a, b) for a, b in rolled.tolist()]
            self._dice_block = (self.seed, self.game, block)
        return self._dice_rolled[ply - block]

    def _next_ply(self, after: Position) -> None:
        self.position = after.swapped()
        self.ply += 1

    def play(self, play: Play) -> None:
        """Finish the mover's turn with ``play`` (one of :meth:`legal_plays`)."""
        found = outcome(play.position, self.rules)
        if found is not None:
            winner = self.seat if found.winner == 0 else 1 - self.seat
            self.result = Result(winner, found.value, str(found.kind))
            self.position = play.position
            return
        self._next_ply(play.position)
        self._roll()

    def info(self) -> dict[str, Any]:
        """The ``info`` of a step: which game of which seed, at which ply."""
        return {"ply": self.ply, "game": self.game, "seed": self.seed}

    def legal_plays(self) -> Sequence[Play]:
        """The mover's legal plays with :attr:`dice`, in ``legal_plays`` order."""
        return self._plays

    def children(self) -> np.ndarray:
        """``int8[k, 2, 26]``: the position after each of :meth:`legal_plays`
        (the mover's view), what ``generate_plays`` gives as ``children``,
        read from the plays' kernel records instead of a second search."""
        return children_of(self._plays)

    # -- actions -------------------------------------------------------------------

    @property
    def turn(self) -> Turn:
        """The mover's turn as a :class:`~bansugoroku_fast.Turn`, with the
        moves made so far (for messages and users; the actions use
        :class:`StepOrders`)."""
        if self._turn is None:
            self._turn = Turn(self.position, self.dice, self.rules)
        if len(self._turn.steps) != len(self.orders.made):
            self._turn.undo()
            for action in self.orders.made:
                origin, die = step_of_action(action)
                self._turn.play(next(step for step in self._turn.legal_steps() if (step.origin, step.die)
                                     == (origin, die)))
        return self._turn

    @property
    def orders(self) -> StepOrders:
        """The legal orders of moves of the roll, with the moves made (``"step"``)."""
        if self._orders is None:
            self._orders = StepOrders(legal_plays(self.position, self.dice, self.rules, all_orderings=True))
        return self._orders

    def legal_actions(self) -> list[int]:
        """The actions the mover may take now, ascending."""
        if self.is_over:
            return []
        if self.actions == "play":
            return list(range(len(self._plays)))
        return self.orders.next_actions().tolist()  # type: ignore[no-any-return]

    def action_mask(self) -> np.ndarray:
        """``int8[action_count]``: 1 for each legal action of the mover."""
        if self.actions == "play":
            count = 0 if self.is_over else len(self._plays)
            row: np.ndarray = _mask_rows(self.action_count)[self.action_count - count].copy()  # no fancy index
            return row
        if self.is_over:
            return np.zeros(self.action_count, dtype=np.int8)
        mask: np.ndarray = self.orders.mask().copy()
        return mask

    def act(self, action: object) -> None:
        """Take ``action`` for the mover; an illegal action raises
        :class:`IllegalPlayError` and leaves the game as it was."""
        if self.is_over:
            raise GameStateError("the game is over; start a new one (reset)")
        index = self._action_index(action)
        if self.actions == "play":
            if index >= len(self._plays):
                raise IllegalPlayError(self._illegal_message(index))
            self.play(self._plays[index])
            return
        orders = self.orders
        if not orders.mask()[index]:
            raise IllegalPlayError(self._illegal_message(index))
        orders.make(index)
        finished = orders.finished_play()
        if finished is not None:
            self.play(finished)

    def _action_index(self, action: object) -> int:
        value = action.item() if isinstance(action, np.ndarray) and action.size == 1 else action
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise IllegalPlayError(f"an action is an integer in 0..{self.action_count - 1}, got {action!r}")
        if not 0 <= value < self.action_count:
            raise IllegalPlayError(f"action {value} is outside the action space 0..{self.action_count - 1}")
        return int(value)

    def _illegal_message(self, index: int) -> str:
        where = f"seat {self.seat} with {self.dice} (ply {self.ply})"
        if self.actions == "play":
            return f"action {index} is not legal for {where}: there are {len(self._plays)} legal plays"
        origin, die = step_of_action(index)
        legal = ", ".join(f"{step} (die {step.die})" for step in self.turn.legal_steps())
        return f"action {index} (from {origin} with a {die}) is not legal for {where}; legal: {legal}"

    # -- what a seat sees ------------------------------------------------------------

    def board(self, seat: int) -> np.ndarray:
        """``int8[2, 26]``, the board seen by ``seat`` (row 0 = that seat)."""
        array = self.position.array  # seen by the mover (the winner's last move, once won)
        board: np.ndarray = np.array(array if seat == self.seat else array[::-1])
        return board

    def dice_left(self) -> tuple[int, ...]:
        """The dice the mover still has to play, highest first."""
        if self.is_over:
            return ()
        a, b = self.dice  # checked ints: what dice_to_play says, without its checks
        left = [a] * self.rules.doubles_moves if a == b else [max(a, b), min(a, b)]
        if self.actions == "step":
            for die in self.orders.dice_made():
                left.remove(die)
        return tuple(left)

    def dice_vector(self, seat: int) -> np.ndarray:
        """``int8[4]``: the dice left to ``seat`` if it is to move (0 padding)."""
        vector = np.zeros(DICE_SLOTS, dtype=np.int8)
        if seat == self.seat:
            left = self.dice_left()
            vector[: len(left)] = left
        return vector
