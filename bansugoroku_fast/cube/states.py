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
  :meth:`~.met.MatchEquityTable.live_cash_points`.

>>> money = MoneyCube(CENTRED)
>>> money.may_double(), money.doubled().owner == THEIRS, money.seen_by_the_other_side() == money
(True, True, True)
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .janowski import CENTRED, OWNED, THEIRS, money_cubeful
from .met import MatchEquityTable, cube_prime

__all__ = ["MatchCube", "MoneyCube", "OTHER_SIDE"]

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

    def equity(self, value: float) -> float:
        """A value of this state as a normalised equity (here the same)."""
        return value

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

    def equity(self, value: float) -> float:
        """An MWC of this state as a normalised equity (GNU Backgammon's mwc2eq)."""
        return self.table.mwc_to_eq(value, self.score, self.length, cube=self.cube, crawford=self.crawford)

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

    def _to_mwc(self, equities: np.ndarray) -> np.ndarray:
        win, lose = self._results(self.cube)[0, [0, 5]]
        result: np.ndarray = 0.5 * (equities * (win - lose) + (win + lose))
        return result

    def values(self, probabilities: np.ndarray, efficiency: np.ndarray) -> np.ndarray:
        """``float64[N]``: each position's cubeful MWC (see the module)."""
        p = np.asarray(probabilities, dtype=np.float64)
        dead = self._to_mwc(self.cubeless(p))
        if not self._cubeful():
            return dead
        x = np.asarray(efficiency, dtype=np.float64)
        result: np.ndarray = dead * (1 - x) + self._live(p) * x
        return result

    def _results(self, cube: int) -> np.ndarray:
        """The table's :meth:`~.met.MatchEquityTable.results` at this score (looked up once)."""
        key = (id(self.table), self.score, self.length, cube, self.crawford)
        found = _RESULTS.get(key)
        if found is None or found[0] is not self.table:
            if len(_RESULTS) > 4096:
                _RESULTS.clear()
            found = _RESULTS[key] = (self.table, self.table.results(self.score, self.length, cube, self.crawford))
        return found[1]

    def live_cash_points(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(float64[N], float64[N])``: the side on roll's and the other
        side's live-cube cash points for each row of probabilities, as
        :meth:`~.met.MatchEquityTable.live_cash_points` computes them for
        one (here in float64, for many rows at once)."""
        rates = _rates(p)
        away = (self.length - self.score[0] - 1, self.length - self.score[1] - 1)
        cubes = [self.cube]
        while away[0] >= 2 * cubes[-1] and away[1] >= 2 * cubes[-1]:
            cubes.append(2 * cubes[-1])
        live = [np.ones(len(p)), np.ones(len(p))]     # unused at the highest cube: its redouble is dead
        for value in reversed(cubes):
            results, points = self._results(value), []
            for k in (0, 1):
                cash = results[k, 0]
                if away[0] < 2 * value or away[1] < 2 * value:      # the doubled cube is dead
                    prime = self._results(cube_prime(away[k], away[1 - k], value))[k]
                    take_lose = _mix(rates[1 - k], prime[6], prime[8], prime[9])
                    take_win = _mix(rates[k], prime[1], prime[3], prime[4])
                    points.append((take_lose - cash) / (take_lose - take_win))
                else:
                    take_win = _mix(rates[k], results[k, 1], results[k, 3], results[k, 4])
                    points.append(1 - live[1 - k] * (cash - take_win) / (results[k, 6] - take_win))
            live = points
        return live[0], live[1]

    def _live(self, p: np.ndarray) -> np.ndarray:
        """``float64[N]``: the live cube's MWC of each row of probabilities."""
        win = p[:, 0]
        (gammon_win, backgammon_win), (gammon_loss, backgammon_loss) = _rates(p)
        results = self._results(self.cube)[0]
        cash, their_cash = results[0], results[5]
        winning = (1 - gammon_win - backgammon_win) * results[0] + gammon_win * results[1] + backgammon_win * results[2]
        losing = ((1 - gammon_loss - backgammon_loss) * results[5] + gammon_loss * results[6]
                  + backgammon_loss * results[7])
        mine, theirs = self.live_cash_points(p)
        their_too_good = 1 - theirs      # below it they cash
        if self.owner == OWNED:
            return _broken_line(win, [(0.0, losing), (mine, cash), (1.0, winning)])
        if self.owner == THEIRS:
            return _broken_line(win, [(0.0, losing), (their_too_good, their_cash), (1.0, winning)])
        return _broken_line(win, [(0.0, losing), (their_too_good, their_cash), (mine, cash), (1.0, winning)])


def _rates(p: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Each side's (gammon, backgammon) share of the games it wins (0 where it wins none)."""
    win, lose = p[:, 0], 1 - p[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        mine = (np.where(win > 0, (p[:, 1] - p[:, 2]) / win, 0.0), np.where(win > 0, p[:, 2] / win, 0.0))
        theirs = (np.where(lose > 0, (p[:, 3] - p[:, 4]) / lose, 0.0), np.where(lose > 0, p[:, 4] / lose, 0.0))
    return mine, theirs


def _mix(rates: tuple[np.ndarray, np.ndarray], single: float, gammon: float, backgammon: float) -> np.ndarray:
    """The MWC of a game won (or lost) single, gammon or backgammon in the proportions ``rates``."""
    result: np.ndarray = (1 - rates[0] - rates[1]) * single + rates[0] * gammon + rates[1] * backgammon
    return result


def _broken_line(x: np.ndarray, points: list[tuple[Any, Any]]) -> np.ndarray:
    """Each ``x``'s value on the broken line through ``points`` (their
    abscissae rising, per row): the first segment that reaches ``x``
    gives it; a segment of no width gives its right end's value."""
    out = np.full(len(x), np.nan)
    done = np.zeros(len(x), dtype=bool)
    for k, ((x0, y0), (x1, y1)) in enumerate(itertools.pairwise(points)):
        x0, y0, x1, y1 = (np.broadcast_to(np.asarray(v, dtype=np.float64), x.shape) for v in (x0, y0, x1, y1))
        last = k == len(points) - 2
        here = ~done & ((x <= x1) | last)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(x1 <= x0, y1, y0 + (y1 - y0) * (x - x0) / (x1 - x0))
        out[here] = value[here]
        done |= here
    return out


