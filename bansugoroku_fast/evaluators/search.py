"""Plays ranked by an evaluator at 0, 1 or 2 plies, and a policy that plays by them.

The value of a position ``P`` seen by the side that has just moved (its
five outcome probabilities) at ``n`` plies:

* ``n = 0``: the evaluator's figures (:func:`~.scoring.evaluate`; a
  finished position's exact ones);
* ``n >= 1``: a finished position's exact figures; otherwise the mean, over
  the other side's 21 rolls (weight 1/36 for a double, 2/36 for the others),
  of the value at ``n - 1`` plies of the position its best reply reaches,
  that reply chosen by 0-ply equity (as GNU Backgammon chooses the replies
  inside its search), seen from the other side and flipped to ours
  (:func:`~.scoring.flip`). A roll with no legal play passes: the position
  itself, the other side to have "moved".

A play's value at ``n`` plies is the value of the position it reaches.
:func:`best_plays` scores every legal play at 0 plies, then with
``ply >= 1`` takes the plays a :class:`MoveFilter` keeps (by default GNU
Backgammon's: the best 8 within 0.16 of the best equity) to ``ply`` plies;
the plays filtered out keep their 0-ply figures and rank after the others.

Each level runs as one batch. With a :class:`NetEvaluator` the kernels
search every position's replies over the 21 rolls and pick each as the
game loop's ``"net"`` policy does; with a Python evaluator one
:func:`~bansugoroku_fast.generate_plays` call gives every reply, one
evaluator call scores them, and :func:`~bansugoroku_fast.segment_argmax`
picks the replies.

>>> from bansugoroku_fast import Position
>>> net = NetEvaluator.random("backgammon", hidden=(8,), seed=3)
>>> ranked = best_plays(Position.initial(), (3, 1), "backgammon", net, ply=1)
>>> len(ranked), ranked[0].ply, ranked[0].equity >= ranked[1].equity
(16, 1, True)
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..batch import generate_plays, outcome, segment_argmax
from ..checks import as_dice, as_rules, check_position_for_rules, scoring_rules
from ..errors import ArgumentTypeError, InvalidArgumentError
from ..moves import legal_plays
from ..play import Play
from ..position import as_position
from ..rules import ALL_ROLLS, Rules
from ..typing import BatchLike, DiceLike, PositionLike, RulesLike
from . import kernel_arrays
from .encoding import checked_positions
from .network import OUTPUTS, NetEvaluator, as_threads
from .scoring import (
    Evaluator,
    EvaluatorLike,
    equity,
    evaluate_plays,
    evaluate_valid,
    flip,
    outcome_probabilities,
    resolve_evaluator,
    result_shares,
)

__all__ = ["DEFAULT_FILTER", "EvaluatorPolicy", "MoveFilter", "ROLL_WEIGHTS", "RolloutJudge", "ScoredPlay",
           "ScoredPlays",
           "best_plays", "best_plays_batch", "evaluate_position", "net_policy", "ply_values", "values_on_roll"]

#: The 21 rolls (:data:`~bansugoroku_fast.rules.ALL_ROLLS` order) and their weights out of 36.
ROLL_DICE = np.array(ALL_ROLLS, dtype=np.int8)
ROLL_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in ALL_ROLLS])
#: Positions expanded together at each level of a search (memory: about
#: 21 x 30 replies each, 52 bytes per reply).
CHUNK = 1024
#: Positions per evaluator call inside a search: bounds what a Python
#: evaluator holds at once (its encoded inputs, say 800 bytes a position).
EVALUATE_CHUNK = 65536
MAX_PLY = 2


@dataclass(frozen=True)
class MoveFilter:
    """Which plays a search takes deeper than 0 plies: the ``keep`` best by
    0-ply equity, among them only those within ``margin`` of the best
    (the best always). GNU Backgammon's default filter keeps 8 within 0.16.

    Parameters
    ----------
    keep : int
        How many plays, best by 0-ply equity, go deeper (at least 1).
    margin : float
        Only those within this equity of the best (the best always).

    Examples
    --------
    >>> MoveFilter(keep=0)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: MoveFilter keep must be an integer >= 1, got 0

    >>> MoveFilter(keep=2, margin=0.1).keep
    2
    """

    keep: int = 8
    margin: float = 0.16

    def __post_init__(self) -> None:
        if isinstance(self.keep, bool) or not isinstance(self.keep, numbers.Integral) or self.keep < 1:
            raise InvalidArgumentError(f"MoveFilter keep must be an integer >= 1, got {self.keep!r}")
        if (isinstance(self.margin, bool) or not isinstance(self.margin, numbers.Real)
                or not np.isfinite(self.margin) or self.margin < 0):
            raise InvalidArgumentError(f"MoveFilter margin must be a finite number >= 0, got {self.margin!r}")


#: GNU Backgammon's default: the best 8 plays within 0.16 of the best.
DEFAULT_FILTER = MoveFilter()


class ScoredPlay(NamedTuple):
    """One play ranked by :func:`best_plays`.

    Parameters
    ----------
    play : Play
        The play.
    equity : float
        The mover's cubeless equity after it.
    probabilities : tuple of float
        The mover's five outcome probabilities after it
        (:data:`~.scoring.OUTCOME_NAMES`).
    ply : int
        The plies they were computed at.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> net = NetEvaluator.random("backgammon", hidden=(8,))
    >>> best = best_plays(Position.initial(), (6, 5), "backgammon", net)[0]
    >>> best.ply, len(best.probabilities), best.equity >= -3
    (0, 5, True)
    """

    play: Play
    equity: float
    probabilities: tuple[float, float, float, float, float]
    ply: int


ScoredPlay.play.__doc__ = "The play."  # type: ignore[misc]
ScoredPlay.equity.__doc__ = "The mover's cubeless equity after it."
ScoredPlay.probabilities.__doc__ = "The mover's five outcome probabilities after it (``OUTCOME_NAMES``)."
ScoredPlay.ply.__doc__ = "The plies its figures were computed at."


class ScoredPlays(NamedTuple):
    """The plays of many (position, dice) items scored, as
    :func:`best_plays_batch` returns them.

    Parameters
    ----------
    offsets : numpy.ndarray
        ``int64[N + 1]``: item ``i``'s plays are rows
        ``offsets[i]:offsets[i + 1]``, in
        :func:`~bansugoroku_fast.generate_plays` order.
    children : numpy.ndarray
        ``int8[M, 2, 26]``: the position after each play.
    probabilities : numpy.ndarray
        ``float64[M, 5]``: the mover's outcome probabilities after each.
    equity : numpy.ndarray
        ``float64[M]``: the mover's cubeless equity after each.
    ply : numpy.ndarray
        ``int8[M]``: the plies each was scored at.
    ranks : numpy.ndarray
        ``int64[M]``: 0 for the best play of its item, 1 for the next...
        (deeper plays first, then greater equity, then the earlier play).

    Examples
    --------
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> net = NetEvaluator.random("backgammon", hidden=(8,))
    >>> scored = best_plays_batch(Position.initial().array[None], (6, 5), "backgammon", net)
    >>> sorted(scored.ranks.tolist()) == list(range(7)), int(scored.ranks[scored.best()[0]])
    (True, 0)
    """

    offsets: np.ndarray
    children: np.ndarray
    probabilities: np.ndarray
    equity: np.ndarray
    ply: np.ndarray
    ranks: np.ndarray

    def best(self) -> np.ndarray:
        """``int64[N]``: the index of each item's best play within its plays (-1 for none)."""
        best: np.ndarray = segment_argmax(-self.ranks.astype(np.float64), self.offsets)
        return best


ScoredPlays.offsets.__doc__ = "``int64[N + 1]``: item ``i``'s plays are rows ``offsets[i]:offsets[i + 1]``."
ScoredPlays.children.__doc__ = "``int8[M, 2, 26]``: the position after each play, row 0 the side that played."
ScoredPlays.probabilities.__doc__ = "``float64[M, 5]``: the mover's outcome probabilities after each play."
ScoredPlays.equity.__doc__ = "``float64[M]``: the mover's cubeless equity after each play."
ScoredPlays.ply.__doc__ = "``int8[M]``: the plies each play was scored at."
ScoredPlays.ranks.__doc__ = (
    "``int64[M]``: 0 for the best play of its item, 1 for the next... (deeper plays first, then greater equity, "
    "then the earlier play)."
)


# --- values at n plies ----------------------------------------------------------------------


def _scores(positions: np.ndarray, rules: Rules, evaluator: Evaluator, threads: int) -> np.ndarray:
    """``float64[N, 5]``: :func:`evaluate_valid` in chunks (bounded memory)."""
    out = np.empty((len(positions), OUTPUTS), dtype=np.float64)
    for start in range(0, len(positions), EVALUATE_CHUNK):
        chunk = positions[start:start + EVALUATE_CHUNK]
        out[start:start + EVALUATE_CHUNK] = evaluate_valid(chunk, rules, evaluator, threads)
    return out


def swap_sides(positions: np.ndarray) -> np.ndarray:
    """The same positions seen by the other side (rows exchanged)."""
    return np.ascontiguousarray(positions[:, ::-1, :])


def best_replies(positions: np.ndarray, rules: Rules, evaluator: Evaluator,
                 threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """For each unfinished position (seen by the side that has just moved)
    and each roll of :data:`ROLL_DICE` of the other side: ``int8[K * 21, 2,
    26]``, the position its best reply by 0-ply equity reaches, seen by that
    other side (the position itself, swapped, when the roll passes), and
    ``float64[K * 21, 5]``, that position's 0-ply value (scored once: the
    replies' values are among their children's). A NetEvaluator whose
    hidden layers fit the kernels runs it there: each reply chosen as the
    game loop's ``"net"`` policy chooses, and valued as it was chosen, from
    its parent's first-layer sums (only float32 rounding differs from
    :func:`evaluate`)."""
    if isinstance(evaluator, NetEvaluator) and kernel_arrays.fits(evaluator.layer_sizes):
        chosen, chosen_scores = kernel_arrays.best_replies(evaluator.native_model(), swap_sides(positions),
                                                           ROLL_DICE, rules.code, threads)
        return chosen, chosen_scores.astype(np.float64)
    parents = np.repeat(swap_sides(positions), len(ROLL_DICE), axis=0)
    dice = np.tile(ROLL_DICE, (len(positions), 1))
    plays = generate_plays(parents, dice, rules, threads=threads, fields=("children",))
    scores = _scores(plays.children, rules, evaluator, threads)
    choices = segment_argmax(equity(scores), plays.offsets)
    replies: np.ndarray = parents.copy()
    values = np.empty((len(parents), OUTPUTS))
    moved = choices >= 0
    chosen = plays.offsets[:-1][moved] + choices[moved]
    replies[moved] = plays.children[chosen]
    values[moved] = scores[chosen]
    values[~moved] = _scores(parents[~moved], rules, evaluator, threads)
    return replies, values


def ply_values(positions: np.ndarray, rules: Rules, evaluator: Evaluator, ply: int, threads: int = 1) -> np.ndarray:
    """``float64[K, 5]``: the value at ``ply`` plies (see the module) of
    each checked position, seen by the side that has just moved."""
    if ply == 0:
        return _scores(positions, rules, evaluator, threads)
    out = np.empty((len(positions), OUTPUTS), dtype=np.float64)
    ends = outcome(positions, rules)
    over = ends.winner >= 0
    out[over] = outcome_probabilities(ends.winner[over], ends.value[over])
    live = np.flatnonzero(~over)
    for start in range(0, len(live), CHUNK):
        items = live[start:start + CHUNK]
        replies, theirs = best_replies(positions[items], rules, evaluator, threads)
        if ply > 1:
            theirs = ply_values(replies, rules, evaluator, ply - 1, threads)
        ours = flip(theirs).reshape(len(items), len(ROLL_DICE), OUTPUTS)
        out[items] = np.einsum("kro,r->ko", ours, ROLL_WEIGHTS) / ROLL_WEIGHTS.sum()
    return out


def values_on_roll(positions: np.ndarray, rules: Rules, evaluator: Evaluator, ply: int,
                   threads: int = 1) -> np.ndarray:
    """``float64[K, 5]``: each checked position's value at ``ply`` plies
    for row 0, the side on roll before its roll: the value of the position
    seen by the other side, flipped (at 1 ply and more, the mean over row
    0's rolls of its best play's value)."""
    return flip(ply_values(swap_sides(positions), rules, evaluator, ply, threads))


def evaluate_position(position: PositionLike, rules: RulesLike, evaluator: EvaluatorLike = "net", ply: int = 0, *,
                      threads: int | None = 1) -> np.ndarray:
    """The outcome probabilities of the side on roll (row 0), before its
    roll, as GNU Backgammon's ``eval`` gives them.

    :func:`~bansugoroku_fast.evaluators.evaluate` scores children instead,
    for the side that has just moved. At 1 ply and more the value is the
    mean over row 0's rolls of its best play's value.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 on roll and not yet rolled.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes the default rules (Ban-sugoroku) and
        warns (:class:`~bansugoroku_fast.errors.AssumedRulesWarning`).
    evaluator : ~bansugoroku_fast.evaluators.EvaluatorLike
        A :class:`NetEvaluator`, a callable ``positions -> float[N, 5]``
        (its output is checked) or ``"net"``, the shipped network of
        ``rules``.
    ply : int
        The search depth: 0, 1 or 2.
    threads : int or None
        The threads of a NetEvaluator (None: every core).

    Returns
    -------
    numpy.ndarray
        ``float64[5]``: P(win), P(win 2+), P(win 3), P(lose 2+), P(lose 3)
        for row 0; a finished position's are exact.

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules.
    InvalidRulesError
        The rules are not a rule set.
    InvalidEvaluatorError
        ``evaluator`` is not an evaluator (an unknown name, a network of
        other rules; ``ArgumentTypeError`` for a value of another type).
    EvaluatorOutputError
        A callable's output is not five probabilities per position.
    InvalidArgumentError
        ``ply`` is not 0, 1 or 2, or ``threads`` is not a thread count.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> p = evaluate_position(Position.initial(), "backgammon", "net")
    >>> p.shape, bool(0.45 < p[0] < 0.56)       # the side on roll is a little ahead
    ((5,), True)
    """
    rules = as_rules(scoring_rules(rules, "evaluate_position"))
    evaluator = resolve_evaluator(evaluator, rules)
    position = as_position(position)
    check_position_for_rules(position, rules)
    values: np.ndarray = values_on_roll(position.array[None], rules, evaluator, as_ply(ply), as_threads(threads))[0]
    return values


# --- ranking the plays of a roll ---------------------------------------------------------------


def _kept(equities: np.ndarray, offsets: np.ndarray, move_filter: MoveFilter | None) -> np.ndarray:
    """``bool[M]``: the plays ``move_filter`` keeps within each item (all with None)."""
    if move_filter is None:
        return np.ones(len(equities), dtype=bool)
    counts = np.diff(offsets)
    item = np.repeat(np.arange(len(counts)), counts)
    order = np.lexsort((np.arange(len(equities)), -equities, item))    # by item, best first
    rank = np.empty(len(equities), dtype=np.int64)
    rank[order] = np.arange(len(equities)) - np.repeat(offsets[:-1], counts)
    best = np.full(len(counts), -np.inf)
    np.maximum.at(best, item, equities)
    return (rank < move_filter.keep) & (equities >= best[item] - move_filter.margin)


def _ranks(equities: np.ndarray, plies: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Each play's rank within its item: deeper first, then greater equity, then earlier."""
    counts = np.diff(offsets)
    item = np.repeat(np.arange(len(counts)), counts)
    order = np.lexsort((np.arange(len(equities)), -equities, -plies.astype(np.int64), item))
    ranks = np.empty(len(equities), dtype=np.int64)
    ranks[order] = np.arange(len(equities)) - np.repeat(offsets[:-1], counts)
    return ranks


def as_ply(ply: object) -> int:
    """``ply`` checked: 0, 1 or 2 (an integer, not a bool).

    >>> as_ply(3)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: ply must be 0, 1 or 2, got 3
    """
    if isinstance(ply, bool) or not isinstance(ply, numbers.Integral) or not 0 <= int(ply) <= MAX_PLY:
        raise InvalidArgumentError(f"ply must be 0, 1 or 2, got {ply!r}")
    return int(ply)


def _move_filter(move_filter: object) -> MoveFilter | None:
    if move_filter is not None and not isinstance(move_filter, MoveFilter):
        raise ArgumentTypeError(f"move_filter must be a MoveFilter or None, got {type(move_filter).__name__}")
    return move_filter


def score_children(offsets: np.ndarray, children: np.ndarray, rules: Rules, evaluator: Evaluator, ply: int,
                   move_filter: MoveFilter | None, threads: int = 1,
                   parents: np.ndarray | None = None) -> ScoredPlays:
    """:class:`ScoredPlays` of checked candidate children grouped by
    ``offsets``; given their ``parents`` (the children being their plays),
    a network scores them at 0 ply from each parent's first layer
    (:func:`~.scoring.evaluate_plays`)."""
    if parents is None:
        probabilities = _scores(children, rules, evaluator, threads)
    else:
        probabilities = evaluate_plays(parents, offsets, children, rules, evaluator, threads).astype(np.float64)
    equities = equity(probabilities)
    plies = np.zeros(len(children), dtype=np.int8)
    if ply > 0:
        deeper = np.flatnonzero(_kept(equities, offsets, move_filter))
        probabilities[deeper] = ply_values(children[deeper], rules, evaluator, ply, threads)
        equities[deeper] = equity(probabilities[deeper])
        plies[deeper] = ply
    return ScoredPlays(offsets, children, probabilities, equities, plies, _ranks(equities, plies, offsets))


def best_plays_batch(positions: BatchLike, dice: BatchLike, rules: RulesLike, evaluator: EvaluatorLike = "net",
                     ply: int = 0, *, move_filter: MoveFilter | None = DEFAULT_FILTER,
                     threads: int | None = None) -> ScoredPlays:
    """Every legal play of each (position, roll) item scored at ``ply``
    plies (see the module).

    The batch form of :func:`best_plays`: one call scores the plays of many
    items, in the items' order.

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2, 26]``, row 0 of each to play.
    dice : ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2]``, a roll per item, or one roll for all.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes Ban-sugoroku's defaults and warns
        (:class:`~bansugoroku_fast.errors.AssumedRulesWarning`).
    evaluator : ~bansugoroku_fast.evaluators.EvaluatorLike
        A :class:`NetEvaluator`, a callable ``positions -> float[N, 5]`` (its
        output is checked) or ``"net"``, the shipped network of ``rules``.
    ply : int
        The search depth: 0, 1 or 2.
    move_filter : MoveFilter or None
        Which plays of each item go on to the deeper plies (None: all).
    threads : int or None
        Threads that generate the plays and run a NetEvaluator (None: every
        core); the results do not depend on them.

    Returns
    -------
    ScoredPlays
        The children of every item (``offsets`` delimit each item's), their
        probabilities, equities, the ply each was scored at and their ranks
        within the item.

    Raises
    ------
    InvalidPositionError
        The positions are not an ``(N, 2, 26)`` integer array, or an item is
        not a position of the rules (named by its index).
    InvalidDiceError
        A roll is not two integers in 1..6, or the dice do not match the
        positions' count.
    InvalidRulesError
        The rules are not a rule set.
    InvalidEvaluatorError
        ``evaluator`` is not an evaluator (an unknown name, a network of
        other rules; ``ArgumentTypeError`` for a value of another type).
    EvaluatorOutputError
        A callable's output is not five probabilities per position.
    InvalidArgumentError
        ``ply`` is not 0, 1 or 2, ``threads`` not a thread count
        (``ArgumentTypeError`` for a ``move_filter`` that is not one).

    Examples
    --------
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> net = NetEvaluator.random("backgammon", hidden=(8,))
    >>> starts = np.stack([Position.initial().array] * 2)
    >>> scored = best_plays_batch(starts, [[6, 5], [1, 1]], "backgammon", net)
    >>> scored.offsets.tolist(), scored.best().shape
    ([0, 7, 49], (2,))
    """
    rules = as_rules(scoring_rules(rules, "best_plays_batch"))
    evaluator = resolve_evaluator(evaluator, rules)
    ply, move_filter, threads = as_ply(ply), _move_filter(move_filter), as_threads(threads)
    plays = generate_plays(positions, dice, rules, threads=threads, fields=("children",))
    return score_children(plays.offsets, plays.children, rules, evaluator, ply, move_filter, threads,
                          parents=checked_positions(positions, rules))


def best_plays(position: PositionLike, dice: DiceLike, rules: RulesLike, evaluator: EvaluatorLike = "net",
               ply: int = 0, *, move_filter: MoveFilter | None = DEFAULT_FILTER,
               threads: int | None = 1) -> list[ScoredPlay]:
    """Every legal play of ``position`` (row 0 to play) with ``dice``,
    best first, scored at ``ply`` plies (see the module).

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to play.
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes the default rules and warns, as in
        :func:`~bansugoroku_fast.evaluators.evaluate`.
    evaluator : ~bansugoroku_fast.evaluators.EvaluatorLike
        What scores the positions: a :class:`NetEvaluator`, a callable or
        ``"net"``, the shipped network.
    ply : int
        0 (each play's position scored), 1 (the other side's 21 rolls,
        each answered by its best reply at 0 ply) or 2.
    move_filter : MoveFilter or None
        Which plays a search takes deeper than 0 plies: by default GNU
        Backgammon's, the 8 best by 0-ply equity within 0.16 of the best;
        None, every play.
    threads : int or None
        As in :func:`best_plays_batch` (None: every core); the results do
        not depend on it.

    Returns
    -------
    list of ScoredPlay
        Each play with its equity, its five probabilities and the ply it
        was scored at, best first; empty for a pass or a finished game.

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules.
    InvalidDiceError
        The dice are not a roll.
    InvalidArgumentError
        ``ply`` is not 0, 1 or 2.
    InvalidEvaluatorError
        ``evaluator`` is not an evaluator of these rules.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> net = NetEvaluator.random("backgammon", hidden=(8,))
    >>> best = best_plays(Position.initial(), (6, 5), "backgammon", net)[0]
    >>> best.ply, len(best.probabilities)
    (0, 5)
    """
    rules = as_rules(scoring_rules(rules, "best_plays"))
    evaluator = resolve_evaluator(evaluator, rules)
    position = as_position(position)
    check_position_for_rules(position, rules)
    dice = as_dice(dice)
    ply, move_filter, threads = as_ply(ply), _move_filter(move_filter), as_threads(threads)
    plays = legal_plays(position, dice, rules)
    if not plays:
        return []
    children = np.stack([play.position.array for play in plays])
    offsets = np.array([0, len(plays)], dtype=np.int64)
    scored = score_children(offsets, children, rules, evaluator, ply, move_filter, threads,
                            parents=position.array[None])
    order = np.argsort(scored.ranks, kind="stable")
    return [ScoredPlay(plays[i], float(scored.equity[i]),
                       tuple(float(p) for p in scored.probabilities[i]),  # type: ignore[arg-type]
                       int(scored.ply[i]))
            for i in order.tolist()]


# --- judging a rollout's games ----------------------------------------------------------------


class RolloutJudge:
    """What a rollout played by an :class:`EvaluatorPolicy` asks of its
    evaluator (at 0 ply, whatever the policy's ply), for boards seen by the
    side to roll (row 0), as ``float64[N, 2, 4]`` result shares, row 0 =
    that side (:func:`~.scoring.result_shares`):

    * :meth:`value`: where a truncated rollout stops a game, its value;
    * :meth:`luck`: the luck of a roll, GNU Backgammon's variance
      reduction: the value after the best play of the roll (by 0-ply
      equity; the position itself when the roll has no play) minus its
      mean over the 21 rolls (weights 1/36 and 2/36). Its mean over the
      rolls is 0, so subtracting every roll's luck from a game's result
      leaves the rollout's expected figures as they are and takes out the
      dice's share of their spread.

    Parameters
    ----------
    evaluator : ~bansugoroku_fast.typing.EvaluatorLike
        The evaluator of the rollout's policy.
    rules : Rules
        The rules of the games.
    threads : int
        The threads of a NetEvaluator.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> judge = RolloutJudge(NetEvaluator.random("backgammon", hidden=(8,)), as_rules("backgammon"))
    >>> boards = Position.initial().array[None]
    >>> luck = np.stack([judge.luck(boards, np.array([roll], np.int8))[0] for roll in ROLL_DICE])
    >>> bool(abs(np.einsum("r,rsv->sv", ROLL_WEIGHTS, luck)).max() < 1e-12)    # no luck on average
    True
    """

    def __init__(self, evaluator: EvaluatorLike, rules: Rules, threads: int = 1) -> None:
        self.evaluator, self.rules, self.threads = resolve_evaluator(evaluator, rules), rules, threads

    def value(self, boards: np.ndarray) -> np.ndarray:
        """Each board's result shares for the side to roll."""
        theirs = _scores(swap_sides(boards), self.rules, self.evaluator, self.threads)  # the side that moved
        shares: np.ndarray = result_shares(flip(theirs))
        return shares

    def luck(self, boards: np.ndarray, dice: np.ndarray) -> np.ndarray:
        """The luck of rolling ``dice[i]`` (``int8[N, 2]``) on ``boards[i]``."""
        _, replies = best_replies(swap_sides(boards), self.rules, self.evaluator, self.threads)
        values = result_shares(replies).reshape(len(boards), len(ROLL_DICE), 2, 4)
        mean = np.einsum("r,krsv->ksv", ROLL_WEIGHTS, values) / ROLL_WEIGHTS.sum()
        luck: np.ndarray = values[np.arange(len(boards)), roll_index(dice)] - mean
        return luck


def roll_index(dice: np.ndarray) -> np.ndarray:
    """``int64[N]``: the index in :data:`ROLL_DICE` of each roll (either order).

    >>> roll_index(np.array([[6, 6], [1, 2], [2, 1], [1, 1]])).tolist()
    [0, 19, 19, 20]
    """
    high, low = np.max(dice, axis=1).astype(np.int64), np.min(dice, axis=1).astype(np.int64)
    # ROLL_DICE lists (high, low) by high falling, then low falling: 6-high rolls first
    before = (6 - high) * (6 + 1 + high) // 2
    index: np.ndarray = before + (high - low)
    return index


# --- a policy -------------------------------------------------------------------------------------


class EvaluatorPolicy:
    """A policy that plays the best play by ``evaluator`` at ``ply`` plies,
    for ``play_games``, ``rollout``, ``rank_plays`` and :class:`~bansugoroku_fast.GameBatch`
    (a callable policy: ``policy(children, offsets)`` -> one choice per
    game, scored for the whole wave at once). ``rules``: those of the games
    (a NetEvaluator's own by default; required for a Python evaluator);
    ``threads``: the searches' (None: every core).

    Parameters
    ----------
    evaluator : ~bansugoroku_fast.typing.EvaluatorLike
        What scores the children.
    ply : int
        The search depth: 0, 1 or 2.
    rules : ~bansugoroku_fast.typing.RulesLike
        Those of the games (a NetEvaluator's own by default; required for a
        Python evaluator).
    move_filter : MoveFilter or None
        Which plays go on to the deeper plies (None: all).
    threads : int or None
        The searches' threads (None: every core).

    Examples
    --------
    >>> from bansugoroku_fast import play_games
    >>> net = NetEvaluator.random("backgammon", hidden=(8,))
    >>> records = play_games("backgammon", 2, policy=EvaluatorPolicy(net), seed=1)
    >>> records.winner.shape
    (2,)
    """

    def __init__(self, evaluator: EvaluatorLike, ply: int = 0, *, rules: RulesLike = None,
                 move_filter: MoveFilter | None = DEFAULT_FILTER, threads: int | None = 1) -> None:
        if rules is None:
            if not isinstance(evaluator, NetEvaluator):
                raise ArgumentTypeError(
                    "EvaluatorPolicy needs rules= for a Python evaluator or a name (a NetEvaluator has its own)")
            rules = evaluator.rules
        self.rules = as_rules(rules)
        self.evaluator = resolve_evaluator(evaluator, self.rules)
        self.ply = as_ply(ply)
        self.move_filter = _move_filter(move_filter)
        self.threads = as_threads(threads)

    @property
    def kernel_network(self) -> NetEvaluator | None:
        """The network the kernels' game loop plays this policy by (a
        NetEvaluator at 0 ply: ``play_games`` and ``rollout`` then run it
        there, without coming back to Python), else None (played in
        lockstep, this object called once per wave).

        >>> net = NetEvaluator.random("backgammon", hidden=(8,))
        >>> EvaluatorPolicy(net).kernel_network is net, EvaluatorPolicy(net, ply=1).kernel_network
        (True, None)
        """
        if self.ply == 0 and isinstance(self.evaluator, NetEvaluator):
            return self.evaluator
        return None

    def __call__(self, children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """``int64[N]``: the index of the best child of each game."""
        children = checked_positions(children, self.rules)
        offsets = np.asarray(offsets, dtype=np.int64)
        if self.ply == 0 and isinstance(self.evaluator, NetEvaluator):    # one kernel call chooses
            return self.evaluator.best_children(children, offsets)
        scored = score_children(offsets, children, self.rules, self.evaluator, self.ply, self.move_filter,
                                self.threads)
        return scored.best()

    def rollout_judge(self, rules: Rules, threads: int = 1) -> RolloutJudge:
        """The :class:`RolloutJudge` of this policy's evaluator, for a
        rollout of ``rules`` (a rules mismatch is refused here, before any
        game)."""
        return RolloutJudge(self.evaluator, rules, threads)

    def __repr__(self) -> str:
        return f"EvaluatorPolicy({self.evaluator!r}, ply={self.ply})"



def net_policy(rules: Any, ply: int = 0) -> EvaluatorPolicy:
    """The network shipped for ``rules``, greedy at ``ply`` plies: the
    policies named ``"net"`` (0 ply, played in the kernels' game loop) and
    ``"net1"`` (1 ply) (:data:`~bansugoroku_fast.games.policies.POLICIES`).

    >>> net_policy("backgammon").ply, net_policy("backgammon", ply=1).kernel_network
    (0, None)
    """
    return EvaluatorPolicy("net", ply=ply, rules=as_rules(rules))
