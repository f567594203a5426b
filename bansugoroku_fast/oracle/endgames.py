"""The endgame tables written for reading: the reference the kernels'
tables (``bansugoroku_fast.endgames``) are tested against, for small stone
counts.

Plain Python over the oracle's own :func:`~bansugoroku_fast.oracle.moves.legal_plays`;
no numpy, no kernel code. The arithmetic is the kernels' own, step for
step, so that the two agree to the last bit: the 21 rolls in the order
(1,1), (1,2), .., (1,6), (2,2), .., (6,6), each weighted 1/36 (a double) or
2/36; a distribution gains ``weight * child[t]`` at turn ``t + 1``; of a
roll's plays the one of least expected turns is chosen, ties going to the
smaller table rank (:func:`rank`, GNU Backgammon's numbering of bear-off
positions).

A table position is six counts, the stones on the table's points 1..6:
the side's points 1..6 where stones are borne off (the other stones off),
its points 7..12 under the arrival finish (the other stones home, on point
1). The opponent's fifteen stones wait on its point 7, out of reach.

>>> from bansugoroku_fast import Rules
>>> tables = one_sided_tables(Rules(variant="backgammon"), most_stones=1)
>>> [round(p * 36, 9) for p in tables.finish[(0, 0, 0, 0, 0, 1)][:3]]
[0.0, 27.0, 9.0]
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple

from ..position import Position
from ..rules import Rules
from .moves import legal_plays

POINTS = 6
STONES = 15
TURNS = 64  # the length of every distribution (turns 0..63)
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]

Stones = tuple[int, int, int, int, int, int]


def rank(stones: Stones) -> int:
    """The table rank of ``stones``: six bars among stones, bar ``k`` at slot
    (stones on the table's points 6 down to 7 - k) + k - 1, and the rank the
    sum of C(slot_k, k) over the bars (the combinatorial number system)."""
    total, cumulative = 0, 0
    for k in range(1, POINTS + 1):
        cumulative += stones[POINTS - k]
        total += math.comb(cumulative + k - 1, k)
    return total


def positions(most_stones: int) -> Iterator[Stones]:
    """Every table position with at most ``most_stones`` stones, fewer stones first."""
    for total in range(most_stones + 1):
        yield from _spread(total, POINTS)


def _spread(total: int, points: int) -> Iterator[Stones]:
    if points == 1:
        yield (total,)  # type: ignore[misc]
        return
    for here in range(total + 1):
        for rest in _spread(total - here, points - 1):
            yield (here, *rest)  # type: ignore[misc]


def table_position(stones: Stones, rules: Rules) -> Position:
    """The whole board of a table position, the side to move in row 0."""
    mover = [0] * 26
    base = 1 if rules.bears_off else 7
    for i, count in enumerate(stones):
        mover[base + i] = count
    rest = STONES - sum(stones)
    if rules.bears_off:
        mover[0] = rest
    else:
        mover[1] = rest
    opponent = [0] * 26
    opponent[7] = STONES
    return Position([mover, opponent])


def children(stones: Stones, dice: tuple[int, int], rules: Rules) -> list[Stones]:
    """The table positions the legal plays of ``stones`` with ``dice`` reach."""
    base = 1 if rules.bears_off else 7
    reached = []
    for play in legal_plays(table_position(stones, rules), dice, rules):
        row = play.position.rows[0]
        reached.append(tuple(row[base + i] for i in range(POINTS)))
    return reached  # type: ignore[return-value]


def roll_weight(dice: tuple[int, int]) -> float:
    return 1.0 / 36.0 if dice[0] == dice[1] else 2.0 / 36.0


class OneSided(NamedTuple):
    """One-sided tables by table position: ``finish`` (distribution of the
    turns to finish, ``TURNS`` long) and ``finish_mean``; ``first`` and
    ``first_mean`` the same for the turns until one of its stones is off
    (empty dicts under the arrival finish)."""

    finish: dict[Stones, list[float]]
    finish_mean: dict[Stones, float]
    first: dict[Stones, list[float]]
    first_mean: dict[Stones, float]


def _least(candidates: list[tuple[float, int, list[float]]]) -> tuple[float, list[float]]:
    """The (mean, distribution) of least mean, ties to the smaller rank."""
    mean, _, distribution = min(candidates, key=lambda item: (item[0], item[1]))
    return mean, distribution


def _add_shifted(row: list[float], child: list[float], weight: float) -> None:
    for t in range(TURNS - 1):
        row[t + 1] += weight * child[t]


def one_sided_tables(rules: Rules, most_stones: int = 4) -> OneSided:
    """The one-sided tables of every position of up to ``most_stones`` stones."""
    done = [1.0] + [0.0] * (TURNS - 1)
    tables = OneSided({}, {}, {}, {})
    with_first = rules.bears_off
    for stones in sorted(positions(most_stones), key=rank):  # children come first
        if sum(stones) == 0:
            tables.finish[stones], tables.finish_mean[stones] = list(done), 0.0
            if with_first:
                tables.first[stones], tables.first_mean[stones] = list(done), 0.0
            continue
        finish, first = [0.0] * TURNS, [0.0] * TURNS
        finish_sum, first_sum = 0.0, 0.0
        for dice in ROLLS:
            weight = roll_weight(dice)
            reached = children(stones, dice, rules)
            mean, distribution = _least([(tables.finish_mean[c], rank(c), tables.finish[c]) for c in reached])
            _add_shifted(finish, distribution, weight)
            finish_sum += weight * mean
            if with_first:
                # a play that takes a stone off is done: 0 turns more (it ranks before every other)
                options = [(0.0, -1, done) if sum(c) < sum(stones) else (tables.first_mean[c], rank(c),
                                                                          tables.first[c]) for c in reached]
                mean, distribution = _least(options)
                if distribution is done:
                    first[1] += weight
                else:
                    _add_shifted(first, distribution, weight)
                first_sum += weight * mean
        tables.finish[stones], tables.finish_mean[stones] = finish, 1.0 + finish_sum
        if with_first:
            tables.first[stones], tables.first_mean[stones] = first, 1.0 + first_sum
    return tables


def two_sided_table(rules: Rules, most_stones: int = 4) -> dict[tuple[Stones, Stones], float]:
    """``win[(a, b)]``: the exact chance that the side to roll with ``a``
    wins against ``b`` (both up to ``most_stones`` stones), both sides
    choosing, roll by roll, the play that wins most often; ``a`` empty: 1
    (it has won), else ``b`` empty: 0."""
    every = sorted(positions(most_stones), key=rank)
    plays = {(a, dice): children(a, dice, rules) for a in every if sum(a) for dice in ROLLS}
    win: dict[tuple[Stones, Stones], float] = {}
    # by increasing rank(a) + rank(b): a child c of a ranks below a, so win[(b, c)] is known
    for a, b in sorted(((a, b) for a in every for b in every), key=lambda pair: rank(pair[0]) + rank(pair[1])):
        if sum(a) == 0:
            win[(a, b)] = 1.0
        elif sum(b) == 0:
            win[(a, b)] = 0.0
        else:
            total = 0.0
            for dice in ROLLS:
                best = max(1.0 if sum(c) == 0 else 1.0 - win[(b, c)] for c in plays[(a, dice)])
                total += roll_weight(dice) * best
            win[(a, b)] = total
    return win


def _cube_equity(no_double: float, double_take: float) -> float:
    """A side on roll that may double: it doubles when doubling is no
    worse than not (a pass wins 1), and is then taken or passed, whichever
    the other side prefers."""
    if double_take >= no_double and no_double <= 1.0:
        return min(double_take, 1.0)
    return no_double


CubeStates = tuple[float, float, float]


def cubeful_table(rules: Rules, most_stones: int = 3) -> dict[tuple[Stones, Stones], CubeStates]:
    """``no_double[(a, b)]``: the exact money equity, per cube of 1, of the
    side to roll with ``a`` against ``b`` (both up to ``most_stones``
    stones) when it rolls without doubling, as ``(centred, owned,
    theirs)``: the cube in the middle, its own, the other side's; from
    then on both sides play and handle the cube perfectly, each state with
    its own plays. ``a`` empty: it has won, 1; else ``b`` empty: -1.

    After our play to ``c``, the other side is on roll at ``(b, c)``:

    * the cube centred: it may double (we would then own the cube at
      twice the value: its "theirs" state);
    * ours: it may not double (its "theirs" state);
    * its own: it may redouble (its "owned" state; we would own the cube).
    """
    every = sorted(positions(most_stones), key=rank)
    plays = {(a, dice): children(a, dice, rules) for a in every if sum(a) for dice in ROLLS}
    no_double: dict[tuple[Stones, Stones], CubeStates] = {}
    for a, b in sorted(((a, b) for a in every for b in every), key=lambda pair: rank(pair[0]) + rank(pair[1])):
        if sum(a) == 0:
            no_double[(a, b)] = (1.0, 1.0, 1.0)
        elif sum(b) == 0:
            no_double[(a, b)] = (-1.0, -1.0, -1.0)
        else:
            totals = [0.0, 0.0, 0.0]
            for dice in ROLLS:
                options = []
                for c in plays[(a, dice)]:
                    if sum(c) == 0:
                        options.append((1.0, 1.0, 1.0))
                        continue
                    centred, owned, theirs = no_double[(b, c)]
                    their_take = 2.0 * theirs
                    options.append((-_cube_equity(centred, their_take), -theirs, -_cube_equity(owned, their_take)))
                for state in range(3):
                    totals[state] += roll_weight(dice) * max(option[state] for option in options)
            no_double[(a, b)] = (totals[0], totals[1], totals[2])
    return no_double


def expected_turns(row: tuple[int, ...], rules: Rules, memo: dict[tuple[int, ...], float] | None = None) -> float:
    """The least expected turns for one side, its row (26 counts, its own
    numbering) alone on the board (the opponent's stones on its point 7),
    to finish under ``rules``, by plain recursion over whole rows: where
    every stone stands counts, home stones too. What the tables assume
    (that under the arrival finish home stones never matter) is checked
    against this."""
    memo = {} if memo is None else memo
    if row in memo:
        return memo[row]
    if (row[0] == STONES) if rules.bears_off else all(row[p] == 0 for p in range(7, 26)):
        return 0.0
    opponent = [0] * 26
    opponent[7] = STONES
    total = 0.0
    for dice in ROLLS:
        options = [expected_turns(tuple(play.position.rows[0]), rules, memo)
                   for play in legal_plays(Position([list(row), opponent]), dice, rules)]
        total += roll_weight(dice) * min(options)
    memo[row] = 1.0 + total
    return memo[row]
