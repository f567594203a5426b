"""bansugoroku-fast: legal plays for Ban-sugoroku and backgammon."""
from .errors import IllegalPlayError, InvalidDiceError, InvalidPositionError, InvalidRulesError
from .position import Position
from .rules import Rules

__version__ = "0.1.0"
