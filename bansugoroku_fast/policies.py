"""Policies of whole games: how a side chooses among the legal plays of a roll.

A policy is named, or a :class:`LinearPolicy` object:

* ``"random"``: uniform over the distinct legal plays, indexed in the order
  :func:`~bansugoroku_fast.legal_plays` lists them, drawn from the choice
  stream of the counter-based dice (see :mod:`bansugoroku_fast.oracle.games`);
* ``"first"``: always the first play in that order (deterministic, for tests);
* ``LinearPolicy(weights)``: greedy one ply: the play whose resulting position
  (seen by the side that played) has the greatest dot product of its
  :data:`FEATURE_NAMES` features with ``weights``;
* ``"heuristic"``: a :class:`LinearPolicy` with the weights shipped here for
  the variant (:data:`HEURISTIC_WEIGHTS`);
* ``"pubeval"`` (backgammon only): Tesauro's public evaluation function with
  its published weights (:data:`PUBEVAL_RACE_WEIGHTS`,
  :data:`PUBEVAL_CONTACT_WEIGHTS`).

``play_games`` and ``rollout`` take one policy for both sides or a pair
``(seat 0's, seat 1's)``.

**Arithmetic and ties.** Every feature is a small integer and every score is
a float64 sum ``0.0 + w[0] * x[0] + w[1] * x[1] + ...`` taken in index order
(no fused multiply-add), so the oracle's pure-Python scores and the kernels'
scores are the same numbers bit for bit. The greatest score wins; a tie goes
to the play listed first by ``legal_plays``.

This module holds only the policies' names, weights and argument checks
(plain Python, shared by the oracle and the kernels); each side computes the
features and scores itself.

>>> LinearPolicy([1.0] * len(FEATURE_NAMES)).weights[:3]
(1.0, 1.0, 1.0)
>>> resolve_policies(("heuristic", "random"), "backgammon")[1]
ResolvedPolicy(code=0, weights=(), function=None)
>>> LinearPolicy([1.0, 2.0])
Traceback (most recent call last):
...
bansugoroku_fast.errors.InvalidPolicyError: LinearPolicy needs 28 weights (one per feature in FEATURE_NAMES), got 2
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any, NamedTuple

from .checks import as_rules
from .errors import InvalidPolicyError, PolicyTypeError
from .rules import Rules

#: The features of one side, in order; :data:`FEATURE_NAMES` lists them for
#: row 0 (``own_``) then row 1 (``other_``). Each is an integer; see
#: :mod:`bansugoroku_fast.oracle.games` (``side_features``) for the exact
#: definitions.
SIDE_FEATURES = (
    "pips",          # pip count: sum of point x stones, the bar counting 25
    "off",           # stones borne off
    "bar",           # stones on the bar
    "home",          # stones on points 1..6
    "back",          # stones on points 19..24 (the other side's home) or the bar
    "blots",         # points 1..24 holding exactly one stone
    "points",        # points 1..24 holding two or more (made points)
    "home_points",   # points 1..6 holding two or more (closure progress)
    "prime",         # longest run of consecutive made points
    "anchors",       # made points among 19..24 (in the other side's home)
    "exposure",      # rolls (of 36) on which the other side could hit a blot, blocks ignored
    "stacking",      # stones beyond three on a point, summed over points 1..24
    "closure",       # 1 if this side's home is closed with the other side on the bar
    "won",           # the value of this side's win in the position, 0 if it has not won
)

#: Names of the columns of ``features(positions, rules)``: row 0's side
#: features (``own_*``), then row 1's (``other_*``).
FEATURE_NAMES = tuple(f"own_{name}" for name in SIDE_FEATURES) + tuple(
    f"other_{name}" for name in SIDE_FEATURES
)

# Policy codes, as the kernels take them.
RANDOM, FIRST, LINEAR, PUBEVAL = 0, 1, 2, 3
#: A Python callable ``policy(children, offsets)``, played in lockstep
#: (:mod:`bansugoroku_fast.lockstep`), never by the kernels or the oracle.
CALLABLE = -1
NAMES = {"random": RANDOM, "first": FIRST, "pubeval": PUBEVAL}


def _side_weights(**weights: float) -> tuple[float, ...]:
    """Row 0's weights by name, row 1's the opposite (a symmetric evaluation)."""
    own = tuple(float(weights.get(name, 0.0)) for name in SIDE_FEATURES)
    return own + tuple(-w for w in own)


#: Weights of ``"heuristic"`` per variant (``FEATURE_NAMES`` order), tuned by
#: a hill climb on head-to-head results from hand-set starting weights:
#: ``python -m benchmarks.fit_heuristic --rules backgammon`` and ``python -m
#: benchmarks.fit_heuristic --rules ban-sugoroku --steps 40 --seed 2`` print
#: them. The tuned weights win 62% (backgammon) and 67% (Ban-sugoroku) of
#: games against the starting ones.
HEURISTIC_WEIGHTS: dict[str, tuple[float, ...]] = {
    "backgammon": _side_weights(
        pips=-0.1, off=0.3, bar=-0.6, home=0.05, back=-0.2, blots=-0.3, points=0.2,
        home_points=0.3, prime=0.2, anchors=0.2, exposure=-0.035, stacking=-0.05,
        closure=0.5, won=100.0,
    ),
    "ban-sugoroku": _side_weights(
        pips=-0.05, off=0.3, bar=-1.176, home=0.05, back=-0.1, blots=-0.15, points=0.1,
        home_points=0.3, prime=0.2, anchors=0.2, exposure=-0.035, stacking=-0.05,
        closure=0.5, won=100.0,
    ),
}

# Tesauro's pubeval weights as he published them (pub_eval.c, 1993): 122
# inputs, five per point from point 24 down to point 1, then the opponent's
# bar and the mover's borne-off stones (see oracle.games.pubeval_inputs).
PUBEVAL_RACE_WEIGHTS = (
    .00000, -.17160, .27010, .29906, -.08471, .00000, -1.40375,
    -1.05121, .07217, -.01351, .00000, -1.29506, -2.16183, .13246,
    -1.03508, .00000, -2.29847, -2.34631, .17253, .08302, .00000,
    -1.27266, -2.87401, -.07456, -.34240, .00000, -1.34640, -2.46556,
    -.13022, -.01591, .00000, .27448, .60015, .48302, .25236, .00000,
    .39521, .68178, .05281, .09266, .00000, .24855, -.06844, -.37646,
    .05685, .00000, .17405, .00430, .74427, .00576, .00000, .12392,
    .31202, -.91035, -.16270, .00000, .01418, -.10839, -.02781, -.88035,
    .00000, 1.07274, 2.00366, 1.16242, .22520, .00000, .85631, 1.06349,
    1.49549, .18966, .00000, .37183, -.50352, -.14818, .12039, .00000,
    .13681, .13978, 1.11245, -.12707, .00000, -.22082, .20178, -.06285,
    -.52728, .00000, -.13597, -.19412, -.09308, -1.26062, .00000, 3.05454,
    5.16874, 1.50680, 5.35000, .00000, 2.19605, 3.85390, .88296, 2.30052,
    .00000, .92321, 1.08744, -.11696, -.78560, .00000, -.09795, -.83050,
    -1.09167, -4.94251, .00000, -1.00316, -3.66465, -2.56906, -9.67677,
    .00000, -2.77982, -7.26713, -3.40177, -12.32252, .00000, 3.42040,
)
PUBEVAL_CONTACT_WEIGHTS = (
    .25696, -.66937, -1.66135, -2.02487, -2.53398, -.16092, -1.11725,
    -1.06654, -.92830, -1.99558, -1.10388, -.80802, .09856, -.62086,
    -1.27999, -.59220, -.73667, .89032, -.38933, -1.59847, -1.50197,
    -.60966, 1.56166, -.47389, -1.80390, -.83425, -.97741, -1.41371,
    .24500, .10970, -1.36476, -1.05572, 1.15420, .11069, -.38319, -.74816,
    -.59244, .81116, -.39511, .11424, -.73169, -.56074, 1.09792, .15977,
    .13786, -1.18435, -.43363, 1.06169, -.21329, .04798, -.94373, -.22982,
    1.22737, -.13099, -.06295, -.75882, -.13658, 1.78389, .30416, .36797,
    -.69851, .13003, 1.23070, .40868, -.21081, -.64073, .31061, 1.59554,
    .65718, .25429, -.80789, .08240, 1.78964, .54304, .41174, -1.06161,
    .07851, 2.01451, .49786, .91936, -.90750, .05941, 1.83120, .58722,
    1.28777, -.83711, -.33248, 2.64983, .52698, .82132, -.58897, -1.18223,
    3.35809, .62017, .57353, -.07276, -.36214, 4.37655, .45481, .21746,
    .10504, -.61977, 3.54001, .04612, -.18108, .63211, -.87046, 2.47673,
    -.48016, -1.27157, .86505, -1.11342, 1.24612, -.82385, -2.77082,
    1.23606, -1.59529, .10438, -1.30206, -4.11520, 5.62596, -2.75800,
)
#: pubeval's score of a play that bears off the last stone (the best there is).
PUBEVAL_WIN_SCORE = 99999999.0


class LinearPolicy:
    """Greedy one-ply policy: the play whose resulting position has the
    greatest ``sum(weights[i] * features[i])`` (float64, in index order);
    ties go to the play listed first. ``weights`` are one finite number per
    name in :data:`FEATURE_NAMES`.

    >>> policy = LinearPolicy([0.0] * 28)
    >>> policy == LinearPolicy([0] * 28), len(policy.weights)
    (True, 28)
    """

    __slots__ = ("_weights",)

    def __init__(self, weights: Sequence[Any]) -> None:
        try:
            values = list(weights)
        except TypeError:
            raise PolicyTypeError(
                f"LinearPolicy weights must be a sequence of {len(FEATURE_NAMES)} numbers, got {weights!r}"
            ) from None
        if len(values) != len(FEATURE_NAMES):
            raise InvalidPolicyError(
                f"LinearPolicy needs {len(FEATURE_NAMES)} weights (one per feature in "
                f"FEATURE_NAMES), got {len(values)}"
            )
        checked = []
        for index, value in enumerate(values):
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
                raise InvalidPolicyError(
                    f"LinearPolicy weight {index} ({FEATURE_NAMES[index]}) must be a finite number, got {value!r}"
                )
            checked.append(float(value))
        self._weights = tuple(checked)

    @property
    def weights(self) -> tuple[float, ...]:
        return self._weights

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LinearPolicy) and self._weights == other._weights

    def __hash__(self) -> int:
        return hash(self._weights)

    def __repr__(self) -> str:
        return f"LinearPolicy({list(self._weights)!r})"


class ResolvedPolicy(NamedTuple):
    """A policy as the engines run it: a code (``RANDOM``, ``FIRST``,
    ``LINEAR``, ``PUBEVAL``) and, for ``LINEAR``, its weights."""

    code: int
    weights: tuple[float, ...]
    function: Any = None  # the callable, for CALLABLE


def _resolve_one(policy: object, rules: Rules, where: str, callables: bool) -> ResolvedPolicy:
    if isinstance(policy, LinearPolicy):
        return ResolvedPolicy(LINEAR, policy.weights)
    if callables and callable(policy):
        return ResolvedPolicy(CALLABLE, (), policy)
    if isinstance(policy, str):
        if policy == "heuristic":
            return ResolvedPolicy(LINEAR, HEURISTIC_WEIGHTS[rules.variant])
        if policy == "pubeval" and not rules.is_backgammon:
            raise InvalidPolicyError(f"{where}: 'pubeval' plays backgammon only, not {rules.variant}")
        if policy in NAMES:
            return ResolvedPolicy(NAMES[policy], ())
        accepted = ", ".join(repr(name) for name in ("random", "first", "heuristic", "pubeval"))
        raise InvalidPolicyError(f"{where}: unknown policy {policy!r}; accepted: {accepted} or a LinearPolicy")
    raise PolicyTypeError(
        f"{where} must be a policy name or a LinearPolicy, got {type(policy).__name__} {policy!r}"
    )


def resolve_policy(policy: object, rules: object, where: str = "policy", *,
                   callables: bool = False) -> ResolvedPolicy:
    """One policy (a pair is refused), for ``rules``; ``where`` names it in
    errors; ``callables`` as in :func:`resolve_policies`.

    >>> resolve_policy("first", "backgammon").code == NAMES["first"]
    True
    >>> resolve_policy(("random", "first"), None, "opponent")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.PolicyTypeError: opponent must be a policy name or a LinearPolicy, got tuple ...
    """
    return _resolve_one(policy, as_rules(rules), where, callables)


def resolve_policies(policy: object, rules: object, *,
                     callables: bool = False) -> tuple[ResolvedPolicy, ResolvedPolicy]:
    """``(seat 0's, seat 1's)`` policy from one policy or a pair of them;
    ``callables``: also accept Python callables ``policy(children, offsets)``
    (the package's ``play_games`` and ``rollout`` play them in lockstep; the
    oracle does not)."""
    rules = as_rules(rules)
    if isinstance(policy, (tuple, list)):
        if len(policy) != 2:
            raise InvalidPolicyError(
                f"a policy pair has one policy per seat (2), got {len(policy)}: {policy!r}"
            )
        return (_resolve_one(policy[0], rules, "policy of seat 0", callables),
                _resolve_one(policy[1], rules, "policy of seat 1", callables))
    one = _resolve_one(policy, rules, "policy", callables)
    return one, one
