"""Value types of results: :class:`Play`, :class:`Step`, :class:`Outcome`."""
from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, SupportsIndex

from .notation import format_steps

if TYPE_CHECKING:
    from .position import Position

__all__ = ["Outcome", "OutcomeKind", "Play", "Step"]


class Step(NamedTuple):
    """One single move: a stone from ``origin`` to ``target`` with ``die``.

    Parameters
    ----------
    origin : int
        The point the stone leaves, in the mover's numbering (25 = the bar).
    target : int
        The point it reaches (0 = borne off).
    die : int
        The die it moves by, 1..6.
    hit : bool
        Whether it sends an opposing stone to the bar.

    Examples
    --------
    >>> step = Step(25, 20, 5, True)
    >>> str(step), step.origin
    ('bar/20*', 25)
    """

    origin: int
    target: int
    die: int
    hit: bool

    def __str__(self) -> str:
        return format_steps([(self.origin, self.target)], [self.hit])


Step.origin.__doc__ = "The point the stone leaves, in the mover's numbering (25 = the bar)."
Step.target.__doc__ = "The point it reaches, in the mover's numbering (0 = borne off)."
Step.die.__doc__ = "The die it moves by, 1..6."
Step.hit.__doc__ = "Whether it sends an opposing stone to the bar."


class Play:
    """A legal play: the steps of one turn and the position they reach.

    ``steps`` are ``(from, to)`` pairs in playing order (25 = bar, 0 = off),
    ``dice`` the die each step used, ``hits`` whether each step hit, and
    ``position`` the position after the play, seen by the same side (row 0 is
    still the side that played). ``str(play)`` is GNU Backgammon notation.

    Parameters
    ----------
    steps : Iterable of (int, int)
        The ``(from, to)`` pairs in playing order.
    dice : Iterable of int
        The die each step used.
    hits : Iterable of bool
        Whether each step hit.
    position : Position
        The position after the play, row 0 still the side that played.

    Examples
    --------
    >>> from bansugoroku_fast import Position, Rules, legal_plays
    >>> plays = legal_plays(Position.initial(), (6, 5), Rules(variant="backgammon"))
    >>> [str(play) for play in plays][:3]
    ['24/13', '24/18 13/8', '24/18 8/3']
    >>> plays[0].steps, plays[0].dice, plays[0].hits
    (((24, 18), (18, 13)), (6, 5), (False, False))
    """

    __slots__ = ("_steps", "_dice", "_hits", "_position")

    def __init__(
        self,
        steps: Iterable[tuple[SupportsIndex, SupportsIndex]],
        dice: Iterable[SupportsIndex],
        hits: Iterable[object],
        position: Position,
    ) -> None:
        self._steps = tuple((int(a), int(b)) for a, b in steps)
        self._dice = tuple(int(d) for d in dice)
        self._hits = tuple(bool(h) for h in hits)
        self._position = position

    @property
    def steps(self) -> tuple[tuple[int, int], ...]:
        return self._steps

    @property
    def dice(self) -> tuple[int, ...]:
        return self._dice

    @property
    def hits(self) -> tuple[bool, ...]:
        return self._hits

    @property
    def position(self) -> Position:
        return self._position

    @property
    def hit_count(self) -> int:
        return sum(self.hits)

    def as_steps(self) -> tuple[Step, ...]:
        """The steps with their dice and hit flags, as :class:`Step` values."""
        return tuple(
            Step(a, b, d, h) for (a, b), d, h in zip(self.steps, self.dice, self.hits)
        )

    def _identity(self) -> tuple[object, ...]:
        return self.steps, self.dice, self.position

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __str__(self) -> str:
        return format_steps(self.steps, self.hits)

    def __repr__(self) -> str:
        return f"<Play {self}>"


class OutcomeKind(str, enum.Enum):
    """How a game was won (the value of :attr:`Outcome.kind`).

    Examples
    --------
    >>> OutcomeKind("gammon") is OutcomeKind.GAMMON, OutcomeKind.GAMMON.value
    (True, 'gammon')
    """

    ARRIVAL = "arrival"  # Ban-sugoroku iri-gachi: all 15 home
    BEAR_OFF = "bear-off"  # Ban-sugoroku early Edo: all 15 borne off
    CLOSED_HOME_X2 = "closed-home-x2"  # mushi-gachi (closure mode 'multiplied')
    CLOSED_HOME_X3 = "closed-home-x3"  # mujō-gachi (closure mode 'multiplied')
    CLOSURE = "closure"  # closure mode 'immediate'
    SINGLE = "single"  # backgammon
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    def __str__(self) -> str:
        return self.value


#: The OutcomeKind of each kind code the kernels return (code = index).
OUTCOME_KINDS = (
    OutcomeKind.ARRIVAL, OutcomeKind.BEAR_OFF, OutcomeKind.CLOSED_HOME_X2,
    OutcomeKind.CLOSED_HOME_X3, OutcomeKind.CLOSURE, OutcomeKind.SINGLE,
    OutcomeKind.GAMMON, OutcomeKind.BACKGAMMON,
)


@dataclass(frozen=True)
class Outcome:
    """A finished game: ``winner`` (0 = row 0, 1 = row 1), ``value`` (points
    before any cube) and ``kind`` (an :class:`OutcomeKind`).

    Parameters
    ----------
    winner : int
        0 when row 0 has won, 1 when row 1 has.
    value : int
        The points won before any cube: 1, 2 or 3.
    kind : OutcomeKind
        How the game was won.

    Examples
    --------
    >>> Outcome(0, 2, OutcomeKind.GAMMON)
    Outcome(winner=0, value=2, kind='gammon')
    """

    winner: int
    value: int
    kind: OutcomeKind

    def points(self, cube: int = 1) -> int:
        """The points scored with the cube at ``cube``."""
        return self.value * cube

    def __repr__(self) -> str:
        return f"Outcome(winner={self.winner}, value={self.value}, kind={self.kind.value!r})"
