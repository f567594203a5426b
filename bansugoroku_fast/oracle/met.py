"""Match equity tables written for reading: the plain-Python twin of
:mod:`bansugoroku_fast.cube.met`, which the tests hold it against.

No numpy: lists of floats, the XML read with :mod:`xml.etree`, and GNU
Backgammon's float32 arithmetic spelled out with :class:`F32`, a float that
rounds each result to float32 (as C does for ``float`` operands). The twin
trusts its arguments: it checks nothing the module checks.

Layout, as GNU Backgammon's: ``pre[i][j]`` is player 0's chance with player
0 ``i + 1``-away and player 1 ``j + 1``-away; ``post[k][n]`` is player
``k``'s chance trailing ``n + 1``-away after the Crawford game.

>>> met = MatchEquityTable.default()
>>> met.match_winning_chance((0, 0), 7)
0.5
>>> met.after_win((5, 0), 7, player=1, winner=0, points=2)
0.0
"""
from __future__ import annotations

import math
import os
import struct
import xml.etree.ElementTree as ElementTree

MAX_SCORE = 64
MULTIPLES = (1, 2, 3, 4, 6)
DEFAULT_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "cube", "data", "kazaross-xg2.xml")


class F32(float):
    """A float32 value: each arithmetic result is rounded to float32.

    >>> F32(0.1) + F32(0.2) == F32(0.3)
    True
    """

    def __new__(cls, value: float) -> F32:
        return super().__new__(cls, struct.unpack("f", struct.pack("f", float(value)))[0])

    def __add__(self, other: float) -> F32:
        return F32(float(self) + float(other))

    def __radd__(self, other: float) -> F32:
        return F32(float(other) + float(self))

    def __sub__(self, other: float) -> F32:
        return F32(float(self) - float(other))

    def __rsub__(self, other: float) -> F32:
        return F32(float(other) - float(self))

    def __mul__(self, other: float) -> F32:
        return F32(float(self) * float(other))

    def __rmul__(self, other: float) -> F32:
        return F32(float(other) * float(self))

    def __truediv__(self, other: float) -> F32:
        return F32(float(self) / float(other))

    def __rtruediv__(self, other: float) -> F32:
        return F32(float(other) / float(self))


# ---------------------------------------------------------------- reading a file


def _numbers(table: ElementTree.Element) -> list[list[F32]]:
    """The rows of ``<me>`` values of an explicit table."""
    return [[F32(float(me.text or "")) for me in row.iter("me")] for row in table.iter("row")]


def _parameters(table: ElementTree.Element) -> dict[str, F32]:
    return {parameter.get("name", ""): F32(float(parameter.text or ""))
            for parameter in table.iter("parameter")}


# ---------------------------------------------------------------- post-Crawford


def zadeh_post(given: list[F32], gammon_rate: F32, free_drop_2: F32, free_drop_4: F32) -> list[F32]:
    """The trailer's post-Crawford chances, ``given`` then Zadeh's
    recursion: half the games are won, ``gammon_rate`` of them gammons;
    the free drop is worth ``free_drop_2`` at 2-away, ``free_drop_4`` at
    4-away."""
    post = list(given)
    one, half = F32(1.0), F32(0.5)
    for n in range(len(given), MAX_SCORE):
        gammon_win = post[n - 4] if n >= 4 else one
        single_win = post[n - 2] if n >= 2 else one
        chance = gammon_rate * half * gammon_win + (one - gammon_rate) * half * single_win
        if n == 1:
            chance = chance - free_drop_2
        if n == 3:
            chance = chance - free_drop_4
        post.append(chance)
    return post


def mec_post(gammon_rate: F32, free_drop_2: F32, free_drop_4: F32, win_rate: F32) -> list[F32]:
    """mec's post-Crawford chances (computed in double, stored in float32).
    ``e[n]``: the trailer ``n``-away; ``e[0] = 1``: the trailer has won."""
    e = [1.0, float(win_rate)]
    for n in range(2, MAX_SCORE + 1):
        if n % 2 == 0:
            value = e[n - 1]
            if n == 2:
                value -= float(free_drop_2)
            if n == 4:
                value += float(free_drop_4)     # mec.c adds it here
        else:
            value = (e[max(n - 2, 0)] * float(win_rate) * (1 - float(gammon_rate))
                     + e[max(n - 4, 0)] * float(win_rate) * float(gammon_rate))
        e.append(value)
    return [F32(value) for value in e[1:]]


POST_DEFAULTS = {"zadeh": {"gammon-rate-trailer": 0.25, "free-drop-2-away": 0.015, "free-drop-4-away": 0.004},
                 "mec": {"gammon-rate": 0.25, "free-drop-2-away": 0.015, "free-drop-4-away": 0.004,
                         "win-rate": 0.5}}


def post_table(table: ElementTree.Element, length: int, with_parameters: bool) -> list[F32]:
    """One player's post-Crawford chances, 1- to 64-away. A table for both
    players gives its parameters to player 0 only (``with_parameters``)."""
    kind = table.get("type", "explicit")
    if kind == "explicit":
        given = [value for row in _numbers(table) for value in row][:length - 1]
        return zadeh_post(given, F32(0.25), F32(0.015), F32(0.004))
    values = {name: F32(default) for name, default in POST_DEFAULTS[kind].items()}
    if with_parameters:
        values.update(_parameters(table))
    if kind == "zadeh":
        return zadeh_post([], values["gammon-rate-trailer"], values["free-drop-2-away"], values["free-drop-4-away"])
    return mec_post(values["gammon-rate"], values["free-drop-2-away"], values["free-drop-4-away"],
                    values["win-rate"])


# ---------------------------------------------------------------- the extension


STDDEVS = [0.0, 1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72]


def normal_below(x: F32, sigma: F32) -> F32:
    """P(N(0, sigma) < x), erf taken in double."""
    t = x / sigma / F32(math.sqrt(2.0))
    return F32((math.erf(t) + 1.0) / 2.0)


def montgomery(away_0: int, away_1: int) -> F32:
    """Player 0's chance at ``away_0``, ``away_1`` (``away_1 <= away_0``),
    the lead a normal variable over ``(away_0 + away_1) / 2`` games."""
    sd_0 = F32(STDDEVS[away_0] if away_0 <= 10 else 1.77)
    sd_1 = F32(STDDEVS[away_1] if away_1 <= 10 else 1.77)
    sigma = F32(math.sqrt(sd_0 * sd_0 + sd_1 * sd_1)) * F32(math.sqrt(F32(away_0 + away_1) / F32(2.0)))
    lead = F32(away_0 - away_1)
    if not F32(6.0) * sigma > lead:
        return F32(0.0)
    return normal_below(F32(6.0) * sigma, sigma) - normal_below(lead, sigma)


def extend(pre: list[list[F32]], length: int) -> None:
    """Fill ``pre`` beyond ``length`` (all of it for a length below 1)."""
    native = max(length, 0)
    for i in range(native, MAX_SCORE):
        for j in range(i + 1):
            pre[i][j] = montgomery(i + 1, j + 1)
    for i in range(MAX_SCORE):
        for j in range(native if i < native else i + 1, MAX_SCORE):
            pre[i][j] = F32(1.0) - pre[j][i]


# ---------------------------------------------------------------- the table


class MatchEquityTable:
    """A table read from a GNU Backgammon ``met/*.xml`` file, as lists."""

    def __init__(self, name: str, description: str, pre: list[list[F32]], post: list[list[F32]]):
        self.name = name
        self.description = description
        self.pre = pre
        self.post = post

    @classmethod
    def load(cls, path: str) -> MatchEquityTable:
        root = ElementTree.parse(path).getroot()
        length = int((root.findtext("info/length") or "").strip())
        posts: dict[int, list[F32]] = {}
        for table in root.iter("post-crawford-table"):
            player = table.get("player", "both")
            for k in ((0, 1) if player == "both" else (int(player),)):
                posts[k] = post_table(table, length, with_parameters=(k == 0 or player != "both"))
        pre = [[F32(0.0)] * MAX_SCORE for _ in range(MAX_SCORE)]
        pre_table = root.find("pre-crawford-table")
        if pre_table is not None and pre_table.get("type", "explicit") == "explicit":
            for i, row in enumerate(_numbers(pre_table)):
                pre[i][:length] = row
        extend(pre, length)
        return cls((root.findtext("info/name") or "").strip(), (root.findtext("info/description") or "").strip(),
                   pre, [posts[0], posts[1]])

    @classmethod
    def default(cls) -> MatchEquityTable:
        return cls.load(DEFAULT_FILE)

    def chance(self, away_0: int, away_1: int, post_crawford: bool, player: int) -> F32:
        """``player``'s chance, the players ``away_0 + 1`` and ``away_1 + 1``
        away (below 0: that player has won the match)."""
        if away_0 < 0:
            return F32(1.0) if player == 0 else F32(0.0)
        if away_1 < 0:
            return F32(1.0) if player == 1 else F32(0.0)
        if post_crawford and away_0 == 0:      # player 0 leads, player 1 trails
            return self.post[1][away_1] if player == 1 else F32(1.0) - self.post[1][away_1]
        if post_crawford:                       # player 1 leads
            return self.post[0][away_0] if player == 0 else F32(1.0) - self.post[0][away_0]
        return self.pre[away_0][away_1] if player == 0 else F32(1.0) - self.pre[away_0][away_1]

    def match_winning_chance(self, score: tuple[int, int], length: int, player: int = 0,
                             crawford: bool = False) -> float:
        away_0, away_1 = length - score[0] - 1, length - score[1] - 1
        post_crawford = not crawford and (away_0 == 0 or away_1 == 0)
        return float(self.chance(away_0, away_1, post_crawford, player))

    def _after(self, score: tuple[int, int], length: int, player: int, winner: int, points: int,
               crawford: bool) -> F32:
        away_0, away_1 = length - score[0] - 1, length - score[1] - 1
        next_is_post_crawford = crawford or away_0 == 0 or away_1 == 0
        if winner == 0:
            away_0 -= points
        else:
            away_1 -= points
        return self.chance(away_0, away_1, next_is_post_crawford, player)

    def after_win(self, score: tuple[int, int], length: int, *, player: int, winner: int, points: int,
                  crawford: bool = False) -> float:
        return float(self._after(score, length, player, winner, points, crawford))

    def results(self, score: tuple[int, int], length: int, cube: int = 1,
                crawford: bool = False) -> list[list[float]]:
        """For each player: its chance after winning, then after losing,
        1, 2, 3, 4 and 6 times the cube."""
        return [[float(self._after(score, length, player, winner, multiple * cube, crawford))
                 for winner in (player, 1 - player) for multiple in MULTIPLES] for player in (0, 1)]

    def gammon_values(self, score: tuple[int, int], length: int, cube: int = 1,
                      crawford: bool = False) -> list[float]:
        def after(winner: int, multiple: int) -> F32:
            return self._after(score, length, 0, winner, multiple * cube, False)
        win, lose = after(0, 1), after(1, 1)
        centre = (win + lose) / F32(2.0)
        if not abs(win - centre) > F32(1e-7):
            return [0.0] * 4
        gammon_0 = (after(0, 2) - centre) / (win - centre) - F32(1.0)
        gammon_1 = (centre - after(1, 2)) / (win - centre) - F32(1.0)
        backgammon_0 = (after(0, 3) - centre) / (win - centre) - (gammon_0 + F32(1.0))
        backgammon_1 = (centre - after(1, 3)) / (win - centre) - (gammon_1 + F32(1.0))
        return [max(float(price), 0.0) for price in (gammon_0, gammon_1, backgammon_0, backgammon_1)]

    def eq_to_mwc(self, equity: float, score: tuple[int, int], length: int, player: int = 0, cube: int = 1,
                  crawford: bool = False) -> float:
        win = self._after(score, length, player, player, cube, crawford)
        lose = self._after(score, length, player, 1 - player, cube, crawford)
        return float(F32(0.5) * (F32(equity) * (win - lose) + (win + lose)))

    def mwc_to_eq(self, mwc: float, score: tuple[int, int], length: int, player: int = 0, cube: int = 1,
                  crawford: bool = False) -> float:
        win = self._after(score, length, player, player, cube, crawford)
        lose = self._after(score, length, player, 1 - player, cube, crawford)
        return float((F32(2.0) * F32(mwc) - (win + lose)) / (win - lose))

    def live_cash_points(self, probabilities: list[float], score: tuple[int, int], length: int, cube: int = 1,
                         crawford: bool = False, *, player: int = 0) -> tuple[float, float]:
        """GetPoints: from the highest cube that is still alive for both
        players down to ``cube``."""
        p = [F32(value) for value in probabilities]
        zero = F32(0.0)
        mine = ((p[1] - p[2]) / p[0], p[2] / p[0]) if p[0] > 0 else (zero, zero)
        theirs = ((p[3] - p[4]) / (F32(1.0) - p[0]), p[4] / (F32(1.0) - p[0])) if p[0] < 1 else (zero, zero)
        rates = [mine, theirs] if player == 0 else [theirs, mine]
        away = (length - score[0] - 1, length - score[1] - 1)
        top = cube
        while away[0] >= 2 * top and away[1] >= 2 * top:
            top *= 2
        live = [F32(1.0), F32(1.0)]
        value = top
        while value >= cube:
            live = [self._cash_point(k, rates, live, score, length, value, crawford, away) for k in (0, 1)]
            value //= 2
        return float(live[0]), float(live[1])

    def _cash_point(self, k: int, rates: list[tuple[F32, F32]], above: list[F32], score: tuple[int, int],
                    length: int, cube: int, crawford: bool, away: tuple[int, int]) -> F32:
        def mix(who: int, single: float, gammon: float, backgammon: float) -> F32:
            g, b = rates[who]
            return (F32(1.0) - g - b) * F32(single) + g * F32(gammon) + b * F32(backgammon)
        mine = self.results(score, length, cube, crawford)[k]
        if away[0] < 2 * cube or away[1] < 2 * cube:
            # dead cube; the take is on the opponent's automatic redouble when it has one
            taken = 2 * cube if away[k] < 2 * cube <= away[1 - k] else cube
            on_take = self.results(score, length, taken, crawford)[k]
            take_lose = mix(1 - k, on_take[6], on_take[8], on_take[9])
            take_win = mix(k, on_take[1], on_take[3], on_take[4])
            return (take_lose - F32(mine[0])) / (take_lose - take_win)
        take_win = mix(k, mine[1], mine[3], mine[4])
        return F32(1.0) - above[1 - k] * (F32(mine[0]) - take_win) / (F32(mine[6]) - take_win)
