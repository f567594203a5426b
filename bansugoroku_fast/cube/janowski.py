"""Cubeless probabilities to cubeful equities in money play, by Janowski's
interpolation between a dead and a live cube, as GNU Backgammon's 0-ply
cube decisions make them.

Probabilities are five cumulative figures of the side on roll, GNU
Backgammon's order: P(win), P(win 2+), P(win 3), P(lose 2+), P(lose 3).
Equities are normalised to a cube of 1. ``owner`` codes the cube for the
side on roll: :data:`CENTRED`, :data:`OWNED` (it may redouble) or
:data:`THEIRS` (it may not double).

* The dead cube's equity is the cubeless one, with gammons worth nothing
  while the cube is centred under the Jacoby rule.
* The live cube's is piecewise linear in P(win) between the points where
  a fully live cube changes hands: the take point ``(L - 1/2) / (W + L +
  1/2)`` and the cash point ``(L + 1) / (W + L + 1/2)``, where ``W`` and
  ``L`` are the average values of a win and a loss.
* The cubeful equity is ``(1 - x) dead + x live`` for the cube
  efficiency ``x``.

>>> no_gammons = np.array([[0.6, 0.0, 0.0, 0.0, 0.0]])
>>> money_cubeless(no_gammons, np.array([CENTRED]), jacoby=False).round(6).tolist()
[0.2]
>>> money_cubeful(no_gammons, np.array([CENTRED]), np.array([1.0]), jacoby=False).round(6).tolist()
[0.333333]
"""
from __future__ import annotations

import numpy as np

__all__ = ["CENTRED", "OWNED", "THEIRS", "average_values", "money_cubeful", "money_cubeless", "money_live"]

#: The cube's codes for the side on roll.
CENTRED, OWNED, THEIRS = 0, 1, 2
#: Below this P(win), or above 1 minus it, the cube is as good as dead.
CERTAIN = 1e-7


def money_cubeless(probabilities: np.ndarray, owner: np.ndarray, jacoby: bool) -> np.ndarray:
    """``float64[N]``: the cubeless equity that counts, gammons and
    backgammons at nothing with the cube centred under the Jacoby rule."""
    p = np.asarray(probabilities, dtype=np.float64)
    gammon_value = np.where(jacoby & (np.asarray(owner) == CENTRED), 0.0, 1.0)
    result: np.ndarray = 2 * p[:, 0] - 1 + gammon_value * (p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4])
    return result


def average_values(probabilities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(W, L)``: the average points of a win and of a loss (1 where the
    side cannot win, or cannot lose)."""
    p = np.asarray(probabilities, dtype=np.float64)
    win, lose = p[:, 0], 1 - p[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        average_win = np.where(win > 0, 1 + (p[:, 1] + p[:, 2]) / win, 1.0)
        average_loss = np.where(lose > 0, 1 + (p[:, 3] + p[:, 4]) / lose, 1.0)
    return average_win, average_loss


def _line(p: np.ndarray, p0: np.ndarray, e0: np.ndarray | float, p1: np.ndarray | float,
          e1: np.ndarray | float) -> np.ndarray:
    """The value at ``p`` of the line through ``(p0, e0)`` and ``(p1, e1)``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        result: np.ndarray = e0 + (np.asarray(e1) - e0) * (p - p0) / (np.asarray(p1) - p0)
    return result


def money_live(probabilities: np.ndarray, owner: np.ndarray, jacoby: bool) -> np.ndarray:
    """``float64[N]``: the equity with a fully live cube (see the module)."""
    p = np.asarray(probabilities, dtype=np.float64)[:, 0]
    average_win, average_loss = average_values(probabilities)
    take = (average_loss - 0.5) / (average_win + average_loss + 0.5)
    cash = (average_loss + 1) / (average_win + average_loss + 0.5)
    zero = np.zeros_like(p)
    # centred: -L at 0, -1 at the take point, +1 at the cash point, +W at 1
    # (under the Jacoby rule the ends are flat: gammons count only once doubled)
    below_take = -1.0 if jacoby else _line(p, zero, -average_loss, take, -1.0)
    above_cash = 1.0 if jacoby else _line(p, cash, 1.0, 1.0, average_win)
    centred = np.where(p < take, below_take, np.where(p < cash, _line(p, take, -1.0, cash, 1.0), above_cash))
    # owned: -L at 0, +1 at the cash point, +W at 1
    owned = np.where(p < cash, _line(p, zero, -average_loss, cash, 1.0), _line(p, cash, 1.0, 1.0, average_win))
    # the other side's: -L at 0, -1 at the take point, +W at 1
    theirs = np.where(p < take, _line(p, zero, -average_loss, take, -1.0), _line(p, take, -1.0, 1.0, average_win))
    result: np.ndarray = np.choose(np.asarray(owner), [centred, owned, theirs])
    return result


def money_cubeful(probabilities: np.ndarray, owner: np.ndarray, efficiency: np.ndarray, jacoby: bool) -> np.ndarray:
    """``float64[N]``: the cubeful equity, normalised to a cube of 1:
    ``(1 - x) dead + x live`` for the cube efficiency ``x`` (the dead
    cube's equity where P(win) is within :data:`CERTAIN` of 0 or 1)."""
    p = np.asarray(probabilities, dtype=np.float64)
    owner = np.broadcast_to(np.asarray(owner), len(p))
    dead = money_cubeless(p, owner, jacoby)
    live = money_live(p, owner, jacoby)
    x = np.asarray(efficiency, dtype=np.float64)
    result: np.ndarray = np.where((p[:, 0] > CERTAIN) & (p[:, 0] < 1 - CERTAIN), (1 - x) * dead + x * live, dead)
    return result
