"""Argument checks shared by the oracle and the kernel API.

Only input checking lives here, never rule logic: what the rules say about a
position (wins, closures, moves) is written twice on purpose, once in the
oracle and once in the kernels, so that each can catch the other's mistakes.
"""
from __future__ import annotations

import numbers

import numpy as np

from .errors import InvalidDiceError, InvalidPositionError, InvalidRulesError
from .position import ROW_NAMES, Position, holds_integers
from .rules import Rules

#: What holds dice, besides text: sets, dicts, bytes and ranges would be read
#: in an order or a sense nobody meant.
DICE_CONTAINERS = (tuple, list, np.ndarray)


def as_position(position) -> Position:
    """``position`` as a :class:`Position` (array-likes and ids are validated)."""
    return position if isinstance(position, Position) else Position(position)


def as_rules(rules) -> Rules:
    """``rules`` as a :class:`Rules` of exactly that class.

    A subclass is rebuilt from its four fields (and checked again), so that
    nothing it overrides (``code``, ``bears_off``, ...) reaches the kernels,
    which index tables by the rule code.

    >>> class Odd(Rules):
    ...     code = 100
    >>> type(as_rules(Odd())) is Rules, as_rules(Odd()).code
    (True, 2)
    """
    if rules is None:
        return Rules()
    if isinstance(rules, str):
        return Rules.parse(rules)
    if not isinstance(rules, Rules):
        raise InvalidRulesError(f"rules must be a Rules (or a label such as 'backgammon'), got {rules!r}")
    if type(rules) is not Rules:
        fields = (rules.variant, rules.finish, rules.closure, rules.start)
        if not all(isinstance(field, str) for field in fields):
            raise InvalidRulesError(f"rules fields must be str, got {fields!r}")
        return Rules(*fields)
    return rules


def as_dice(dice) -> tuple[int, int]:
    """``dice`` as a pair of ints in 1..6, or :class:`InvalidDiceError`.

    >>> as_dice((6, 5)), as_dice("3-1")
    ((6, 5), (3, 1))
    >>> as_dice((0, 7))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidDiceError: dice must be two integers in 1..6, got (0, 7)

    Only text and :data:`DICE_CONTAINERS` of integers are read as dice.
    """
    if isinstance(dice, str):
        text = dice.strip().replace(" ", "-").replace(",", "-")
        parts = text.split("-") if "-" in text else list(text)
        try:
            dice = tuple(int(part) for part in parts)
        except ValueError:
            raise InvalidDiceError(f"cannot read dice {dice!r}; write e.g. '6-5'") from None
    if isinstance(dice, np.ndarray) and holds_integers(dice):
        dice = dice.tolist()  # numpy integers to ints; other dtypes fail as values below
    if not isinstance(dice, DICE_CONTAINERS):
        raise InvalidDiceError(
            f"dice must be a pair of integers in 1..6 (a tuple, list, integer array or "
            f"text such as '6-5'), got {dice!r}"
        )
    pair = tuple(dice)
    if len(pair) != 2 or not all(_is_die(d) for d in pair):
        raise InvalidDiceError(f"dice must be two integers in 1..6, got {dice!r}")
    return int(pair[0]), int(pair[1])


def _is_die(value) -> bool:
    """An integer in 1..6 (not a bool, not a numpy timedelta, which numpy
    counts among its integers)."""
    return (
        isinstance(value, numbers.Integral)
        and not isinstance(value, (bool, np.timedelta64))
        and 1 <= value <= 6
    )


#: The message of a position where both rows satisfy a win.
BOTH_WON = "both sides have won in this position; no game reaches it"


def borne_off_problem(array: np.ndarray, rules: Rules) -> str | None:
    """What these rules refuse in a valid ``int8[2, 26]`` array: borne-off
    stones under the arrival finish (stones never leave the board there)."""
    off = array[:, 0]
    if rules.bears_off or not off.any():
        return None
    row = 0 if off[0] else 1
    return (f"{ROW_NAMES[row]} has {int(off[row])} stones borne off, but the "
            f"'{rules.finish}' finish never bears off")


def check_position_for_rules(position: Position, rules: Rules) -> None:
    """Raise :class:`InvalidPositionError` if these rules refuse ``position``
    (see :func:`borne_off_problem`)."""
    problem = borne_off_problem(position.array, rules)
    if problem is not None:
        raise InvalidPositionError(problem)
