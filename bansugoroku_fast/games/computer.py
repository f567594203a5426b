"""The computer opponent of the source pages: a policy chooses its plays and
a cube strategy handles the backgammon cube.

Two cube strategies: :class:`NetCube`, the default, offers, takes and
passes by the 0-ply cube decision of an evaluator (the shipped network:
:func:`~bansugoroku_fast.cube.decision.cube_decision`'s method, money or
match score); :class:`PipCountCube` is the source page's rule (the
backgammon page says the computer "offers and accepts the cube by the
pip-count difference: a simple rule, not an expert analysis"). The Ban-sugoroku pages say the computer
takes the seat of a player who left (and gives it back when the player
returns): :meth:`Game.hand_over <bansugoroku_fast.games.interactive.Game.hand_over>` and
:meth:`Game.take_back <bansugoroku_fast.games.interactive.Game.take_back>`.

A :class:`Computer` plays with any policy that ``play_games`` accepts for a
seat: a name (``"heuristic"``, ``"pubeval"``, ``"random"``, ``"first"``), a
:class:`~bansugoroku_fast.LinearPolicy`, or a callable
``policy(children, offsets)`` returning choices or scores (see
:mod:`bansugoroku_fast.games.policies`).

>>> from bansugoroku_fast import Position
>>> cube = PipCountCube()
>>> leader = Position.initial().swapped()   # any start: nobody leads
>>> cube.should_double(leader, owns_cube=False), cube.should_take(leader)
(False, True)
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import numpy as np

from ..checks import as_rules
from ..cube.met import MatchEquityTable
from ..errors import ArgumentTypeError, InvalidArgumentError, InvalidPolicyError
from ..play import Play
from ..position import Position
from ..rules import Rules
from ..typing import EvaluatorLike, PolicyLike
from .cubeful import CubeContext, cube_calls
from .policies import ResolvedPolicy, choose, resolve_policies


class CubeStrategy(Protocol):
    """What handles a computer's cube: a :class:`NetCube`, a :class:`PipCountCube`,
    or any object with these two methods."""

    def offers_double(self, position: Position, context: CubeContext) -> bool: ...

    def takes_double(self, position: Position, context: CubeContext) -> bool: ...


@dataclass(frozen=True)
class PipCountCube:
    """The cube by the pip-count difference (Trice's 8-9-12 rule of thumb
    for races, applied to every position as the source page says: a simple
    rule, not an analysis).

    The *lead* of the side on roll is the opponent's pip count minus its
    own, as a percentage of its own count (the leader's count: ten pips
    ahead at 100 is a 10% lead, at 50 a 20% lead).

    * **Double** (cube in the middle) when the lead is at least
      ``double_at`` percent (8); **redouble** (owning the cube) at
      ``redouble_at`` percent (9).
    * **Take** a double unless the doubler's lead is more than
      ``take_up_to`` percent (12); drop otherwise.

    Comparisons are done in integers (``100 * lead >= 8 * own``), so a
    decision never depends on rounding. The rule ignores contact, gammons
    and the match score.

    Parameters
    ----------
    double_at : int
        The lead, in percent, at which the side on roll doubles a centred
        cube.
    redouble_at : int
        The lead at which it redoubles a cube it owns.
    take_up_to : int
        The doubler's largest lead the other side takes.

    Examples
    --------
    >>> row = lambda points: [points.get(i, 0) for i in range(26)]
    >>> ahead = Position([row({6: 10, 8: 5}), row({6: 10, 10: 5})])  # 100 pips against 110
    >>> cube = PipCountCube()
    >>> cube.lead_percent(ahead), cube.should_double(ahead, owns_cube=False), cube.should_take(ahead)
    (10.0, True, True)
    """

    double_at: int = 8
    redouble_at: int = 9
    take_up_to: int = 12

    def __post_init__(self) -> None:
        for name in ("double_at", "redouble_at", "take_up_to"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidArgumentError(
                    f"PipCountCube.{name} must be a non-negative integer percentage, got {value!r}")

    @staticmethod
    def lead_percent(position: Position) -> float:
        """Row 0's lead over row 1 as a percentage of row 0's pip count (for
        display; the decisions compare integers)."""
        own, other = position.pip_counts
        return 100.0 * (other - own) / own if own else float("inf")

    @staticmethod
    def _lead_reaches(position: Position, percent: int) -> bool:
        """Row 0 leads by at least ``percent`` % of its own count."""
        own, other = position.pip_counts
        return 100 * (other - own) >= percent * own

    def should_double(self, position: Position, owns_cube: bool) -> bool:
        """Whether the side on roll (row 0 of ``position``) offers the cube:
        ``owns_cube`` says it already owns it (a redouble)."""
        return self._lead_reaches(position, self.redouble_at if owns_cube else self.double_at)

    def should_take(self, position: Position) -> bool:
        """Whether the side offered the cube takes it; ``position`` is seen
        by the doubler (row 0, on roll)."""
        own, other = position.pip_counts
        return 100 * (other - own) <= self.take_up_to * own

    def offers_double(self, position: Position, context: CubeContext) -> bool:
        """:meth:`should_double` in the cube strategies' common form (the
        rule reads the owner only)."""
        return self.should_double(position, owns_cube=context.owner == 0)

    def takes_double(self, position: Position, context: CubeContext) -> bool:
        """:meth:`should_take` in the cube strategies' common form."""
        return self.should_take(position)


@dataclass(frozen=True)
class NetCube:
    """The cube by an evaluator's 0-ply cube decision, GNU Backgammon's
    method (:func:`~bansugoroku_fast.cube.decision.cube_decision`): the side
    on roll doubles when doubling gains whatever the answer (not when it
    is too good: it plays on for the gammon), the other side takes when
    taking costs it no more than passing (:mod:`bansugoroku_fast.games.cubeful` has the rule).
    In a match the decision reads the score (:class:`~bansugoroku_fast.MatchScore`,
    ``table`` the match equity table, Kazaross-XG2 by default): nobody
    doubles in the Crawford game, and a dead cube is never turned.

    ``evaluator``: anything :func:`~bansugoroku_fast.evaluators.evaluate`
    takes (``"net"``: the network shipped for the rules). One decision is
    one evaluation of the position, so the computer answers at once.

    Parameters
    ----------
    evaluator : ~bansugoroku_fast.typing.EvaluatorLike
        Anything :func:`~bansugoroku_fast.evaluators.evaluate` takes
        (``"net"``: the network shipped for the rules).
    table : ~bansugoroku_fast.cube.MatchEquityTable or None
        The match equity table (None: Kazaross-XG2).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> from bansugoroku_fast.games.cubeful import MatchScore
    >>> opening = CubeContext(as_rules("backgammon"))               # money, the cube centred
    >>> NetCube().offers_double(Position.initial(), opening), NetCube().takes_double(Position.initial(), opening)
    (False, True)
    >>> match = CubeContext(as_rules("backgammon"), match=MatchScore(7, (6, 3), crawford=True))
    >>> NetCube().offers_double(Position.initial(), match)           # nobody doubles in the Crawford game
    False
    """

    evaluator: EvaluatorLike = "net"
    table: MatchEquityTable | None = None

    def __post_init__(self) -> None:
        if self.table is not None and not isinstance(self.table, MatchEquityTable):
            raise ArgumentTypeError(f"NetCube.table is a MatchEquityTable or None, got {type(self.table).__name__}")

    def equities(self, position: Position, context: CubeContext) -> np.ndarray:
        """``float64[1, 3]``: the side on roll's cubeful equities (no
        double, double/take, double/pass; normalised, EMG in a match), or
        None-like NaNs when it may not double."""
        from ..cube.decision import decide_many  # the evaluators load with the first decision
        from ..evaluators.scoring import resolve_evaluator

        state = context.state(self.table)
        if not state.may_double():
            return np.full((1, 3), np.nan)
        evaluator = resolve_evaluator(self.evaluator, context.rules)
        result: np.ndarray = decide_many(position.array[None], context.rules, evaluator, state).equities
        return result

    def offers_double(self, position: Position, context: CubeContext) -> bool:
        """Whether the side on roll (row 0 of ``position``) doubles."""
        equities = self.equities(position, context)
        return not np.isnan(equities).any() and bool(cube_calls(equities).doubles[0])

    def takes_double(self, position: Position, context: CubeContext) -> bool:
        """Whether the other side takes the double of the side on roll
        (``position`` and ``context`` as the doubler sees them, before
        its double)."""
        equities = self.equities(position, context)
        return np.isnan(equities).any() or bool(cube_calls(equities).takes[0])


#: What :class:`Computer` takes as its ``cube``: a strategy, or its name.
CUBE_STRATEGIES = {"net": NetCube, "pips": PipCountCube}


def as_cube_strategy(cube: object) -> CubeStrategy | None:
    """``cube`` as a cube strategy: a :class:`NetCube`, a
    :class:`PipCountCube`, None (never double, always take), or the name
    of one (``"net"``, ``"pips"``)."""
    if isinstance(cube, str):
        if cube not in CUBE_STRATEGIES:
            raise InvalidArgumentError(f"unknown cube strategy {cube!r}: the names are 'net' and 'pips'")
        strategy: CubeStrategy = CUBE_STRATEGIES[cube]()
        return strategy
    if cube is None or isinstance(cube, (NetCube, PipCountCube)):
        return cube
    if callable(getattr(cube, "offers_double", None)) and callable(getattr(cube, "takes_double", None)):
        return cast(CubeStrategy, cube)
    raise ArgumentTypeError(f"a computer's cube is 'net', 'pips', a NetCube, a PipCountCube or None, got {cube!r}")


@dataclass
class Computer:
    """A computer player: ``policy`` chooses its plays, ``cube`` handles
    the backgammon cube: a :class:`NetCube` (``"net"``), a
    :class:`PipCountCube` (``"pips"``), or None never to double and always
    to take. ``rng`` draws the choices of ``"random"``.

    The default cube is :class:`NetCube` with the shipped network: it
    weighs gammons, contact and the match score as GNU Backgammon's 0-ply
    decisions do, for one network evaluation per decision, where the
    source page's pip-count rule (``cube="pips"``, kept for the page's
    behaviour) doubles any 8% lead, a back game's included, and ignores
    the score. Ban-sugoroku has no cube, so there the choice never acts.

    Parameters
    ----------
    policy : ~bansugoroku_fast.typing.PolicyLike
        What chooses its plays: a built-in's name, a :class:`LinearPolicy` or
        a callable policy.
    cube : CubeStrategy or str or None
        Who handles the cube: ``"net"`` or a :class:`NetCube`, ``"pips"`` or a
        :class:`PipCountCube`, or None never to double and always to take.
    rng : random.Random
        The source of the ``"random"`` policy's choices.

    Examples
    --------
    >>> from bansugoroku_fast import Position, legal_plays
    >>> start = Position.initial()
    >>> plays = legal_plays(start, (6, 5), "backgammon")
    >>> str(Computer("first").choose(start, plays, "backgammon"))
    '24/13'
    >>> lowest_pips = lambda children, offsets: -children[:, 0, 1:].astype(float) @ np.arange(1, 26)
    >>> str(Computer(lowest_pips).choose(start, plays, "backgammon"))   # every play moves 11 pips: the first
    '24/13'
    """

    policy: PolicyLike
    cube: CubeStrategy | str | None = field(default_factory=NetCube)
    rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self.cube = as_cube_strategy(self.cube)

    def choose(self, position: Position, plays: Sequence[Play], rules: Rules | str) -> Play:
        """The play the policy chooses among ``plays``, the legal plays of
        ``position`` (in ``legal_plays`` order, at least one)."""
        return plays[choose_index(self.policy, position, plays, rules, self.rng)]

    def offers_double(self, position: Position, context: CubeContext) -> bool:
        """Whether this computer, on roll in ``position`` (row 0) with the
        cube as ``context`` says, doubles."""
        strategy = as_cube_strategy(self.cube)    # the strategy itself since __post_init__
        return strategy is not None and strategy.offers_double(position, context)

    def takes_double(self, position: Position, context: CubeContext) -> bool:
        """Whether this computer takes a double; ``position`` and
        ``context`` are the doubler's, before the double."""
        strategy = as_cube_strategy(self.cube)
        return strategy is None or strategy.takes_double(position, context)

    def should_double(self, position: Position, owns_cube: bool) -> bool:
        """:meth:`offers_double` in a money game of backgammon, the cube
        centred or (``owns_cube``) owned at 2."""
        cube, owner = (2, 0) if owns_cube else (1, None)
        return self.offers_double(position, CubeContext(as_rules("backgammon"), cube, owner))

    def should_take(self, position: Position) -> bool:
        """:meth:`takes_double` of a first double in a money game of backgammon."""
        return self.takes_double(position, CubeContext(as_rules("backgammon")))


def check_policy(policy: Any, rules: Rules | str) -> ResolvedPolicy:
    """``policy`` resolved for one seat: a name, a
    :class:`~bansugoroku_fast.LinearPolicy` or a callable, as
    :func:`~bansugoroku_fast.play_games` takes them (not a pair: a computer
    plays one seat); :class:`~bansugoroku_fast.errors.InvalidPolicyError`
    otherwise.

    >>> from bansugoroku_fast import LinearPolicy
    >>> check_policy("heuristic", "backgammon").code == check_policy(LinearPolicy([0] * 28), "backgammon").code
    True
    >>> check_policy(("first", "random"), "backgammon")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidPolicyError: a computer plays one seat's policy, not a pair: ('first', 'random')
    """
    if isinstance(policy, (tuple, list)):
        raise InvalidPolicyError(f"a computer plays one seat's policy, not a pair: {policy!r}")
    return resolve_policies(policy, rules, callables=True)[0]


def choose_index(policy: Any, position: Position, plays: Sequence[Play], rules: Rules | str,
                 rng: random.Random) -> int:
    """The index in ``plays`` (the legal plays of ``position``, in
    ``legal_plays`` order) that ``policy`` chooses, by the same code as in
    lockstep games (:func:`bansugoroku_fast.games.game_batch.choose`); ``"random"`` draws
    from the kernels' choice stream keyed by a seed from ``rng``."""
    resolved = check_policy(policy, rules)
    children = np.stack([play.position.array for play in plays])
    offsets = np.array([0, len(plays)], dtype=np.int64)
    zero = np.zeros(1, dtype=np.int64)  # game 0, ply 0 of the stream keyed by a seed from rng
    choice = choose(resolved, position.array[None], offsets, children, as_rules(rules), rng.getrandbits(64),
                    zero, zero)
    return int(choice[0])
