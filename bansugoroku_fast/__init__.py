"""bansugoroku-fast: legal plays for Ban-sugoroku and backgammon.

The functions here run on the Cython kernels; :mod:`bansugoroku_fast.oracle`
has the same functions in plain Python, and :mod:`bansugoroku_fast.batch`
the vectorised queries over ``int8[N, 2, 26]`` batches.

``import bansugoroku_fast`` loads the values, the single-position functions
and the batch calls; whole games (:mod:`bansugoroku_fast.games`), match
files and ids (:mod:`bansugoroku_fast.formats`), the oracle and the rest load
the first time one of their names is used.

>>> from bansugoroku_fast import Position, Rules, legal_plays
>>> len(legal_plays(Position.initial(), (6, 5), Rules(variant="backgammon")))
7
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import batch, errors, typing
from .batch import count_plays, generate_plays, iter_plays
from .errors import (
    AmbiguousPlayError,
    BansugorokuError,
    IllegalPlayError,
    InvalidNotationError,
    MatchFileError,
    PlayError,
)
from .moves import (
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
from .notation import match_play as _match_play
from .play import Outcome, OutcomeKind, Play, Step
from .position import Position
from .rules import Rules
from .turn import Turn, roll_name
from .typing import DiceLike, PositionLike, RulesLike

#: The package's version (its one copy is in bansugoroku_fast.version, which pyproject.toml reads).
from .version import __version__

#: Names loaded on first use (PEP 562): name -> the module that holds it.
_LAZY = {
    **dict.fromkeys(["Game", "Match", "GameRecords", "GameBatch", "Candidates",
                     "segment_argmax", "play_games", "rollout", "rank_plays", "features", "RankedPlay",
                     "RolloutResult", "LinearPolicy", "FEATURE_NAMES", "Computer", "PipCountCube", "NetCube",
                     "MatchScore", "CubeSettings", "CubeRollout", "rollout_cube_decision"],
                    "bansugoroku_fast.games"),
    **dict.fromkeys(["race", "race_batch", "RaceResult"], "bansugoroku_fast.endgames"),
    **dict.fromkeys(["NetEvaluator", "evaluate", "evaluate_position", "best_plays", "EvaluatorPolicy"],
                    "bansugoroku_fast.evaluators"),
    **dict.fromkeys(["cube_decision", "CubeDecision", "MatchEquityTable"], "bansugoroku_fast.cube"),
    **dict.fromkeys(["MatchRecord", "MatchState", "parse_match", "read_match", "write_match", "decode_match_id",
                     "encode_match_id"], "bansugoroku_fast.formats"),
    **dict.fromkeys(["analyse", "Analysis"], "bansugoroku_fast.analysis"),
}
#: Submodules loaded on first use (``bansugoroku_fast.oracle``).
_LAZY_MODULES = ("oracle", "games", "formats", "endgames", "evaluators", "cube", "analysis")

if TYPE_CHECKING:   # what the lazy names are, for type checkers
    from . import analysis, cube, endgames, evaluators, formats, games, oracle
    from .analysis import Analysis, analyse
    from .cube import CubeDecision, MatchEquityTable, cube_decision
    from .endgames import RaceResult, race, race_batch
    from .evaluators import EvaluatorPolicy, NetEvaluator, best_plays, evaluate, evaluate_position
    from .formats import (
        MatchRecord,
        MatchState,
        decode_match_id,
        encode_match_id,
        parse_match,
        read_match,
        write_match,
    )
    from .games import (
        FEATURE_NAMES,
        Candidates,
        Computer,
        CubeRollout,
        CubeSettings,
        Game,
        GameBatch,
        GameRecords,
        LinearPolicy,
        Match,
        MatchScore,
        NetCube,
        PipCountCube,
        RankedPlay,
        RolloutResult,
        features,
        play_games,
        rank_plays,
        rollout,
        rollout_cube_decision,
        segment_argmax,
    )


def __getattr__(name: str) -> Any:
    """The lazy names: loaded from their module the first time they are read."""
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    elif name in _LAZY_MODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value     # found once: later reads are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


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
    # batches
    "count_plays",
    "generate_plays",
    "iter_plays",
    # games
    "Turn",
    "Game",
    "Match",
    "Computer",
    "PipCountCube",
    "NetCube",
    "MatchScore",
    "roll_name",
    "GameRecords",
    "GameBatch",
    "Candidates",
    "segment_argmax",
    "play_games",
    "rollout",
    "rollout_cube_decision",
    "CubeSettings",
    "CubeRollout",
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
    "parse_match",
    "write_match",
    "decode_match_id",
    "encode_match_id",
    # analysis
    "analyse",
    "Analysis",
    # the errors a caller catches (every error is in bansugoroku_fast.errors)
    "BansugorokuError",
    "PlayError",
    "InvalidNotationError",
    "IllegalPlayError",
    "AmbiguousPlayError",
    "MatchFileError",
    # evaluators
    "NetEvaluator",
    "evaluate",
    "evaluate_position",
    "best_plays",
    "EvaluatorPolicy",
    # cube decisions and match equity
    "cube_decision",
    "CubeDecision",
    "MatchEquityTable",
    # exact endgames
    "race",
    "race_batch",
    "RaceResult",
    # submodules
    "batch",
    "errors",
    "oracle",
    "games",
    "formats",
    "endgames",
    "evaluators",
    "cube",
    "analysis",
    "typing",
]


def parse_play(position: PositionLike, dice: DiceLike, text: str, rules: RulesLike = None) -> Play:
    """The legal play that ``text`` names, in GNU Backgammon's notation
    read leniently.

    The text must move the same stones to the same places as the play, in
    any order and grouping (``24/13``, ``24/18/13`` and ``24/18 18/13`` are
    one); hit marks, where given, must name the points the play hits.
    Without hit marks, a play that hits nothing is preferred.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move.
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll: a pair of integers in 1..6 or text such as ``"6-5"``.
    text : str
        The play, such as ``"24/18 13/11*"``, ``"8/5(2)"`` or ``"bar/22"``.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`Rules`, its label, or None for Ban-sugoroku's defaults.

    Returns
    -------
    Play
        The legal play named.

    Raises
    ------
    InvalidNotationError
        ``text`` is not move notation (``ArgumentTypeError`` when it is not
        a str).
    IllegalPlayError
        No legal play moves those stones; the message lists the legal
        plays.
    AmbiguousPlayError
        Several legal plays match (each way of making the moves hits):
        the message names them.
    InvalidPositionError
        The position is not a position.
    InvalidDiceError
        The dice are not a roll.
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    >>> start = Position.initial()
    >>> parse_play(start, (6, 5), "24/18/13", Rules(variant="backgammon"))
    <Play 24/13>
    >>> parse_play(start, (6, 5), "24/10", "backgammon")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.IllegalPlayError: '24/10' is not a legal play here; legal plays: 24/13, ...
    """
    return _match_play(legal_plays(position, dice, rules), text)
