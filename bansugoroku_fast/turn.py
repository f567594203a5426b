"""One turn played a single move at a time (:class:`Turn`), the dice it
plays and the names of rolls.

A user interface offers the mover only single moves that some legal full play
starts with, so a first move never strands a die that could have been played
(docs/rules.md §2.12). :class:`Turn` gets the legal plays from the kernels
once, with every legal order, and walks them: no rule of movement is written
here.

>>> from bansugoroku_fast import Position, Rules
>>> turn = Turn(Position.initial(), (6, 5), Rules(variant="backgammon"))
>>> turn.play("24/18")
>>> [str(step) for step in turn.legal_steps()]
['18/13', '13/8', '8/3']
>>> turn.play("18/13")
>>> turn.is_complete, str(turn.play_result())
(True, '24/13')
>>> roll_name((6, 5)), dice_text("1-1")
('Goroku', '1-1 (Decchi)')
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeAlias

from .checks import as_dice, as_rules
from .errors import IllegalPlayError
from .layout import BAR
from .moves import legal_plays
from .notation import Hop, parse_moves
from .play import Play, Step
from .position import Position, as_position
from .typing import DiceLike, PositionLike, RulesLike

__all__ = ["ROLL_NAMES", "Move", "Turn", "dice_text", "dice_to_play", "roll_name"]

#: What :meth:`Turn.play` takes: notation, a ``(from, to)`` hop, or a
#: :class:`Step` / ``(from, to, die)``.
Move: TypeAlias = str | Step | tuple[int, int] | tuple[int, int, int]

#: The four rolls the seeds name (docs/rules.md §5), keyed high die first.
ROLL_NAMES = {(6, 6): "Chōroku", (4, 4): "Shushi", (6, 5): "Goroku", (1, 1): "Decchi"}




def roll_name(dice: DiceLike) -> str | None:
    """The traditional name of a roll, in either order, or None.

    Ban-sugoroku names four rolls (:data:`ROLL_NAMES`); games print them
    beside the dice.

    Parameters
    ----------
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll: a pair of integers in 1..6 or text such as ``"6-5"``.

    Returns
    -------
    str or None
        The name, or None for a roll without one.

    Raises
    ------
    InvalidDiceError
        The dice are not a roll.

    Examples
    --------
    >>> [roll_name(d) for d in ((6, 6), (4, 4), (5, 6), (1, 1), (2, 1))]
    ['Chōroku', 'Shushi', 'Goroku', 'Decchi', None]
    """
    a, b = as_dice(dice)
    return ROLL_NAMES.get((max(a, b), min(a, b)))


def dice_text(dice: DiceLike) -> str:
    """``"6-5"``, followed by the roll's name when it has one.

    >>> dice_text((6, 5)), dice_text((3, 1))
    ('6-5 (Goroku)', '3-1')
    """
    a, b = as_dice(dice)
    name = roll_name((a, b))
    return f"{a}-{b}" + (f" ({name})" if name else "")


def dice_to_play(dice: DiceLike, rules: RulesLike) -> tuple[int, ...]:
    """The dice a turn has to play: both of a non-double, or
    ``rules.doubles_moves`` copies of a double (2 Ban-sugoroku, 4 backgammon).

    >>> dice_to_play((6, 5), "ban-sugoroku"), dice_to_play((3, 3), "ban-sugoroku"), dice_to_play((3, 3), "backgammon")
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


def _chains(continuation: Sequence[Step], origin: int, target: int) -> Iterator[int]:
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
    """One turn played a single move at a time (docs/rules.md §2.12).

    A move is offered only if some legal full play starts with the moves
    already made and continues with it, so a first move never strands a die
    that could have been played. :meth:`undo` goes back to the start of the
    turn while dice remain; once every die is used, or the mover has won, the
    turn is complete and can no longer be undone.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position at the start of the turn, row 0 to move.
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules`, its label, or None for Ban-sugoroku's defaults.

    Examples
    --------
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

    def __init__(self, position: PositionLike, dice: DiceLike, rules: RulesLike = None) -> None:
        self.start_position = as_position(position)
        self.dice = as_dice(dice)
        self.rules = as_rules(rules)
        plays = legal_plays(self.start_position, self.dice, self.rules, all_orderings=True)
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

    def play(self, move: Move) -> None:
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
            self._play_hops([(int(move[0]), int(move[1]))], str(move))
        else:
            self._play_step(Step(int(move[0]), int(move[1]), int(move[2]), False))

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

    def _play_hops(self, hops: Sequence[Hop], text: str) -> None:
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
        options: set[tuple[Step, ...]] = set()
        for rest in self._continuations():
            for length in _chains(rest, origin, target):
                options.add(rest[:length])
        if not options:
            where = "/".join(str(point) for point in (origin, target))
            raise IllegalPlayError(
                f"{where} in {text!r} is not legal now with {dice_text(self.dice)}"
                f" (dice left {self.dice_left}); legal moves: {self._offered()}"
            )

        def preference(run: tuple[Step, ...]) -> tuple[int, int, tuple[tuple[int, int, int], ...]]:
            inexact = sum(not _is_exact(step) for step in run)
            return (-len(run), -inexact, tuple((s.origin, s.target, s.die) for s in run))

        return max(options, key=preference)

    def __repr__(self) -> str:
        played = " ".join(str(step) for step in self._played) or "-"
        return f"<Turn {dice_text(self.dice)}: {played}; dice left {self.dice_left}>"
