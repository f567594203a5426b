"""The endgame tables: which rules use which, building them, and their disk cache.

Three kinds of table cover every rule set (a race has no contact, so the
closed-home options never act in one: a closure needs an opponent's stone
on the bar):

* ``"backgammon"``: bear-off, doubles move four times, gammons;
* ``"ban-bear-off"``: Ban-sugoroku's bear-off finish, doubles move twice;
* ``"ban-arrival"``: Ban-sugoroku's arrival finish (the default), doubles
  move twice; the table's six points are the side's points 7..12.

Each kind holds the one-sided tables (every arrangement of up to 15 stones
on its six points: the distribution of the turns to finish, and for the
bear-off kinds of the turns until the first stone is off) and the
two-sided table (up to 6 stones a side: the exact winning chance of the
side to roll, and in backgammon, the one kind with a doubling cube, its
exact money cubeful equities in the cube's three states). Built in memory in a few seconds by the kernels, they are
kept in the user's cache directory (``platformdirs.user_cache_dir``, which
honours ``$XDG_CACHE_HOME``), one ``.npz`` file per kind with a SHA-256 of
its arrays, written to a temporary file and renamed into place.

A file that is missing, damaged or of another format is rebuilt with an
:class:`~bansugoroku_fast.errors.EndgameCacheWarning`. If the cache
directory cannot be written, :func:`tables` keeps the tables in memory
with the same warning (a figure is never wrong, only slower to come the
next time), while :func:`build` with ``cache=True`` (what ``python -m
bansugoroku_fast.endgames build`` runs) raises
:class:`~bansugoroku_fast.errors.EndgameCacheError`.
"""
from __future__ import annotations

import hashlib
import threading
import warnings
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import platformdirs

from .. import _kernel
from .._files import write_atomically
from ..checks import as_rules
from ..errors import (
    ArgumentTypeError,
    EndgameCacheError,
    EndgameCacheWarning,
    InvalidArgumentError,
    InvalidStonesError,
    StonesTypeError,
)
from ..rules import Rules
from ..typing import RulesLike

#: Rows of a one-sided table: every arrangement of up to 15 stones on 6 points.
POSITIONS = _kernel.TABLE_POSITIONS
#: Rows (and columns) of a two-sided table: the positions of up to 6 stones, ranks 0..923.
SMALL_POSITIONS = _kernel.TABLE_SMALL_POSITIONS

#: Bumped whenever the files' contents change meaning (a file of another format is rebuilt).
FORMAT = 3
_ARRAYS = ("finish", "finish_mean", "first", "first_mean", "win", "no_double", "tied")
#: The cube states of ``Tables.no_double``'s last axis, as the side to roll sees them.
CUBE_STATES = ("centred", "owned", "theirs")


POINTS = 6
MOST_STONES = 15


def stone_counts(stones: Sequence[int] | np.ndarray) -> list[int]:
    """``stones`` checked: six integer counts >= 0, at most 15 in all.

    Parameters
    ----------
    stones : Sequence of int
        The stones on the table's points 1..6 (numpy integers accepted).

    Returns
    -------
    list of int
        The six counts as Python ints.

    Raises
    ------
    InvalidStonesError
        Not six counts, a negative count, or more than 15 stones in all.
    StonesTypeError
        Not a sequence (a string, a number), or a count that is not an
        integer (a float, a bool).

    Examples
    --------
    >>> import numpy as np
    >>> stone_counts(np.array([3, 0, 2, 0, 0, 1]))
    [3, 0, 2, 0, 0, 1]
    >>> stone_counts((1, 0, 0, 0, 0, 16))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidStonesError: stones (1, 0, 0, 0, 0, 16) hold 17 stones; a side has at most 15
    """
    if isinstance(stones, (str, bytes, dict, set, frozenset)) or not hasattr(stones, "__len__"):
        raise StonesTypeError(f"stones must be a sequence of six integers, got {type(stones).__name__}")
    values = list(stones)
    if len(values) != POINTS:
        raise InvalidStonesError(f"stones must be six counts (points 1..6), got {len(values)}: {stones!r}")
    for point, value in enumerate(values, start=1):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise StonesTypeError(f"stones on point {point} must be an integer, got {value!r}")
        if value < 0:
            raise InvalidStonesError(f"stones on point {point} is negative ({value}) in {stones!r}")
    total = sum(int(value) for value in values)
    if total > MOST_STONES:
        raise InvalidStonesError(f"stones {stones!r} hold {total} stones; a side has at most {MOST_STONES}")
    return [int(value) for value in values]


def rank(stones: Sequence[int] | np.ndarray) -> int:
    """The table row of ``stones``: GNU Backgammon's numbering of bear-off
    positions.

    The positions of up to 6 stones are rows 0..923 (the two-sided
    table's), and every play leads to a smaller row.

    Parameters
    ----------
    stones : Sequence of int
        Six counts, the stones on the table's points 1..6 (checked as
        :func:`stone_counts` checks them).

    Returns
    -------
    int
        The row, 0 to ``POSITIONS - 1``.

    Raises
    ------
    InvalidStonesError
        Not six counts >= 0 of at most 15 stones (``StonesTypeError`` for a
        value that is not a sequence of integers).

    Examples
    --------
    >>> rank([0, 0, 0, 0, 0, 0]), rank([1, 0, 0, 0, 0, 0]), rank([0, 0, 0, 0, 0, 1])
    (0, 1, 6)
    >>> stones_of_rank(rank([3, 0, 2, 0, 0, 1]))
    [3, 0, 2, 0, 0, 1]
    """
    return _kernel.table_rank(stone_counts(stones))


def stones_of_rank(row: int) -> list[int]:
    """The six stone counts of table row ``row``: the inverse of :func:`rank`.

    Parameters
    ----------
    row : int
        A table row, ``0 <= row < POSITIONS`` (54,264).

    Returns
    -------
    list of int
        The stones on the table's points 1..6.

    Raises
    ------
    InvalidStonesError
        ``row`` is not an integer in that range.

    Examples
    --------
    >>> stones_of_rank(0), stones_of_rank(6)
    ([0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1])
    >>> stones_of_rank(POSITIONS - 1)
    [0, 0, 0, 0, 0, 15]
    """
    if isinstance(row, bool) or not isinstance(row, (int, np.integer)) or not 0 <= row < POSITIONS:
        raise InvalidStonesError(f"a table row is an integer in 0..{POSITIONS - 1}, got {row!r}")
    return _kernel.table_counts_of_rank(int(row))


def ranks(counts: np.ndarray) -> np.ndarray:
    """The table rows of many stone counts at once: :func:`rank` of each
    row.

    Parameters
    ----------
    counts : numpy.ndarray
        ``int[N, 6]``: each row the stones on the table's points 1..6, >= 0
        and at most 15 in all (anything numpy reads as such an integer
        array).

    Returns
    -------
    numpy.ndarray
        ``int32[N]``, the table rows.

    Raises
    ------
    StonesTypeError
        ``counts`` is not an integer array of shape ``(N, 6)``.
    InvalidStonesError
        A count is negative or a row holds more than 15 stones.

    Examples
    --------
    >>> import numpy as np
    >>> ranks(np.array([[0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]])).tolist()
    [0, 1, 6]
    """
    array = np.asarray(counts)
    if array.ndim != 2 or array.shape[1] != POINTS or array.dtype.kind not in "iu":
        raise StonesTypeError(f"counts must be an integer array of shape (N, 6), got {array.dtype} {array.shape}")
    if len(array) and (array.min() < 0 or array.sum(axis=1).max() > MOST_STONES):
        raise InvalidStonesError("counts must be >= 0 with at most 15 stones a row")
    return _kernel.table_ranks(array.astype(np.int8))


def play_children(rules: RulesLike = None, rows: int = POSITIONS) -> tuple[np.ndarray, np.ndarray]:
    """The table rows that the legal plays of each table row reach, roll by
    roll.

    The rolls are in the order (1,1), (1,2), .., (1,6), (2,2), .., (6,6):
    the children of row ``r`` and roll ``j`` are
    ``children[offsets[21 r + j]:offsets[21 r + j + 1]]`` (none for row 0,
    the finished side).

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults (only the table kind matters).
    rows : int
        The rows covered, ``0 .. rows - 1`` (1 to ``POSITIONS``).

    Returns
    -------
    tuple of (numpy.ndarray, numpy.ndarray)
        ``(offsets int32[21 rows + 1], children int32[M])``.

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        ``rows`` is not an integer in ``1 .. POSITIONS``.

    Examples
    --------
    >>> offsets, children = play_children("backgammon", 2)
    >>> children[offsets[21]:offsets[22]].tolist()   # one stone on point 1, roll 1-1: off
    [0]
    """
    if isinstance(rows, bool) or not isinstance(rows, (int, np.integer)) or not 0 < rows <= POSITIONS:
        raise InvalidArgumentError(f"rows must be an integer in 1..{POSITIONS}, got {rows!r}")
    return _kernel.table_children(kind_of(rules).rule_code, int(rows))


@dataclass(frozen=True)
class TableKind:
    """One kind of table: its name, the rule code its plays are searched
    under, whether stones leave the board, whether gammons count, and
    whether its rules have a doubling cube (backgammon only: Ban-sugoroku
    is played without one).

    Parameters
    ----------
    name : str
        ``"backgammon"``, ``"ban-bear-off"`` or ``"ban-arrival"``.
    rule_code : int
        The rule code its plays are searched under.
    bears_off : bool
        Whether stones leave the board.
    gammons : bool
        Whether gammons count.
    cube : bool
        Whether its rules have a doubling cube.

    Examples
    --------
    >>> kind = kind_of("backgammon")
    >>> kind.bears_off, kind.cube, kind.base_point, kind_of(None).base_point
    (True, True, 1, 7)
    """

    name: str
    rule_code: int
    bears_off: bool
    gammons: bool
    cube: bool = False

    @property
    def base_point(self) -> int:
        """The side's point that is the table's point 1."""
        return 1 if self.bears_off else 7


KINDS: dict[str, TableKind] = {
    "backgammon": TableKind("backgammon", Rules(variant="backgammon").code, True, True, cube=True),
    "ban-bear-off": TableKind("ban-bear-off", Rules(finish="bear_off", closure="off").code, True, False),
    "ban-arrival": TableKind("ban-arrival", Rules(finish="arrival", closure="off").code, False, False),
}


def kind_of(rules: RulesLike) -> TableKind:
    """The table kind of ``rules``: backgammon's, or Ban-sugoroku's under
    its bear-off or its arrival finish (the closure option changes no
    table).

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    TableKind
        One of the three kinds of :data:`KINDS`.

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that is
        not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    >>> kind_of("backgammon").name, kind_of(None).name, kind_of("ban,finish=bear_off").name
    ('backgammon', 'ban-arrival', 'ban-bear-off')
    """
    checked = as_rules(rules)
    if checked.is_backgammon:
        return KINDS["backgammon"]
    return KINDS["ban-bear-off" if checked.bears_off else "ban-arrival"]


@dataclass(frozen=True, eq=False)
class Tables:
    """Every table of one kind (read-only arrays).

    * ``finish[r, t]``: P(table position ``r`` finishes in exactly ``t``
      turns), played to least expected turns; ``finish_mean[r]`` its mean;
    * ``first[r, t]``, ``first_mean[r]`` (bear-off kinds; empty for
      arrival): the same for the turns until one of its stones is off;
    * ``win[a, b]`` (``a, b`` < 924): the exact chance that the side to
      roll with ``a`` wins against ``b``, both playing to win;
    * ``no_double[a, b, s]`` (backgammon; ``float64[0, 0, 3]`` for the
      kinds without a cube): the exact money equity, per cube of 1, of the
      side to roll with ``a`` against ``b`` when it rolls without doubling
      now, with the cube centred (``s`` = 0), its own (1) or the other
      side's (2) (:data:`CUBE_STATES`), both sides playing and handling
      the cube perfectly from then on (each state with its own plays), as
      GNU Backgammon's two-sided bear-off database holds them; no gammon is
      possible there. :func:`~.races.race` and :func:`~.races.race_cube`
      turn them into the cube decision;
    * ``tied[r]``: whether ``finish[r]`` is one of several optimal
      distributions: some roll, at ``r`` or at a play chosen below it, has
      two plays of the same least mean (within 1e-9 turns) and different
      distributions (the one of smaller rank is taken). None in backgammon.

    Parameters
    ----------
    kind : TableKind
        The kind.
    finish, finish_mean, first, first_mean, win, no_double, tied : numpy.ndarray
        The tables above.

    Examples
    --------
    >>> built = tables("backgammon")
    >>> built.finish.shape[0] == POSITIONS, built.win.shape, built.no_double.shape
    (True, (924, 924), (924, 924, 3))
    """

    kind: TableKind
    finish: np.ndarray
    finish_mean: np.ndarray
    first: np.ndarray
    first_mean: np.ndarray
    win: np.ndarray
    no_double: np.ndarray
    tied: np.ndarray


def _trimmed(*distributions: np.ndarray) -> int:
    """Columns that hold every nonzero entry of ``distributions``."""
    used = [int(np.flatnonzero(d.any(axis=0)).max()) + 1 for d in distributions if d.size]
    return max(used)


def build(rules: RulesLike = None, *, cache: bool = False,
          progress: Callable[[int], None] | None = None) -> Tables:
    """Build the tables of ``rules``' kind in memory (a few seconds).

    The built tables replace those held in memory, so that :func:`tables`
    returns them from then on.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults (only the table kind matters).
    cache : bool
        Also write them to the cache directory (:func:`cache_dir`).
    progress : Callable[[int], None] or None
        Told of one-sided rows as they are done (:data:`ROWS_PER_KIND` in
        all, the two-sided table counting as the last
        :data:`SMALL_POSITIONS`).

    Returns
    -------
    Tables
        Every table of the kind, read-only.

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set.
    ArgumentTypeError
        ``cache`` is not a bool or ``progress`` not a callable.
    EndgameCacheError
        With ``cache=True``, the cache file cannot be written.

    Examples
    --------
    >>> done = []
    >>> built = build("backgammon", progress=done.append)
    >>> built.kind.name, built.win.shape, done[-1] == ROWS_PER_KIND
    ('backgammon', (924, 924), True)
    """
    kind = kind_of(rules)
    if not isinstance(cache, bool):
        raise ArgumentTypeError(f"cache must be True or False, got {cache!r}")
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be a callable taking a row count, or None, got {progress!r}")
    one = _kernel.build_one_sided(kind.rule_code, kind.bears_off, progress=progress)
    turns = _trimmed(one.finish, one.first)
    win, no_double = _kernel.build_two_sided(kind.rule_code, cubeful=kind.cube)
    if progress is not None:
        progress(ROWS_PER_KIND)
    built = _frozen(kind, one.finish[:, :turns], one.finish_mean, one.first[:, :turns], one.first_mean, win,
                    no_double, one.ties != 0)
    if cache:
        try:
            _save(built)
        except OSError as error:
            raise EndgameCacheError(f"cannot write the endgame tables to {cache_dir()}: {error}") from error
    with _LOCK:
        _LOADED[kind.name] = built
    return built


#: Progress units of one kind: its one-sided rows, then the two-sided table.
ROWS_PER_KIND = _kernel.TABLE_POSITIONS + _kernel.TABLE_SMALL_POSITIONS


def _frozen(kind: TableKind, *arrays: np.ndarray) -> Tables:
    """Read-only C-contiguous copies in the tables' dtypes (``tied`` bool, the others float64)."""
    copies = [np.ascontiguousarray(array, dtype=bool if name == "tied" else np.float64)
              for name, array in zip(_ARRAYS, arrays)]
    for array in copies:
        array.setflags(write=False)
    return Tables(kind, *copies)


_LOADED: dict[str, Tables] = {}
_LOCK = threading.Lock()


def tables(rules: RulesLike = None) -> Tables:
    """The tables of ``rules``' kind: from memory, else the cache file, else
    built (and cached).

    A damaged cache file is rebuilt; a cache directory that cannot be
    written keeps the built tables in memory only and warns
    (:class:`~bansugoroku_fast.errors.EndgameCacheWarning`; see the module).

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults (only the table kind matters).

    Returns
    -------
    Tables
        Every table of the kind, read-only.

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that is
        not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    One stone on the table's point 1 finishes in one turn, whatever the
    roll:

    >>> finished = tables("backgammon").finish[rank([1, 0, 0, 0, 0, 0])]
    >>> finished[:3].round(12).tolist()
    [0.0, 1.0, 0.0]
    """
    kind = kind_of(rules)
    with _LOCK:
        loaded = _LOADED.get(kind.name)
    if loaded is not None:
        return loaded
    path = cache_path(kind)
    found = _load(path, kind)
    if found is None:
        built = build(kind_rules(kind))
        try:
            _save(built)
        except OSError as error:
            warnings.warn(f"cannot write the endgame tables to {path.parent} ({error}); "
                          "they are kept in memory only", EndgameCacheWarning, stacklevel=2)
        return built
    with _LOCK:
        return _LOADED.setdefault(kind.name, found)


def kind_rules(kind: TableKind) -> Rules:
    """Rules whose kind is ``kind``."""
    if kind.name == "backgammon":
        return Rules(variant="backgammon")
    return Rules(finish="bear_off" if kind.bears_off else "arrival")


def forget() -> None:
    """Drop the tables held in memory (the next look-up reads the cache again)."""
    with _LOCK:
        _LOADED.clear()


# --- the cache files ----------------------------------------------------------


def cache_dir() -> Path:
    """Where the tables are cached: the ``endgames`` folder of the package's
    ``platformdirs.user_cache_dir``.

    On Linux that is ``$XDG_CACHE_HOME/bansugoroku-fast/endgames`` where
    ``XDG_CACHE_HOME`` is set, else ``~/.cache/bansugoroku-fast/endgames``.

    Returns
    -------
    pathlib.Path
        The folder (it need not exist yet).

    Examples
    --------
    >>> cache_dir().parts[-2:]
    ('bansugoroku-fast', 'endgames')
    """
    return Path(platformdirs.user_cache_dir("bansugoroku-fast")) / "endgames"


def cache_path(kind: TableKind) -> Path:
    return cache_dir() / f"{kind.name}-v{FORMAT}.npz"


def _checksum(arrays: dict[str, np.ndarray]) -> np.ndarray:
    digest = hashlib.sha256()
    for name in _ARRAYS:
        array = arrays[name]
        digest.update(f"{name}{array.shape}{array.dtype.str}".encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return np.frombuffer(digest.digest(), dtype=np.uint8)


def _save(built: Tables) -> None:
    """Write ``built`` to its cache file atomically (a temporary file in the
    same directory, renamed over the old one)."""
    path = cache_path(built.kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {name: getattr(built, name) for name in _ARRAYS}
    def write(temporary: str) -> None:
        with open(temporary, "wb") as file:
            np.savez(file, sha256=_checksum(arrays), **arrays)

    write_atomically(path, write, durable=True)
    for older in path.parent.glob(f"{built.kind.name}-v*.npz"):
        if older != path:   # another format's file: never read again
            older.unlink(missing_ok=True)


def _load(path: Path, kind: TableKind) -> Tables | None:
    """The tables in ``path``, or None (with a warning unless it is simply
    missing) if it cannot be used."""
    if not path.exists():
        warnings.warn(f"building the {kind.name} endgame tables (no cache file at {path}; a few seconds)",
                      EndgameCacheWarning, stacklevel=3)
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in _ARRAYS}
            stored = data["sha256"]
        problem = _problem(arrays, stored, kind)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
        problem = f"unreadable ({type(error).__name__}: {error})"
    if problem is not None:
        warnings.warn(f"rebuilding the {kind.name} endgame tables: the cache file {path} is {problem}",
                      EndgameCacheWarning, stacklevel=3)
        return None
    return _frozen(kind, *(arrays[name] for name in _ARRAYS))


def _problem(arrays: dict[str, np.ndarray], stored: np.ndarray, kind: TableKind) -> str | None:
    """What is wrong with arrays read from a cache file, or None."""
    positions, small = _kernel.TABLE_POSITIONS, _kernel.TABLE_SMALL_POSITIONS
    first_rows = positions if kind.bears_off else 0
    cube_rows = small if kind.cube else 0
    expected = {"finish_mean": (positions,), "first_mean": (first_rows,), "win": (small, small),
                "no_double": (cube_rows, cube_rows, len(CUBE_STATES)), "tied": (positions,)}
    for name, array in arrays.items():
        dtype = np.dtype(bool if name == "tied" else np.float64)
        if array.dtype != dtype:
            return f"damaged ({name} is {array.dtype}, not {dtype})"
        if name in expected and array.shape != expected[name]:
            return f"damaged ({name} has shape {array.shape})"
    if arrays["finish"].ndim != 2 or arrays["finish"].shape[0] != positions:
        return f"damaged (finish has shape {arrays['finish'].shape})"
    if arrays["first"].shape != (first_rows, arrays["finish"].shape[1]):
        return f"damaged (first has shape {arrays['first'].shape})"
    if stored.shape != (32,) or not np.array_equal(stored, _checksum(arrays)):
        return "damaged (its checksum does not match)"
    return None
