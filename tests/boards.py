"""Drawing positions for the rule tests.

Every position in ``tests/test_rules_*.py`` is drawn with :func:`board`, seen
from the side to move, so a reader can check the expected answer by hand:

* ``mover={24: 2, 13: 5}``: the mover's stones, keyed by the mover's points;
* ``opponent_at={1: 2, 12: 5}``: the opponent's stones, keyed by the MOVER's
  point numbers too (the opponent's own point is ``25 - p``), so the whole
  board is drawn in one numbering;
* ``mover_bar`` / ``opponent_bar``: stones on the bar;
* borne-off stones fill each row up to 15, unless ``mover_off`` /
  ``opponent_off`` say how many (then the row must add up to 15 exactly).

>>> start = board(mover={24: 2, 13: 5, 8: 3, 6: 5}, opponent_at={1: 2, 12: 5, 17: 3, 19: 5})
>>> start.rows[1][24], start.rows[1][13], start.rows[1][8], start.rows[1][6]
(2, 5, 3, 5)
>>> board(mover={6: 3}, opponent_at={19: 1}).rows[1][0]  # 14 of theirs borne off
14
"""
from __future__ import annotations

import pytest

from bansugoroku_fast import Position, Rules
from bansugoroku_fast.layout import BAR, STONES

# --- rule sets ---------------------------------------------------------------

BACKGAMMON = Rules(variant="backgammon")
BAN_ARRIVAL = [Rules(finish="arrival", closure=c) for c in ("multiplied", "immediate", "off")]
BAN_BEAR_OFF = [Rules(finish="bear_off", closure=c) for c in ("multiplied", "immediate", "off")]
BAN = BAN_ARRIVAL + BAN_BEAR_OFF
BEARING_OFF = BAN_BEAR_OFF + [BACKGAMMON]
ALL_RULES = BAN + [BACKGAMMON]


#: The rule sets every test runs on; the others (the same options in
#: other combinations) are ``slow``: ``.ci/full`` runs them. Together they
#: hold backgammon, both finishes and each closure of Ban-sugoroku.
LANDING_RULES = {"backgammon", "ban/arrival/multiplied", "ban/bear_off/immediate", "ban/bear_off/off"}


def rules_params(rule_sets):
    """``rule_sets`` as pytest params with readable ids (``ban/arrival/off``),
    those outside :data:`LANDING_RULES` marked ``slow``."""
    return [pytest.param(rules, id=rules.short_name,
                         marks=() if rules.short_name in LANDING_RULES else pytest.mark.slow)
            for rules in rule_sets]


def landing_grid(rows, columns):
    """Every pair of a value of ``rows`` and one of ``columns`` (each a list
    of pytest params or plain values, ids from ``str``) as pytest params, a
    test's two arguments; the pairs on a wrapped diagonal (row ``i`` with
    column ``i mod len(columns)``) run on landing, so that every value of
    each list runs there, and the rest of the grid is ``slow``.

    >>> [(p.id, bool(p.marks)) for p in landing_grid([1, 2], ["a", "b"])]
    [('1-a', False), ('1-b', True), ('2-a', True), ('2-b', False)]
    """
    def param(value):
        return value if isinstance(value, type(pytest.param(0))) else pytest.param(value, id=str(value))

    grid = []
    for i, row in enumerate(map(param, rows)):
        for j, column in enumerate(map(param, columns)):
            marks = [*row.marks, *column.marks] + ([] if i % len(columns) == j else [pytest.mark.slow])
            grid.append(pytest.param(row.values[0], column.values[0], id=f"{row.id}-{column.id}", marks=marks))
    return grid


# --- drawing a position --------------------------------------------------------


def _row(points, bar, off, who) -> list[int]:
    row = [0] * 26
    for point, count in (points or {}).items():
        if not 1 <= point <= 24:
            raise ValueError(f"{who}: no point {point} (use the *_bar / *_off arguments)")
        row[point] += count
    row[BAR] = bar
    on_board = sum(row)
    if off is None:
        off = STONES - on_board
    if off < 0 or on_board + off != STONES:
        raise ValueError(f"{who}: {on_board} stones on the board/bar and {off} off is not 15")
    row[0] = off
    return row


def board(
    mover=None,
    opponent_at=None,
    *,
    mover_bar: int = 0,
    opponent_bar: int = 0,
    mover_off: int | None = None,
    opponent_off: int | None = None,
) -> Position:
    """The position drawn from the mover's side (see the module docstring).

    ``opponent_at`` is keyed by the MOVER's point numbers: ``{1: 2}`` puts two
    opposing stones on the mover's 1-point, which is the opponent's 24-point.
    """
    mover_row = _row(mover, mover_bar, mover_off, "mover")
    theirs = {25 - point: count for point, count in (opponent_at or {}).items()}
    if any(not 1 <= p <= 24 for p in theirs):
        raise ValueError(f"opponent_at: points must be 1..24, got {sorted(opponent_at)}")
    opponent_row = _row(theirs, opponent_bar, opponent_off, "opponent")
    return Position([mover_row, opponent_row])


START = dict(mover={24: 2, 13: 5, 8: 3, 6: 5}, opponent_at={1: 2, 12: 5, 17: 3, 19: 5})


# --- reading results -----------------------------------------------------------


def notations(plays) -> list[str]:
    """``str(play)`` of each play, in the order returned."""
    return [str(play) for play in plays]


def step_lists(plays) -> list[tuple[tuple[int, int], ...]]:
    return [play.steps for play in plays]


def mover_row(position) -> dict:
    """The mover's points 1..24 that hold stones, ``{point: count}``, plus
    ``"bar"``/``"off"`` when non-zero (an easy thing to compare against)."""
    row = position.rows[0]
    drawn = {point: row[point] for point in range(24, 0, -1) if row[point]}
    if row[BAR]:
        drawn["bar"] = row[BAR]
    if row[0]:
        drawn["off"] = row[0]
    return drawn


# --- the two implementations ---------------------------------------------------
