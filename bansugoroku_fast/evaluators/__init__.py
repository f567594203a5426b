"""Evaluators: positions scored by neural networks (or any Python
callable), and plays ranked by them at 0, 1 or 2 plies.

* :mod:`~.encoding`: the networks' input encodings (``"raw198"``,
  ``"raw198+features"``);
* :mod:`~.network`: :class:`NetEvaluator` and its ``.npz`` file;
* :mod:`~.scoring`: :func:`evaluate` over a batch, the checks of a
  callable's output, equity.

>>> from bansugoroku_fast import Position
>>> net = NetEvaluator.random("backgammon", hidden=(8,))
>>> evaluate(Position.initial().array[None], "backgammon", net).shape
(1, 5)
"""
from .encoding import ENCODINGS, FEATURE_SCALES, encode
from .network import NetEvaluator, consistent
from .scoring import (
    EVALUATOR_NAMES,
    OUTCOME_NAMES,
    Evaluator,
    EvaluatorLike,
    check_output,
    equity,
    evaluate,
    flip,
    outcome_probabilities,
)
from .search import (
    DEFAULT_FILTER,
    EvaluatorPolicy,
    MoveFilter,
    RolloutJudge,
    ScoredPlay,
    ScoredPlays,
    best_plays,
    best_plays_batch,
    evaluate_position,
)

__all__ = [
    "DEFAULT_FILTER",
    "EVALUATOR_NAMES",
    "ENCODINGS",
    "EvaluatorPolicy",
    "MoveFilter",
    "RolloutJudge",
    "ScoredPlay",
    "ScoredPlays",
    "best_plays",
    "best_plays_batch",
    "evaluate_position",
    "FEATURE_SCALES",
    "OUTCOME_NAMES",
    "Evaluator",
    "EvaluatorLike",
    "NetEvaluator",
    "check_output",
    "consistent",
    "encode",
    "equity",
    "evaluate",
    "flip",
    "outcome_probabilities",
]
