"""Training evaluator networks: by TD(λ) self-play (:mod:`.td`) or on
rollouts, round after round (:mod:`.rollouts`); both fit the class that
plays, :class:`~bansugoroku_fast.evaluators.NetEvaluator`'s layers
(:mod:`.fitting`).

``python -m bansugoroku_fast.train td --rules backgammon --games 200000 --seed 1 --out bg.npz``
(``td`` may be left out) and
``python -m bansugoroku_fast.train rollouts --rules backgammon --seed 1 --folder runs/bg --rounds 20``;
``docs/guides/training.md`` explains both.
"""
from .cli import main
from .rollouts import (
    ROUNDS_VERSION,
    TARGETS,
    RoundsConfig,
    RoundsRun,
    chunk_targets,
    plot_rounds,
    train_on_rollouts,
)
from .td import (
    BAN_COMBINATIONS,
    CHECKPOINT_VERSION,
    EVERY_BAN,
    RULE_INPUTS,
    TrainingConfig,
    TrainingRun,
    checkpoint_path,
    lambda_returns,
    opponents,
    plot_curve,
    rule_inputs,
    specialised,
    train,
    train_every_ban,
    with_rule_inputs,
)

__all__ = [
    "BAN_COMBINATIONS",
    "CHECKPOINT_VERSION",
    "EVERY_BAN",
    "ROUNDS_VERSION",
    "RULE_INPUTS",
    "TARGETS",
    "RoundsConfig",
    "RoundsRun",
    "TrainingConfig",
    "TrainingRun",
    "checkpoint_path",
    "chunk_targets",
    "lambda_returns",
    "main",
    "opponents",
    "plot_curve",
    "plot_rounds",
    "rule_inputs",
    "specialised",
    "train",
    "train_every_ban",
    "train_on_rollouts",
    "with_rule_inputs",
]
