"""Every input check: the one module that turns what a caller passed into
checked values, or raises a typed error saying what is wrong and where.

Every entry point (single positions, batches, whole games, the oracle, the
environments, the command line) checks its arguments here before any work
is done. Only input checking lives here, never rule logic: what the rules
say about a position (wins, closures, moves) is written twice on purpose,
once in the oracle and once in the kernels, so that each can catch the
other's mistakes. Batch items are checked by the kernels themselves, in the
pass that reads each one (:mod:`bansugoroku_fast._kernel`).
"""
from __future__ import annotations

import math
import numbers
import os
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeGuard, TypeVar

import numpy as np

from . import _kernel
from ._kernel import as_int8_array, holds_integers
from .errors import (
    ArgumentTypeError,
    AssumedRulesWarning,
    InvalidArgumentError,
    InvalidDiceError,
    InvalidPositionError,
    OutputPathError,
    RulesTypeError,
    UnevenStrataWarning,
)
from .layout import borne_off_problem
from .rules import Rules
from .typing import BatchLike

if TYPE_CHECKING:
    from .position import Position

#: What holds dice, besides text: sets, dicts, bytes and ranges would be read
#: in an order or a sense nobody meant.
DICE_CONTAINERS = (tuple, list, np.ndarray)


def as_rules(rules: object) -> Rules:
    """``rules`` as a :class:`Rules` of exactly that class.

    A subclass is rebuilt from its four fields (and checked again), so that
    nothing it overrides (``code``, ``bears_off``, ...) reaches the kernels,
    which index tables by the rule code.

    >>> class Odd(Rules):
    ...     code = 100
    >>> type(as_rules(Odd())) is Rules, as_rules(Odd()).code
    (True, 2)
    """
    if type(rules) is Rules:  # the common case first: a type test alone
        return rules
    if rules is None:
        return Rules()
    if type(rules) is str:
        return _parsed_label(rules)
    if isinstance(rules, str):
        return Rules.parse(rules)
    if not isinstance(rules, Rules):
        raise RulesTypeError(f"rules must be a Rules (or a label such as 'backgammon'), got {rules!r}")
    if type(rules) is not Rules:
        fields = (rules.variant, rules.finish, rules.closure, rules.start)
        if not all(isinstance(field, str) for field in fields):
            raise RulesTypeError(f"rules fields must be str, got {fields!r}")
        return Rules(*fields)
    return rules


#: Labels already parsed (a label is parsed once: ``Rules.parse`` costs
#: several microseconds, a call on one position about two). Bounded, as
#: labels come from users.
_PARSED_LABELS: dict[str, Rules] = {}
_MAX_PARSED_LABELS = 256


def _parsed_label(label: str) -> Rules:
    rules = _PARSED_LABELS.get(label)
    if rules is None:
        rules = Rules.parse(label)  # raises on a bad label, which is never kept
        if len(_PARSED_LABELS) < _MAX_PARSED_LABELS:
            _PARSED_LABELS[label] = rules
    return rules


def as_dice(dice: object) -> tuple[int, int]:
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
        if type(dice) is list and len(dice) == 2 and all(type(d) is int and 1 <= d <= 6 for d in dice):
            return dice[0], dice[1]  # the common numpy roll, without the general checks below
    if not isinstance(dice, DICE_CONTAINERS):
        raise InvalidDiceError(
            f"dice must be a pair of integers in 1..6 (a tuple, list, integer array or "
            f"text such as '6-5'), got {dice!r}"
        )
    pair = tuple(dice)
    if len(pair) != 2 or not all(_is_die(d) for d in pair):
        raise InvalidDiceError(f"dice must be two integers in 1..6, got {dice!r}")
    return int(pair[0]), int(pair[1])


def _is_die(value: object) -> bool:
    """An integer in 1..6 (not a bool, not a numpy timedelta, which numpy
    counts among its integers)."""
    return (
        isinstance(value, numbers.Integral)
        and not isinstance(value, (bool, np.timedelta64))
        and 1 <= int(value) <= 6
    )


def check_position_for_rules(position: Position, rules: Rules) -> None:
    """Raise :class:`InvalidPositionError` if these rules refuse ``position``
    (see :func:`borne_off_problem`)."""
    problem = borne_off_problem(position.array, rules)
    if problem is not None:
        raise InvalidPositionError(problem)


def is_positive_int(value: object) -> TypeGuard[numbers.Integral]:
    """Whether ``value`` is an integer >= 1 (numpy integers too, not a bool)."""
    return not isinstance(value, bool) and isinstance(value, numbers.Integral) and int(value) >= 1


def positive_int(value: object, name: str) -> int:
    """``value`` as an int >= 1 (numpy integers accepted), or ValueError naming ``name``.

    >>> positive_int(3, "games")
    3
    >>> positive_int(0, "games")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: games must be a positive integer, got 0
    """
    if not is_positive_int(value):
        raise InvalidArgumentError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def non_negative_int(value: object, name: str) -> int:
    """``value`` as an int >= 0 (numpy integers accepted, not a bool or a
    float), or ValueError naming ``name``.

    >>> non_negative_int(0, "plays")
    0
    >>> non_negative_int(-1, "plays")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: plays must be an integer >= 0, got -1
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < 0:
        raise InvalidArgumentError(f"{name} must be an integer >= 0, got {value!r}")
    return int(value)


def as_depth(depth: object, least: int) -> int:
    """``depth`` (a perft depth) as an int >= ``least`` (numpy integers
    accepted, as everywhere else), or ValueError.

    >>> as_depth(2, 0), as_depth(np.int64(1), 1)
    (2, 1)
    >>> as_depth(0, 1)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: depth must be an integer >= 1, got 0
    """
    if isinstance(depth, bool) or not isinstance(depth, numbers.Integral) or int(depth) < least:
        raise InvalidArgumentError(f"depth must be an integer >= {least}, got {depth!r}")
    return int(depth)


def as_side(side: object, name: str = "side") -> int:
    """``side`` (0 = the side to move, 1 = its opponent; or a seat, 0 = the
    one that moves first) as an int, or ValueError naming ``name``; like a
    depth, a bool or a float is not a side.

    >>> as_side(1), as_side(0, "seat")
    (1, 0)
    >>> as_side(True, "seat")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: seat must be 0 or 1, got True
    """
    if isinstance(side, bool) or not isinstance(side, numbers.Integral) or side not in (0, 1):
        raise InvalidArgumentError(f"{name} must be 0 or 1, got {side!r}")
    return int(side)


def as_seed(seed: object) -> int:
    """``seed`` as an int in 0 .. 2**64 - 1 (the key of the counter-based dice).

    >>> as_seed(2**64)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: seed must be an integer in 0 .. 2**64 - 1, got 18446744073709551616
    """
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= int(seed) < 2**64:
        raise InvalidArgumentError(f"seed must be an integer in 0 .. 2**64 - 1, got {seed!r}")
    return int(seed)


def run_arguments(rules: object, games: object, seed: object, max_plies: object,
                  threads: object) -> tuple[Rules, int, int, int, int | None]:
    """The checked common arguments of whole-game runs (``play_games``,
    ``rollout``, ``rank_plays``): rules, game count, seed, ply cap, threads
    (None: every core)."""
    return (as_rules(rules), positive_int(games, "games"), as_seed(seed),
            positive_int(max_plies, "max_plies"), None if threads is None else positive_int(threads, "threads"))


#: Stratified first rolls: 36 (the first roll) or 1296 (the first two).
STRATA = (36, 1296)
#: Default cap on the plies of one whole game.
MAX_PLIES = 10_000
#: Games per block of a rollout with ``stderr_target``: the stopping rule is
#: checked after each block (a multiple of both strata sizes).
BLOCK = 1296


#: What a whole game does when it has not ended after ``max_plies`` plies:
#: raise :class:`~bansugoroku_fast.errors.GameTooLongError` (the default), or
#: end there unfinished (winner -1, flagged ``truncated`` in the records,
#: counted apart in a rollout's figures).
ON_LONG = ("raise", "truncate")


def as_on_long(on_long: object) -> str:
    """``on_long`` checked: one of :data:`ON_LONG`.

    >>> as_on_long("truncate")
    'truncate'
    >>> as_on_long("stop")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: on_long must be 'raise' or 'truncate', got 'stop'
    """
    if not isinstance(on_long, str) or on_long not in ON_LONG:
        raise InvalidArgumentError(f"on_long must be 'raise' or 'truncate', got {on_long!r}")
    return on_long


#: A value passed through unchanged.
_Same = TypeVar("_Same")


def scoring_rules(rules: _Same, where: str) -> _Same:
    """``rules`` for a call that scores positions (``where`` names it): as
    given, or, when None, the default rules (Ban-sugoroku's) with an
    :class:`~bansugoroku_fast.errors.AssumedRulesWarning` naming them, so
    that a backgammon position scored without ``rules="backgammon"`` does
    not pass unnoticed. (Other calls take None for the default silently:
    their answers show the rules, a score does not.)

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     scoring_rules(None, "rollout")
    >>> print(caught[0].message)  # doctest: +ELLIPSIS
    rollout: no rules given, so it assumed ban-sugoroku,finish=arrival,... pass rules= (rules="backgammon" ...)
    """
    if rules is None:
        warnings.warn(
            f"{where}: no rules given, so it assumed {Rules().label}; pass rules= "
            f'(rules="backgammon" for a backgammon position or a GNU Backgammon id)',
            AssumedRulesWarning, stacklevel=3,
        )
    return rules


def warn_uneven_strata(strata: int, games: int, where: str) -> None:
    """An :class:`~bansugoroku_fast.errors.UnevenStrataWarning` when a
    rollout of ``games`` games is stratified over more strata than it has
    games (its first rolls then are not dealt evenly)."""
    if strata and games < strata:
        warnings.warn(
            f"{where}: stratify={strata} deals the first {'two rolls' if strata == 1296 else 'roll'} evenly "
            f"over each {strata:,} games, but {games:,} games cover only {games:,} of them; play a multiple of "
            f"{strata:,} games" + (" or stratify=36" if strata == 1296 and games >= 36 else ""),
            UnevenStrataWarning, stacklevel=3,
        )


def as_stratify(stratify: object, opening: bool = False) -> int:
    """``stratify`` as 0 (off), 36 or 1296 (``True`` means 36). ``opening``:
    ply 0 is the backgammon opening, which rolls no double, so that dealing
    the 36 rolls evenly there is refused.

    >>> as_stratify(None), as_stratify(True), as_stratify(1296)
    (0, 36, 1296)
    >>> as_stratify(36, opening=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: stratify needs a start: the backgammon opening ... rolls no double
    """
    if stratify is None or stratify is False or (isinstance(stratify, int) and stratify == 0):
        return 0
    if stratify is True:
        stratify = 36
    if not isinstance(stratify, numbers.Integral) or stratify not in STRATA:
        raise InvalidArgumentError(f"stratify must be None, True, 36 or 1296, got {stratify!r}")
    if opening:
        raise InvalidArgumentError("stratify needs a start: the backgammon opening (start=None) rolls no double")
    return int(stratify)


def as_stderr_target(target: object) -> float | None:
    """``target`` as a positive finite float, or None (no stopping rule)."""
    if target is None:
        return None
    if (isinstance(target, bool) or not isinstance(target, numbers.Real)
            or not math.isfinite(target) or target <= 0):
        raise InvalidArgumentError(f"stderr_target must be a positive number or None, got {target!r}")
    return float(target)


# --- batches ------------------------------------------------------------------------------------

#: The most threads a batch call takes: more than four per CPU never helps,
#: and each one is a thread of the kernels' pool, kept for the process's life.
MAX_THREADS = min(4 * (os.cpu_count() or 1), _kernel.MOST_THREADS)


def as_threads(threads: object) -> int:
    """``threads`` checked: None = every CPU this process may run on, else
    an integer in 1..:data:`MAX_THREADS`."""
    if threads is None:
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            return os.cpu_count() or 1
    if not is_positive_int(threads) or int(threads) > MAX_THREADS:
        raise InvalidArgumentError(
            f"threads must be an integer in 1..{MAX_THREADS} (4 per CPU) or None, got {threads!r}"
        )
    return int(threads)


def as_positions_array(positions: BatchLike) -> np.ndarray:
    """``positions`` as an ``int8[N, 2, 26]`` C-contiguous array (no copy
    when it is one already), content unchecked: the kernels check each item
    as they read it."""
    if not (isinstance(positions, np.ndarray) and positions.dtype == np.int8
            and positions.flags.c_contiguous):
        positions = as_int8_array(positions, shape_text="N x 2 x 26", what="positions")
    if positions.shape == (0,):  # an empty list: no positions
        positions = positions.reshape(0, 2, 26)
    if positions.ndim != 3 or positions.shape[1:] != (2, 26):
        raise InvalidPositionError(f"positions must have shape (N, 2, 26), got {positions.shape}")
    return positions


def as_valid_positions(positions: BatchLike) -> np.ndarray:
    """``positions`` as a valid ``int8[N, 2, 26]`` array, for the queries
    numpy answers (the kernels check their items themselves)."""
    return _kernel.check_valid(as_positions_array(positions))


def as_dice_array(dice: BatchLike, count: int) -> tuple[np.ndarray, np.ndarray]:
    """``dice`` as an ``int8[N, 2]`` array with C-contiguous rows for the
    kernels, which check the values, and the caller's values for messages.
    One roll (a pair, or text such as ``"6-5"``) is used for every position
    (a view with stride 0: no copy). Values outside int8 become 0, which
    the kernels refuse like any die outside 1..6."""
    if isinstance(dice, str):
        dice = as_dice(dice)
    if not isinstance(dice, DICE_CONTAINERS):
        raise InvalidDiceError(f"dice must be an N x 2 integer array (or one roll), got {type(dice).__name__}")
    try:
        given = np.asarray(dice)
    except ValueError as error:
        raise InvalidDiceError(f"dice must be a rectangular N x 2 array: {error}") from None
    if count == 0 and given.shape == (0,):  # an empty list: no rolls
        given = np.empty((0, 2), dtype=np.int8)
    if not holds_integers(given):
        raise InvalidDiceError(f"dice must hold integers, got dtype {given.dtype}")
    if given.shape != (2,) and given.shape != (count, 2):
        raise InvalidDiceError(f"dice must have shape ({count}, 2) for {count} positions, got {given.shape}")
    array = given if given.dtype == np.int8 else np.clip(given, 0, 7).astype(np.int8)
    if given.shape == (2,):  # one roll for every position
        return np.broadcast_to(array, (count, 2)), np.broadcast_to(given, (count, 2))
    return np.ascontiguousarray(array), given


def as_items(positions: BatchLike, dice: BatchLike, rules: object, threads: object) -> _kernel.Items:
    """The arguments of a batch of plays, converted for the kernels (which
    check each item as they read it)."""
    checked_rules = as_rules(rules)
    array = as_positions_array(positions)
    dice_array, given = as_dice_array(dice, len(array))
    return _kernel.Items(array, dice_array, given, checked_rules, as_threads(threads))


def as_fields(fields: Iterable[str]) -> frozenset[str]:
    """``fields`` checked: a collection of names from the batch output's
    fields, ``"children"`` among them."""
    names = _kernel.FIELDS
    if isinstance(fields, str) or not all(isinstance(field, str) for field in fields):
        raise InvalidArgumentError(f"fields must be a collection of names among {names}, got {fields!r}")
    wanted = frozenset(fields)
    if not wanted <= set(names) or "children" not in wanted:
        raise InvalidArgumentError(f"fields must name 'children' and any of {names[1:]}, got {fields!r}")
    return wanted


def as_checked_positions(positions: Any, rules: Rules) -> np.ndarray:
    """``positions`` as an ``int8[N, 2, 26]`` array of positions these rules
    accept (the outcome kernel checks each item and names the first bad one)."""
    array = as_positions_array(positions)
    _kernel.outcomes(array, rules)
    return array


def check_keywords(given: Iterable[str], accepted: Iterable[str], where: str) -> None:
    """Refuse a keyword argument ``where`` does not take, before Python's own
    ``TypeError`` (or a clash of two keywords) could say something less clear.

    >>> check_keywords(["seat"], ["seat", "opponent"], "BanSugorokuEnv")
    >>> check_keywords(["sead"], ["seat", "opponent"], "BanSugorokuEnv")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.ArgumentTypeError: BanSugorokuEnv takes no option 'sead'; its options: opponent, seat
    """
    known = set(accepted)
    unknown = sorted(set(given) - known)
    if unknown:
        names = ", ".join(repr(name) for name in unknown)
        raise ArgumentTypeError(f"{where} takes no option {names}; its options: {', '.join(sorted(known))}")


def _writable_directory(directory: str, what: str) -> None:
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise OutputPathError(f"{what}: {directory!r} is a file, not a directory")
    if not os.path.isdir(directory):
        raise OutputPathError(f"{what}: the directory {directory!r} does not exist")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OutputPathError(f"{what}: the directory {directory!r} is not writable")


def as_output_file(path: object, suffixes: Iterable[str], what: str) -> str:
    """``path`` as a file that can be written, in one of the formats
    ``suffixes`` names (``".png"``, ...; any case), checked before any work.

    >>> as_output_file("out.png", [".png", ".pdf"], "--plot")
    'out.png'
    >>> as_output_file("out.xyz", [".png", ".pdf"], "--plot")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.OutputPathError: --plot: cannot write 'out.xyz': its format '.xyz' is not one of .pdf, .png
    >>> as_output_file("/no/such/dir/x.png", [".png"], "--plot")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.OutputPathError: --plot: the directory '/no/such/dir' does not exist
    """
    if not isinstance(path, (str, os.PathLike)):
        raise OutputPathError(f"{what}: a path is a str or os.PathLike, got {type(path).__name__}")
    text = os.fspath(path)
    known = sorted({suffix.lower() for suffix in suffixes})
    suffix = os.path.splitext(text)[1].lower()
    if suffix not in known:
        shown = f"its format {suffix!r}" if suffix else "it has no extension naming a format"
        raise OutputPathError(f"{what}: cannot write {text!r}: {shown} is not one of {', '.join(known)}")
    if os.path.isdir(text):
        raise OutputPathError(f"{what}: {text!r} is a directory")
    _writable_directory(os.path.dirname(os.path.abspath(text)), what)
    return text


def as_output_directory(path: object, what: str) -> str:
    """``path`` as a directory that exists or can be made, and written in.

    >>> as_output_directory("pyproject.toml/corpus", "DIR")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.OutputPathError: DIR: '...pyproject.toml' is a file, not a directory
    """
    if not isinstance(path, (str, os.PathLike)):
        raise OutputPathError(f"{what}: a path is a str or os.PathLike, got {type(path).__name__}")
    text = os.fspath(path)
    if os.path.exists(text) and not os.path.isdir(text):
        raise OutputPathError(f"{what}: {text!r} exists and is not a directory")
    existing = os.path.abspath(text)
    while not os.path.exists(existing):  # the nearest directory that exists will hold the new ones
        existing = os.path.dirname(existing)
    _writable_directory(existing, what)
    return text
