"""Argument checks shared by the oracle and the kernel API.

Only input checking lives here, never rule logic: what the rules say about a
position (wins, closures, moves) is written twice on purpose, once in the
oracle and once in the kernels, so that each can catch the other's mistakes.
"""
from __future__ import annotations

import numbers

import numpy as np

from .errors import InvalidDiceError, InvalidPositionError, InvalidRulesError
from .position import Position, holds_integers
from .rules import Rules
from .typing import DiceLike, PositionLike, RulesLike

__all__ = ["DICE_CONTAINERS", "as_dice", "as_position", "as_rules", "check_position_for_rules"]

#: What holds dice, besides text: sets, dicts, bytes and ranges would be read
#: in an order or a sense nobody meant.
DICE_CONTAINERS = (tuple, list, np.ndarray)


def as_position(position: PositionLike) -> Position:
    """``position`` as a :class:`Position` (array-likes and ids are validated)."""
    return position if isinstance(position, Position) else Position(position)


def as_rules(rules: RulesLike | object) -> Rules:
    if rules is None:
        return Rules()
    if isinstance(rules, str):
        return Rules.parse(rules)
    if not isinstance(rules, Rules):
        raise InvalidRulesError(f"rules must be a Rules (or a label such as 'backgammon'), got {rules!r}")
    return rules


def as_dice(dice: DiceLike | object) -> tuple[int, int]:
    """``dice`` as a pair of ints in 1..6, or :class:`InvalidDiceError`.

    >>> as_dice((6, 5)), as_dice("3-1")
    ((6, 5), (3, 1))
    >>> as_dice((0, 7))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidDiceError: dice must be two integers in 1..6, got (0, 7)

    Only text and :data:`DICE_CONTAINERS` of integers are read as dice.
    """
    values: object = dice
    if isinstance(dice, str):
        text = dice.strip().replace(" ", "-").replace(",", "-")
        parts = text.split("-") if "-" in text else list(text)
        try:
            values = tuple(int(part) for part in parts)
        except ValueError:
            raise InvalidDiceError(f"cannot read dice {dice!r}; write e.g. '6-5'") from None
    if isinstance(values, np.ndarray) and holds_integers(values):
        values = values.tolist()  # numpy integers to ints; other dtypes fail as values below
    if not isinstance(values, DICE_CONTAINERS):
        raise InvalidDiceError(
            f"dice must be a pair of integers in 1..6 (a tuple, list, integer array or "
            f"text such as '6-5'), got {dice!r}"
        )
    pair = tuple(values)
    if len(pair) != 2 or not all(_is_die(d) for d in pair):
        raise InvalidDiceError(f"dice must be two integers in 1..6, got {dice!r}")
    return int(pair[0]), int(pair[1])


def _is_die(value: object) -> bool:
    """An integer in 1..6 (not a bool, not a numpy timedelta, which numpy
    counts among its integers)."""
    if isinstance(value, (bool, np.timedelta64)) or not isinstance(value, numbers.Integral):
        return False
    return 1 <= int(value) <= 6


def check_position_for_rules(position: Position, rules: Rules) -> None:
    """Refuse what a valid array may hold but these rules forbid: borne-off
    stones under the arrival finish (stones never leave the board there)."""
    if not rules.bears_off:
        off = position.array[:, 0]
        if off.any():
            side = 0 if off[0] else 1
            raise InvalidPositionError(
                f"row {side} has {int(off[side])} stones borne off, but the "
                f"'{rules.finish}' finish never bears off"
            )
