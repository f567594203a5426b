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
  :mod:`bansugoroku_fast.policies` index); the mask holds the first
  ``len(legal_plays)`` indices. A roll with more legal plays than
  ``max_plays`` raises :class:`ValueError` (raise ``max_plays``) rather than
  hide plays from the agent.

**Dice.** Game ``game`` of seed ``seed`` rolls the dice of the counter-based
generator (:func:`bansugoroku_fast.oracle.games.roll`, its definition): ply ``p`` of an
episode rolls exactly what ply ``p`` of game ``game`` rolls in
:func:`~bansugoroku_fast.play_games` with that seed (the backgammon opening
included), so episodes are reproducible and comparable with whole-game runs.

Seat 0 is the side that moves first. There is no doubling cube: a game is
worth its outcome's value (1..3), to the winner, and the opposite to the
loser.

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

from dataclasses import dataclass

import numpy as np

from ..api import legal_plays, outcome
from ..errors import GameStateError, IllegalPlayError
from ..game import Turn, dice_to_play
from ..oracle.games import roll
from ..play import Play, Step
from ..position import Position
from ..rules import Rules

#: Action count of the ``"step"`` encoding: 25 origins (1..24, 25 = bar) x 6 dice.
STEP_ACTIONS = 25 * 6
#: Default size of the ``"play"`` encoding. A few backgammon doubles (far
#: from any real game) have more distinct plays; those raise.
MAX_PLAYS = 1024
#: Default cap on the plies of an episode (then it is truncated).
MAX_PLIES = 10_000
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
        for name, value in (("max_plays", max_plays), ("max_plies", max_plies)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        self.rules = rules
        self.actions = actions
        self.max_plays = int(max_plays)
        self.max_plies = int(max_plies)
        self.action_count = STEP_ACTIONS if actions == "step" else self.max_plays
        self.seed = self.game = self.ply = self.seat = 0
        self.position = Position.initial(rules)
        self.dice: tuple[int, int] = (1, 1)
        self.result: Result | None = None
        self.truncated = False
        self._plays: list[Play] = []
        self._turn: Turn | None = None

    # -- the game ------------------------------------------------------------------

    def new_game(self, seed: int, game: int) -> None:
        """Start game ``game`` of ``seed`` from the rules' start, seat 0 to roll."""
        self.seed, self.game, self.ply, self.seat = int(seed), int(game), 0, 0
        self.position = Position.initial(self.rules)
        self.result, self.truncated = None, False
        self._roll()

    @property
    def is_over(self) -> bool:
        """The game is won, or truncated after ``max_plies`` plies."""
        return self.result is not None or self.truncated

    def _roll(self) -> None:
        """Roll for the side to move; pass every roll with no legal play."""
        while True:
            if self.ply >= self.max_plies:
                self.truncated = True
                return
            opening = self.rules.is_backgammon and self.ply == 0
            self.dice = roll(self.seed, self.game, self.ply, opening=opening)
            self._plays = legal_plays(self.position, self.dice, self.rules)
            self._turn = None
            if len(self._plays) > self.max_plays and self.actions == "play":
                raise ValueError(
                    f"game {self.game} (seed {self.seed}) ply {self.ply}: {len(self._plays)} legal plays "
                    f"with {self.dice}, more than max_plays={self.max_plays}; raise max_plays"
                )
            if self._plays:
                return
            self._next_ply(self.position)  # a pass

    def _next_ply(self, after: Position) -> None:
        self.position = after.swapped()
        self.seat = 1 - self.seat
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

    def legal_plays(self) -> list[Play]:
        """The mover's legal plays with :attr:`dice`, in ``legal_plays`` order."""
        return self._plays

    # -- actions -------------------------------------------------------------------

    @property
    def turn(self) -> Turn:
        """The mover's turn, step by step (the ``"step"`` encoding)."""
        if self._turn is None:
            self._turn = Turn(self.position, self.dice, self.rules)
        return self._turn

    def legal_actions(self) -> list[int]:
        """The actions the mover may take now, ascending."""
        if self.is_over:
            return []
        if self.actions == "play":
            return list(range(len(self._plays)))
        return sorted({step_action(step.origin, step.die) for step in self.turn.legal_steps()})

    def action_mask(self) -> np.ndarray:
        """``int8[action_count]``: 1 for each legal action of the mover."""
        mask = np.zeros(self.action_count, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def act(self, action: object) -> None:
        """Take ``action`` for the mover; an illegal action raises
        :class:`IllegalPlayError` and leaves the game as it was."""
        if self.is_over:
            raise GameStateError("the game is over; start a new one (reset)")
        index = self._action_index(action)
        if index not in self.legal_actions():
            raise IllegalPlayError(self._illegal_message(index))
        if self.actions == "play":
            self.play(self._plays[index])
            return
        origin, die = step_of_action(index)
        turn = self.turn
        turn.play(next(step for step in turn.legal_steps() if (step.origin, step.die) == (origin, die)))
        if turn.is_complete:
            finished = turn.play_result()
            assert finished is not None  # a turn with a legal step is no pass
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
        return np.array(array if seat == self.seat else array[::-1])

    def dice_left(self) -> tuple[int, ...]:
        """The dice the mover still has to play, highest first."""
        if self.is_over:
            return ()
        if self.actions == "step":
            left = self.turn.dice_left
        else:
            left = dice_to_play(self.dice, self.rules)
        return tuple(sorted(left, reverse=True))

    def dice_vector(self, seat: int) -> np.ndarray:
        """``int8[4]``: the dice left to ``seat`` if it is to move (0 padding)."""
        vector = np.zeros(DICE_SLOTS, dtype=np.int8)
        if seat == self.seat:
            left = self.dice_left()
            vector[: len(left)] = left
        return vector

    def steps_played(self) -> tuple[Step, ...]:
        """The single moves made so far this turn (``"step"`` encoding)."""
        return self.turn.steps if self.actions == "step" and not self.is_over else ()
