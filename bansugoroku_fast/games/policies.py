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
* ``"race"``: by the exact endgame tables wherever every legal play of the
  roll leads to a table race or wins (the play of greatest equity: exact
  where the two-sided table applies), else as ``"heuristic"``
  (:class:`~bansugoroku_fast.endgames.TablePolicy`, a callable played in
  lockstep);
* ``"net"`` and ``"net1"``: the network shipped for the rules, greedy at 0
  and 1 ply (:class:`~bansugoroku_fast.evaluators.EvaluatorPolicy`: ``"net"``
  a network policy, ``"net1"`` a callable);
* a *network policy*: a policy object whose ``kernel_network`` attribute is
  a network (an ``EvaluatorPolicy`` at 0 ply by a ``NetEvaluator``, as
  ``"net"`` is): ``play_games`` and ``rollout`` play it in the kernels' own
  game loop (code :data:`NET`: the play of greatest 0-ply equity, in
  float32), the oracle by its float64 forward pass; elsewhere it is a
  callable like any other;
* ``"pubeval"`` (backgammon only): Tesauro's public evaluation function with
  its published weights (:data:`PUBEVAL_RACE_WEIGHTS`,
  :data:`PUBEVAL_CONTACT_WEIGHTS`);
* a *callable policy* ``policy(children, offsets)``: ``children`` is
  ``int8[M, 2, 26]``, every candidate child of every waiting game, seen by
  the side that just played it (row 0 = the mover, as ``generate_plays``
  gives them), and game ``i`` owns ``children[offsets[i]:offsets[i + 1]]``
  (``offsets`` is ``int64[N + 1]``). It returns either **choices** (an
  integer array of length ``N``, the index of the chosen child within each
  game's candidates) or **scores** (a floating array of length ``M``, one
  per child; the greatest score of each game wins and a tie goes to the
  first child: :func:`segment_argmax`). The package plays callables in
  lockstep (:class:`~bansugoroku_fast.games.GameBatch`), one call per wave.

``play_games`` and ``rollout`` take one policy for both sides or a pair
``(seat 0's, seat 1's)``.

**Arithmetic and ties.** Every feature is a small integer and every score is
a float64 sum ``0.0 + w[0] * x[0] + w[1] * x[1] + ...`` taken in index order
(no fused multiply-add), so the oracle's pure-Python scores and the kernels'
scores are the same numbers bit for bit. The greatest score wins; a tie goes
to the play listed first by ``legal_plays``.

This module holds the policies' names (:data:`POLICIES`, the one registry:
every name and the factory that makes its policy for a rule set) and
argument checks (shared by the oracle and the kernels; the numbers they
score with are in :mod:`bansugoroku_fast.scoring`), turns a callable's
output into choices, and makes one wave's choices with any policy
(:func:`choose`).

>>> LinearPolicy([1.0] * len(FEATURE_NAMES)).weights[:3]
(1.0, 1.0, 1.0)
>>> resolve_policies(("heuristic", "random"), "backgammon")[1]
ResolvedPolicy(code=0, weights=(), function=None)
>>> sorted(POLICIES)
['first', 'heuristic', 'net', 'net1', 'pubeval', 'race', 'random']
>>> LinearPolicy([1.0, 2.0])
Traceback (most recent call last):
...
bansugoroku_fast.errors.InvalidPolicyError: LinearPolicy needs 28 weights (one per feature in FEATURE_NAMES), got 2
>>> offsets = np.array([0, 3, 5, 6])
>>> segment_argmax(np.array([0.5, 2.0, 2.0, -1.0, 7.0, 3.0]), offsets)
array([1, 1, 0])
>>> choices_from_output(np.array([2, 0, 0]), offsets)
array([2, 0, 0])
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from .. import _kernel
from ..batch import segment_argmax
from ..checks import as_rules
from ..errors import InvalidPolicyError, PolicyOutputError, PolicyOutputTypeError, PolicyTypeError
from ..rules import Rules
from ..scoring import FEATURE_NAMES, HEURISTIC_WEIGHTS

# Policy codes, as the kernels take them.
RANDOM, FIRST, LINEAR, PUBEVAL = 0, 1, 2, 3
#: A network policy played in the kernels' game loop (``ResolvedPolicy.function``
#: is the policy object, whose ``kernel_network`` the kernels read).
NET = 4
#: A Python callable ``policy(children, offsets)``, played in lockstep
#: (:class:`~bansugoroku_fast.games.GameBatch`), never by the kernels or the oracle.
CALLABLE = -1


class LinearPolicy:
    """Greedy one-ply policy: the play whose resulting position has the
    greatest ``sum(weights[i] * features[i])`` (float64, in index order);
    ties go to the play listed first. ``weights`` are one finite number per
    name in :data:`FEATURE_NAMES`.

    Parameters
    ----------
    weights : Sequence of float
        One finite number per name of :data:`FEATURE_NAMES`.

    Examples
    --------
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
    ``LINEAR``, ``PUBEVAL``, ``NET``) and, for ``LINEAR``, its weights."""

    code: int
    weights: tuple[float, ...]
    function: Any = None  # the callable, for CALLABLE; the policy object, for NET


# --- the policies known by name ---------------------------------------------------------------


class NamedPolicy(NamedTuple):
    """What a policy name stands for: ``make(rules)`` gives the policy for a
    rule set, a :class:`ResolvedPolicy` (``kind="kernel"``: played by code in
    the kernels and the oracle) or a policy object: ``kind="callable"``, a
    callable played in lockstep; ``kind="network"``, a network policy (see
    the module), played in the kernels' game loop where networks are
    accepted, else a callable. The kind is known before ``make`` runs, so a
    name refused where it is used is refused before any work (loading a
    network, building tables). ``backgammon_only``: refused for the other
    variants."""

    make: Callable[[Rules], Any]
    kind: str = "kernel"
    backgammon_only: bool = False


def _random(rules: Rules) -> ResolvedPolicy:
    return ResolvedPolicy(RANDOM, ())


def _first(rules: Rules) -> ResolvedPolicy:
    return ResolvedPolicy(FIRST, ())


def _heuristic(rules: Rules) -> ResolvedPolicy:
    return ResolvedPolicy(LINEAR, HEURISTIC_WEIGHTS[rules.variant])


def _pubeval(rules: Rules) -> ResolvedPolicy:
    return ResolvedPolicy(PUBEVAL, ())


def _race(rules: Rules) -> Any:
    # Imported here, not at the top: the tables load when "race" is first played.
    from ..endgames.races import TablePolicy

    return TablePolicy(rules)


def _net(rules: Rules) -> Any:
    # Imported here, not at the top: the evaluators (and the network file)
    # load when "net" is first played, not with every game.
    from ..evaluators.search import net_policy

    return net_policy(rules, ply=0)


def _net1(rules: Rules) -> Any:
    from ..evaluators.search import net_policy

    return net_policy(rules, ply=1)


#: Every policy known by name, the one registry: name -> :class:`NamedPolicy`.
#: A new named policy is one entry here (its factory imports what it needs
#: when it is first played).
POLICIES: dict[str, NamedPolicy] = {
    "random": NamedPolicy(_random),
    "first": NamedPolicy(_first),
    "heuristic": NamedPolicy(_heuristic),
    "pubeval": NamedPolicy(_pubeval, backgammon_only=True),
    "race": NamedPolicy(_race, kind="callable"),
    "net": NamedPolicy(_net, kind="network"),
    "net1": NamedPolicy(_net1, kind="callable"),
}


def kernel_network(policy: object, rules: Rules) -> Any:
    """The network the kernels' game loop may play ``policy`` by, or None:
    the ``kernel_network`` attribute of a policy object (duck typing: a
    network with ``rules``, ``layer_sizes`` and ``native_model()``, as a
    ``NetEvaluator`` has), when it was trained for ``rules`` (``start``
    aside) and its hidden layers fit the kernels (:data:`~bansugoroku_fast._kernel.NET_MAX_HIDDEN`).

    >>> kernel_network(len, Rules()) is None
    True
    """
    network = getattr(policy, "kernel_network", None)
    if network is None or network.rules.short_name != rules.short_name:
        return None
    return network if _kernel.net_fits(network.layer_sizes) else None


def policy_models(policies: tuple[ResolvedPolicy, ResolvedPolicy], rules: Rules) -> tuple[Any, Any]:
    """Each seat's network as the kernels read it (``native_model()``)
    where it plays ``NET``, else None."""
    first, second = (kernel_network(policy.function, rules).native_model() if policy.code == NET else None
                     for policy in policies)
    return first, second


def _resolve_one(policy: object, rules: Rules, where: str, callables: bool, networks: bool) -> ResolvedPolicy:
    if isinstance(policy, LinearPolicy):
        return ResolvedPolicy(LINEAR, policy.weights)
    if networks and kernel_network(policy, rules) is not None:
        return ResolvedPolicy(NET, (), policy)
    if callables and callable(policy):
        return ResolvedPolicy(CALLABLE, (), policy)
    if isinstance(policy, str):
        return _resolve_name(policy, rules, where, callables, networks)
    raise PolicyTypeError(
        f"{where} must be a policy name or a LinearPolicy, got {type(policy).__name__} {policy!r}"
    )


def _resolve_name(name: str, rules: Rules, where: str, callables: bool, networks: bool) -> ResolvedPolicy:
    entry = POLICIES.get(name)
    if entry is None:
        accepted = ", ".join(repr(known) for known in POLICIES)
        raise InvalidPolicyError(f"{where}: unknown policy {name!r}; accepted: {accepted} or a LinearPolicy")
    if entry.backgammon_only and not rules.is_backgammon:
        raise InvalidPolicyError(f"{where}: {name!r} plays backgammon only, not {rules.variant}")
    refused = InvalidPolicyError(f"{where}: {name!r} (a callable, played in lockstep) is not accepted here")
    if (entry.kind == "callable" and not callables) or (entry.kind == "network" and not (callables or networks)):
        raise refused
    made = entry.make(rules)
    if isinstance(made, ResolvedPolicy):
        return made
    if networks and kernel_network(made, rules) is not None:
        return ResolvedPolicy(NET, (), made)
    if not callables:
        raise refused
    return ResolvedPolicy(CALLABLE, (), made)


def resolve_policy(policy: object, rules: object, where: str = "policy", *,
                   callables: bool = False, networks: bool = False) -> ResolvedPolicy:
    """One policy (a pair is refused), for ``rules``; ``where`` names it in
    errors; ``callables`` and ``networks`` as in :func:`resolve_policies`.

    >>> resolve_policy("first", "backgammon").code == FIRST
    True
    >>> resolve_policy(("random", "first"), None, "opponent")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.PolicyTypeError: opponent must be a policy name or a LinearPolicy, got tuple ...
    """
    return _resolve_one(policy, as_rules(rules), where, callables, networks)


def resolve_policies(policy: object, rules: object, *, callables: bool = False,
                     networks: bool = False) -> tuple[ResolvedPolicy, ResolvedPolicy]:
    """``(seat 0's, seat 1's)`` policy from one policy or a pair of them;
    ``callables``: also accept Python callables ``policy(children, offsets)``
    (the package's ``play_games`` and ``rollout`` play them in lockstep; the
    oracle does not); ``networks``: a network policy (see the module, and
    :func:`kernel_network`) resolves to ``NET``, which the kernels' game
    loop and the oracle play (without it, it is a callable like any other).

    >>> from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator
    >>> policy = EvaluatorPolicy(NetEvaluator.random("backgammon", hidden=(8,)))
    >>> [resolve_policies(policy, "backgammon", callables=True, networks=networks)[0].code
    ...  for networks in (False, True)] == [CALLABLE, NET]
    True
    """
    rules = as_rules(rules)
    if isinstance(policy, (tuple, list)):
        if len(policy) != 2:
            raise InvalidPolicyError(
                f"a policy pair has one policy per seat (2), got {len(policy)}: {policy!r}"
            )
        return (_resolve_one(policy[0], rules, "policy of seat 0", callables, networks),
                _resolve_one(policy[1], rules, "policy of seat 1", callables, networks))
    one = _resolve_one(policy, rules, "policy", callables, networks)
    return one, one


# --- callable policies: from a wave's output to one choice per game --------------------------


#: What a callable policy is: ``policy(children, offsets) -> choices or scores``.
PolicyCallable = Callable[[np.ndarray, np.ndarray], Any]


def choices_from_output(output: Any, offsets: np.ndarray, game_ids: np.ndarray | None = None) -> np.ndarray:
    """``int64[N]`` choices from what a callable policy returned for
    ``offsets`` (see the module): integer choices (one per game, each within
    its game's candidates) or floating scores (one per child). Anything else
    raises :class:`~bansugoroku_fast.errors.PolicyOutputError` naming the
    game (``game_ids[i]`` names game ``i`` of the wave when given).

    >>> choices_from_output(np.array([0.0, 1.0, 1.0]), np.array([0, 1, 3]))
    array([0, 0])
    >>> choices_from_output(np.array([1, 0]), np.array([0, 1, 3]), game_ids=np.array([7, 9]))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.PolicyOutputError: choice 1 for game 7 is outside its 1 candidates (0 .. 0)
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    games, children = len(offsets) - 1, int(offsets[-1])
    values = np.asarray(output)
    if values.dtype.kind == "f":
        if values.shape != (children,):
            raise PolicyOutputError(
                f"a policy's floating output is one score per child: {children} children, "
                f"got shape {values.shape}"
            )
        return segment_argmax(values, offsets, game_ids=game_ids)
    if values.dtype.kind in "iu":
        return check_choices(values, offsets, game_ids)
    raise PolicyOutputTypeError(
        f"a policy returns integer choices (one per game: {games}) or floating scores "
        f"(one per child: {children}); got dtype {values.dtype} with shape {values.shape}"
    )


def check_choices(choices: Any, offsets: np.ndarray, game_ids: np.ndarray | None = None) -> np.ndarray:
    """``choices`` as ``int64[N]`` after checking that each is an integer
    index within its game's candidates (``game_ids`` names the games).

    >>> check_choices([0, 1.5], np.array([0, 1, 3]))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.PolicyOutputTypeError: choices must be integers (one per game), got dtype float64
    """
    values = np.asarray(choices)
    counts = np.diff(np.asarray(offsets, dtype=np.int64))
    if values.dtype.kind not in "iu":
        raise PolicyOutputTypeError(f"choices must be integers (one per game), got dtype {values.dtype}")
    if values.shape != counts.shape:
        raise PolicyOutputError(
            f"choices must be one integer per waiting game ({len(counts)}), got shape {values.shape}"
        )
    return within_candidates(values, counts, game_ids)


def within_candidates(values: np.ndarray, counts: np.ndarray, game_ids: np.ndarray | None) -> np.ndarray:
    """``values`` as int64 after checking each is in ``0 .. counts - 1``."""
    bad = (values < 0) | (values >= counts)
    if bad.any():
        i = int(np.argmax(bad))
        game = int(game_ids[i]) if game_ids is not None else i
        raise PolicyOutputError(
            f"choice {values[i]} for game {game} is outside its {counts[i]} candidates (0 .. {counts[i] - 1})"
        )
    return values.astype(np.int64)


def call_policy(policy: PolicyCallable, offsets: np.ndarray, children: np.ndarray,
                game_ids: np.ndarray) -> np.ndarray:
    """``int64[N]``: the choices of callable ``policy`` for a wave of
    ``N`` games (``game_ids`` names them in errors); a game without
    candidates (a pass) gets -1 and is not shown to the policy, so every
    segment the policy sees holds at least one child.

    >>> offsets = np.array([0, 2, 2, 5])
    >>> children = np.zeros((5, 2, 26), dtype=np.int8)
    >>> call_policy(lambda kids, offs: np.diff(offs) - 1, offsets, children, np.array([4, 5, 6]))
    array([ 1, -1,  2])
    """
    counts = np.diff(offsets)
    moving = counts > 0
    choices = np.full(len(counts), -1, dtype=np.int64)
    shown = np.zeros(int(moving.sum()) + 1, dtype=np.int64)
    np.cumsum(counts[moving], out=shown[1:])
    if len(shown) > 1:
        choices[moving] = choices_from_output(policy(children, shown), shown, game_ids[moving])
    return choices


# --- policies as the kernels take them -------------------------------------------------------


def policy_weights(policy: ResolvedPolicy) -> np.ndarray:
    """``float64[F]``: the weights the kernels read for ``policy`` (a
    ``LinearPolicy``'s; zeros for the others, which ignore them)."""
    return np.array(policy.weights or (0.0,) * len(FEATURE_NAMES), dtype=np.float64)


def policy_arrays(policies: tuple[ResolvedPolicy, ResolvedPolicy]) -> tuple[np.ndarray, np.ndarray]:
    """Policy codes ``int32[2]`` and weights ``float64[2, F]`` (zeros where unused)."""
    codes = np.array([policy.code for policy in policies], dtype=np.int32)
    return codes, np.stack([policy_weights(policy) for policy in policies])


def has_callable(policies: tuple[ResolvedPolicy, ResolvedPolicy]) -> bool:
    """A seat plays a Python callable: the games are played in lockstep
    (:class:`~bansugoroku_fast.games.GameBatch`), the callable once per wave."""
    return any(policy.code == CALLABLE for policy in policies)


def choose(policy: ResolvedPolicy, parents: np.ndarray, offsets: np.ndarray, children: np.ndarray,
           rules: Rules, seed: int, games: np.ndarray, plies: np.ndarray) -> np.ndarray:
    """``int64[N]``: the index of the play ``policy`` picks for each parent
    among its children ``offsets[i]:offsets[i + 1]`` (-1 with none), at ply
    ``plies[i]`` of game ``games[i]``: a callable once for the whole wave, a
    kernel policy by ``choose_batch`` (``"random"`` draws from the choice
    stream of ``(seed, game, ply)``, as in ``play_games``)."""
    if policy.code in (CALLABLE, NET):    # a network policy in lockstep: the policy object chooses
        return call_policy(policy.function, offsets, children, games)

    def int64(values: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(values, dtype=np.int64)

    return _kernel.choose(policy.code, policy_weights(policy), np.ascontiguousarray(parents), int64(offsets),
                          np.ascontiguousarray(children), rules, seed, int64(games), int64(plies))
