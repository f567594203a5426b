"""bansugoroku-fast: legal plays for Ban-sugoroku and backgammon."""
from .errors import IllegalPlayError, InvalidDiceError, InvalidPositionError, InvalidRulesError
from .oracle import (  # kernel-backed versions replace these once the kernels land
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
from .notation import match_play
from .play import Outcome, OutcomeKind, Play, Step
from .position import Position
from .rules import Rules

__version__ = "0.1.0"


def parse_play(position, dice, text: str, rules=None) -> Play:
    """The legal play that ``text`` names (gnubg notation, read leniently).

    >>> start = Position.initial()
    >>> parse_play(start, (6, 5), "24/18/13", Rules(variant="backgammon"))
    <Play 24/13>
    """
    return match_play(legal_plays(position, dice, rules), text)
