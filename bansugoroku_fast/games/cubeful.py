"""Cubeful play: both sides double, take and pass by an evaluator's 0-ply
cube decisions (:func:`~bansugoroku_fast.cube.decision.decide_many`, GNU
Backgammon's method), in the interactive games and in many games stepped
together.

Backgammon only: the rules give Ban-sugoroku no doubling cube
(``docs/rules.md`` §4.3), so cubeful play there is refused.

How a side acts, from the three cubeful equities of the side on roll
(no double ``ND``, double/take ``DT``, double/pass ``DP``, normalised to a
cube of 1; in a match, normalised money equivalents):

* it **doubles** when doubling gains whatever the answer: ``DT >= ND`` and
  ``DP >= ND`` (so a position too good to double is played on for the
  gammon, and an optional double, worth the same either way, is made);
  with the beaver rule a take worth at most 0 to the doubler is counted as
  the beaver it would meet (``2 * DT``);
* the other side **takes** when taking costs it no more than passing,
  ``DT <= DP``, and **beavers** (money play with ``beavers=True``: the cube
  doubles again, the beaverer keeps it) when the take is worth at most 0 to
  the doubler (``-2 <= DT <= 0``) and the cube can go that high;
* a pass ends the game: the doubler wins the cube's value before the offer.

The cube stops at 64 (:data:`CUBE_LIMIT`): a side never offers it beyond,
though the equities of a cube one step below the limit still count a
redouble the limit forbids (GNU Backgammon's method has no limit either).
Checker plays stay the policy's own (cubeless: the play of greatest
equity for a network), as in GNU Backgammon's rollouts with cubeless
checker play.

>>> calls = cube_calls(np.array([[0.40, 0.60, 1.00], [1.20, 1.50, 1.00], [0.80, 1.10, 1.00]]))
>>> calls.doubles.tolist(), calls.takes.tolist()
([True, False, True], [True, False, False])
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..cube.janowski import CENTRED, OWNED, THEIRS
from ..cube.met import MatchEquityTable
from ..cube.states import MatchCube, MoneyCube
from ..errors import ArgumentTypeError, InvalidArgumentError, InvalidRulesError
from ..rules import Rules
from ..typing import EvaluatorLike

if TYPE_CHECKING:
    from ..cube.decision import Cube
    from ..formats import MatchState

__all__ = [
    "ACTION_NAMES", "BEAVER", "CUBE_LIMIT", "DOUBLE", "PASS", "TAKE", "CubeCalls", "CubeContext", "CubeSettings",
    "Cubing", "MatchScore", "as_cube_flag", "as_cube_settings", "as_match_score", "cube_calls", "cube_state",
    "cubing_of", "require_cube",
]

#: The cube's highest value (the source page's app stops there).
CUBE_LIMIT = 64
#: Codes of the cube actions that cubeful games record, and their names.
DOUBLE, TAKE, PASS, BEAVER = 0, 1, 2, 3
ACTION_NAMES = ("double", "take", "pass", "beaver")
#: A beaver puts the cube at four times its value before the double.
BEAVER_FACTOR = 4


def require_cube(rules: Rules, where: str) -> None:
    """Refuse cubeful play under rules without a doubling cube (Ban-sugoroku)."""
    if not rules.is_backgammon:
        raise InvalidRulesError(
            f"{where}: Ban-sugoroku has no doubling cube (docs/rules.md §4.3); cubeful play is for backgammon")


def as_cube_flag(value: object, name: str) -> bool:
    """``value`` checked as True or False."""
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentTypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


# --- the match score -----------------------------------------------------------------------


@dataclass(frozen=True)
class MatchScore:
    """The score of a match game: a ``match_length``-point match, ``score``
    (seat 0's, seat 1's) before the game, and whether the game is the
    ``crawford`` game (one side 1-away, no doubling). The names are those
    of :class:`~bansugoroku_fast.formats.MatchState`, which is accepted
    wherever a MatchScore is.

    Parameters
    ----------
    match_length : int
        The match's length in points.
    score : tuple of (int, int)
        Seat 0's and seat 1's scores before the game.
    crawford : bool
        Whether the game is the Crawford game.

    Examples
    --------
    >>> MatchScore(7, (6, 3), crawford=True).away
    (1, 4)
    >>> MatchScore(7, (2, 7))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: match score (2, 7): each score is 0..6 in a 7-point match
    """

    match_length: int
    score: tuple[int, int] = (0, 0)
    crawford: bool = False

    def __post_init__(self) -> None:
        length, score = self.match_length, self.score
        if isinstance(length, bool) or not isinstance(length, numbers.Integral) or length < 1:
            raise InvalidArgumentError(f"match_length is a whole number of points, at least 1, got {length!r}")
        if (not isinstance(score, tuple) or len(score) != 2
                or not all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in score)):
            raise ArgumentTypeError(f"a match score is a pair of integers (seat 0's, seat 1's), got {score!r}")
        if not all(0 <= s < length for s in score):
            raise InvalidArgumentError(f"match score {score}: each score is 0..{length - 1} in a {length}-point match")
        if not isinstance(self.crawford, (bool, np.bool_)):
            raise ArgumentTypeError(f"crawford must be True or False, got {self.crawford!r}")
        if self.crawford and not (length - 1 in score and score != (length - 1, length - 1)):
            raise InvalidArgumentError(f"the Crawford game needs exactly one side 1-away, got {score} "
                                       f"in a {length}-point match")
        object.__setattr__(self, "score", (int(score[0]), int(score[1])))
        object.__setattr__(self, "crawford", bool(self.crawford))

    @property
    def away(self) -> tuple[int, int]:
        """The points each seat still needs."""
        return self.match_length - self.score[0], self.match_length - self.score[1]


def as_match_score(match: object) -> MatchScore | None:
    """``match`` as a :class:`MatchScore`: None (money play), a MatchScore,
    or anything with ``match_length``, ``score`` and ``crawford`` (a
    :class:`~bansugoroku_fast.formats.MatchState`; length 0 is money)."""
    if match is None or isinstance(match, MatchScore):
        return match
    if not all(hasattr(match, name) for name in ("match_length", "score", "crawford")):
        raise ArgumentTypeError(f"match is a MatchScore, a MatchState or None (money), got {type(match).__name__}")
    length = match.match_length  # type: ignore[attr-defined]
    if length == 0:
        return None
    return MatchScore(length, tuple(match.score), match.crawford)  # type: ignore[attr-defined]


# --- one decision: the cube as the side on roll sees it ---------------------------------------------


class CubeContext(NamedTuple):
    """The cube as the side on roll (row 0 of a position) sees it, for a
    computer's cube decision: the ``rules``, the cube's value, its
    ``owner`` (None: centred; 0: the side on roll; 1: the other side) and,
    in a match, the ``match`` with its score put the side on roll's first.

    >>> CubeContext(Rules("backgammon"), 2, 0).state(MatchEquityTable.default()).owner == OWNED
    True
    """

    rules: Rules
    cube: int = 1
    owner: int | None = None
    match: MatchScore | None = None

    def state(self, table: MatchEquityTable | None = None, jacoby: bool = False) -> Cube:
        """The cube state of :mod:`bansugoroku_fast.cube.states`."""
        code = CENTRED if self.owner is None else OWNED if self.owner == 0 else THEIRS
        return cube_state(self.cube, code, self.match, table=table, jacoby=jacoby)


def cube_state(cube: int, owner_code: int, match: MatchScore | None, *, table: MatchEquityTable | None = None,
               jacoby: bool = False) -> Cube:
    """The state of the cube for the side on roll: ``owner_code`` as
    :mod:`~bansugoroku_fast.cube.janowski` codes it, ``match`` with the side
    on roll's score first (None: money, where the cube's value does not
    change the normalised equities)."""
    if match is None:
        return MoneyCube(owner_code, jacoby)
    return MatchCube(table or MatchEquityTable.default(), match.match_length, match.score, match.crawford, cube,
                     owner_code)


class CubeCalls(NamedTuple):
    """What each side on roll does with the cube, and what the other side
    answers (see the module): ``doubles``, ``takes`` and ``beavers``
    (``bool[N]``; an answer counts only where the side doubles)."""

    doubles: np.ndarray
    takes: np.ndarray
    beavers: np.ndarray


def cube_calls(equities: np.ndarray, *, beavers: bool = False, beaver_room: np.ndarray | bool = True) -> CubeCalls:
    """The cube actions from ``equities`` (``float[N, 3]``: no double,
    double/take, double/pass of each side on roll, normalised), as the
    module says; ``beaver_room``: where a beaver would keep the cube
    within :data:`CUBE_LIMIT`."""
    values = np.asarray(equities, dtype=np.float64)
    no_double, double_take, double_pass = values[:, 0], values[:, 1], values[:, 2]
    takes = double_take <= double_pass
    beaver = beavers & takes & (double_take >= -2.0) & (double_take <= 0.0) & np.asarray(beaver_room)
    met = np.where(beaver, 2 * double_take, double_take)       # the take the doubler will meet
    doubles = (met >= no_double) & (double_pass >= no_double)
    return CubeCalls(doubles, takes, beaver & takes)


@dataclass(frozen=True)
class Cubing:
    """How the sides of cubeful games handle the cube (checked: see
    :class:`CubeSettings`): ``evaluator`` (a resolved evaluator; its 0-ply
    cube decisions), the money-game ``jacoby`` and ``beavers`` rules, and
    in a match the ``match`` score (seat 0's first) with its ``table``."""

    evaluator: Any
    jacoby: bool = False
    beavers: bool = False
    match: MatchScore | None = None
    table: MatchEquityTable | None = None

    def state(self, cube: int, owner_code: int, mover: int) -> Cube:
        """The state for ``mover`` (a seat), the cube at ``cube``."""
        match = self.match
        if match is not None and mover == 1:
            match = MatchScore(match.match_length, match.score[::-1], match.crawford)
        return cube_state(cube, owner_code, match, table=self.table, jacoby=self.jacoby)


# --- the settings of cubeful games -----------------------------------------------------------------


@dataclass(frozen=True)
class CubeSettings:
    """The cube of cubeful games (``play_games(..., cubeful=...)``,
    ``rollout(..., cubeful=...)``); ``cubeful=True`` is ``CubeSettings()``.

    * ``evaluator``: whose 0-ply cube decisions both sides follow (anything
      :func:`~bansugoroku_fast.evaluators.evaluate` takes); None: seat 0's
      policy's evaluator when it has one (``"net"``, ``"net1"``, an
      :class:`~bansugoroku_fast.evaluators.EvaluatorPolicy`), else the
      network shipped for the rules;
    * ``cube`` and ``owner``: the cube at the start (a power of 2 up to
      64; owner None when centred, else the seat that owns it: 0 is the
      side to roll first);
    * ``jacoby``, ``beavers``: the money-game rules (a gammon counts only
      once the cube is turned; a take may be a beaver);
    * ``match``: a :class:`MatchScore` (or a
      :class:`~bansugoroku_fast.formats.MatchState`), seat 0's score first,
      for games at that score of a match (each game from that score), with
      ``table`` the match equity table (Kazaross-XG2 by default).

    Parameters
    ----------
    evaluator : ~bansugoroku_fast.typing.EvaluatorLike or None
        Whose cube decisions both sides follow; None: seat 0's policy's
        evaluator, else the shipped network.
    cube : int
        The cube at the start, a power of 2 up to 64.
    owner : int or None
        None with the cube centred, else the seat that owns it.
    jacoby : bool
        A gammon counts only once the cube is turned (money play).
    beavers : bool
        A take may be a beaver (money play).
    match : MatchScore or ~bansugoroku_fast.formats.MatchState or None
        For games at a match score, seat 0's first; None for money play.
    table : ~bansugoroku_fast.cube.MatchEquityTable or None
        The match equity table (None: Kazaross-XG2).

    Examples
    --------
    >>> CubeSettings(cube=2, owner=1).owner
    1
    >>> CubeSettings(cube=3)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: cubeful games: the cube is a power of 2 from 1 to 64, got 3
    """

    evaluator: EvaluatorLike | None = None
    cube: int = 1
    owner: int | None = None
    jacoby: bool = False
    beavers: bool = False
    match: MatchScore | MatchState | None = None
    table: MatchEquityTable | None = None

    def __post_init__(self) -> None:
        cube = self.cube
        if isinstance(cube, bool) or not isinstance(cube, numbers.Integral):
            raise ArgumentTypeError(f"cubeful games: the cube is an integer, got {cube!r}")
        if not 1 <= cube <= CUBE_LIMIT or cube & (cube - 1):
            raise InvalidArgumentError(f"cubeful games: the cube is a power of 2 from 1 to {CUBE_LIMIT}, got {cube}")
        if self.owner is not None and (isinstance(self.owner, bool) or self.owner not in (0, 1)):
            raise InvalidArgumentError(f"cubeful games: the cube's owner is None (centred), seat 0 or seat 1, "
                                       f"got {self.owner!r}")
        if (cube == 1) != (self.owner is None):
            raise InvalidArgumentError(f"cubeful games: a cube of 1 is centred and a turned cube has an owner, "
                                       f"got cube {cube} owned by {self.owner!r}")
        jacoby, beavers = as_cube_flag(self.jacoby, "jacoby"), as_cube_flag(self.beavers, "beavers")
        match = as_match_score(self.match)
        if match is not None and (jacoby or beavers):
            raise InvalidArgumentError("cubeful games: jacoby and beavers are money-game rules, not a match's")
        if match is not None and match.crawford and cube > 1:
            raise InvalidArgumentError(f"cubeful games: nobody doubles in the Crawford game, got cube {cube}")
        if self.table is not None and not isinstance(self.table, MatchEquityTable):
            raise ArgumentTypeError(f"cubeful games: table is a MatchEquityTable or None, "
                                    f"got {type(self.table).__name__}")
        object.__setattr__(self, "cube", int(cube))
        object.__setattr__(self, "match", match)

    @property
    def owner_seat(self) -> int:
        """The owner as the batches hold it: -1 centred, else the seat."""
        return -1 if self.owner is None else int(self.owner)


def as_cube_settings(cubeful: object) -> CubeSettings | None:
    """``cubeful`` checked: False (no cube), True (``CubeSettings()``) or
    a :class:`CubeSettings`."""
    if isinstance(cubeful, CubeSettings):
        return cubeful
    if isinstance(cubeful, (bool, np.bool_)):
        return CubeSettings() if cubeful else None
    raise ArgumentTypeError(f"cubeful is True, False or a CubeSettings, got {cubeful!r}")


def cubing_of(settings: CubeSettings, rules: Rules, seat_0_policy: Any, where: str) -> Cubing:
    """The :class:`Cubing` of checked ``settings`` for ``rules`` (refused
    without a cube), the evaluator resolved (see :class:`CubeSettings`)."""
    from ..evaluators.scoring import resolve_evaluator  # the evaluators load with cubeful play

    require_cube(rules, where)
    evaluator = settings.evaluator
    if evaluator is None:
        evaluator = getattr(seat_0_policy, "evaluator", None)
        evaluator = "net" if evaluator is None else evaluator
    return Cubing(resolve_evaluator(evaluator, rules), settings.jacoby, settings.beavers,
                  as_match_score(settings.match), settings.table)   # a MatchScore since __post_init__
