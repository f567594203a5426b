"""The analysis of one game written for reading: the specification of
:func:`bansugoroku_fast.analysis.analyse`'s checker plays, luck and
statistics at 0 ply, in plain Python over this package's own move
generation and a callable evaluator, one position at a time.

The evaluator is ``value(position) -> 5 floats``: the outcome
probabilities (GNU Backgammon's cumulative order) of an unfinished
:class:`~bansugoroku_fast.Position` for row 0, the side that has just
moved; a finished position is valued exactly here and never shown to it.

For each ply (a position seen by the mover, its roll, the position the
mover left):

* every legal play is valued by the equity of the position it reaches;
  the best is the greatest (the first in :func:`.moves.legal_plays` order
  among equals); the ``loss`` is the best's equity minus the played one's;
  a ply with at most one legal play is *forced* and carries no mark;
* a play's mark: "very bad" over a loss of 0.12, "bad" over 0.06,
  "doubtful" over 0.03 (GNU Backgammon's defaults);
* the roll's luck: the equity after the best play of the roll (the
  position itself when it has no play) minus its mean over the 36 rolls
  (a double once, the others twice); the opening roll of a roll-off game
  (start position, no double) against the 30 rolls that may start it, the
  mover's 15 and, negated, the other side's 15 from its side; its mark
  "very lucky" over 0.6, "lucky" over 0.3, "unlucky" / "very unlucky" below
  -0.3 / -0.6;
* each player's error rate: its total loss over its unforced plays, in
  millipoints per play.

>>> from bansugoroku_fast import Position, Rules
>>> rules = Rules(variant="backgammon")
>>> flat = lambda position: (0.5, 0.1, 0.0, 0.1, 0.0)
>>> start = Position.initial()
>>> after = legal_plays(start, (3, 1), rules)[0].position
>>> row = analyse_game([start], [(3, 1)], [after], rules, flat)[0]
>>> row["forced"], row["loss"], row["mark"], row["luck"]
(False, 0.0, None, 0.0)
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..position import Position, as_position
from ..rules import ALL_ROLLS, Rules
from .evaluators import equity
from .moves import legal_plays, outcome

__all__ = ["analyse_game", "error_rates", "luck_of", "mark", "luck_mark", "value_of"]

Value = Callable[[Position], Sequence[float]]


def value_of(position: Position, rules: Rules, value: Value) -> list[float]:
    """Row 0's five probabilities: exact for a finished position, else ``value``'s."""
    result = outcome(position, rules)
    if result is None:
        return [float(p) for p in value(position)]
    slots = [float(result.value >= v) for v in (1, 2, 3)]
    if result.winner == 0:
        return [slots[0], slots[1], slots[2], 0.0, 0.0]
    return [0.0, 0.0, 0.0, slots[1], slots[2]]


def mark(loss: float) -> str | None:
    """GNU Backgammon's mark of a play that loses ``loss``."""
    if loss > 0.12:
        return "very bad"
    if loss > 0.06:
        return "bad"
    if loss > 0.03:
        return "doubtful"
    return None


def luck_mark(luck: float) -> str | None:
    """GNU Backgammon's mark of a roll's luck."""
    if luck > 0.6:
        return "very lucky"
    if luck < -0.6:
        return "very unlucky"
    if luck > 0.3:
        return "lucky"
    if luck < -0.3:
        return "unlucky"
    return None


def _best_equity(position: Position, dice: tuple[int, int], rules: Rules, value: Value) -> float:
    """The mover's equity after its best play of ``dice`` (the position itself for a pass)."""
    plays = legal_plays(position, dice, rules)
    if not plays:
        return equity(value_of(position, rules, value))
    return max(equity(value_of(play.position, rules, value)) for play in plays)


def _weight(dice: tuple[int, int]) -> float:
    return 1.0 if dice[0] == dice[1] else 2.0


def luck_of(position: Position, dice: tuple[int, int], rules: Rules, value: Value) -> float:
    """The luck of row 0 rolling ``dice`` in ``position`` (see the module)."""
    roll = (max(dice), min(dice))
    actual = _best_equity(position, roll, rules, value)
    if rules.start == "roll_off" and roll[0] != roll[1] and position == Position.initial(rules):
        mine = sum(_best_equity(position, r, rules, value) for r in ALL_ROLLS if r[0] != r[1])
        theirs = sum(_best_equity(position.swapped(), r, rules, value) for r in ALL_ROLLS if r[0] != r[1])
        return actual - (mine - theirs) / 30
    mean = sum(_weight(r) * _best_equity(position, r, rules, value) for r in ALL_ROLLS) / 36
    return actual - mean


def analyse_game(positions: Sequence[Any], dice: Sequence[Sequence[int]], afters: Sequence[Any], rules: Rules,
                 value: Value, movers: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """One row per ply: ``player`` (``movers[i]``, else alternating from 0),
    ``forced``, ``played`` and ``best`` (notation), ``played_equity``,
    ``best_equity``, ``loss``, ``mark``, ``luck``, ``luck_mark``."""
    rows = []
    for i, (before, roll, after) in enumerate(zip(positions, dice, afters)):
        position, reached = as_position(before), as_position(after)
        roll = (int(roll[0]), int(roll[1]))
        plays = legal_plays(position, roll, rules)
        luck = luck_of(position, roll, rules, value)
        row: dict[str, Any] = {"player": movers[i] if movers is not None else i % 2, "forced": len(plays) <= 1,
                               "luck": luck, "luck_mark": luck_mark(luck)}
        if not plays:
            own = equity(value_of(position, rules, value))
            row.update(played="", best="", played_equity=own, best_equity=own, loss=0.0, mark=None)
        else:
            scored = [(equity(value_of(play.position, rules, value)), play) for play in plays]
            best_equity, best = scored[0]
            for score, play in scored[1:]:
                if score > best_equity:
                    best_equity, best = score, play
            played_equity, played = next((s, p) for s, p in scored if p.position == reached)
            loss = max(best_equity - played_equity, 0.0)
            row.update(played=str(played), best=str(best), played_equity=played_equity, best_equity=best_equity,
                       loss=loss, mark=None if row["forced"] else mark(loss))
        rows.append(row)
    return rows


def error_rates(rows: Sequence[dict[str, Any]]) -> list[float | None]:
    """Each player's error rate: millipoints lost per unforced play (None without one)."""
    rates: list[float | None] = []
    for player in (0, 1):
        unforced = [row["loss"] for row in rows if row["player"] == player and not row["forced"]]
        rates.append(1000 * sum(unforced) / len(unforced) if unforced else None)
    return rates
