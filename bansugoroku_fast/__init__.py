"""bansugoroku-fast: legal plays for Ban-sugoroku and backgammon.

The functions here run on the Cython kernels; :mod:`bansugoroku_fast.oracle`
has the same functions in plain Python, and :mod:`bansugoroku_fast.batch`
the vectorised queries over ``int8[N, 2, 26]`` batches.

>>> from bansugoroku_fast import Position, Rules, legal_plays
>>> len(legal_plays(Position.initial(), (6, 5), Rules(variant="backgammon")))
7
"""
import os

# Idle OpenMP threads spin briefly, then sleep. libgomp's own default spins
# about 3 ms, and on a busy machine a spinning thread steals the core the
# work needs (two threads then ran slower than one); sleeping at once
# ("passive") costs a wake-up of 0.1 ms or more on every parallel region,
# which halved the two-thread speed of iter_plays (a count and a generate
# region per chunk; benchmarks/README.md, "Thread scaling"). So the wait
# policy is "passive" with a spin of 10,000 rounds (libgomp's estimate:
# 0.1 ms), enough to bridge the Python between two regions. libgomp reads
# both variables once, when the first kernel module loads it (the import
# below), so they are set for that moment only and the process environment
# is left as it was (child processes see what the user set). To choose, set
# OMP_WAIT_POLICY (and GOMP_SPINCOUNT) before importing; a libgomp loaded
# earlier by another library keeps its own settings.
_OPENMP_DEFAULTS = {"OMP_WAIT_POLICY": "passive", "GOMP_SPINCOUNT": "10000"}
_USER_CHOSE_WAIT = any(name in os.environ for name in _OPENMP_DEFAULTS)
if not _USER_CHOSE_WAIT:
    os.environ.update(_OPENMP_DEFAULTS)
try:
    from . import _batch  # noqa: F401 (loads libgomp, which reads them now)
finally:
    if not _USER_CHOSE_WAIT:
        for _name in _OPENMP_DEFAULTS:
            del os.environ[_name]

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
    GameStateError,
    GameTooLongError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidNotationError,
    InvalidPolicyError,
    InvalidPositionError,
    InvalidRulesError,
    MatchFileError,
    MatchIdError,
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
