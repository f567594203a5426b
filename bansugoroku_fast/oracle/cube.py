"""Cube decisions at 0 ply, in plain Python: Janowski's interpolation
between the dead and the live cube, money and match, the cube efficiency
of a position's kind, and the proper action. The twin of
:mod:`bansugoroku_fast.cube`, written for reading.

Probabilities are the side on roll's five cumulative figures: P(win),
P(win 2+), P(win 3), P(lose 2+), P(lose 3). Equities are per cube of 1.
The cube is ``"centred"``, ``"mine"`` (the side on roll owns it) or
``"theirs"``.

>>> round(money_equity([0.6, 0.0, 0.0, 0.0, 0.0], "centred", efficiency=1.0), 6)
0.333333
>>> decision([0.6, 0.0, 0.0, 0.0, 0.0], "centred", efficiency=1.0)[3]
'No double, take'
"""
from __future__ import annotations

from .met import MatchEquityTable

__all__ = ["action", "decision", "efficiency", "exact_match_value", "kind", "match_decision", "match_value",
           "money_equity"]


# --- the kind of a position and its cube efficiency ------------------------------------------------


def _rearmost(row: list[int]) -> int:
    """The point of a side's rearmost stone (1..25, the bar 25), 0 for none."""
    return max((point for point in range(1, 26) if row[point] > 0), default=0)


def _crashed(row: list[int]) -> bool:
    """Six stones or fewer left in play, not counting those piled deep on the 1 and 2 points."""
    in_play = sum(row[1:26])
    on_1, on_2 = row[1], row[2]
    if in_play <= 6:
        return True
    if on_1 > 1:
        return in_play <= 6 + on_1 or (on_2 > 1 and 1 + in_play - on_1 - on_2 <= 6)
    return in_play <= 6 + on_2 - 1


def kind(position: list[list[int]]) -> str:
    """``"over"``, ``"contact"``, ``"crashed"``, ``"race"`` or ``"bearoff"``
    for a position seen by the side on roll (row 0)."""
    ours, theirs = _rearmost(position[0]), _rearmost(position[1])
    if ours == 0 or theirs == 0:
        return "over"
    if ours + theirs > 25:
        return "crashed" if _crashed(position[0]) or _crashed(position[1]) else "contact"
    return "bearoff" if ours <= 6 and theirs <= 6 else "race"


def efficiency(position: list[list[int]]) -> float:
    """How live the cube is for the side on roll (Janowski's ``x``)."""
    found = kind(position)
    if found == "race":
        pips = sum(point * position[0][point] for point in range(1, 26))
        return min(max(0.55 + 0.00125 * pips, 0.6), 0.7)
    return {"over": 0.0, "contact": 0.68, "crashed": 0.68, "bearoff": 0.6}[found]


# --- money play --------------------------------------------------------------------------------


def _line(p: float, start: tuple[float, float], end: tuple[float, float]) -> float:
    (x0, y0), (x1, y1) = start, end
    return y0 + (y1 - y0) * (p - x0) / (x1 - x0)


def money_equity(p: list[float], cube: str, efficiency: float, jacoby: bool = False) -> float:
    """The cubeful money equity: ``(1 - x) dead + x live``."""
    gammons_count = not (jacoby and cube == "centred")
    dead = 2 * p[0] - 1 + (p[1] - p[3] + p[2] - p[4] if gammons_count else 0.0)
    if not 1e-7 < p[0] < 1 - 1e-7:
        return dead
    win_value = 1 + (p[1] + p[2]) / p[0]
    loss_value = 1 + (p[3] + p[4]) / (1 - p[0])
    take = (loss_value - 0.5) / (win_value + loss_value + 0.5)
    cash = (loss_value + 1) / (win_value + loss_value + 0.5)
    lost, won = (0.0, -loss_value), (1.0, win_value)
    if cube == "mine":
        live = _line(p[0], lost, (cash, 1.0)) if p[0] < cash else _line(p[0], (cash, 1.0), won)
    elif cube == "theirs":
        live = _line(p[0], lost, (take, -1.0)) if p[0] < take else _line(p[0], (take, -1.0), won)
    elif p[0] < take:
        live = -1.0 if jacoby else _line(p[0], lost, (take, -1.0))
    elif p[0] < cash:
        live = _line(p[0], (take, -1.0), (cash, 1.0))
    else:
        live = 1.0 if jacoby else _line(p[0], (cash, 1.0), won)
    return (1 - efficiency) * dead + efficiency * live


# --- match play --------------------------------------------------------------------------------


def _mix(rates: tuple[float, float], single: float, gammon: float, backgammon: float) -> float:
    return (1 - rates[0] - rates[1]) * single + rates[0] * gammon + rates[1] * backgammon


def match_value(p: list[float], table: MatchEquityTable, length: int, score: tuple[int, int], crawford: bool,
                cube_value: int, cube: str, efficiency: float) -> float:
    """The cubeful match winning chance of the side on roll (player 0 of
    ``score``): ``(1 - x) dead + x live`` where the cube can still matter."""
    win, lose = (table.after_win(score, length, player=0, winner=w, points=cube_value, crawford=crawford)
                 for w in (0, 1))
    prices = table.gammon_values(score, length, cube_value, crawford)
    cubeless = 2 * p[0] - 1 + p[1] * prices[0] - p[3] * prices[1] + p[2] * prices[2] - p[4] * prices[3]
    dead = 0.5 * (cubeless * (win - lose) + (win + lose))
    both_dead = all(s + cube_value >= length for s in score)
    if both_dead or score == (length - 2, length - 2) or crawford:
        return dead
    results = table.results(score, length, cube_value, crawford)[0]
    my_rates = ((p[1] - p[2]) / p[0], p[2] / p[0]) if p[0] > 0 else (0.0, 0.0)
    their_rates = ((p[3] - p[4]) / (1 - p[0]), p[4] / (1 - p[0])) if p[0] < 1 else (0.0, 0.0)
    winning = _mix(my_rates, results[0], results[1], results[2])
    losing = _mix(their_rates, results[5], results[6], results[7])
    mine, theirs = table.live_cash_points(p, score, length, cube_value, crawford)
    their_too_good = 1 - theirs
    if cube == "mine":
        live = (_line(p[0], (0.0, losing), (mine, win)) if p[0] <= mine and mine > 0
                else losing if p[0] <= mine else _line(p[0], (mine, win), (1.0, winning)) if mine < 1 else winning)
    elif cube == "theirs":
        live = (_line(p[0], (0.0, losing), (their_too_good, lose)) if their_too_good > 0 and p[0] <= their_too_good
                else losing if p[0] <= their_too_good else _line(p[0], (their_too_good, lose), (1.0, winning)))
    elif p[0] <= their_too_good:
        live = _line(p[0], (0.0, losing), (their_too_good, lose)) if their_too_good > 0 else losing
    elif p[0] < mine:
        live = _line(p[0], (their_too_good, lose), (mine, win))
    else:
        live = _line(p[0], (mine, win), (1.0, winning)) if mine < 1 else winning
    return (1 - efficiency) * dead + efficiency * live


def exact_match_value(p: list[float], exact_money: float, table: MatchEquityTable, length: int,
                      score: tuple[int, int], crawford: bool, cube_value: int, cube: str, ceiling: float) -> float:
    """The cubeful match winning chance of a position whose exact money
    equity in the same cube state is ``exact_money`` (a two-sided table
    race, no gammons): :func:`match_value` with the efficiency ``x`` that
    makes ``(1 - x) cubeless + x live`` (money, fully live cube) equal
    ``exact_money``, kept within 0 and ``ceiling``; ``ceiling`` itself
    where the live and the dead money cube are within 1e-4."""
    cubeless = 2 * p[0] - 1
    live = money_equity(p, cube, 1.0)
    x = (exact_money - cubeless) / (live - cubeless) if abs(live - cubeless) > 1e-4 else ceiling
    x = min(max(x, 0.0), ceiling)
    return match_value(p, table, length, score, crawford, cube_value, cube, x)


# --- the decision ------------------------------------------------------------------------------


def action(no_double: float, double_take: float, double_pass: float, cube: str, gammons: bool) -> str:
    """The proper action (no beavers, no Jacoby rule), in GNU Backgammon's
    words; ``gammons``: whether the side on roll wins any gammon."""
    if cube == "theirs":
        return "Cube not available"
    double = "double" if cube == "centred" else "redouble"
    doubles = double_take >= no_double and double_pass >= no_double
    if doubles and double_pass > double_take:
        optional = abs(double_take - no_double) <= 1e-5
        return f"Optional {double}, take" if optional else f"{double.capitalize()}, take"
    if doubles:
        optional = abs(no_double - double_pass) <= 1e-5 and gammons
        return f"Optional {double}, pass" if optional else f"{double.capitalize()}, pass"
    taken = no_double > double_take and double_take <= double_pass
    if taken and no_double <= double_pass:
        return f"No {double}, take"
    if not gammons:
        return f"No {double}, take" if taken else f"{double.capitalize()}, pass"
    return f"Too good to {double}, take" if taken else f"Too good to {double}, pass"


def decision(p: list[float], cube: str, efficiency: float, jacoby: bool = False) -> tuple[float, float, float, str]:
    """Money: (no double, double/take, double/pass, action) at 0 ply."""
    no_double = money_equity(p, cube, efficiency, jacoby)
    double_take = 2 * money_equity(p, "theirs", efficiency, jacoby)
    return no_double, double_take, 1.0, action(no_double, double_take, 1.0, cube, p[1] > 0)


def match_decision(p: list[float], table: MatchEquityTable, length: int, score: tuple[int, int], crawford: bool,
                   cube_value: int, cube: str, efficiency: float) -> tuple[float, float, float]:
    """Match: the match winning chances of no double, double/take and double/pass at 0 ply."""
    no_double = match_value(p, table, length, score, crawford, cube_value, cube, efficiency)
    double_take = match_value(p, table, length, score, crawford, 2 * cube_value, "theirs", efficiency)
    double_pass = table.after_win(score, length, player=0, winner=0, points=cube_value, crawford=crawford)
    return no_double, double_take, double_pass
