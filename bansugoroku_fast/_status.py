"""The one place that turns a kernel Status into its typed error.

Every kernel entry point (``src/bansugoroku_fast/_single.pyx``,
``_batch.pyx``, ``_games.pyx``, ``_env.pyx``) reports a problem with its
data as a Status, declared once in ``_board.pxd`` with the rule they all
follow (``_batch.STATUS`` names them): a single call returns it instead of
its result, a batch call returns ``(item, status)`` of its first bad item.
:func:`raise_status` and :func:`status_error` say what is wrong, and where,
from it; :func:`advance_games` calls the vector environment's kernel and
raises its errors.

>>> from bansugoroku_fast import Rules
>>> status_error(STATUS["both_won"], Rules(), item=3)
InvalidPositionError('position 3: both sides have won in this position; no game reaches it')
"""
from __future__ import annotations

from typing import Any, TypeVar, cast

import numpy as np

from . import _batch, _env, _validate
from .checks import BOTH_WON, borne_off_problem
from .errors import InvalidDiceError, InvalidPositionError
from .position import describe_problem
from .rules import Rules

_Result = TypeVar("_Result")

#: Status values by name (the kernels' enum).
STATUS: dict[str, int] = _batch.STATUS


def status_error(status: int, rules: Rules | None, *, item: int | None = None,
                 position: Any = None, dice: Any = None) -> Exception:
    """The error for kernel Status ``status`` about one item: of a batch
    (``item`` is its index in the whole batch) or of a single call
    (``item`` None). ``position`` and ``dice`` are the item's, read again
    for the message only."""
    where = "" if item is None else f"position {item}: "
    if status == STATUS["both_won"]:
        return InvalidPositionError(where + BOTH_WON)
    if status == STATUS["no_memory"]:
        return MemoryError("out of memory while searching the plays")
    if status in (STATUS["invalid_position"], STATUS["borne_off"]):
        array = np.ascontiguousarray(getattr(position, "array", position), dtype=np.int8).reshape(2, 26)
        problem = _validate.first_invalid(array[None])
        text: str | None
        if problem:
            text = describe_problem(*problem[1:])
        else:
            text = borne_off_problem(array, rules) if rules is not None else None
        return InvalidPositionError(where + (text or "it changed while it was being read"))
    if status == STATUS["invalid_dice"]:
        which = "dice" if item is None else f"dice {item}"
        return InvalidDiceError(f"{which}: {np.asarray(dice).tolist()} is not two integers in 1..6")
    if status == STATUS["changed"]:
        return InvalidPositionError(
            f"{where}its position or dice changed while the batch was being read "
            "(another thread writing them?)"
        )
    raise AssertionError(f"unknown kernel status {status}")


def raise_status(result: _Result | int, rules: Rules, position: Any = None, dice: Any = None) -> _Result:
    """``result`` of a single-call kernel entry point, or raise its error
    if it is a Status (an int below 0)."""
    if type(result) is int and result < 0:
        raise status_error(result, rules, position=position, dice=dice)
    return cast(_Result, result)


def raise_first_problem(problem: tuple[int, int] | None, rules: Rules | None, positions: np.ndarray,
                        dice: np.ndarray | None = None, first_item: int = 0) -> None:
    """Raise the error of a batch entry point's first problem ``(item,
    status)``, if any; ``first_item`` is the index of the batch's first item
    in the caller's whole input (a chunk of :func:`~bansugoroku_fast.batch.iter_plays`)."""
    if problem is not None:
        item, status = problem
        raise status_error(status, rules, item=first_item + item, position=positions[item],
                           dice=None if dice is None else dice[item])


def advance_games(rows: np.ndarray, choices: np.ndarray, boards: np.ndarray, dice: np.ndarray, plies: np.ndarray,
                  games: np.ndarray, counts: np.ndarray, winner: np.ndarray, value: np.ndarray,
                  truncated: np.ndarray, agent_seat: int, policy_code: int, weights: np.ndarray, code: int,
                  seed: int, opening: bool, max_plies: int, max_plays: int) -> None:
    """``_env.advance_batch`` (the arguments are its own), raising the
    error of its first problem: a ValueError naming the row or the choice,
    or MemoryError."""
    problem = _env.advance_batch(rows, choices, boards, dice, plies, games, counts, winner, value, truncated,
                                 agent_seat, policy_code, weights, code, seed, opening, max_plies, max_plays)
    if problem is None:
        return
    k, status = problem
    row, choice = int(rows[k]), int(choices[k])
    if status == STATUS["no_such_row"]:
        raise ValueError(f"rows[{k}] = {row} is not a game (0..{len(boards) - 1})")
    if status == STATUS["row_twice"]:
        raise ValueError(f"rows[{k}] = {row} is listed twice")
    if status == STATUS["bad_choice"] and choice < -1:
        raise ValueError(f"choices[{k}] = {choice} is neither -1 (roll first) nor a play")
    if status == STATUS["bad_choice"]:
        raise ValueError(f"choices[{k}] = {choice}: game row {row} has {counts[row]} plays")
    if status == STATUS["no_memory"]:
        raise MemoryError("out of memory while advancing games")
    raise AssertionError(f"unknown kernel status {status}")
