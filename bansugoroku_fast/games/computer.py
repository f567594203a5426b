"""The computer opponent of the source pages: a policy chooses its plays and
a pip-count rule handles the cube.

The backgammon page says the computer "offers and accepts the cube by the
pip-count difference: a simple rule, not an expert analysis";
:class:`PipCountCube` is that rule. The Ban-sugoroku pages say the computer
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
from typing import Any

import numpy as np

from ..checks import as_rules
from ..errors import InvalidArgumentError, InvalidPolicyError
from ..play import Play
from ..position import Position
from ..rules import Rules
from .policies import ResolvedPolicy, choose, resolve_policies


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


@dataclass
class Computer:
    """A computer player: ``policy`` chooses its plays, ``cube`` (a
    :class:`PipCountCube`, or None never to double and always to take)
    handles the backgammon cube. ``rng`` draws the choices of ``"random"``.

    >>> from bansugoroku_fast import Position, legal_plays
    >>> start = Position.initial()
    >>> plays = legal_plays(start, (6, 5), "backgammon")
    >>> str(Computer("first").choose(start, plays, "backgammon"))
    '24/13'
    >>> lowest_pips = lambda children, offsets: -children[:, 0, 1:].astype(float) @ np.arange(1, 26)
    >>> str(Computer(lowest_pips).choose(start, plays, "backgammon"))   # every play moves 11 pips: the first
    '24/13'
    """

    policy: Any
    cube: PipCountCube | None = field(default_factory=PipCountCube)
    rng: random.Random = field(default_factory=random.Random)

    def choose(self, position: Position, plays: Sequence[Play], rules: Rules | str) -> Play:
        """The play the policy chooses among ``plays``, the legal plays of
        ``position`` (in ``legal_plays`` order, at least one)."""
        return plays[choose_index(self.policy, position, plays, rules, self.rng)]

    def should_double(self, position: Position, owns_cube: bool) -> bool:
        return self.cube is not None and self.cube.should_double(position, owns_cube)

    def should_take(self, position: Position) -> bool:
        return self.cube is None or self.cube.should_take(position)


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
