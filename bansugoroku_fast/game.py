"""The game layer: roll names, a step-by-step :class:`Turn`, whole games
(:class:`Game`, :class:`Match`) with who starts and the backgammon cube.

Everything here drives the package-level rule functions
(:func:`bansugoroku_fast.legal_plays`, :func:`~bansugoroku_fast.outcome`);
no rule of movement is written twice.

>>> roll_name((6, 5)), roll_name("1-1"), roll_name((3, 2))
('Goroku', 'Decchi', None)
>>> from bansugoroku_fast import Position, Rules
>>> turn = Turn(Position.initial(), (6, 5), Rules(variant="backgammon"))
>>> turn.play("24/18")
>>> [str(step) for step in turn.legal_steps()]
['18/13', '13/8', '8/3']
>>> turn.play("18/13")
>>> turn.is_complete, str(turn.play_result())
(True, '24/13')
>>> game = play_random_game("backgammon", seed=1)
>>> game.is_over, game.result.winner in (0, 1)
(True, True)
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

import bansugoroku_fast as package  # package-level (kernel-backed) rule functions
from .checks import as_dice, as_position, as_rules
from .errors import GameStateError, IllegalPlayError
from .notation import match_play, parse_moves
from .opponent import Computer
from .play import Outcome, Play, Step
from .position import Position
from .rules import Rules

BAR = 25
OFF = 0
CUBE_LIMIT = 64
CUBE_VALUES = tuple(2**k for k in range(7))  # 1, 2, 4, ..., 64
SEATS = (0, 1)

#: The four rolls the seeds name (RULES.md 4), keyed high die first.
ROLL_NAMES = {(6, 6): "Chōroku", (4, 4): "Shushi", (6, 5): "Goroku", (1, 1): "Decchi"}




def roll_name(dice) -> str | None:
    """The traditional name of a roll, in either order, or None.

    >>> [roll_name(d) for d in ((6, 6), (4, 4), (5, 6), (1, 1), (2, 1))]
    ['Chōroku', 'Shushi', 'Goroku', 'Decchi', None]
    """
    a, b = as_dice(dice)
    return ROLL_NAMES.get((max(a, b), min(a, b)))


def dice_text(dice) -> str:
    """``"6-5"``, followed by the roll's name when it has one.

    >>> dice_text((6, 5)), dice_text((3, 1))
    ('6-5 (Goroku)', '3-1')
    """
    a, b = as_dice(dice)
    name = roll_name((a, b))
    return f"{a}-{b}" + (f" ({name})" if name else "")


def dice_to_play(dice, rules) -> tuple[int, ...]:
    """The dice a turn has to play: both of a non-double, or
    ``rules.doubles_moves`` copies of a double (2 Ban-sugoroku, 4 backgammon).

    >>> dice_to_play((6, 5), Rules()), dice_to_play((3, 3), Rules()), dice_to_play((3, 3), "backgammon")
    ((6, 5), (3, 3), (3, 3, 3, 3))
    """
    a, b = as_dice(dice)
    return (a,) * as_rules(rules).doubles_moves if a == b else (a, b)


# --- one turn, step by step ----------------------------------------------------


def _after_step(position: Position, step: Step) -> Position:
    """The position after one single move of a legal play (row 0 still the
    mover). Bookkeeping only, for a turn still under way: the step and its
    ``hit`` flag come from :func:`bansugoroku_fast.legal_plays`, and a
    complete turn takes its position from the :class:`Play` itself."""
    mover, opponent = (list(row) for row in position.rows)
    mover[step.origin] -= 1
    mover[step.target] += 1
    if step.hit:
        opponent[BAR - step.target] -= 1
        opponent[BAR] += 1
    return Position._trusted([mover, opponent])


def _chains(continuation, origin: int, target: int):
    """The lengths n for which ``continuation[:n]`` carries one stone from
    ``origin`` to ``target``, hop after hop."""
    at = origin
    for length, step in enumerate(continuation, start=1):
        if step.origin != at:
            return
        at = step.target
        if at == target:
            yield length
            return


def _is_exact(step: Step) -> bool:
    return step.origin - step.target == step.die


class Turn:
    """One turn played a single move at a time (RULES.md 2, "Step by step").

    A move is offered only if some legal full play starts with the moves
    already made and continues with it, so a first move never strands a die
    that could have been played. :meth:`undo` goes back to the start of the
    turn while dice remain; once every die is used, or the mover has won, the
    turn is complete and can no longer be undone.

    >>> from bansugoroku_fast import Position
    >>> turn = Turn(Position.initial(), (6, 5), "backgammon")
    >>> turn.dice_left
    (6, 5)
    >>> turn.play("13/7")
    >>> turn.dice_left, [str(s) for s in turn.legal_steps()]
    ((5,), ['13/8', '8/3', '7/2'])
    >>> turn.undo()
    >>> turn.steps, turn.dice_left
    ((), (6, 5))
    >>> turn.play("24/13")   # a hop spanning both dice
    >>> turn.is_complete, turn.dice_left, turn.steps[0]
    (True, (), Step(origin=24, target=18, die=6, hit=False))
    """

    def __init__(self, position, dice, rules=None):
        self.start_position = as_position(position)
        self.dice = as_dice(dice)
        self.rules = as_rules(rules)
        plays = package.legal_plays(self.start_position, self.dice, self.rules, all_orderings=True)
        self._play_by_sequence = {play.as_steps(): play for play in plays}
        self._played: list[Step] = []

    # -- state --

    @property
    def steps(self) -> tuple[Step, ...]:
        """The single moves made so far, in order."""
        return tuple(self._played)

    @property
    def position(self) -> Position:
        """The position after the moves made so far (row 0 still the mover):
        the legal play's own position once the turn is complete."""
        play = self._play_by_sequence.get(self.steps)
        if play is not None:
            return play.position
        position = self.start_position
        for step in self._played:
            position = _after_step(position, step)
        return position

    @property
    def is_pass(self) -> bool:
        """No legal play at all (or the game was already over)."""
        return not self._play_by_sequence

    @property
    def is_complete(self) -> bool:
        """All the dice that can be played are played (or the mover has won,
        or there was nothing to play)."""
        return self.is_pass or self.steps in self._play_by_sequence

    @property
    def dice_left(self) -> tuple[int, ...]:
        """The dice not yet played; empty once the turn is complete (dice the
        rules leave unplayable are lost)."""
        if self.is_complete:
            return ()
        left = list(dice_to_play(self.dice, self.rules))
        for step in self._played:
            left.remove(step.die)
        return tuple(left)

    def _continuations(self) -> list[tuple[Step, ...]]:
        """The rest of every legal sequence that starts with the moves made."""
        played = self.steps
        done = len(played)
        return [seq[done:] for seq in self._play_by_sequence if seq[:done] == played]

    def legal_steps(self) -> list[Step]:
        """The single moves that continue some legal play, sorted like
        :func:`bansugoroku_fast.legal_first_steps` (greatest first)."""
        if self.is_complete:
            return []
        nexts = {rest[0] for rest in self._continuations() if rest}
        return sorted(nexts, key=lambda step: (step.origin, step.target, step.die), reverse=True)

    def play_result(self) -> Play | None:
        """The completed :class:`Play` in the order played; None for a pass."""
        if not self.is_complete:
            raise IllegalPlayError(
                f"the turn is not complete: dice {self.dice_left} are still to play"
            )
        return self._play_by_sequence.get(self.steps)

    # -- actions --

    def play(self, move) -> None:
        """Make one or more moves: a :class:`Step` (or ``(from, to, die)``),
        a ``(from, to)`` pair, or notation such as ``"13/7"``, ``"24/13"`` or
        ``"bar/22 13/11*"`` (hit marks are optional: the rules decide hits).
        A hop may span several dice of one stone. All or nothing: on an
        illegal move the turn is left as it was and :class:`IllegalPlayError`
        says why.
        """
        if self.is_complete:
            raise IllegalPlayError(f"the turn is complete ({self._describe()}); nothing more to play")
        if isinstance(move, str):
            self._play_text(move)
        elif len(move) == 2:
            self._play_hops([tuple(move)], str(move))
        else:
            origin, target, die = move[:3]
            self._play_step(Step(origin, target, die, False))

    def undo(self) -> None:
        """Back to the start of the turn; refused once the turn is complete
        (it has passed to the other side)."""
        if self.is_complete and self._played:
            raise IllegalPlayError(f"the turn is over ({self._describe()}); it can no longer be undone")
        self._played = []

    # -- helpers --

    def _describe(self) -> str:
        if self.is_pass:
            return "no legal play"
        return f"played {self.play_result()}"

    def _offered(self) -> str:
        offered = ", ".join(f"{step} (die {step.die})" for step in self.legal_steps())
        return offered or "none"

    def _play_step(self, wanted: Step) -> None:
        for step in self.legal_steps():
            if step[:3] == wanted[:3]:
                self._played.append(step)
                return
        raise IllegalPlayError(
            f"{wanted.origin}/{wanted.target} with a {wanted.die} is not legal now with "
            f"{dice_text(self.dice)}; legal moves: {self._offered()}"
        )

    def _play_text(self, text: str) -> None:
        """Each word in the order written; failing that, highest source first."""
        in_order = [hop for word in text.split() for hop in parse_moves(word)]
        try:
            self._play_hops(in_order, text)
        except IllegalPlayError as first_complaint:
            highest_first = parse_moves(text)
            if highest_first == in_order:
                raise
            try:
                self._play_hops(highest_first, text)
            except IllegalPlayError:
                raise first_complaint from None

    def _play_hops(self, hops, text: str) -> None:
        """All the hops, or (on an illegal one) none of them."""
        start = list(self._played)
        try:
            for origin, target in hops:
                self._played.extend(self._resolve_hop(origin, target, text))
        except IllegalPlayError:
            self._played = start
            raise

    def _resolve_hop(self, origin: int, target: int, text: str) -> tuple[Step, ...]:
        """The shortest legal run of one stone's moves from origin to target;
        ties go to moves using the exact die, then to the greatest key."""
        options = set()
        for rest in self._continuations():
            for length in _chains(rest, origin, target):
                options.add(rest[:length])
        if not options:
            where = "/".join(str(point) for point in (origin, target))
            raise IllegalPlayError(
                f"{where} in {text!r} is not legal now with {dice_text(self.dice)}"
                f" (dice left {self.dice_left}); legal moves: {self._offered()}"
            )

        def preference(run):
            inexact = sum(not _is_exact(step) for step in run)
            return (-len(run), -inexact, tuple((s.origin, s.target, s.die) for s in run))

        return max(options, key=preference)

    def __repr__(self):
        played = " ".join(str(step) for step in self._played) or "-"
        return f"<Turn {dice_text(self.dice)}: {played}; dice left {self.dice_left}>"


# --- randomness -----------------------------------------------------------------


class ScriptedDice:
    """A dice source replaying fixed die values, for tests and replays.

    >>> dice = ScriptedDice([6, 5, 3])
    >>> dice.roll_die(), dice.roll_die(), dice.remaining
    (6, 5, 1)
    """

    def __init__(self, values):
        self._values = [int(value) for value in values]
        if not all(1 <= value <= 6 for value in self._values):
            raise ValueError(f"die values must be in 1..6, got {values!r}")
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

    def __init__(self, rng):
        self._rng = rng
        self._numpy = not isinstance(rng, random.Random)

    def roll_die(self) -> int:
        if self._numpy:
            return int(self._rng.integers(1, 7))
        return self._rng.randint(1, 6)

    def choose(self, count: int) -> int:
        if self._numpy:
            return int(self._rng.integers(0, count))
        return self._rng.randrange(count)


def dice_source(seed=None):
    """A source of dice from a seed (None or int -> ``random.Random``), a
    ``random.Random``, a numpy ``Generator``, or anything with ``roll_die()``
    (such as :class:`ScriptedDice`)."""
    if hasattr(seed, "roll_die"):
        return seed
    if seed is None or isinstance(seed, int):
        return _RandomDice(random.Random(seed))
    if isinstance(seed, random.Random) or hasattr(seed, "integers"):
        return _RandomDice(seed)
    raise TypeError(f"seed must be None, an int, a random.Random or a numpy Generator, got {seed!r}")


# --- whole games ---------------------------------------------------------------


class TurnRecord(NamedTuple):
    """One turn of a game's history: ``play`` is None for a pass."""

    number: int
    seat: int
    dice: tuple[int, int]
    play: Play | None

    def __str__(self):
        moves = str(self.play) if self.play is not None else "no legal play (pass)"
        return f"{self.number:3d}. seat {self.seat}  {dice_text(self.dice):14s} {moves}"


class CubeRecord(NamedTuple):
    """A cube action: ``action`` is 'double', 'take' or 'drop'; ``cube`` the
    value after it."""

    seat: int
    action: str
    cube: int

    def __str__(self):
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

    def __str__(self):
        if self.dropped:
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

    Who starts (RULES.md 3): ``alternate`` -- ``starter`` (seat 0 unless a
    :class:`Match` says otherwise) rolls both dice; ``roll_off`` (and always in
    backgammon) -- each seat rolls one die, seat 0 first, ties again; the
    higher starts, rolling both dice afresh in Ban-sugoroku and playing the two
    roll-off dice in backgammon.

    ``seed`` is None, an int, a ``random.Random``, a numpy ``Generator`` or a
    :class:`ScriptedDice`; with the same seed a game rolls the same dice.

    >>> game = Game("backgammon", ScriptedDice([2, 2, 3, 5]))
    >>> game.opening_rolls, game.seat_to_move
    ([(2, 2), (3, 5)], 1)
    >>> game.roll()
    (5, 3)
    >>> game.play("8/3 6/3")
    >>> game.seat_to_move, game.history[-1].play
    (0, <Play 8/3 6/3>)
    """

    def __init__(self, rules=None, seed=None, *, starter: int | None = None):
        rules = as_rules(rules)
        self._setup(rules, seed, Position.initial(rules), cube=1, cube_owner=None)
        self.seat_to_move = self.starter = self._decide_starter(starter)

    def _setup(self, rules: Rules, seed, position: Position, cube: int, cube_owner: int | None) -> None:
        self.rules = rules
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
    def from_position(cls, position, rules=None, seed=None, *, seat_to_move: int = 0,
                      cube: int = 1, cube_owner: int | None = None) -> "Game":
        """A game resumed at ``position`` (seen by ``seat_to_move``), with no
        opening: the side to move rolls normally."""
        rules, position = as_rules(rules), as_position(position)
        _check_seat(seat_to_move)
        if cube_owner is not None:
            _check_seat(cube_owner)
        if cube not in CUBE_VALUES:
            raise ValueError(f"the cube shows a power of 2 from 1 to {CUBE_LIMIT}, got {cube!r}")
        game = cls.__new__(cls)
        game._setup(rules, seed, position, cube=int(cube), cube_owner=cube_owner)
        game.seat_to_move = game.starter = seat_to_move
        game._settle(package.outcome(game.position, game.rules))
        return game

    # -- who starts --

    def _decide_starter(self, starter) -> int:
        if self.rules.start == "alternate":
            seat = 0 if starter is None else starter
            _check_seat(seat)
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
        _check_seat(seat)
        return self.position if seat == self.seat_to_move else self.position.swapped()

    @property
    def can_double(self) -> bool:
        """The side to move may offer the cube now (backgammon, before rolling,
        owning the cube or with it in the middle, below 64)."""
        return (
            self.rules.is_backgammon
            and not self.is_over
            and self.dice is None
            and self.double_offered_by is None
            and self._opening_dice is None
            and self.cube < CUBE_LIMIT
            and self.cube_owner in (None, self.seat_to_move)
        )

    def legal_plays(self) -> list[Play]:
        """The legal plays with the dice rolled."""
        self._require_rolled()
        return package.legal_plays(self.position, self.dice, self.rules)

    def start_turn(self) -> Turn:
        """A :class:`Turn` for the dice rolled, to play step by step and hand
        back to :meth:`play` once complete."""
        self._require_rolled()
        return Turn(self.position, self.dice, self.rules)

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
        if not package.legal_plays(self.position, dice, self.rules):
            self._finish_turn(None)
        return dice

    def play(self, choice) -> None:
        """Play a legal :class:`Play`, its notation (``"24/18 13/8"``) or a
        completed :class:`Turn`; raise :class:`IllegalPlayError` otherwise."""
        plays = self.legal_plays()
        if isinstance(choice, Turn):
            choice = self._play_of_turn(choice)
        elif isinstance(choice, str):
            choice = match_play(plays, choice)
        if not isinstance(choice, Play):
            raise TypeError(f"play takes a Play, notation or a completed Turn, got {choice!r}")
        chosen = next((play for play in plays if play.position == choice.position), None)
        if chosen is None:
            raise IllegalPlayError(f"{choice} is not a legal play for {dice_text(self.dice)}")
        self._finish_turn(chosen)

    def _play_of_turn(self, turn: Turn) -> Play:
        if turn.start_position != self.position or turn.dice != self.dice or turn.rules != self.rules:
            raise IllegalPlayError("that turn was not started from this game's position and dice")
        if not turn.is_complete:
            raise IllegalPlayError(f"the turn is not complete: dice {turn.dice_left} are still to play")
        return turn.play_result()

    def _finish_turn(self, play: Play | None) -> None:
        self.history.append(TurnRecord(self.turn_count + 1, self.seat_to_move, self.dice, play))
        self.dice = None
        after = play.position if play is not None else self.position
        ended = package.outcome(after, self.rules)
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
        ``player`` is a :class:`~bansugoroku_fast.opponent.Computer` or a
        policy for one (with the pip-count cube). :meth:`advance` then plays
        its turns.

        >>> game = Game(Rules(), ScriptedDice([6, 5, 3, 1, 4, 2] * 40))
        >>> game.hand_over(1, "first")
        >>> game.roll(); game.play(game.legal_plays()[0])
        (6, 5)
        >>> game.advance()                       # seat 1 plays its turn, then waits for seat 0
        >>> game.seat_to_move, game.turn_count, game.history[-1].seat, game.history[-1].dice
        (0, 2, 1, (3, 1))
        """
        _check_seat(seat)
        self.computers[seat] = player if isinstance(player, Computer) else Computer(player)

    def take_back(self, seat: int) -> None:
        """The player of ``seat`` returns: the computer gives the seat back."""
        _check_seat(seat)
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
        """Let ``player`` (a :class:`~bansugoroku_fast.opponent.Computer` or
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
        owns_cube = self.cube_owner == self.seat_to_move
        if self.can_double and computer.should_double(self.position, owns_cube):
            self.offer_double()
            answering = 1 - self.seat_to_move
            if answering not in self.computers:
                return
            self._answer_double(self.computers[answering])
            if self.is_over:
                return
        if self.dice is None:
            self.roll()
            if self.dice is None:
                return  # the roll had no legal play: the turn passed
        self.play(computer.choose(self.position, self.legal_plays(), self.rules))

    def _answer_double(self, computer: Computer) -> None:
        if computer.should_take(self.position):
            self.take()
        else:
            self.drop()

    def _why_waiting(self) -> str:
        if self.is_over:
            return f"the game is over: {self.result}"
        return f"seat {self.double_offered_by}'s double awaits an answer"

    def _require_rolled(self) -> None:
        if self.is_over:
            raise GameStateError(f"the game is over: {self.result}")
        if self.dice is None:
            raise GameStateError(f"seat {self.seat_to_move} has not rolled yet")

    def __repr__(self):
        state = str(self.result) if self.is_over else f"seat {self.seat_to_move} to move"
        return f"<Game {self.rules.short_name}: turn {self.turn_count}, {state}>"


def _check_seat(seat) -> None:
    if seat not in SEATS:
        raise ValueError(f"a seat is 0 or 1, got {seat!r}")


def play_random_turn(game: Game) -> None:
    """Roll and, unless the roll passes, play a uniformly chosen legal play
    (chosen with the game's own dice source)."""
    game.roll()
    if game.dice is not None:
        plays = game.legal_plays()
        game.play(plays[game._dice_source.choose(len(plays))])


def play_random_game(rules=None, seed=None, *, starter: int | None = None,
                     max_turns: int = 100_000) -> Game:
    """A whole game of uniformly random legal plays (no doubling); the
    finished :class:`Game` holds the ``history`` and the ``result``.

    >>> game = play_random_game(seed=3)
    >>> game.is_over, len(game.history) > 10
    (True, True)
    >>> [str(r) for r in play_random_game(seed=3).history] == [str(r) for r in game.history]
    True
    """
    game = Game(rules, seed, starter=starter)
    _finish_randomly(game, max_turns)
    return game


class Match:
    """A series of games sharing one dice source and adding up points.

    With the ``alternate`` start, seat 0 starts game 1 and the starter
    alternates game by game; with ``roll_off`` each game has its roll-off.

    >>> match = Match(Rules(), seed=5)
    >>> [match.new_game().starter for _ in range(1)]
    [0]
    >>> _ = match.play_random_games(2)
    >>> [game.starter for game in match.games]
    [0, 1, 0]
    """

    def __init__(self, rules=None, seed=None):
        self.rules = as_rules(rules)
        self._dice_source = dice_source(seed)
        self.games: list[Game] = []

    def new_game(self) -> Game:
        """The next game; the previous one must be over."""
        if self.games and not self.games[-1].is_over:
            raise GameStateError("finish the current game first")
        starter = len(self.games) % 2 if self.rules.start == "alternate" else None
        game = Game(self.rules, self._dice_source, starter=starter)
        self.games.append(game)
        return game

    @property
    def scores(self) -> tuple[int, int]:
        """Points won by seat 0 and seat 1 in finished games."""
        points = [0, 0]
        for game in self.games:
            if game.is_over:
                points[game.result.winner] += game.result.points
        return points[0], points[1]

    def play_random_games(self, count: int) -> tuple[int, int]:
        """Play ``count`` random games (finishing any game in progress first);
        return the scores."""
        if self.games and not self.games[-1].is_over:
            _finish_randomly(self.games[-1])
        for _ in range(count):
            _finish_randomly(self.new_game())
        return self.scores


def _finish_randomly(game: Game, max_turns: int = 100_000) -> None:
    while not game.is_over:
        if game.turn_count >= max_turns:
            raise GameStateError(f"no result after {max_turns} turns")
        play_random_turn(game)
