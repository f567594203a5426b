"""The cube's states, as the side on roll sees them, in money play and in a
match, and their cubeful values at a leaf of a cube decision's search.

A state answers what the search asks of it: whether the side on roll may
double now, the state after a double and a take, the same state seen by
the other side, what a pass wins, the best of playing on and doubling, and
the cubeful value of positions from their cubeless probabilities.

* :class:`MoneyCube`: equities normalised to a cube of 1 (a double that
  is taken is worth twice the doubled state's value; a pass wins 1).
* :class:`MatchCube`: match winning chances (MWC) through a
  :class:`~.met.MatchEquityTable`, by GNU Backgammon's generalisation of
  Janowski's interpolation to match play: the dead cube's MWC is the
  cubeless equity at the score's gammon values; the live cube's is linear
  in P(win) between losing (with the gammon rates), the other side's cash,
  our cash and winning (with the gammon rates), at the live cash points of
  :meth:`~.met.MatchEquityTable.live_cash_points`. The arithmetic runs
  in a kernel (``src/bansugoroku_fast/_cube.pyx``), many positions in
  many states at once (:func:`values_in_states`); the oracle's
  ``cube.match_value`` is its plain twin.

>>> money = MoneyCube(CENTRED)
>>> money.may_double(), money.doubled().owner == THEIRS, money.seen_by_the_other_side() == money
(True, True, True)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from .._kernel import match_cube_values
from ..errors import ArgumentTypeError, InvalidArgumentError
from .janowski import CENTRED, OWNED, THEIRS, money_cubeful
from .met import MatchEquityTable, cube_prime

__all__ = ["MatchCube", "MoneyCube", "OTHER_SIDE", "match_states", "values_in_states"]

#: Match equity look-ups by (table id, score, length, cube, Crawford): the table kept to check the id.
_RESULTS: dict[tuple[int, tuple[int, int], int, int, bool], tuple[MatchEquityTable, np.ndarray]] = {}
#: The owner codes as the other side sees them.
OTHER_SIDE = {CENTRED: CENTRED, OWNED: THEIRS, THEIRS: OWNED}


@dataclass(frozen=True)
class MoneyCube:
    """The cube of a money game: ``owner`` (:data:`~.janowski.CENTRED`,
    :data:`~.janowski.OWNED` by the side on roll, :data:`~.janowski.THEIRS`);
    ``jacoby``: gammons count only once the cube is turned."""

    owner: int
    jacoby: bool = False

    def may_double(self) -> bool:
        return self.owner != THEIRS

    def doubled(self) -> MoneyCube:
        return replace(self, owner=THEIRS)

    def seen_by_the_other_side(self) -> MoneyCube:
        return replace(self, owner=OTHER_SIDE[self.owner])

    def double_pass(self) -> float:
        """What a double that is passed wins, in this state's units."""
        return 1.0

    def cubeless(self, probabilities: np.ndarray) -> np.ndarray:
        """``float64[N]``: the cubeless money equity, every gammon counted."""
        p = np.asarray(probabilities, dtype=np.float64)
        result: np.ndarray = 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
        return result

    def take(self, doubled_value: np.ndarray) -> np.ndarray:
        """A double that is taken, from the doubled state's value."""
        result: np.ndarray = 2 * doubled_value
        return result

    def values(self, probabilities: np.ndarray, efficiency: np.ndarray) -> np.ndarray:
        """``float64[N]``: Janowski's cubeful equity of each position."""
        owner = np.full(len(probabilities), self.owner)
        return money_cubeful(probabilities, owner, efficiency, self.jacoby)

    def from_other_side(self, values: np.ndarray) -> np.ndarray:
        """The other side's values as this side's."""
        result: np.ndarray = -values
        return result

    def rounded_equities(self, values: np.ndarray) -> np.ndarray:
        """The values of this state as normalised equities (here the same)."""
        return np.asarray(values, dtype=np.float64)

    def equities(self, values: np.ndarray) -> np.ndarray:
        """:meth:`equity` of many values."""
        return np.asarray(values, dtype=np.float64)


@dataclass(frozen=True)
class MatchCube:
    """The cube of a match game: ``score`` (the side on roll's, the other
    side's) of a ``length``-point match, ``crawford`` in the Crawford game,
    the cube's value and ``owner`` (codes as :class:`MoneyCube`'s)."""

    table: MatchEquityTable
    length: int
    score: tuple[int, int]
    crawford: bool
    cube: int
    owner: int

    def _post_crawford(self) -> bool:
        return not self.crawford and self.length - 1 in self.score

    def may_double(self) -> bool:
        """GNU Backgammon's test: not in the Crawford game, the cube not
        dead for the side on roll, not the leader post-Crawford, and the
        cube centred or its own."""
        leader_post_crawford = self._post_crawford() and self.score[0] == self.length - 1
        return (not self.crawford and self.score[0] + self.cube < self.length and not leader_post_crawford
                and self.owner != THEIRS)

    def doubled(self) -> MatchCube:
        return replace(self, cube=2 * self.cube, owner=THEIRS)

    def seen_by_the_other_side(self) -> MatchCube:
        return replace(self, score=(self.score[1], self.score[0]), owner=OTHER_SIDE[self.owner])

    def _after(self, winner: int, points: int) -> float:
        return self.table.after_win(self.score, self.length, player=0, winner=winner, points=points,
                                    crawford=self.crawford)

    def double_pass(self) -> float:
        """The side on roll's MWC once it wins the cube's points."""
        return self._after(0, self.cube)

    def take(self, doubled_value: np.ndarray) -> np.ndarray:
        return doubled_value

    def from_other_side(self, values: np.ndarray) -> np.ndarray:
        result: np.ndarray = 1 - values
        return result

    def rounded_equities(self, values: np.ndarray) -> np.ndarray:
        """MWCs of this state as normalised equities in the table's float32
        arithmetic, as GNU Backgammon's mwc2eq converts each."""
        mwc = np.asarray(values, dtype=np.float64)
        return self.table.mwc_to_eq(mwc, self.score, self.length, cube=self.cube, crawford=self.crawford)

    def equities(self, values: np.ndarray) -> np.ndarray:
        """:meth:`equity` of many values (the same line: GNU Backgammon's mwc2eq)."""
        win, lose = self._results(self.cube)[0, [0, 5]]
        result: np.ndarray = (2 * np.asarray(values, dtype=np.float64) - (win + lose)) / (win - lose)
        return result

    def _cubeful(self) -> bool:
        """Whether the cube can still matter (GNU Backgammon's fDoCubeful)."""
        dead = all(score + self.cube >= self.length for score in self.score)
        two_away_each = self.score == (self.length - 2, self.length - 2)
        return not (dead or two_away_each or self.crawford)

    def cubeless(self, probabilities: np.ndarray) -> np.ndarray:
        """``float64[N]``: the cubeless equity at the score's gammon values."""
        p = np.asarray(probabilities, dtype=np.float64)
        mine, theirs, mine_bg, theirs_bg = self.table.gammon_values(self.score, self.length, self.cube,
                                                                    self.crawford)
        result: np.ndarray = (2 * p[:, 0] - 1 + p[:, 1] * mine - p[:, 3] * theirs + p[:, 2] * mine_bg
                              - p[:, 4] * theirs_bg)
        return result

    def values(self, probabilities: np.ndarray, efficiency: np.ndarray) -> np.ndarray:
        """``float64[N]``: each position's cubeful MWC (see the module; the
        kernel's arithmetic, :func:`values_in_states`)."""
        p = np.asarray(probabilities, dtype=np.float64)
        return values_in_states(p, efficiency, [self], np.zeros(len(p), dtype=np.int64))

    def _results(self, cube: int) -> np.ndarray:
        """The table's :meth:`~.met.MatchEquityTable.results` at this score (looked up once)."""
        key = (id(self.table), self.score, self.length, cube, self.crawford)
        found = _RESULTS.get(key)
        if found is None or found[0] is not self.table:
            if len(_RESULTS) > 4096:
                _RESULTS.clear()
            found = _RESULTS[key] = (self.table, self.table.results(self.score, self.length, cube, self.crawford))
        return found[1]

    def _away(self) -> tuple[int, int]:
        """How far each side is from one point short of the match (GNU Backgammon's nMatchTo - score - 1)."""
        return (self.length - self.score[0] - 1, self.length - self.score[1] - 1)

    def _cube_levels(self) -> list[int]:
        """The cube's value and each double of it that both sides can still use."""
        away, cubes = self._away(), [self.cube]
        while away[0] >= 2 * cubes[-1] and away[1] >= 2 * cubes[-1]:
            cubes.append(2 * cubes[-1])
        return cubes


# --- many states at once -----------------------------------------------------------------------


def values_in_states(probabilities: np.ndarray, efficiency: np.ndarray, states: Sequence[MoneyCube | MatchCube],
                     which: np.ndarray) -> np.ndarray:
    """``float64[N]``: row ``i``'s cubeful value in ``states[which[i]]``
    (its :meth:`~MatchCube.values`), every row in one pass of array
    arithmetic however many states there are (an analysis meets a
    different match score or cube on almost every move). The states are
    all money cubes or all match cubes.

    With no gammons and a fully live cube, 60% is a third of the way from
    the take point (20%) to the cash point (80%) when the cube is centred,
    and half way from 0 (-1) to the cash point (+1) when the side owns it:

    >>> p = np.array([[0.6, 0.0, 0.0, 0.0, 0.0]] * 2)
    >>> states = [MoneyCube(CENTRED), MoneyCube(OWNED)]
    >>> values_in_states(p, np.ones(2), states, np.array([0, 1])).round(4).tolist()
    [0.3333, 0.5]
    """
    p = np.asarray(probabilities, dtype=np.float64)
    x = np.asarray(efficiency, dtype=np.float64)
    which = np.asarray(which, dtype=np.int64)
    money = [state for state in states if isinstance(state, MoneyCube)]
    match = [state for state in states if isinstance(state, MatchCube)]
    if len(match) == len(states):
        if len(which) and (which.min() < 0 or which.max() >= len(states)):
            raise InvalidArgumentError("values_in_states: a row's state is out of range")
        return _match_values(p, x, match_states(match), which)
    if len(money) != len(states):
        raise ArgumentTypeError("values_in_states: the states are all money cubes or all match cubes")
    out = np.empty(len(p))
    for jacoby in (False, True):
        rows = np.flatnonzero(np.array([state.jacoby == jacoby for state in money])[which])
        if len(rows):
            owners = np.array([state.owner for state in money])[which[rows]]
            out[rows] = money_cubeful(p[rows], owners, x[rows], jacoby)
    return out


class _MatchStates(NamedTuple):
    """What :meth:`MatchCube.values` reads of each of S match states, as arrays
    (L: the most cube levels a state's live cash points go through)."""

    cubeful: np.ndarray      # bool[S]
    gammon: np.ndarray       # float64[S, 4]: the score's gammon values
    owner: np.ndarray        # int64[S]
    levels: np.ndarray       # int64[S]: cube levels, the state's cube first
    level_results: np.ndarray    # float64[S, L, 2, 10]
    doubled_dead: np.ndarray     # bool[S, L]: the level's double is dead for a side
    prime_results: np.ndarray    # float64[S, L, 2, 10]: each side's results at cube_prime


class _StateArrays(NamedTuple):
    """One state's part of :class:`_MatchStates` (its own levels only)."""

    cubeful: bool
    gammon: np.ndarray
    level_results: np.ndarray
    doubled_dead: np.ndarray
    prime_results: np.ndarray


#: :func:`_state_arrays` by (table id, length, score, Crawford, cube): the table kept to check the id.
_STATE_ARRAYS: dict[tuple[int, int, tuple[int, int], bool, int], tuple[MatchEquityTable, _StateArrays]] = {}


def _state_arrays(state: MatchCube) -> _StateArrays:
    """What the kernel reads of ``state`` but its owner (worked out once per score and cube)."""
    key = (id(state.table), state.length, state.score, state.crawford, state.cube)
    found = _STATE_ARRAYS.get(key)
    if found is not None and found[0] is state.table:
        return found[1]
    levels, away = state._cube_levels(), state._away()
    level_results = np.array([state._results(value) for value in levels])
    doubled_dead = np.array([away[0] < 2 * value or away[1] < 2 * value for value in levels])
    prime_results = np.ones_like(level_results)
    for level, value in enumerate(levels):
        if doubled_dead[level]:
            for k in (0, 1):
                prime_results[level, k] = state._results(cube_prime(away[k], away[1 - k], value))[k]
    arrays = _StateArrays(state._cubeful(), state.table.gammon_values(state.score, state.length, state.cube,
                                                                       state.crawford),
                          level_results, doubled_dead, prime_results)
    if len(_STATE_ARRAYS) > 4096:
        _STATE_ARRAYS.clear()
    _STATE_ARRAYS[key] = (state.table, arrays)
    return arrays


def match_states(states: Sequence[MatchCube]) -> _MatchStates:
    """The states as the kernel reads them (:class:`_MatchStates`), the
    levels of each padded to the deepest's."""
    each = [_state_arrays(state) for state in states]
    depth = max(len(arrays.doubled_dead) for arrays in each)
    level_results = np.ones((len(states), depth, 2, 10))
    prime_results = np.ones((len(states), depth, 2, 10))
    doubled_dead = np.zeros((len(states), depth), dtype=bool)
    for s, arrays in enumerate(each):
        levels = len(arrays.doubled_dead)
        level_results[s, :levels] = arrays.level_results
        prime_results[s, :levels] = arrays.prime_results
        doubled_dead[s, :levels] = arrays.doubled_dead
    return _MatchStates(np.array([arrays.cubeful for arrays in each], dtype=bool),
                        np.array([arrays.gammon for arrays in each]),
                        np.array([state.owner for state in states], dtype=np.int64),
                        np.array([len(arrays.doubled_dead) for arrays in each], dtype=np.int64),
                        level_results, doubled_dead, prime_results)


def _match_values(p: np.ndarray, x: np.ndarray, states: _MatchStates, which: np.ndarray) -> np.ndarray:
    """:meth:`MatchCube.values` of each row in ``states[which[i]]``, by the kernel."""
    return match_cube_values(p, x, which, states)
