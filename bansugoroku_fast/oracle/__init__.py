"""The rules written for reading: the pure-Python reference the kernels are
tested against.

Each submodule is one part of the specification in plain Python, with no
numpy and no kernel code (nothing here may import ``src/`` modules):

* :mod:`~bansugoroku_fast.oracle.moves`: legal plays, first steps, outcomes,
  the rule queries and perft of one position;
* :mod:`~bansugoroku_fast.oracle.features`: the features of a position;
* :mod:`~bansugoroku_fast.oracle.games`: whole games: the counter-based dice,
  the policies, ``play_games``, ``rollout``, ``rank_plays``;
* :mod:`~bansugoroku_fast.oracle.evaluators`: the networks' encodings and
  float64 forward pass, plays ranked at 0 and 1 ply.

>>> from bansugoroku_fast import Position, Rules, oracle
>>> len(oracle.legal_plays(Position.initial(), (6, 5), Rules(variant="backgammon")))
7
"""
from ..rules import ALL_ROLLS
from .features import features
from .games import GameRecords, play_games, rank_plays, rollout
from .moves import (
    blocked_points,
    blots,
    closure_holds,
    legal_first_steps,
    legal_plays,
    outcome,
    perft,
    perft_divide,
    pip_counts,
    shots,
)

__all__ = [
    "ALL_ROLLS",
    "GameRecords",
    "features",
    "play_games",
    "rank_plays",
    "rollout",
    "blocked_points",
    "blots",
    "closure_holds",
    "legal_first_steps",
    "legal_plays",
    "outcome",
    "perft",
    "perft_divide",
    "pip_counts",
    "shots",
]
