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
from .play import Outcome, OutcomeKind, Play, Step
from .position import Position
from .rules import Rules

__version__ = "0.1.0"
