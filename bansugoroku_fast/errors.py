"""Typed errors. Each subclasses :class:`ValueError`, so ``except ValueError``
catches bad input of every kind, and each message says what is wrong."""


class InvalidRulesError(ValueError):
    """An unknown variant or option, or an option the variant does not have."""


class InvalidPositionError(ValueError):
    """An array or id that is not a valid position (for these rules)."""


class InvalidDiceError(ValueError):
    """Dice that are not a pair of integers in 1..6."""


class IllegalPlayError(ValueError):
    """A play or step that the rules do not allow in this position."""


class GameStateError(ValueError):
    """An action out of turn: playing before rolling, rolling twice, doubling
    in Ban-sugoroku or after the roll, answering a double nobody offered,
    moving once the game is over."""
