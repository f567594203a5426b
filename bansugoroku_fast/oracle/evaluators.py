"""Evaluators written for reading: the input encodings, a network's forward
pass in float64, and plays ranked at 0 and 1 ply by brute force.

The specification of :mod:`bansugoroku_fast.evaluators`; plain Python (no
numpy, no kernel code), one position at a time. A network here is a
:class:`PlainNetwork` of nested lists (``weights[k][i][j]`` from input ``i``
to unit ``j`` of layer ``k``).

>>> from bansugoroku_fast import Position, Rules
>>> units = encode(Position.initial(), "raw198", Rules(variant="backgammon"))
>>> len(units), units[20:24], units[196:]
(198, [1.0, 1.0, 1.0, 1.0], [1.0, 0.0])
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..checks import as_dice, as_rules
from ..errors import InvalidEvaluatorError
from ..position import Position, as_position
from ..rules import ALL_ROLLS, Rules
from .endgames import Stones, rank
from .features import features
from .moves import legal_plays, outcome

__all__ = ["PlainNetwork", "PlainTables", "best_value", "encode", "equity", "evaluate", "flip", "has_contact", "luck",
           "one_ply_values", "rank_plays", "result_shares", "standing_value"]

#: Each side feature's divisor (pips, off, bar, home, back, blots, points,
#: home points, prime, anchors, exposure, stacking, closure, won), twice.
FEATURE_DIVISORS = (167, 15, 2, 15, 15, 5, 12, 6, 6, 6, 36, 12, 1, 3) * 2

Probabilities = tuple[float, float, float, float, float]
#: Table positions with at most 6 stones: the two-sided table's rows (C(12, 6)).
SMALL_POSITIONS = 924


def encode(position: Position, encoding: str, rules: Rules) -> list[float]:
    """The input units of ``position`` (row 0 has just moved): for each row,
    four units per point 1..24 of its own numbering ([n >= 1, n >= 2, n >= 3,
    (n - 3) / 2 beyond three]), its bar stones / 2, its borne-off stones / 15;
    then the turn units 1, 0; with ``"raw198+features"`` the features, each
    divided by its divisor."""
    units: list[float] = []
    for row in position.rows:
        for point in range(1, 25):
            n = row[point]
            units += [float(n >= 1), float(n >= 2), float(n >= 3), max(n - 3, 0) / 2]
        units += [row[25] / 2, row[0] / 15]
    units += [1.0, 0.0]
    if encoding == "raw198+features":
        units += [value / divisor for value, divisor in zip(features(position, rules), FEATURE_DIVISORS)]
    elif encoding != "raw198":
        raise InvalidEvaluatorError(f"unknown encoding {encoding!r}")
    return units


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


class PlainTables:
    """The exact endgame tables as a network with ``endgames`` reads them:
    a position both of whose rows stand on the tables' six points (and
    neither has finished) is valued by the two-sided table where both
    rows have at most 6 stones there, else by the convolution of the two
    one-sided distributions (gammons from the first-stone-off ones, for a
    row with all 15 stones on the board, where the rules count gammons).

    The tables' numbers are data here, as a network's weights are: the
    kernels built them, and ``tests/test_endgames.py`` checks them against
    this oracle's own builder (:mod:`.endgames`) for small stone counts.
    ``finish``, ``first`` and ``win`` are indexable by rank (rows of
    numbers, ``first`` empty without gammons), ``bears_off``: the table's
    points are 1..6 (else 7..12, the arrival finish).
    """

    def __init__(self, finish: Any, first: Any, win: Any, bears_off: bool, gammons: bool) -> None:
        self.finish, self.first, self.win = finish, first, win
        self.bears_off, self.gammons = bears_off, gammons and len(first) > 0

    @classmethod
    def of(cls, rules: Rules) -> PlainTables:
        """The tables of ``rules``' kind (``bansugoroku_fast.endgames.tables``)."""
        from ..endgames.store import kind_of, tables

        kind, built = kind_of(rules), tables(rules)
        return cls(built.finish, built.first, built.win, kind.bears_off, kind.gammons)

    def stones(self, row: Sequence[int]) -> Stones | None:
        """The row's stones on the table's points 1..6, or None if one
        stands elsewhere (on the bar, above the table's points; under the
        arrival finish, off the board) or none is left there (finished)."""
        base = 1 if self.bears_off else 7
        allowed = set(range(0, 7)) if self.bears_off else set(range(1, 13))
        if any(row[place] for place in range(26) if place not in allowed):
            return None
        stones: Stones = (row[base], row[base + 1], row[base + 2], row[base + 3], row[base + 4], row[base + 5])
        return stones if sum(stones) else None

    def figures(self, mover: Sequence[int], other: Sequence[int]) -> tuple[float, float, float] | None:
        """``(win, win_gammon, lose_gammon)`` of ``mover``, to roll, or None
        when the tables do not cover both rows; the one-sided sums run from
        the last turn down, as the kernels add them."""
        mine, theirs = self.stones(mover), self.stones(other)
        if mine is None or theirs is None:
            return None
        a, b = rank(mine), rank(theirs)
        if a < SMALL_POSITIONS and b < SMALL_POSITIONS:
            return float(self.win[a][b]), 0.0, 0.0
        d0, d1 = [float(p) for p in self.finish[a]], [float(p) for p in self.finish[b]]
        gammon0 = self.gammons and sum(mine) == 15
        gammon1 = self.gammons and sum(theirs) == 15
        f0 = [float(p) for p in self.first[a]] if gammon0 else []
        f1 = [float(p) for p in self.first[b]] if gammon1 else []
        win = win_gammon = lose_gammon = tail1 = tail_first1 = tail_first0 = 0.0
        for t in range(len(d0) - 1, 0, -1):
            tail1 += d1[t]
            win += d0[t] * tail1
            if gammon1:
                tail_first1 += f1[t]
                win_gammon += d0[t] * tail_first1
            if gammon0:
                lose_gammon += d1[t] * tail_first0
                tail_first0 += f0[t]
        return win, win_gammon, lose_gammon


@dataclass(frozen=True)
class PlainNetwork:
    """A multilayer perceptron: ``weights[k]`` is ``inputs x outputs``,
    ``biases[k]`` has ``outputs`` entries; hidden units ``activation``
    (``"sigmoid"`` or ``"relu"``), outputs sigmoid. ``tables``: the exact
    endgame tables it answers from where they cover a position (a
    network with ``endgames``), or None. ``race``: the network that
    answers for it where the position has no contact and the tables do
    not cover it (a network with a race network), or None."""

    weights: Sequence[Sequence[Sequence[float]]]
    biases: Sequence[Sequence[float]]
    encoding: str
    activation: str
    tables: PlainTables | None = None
    race: PlainNetwork | None = None

    @classmethod
    def of(cls, network: Any) -> PlainNetwork:
        """The plain twin of a network with numpy arrays ``weights`` and
        ``biases`` and names ``encoding`` and ``activation`` (a
        ``NetEvaluator``): the same numbers as Python floats.

        >>> from bansugoroku_fast.evaluators import NetEvaluator
        >>> PlainNetwork.of(NetEvaluator.random(hidden=(3,))).biases[0]
        [0.0, 0.0, 0.0]
        """
        tables = PlainTables.of(network.rules) if getattr(network, "endgames", False) else None
        race = getattr(network, "race", None)
        return cls([w.tolist() for w in network.weights], [b.tolist() for b in network.biases],
                   network.encoding, network.activation, tables, cls.of(race) if race is not None else None)

    def forward(self, units: Sequence[float]) -> Probabilities:
        """The five outputs for ``units``, made consistent: clipped to
        [0, 1], then P(w2+) <= P(win), P(w3) <= P(w2+), P(l2+) <= 1 - P(win),
        P(l3) <= P(l2+)."""
        values = [float(u) for u in units]
        last = len(self.weights) - 1
        for k, (weights, biases) in enumerate(zip(self.weights, self.biases)):
            sums = [biases[j] + sum(values[i] * weights[i][j] for i in range(len(values)) if values[i])
                    for j in range(len(biases))]
            if k == last or self.activation == "sigmoid":
                values = [_sigmoid(s) for s in sums]
            else:
                values = [max(s, 0.0) for s in sums]
        win, win2, win3, lose2, lose3 = (min(max(v, 0.0), 1.0) for v in values)
        win2 = min(win2, win)
        win3 = min(win3, win2)
        lose2 = min(lose2, 1 - win)
        lose3 = min(lose3, lose2)
        return win, win2, win3, lose2, lose3


def has_contact(position: Position) -> bool:
    """Whether a stone of one side has a stone of the other still ahead of
    it: row 0's rearmost stone (its bar counting 25) and row 1's, each in
    its own numbering, add up to more than 25 (row 1's place ``q`` is row
    0's ``25 - q``).

    >>> has_contact(Position.initial()), has_contact(Position([[14, 1] + [0] * 24, [14, 1] + [0] * 24]))
    (True, False)
    """
    rearmost = [max((place for place in range(1, 26) if row[place]), default=0) for row in position.rows]
    return rearmost[0] + rearmost[1] > 25


def equity(p: Sequence[float]) -> float:
    """``2 P(win) - 1 + P(w2+) - P(l2+) + P(w3) - P(l3)``."""
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]


def flip(p: Sequence[float]) -> Probabilities:
    """The same outcomes seen by the other side."""
    return 1 - p[0], p[3], p[4], p[1], p[2]


def evaluate(position: object, rules: object, network: PlainNetwork) -> Probabilities:
    """Row 0's five probabilities (row 0 has just moved): exact once the
    game is over (a win worth ``v`` fills the slots of values up to
    ``v``), from the network's tables where they cover both rows (row 1's
    figures, to roll, turned round), else from its race network where the
    position has no contact, else the network's."""
    position, rules = as_position(position), as_rules(rules)
    result = outcome(position, rules)
    if result is None:
        figures = network.tables.figures(position.rows[1], position.rows[0]) if network.tables else None
        if figures is not None:
            win, win_gammon, lose_gammon = figures
            return 1.0 - win, lose_gammon, 0.0, win_gammon, 0.0
        if network.race is not None and not has_contact(position):
            network = network.race
        return network.forward(encode(position, network.encoding, rules))
    slots = tuple(float(result.value >= v) for v in (1, 2, 3))
    if result.winner == 0:
        return slots[0], slots[1], slots[2], 0.0, 0.0
    return 0.0, 0.0, 0.0, slots[1], slots[2]


def best_value(position: Position, dice: tuple[int, int], rules: Rules, network: PlainNetwork) -> Probabilities:
    """The value, for row 0 (to play ``dice``), of its play with the
    greatest 0-ply equity (the first such play in ``legal_plays`` order),
    or of the position itself when the roll passes."""
    best, best_equity = None, 0.0
    for play in legal_plays(position, dice, rules):
        value = evaluate(play.position, rules, network)
        if best is None or equity(value) > best_equity:
            best, best_equity = value, equity(value)
    return best if best is not None else evaluate(position, rules, network)    # a pass: the position itself


def _weight(dice: tuple[int, int]) -> float:
    """A roll's chance out of 36."""
    return 1.0 if dice[0] == dice[1] else 2.0


def one_ply_values(position: Position, rules: Rules, network: PlainNetwork) -> Probabilities:
    """The 1-ply value of ``position`` (row 0 has just moved): over each of
    the other side's 21 rolls (a double weighs 1/36, the others 2/36), its
    :func:`best_value` flipped to row 0's side and averaged. A finished
    position: its outcome."""
    if outcome(position, rules) is not None:
        return evaluate(position, rules, network)
    theirs = position.swapped()
    total = [0.0] * 5
    for dice in ALL_ROLLS:
        for k, p in enumerate(flip(best_value(theirs, dice, rules, network))):
            total[k] += _weight(dice) * p
    win, win2, win3, lose2, lose3 = (t / 36 for t in total)
    return win, win2, win3, lose2, lose3


Shares = list[list[float]]


def result_shares(p: Sequence[float]) -> Shares:
    """``[row][value]``: the chance of each result (row 0 wins or loses,
    worth 1..3; column 0 unused) from row 0's five cumulative probabilities."""
    win, win2, win3, lose2, lose3 = p
    return [[0.0, win - win2, win2 - win3, win3], [0.0, 1 - win - lose2, lose2 - lose3, lose3]]


def standing_value(position: Position, rules: Rules, network: PlainNetwork) -> Shares:
    """The result shares of ``position`` for row 0, to roll: the 0-ply
    value of the side that has just moved (row 1), flipped."""
    return result_shares(flip(evaluate(position.swapped(), rules, network)))


def luck(position: Position, dice: tuple[int, int], rules: Rules, network: PlainNetwork) -> Shares:
    """The luck of row 0 rolling ``dice`` (GNU Backgammon's variance
    reduction): the result shares of its :func:`best_value` for that roll
    minus their mean over the 21 rolls."""
    mean = [[0.0] * 4, [0.0] * 4]
    for roll in ALL_ROLLS:
        shares = result_shares(best_value(position, roll, rules, network))
        for row in (0, 1):
            for value in range(4):
                mean[row][value] += _weight(roll) * shares[row][value] / 36
    actual = result_shares(best_value(position, (max(dice), min(dice)), rules, network))
    return [[actual[row][value] - mean[row][value] for value in range(4)] for row in (0, 1)]


def rank_plays(position: object, dice: object, rules: object, network: PlainNetwork,
               ply: int = 0) -> list[tuple[str, float, Probabilities]]:
    """Every legal play at ``ply`` (0 or 1) as ``(notation, equity,
    probabilities)``, best first (ties: the play listed first)."""
    position, rules = as_position(position), as_rules(rules)
    scored = []
    for play in legal_plays(position, as_dice(dice), rules):
        if ply == 0:
            value = evaluate(play.position, rules, network)
        else:
            value = one_ply_values(play.position, rules, network)
        scored.append((str(play), equity(value), value))
    return sorted(scored, key=lambda item: -item[1])
