"""bansugoroku-fast: legal plays for Ban-sugoroku and backgammon.

The functions here run on the Cython kernels; :mod:`bansugoroku_fast.oracle`
has the same functions in plain Python, and :mod:`bansugoroku_fast.batch`
the vectorised queries over ``int8[N, 2, 26]`` batches.

>>> from bansugoroku_fast import Position, Rules, legal_plays
>>> len(legal_plays(Position.initial(), (6, 5), Rules(variant="backgammon")))
7
"""
# The fastest build of the batch kernels this CPU runs becomes ``_batch``
# before any module below imports it (_builds.py).
from . import _builds

_builds.install()

from . import batch, oracle, typing
from .api import (
    Plays,
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
from .batch import count_plays, generate_plays, iter_plays
from .errors import (
    AmbiguousPlayError,
    EvaluatorOutputError,
    EvaluatorOutputTypeError,
    EvaluatorTypeError,
    GameStateError,
    GameTooLongError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidEvaluatorError,
    InvalidNotationError,
    InvalidPolicyError,
    InvalidPositionError,
    InvalidRulesError,
    InvalidTrainingError,
    MatchFileError,
    MatchIdError,
    NetworkFileError,
    PlayError,
    PlayTextTypeError,
    PolicyOutputError,
    PolicyOutputTypeError,
    PolicyTypeError,
    RulesTypeError,
)
from .formats import MatchRecord, MatchState, decode_match_id, encode_match_id, read_match, write_match
from .game import Game, Match, play_random_game
from .games import GameRecords, features, play_games, rank_plays, rollout
from .lockstep import Candidates, GameBatch, segment_argmax
from .notation import match_play
from .play import Outcome, OutcomeKind, Play, Step
from .policies import FEATURE_NAMES, LinearPolicy
from .position import Position
from .rules import Rules
from .tallies import RankedPlay, RolloutResult
from .turn import Turn, roll_name
from .typing import DiceLike, PositionLike, RulesLike

#: The package's version, its one copy: pyproject.toml reads it from here.
__version__ = "0.1.0"

__all__ = [
    "__version__",
    # value types
    "Position",
    "Rules",
    "Play",
    "Plays",
    "Step",
    "Outcome",
    "OutcomeKind",
    # single-position queries (kernels)
    "legal_plays",
    "legal_first_steps",
    "outcome",
    "shots",
    "blocked_points",
    "blots",
    "closure_holds",
    "pip_counts",
    "perft",
    "perft_divide",
    "parse_play",
    "match_play",
    # batches
    "count_plays",
    "generate_plays",
    "iter_plays",
    # games
    "Turn",
    "Game",
    "Match",
    "play_random_game",
    "roll_name",
    "GameRecords",
    "GameBatch",
    "Candidates",
    "segment_argmax",
    "play_games",
    "rollout",
    "rank_plays",
    "features",
    "RankedPlay",
    "RolloutResult",
    "LinearPolicy",
    "FEATURE_NAMES",
    # match files and match ids
    "MatchRecord",
    "MatchState",
    "read_match",
    "write_match",
    "decode_match_id",
    "encode_match_id",
    # errors (and the TypeError of each kind that has one)
    "InvalidRulesError",
    "RulesTypeError",
    "InvalidPositionError",
    "InvalidDiceError",
    "PlayError",
    "InvalidNotationError",
    "PlayTextTypeError",
    "IllegalPlayError",
    "AmbiguousPlayError",
    "GameStateError",
    "MatchFileError",
    "MatchIdError",
    "GameTooLongError",
    "InvalidPolicyError",
    "PolicyTypeError",
    "PolicyOutputError",
    "PolicyOutputTypeError",
    "InvalidEvaluatorError",
    "NetworkFileError",
    "EvaluatorTypeError",
    "EvaluatorOutputError",
    "EvaluatorOutputTypeError",
    "InvalidTrainingError",
    # submodules
    "batch",
    "oracle",
    "typing",
]


def parse_play(position: PositionLike, dice: DiceLike, text: str, rules: RulesLike = None) -> Play:
    """The legal play that ``text`` names (gnubg notation, read leniently).

    >>> start = Position.initial()
    >>> parse_play(start, (6, 5), "24/18/13", Rules(variant="backgammon"))
    <Play 24/13>
    """
    return match_play(legal_plays(position, dice, rules), text)
