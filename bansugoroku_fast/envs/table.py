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
from ..errors import ArgumentTypeError, GameStateError, IllegalPlayError, InvalidArgumentError
from ..games.game_batch import roll_dice
from ..games.policies import CALLABLE, ResolvedPolicy, policy_weights
from ..moves import legal_plays, outcome
from ..play import Outcome, Play
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
_ROW_BYTES = 26  # one row of a board's bytes
SEATS = (0, 1)


def step_action(origin: int, die: int) -> int:
    """The ``"step"`` action that moves a stone from ``origin`` with ``die``.

    Parameters
    ----------
    origin : int
        The point the stone leaves, 1..24, or 25 for the bar.
    die : int
        The die it moves by, 1..6.

    Returns
    -------
    int
        ``6 (origin - 1) + die - 1``, in ``0 .. STEP_ACTIONS - 1``.

    Raises
    ------
    InvalidArgumentError
        ``origin`` or ``die`` out of its range (``ArgumentTypeError`` for a
        value that is not an integer).

    Examples
    --------
    >>> step_action(25, 6), step_action(1, 1), step_action(13, 5)
    (149, 0, 76)
    """
    return 6 * (_integer_in(origin, "origin", 1, 25) - 1) + _integer_in(die, "die", 1, 6) - 1


def step_of_action(action: int) -> tuple[int, int]:
    """The origin and die of a ``"step"`` action: the inverse of
    :func:`step_action`.

    Parameters
    ----------
    action : int
        A step action, ``0 .. STEP_ACTIONS - 1``.

    Returns
    -------
    tuple of (int, int)
        ``(origin, die)``: origin 1..25 (25 = the bar), die 1..6.

    Raises
    ------
    InvalidArgumentError
        ``action`` is outside the step actions (``ArgumentTypeError`` for a
        value that is not an integer).

    Examples
    --------
    >>> step_of_action(76)
    (13, 5)
    >>> step_of_action(step_action(25, 3))
    (25, 3)
    """
    index = _integer_in(action, "a step action", 0, STEP_ACTIONS - 1)
    return index // 6 + 1, index % 6 + 1


def _integer_in(value: object, name: str, least: int, most: int) -> int:
    """``value`` as an int in ``least .. most`` (numpy integers accepted), or a typed error naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ArgumentTypeError(f"{name} must be an integer in {least}..{most}, got {value!r}")
    if not least <= value <= most:
        raise InvalidArgumentError(f"{name} must be an integer in {least}..{most}, got {value!r}")
    return int(value)


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


# Where a kernel play record keeps its steps (``_kernel.PLAY_RECORD``):
# ``(origin, target, die, hit)`` per step, from _STEPS_START on.
_RECORD_BYTES = _kernel.PLAY_RECORD["bytes"]
_BOARD_START = _kernel.PLAY_RECORD["board"]
_BOARD_BYTES = _kernel.PLAY_RECORD["board_bytes"]
_NSTEPS = _kernel.PLAY_RECORD["nsteps"]
_STEP_BYTES = _kernel.PLAY_RECORD["step_bytes"]
_STEPS_START = _kernel.PLAY_RECORD["steps"]
_STEPS_END = _STEPS_START + DICE_SLOTS * _STEP_BYTES
_DIE_FIELD = 2
_SLOT_NUMBERS = np.arange(DICE_SLOTS)
#: ``_ACTION_OF[origin, die]``: the ``"step"`` action (-1 for die 0).
_ACTION_OF = np.full((26, 7), -1, dtype=np.int16)
_ACTION_OF[1:, 1:] = 6 * np.arange(25)[:, None] + np.arange(6)


def _records_of(plays: Sequence[Play]) -> np.ndarray:
    """``uint8[k, record bytes]``: the kernel's records of ``legal_plays`` output."""
    records: np.ndarray = np.frombuffer(plays.records, dtype=np.uint8)  # type: ignore[attr-defined]
    return records.reshape(len(plays), _RECORD_BYTES)


def children_of(plays: Sequence[Play]) -> np.ndarray:
    """``int8[k, 2, 26]``: the board after each play of ``legal_plays`` output."""
    boards = _records_of(plays)[:, _BOARD_START:_BOARD_START + _BOARD_BYTES]
    children: np.ndarray = np.ascontiguousarray(boards).view(np.int8).reshape(len(plays), 2, 26)
    return children


def play_index(records: bytes, board: bytes) -> int:
    """The index of the play whose board is ``board`` (52 bytes) among the
    kernel's ``records`` of ``legal_plays`` output (one play per resulting
    board), found without making a play.

    >>> from bansugoroku_fast import Position, Rules
    >>> plays = legal_plays(Position.initial(), (6, 5), Rules(variant="backgammon"))
    >>> play_index(plays.records, plays[3].position.key)
    3
    """
    at = records.find(board)
    while at >= 0 and (at - _BOARD_START) % _RECORD_BYTES:  # a match across fields: look further
        at = records.find(board, at + 1)
    if at < 0:
        raise AssertionError("the board is none of the plays'")
    return (at - _BOARD_START) // _RECORD_BYTES


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
        self.counts = records[:, _NSTEPS]
        origins = records[:, _STEPS_START:_STEPS_END:_STEP_BYTES]
        dice = records[:, _STEPS_START + _DIE_FIELD:_STEPS_END:_STEP_BYTES]
        actions = _ACTION_OF[origins, dice]
        actions[self.counts[:, None] <= _SLOT_NUMBERS] = -1  # the slots past a play's last step
        self.actions = actions
        self.plays = plays
        self.records: bytes = plays.records  # type: ignore[attr-defined]  # (a deep copy makes plays a list)
        self.made: list[int] = []
        self._rows = np.arange(len(plays))  # the orders that start with the moves made, ascending
        self._finished = -1  # the first of them with no more moves, once there is one
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
        rows = self._rows[self.actions[self._rows, len(self.made)] == action]
        self.made.append(action)
        ended = rows[self.counts[rows] == len(self.made)]
        self._rows, self._finished = rows, int(ended[0]) if ended.size else -1
        self._mask = None

    def finished_row(self) -> int:
        """The row (of :attr:`plays`) of the play the moves made complete,
        or -1 while moves remain."""
        return self._finished

    def finished_board(self) -> bytes:
        """The board bytes after the play the moves made complete."""
        start = self._finished * _RECORD_BYTES + _BOARD_START
        return self.records[start:start + _BOARD_BYTES]

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


class _KernelGame:
    """The game of a :class:`Table` as one row of the arrays that
    ``_kernel.advance_batch`` (the vector environment's kernel) advances in
    place, made once and reused."""

    def __init__(self) -> None:
        self.rows = np.zeros(1, dtype=np.int64)
        self.choices = np.zeros(1, dtype=np.int64)
        self.boards = np.zeros((1, 2, 26), dtype=np.int8)
        self.dice = np.zeros((1, 2), dtype=np.int8)
        self.plies = np.zeros(1, dtype=np.int64)
        self.games = np.zeros(1, dtype=np.int64)
        self.counts = np.zeros(1, dtype=np.int32)
        self.winner = np.zeros(1, dtype=np.int8)
        self.value = np.zeros(1, dtype=np.int8)
        self.truncated = np.zeros(1, dtype=np.uint8)
        self.opponent: ResolvedPolicy | None = None  # whose weights ``weights`` are
        self.weights = np.zeros(0)


#: ``max_plays`` for the kernel when the actions are single moves (no cap).
_NO_PLAY_CAP = 2**31 - 1


class Table:
    """The state of one game between seat 0 and seat 1, moved one action at a
    time (see the module docstring for the encodings)."""

    def __init__(self, rules: Rules, actions: str = "step", max_plays: int = MAX_PLAYS,
                 max_plies: int = MAX_PLIES) -> None:
        if actions not in ACTION_KINDS:
            raise InvalidArgumentError(f"actions must be one of {ACTION_KINDS}, got {actions!r}")
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
        #: The mover's legal plays with :attr:`dice` (``len(legal_plays())``).
        self.play_count = 0
        self._plays: Sequence[Play] | None = ()  # None: not made yet (legal_plays makes them)
        self._play_records = b""  # the kernel's records of _plays (kept: a deep copy makes _plays a list)
        self._turn: Turn | None = None
        self._orders: StepOrders | None = None
        self._dice_block: tuple[int | None, int, int] = (None, -1, -1)  # (seed, game, first ply) of _dice_rolled
        self._dice_rolled: list[tuple[int, int]] = []
        self._kernel_game: _KernelGame | None = None  # made by the first play_on

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
            self._plays = None
            self._new_roll(len(self.legal_plays()))
            if self.play_count:
                return
            self._next_ply(self.position)  # a pass

    def _new_roll(self, count: int) -> None:
        """The mover has rolled :attr:`dice`, with ``count`` legal plays."""
        self.play_count = count
        self._turn = self._orders = None
        if count > self.max_plays and self.actions == "play":
            raise InvalidArgumentError(
                f"game {self.game} (seed {self.seed}) ply {self.ply}: {count} legal plays "
                f"with {self.dice}, more than max_plays={self.max_plays}; raise max_plays"
            )

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
            self._won(play.position, found)
            return
        self._next_ply(play.position)
        self._roll()

    def _won(self, position: Position, found: Outcome) -> None:
        """The mover's play has ended the game in ``position`` (its view)."""
        winner = self.seat if found.winner == 0 else 1 - self.seat
        self.result = Result(winner, found.value, str(found.kind))
        self.position = position

    def play_on(self, index: int, seat: int, opponent: ResolvedPolicy) -> None:
        """Finish the mover's turn with play ``index`` of :meth:`legal_plays`,
        then play the other seat's turns by the kernel policy ``opponent``
        and every pass until ``seat`` has a roll with plays, or the game
        ends or is truncated: what :meth:`play` and ``play(choose_play(opponent,
        table))`` do, turn after turn, in one kernel call (the vector
        environment's; the same dice and choices)."""
        assert self.seed is not None and opponent.code != CALLABLE
        game = self._kernel_game
        if game is None:
            game = self._kernel_game = _KernelGame()
        if game.opponent is not opponent:
            game.opponent, game.weights = opponent, policy_weights(opponent)
        game.boards.reshape(-1)[:] = np.frombuffer(self.position.key, dtype=np.int8)
        game.dice[0] = self.dice
        game.plies[0], game.games[0], game.choices[0] = self.ply, self.game, index
        game.winner[0] = game.value[0] = game.truncated[0] = game.counts[0] = 0
        _kernel.advance_batch(game.rows, game.choices, game.boards, game.dice, game.plies, game.games, game.counts,
                              game.winner, game.value, game.truncated, seat, opponent.code,
                              game.weights, self.rules.code, self.seed, self.rules.is_backgammon,
                              self.max_plies, self.max_plays if self.actions == "play" else _NO_PLAY_CAP)
        self.position = Position._from_key(game.boards.tobytes())
        self.ply = int(game.plies[0])
        a, b = game.dice[0].tolist()
        self.dice = (a, b)
        if game.value[0]:  # the game is won (the board is the winner's view)
            found = outcome(self.position, self.rules)
            assert found is not None
            self._won(self.position, found)
        elif game.truncated[0]:
            self.truncated = True
        else:
            self._plays = None  # made when asked for
            self._new_roll(int(game.counts[0]))

    def info(self) -> dict[str, Any]:
        """The ``info`` of a step: which game of which seed, at which ply."""
        return {"ply": self.ply, "game": self.game, "seed": self.seed}

    def legal_plays(self) -> Sequence[Play]:
        """The mover's legal plays with :attr:`dice`, in ``legal_plays`` order."""
        if self._plays is None:
            self._plays = legal_plays(self.position, self.dice, self.rules)
            self._play_records = self._plays.records
        return self._plays

    def children(self) -> np.ndarray:
        """``int8[k, 2, 26]``: the position after each of :meth:`legal_plays`
        (the mover's view), what ``generate_plays`` gives as ``children``,
        read from the plays' kernel records instead of a second search."""
        return children_of(self.legal_plays())

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
            return list(range(self.play_count))
        return self.orders.next_actions().tolist()  # type: ignore[no-any-return]

    def action_mask(self) -> np.ndarray:
        """``int8[action_count]``: 1 for each legal action of the mover."""
        if self.actions == "play":
            count = 0 if self.is_over else self.play_count
            row: np.ndarray = _mask_rows(self.action_count)[self.action_count - count].copy()  # no fancy index
            return row
        if self.is_over:
            return np.zeros(self.action_count, dtype=np.int8)
        mask: np.ndarray = self.orders.mask().copy()
        return mask

    def act(self, action: object) -> None:
        """Take ``action`` for the mover; an illegal action raises
        :class:`IllegalPlayError` and leaves the game as it was."""
        finished = self.take(action)
        if finished >= 0:
            self.play(self.legal_plays()[finished])

    def take(self, action: object) -> int:
        """Check ``action`` and, with single moves, make its move: the index
        (in :meth:`legal_plays`) of the play that completes the mover's turn
        (a whole play, or the moves made so far), not yet played
        (:meth:`play`, :meth:`play_on`), or -1 while moves remain. An illegal
        action raises :class:`IllegalPlayError` and changes nothing."""
        if self.is_over:
            raise GameStateError("the game is over; start a new one (reset)")
        index = self._action_index(action)
        if self.actions == "play":
            if index >= self.play_count:
                raise IllegalPlayError(self._illegal_message(index))
            return index
        orders = self.orders
        if not orders.mask()[index]:
            raise IllegalPlayError(self._illegal_message(index))
        orders.make(index)
        if orders.finished_row() < 0:
            return -1
        self.legal_plays()
        return play_index(self._play_records, orders.finished_board())

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
            return f"action {index} is not legal for {where}: there are {self.play_count} legal plays"
        origin, die = step_of_action(index)
        legal = ", ".join(f"{step} (die {step.die})" for step in self.turn.legal_steps())
        return f"action {index} (from {origin} with a {die}) is not legal for {where}; legal: {legal}"

    # -- what a seat sees ------------------------------------------------------------

    def board(self, seat: int) -> np.ndarray:
        """``int8[2, 26]``, the board seen by ``seat`` (row 0 = that seat)."""
        key = self.position.key  # seen by the mover (the winner's last move, once won)
        if seat != self.seat:
            key = key[_ROW_BYTES:] + key[:_ROW_BYTES]
        board: np.ndarray = np.frombuffer(key, dtype=np.int8).reshape(2, 26).copy()
        return board

    def dice_left(self) -> tuple[int, ...]:
        """The dice the mover still has to play, highest first."""
        if self.is_over:
            return ()
        a, b = self.dice  # checked ints: what dice_to_play says, without its checks
        left = [a] * self.rules.doubles_moves if a == b else [max(a, b), min(a, b)]
        if self.actions == "step" and self._orders is not None:
            for action in self._orders.made:
                left.remove(action % 6 + 1)
        return tuple(left)

    def dice_vector(self, seat: int) -> np.ndarray:
        """``int8[4]``: the dice left to ``seat`` if it is to move (0 padding)."""
        if seat != self.seat:
            return np.zeros(DICE_SLOTS, dtype=np.int8)
        left = self.dice_left()
        return np.array(left + (0,) * (DICE_SLOTS - len(left)), dtype=np.int8)
