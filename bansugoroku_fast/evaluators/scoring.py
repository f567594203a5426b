"""Scoring batches of positions with an evaluator.

An *evaluator* is a :class:`~.network.NetEvaluator` or any Python callable
``evaluator(positions) -> float[N, 5]`` over ``int8[N, 2, 26]`` positions
seen by the side that has just moved (row 0; row 1 rolls next), returning
that side's P(win), P(win 2+), P(win 3), P(lose 2+), P(lose 3): GNU
Backgammon's cumulative order. A callable's output is checked
(:func:`check_output`): the wrong shape, NaN, values outside [0, 1] or
cumulative probabilities out of order raise
:class:`~bansugoroku_fast.errors.EvaluatorOutputError` naming the first
position at fault.

Finished positions are never shown to the evaluator: :func:`evaluate` scores
them exactly from :func:`~bansugoroku_fast.batch.outcome` (a win worth ``v``
sets P(win) and the slots of values up to ``v``).

>>> from bansugoroku_fast import Position
>>> equity(np.array([[0.5, 0.1, 0.0, 0.1, 0.0]]))
array([0.])
>>> evaluate(Position.initial().array[None], "backgammon", lambda p: np.tile([0.4, 0.6, 0, 0, 0], (len(p), 1)))
Traceback (most recent call last):
...
bansugoroku_fast.errors.EvaluatorOutputError: the evaluator's output for position 0 is out of order: P(win 2+) = 0.6 ...
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..batch import outcome
from ..checks import as_rules, scoring_rules
from ..errors import (
    ArgumentTypeError,
    EvaluatorOutputError,
    EvaluatorOutputTypeError,
    InvalidArgumentError,
    InvalidEvaluatorError,
)
from ..rules import Rules
from ..typing import BatchLike, EvaluatorLike, RulesLike
from . import kernel_arrays
from .encoding import checked_positions
from .network import OUTPUTS, NetEvaluator, as_threads, consistent, in_blocks, probability_rows

__all__ = ["EVALUATOR_NAMES", "ORDER_TOLERANCE", "OUTCOME_NAMES", "Evaluator", "EvaluatorLike", "check_output",
           "equity", "evaluate", "flip", "outcome_probabilities", "resolve_evaluator", "result_shares"]

#: A Python evaluator: ``int8[N, 2, 26]`` positions -> ``float[N, 5]``.
Evaluator = NetEvaluator | Callable[[np.ndarray], Any]
#: The five outputs, in order.
OUTCOME_NAMES = ("P(win)", "P(win 2+)", "P(win 3)", "P(lose 2+)", "P(lose 3)")
#: How far a callable's cumulative probabilities may break their order (float rounding) before it is an error.
ORDER_TOLERANCE = 1e-6


def equity(probabilities: np.ndarray) -> np.ndarray:
    """The mean points per game of rows of five outcome probabilities:
    ``2 P(win) - 1 + P(w2+) - P(l2+) + P(w3) - P(l3)``.

    Parameters
    ----------
    probabilities : numpy.ndarray
        ``float[N, 5]``: P(win), P(win 2+), P(win 3), P(lose 2+), P(lose 3)
        of each position (anything numpy reads as such).

    Returns
    -------
    numpy.ndarray
        ``float[N]``, the cubeless equities, in the dtype of the input.

    Raises
    ------
    InvalidArgumentError
        Not of shape ``(N, 5)`` (``ArgumentTypeError`` for values that are
        not real numbers).

    Examples
    --------
    A certain gammon is worth 2, an even game without gammons 0:

    >>> equity(np.array([[1.0, 1.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0, 0.0]])).tolist()
    [2.0, 0.0]
    """
    p = probability_rows(probabilities)
    result: np.ndarray = 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
    return result


def flip(probabilities: np.ndarray) -> np.ndarray:
    """The same outcomes seen by the other side: P(win) becomes 1 - P(win),
    its wins' slots take the losses' and the other way round.

    Parameters
    ----------
    probabilities : numpy.ndarray
        ``float[N, 5]``: P(win), P(win 2+), P(win 3), P(lose 2+), P(lose 3)
        of each position.

    Returns
    -------
    numpy.ndarray
        A new ``float[N, 5]`` array, in the dtype of the input.

    Raises
    ------
    InvalidArgumentError
        Not of shape ``(N, 5)`` (``ArgumentTypeError`` for values that are
        not real numbers).

    Examples
    --------
    >>> flip(np.array([[0.75, 0.5, 0.25, 0.125, 0.0]])).tolist()
    [[0.25, 0.125, 0.0, 0.5, 0.25]]
    """
    p = probability_rows(probabilities)
    out = np.empty_like(p)
    out[:, 0] = 1 - p[:, 0]
    out[:, 1], out[:, 2] = p[:, 3], p[:, 4]
    out[:, 3], out[:, 4] = p[:, 1], p[:, 2]
    return out


def outcome_probabilities(winner: np.ndarray, value: np.ndarray) -> np.ndarray:
    """The five outcome probabilities of finished games, from row 0's side:
    each 0 or 1.

    Parameters
    ----------
    winner : numpy.ndarray
        ``int[N]``: 0 when row 0 has won, 1 when row 1 has.
    value : numpy.ndarray
        ``int[N]``: the win's value, 1, 2 or 3.

    Returns
    -------
    numpy.ndarray
        ``float32[N, 5]``: P(win), P(win 2+), P(win 3), P(lose 2+),
        P(lose 3).

    Raises
    ------
    InvalidArgumentError
        The arrays differ in length or are not one-dimensional, or a winner
        is not 0 or 1 or a value not 1, 2 or 3 (the first such game named).

    Examples
    --------
    >>> outcome_probabilities(np.array([0, 1]), np.array([2, 3])).tolist()
    [[1.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 1.0]]
    """
    winners, values = np.asarray(winner), np.asarray(value)
    if winners.ndim != 1 or winners.shape != values.shape:
        raise InvalidArgumentError(f"winner and value must be two arrays of the same length N, got shapes "
                                   f"{winners.shape} and {values.shape}")
    wrong = np.flatnonzero(~np.isin(winners, (0, 1)) | ~np.isin(values, (1, 2, 3)))
    if len(wrong):
        first = int(wrong[0])
        raise InvalidArgumentError(f"game {first}: a finished game's winner is 0 or 1 and its value 1, 2 or 3, "
                                   f"got winner {winners[first]} and value {values[first]}")
    won = (winners == 0)[:, None]
    slots = values[:, None] >= np.array([1, 2, 3])[None, :]
    out = np.zeros((len(won), OUTPUTS), dtype=np.float32)
    out[:, :3] = slots & won
    out[:, 3:] = slots[:, 1:] & ~won
    return out


def result_shares(probabilities: np.ndarray) -> np.ndarray:
    """``float64[..., 2, 4]``: the chance of each ``[row, value]`` result
    (column 0 unused), a rollout's tally layout, from five cumulative
    probabilities of row 0 (``[..., 5]``): exactly one result happens, so
    the shares sum to 1 and P(win) is row 0's three shares.

    >>> result_shares(np.array([0.75, 0.5, 0.25, 0.125, 0.0])).tolist()
    [[0.0, 0.25, 0.25, 0.25], [0.0, 0.125, 0.125, 0.0]]
    """
    p = np.asarray(probabilities, dtype=np.float64)
    out = np.zeros(p.shape[:-1] + (2, 4))
    out[..., 0, 1], out[..., 0, 2], out[..., 0, 3] = p[..., 0] - p[..., 1], p[..., 1] - p[..., 2], p[..., 2]
    out[..., 1, 1], out[..., 1, 2], out[..., 1, 3] = 1 - p[..., 0] - p[..., 3], p[..., 3] - p[..., 4], p[..., 4]
    return out


def check_output(output: Any, count: int) -> np.ndarray:
    """What a Python evaluator returned for ``count`` positions, checked.

    Rounding within :data:`ORDER_TOLERANCE` of the cumulative order is let
    through, and the result is then made exactly consistent.

    Parameters
    ----------
    output : numpy.typing.ArrayLike
        What the evaluator returned: anything numpy reads as ``float[count,
        5]``.
    count : int
        How many positions it was given.

    Returns
    -------
    numpy.ndarray
        ``float32[count, 5]``, consistent probabilities.

    Raises
    ------
    EvaluatorOutputError
        Not ``count`` rows of five, not rectangular, NaN or infinite, outside
        [0, 1], or cumulative probabilities out of order (the first position
        at fault named).
    EvaluatorOutputTypeError
        Values that are not real numbers (strings, booleans, objects).

    Examples
    --------
    >>> check_output([[0.5, 0.2, 0.1, 0.2, 0.1]], 1).dtype
    dtype('float32')
    >>> check_output(np.zeros((2, 4)), 2)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.EvaluatorOutputError: an evaluator returns five probabilities per position: ...
    """
    try:
        values = np.asarray(output)
    except ValueError as error:
        raise EvaluatorOutputError(f"the evaluator's output is not a rectangular array: {error}") from None
    if values.dtype.kind not in "fiu" or values.dtype == np.bool_:
        raise EvaluatorOutputTypeError(
            f"an evaluator returns real numbers (float[N, 5]), got dtype {values.dtype}"
        )
    if values.shape != (count, OUTPUTS):
        raise EvaluatorOutputError(
            f"an evaluator returns five probabilities per position: {count} positions, got shape {values.shape}"
        )
    values = values.astype(np.float64)
    _refuse(~np.isfinite(values), values, "is not a finite number")
    _refuse((values < 0) | (values > 1), values, "is outside [0, 1]")
    bounds = np.stack([values[:, 0], values[:, 1], 1 - values[:, 0], values[:, 3]], axis=1)
    excess = values[:, [1, 2, 3, 4]] - bounds
    bad = excess > ORDER_TOLERANCE
    if bad.any():
        row, column = (int(i) for i in np.argwhere(bad)[0])
        bound_names = ("P(win)", "P(win 2+)", "P(lose) = 1 - P(win)", "P(lose 2+)")
        raise EvaluatorOutputError(
            f"the evaluator's output for position {row} is out of order: {OUTCOME_NAMES[column + 1]} = "
            f"{values[row, column + 1]:.6g} exceeds {bound_names[column]} = {bounds[row, column]:.6g} "
            f"by more than {ORDER_TOLERANCE:g}"
        )
    return consistent(values.astype(np.float32))


def _refuse(bad: np.ndarray, values: np.ndarray, what: str) -> None:
    if bad.any():
        row, column = (int(i) for i in np.argwhere(bad)[0])
        name, value = OUTCOME_NAMES[column], float(values[row, column])
        raise EvaluatorOutputError(f"the evaluator's output for position {row}: {name} = {value!r} {what}")


#: The evaluators known by name: ``"net"``, the network shipped for the rules.
EVALUATOR_NAMES = ("net",)


def resolve_evaluator(evaluator: object, rules: Rules) -> Evaluator:
    """The evaluator ``evaluator`` stands for, checked for ``rules``: a
    name of :data:`EVALUATOR_NAMES` (``"net"``: :meth:`NetEvaluator.shipped`
    for ``rules``), a NetEvaluator trained for ``rules``, or a callable.

    >>> resolve_evaluator("net", as_rules("backgammon")) is NetEvaluator.shipped("backgammon")
    True
    >>> resolve_evaluator("gnubg", as_rules("backgammon"))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidEvaluatorError: unknown evaluator name 'gnubg': the names are 'net'
    """
    if isinstance(evaluator, str):
        if evaluator not in EVALUATOR_NAMES:
            names = ", ".join(repr(name) for name in EVALUATOR_NAMES)
            raise InvalidEvaluatorError(f"unknown evaluator name {evaluator!r}: the names are {names}")
        return NetEvaluator.shipped(rules)
    if isinstance(evaluator, NetEvaluator):
        evaluator.check_rules(rules)
        return evaluator
    if not callable(evaluator):
        raise ArgumentTypeError(
            f"an evaluator is a NetEvaluator, a callable positions -> float[N, 5] or the name "
            f"\"net\", got {type(evaluator).__name__}"
        )
    return evaluator


def evaluate(positions: BatchLike, rules: RulesLike, evaluator: EvaluatorLike = "net", *,
             threads: int | None = 1) -> np.ndarray:
    """Each position's outcome probabilities for row 0 (the side that has
    just moved).

    Finished positions are scored from their outcome, the others by
    ``evaluator``, called once, on those only.

    Parameters
    ----------
    positions : numpy.ndarray
        ``int8[N, 2, 26]`` positions (any array-like of them), checked
        first.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes the default rules (Ban-sugoroku) and
        warns (:class:`~bansugoroku_fast.errors.AssumedRulesWarning`).
    evaluator : ~bansugoroku_fast.evaluators.EvaluatorLike
        A :class:`NetEvaluator`, a callable ``positions -> float[N, 5]``
        (its output is checked) or ``"net"``, the shipped network of
        ``rules``.
    threads : int or None
        The threads of a NetEvaluator (None: every core); the figures do
        not depend on it.

    Returns
    -------
    numpy.ndarray
        ``float32[N, 5]``: P(win), P(win 2+), P(win 3), P(lose 2+),
        P(lose 3) for row 0 (2+: a gammon or a backgammon; 3: a
        backgammon).

    Raises
    ------
    InvalidPositionError
        A position is not one of the rules (the message names it).
    InvalidEvaluatorError
        ``evaluator`` is not an evaluator (an unknown name, a network of
        other rules).
    EvaluatorOutputError
        A callable's output is not five probabilities per position, in
        order.

    Examples
    --------
    >>> net = NetEvaluator.random("backgammon", hidden=(4,))
    >>> done = np.zeros((1, 2, 26), dtype=np.int8); done[0, 0, 0] = 15; done[0, 1, 1] = 15
    >>> evaluate(done, "backgammon", net).tolist()     # a gammon won by row 0
    [[1.0, 1.0, 0.0, 0.0, 0.0]]
    """
    rules = as_rules(scoring_rules(rules, "evaluate"))
    resolved = resolve_evaluator(evaluator, rules)
    array = checked_positions(positions, rules)
    return evaluate_valid(array, rules, resolved, as_threads(threads))


def evaluate_valid(positions: np.ndarray, rules: Rules, evaluator: Evaluator, threads: int = 1) -> np.ndarray:
    """:func:`evaluate` of checked arguments, in blocks
    (:func:`~.network.in_blocks`: the finished positions are set aside
    within each block, the copies staying in cache). A network's kernel
    gives the finished games their outcomes itself, in its one pass."""
    if isinstance(evaluator, NetEvaluator):
        model = evaluator.native_model()
        return in_blocks(lambda block: kernel_arrays.scores(model, block, rules.code, threads, outcomes=True),
                         positions)
    return in_blocks(lambda block: _evaluate_block(block, rules, evaluator, threads), positions)


def evaluate_plays(parents: np.ndarray, offsets: np.ndarray, children: np.ndarray, rules: Rules,
                   evaluator: Evaluator, threads: int = 1) -> np.ndarray:
    """:func:`evaluate_valid` of checked ``children``, ``offsets[i]:offsets[i
    + 1]`` being plays of checked parent ``i`` (row 0 to move): a network
    scores each from its parent's first layer, as the game kernels do (a
    few rows a child; only float32 rounding differs from a pass from
    scratch); any other evaluator sees the children alone."""
    if isinstance(evaluator, NetEvaluator):
        return kernel_arrays.children_scores(evaluator.native_model(), parents, offsets, children, rules.code,
                                             threads)
    return evaluate_valid(children, rules, evaluator, threads)


def _evaluate_block(positions: np.ndarray, rules: Rules, evaluator: Evaluator, threads: int) -> np.ndarray:
    ends = outcome(positions, rules)
    over = ends.winner >= 0
    if not over.any():      # the usual block: no copy of the positions
        return score_live(positions, evaluator, threads)
    out = np.empty((len(positions), OUTPUTS), dtype=np.float32)
    out[over] = outcome_probabilities(ends.winner[over], ends.value[over])
    live = ~over
    if live.any():
        out[live] = score_live(positions[live], evaluator, threads)
    return out


def score_live(positions: np.ndarray, evaluator: Evaluator, threads: int = 1) -> np.ndarray:
    """The evaluator's (checked, consistent) figures for unfinished positions."""
    if isinstance(evaluator, NetEvaluator):
        return evaluator.score_valid(positions, threads)
    return check_output(evaluator(positions), len(positions))
