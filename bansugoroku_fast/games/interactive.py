"""Whole games: :class:`Game` (who starts, rolling, playing, the backgammon
cube) and :class:`Match` (games in a row, adding up points), played by hand
or at random.

Everything here drives the kernel-backed rule functions
(:func:`~bansugoroku_fast.moves.legal_plays`, :func:`~bansugoroku_fast.moves.outcome`)
and, for a turn played step by step, :class:`~bansugoroku_fast.turn.Turn`; no
rule of movement is written here. ``Turn``, ``roll_name``, ``dice_text`` and
``dice_to_play`` live in :mod:`bansugoroku_fast.turn` and are importable from
here too.

>>> game = Game("backgammon", seed=1)
>>> game.hand_over(0, "random"); game.hand_over(1, "random"); game.advance()
>>> game.is_over, game.result is not None and game.result.winner in (0, 1)
(True, True)
>>> game = Game("backgammon", ScriptedDice([2, 2, 3, 5]))
>>> game.seat_to_move, game.roll()
(1, (5, 3))
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, SupportsIndex, TypeAlias

import numpy as np

from ..checks import as_rules, as_side
from ..errors import ArgumentTypeError, GameStateError, IllegalPlayError, InvalidArgumentError, InvalidDiceError
from ..moves import legal_plays, outcome
from ..notation import match_play
from ..play import Outcome, Play
from ..position import Position, as_position
from ..rules import Rules
from ..turn import ROLL_NAMES, Turn, dice_text, dice_to_play, roll_name
from ..typing import PositionLike, RulesLike
from .computer import Computer
from .cubeful import CubeContext, MatchScore, as_match_score

if TYPE_CHECKING:
    from ..formats import MatchState

__all__ = [
    "CubeRecord",
    "DiceSource",
    "Game",
    "GameResult",
    "Match",
    "MatchScore",
    "ScriptedDice",
    "Seed",
    "TurnRecord",
    "dice_source",
    "play_random_turn",
    # from bansugoroku_fast.turn, for compatibility
    "ROLL_NAMES",
    "Turn",
    "dice_text",
    "dice_to_play",
    "roll_name",
]

CUBE_LIMIT = 64
CUBE_VALUES = tuple(2**k for k in range(7))  # 1, 2, 4, ..., 64
SEATS = (0, 1)


class DiceSource(Protocol):
    """Where a game's dice and random choices come from."""

    def roll_die(self) -> int: ...

    def choose(self, count: int) -> int: ...


#: What a game's ``seed`` may be: see :func:`dice_source`.
Seed: TypeAlias = int | random.Random | np.random.Generator | DiceSource | None


# --- randomness -----------------------------------------------------------------


class ScriptedDice:
    """A dice source replaying fixed die values, for tests and replays.

    >>> dice = ScriptedDice([6, 5, 3])
    >>> dice.roll_die(), dice.roll_die(), dice.remaining
    (6, 5, 1)
    """

    def __init__(self, values: Iterable[SupportsIndex]) -> None:
        self._values = [int(value) for value in values]
        if not all(1 <= value <= 6 for value in self._values):
            raise InvalidDiceError(f"die values must be in 1..6, got {values!r}")
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next

    def roll_die(self) -> int:
        if self._next >= len(self._values):
            raise GameStateError("the scripted dice are used up")
        value = self._values[self._next]
        self._next += 1
        return value

    def choose(self, count: int) -> int:
        """Scripted games always choose the first option."""
        return 0


class _RandomDice:
    """Dice and choices from ``random.Random`` or a numpy ``Generator``."""

    def __init__(self, rng: random.Random | np.random.Generator) -> None:
        self._rng = rng

    def roll_die(self) -> int:
        if isinstance(self._rng, random.Random):
            return self._rng.randint(1, 6)
        return int(self._rng.integers(1, 7))

    def choose(self, count: int) -> int:
        if isinstance(self._rng, random.Random):
            return self._rng.randrange(count)
        return int(self._rng.integers(0, count))


def dice_source(seed: Seed = None) -> DiceSource:
    """A source of dice from a seed (None or int -> ``random.Random``), a
    ``random.Random``, a numpy ``Generator``, or anything with ``roll_die()``
    (such as :class:`ScriptedDice`)."""
    if seed is None or isinstance(seed, int):
        return _RandomDice(random.Random(seed))
    if isinstance(seed, (random.Random, np.random.Generator)):
        return _RandomDice(seed)
    if hasattr(seed, "roll_die"):
        return seed
    raise ArgumentTypeError(f"seed must be None, an int, a random.Random or a numpy Generator, got {seed!r}")


# --- whole games ---------------------------------------------------------------


class TurnRecord(NamedTuple):
    """One turn of a game's history: ``play`` is None for a pass."""

    number: int
    seat: int
    dice: tuple[int, int]
    play: Play | None

    def __str__(self) -> str:
        moves = str(self.play) if self.play is not None else "no legal play (pass)"
        return f"{self.number:3d}. seat {self.seat}  {dice_text(self.dice):14s} {moves}"


class CubeRecord(NamedTuple):
    """A cube action: ``action`` is 'double', 'take' or 'drop'; ``cube`` the
    value after it."""

    seat: int
    action: str
    cube: int

    def __str__(self) -> str:
        if self.action == "double":
            return f"     seat {self.seat} doubles to {self.cube * 2}"
        if self.action == "take":
            return f"     seat {self.seat} takes; the cube is at {self.cube}, owned by seat {self.seat}"
        return f"     seat {self.seat} drops (passes the double)"


@dataclass(frozen=True)
class GameResult:
    """How a game ended, in seats: ``points = value x cube`` (a dropped
    double scores the cube before the offer, and ``outcome`` is None)."""

    winner: int
    points: int
    cube: int
    outcome: Outcome | None

    @property
    def dropped(self) -> bool:
        return self.outcome is None

    def __str__(self) -> str:
        if self.outcome is None:
            how = f"double dropped, cube {self.cube}"
        elif self.cube > 1:
            how = f"{self.outcome.kind} worth {self.outcome.value} x cube {self.cube}"
        else:
            how = f"{self.outcome.kind} worth {self.outcome.value}"
        unit = "point" if self.points == 1 else "points"
        return f"seat {self.winner} wins {self.points} {unit} ({how})"


class Game:
    """One game between seat 0 and seat 1.

    :attr:`position` is always seen by the side to move, :attr:`seat_to_move`
    says which seat that is. A turn is: optionally :meth:`offer_double`
    (backgammon, before rolling) and :meth:`take` / :meth:`drop`; then
    :meth:`roll` (a roll with no legal play passes at once); then
    :meth:`play` with a :class:`Play`, notation or a completed :class:`Turn`.

    Who starts (docs/rules.md §3.9, §4.4): ``alternate`` -- ``starter`` (seat 0 unless a
    :class:`Match` says otherwise) rolls both dice; ``roll_off`` (and always in
    backgammon) -- each seat rolls one die, seat 0 first, ties again; the
    higher starts, rolling both dice afresh in Ban-sugoroku and playing the two
    roll-off dice in backgammon.

    ``seed`` is None, an int, a ``random.Random``, a numpy ``Generator`` or a
    :class:`ScriptedDice`; with the same seed a game rolls the same dice.
    ``match``: None for a money game, or the score of a match game (a
    :class:`MatchScore` or a :class:`~bansugoroku_fast.formats.MatchState`,
    seat 0's score first): nobody doubles in its Crawford game, and the
    computer's cube decisions read the score.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules`, its label, or None for Ban-sugoroku's defaults.
    seed : None or int or random.Random or numpy.random.Generator or ScriptedDice
        The dice: with the same seed a game rolls the same dice.
    starter : int or None
        The seat that starts under the ``alternate`` start (None: seat 0).
    match : MatchScore or ~bansugoroku_fast.formats.MatchState or None
        None for a money game, or the score of a match game, seat 0's first.

    Examples
    --------
    >>> game = Game("backgammon", ScriptedDice([2, 2, 3, 5]))
    >>> game.opening_rolls, game.seat_to_move
    ([(2, 2), (3, 5)], 1)
    >>> game.roll()
    (5, 3)
    >>> game.play("8/3 6/3")
    >>> game.seat_to_move, game.history[-1].play
    (0, <Play 8/3 6/3>)
    """

    def __init__(self, rules: RulesLike = None, seed: Seed = None, *, starter: int | None = None,
                 match: MatchScore | MatchState | None = None) -> None:
        checked_rules = as_rules(rules)
        self._setup(checked_rules, seed, Position.initial(checked_rules), cube=1, cube_owner=None,
                    match=as_match_score(match))
        self.seat_to_move = self.starter = self._decide_starter(starter)

    def _setup(self, rules: Rules, seed: Seed, position: Position, cube: int, cube_owner: int | None,
               match: MatchScore | None = None) -> None:
        self.rules = rules
        self.match = match
        self._dice_source = dice_source(seed)
        self.position: Position = position
        self.cube = cube
        self.cube_owner = cube_owner
        self.history: list[TurnRecord | CubeRecord] = []
        self.result: GameResult | None = None
        self.dice: tuple[int, int] | None = None
        self.opening_rolls: list[tuple[int, int]] = []
        self.computers: dict[int, Computer] = {}

    @classmethod
    def from_position(
        cls,
        position: PositionLike,
        rules: RulesLike = None,
        seed: Seed = None,
        *,
        seat_to_move: int = 0,
        cube: int = 1,
        cube_owner: int | None = None,
        match: MatchScore | MatchState | None = None,
    ) -> Game:
        """A game resumed at ``position`` (seen by ``seat_to_move``), with no
        opening: the side to move rolls normally. ``match`` as for :class:`Game`."""
        checked_rules, checked_position = as_rules(rules), as_position(position)
        as_side(seat_to_move, "seat")
        if cube_owner is not None:
            as_side(cube_owner, "cube_owner")
        if cube not in CUBE_VALUES:
            raise InvalidArgumentError(f"the cube shows a power of 2 from 1 to {CUBE_LIMIT}, got {cube!r}")
        match = as_match_score(match)
        if match is not None and match.crawford and cube != 1:
            raise InvalidArgumentError(f"nobody doubles in the Crawford game: the cube is at 1, got {cube}")
        game = cls.__new__(cls)
        game._setup(checked_rules, seed, checked_position, cube=int(cube), cube_owner=cube_owner, match=match)
        game.seat_to_move = game.starter = seat_to_move
        game._settle(outcome(game.position, game.rules))
        return game

    # -- who starts --

    def _decide_starter(self, starter: int | None) -> int:
        if self.rules.start == "alternate":
            seat = 0 if starter is None else starter
            as_side(seat, "seat")
            return seat
        if starter is not None:
            raise GameStateError("with roll_off the roll-off decides who starts; give no starter")
        while True:
            roll = (self._dice_source.roll_die(), self._dice_source.roll_die())
            self.opening_rolls.append(roll)
            if roll[0] != roll[1]:
                break
        return 0 if roll[0] > roll[1] else 1

    # -- state --

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def turn_count(self) -> int:
        """Turns played so far, passes included (the last record's number)."""
        return next((r.number for r in reversed(self.history) if isinstance(r, TurnRecord)), 0)

    @property
    def double_offered_by(self) -> int | None:
        """The seat whose double awaits a take or a drop, or None."""
        last = self.history[-1] if self.history else None
        return last.seat if isinstance(last, CubeRecord) and last.action == "double" else None

    @property
    def _opening_dice(self) -> tuple[int, int] | None:
        """The roll-off dice the backgammon starter plays (its own die first),
        until that first roll is taken."""
        if not (self.rules.is_backgammon and self.opening_rolls) or self.history or self.dice is not None:
            return None
        roll = self.opening_rolls[-1]
        return roll[self.starter], roll[1 - self.starter]

    def position_for(self, seat: int) -> Position:
        """The position seen by ``seat`` (row 0 = that seat)."""
        as_side(seat, "seat")
        return self.position if seat == self.seat_to_move else self.position.swapped()

    @property
    def can_double(self) -> bool:
        """The side to move may offer the cube now (backgammon, before rolling,
        owning the cube or with it in the middle, below 64, not in a
        match's Crawford game)."""
        return (
            self.rules.is_backgammon
            and not self.is_over
            and self.dice is None
            and self.double_offered_by is None
            and self._opening_dice is None
            and self.cube < CUBE_LIMIT
            and self.cube_owner in (None, self.seat_to_move)
            and not (self.match is not None and self.match.crawford)
        )

    def cube_context(self) -> CubeContext:
        """The cube as the side to move sees it (what a computer's cube
        strategy reads): the owner 0 if it is the side to move's, the
        match score with the side to move's first.

        >>> game = Game.from_position(Position.initial(), "backgammon", seat_to_move=1, match=MatchScore(5, (1, 3)))
        >>> game.cube_context().match.score
        (3, 1)
        """
        owner = None if self.cube_owner is None else int(self.cube_owner != self.seat_to_move)
        match = self.match
        if match is not None and self.seat_to_move == 1:
            match = MatchScore(match.match_length, match.score[::-1], match.crawford)
        return CubeContext(self.rules, self.cube, owner, match)

    def legal_plays(self) -> Sequence[Play]:
        """The legal plays with the dice rolled."""
        return legal_plays(self.position, self._require_rolled(), self.rules)

    def start_turn(self) -> Turn:
        """A :class:`Turn` for the dice rolled, to play step by step and hand
        back to :meth:`play` once complete."""
        return Turn(self.position, self._require_rolled(), self.rules)

    # -- the cube --

    def offer_double(self) -> None:
        """The side to move offers to double, before rolling."""
        if not self.can_double:
            raise GameStateError(f"seat {self.seat_to_move} may not double now: {self._why_no_double()}")
        self.history.append(CubeRecord(self.seat_to_move, "double", self.cube))

    def take(self) -> None:
        """The opponent takes: the cube doubles and the taker owns it."""
        taker = self._answering_seat()
        self.cube *= 2
        self.cube_owner = taker
        self.history.append(CubeRecord(taker, "take", self.cube))

    def drop(self) -> None:
        """The opponent passes the double: the offerer wins the cube's value
        before the offer."""
        dropper = self._answering_seat()
        self.history.append(CubeRecord(dropper, "drop", self.cube))
        self.result = GameResult(winner=1 - dropper, points=self.cube, cube=self.cube, outcome=None)

    def _answering_seat(self) -> int:
        if self.double_offered_by is None:
            raise GameStateError("no double has been offered")
        return 1 - self.double_offered_by

    def _why_no_double(self) -> str:
        if not self.rules.is_backgammon:
            return "Ban-sugoroku has no doubling cube"
        if self.is_over:
            return "the game is over"
        if self.double_offered_by is not None:
            return "a double is waiting for an answer"
        if self.dice is not None or self._opening_dice is not None:
            return "the dice are already rolled"
        if self.cube >= CUBE_LIMIT:
            return f"the cube stops at {CUBE_LIMIT}"
        if self.match is not None and self.match.crawford:
            return "nobody doubles in the Crawford game"
        return f"seat {self.cube_owner} owns the cube"

    # -- rolling and playing --

    def roll(self) -> tuple[int, int]:
        """Roll for the side to move (in a backgammon opening: the roll-off
        dice). With no legal play the turn passes at once."""
        if self.is_over:
            raise GameStateError(f"the game is over: {self.result}")
        if self.double_offered_by is not None:
            raise GameStateError("answer the double (take or drop) before rolling")
        if self.dice is not None:
            raise GameStateError(f"the dice are already rolled: {dice_text(self.dice)}")
        dice = self._opening_dice or (self._dice_source.roll_die(), self._dice_source.roll_die())
        self.dice = dice
        if not legal_plays(self.position, dice, self.rules):
            self._finish_turn(None)
        return dice

    def play(self, choice: Play | Turn | str) -> None:
        """Play a legal :class:`Play`, its notation (``"24/18 13/8"``) or a
        completed :class:`Turn`; raise :class:`IllegalPlayError` otherwise."""
        dice = self._require_rolled()
        plays = legal_plays(self.position, dice, self.rules)
        wanted: Play | None
        if isinstance(choice, Turn):
            wanted = self._play_of_turn(choice)
        elif isinstance(choice, str):
            wanted = match_play(plays, choice)
        elif isinstance(choice, Play):
            wanted = choice
        else:
            raise ArgumentTypeError(f"play takes a Play, notation or a completed Turn, got {choice!r}")
        chosen = next((play for play in plays if wanted is not None and play.position == wanted.position), None)
        if chosen is None:
            raise IllegalPlayError(f"{wanted} is not a legal play for {dice_text(dice)}")
        self._finish_turn(chosen)

    def _play_of_turn(self, turn: Turn) -> Play | None:
        if turn.start_position != self.position or turn.dice != self.dice or turn.rules != self.rules:
            raise IllegalPlayError("that turn was not started from this game's position and dice")
        if not turn.is_complete:
            raise IllegalPlayError(f"the turn is not complete: dice {turn.dice_left} are still to play")
        return turn.play_result()

    def _finish_turn(self, play: Play | None) -> None:
        dice = self._require_rolled()
        self.history.append(TurnRecord(self.turn_count + 1, self.seat_to_move, dice, play))
        self.dice = None
        after = play.position if play is not None else self.position
        ended = outcome(after, self.rules)
        if ended is not None:
            self.position = after
            self._settle(ended)
            return
        self.position = after.swapped()
        self.seat_to_move = 1 - self.seat_to_move

    def _settle(self, ended: Outcome | None) -> None:
        """Record ``ended`` (rows as seen by the side to move) in seats."""
        if ended is None:
            return
        winner = self.seat_to_move if ended.winner == 0 else 1 - self.seat_to_move
        self.result = GameResult(winner, ended.points(self.cube), self.cube, ended)

    # -- the computer opponent --

    def hand_over(self, seat: int, player: Any) -> None:
        """From now on the computer plays ``seat`` (the Ban-sugoroku pages:
        the computer takes the seat of a player who left), mid-turn too.
        ``player`` is a :class:`~bansugoroku_fast.games.computer.Computer` or a
        policy for one (``"net"``, ``"heuristic"``, ...), which then
        handles the cube by the shipped network's 0-ply cube decisions
        (:class:`~bansugoroku_fast.games.computer.NetCube`; a
        ``Computer(policy, cube="pips")`` keeps the source page's pip-count
        rule). :meth:`advance` then plays its turns.

        >>> game = Game(Rules(), ScriptedDice([6, 5, 3, 1, 4, 2] * 40))
        >>> game.hand_over(1, "first")
        >>> game.roll(); game.play(game.legal_plays()[0])
        (6, 5)
        >>> game.advance()                       # seat 1 plays its turn, then waits for seat 0
        >>> game.seat_to_move, game.turn_count, game.history[-1].seat, game.history[-1].dice
        (0, 2, 1, (3, 1))
        """
        as_side(seat, "seat")
        self.computers[seat] = player if isinstance(player, Computer) else Computer(player)

    def take_back(self, seat: int) -> None:
        """The player of ``seat`` returns: the computer gives the seat back."""
        as_side(seat, "seat")
        if self.computers.pop(seat, None) is None:
            raise GameStateError(f"seat {seat} is not played by the computer")

    def advance(self) -> None:
        """Let the computers act (answer a double, play their turns) until a
        person must act or the game is over."""
        while not self.is_over:
            offerer = self.double_offered_by
            if offerer is not None and 1 - offerer in self.computers:
                self._answer_double(self.computers[1 - offerer])
            elif offerer is None and self.seat_to_move in self.computers:
                self.play_turn(self.computers[self.seat_to_move])
            else:
                return

    def play_turn(self, player: Any) -> None:
        """Let ``player`` (a :class:`~bansugoroku_fast.games.computer.Computer` or
        a policy) play the rest of this turn of the side to move: offer the
        cube if its rule says so, roll, play. A double it offers to a person
        stops the turn until :meth:`take` or :meth:`drop` (call again after
        a take); a computer seat answers at once.

        >>> game = Game("backgammon", ScriptedDice([6, 5, 3, 1]))
        >>> game.play_turn("first")             # the roll-off's 6-5 for seat 0
        >>> str(game.history[-1].play), game.seat_to_move
        ('24/13', 1)
        """
        computer = player if isinstance(player, Computer) else Computer(player)
        if self.is_over or self.double_offered_by is not None:
            raise GameStateError(f"seat {self.seat_to_move} cannot play now: {self._why_waiting()}")
        if self.can_double and computer.offers_double(self.position, self.cube_context()):
            self.offer_double()
            answering = 1 - self.seat_to_move
            if answering not in self.computers:
                return
            self._answer_double(self.computers[answering])
            if self.result is not None:  # the double was dropped
                return
        if self.dice is None:
            self.roll()
            if self.dice is None:
                return  # the roll had no legal play: the turn passed
        self.play(computer.choose(self.position, self.legal_plays(), self.rules))

    def _answer_double(self, computer: Computer) -> None:
        if computer.takes_double(self.position, self.cube_context()):      # the doubler's, before its double
            self.take()
        else:
            self.drop()

    def _why_waiting(self) -> str:
        if self.is_over:
            return f"the game is over: {self.result}"
        return f"seat {self.double_offered_by}'s double awaits an answer"

    def _require_rolled(self) -> tuple[int, int]:
        """The dice rolled for this turn; refuse if the game is over or nobody rolled."""
        if self.is_over:
            raise GameStateError(f"the game is over: {self.result}")
        if self.dice is None:
            raise GameStateError(f"seat {self.seat_to_move} has not rolled yet")
        return self.dice

    def __repr__(self) -> str:
        state = str(self.result) if self.is_over else f"seat {self.seat_to_move} to move"
        return f"<Game {self.rules.short_name}: turn {self.turn_count}, {state}>"


def play_random_turn(game: Game) -> None:
    """Roll and, unless the roll passes, play a uniformly chosen legal play
    (chosen with the game's own dice source)."""
    game.roll()
    if game.dice is not None:
        plays = game.legal_plays()
        game.play(plays[game._dice_source.choose(len(plays))])


class Match:
    """A series of games sharing one dice source and adding up points.

    With the ``alternate`` start, seat 0 starts game 1 and the starter
    alternates game by game; with ``roll_off`` each game has its roll-off.
    ``length``: 0 (the default) for games without end (money play, or
    Ban-sugoroku's sessions); a number of points for a match to that many
    points: each game knows the score (``Game.match``, which the
    computer's cube decisions read), the game after a side first reaches
    ``length - 1`` is the Crawford game (no doubling), and the match is
    over once a side has ``length`` points.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules`, its label, or None for Ban-sugoroku's defaults.
    seed : None or int or random.Random or numpy.random.Generator or ScriptedDice
        The dice source all the games share.
    length : int
        The match's length in points; 0 for games without end.

    Examples
    --------
    >>> match = Match(Rules(), seed=5)
    >>> [match.new_game().starter for _ in range(1)]
    [0]
    >>> _ = match.play_random_games(2)
    >>> [game.starter for game in match.games]
    [0, 1, 0]
    >>> match = Match("backgammon", seed=3, length=3)
    >>> while not match.is_over:
    ...     _ = match.play_random_games(1)
    >>> max(match.scores) >= 3, match.winner == match.scores.index(max(match.scores))
    (True, True)
    """

    def __init__(self, rules: RulesLike = None, seed: Seed = None, *, length: int = 0) -> None:
        self.rules = as_rules(rules)
        self._dice_source = dice_source(seed)
        if isinstance(length, bool) or not isinstance(length, int) or length < 0:
            raise InvalidArgumentError(f"a match's length is a whole number of points (0: no end), got {length!r}")
        self.length = length
        self.games: list[Game] = []
        self._crawford_played = False

    def new_game(self) -> Game:
        """The next game; the previous one must be over, and the match not."""
        if self.games and not self.games[-1].is_over:
            raise GameStateError("finish the current game first")
        if self.is_over:
            raise GameStateError(f"the match is over: seat {self.winner} won {self.scores[0]}-{self.scores[1]}")
        starter = len(self.games) % 2 if self.rules.start == "alternate" else None
        game = Game(self.rules, self._dice_source, starter=starter, match=self._next_score())
        self.games.append(game)
        return game

    def _next_score(self) -> MatchScore | None:
        """The score of the next game of a match (None without a length)."""
        if not self.length:
            return None
        score = self.scores
        crawford = self.length - 1 in score and not self._crawford_played
        self._crawford_played |= crawford
        return MatchScore(self.length, score, crawford)

    @property
    def scores(self) -> tuple[int, int]:
        """Points won by seat 0 and seat 1 in finished games."""
        points = [0, 0]
        for game in self.games:
            if game.result is not None:
                points[game.result.winner] += game.result.points
        return points[0], points[1]

    @property
    def is_over(self) -> bool:
        """A match with a length is over once a side has reached it."""
        return bool(self.length) and max(self.scores) >= self.length

    @property
    def winner(self) -> int | None:
        """The seat that won the match (None while it goes on, or without a length)."""
        if not self.is_over:
            return None
        return 0 if self.scores[0] >= self.length else 1

    def play_random_games(self, count: int) -> tuple[int, int]:
        """Play ``count`` random games (finishing any game in progress first;
        fewer if a match ends); return the scores."""
        if self.games and not self.games[-1].is_over:
            _finish_randomly(self.games[-1])
        for _ in range(count):
            if self.is_over:
                break
            _finish_randomly(self.new_game())
        return self.scores


def _finish_randomly(game: Game, max_turns: int = 100_000) -> None:
    while not game.is_over:
        if game.turn_count >= max_turns:
            raise GameStateError(f"no result after {max_turns} turns")
        play_random_turn(game)
