"""Exact race figures from the tables: one position, a batch, the exact
money cube decision of a small race, and the best play of a race.

A race (no contact) whose stones all stand on a table's points is valued
exactly: two-sided (both sides with at most 6 stones: the exact chance
under both sides' best play for winning, and in backgammon the exact money
cubeful equities under perfect cube play) or one-sided (the convolution of
the two sides' distributions of turns, each side playing to least expected
turns: exact for that play, an approximation of the best play for winning;
docs/endgames.md gives the largest difference found).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np

from .. import _kernel
from ..batch import outcome as outcome_batch
from ..checks import as_rules, check_position_for_rules
from ..errors import (
    ContactError,
    InvalidArgumentError,
    InvalidCubeError,
    NotARaceError,
    NotInTableError,
    TableRulesError,
)
from ..moves import legal_plays
from ..play import Play
from ..position import Position, as_position
from ..rules import Rules
from ..scoring import HEURISTIC_WEIGHTS
from ..typing import BatchLike, DiceLike, PositionLike, RulesLike
from .store import CUBE_STATES, TableKind, kind_of, tables

Method = Literal["two-sided", "one-sided"]


class CubefulEquities(NamedTuple):
    """Exact money equities of the side to roll, per cube of 1, in each of the
    cube's states.

    Parameters
    ----------
    centred : float
        With the cube centred.
    owned : float
        With the cube owned by the side to roll.
    theirs : float
        With the cube owned by the other side.

    Examples
    --------
    One stone each on point 1: the side to roll wins at once, 1 per cube
    whoever owns it:

    >>> from bansugoroku_fast import Position
    >>> figures = race(Position([[14, 1] + [0] * 24, [14, 1] + [0] * 24]), "backgammon")
    >>> [round(value, 9) for value in figures.no_double]
    [1.0, 1.0, 1.0]
    """

    centred: float
    owned: float
    theirs: float


CubefulEquities.centred.__doc__ = "The exact money equity of the side to roll, per cube of 1, with the cube centred."
CubefulEquities.owned.__doc__ = "The same with the cube owned by the side to roll."
CubefulEquities.theirs.__doc__ = "The same with the cube owned by the other side."


def with_cube_action(no_double: np.ndarray) -> np.ndarray:
    """``float64[..., 3]``: the equities of :class:`CubefulEquities`'
    states once the side to roll has made its own cube decision, from its
    no-double equities ``float64[..., 3]``: where it may double (the cube
    centred or its own) it doubles when doubling is no worse than not, and
    the other side takes (worth twice the ``theirs`` no-double equity) or
    passes (1), whichever costs it less.

    >>> with_cube_action(np.array([0.4, 0.5, 0.45])).round(6).tolist()
    [0.9, 0.9, 0.45]
    """
    no_double = np.asarray(no_double, dtype=np.float64)
    take = 2 * no_double[..., 2]
    out: np.ndarray = no_double.copy()
    for state in (0, 1):
        doubles = (take >= no_double[..., state]) & (no_double[..., state] <= 1.0)
        out[..., state] = np.where(doubles, np.minimum(take, 1.0), no_double[..., state])
    return out


@dataclass(frozen=True)
class RaceResult:
    """Exact race figures for row 0, the side to roll.

    ``win``: P(row 0 wins); ``win_gammon`` / ``lose_gammon``: P(it wins /
    loses a gammon) (backgammon only; 0 where the loser has a stone off
    already, and in Ban-sugoroku, where a race is always worth 1);
    ``equity``: the cubeless equity, ``2 win - 1 + win_gammon -
    lose_gammon`` (no backgammon is possible in a table position);
    ``turns``: each side's expected turns to finish (row 0, row 1), played
    to least expected turns; ``method``: ``"two-sided"`` or ``"one-sided"``;
    ``no_double``: with the two-sided method in backgammon (else None),
    the exact money equities, per cube of 1, when the side to roll rolls
    without doubling, in the cube's three states (perfect cube play and
    cube-aware plays by both sides from then on); :attr:`cubeful`: the
    same once the side to roll has made its own cube decision.

    Parameters
    ----------
    win : float
        P(row 0 wins).
    win_gammon : float
        P(it wins a gammon).
    lose_gammon : float
        P(it loses a gammon).
    equity : float
        The cubeless equity.
    turns : tuple of (float, float)
        Each side's expected turns to finish, row 0's first.
    method : str
        ``"two-sided"`` or ``"one-sided"``.
    no_double : CubefulEquities or None
        The exact money equities without doubling, in the cube's three
        states (two-sided backgammon only).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> figures = race(Position([[14, 0, 0, 0, 0, 0, 1] + [0] * 19, [14, 1] + [0] * 24]), "backgammon")
    >>> round(figures.win * 36, 9), figures.method, figures.turns[1]
    (27.0, 'two-sided', 1.0)
    """

    win: float
    win_gammon: float
    lose_gammon: float
    equity: float
    turns: tuple[float, float]
    method: Method
    no_double: CubefulEquities | None = None

    @property
    def cubeful(self) -> CubefulEquities | None:
        """The exact money cubeful equities in the three cube states, the
        side to roll's own double (and the other side's answer) included
        (None where :attr:`no_double` is)."""
        if self.no_double is None:
            return None
        return CubefulEquities(*(float(v) for v in with_cube_action(np.array(self.no_double))))


@dataclass(frozen=True, eq=False)
class RaceBatch:
    """Race figures of a batch (row 0 of each position to roll): arrays of
    length ``N`` as in :class:`RaceResult` (``turns`` is ``float64[N, 2]``),
    ``two_sided`` (bool: the method), ``in_table`` (bool: False where
    the position is not a table race, its figures NaN, with
    ``outside="nan"``), and ``no_double`` (``float64[N, 3]``, NaN where
    :class:`RaceResult`'s is None).

    Parameters
    ----------
    win, win_gammon, lose_gammon, equity : numpy.ndarray
        ``float64[N]``, as in :class:`RaceResult`.
    turns : numpy.ndarray
        ``float64[N, 2]``.
    two_sided : numpy.ndarray
        ``bool[N]``: the method.
    in_table : numpy.ndarray
        ``bool[N]``: False where the position is not a table race.
    no_double : numpy.ndarray
        ``float64[N, 3]``, NaN where :class:`RaceResult`'s is None.

    Examples
    --------
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> figures = race_batch(Position.initial().array[None], "backgammon", outside="nan")
    >>> figures.in_table.tolist(), bool(np.isnan(figures.win[0]))
    ([False], True)
    """

    win: np.ndarray
    win_gammon: np.ndarray
    lose_gammon: np.ndarray
    equity: np.ndarray
    turns: np.ndarray
    two_sided: np.ndarray
    in_table: np.ndarray
    no_double: np.ndarray

    def __len__(self) -> int:
        return len(self.win)

    @property
    def cubeful(self) -> np.ndarray:
        """``float64[N, 3]``: :attr:`RaceResult.cubeful` of each position (NaN where none)."""
        return with_cube_action(self.no_double)

    def value_probabilities(self) -> np.ndarray:
        """``float64[N, 2, 4]``: ``[i, row, value]`` = the probability that
        ``row`` (0 = the side to roll) of position ``i`` wins it with
        ``value`` (column 0 unused, 0; no backgammon, value 3, in a table
        race), laid out as a rollout's ``counts[seat][value]``, so that a
        rollout that stops at the tables adds these instead of one game's
        count (NaN where ``in_table`` is False).

        >>> from bansugoroku_fast import Position
        >>> board = [[0, 0, 0, 0, 0, 0, 15] + [0] * 19, [14, 1] + [0] * 24]
        >>> (race_batch(Position(board).array[None], "backgammon").value_probabilities()[0] * 36).round(9)
        array([[ 0.,  0.,  0.,  0.],
               [ 0., 17., 19.,  0.]])
        """
        out = np.zeros((len(self), 2, 4))
        out[:, 0, 1] = self.win - self.win_gammon
        out[:, 0, 2] = self.win_gammon
        out[:, 1, 1] = 1 - self.win - self.lose_gammon
        out[:, 1, 2] = self.lose_gammon
        out[~self.in_table] = np.nan
        return out

    def __getitem__(self, index: int) -> RaceResult:
        """Item ``index`` as a :class:`RaceResult` (a table race only)."""
        if not self.in_table[index]:
            raise NotARaceError(f"position {index} of the batch is not a table race")
        cube = self.no_double[index]
        return RaceResult(float(self.win[index]), float(self.win_gammon[index]), float(self.lose_gammon[index]),
                          float(self.equity[index]), (float(self.turns[index, 0]), float(self.turns[index, 1])),
                          "two-sided" if self.two_sided[index] else "one-sided",
                          None if np.isnan(cube).any() else CubefulEquities(*(float(v) for v in cube)))


def race(position: PositionLike, rules: RulesLike = None, *, method: Method | None = None) -> RaceResult:
    """The exact race figures of ``position`` (row 0 to roll) under
    ``rules``, from the endgame tables.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        A race (no contact) whose stones all stand on the tables' points
        (the home board in backgammon), row 0 to roll.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.
    method : str or None
        None for the two-sided table where both sides fit in it (6 stones
        or fewer), else the one-sided convolution; ``"one-sided"`` for the
        convolution everywhere (to compare); ``"two-sided"`` to insist on
        the table.

    Returns
    -------
    RaceResult
        P(win), the gammon chances, the cubeless equity, each side's
        expected turns, the method used and, two-sided in backgammon, the
        exact cubeful money equities.

    Raises
    ------
    ContactError
        The position has contact (a stone on the bar, or stones not yet
        past each other).
    NotInTableError
        A stone stands outside the tables' points, or ``method="two-sided"``
        for a side of more than 6 stones.
    NotARaceError
        The game is over.
    InvalidPositionError
        The position is not one of the rules (the errors above derive from
        it).
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        ``method`` is not one of the three.

    Examples
    --------
    Backgammon, a lone stone on the 6-point against one on the 1-point: the
    side to roll must bear off at once, which 27 rolls of 36 do (all but
    1-1, 1-2, 1-3, 1-4, 2-3):

    >>> from bansugoroku_fast import Position
    >>> board = [[14, 0, 0, 0, 0, 0, 1] + [0] * 19, [14, 1] + [0] * 24]
    >>> result = race(Position(board), "backgammon")
    >>> result.method, round(result.win * 36, 9), result.turns
    ('two-sided', 27.0, (1.25, 1.0))

    With the cube centred the side to roll doubles: the other side wins 9
    times in 36, just its 25% take point, so a take (2 x (27 - 9) / 36 = 1)
    and a pass cost it the same:

    >>> result.no_double.centred, result.cubeful.centred
    (0.5, 1.0)
    """
    if method not in (None, "one-sided", "two-sided"):
        raise InvalidArgumentError(f"method must be None, 'one-sided' or 'two-sided', got {method!r}")
    checked_rules = as_rules(rules)
    checked = as_position(position)
    check_position_for_rules(checked, checked_rules)
    result = _figures(checked.array[None], checked_rules, "the position", two_sided=method != "one-sided")[0]
    if method == "two-sided" and result.method != "two-sided":
        raise NotInTableError("the position has a side with more than 6 stones: no two-sided table covers it")
    return result


def race_batch(positions: BatchLike, rules: RulesLike = None, *,
               outside: Literal["raise", "nan"] = "raise") -> RaceBatch:
    """The race figures of each position of a batch, from the endgame
    tables.

    Parameters
    ----------
    positions : ~bansugoroku_fast.typing.BatchLike
        ``int8[N, 2, 26]`` positions, row 0 of each to roll.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.
    outside : str
        ``"raise"`` raises the typed error of :func:`race` for the first
        position that is not a table race (naming it); ``"nan"`` marks such
        positions ``in_table = False`` with NaN figures instead (what a
        rollout that stops at the tables needs).

    Returns
    -------
    RaceBatch
        The figures of :class:`RaceResult` as arrays of length N, with
        ``in_table`` and ``two_sided`` masks.

    Raises
    ------
    InvalidPositionError
        A position is not one of the rules (named by its index).
    NotARaceError
        With ``outside="raise"``, a position that is not a table race
        (``ContactError``, ``NotInTableError`` or a finished game), named
        by its index.
    InvalidRulesError
        The rules are not a rule set.
    InvalidArgumentError
        ``outside`` is not ``"raise"`` or ``"nan"``.

    Examples
    --------
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[:, 0], board[0, 6], board[1, 1] = 14, 1, 1     # as in race()'s example
    >>> figures = race_batch(np.stack([board, Position.initial().array]), "backgammon", outside="nan")
    >>> figures.in_table.tolist(), round(float(figures.win[0]) * 36, 9)
    ([True, False], 27.0)
    """
    if outside not in ("raise", "nan"):
        raise InvalidArgumentError(f"outside must be 'raise' or 'nan', got {outside!r}")
    checked_rules = as_rules(rules)
    over = outcome_batch(positions, checked_rules).winner >= 0   # validates every position
    array = np.ascontiguousarray(positions, dtype=np.int8).reshape(-1, 2, 26)
    return _batch(array, checked_rules, over, raise_outside=outside == "raise")


def _batch(array: np.ndarray, rules: Rules, over: np.ndarray, *, raise_outside: bool,
           two_sided: bool = True) -> RaceBatch:
    kind = kind_of(rules)
    built = tables(rules)
    win = built.win if two_sided else np.zeros((0, 0))
    figures, status = _kernel.race_lookup(array, kind.bears_off, kind.gammons, built.finish, built.finish_mean,
                                          built.first, win)
    in_table = (status >= 0) & ~over
    if raise_outside and not in_table.all():
        first = int(np.flatnonzero(~in_table)[0])
        raise _not_a_race(array[first], kind, f"position {first} of the batch")
    figures[~in_table] = np.nan
    two_sided_rows = status == _kernel.RACE_TWO_SIDED
    no_double = np.full((len(array), len(CUBE_STATES)), np.nan)
    cubeful_rows = np.flatnonzero(two_sided_rows & in_table) if kind.cube else np.zeros(0, dtype=np.int64)
    if len(cubeful_rows):
        ours, theirs = (_kernel.table_ranks(array[cubeful_rows, row, kind.base_point:kind.base_point + 6])
                        for row in (0, 1))
        no_double[cubeful_rows] = built.no_double[ours, theirs]
    win, win_gammon, lose_gammon = figures[:, 0], figures[:, 1], figures[:, 2]
    return RaceBatch(win, win_gammon, lose_gammon, 2 * win - 1 + win_gammon - lose_gammon, figures[:, 3:5],
                     two_sided_rows, in_table, no_double)


def _figures(array: np.ndarray, rules: Rules, where: str, two_sided: bool) -> RaceBatch:
    over = outcome_batch(array, rules).winner >= 0
    try:
        return _batch(array, rules, over, raise_outside=True, two_sided=two_sided)
    except NotARaceError as error:
        raise type(error)(str(error).replace("position 0 of the batch", where)) from None


def _not_a_race(board: np.ndarray, kind: TableKind, where: str) -> NotARaceError:
    """The typed error for a valid position ``board`` that no table values."""
    rows = board.astype(int)
    if _has_contact(rows):
        return ContactError(f"{where} has contact (a stone on the bar, or stones not yet past each other): "
                            "not a race")
    for row, name in ((rows[0], "row 0"), (rows[1], "row 1")):
        top = kind.base_point + 5
        outside = [p for p in range(top + 1, 26) if row[p]]
        if outside:
            return NotInTableError(f"{where}: {name} has stones on point(s) {outside}; the {kind.name} tables "
                                   f"cover points 1..{top} only")
    return NotARaceError(f"{where}: the game is over")


def _has_contact(rows: np.ndarray) -> bool:
    return bool(contact(np.asarray(rows)[None])[0])


def contact(positions: np.ndarray) -> np.ndarray:
    """``bool[N]``: whether each of ``int8[N, 2, 26]`` positions has
    contact, some stone of one row still having a stone of the other
    ahead of it: the two rows' rearmost places (points 1..24, the bar 25;
    0 for none) add up to more than 25, as row 1's place ``q`` is row 0's
    ``25 - q``. A position without contact is a race.

    >>> from bansugoroku_fast import Position
    >>> contact(np.stack([Position.initial().array, Position([[14, 1] + [0] * 24, [14, 1] + [0] * 24]).array]))
    array([ True, False])
    """
    occupied = np.asarray(positions)[:, :, 1:26] > 0
    rearmost = np.where(occupied.any(axis=2), 25 - np.argmax(occupied[:, :, ::-1], axis=2), 0)
    result: np.ndarray = rearmost.sum(axis=1) > 25
    return result


# --- the exact money cube decision of a small race ---------------------------------


#: Equities this close are one (a sum of 21 rolls' shares rounds at about 1e-16: a
#: sure win can come out at 1 + 2e-16); at a tie the side to roll doubles and the
#: other side passes, as GNU Backgammon decides.
SAME_EQUITY = 1e-12


@dataclass(frozen=True)
class RaceCube:
    """The exact money cube decision of the side to roll in a two-sided
    backgammon table race (see :func:`race_cube`), equities per cube of 1:

    * ``no_double``: rolling without doubling; ``double_take``: doubling
      and being taken (twice the equity with the cube then the other
      side's); ``double_pass``: 1;
    * ``doubles``: the side to roll should double (False where the cube is
      the other side's: it may not); ``takes``: the other side should take
      a double (a take costs it less than a pass);
    * ``equity``: the equity of the proper actions.

    Parameters
    ----------
    no_double : float
        Rolling without doubling.
    double_take : float
        Doubling and being taken.
    double_pass : float
        Doubling and being passed: 1.
    doubles : bool
        The side to roll should double.
    takes : bool
        The other side should take a double.
    equity : float
        The equity of the proper actions.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> decision = race_cube(Position([[14, 1] + [0] * 24, [14, 1] + [0] * 24]), "backgammon")
    >>> round(decision.no_double, 9), decision.takes      # it wins at once: a double is passed
    (1.0, False)
    """

    no_double: float
    double_take: float
    double_pass: float
    doubles: bool
    takes: bool
    equity: float


def race_cube(position: PositionLike, rules: RulesLike = None, *, owner: int | None = None) -> RaceCube:
    """The exact money cube decision of the side to roll (row 0) of a
    backgammon race where both sides have at most 6 stones.

    From the two-sided table's cubeful equities (both sides handling the
    cube perfectly from then on, as GNU Backgammon's two-sided bear-off
    database holds them).

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        A race with at most 6 stones a side, all on the home board, row 0 to
        roll.
    rules : ~bansugoroku_fast.typing.RulesLike
        Backgammon's rules (a :class:`~bansugoroku_fast.rules.Rules` or
        ``"backgammon"``); None means Ban-sugoroku's, which has no cube.
    owner : int or None
        None with the cube centred, 0 when the side to roll owns it, 1 when
        the other side does (the side to roll then cannot double).

    Returns
    -------
    RaceCube
        The equities of no double, double/take and double/pass (per cube of
        1), whether the side to roll doubles, whether the other side takes,
        and the equity with the cube handled right.

    Raises
    ------
    TableRulesError
        Ban-sugoroku's rules (played without a cube).
    NotInTableError
        More than 6 stones a side, or stones off the table's points.
    ContactError
        The position is not a race.
    NotARaceError
        The game is over (the errors above derive from it).
    InvalidPositionError
        The position is not one of the rules.
    InvalidRulesError
        The rules are not a rule set.
    InvalidCubeError
        ``owner`` is not None, 0 or 1.

    Examples
    --------
    One stone each, the side to roll's on its 5-point and the other side's
    on its 6-point: the side to roll bears off at once with 31 rolls of 36
    (all but 1-1, 1-2, 1-3); after a miss the other side bears off with
    27 and else loses, so it doubles and wins 1 whether it is taken or
    passed. Not doubling is worth 2 x 31 / 36 - 1 = 26 / 36; a double is a
    pass:

    >>> from bansugoroku_fast import Position
    >>> board = [[14, 0, 0, 0, 0, 1] + [0] * 20, [14, 0, 0, 0, 0, 0, 1] + [0] * 19]
    >>> decision = race_cube(Position(board), "backgammon")
    >>> round(decision.no_double * 36, 9), decision.doubles, decision.takes, decision.equity
    (26.0, True, False, 1.0)
    """
    checked_rules = as_rules(rules)
    if isinstance(owner, bool) or owner not in (None, 0, 1):
        raise InvalidCubeError(f"owner is None (the cube centred), 0 (the side to roll) or 1 (the other side), "
                               f"got {owner!r}")
    if not kind_of(checked_rules).cube:
        raise TableRulesError(f"{checked_rules.short_name} is played without a doubling cube: no cubeful table")
    result = race(position, checked_rules, method="two-sided")
    assert result.no_double is not None       # a two-sided backgammon race
    state = {None: 0, 0: 1, 1: 2}[owner]
    no_double = result.no_double[state]
    double_take = 2 * result.no_double.theirs
    may_double = owner != 1
    doubles = may_double and double_take >= no_double - SAME_EQUITY and no_double <= 1.0 + SAME_EQUITY
    equity = min(double_take, 1.0) if doubles else no_double
    return RaceCube(no_double, double_take, 1.0, doubles, double_take < 1.0 - SAME_EQUITY, equity)


# --- how far the one-sided approximation is from the exact table ------------------


@dataclass(frozen=True)
class OneSidedError:
    """The one-sided convolution against the two-sided table, over every
    pair of table positions with 1 to 6 stones a side: the largest and the
    mean absolute difference in the winning chance of the side to roll,
    and a position where the largest is reached (row 0 to roll).

    Parameters
    ----------
    largest : float
        The largest absolute difference in the winning chance.
    mean : float
        The mean absolute difference.
    position : Position
        A position where the largest is reached, row 0 to roll.

    Examples
    --------
    >>> error = one_sided_error("backgammon")
    >>> error.mean <= error.largest
    True
    """

    largest: float
    mean: float
    position: Position


def one_sided_differences(rules: RulesLike = None) -> np.ndarray:
    """The one-sided convolution's winning chance minus the exact two-sided
    one, for every pair of table positions of up to 6 stones.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    numpy.ndarray
        ``float64[924, 924]``: entry ``[a, b]`` for the side to roll with
        table position ``a`` against ``b``; row and column 0 (a finished
        side) are 0.

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    A side with one stone on point 1 finishes at its next turn, which the
    convolution knows as well as the table:

    >>> differences = one_sided_differences("backgammon")
    >>> differences.shape, float(abs(differences[1]).max()) < 1e-12
    ((924, 924), True)
    """
    built = tables(rules)
    small = _kernel.TABLE_SMALL_POSITIONS
    finish = built.finish[:small]
    at_least = np.cumsum(finish[:, ::-1], axis=1)[:, ::-1]     # at_least[b, t] = P(T_b >= t)
    difference: np.ndarray = finish @ at_least.T - built.win
    difference[0, :] = difference[:, 0] = 0.0
    return difference


def one_sided_error(rules: RulesLike = None) -> OneSidedError:
    """How far the one-sided approximation of the winning chance is from the
    exact two-sided table under ``rules``, over all 923 x 923 pairs.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    OneSidedError
        The largest and the mean absolute difference, and a position where
        the largest is reached (row 0 to roll).

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    >>> error = one_sided_error("backgammon")
    >>> 0.01 < error.largest < 0.02, error.mean < 0.001
    (True, True)
    >>> exact = race(error.position, "backgammon")
    >>> approximate = race(error.position, "backgammon", method="one-sided")
    >>> abs(exact.win - approximate.win) == error.largest
    True
    """
    checked_rules = as_rules(rules)
    kind = kind_of(checked_rules)
    difference = np.abs(one_sided_differences(checked_rules))[1:, 1:]
    a, b = (int(i) + 1 for i in np.unravel_index(int(difference.argmax()), difference.shape))
    rows = []
    for stones in (_kernel.table_counts_of_rank(a), _kernel.table_counts_of_rank(b)):
        row = [0] * 26
        row[kind.base_point:kind.base_point + 6] = stones
        row[0 if kind.bears_off else 1] += 15 - sum(stones)
        rows.append(row)
    return OneSidedError(float(difference.max()), float(difference.mean()), Position(rows))


# --- the best play of a race -----------------------------------------------------


def race_scores(children: np.ndarray, rules: RulesLike = None) -> np.ndarray:
    """The cubeless equity of the side that has just played, after each
    child of a play search.

    Its win's value if it has finished, else minus the opponent's race
    equity; exact where the two-sided table applies. The children are laid
    out as ``generate_plays`` and callable policies see them.

    Parameters
    ----------
    children : numpy.ndarray
        ``int8[M, 2, 26]``, row 0 = the side that has just played.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    numpy.ndarray
        ``float64[M]``, one equity per child.

    Raises
    ------
    InvalidPositionError
        ``children`` is not an ``(M, 2, 26)`` array of positions of the
        rules.
    NotARaceError
        A child that is not a table race nor finished (``ContactError``,
        ``NotInTableError``), named by its index.
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    The side that has played has borne off its last stone (a single win:
    the other side has borne one off); or it keeps a stone on point 1
    while the other side, to roll, has one there too:

    >>> import numpy as np
    >>> won = [[15] + [0] * 25, [14, 1] + [0] * 24]
    >>> last = [[14, 1] + [0] * 24, [14, 1] + [0] * 24]
    >>> race_scores(np.array([won, last], dtype=np.int8), "backgammon").round(12).tolist()
    [1.0, -1.0]
    """
    checked_rules = as_rules(rules)
    result = outcome_batch(children, checked_rules)
    array = np.ascontiguousarray(children, dtype=np.int8).reshape(-1, 2, 26)
    finished = result.winner >= 0
    scores = np.where(result.winner == 0, result.value, -result.value).astype(np.float64)
    going = np.flatnonzero(~finished)
    if len(going):
        swapped = np.ascontiguousarray(array[going][:, ::-1, :])
        figures = _batch(swapped, checked_rules, np.zeros(len(going), dtype=bool), raise_outside=True)
        scores[going] = -figures.equity
    return scores


def race_play(position: PositionLike, dice: DiceLike, rules: RulesLike = None) -> Play | None:
    """The play of ``position`` with ``dice`` that maximises the mover's
    cubeless equity by the tables (the first such in ``legal_plays``
    order).

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        A race on the tables' points, row 0 to play.
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll: a pair of integers in 1..6 or text such as ``"6-5"``.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.

    Returns
    -------
    Play or None
        The best play; None if there is no play (a pass, or a game over).

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules.
    NotARaceError
        The position is not a race on the tables' points
        (``ContactError``, ``NotInTableError``).
    InvalidDiceError
        The dice are not a roll.
    InvalidRulesError
        The rules are not a rule set.

    Examples
    --------
    Backgammon, stones on the 6- and 5-points, roll 4-1, against four
    stones on the 1-point (which come off next turn only with a double):
    the mover should leave the position most likely to finish next turn,
    a lone stone on the 6-point (27 rolls in 36) rather than 4 and 2, or 5
    and 1 (23 rolls each):

    >>> from bansugoroku_fast import Position
    >>> board = [[13, 0, 0, 0, 0, 1, 1] + [0] * 19, [11, 4] + [0] * 24]
    >>> [str(play) for play in legal_plays(Position(board), (4, 1), "backgammon")]
    ['6/1', '6/2 5/4', '5/off']
    >>> str(race_play(Position(board), (4, 1), "backgammon"))
    '5/off'
    """
    checked_rules = as_rules(rules)
    checked_position = as_position(position)
    plays = legal_plays(checked_position, dice, checked_rules)
    if not plays:
        return None
    race(checked_position, checked_rules)   # a position that is not a table race is named as given
    children = np.stack([play.position.array for play in plays])
    return plays[int(np.argmax(race_scores(children, checked_rules)))]


class RacePolicy:
    """A callable policy (``policy(children, offsets) -> scores``) that
    plays races by the tables: every child scored by :func:`race_scores`.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        The rules of the games it plays.

    Examples
    --------
    >>> from bansugoroku_fast import GameBatch, Position, segment_argmax
    >>> board = [[12, 0, 1, 1, 1] + [0] * 21, [12, 0, 1, 1, 1] + [0] * 21]
    >>> batch = GameBatch("backgammon", 4, start=Position(board), seed=3)
    >>> policy = RacePolicy("backgammon")
    >>> while not batch.done:
    ...     wave = batch.candidates()
    ...     batch.step(segment_argmax(policy(wave.children, wave.offsets), wave.offsets))
    >>> len(batch.records().winner)
    4
    """

    def __init__(self, rules: RulesLike = None):
        self.rules = as_rules(rules)

    def __call__(self, children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        return race_scores(children, self.rules)


class TablePolicy:
    """The ``"race"`` policy, a callable ``policy(children, offsets) ->
    scores``: where every candidate of a game is a race on the exact
    endgame tables' points, or a win, each is scored by the mover's equity
    from the tables (:func:`~bansugoroku_fast.endgames.race_scores`);
    elsewhere by the ``"heuristic"`` weights (features dotted with
    :data:`HEURISTIC_WEIGHTS`).

    Stones on the 6- and 5-points, roll 4-1, against four stones on the
    1-point: the tables bear the 5 off (a lone 6 then comes off next turn
    with 27 rolls of 36):

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        The rules of the games it plays.

    Examples
    --------
    >>> from bansugoroku_fast import Position, legal_plays, segment_argmax
    >>> board = [[13, 0, 0, 0, 0, 1, 1] + [0] * 19, [11, 4] + [0] * 24]
    >>> plays = legal_plays(Position(board), (4, 1), "backgammon")
    >>> children = np.stack([play.position.array for play in plays])
    >>> scores = TablePolicy("backgammon")(children, np.array([0, len(plays)]))
    >>> str(plays[int(segment_argmax(scores, np.array([0, len(plays)]))[0])])
    '5/off'
    """

    def __init__(self, rules: RulesLike = None) -> None:
        self.rules = as_rules(rules)
        self.weights = np.array(HEURISTIC_WEIGHTS[self.rules.variant])

    def __call__(self, children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        children = np.ascontiguousarray(children, dtype=np.int8)
        scores: np.ndarray = _kernel.features(children, self.rules).astype(np.float64) @ self.weights
        if not len(children):
            return scores
        ended = outcome_batch(children, self.rules)
        over = ended.winner >= 0
        figures = race_batch(np.ascontiguousarray(children[:, ::-1]), self.rules, outside="nan")
        exact = np.where(over, np.where(ended.winner == 0, ended.value, -ended.value), -figures.equity)
        starts = np.asarray(offsets, dtype=np.int64)
        counts: np.ndarray = np.diff(starts)
        filled = counts > 0
        known = (over | figures.in_table).astype(np.int8)
        every = np.zeros(len(counts), dtype=bool)
        every[filled] = np.minimum.reduceat(known, starts[:-1][filled]) > 0
        by_tables = np.repeat(every, counts)
        return np.where(by_tables, exact, scores)
