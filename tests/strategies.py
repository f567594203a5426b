"""Valid positions biased toward the edges of the rules, for the differential tests.

Two front ends share one set of builders:

* hypothesis strategies (:func:`positions`, :func:`rolls`, :func:`position_kinds`),
  which shrink toward simple boards;
* :func:`edge_positions`, a plain-numpy generator for bulk comparisons
  (``int8[N, 2, 26]`` from a seed, no hypothesis involved).

Every builder returns a VALID position for the rules it is given: each row sums
to 15, counts are >= 0, no point holds stones of both sides, and under the
arrival finish nothing is borne off. Positions in which both sides have won (no
game reaches them; the API raises) are never produced here; :func:`both_won_rows`
builds them on purpose for the error tests.

The kinds (see :data:`KINDS`) aim at the places where move generators go wrong:
bar entry (both sides on the bar, entry blocked by made home points), bear-off
(all home, some off, overshooting dice, blots to hit during bear-off), 14 home
and one outside, a closure one move away (five home points made, the opponent
on the bar, or a blot to hit on the sixth point), near-x3 homes (2-2-2-3-3-2 or
2-3-2-3-2-2 plus one stone within a die of home), positions where only one die
can be played (primes, stones stuck deep in an arrival home), wins one move
away, games already over, and fully random boards.
"""
from __future__ import annotations

import random

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from bansugoroku_fast.layout import BAR, OFF, STONES
from bansugoroku_fast.rules import Rules

HOME = tuple(range(1, 7))
POINTS = tuple(range(1, 25))
TRIPLE_HOMES = ((2, 2, 2, 3, 3, 3), (2, 3, 2, 3, 2, 3))

KINDS = (
    "random",
    "blotty",
    "bar",
    "entry_blocked",
    "bear_off",
    "last_outside",
    "closure_near",
    "near_x3",
    "one_die",
    "stuck_home",
    "win_next",
    "game_over",
    "start",
)

#: Relative weights of the kinds in :func:`edge_positions` (hypothesis draws
#: them uniformly and shrinks toward the first, "random").
WEIGHTS = {
    "random": 3,
    "blotty": 2,
    "bar": 2,
    "entry_blocked": 2,
    "bear_off": 3,
    "last_outside": 2,
    "closure_near": 3,
    "near_x3": 2,
    "one_die": 2,
    "stuck_home": 2,
    "win_next": 2,
    "game_over": 1,
    "start": 0.2,
}


# --- random sources ------------------------------------------------------------


class _HypothesisSource:
    """Draws through hypothesis, so that failing examples shrink."""

    def __init__(self, draw):
        self._draw = draw

    def integer(self, low: int, high: int) -> int:
        return self._draw(st.integers(low, high))

    def boolean(self) -> bool:
        return self._draw(st.booleans())

    def choice(self, options):
        options = list(options)
        return options[self.integer(0, len(options) - 1)]


class _RandomSource:
    """Draws from a ``random.Random`` (seeded: reproducible)."""

    def __init__(self, rng: random.Random):
        self._rng = rng

    def integer(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)

    def boolean(self) -> bool:
        return self._rng.random() < 0.5

    def choice(self, options):
        options = list(options)
        return options[self._rng.randrange(len(options))]


# --- board building ------------------------------------------------------------


class _Board:
    """Two rows being filled; ``side`` 0 = mover, 1 = opponent, points in the
    side's own numbering."""

    def __init__(self):
        self.rows = [[0] * 26, [0] * 26]

    def free(self, side: int, point: int) -> bool:
        return self.rows[1 - side][BAR - point] == 0

    def left(self, side: int) -> int:
        return STONES - sum(self.rows[side])

    def put(self, side: int, index: int, count: int = 1) -> None:
        """Add ``count`` stones (fewer if the side has fewer left)."""
        count = min(count, self.left(side))
        assert count >= 0, (side, index, count)
        if count and 1 <= index <= 24:
            assert self.free(side, index), (side, index)
        self.rows[side][index] += count

    def scatter(self, src, side: int, count: int, points=POINTS, *, stack: bool = True) -> None:
        """Put ``count`` stones of ``side`` on free points among ``points``
        (any free point when none of those is free). With ``stack``, a stone
        joins an occupied point half of the time, which makes points."""
        for _ in range(min(count, self.left(side))):
            candidates = [p for p in points if self.free(side, p)]
            if not candidates:
                candidates = [p for p in POINTS if self.free(side, p)]
            if stack and src.boolean():
                occupied = [p for p in candidates if self.rows[side][p] > 0]
                if occupied:
                    candidates = occupied
            self.put(side, src.choice(candidates))

    def spread(self, src, side: int, count: int, points=POINTS) -> None:
        """Put stones as singles on empty free points (blots), then scatter."""
        for _ in range(min(count, self.left(side))):
            empty = [p for p in points if self.free(side, p) and self.rows[side][p] == 0]
            if not empty:
                self.scatter(src, side, 1, points)
            else:
                self.put(side, src.choice(empty))

    def make_points(self, src, side: int, points, size: int = 2) -> None:
        """Make each free point of ``points`` (2 or 3 stones) while stones remain."""
        for point in points:
            if self.left(side) < size:
                break
            if self.free(side, point):
                self.put(side, point, size if size > 2 else src.choice((2, 2, 3)))


def _may_bear_off(rules: Rules) -> bool:
    return rules.bears_off


def _off_count(src, rules: Rules, high: int) -> int:
    """Borne-off stones for a side that may have some (0 under arrival)."""
    if not rules.bears_off or high <= 0:
        return 0
    return src.choice((0, src.integer(0, high), src.integer(1, high)))


def _opponent(src, board: _Board, rules: Rules, style: str = "any") -> None:
    """Fill the opponent's row (side 1) with what the mover left free.

    ``style``: "any" (random), "bar" (1..3 on the bar), "blots" (singles),
    "home" (mostly in its own home, maybe some off), "back" (some stones still
    in the mover's home: opponent points 19..24, to be hit there)."""
    if style == "any":
        style = src.choice(("random", "random", "bar", "blots", "home", "back"))
    left = board.left(1)
    if style == "bar":
        board.put(1, BAR, min(left, src.integer(1, 3)))
    elif style == "home":
        off = _off_count(src, rules, min(12, left))
        board.put(1, OFF, off)
        board.scatter(src, 1, board.left(1) - src.integer(0, 3), HOME)
    elif style == "back":
        board.scatter(src, 1, src.integer(1, 3), range(19, 25), stack=False)
    elif style == "blots":
        board.spread(src, 1, src.integer(2, 8))
    if src.integer(0, 5) == 0 and board.left(1):
        board.put(1, BAR, 1)
    board.scatter(src, 1, board.left(1))


# --- the kinds -----------------------------------------------------------------


def _random(src, board, rules):
    board.put(0, BAR, src.choice((0, 0, 0, 0, 1, 2, src.integer(0, 15))))
    board.put(0, OFF, _off_count(src, rules, board.left(0) - 1))
    board.scatter(src, 0, board.left(0))
    board.put(1, BAR, src.choice((0, 0, 0, 1, 2, src.integer(0, 15))))
    board.put(1, OFF, _off_count(src, rules, board.left(1) - 1))
    board.scatter(src, 1, board.left(1))


def _blotty(src, board, rules):
    board.spread(src, 0, src.integer(4, 10))
    if src.boolean():
        board.put(0, BAR, src.integer(1, 2))
    board.spread(src, 1, src.integer(4, 10))
    board.scatter(src, 0, board.left(0))
    _opponent(src, board, rules, src.choice(("random", "bar", "blots")))


def _bar(src, board, rules):
    board.put(0, BAR, src.choice((1, 1, 2, src.integer(1, 5))))
    # Some opponent home points made (the mover enters on its points 19..24).
    made = [p for p in range(1, 7) if src.integer(0, 2) == 0]
    board.make_points(src, 1, made, 2)
    if src.boolean():
        board.put(1, BAR, src.integer(1, 3))
    board.scatter(src, 0, board.left(0))
    _opponent(src, board, rules, "random")


def _entry_blocked(src, board, rules):
    board.put(0, BAR, src.choice((1, 1, 2, 3, src.integer(1, 6))))
    closed = src.choice((4, 5, 5, 6))
    points = list(range(1, 7))
    open_points = set()
    while len(open_points) < 6 - closed:
        open_points.add(src.choice(points))
    board.make_points(src, 1, [p for p in points if p not in open_points], 2)
    if src.boolean():  # a blot on an open entry point
        spots = [p for p in open_points if board.free(1, p)]
        if spots:
            board.put(1, src.choice(spots))
    if src.integer(0, 3) == 0:
        board.put(1, BAR, 1)
    board.scatter(src, 0, board.left(0))
    _opponent(src, board, rules, "random")


def _bear_off(src, board, rules):
    if not rules.bears_off:  # arrival: all home is a win; leave 1..3 outside
        return _last_outside(src, board, rules, outside=src.integer(1, 3))
    board.put(0, OFF, src.choice((0, src.integer(0, 14), src.integer(8, 14))))
    on_board = board.left(0)
    if src.integer(0, 2) == 0:  # a pattern with gaps (overshooting dice)
        low = src.integer(1, 4)
        board.scatter(src, 0, on_board, range(1, low + 1))
    else:
        board.scatter(src, 0, on_board, HOME)
    _opponent(src, board, rules, src.choice(("back", "back", "random", "home", "bar")))


def _last_outside(src, board, rules, outside: int = 1):
    """14 home (fewer if some are off) and ``outside`` just outside (7..12)."""
    off = _off_count(src, rules, 13 - outside) if src.boolean() else 0
    board.put(0, OFF, off)
    home_count = board.left(0) - outside
    # Sometimes the opponent holds a home point or two first (landing blocked).
    if src.boolean():
        board.make_points(src, 1, [src.integer(1, 6) + 18], 2)
    board.scatter(src, 0, home_count, HOME)
    for _ in range(outside):
        where = src.choice((7, 8, 9, 10, 11, 12, src.integer(7, 24), BAR))
        if where == BAR or not board.free(0, where):
            board.put(0, BAR)
        else:
            board.put(0, where)
    _opponent(src, board, rules)


def _closure_near(src, board, rules):
    """Five home points made, the sixth open: the closure is one move away
    (or, sometimes, already holds)."""
    missing = src.integer(1, 6)
    for point in HOME:
        if point != missing:
            board.put(0, point, src.choice((2, 2, 2, 3)))
    shape = src.integer(0, 3)
    if shape == 0:  # an opponent blot on the missing point: hitting it closes
        board.put(1, BAR - missing)
    elif shape == 1:  # one mover stone there already: cover it
        board.put(0, missing)
    elif shape == 2:  # already closed
        board.put(0, missing, 2)
    # The builders within reach of the missing point (one or two dice).
    for _ in range(src.integer(1, 3)):
        if board.left(0) == 0:
            break
        target = missing + src.integer(1, 12)
        if target <= 24 and board.free(0, target):
            board.put(0, target)
    if src.integer(0, 5) == 0 and board.left(0):
        board.put(0, BAR)
    if rules.bears_off and src.integer(0, 3) == 0:
        board.put(0, OFF, min(board.left(0), src.integer(0, 2)))
    board.scatter(src, 0, board.left(0))
    _opponent(src, board, rules, src.choice(("bar", "bar", "bar", "random")))


def _near_x3(src, board, rules):
    """A triple home (2-2-2-3-3-3 or 2-3-2-3-2-3) one stone short, that stone
    within reach, and usually the opponent on the bar."""
    pattern = list(src.choice(TRIPLE_HOMES))
    short = src.integer(0, 5)
    pattern[short] -= 1
    for point, count in zip(HOME, pattern):
        board.put(0, point, count)
    distance = src.choice((1, 2, 3, 4, 5, 6, src.integer(1, 12)))
    origin = min(24, short + 1 + distance)
    if board.free(0, origin):
        board.put(0, origin)
    else:
        board.put(0, BAR)
    _opponent(src, board, rules, src.choice(("bar", "bar", "bar", "random", "blots")))


def _one_die(src, board, rules):
    """A prime in front of the mover's stones: often only one die plays."""
    length = src.choice((4, 5, 5, 6, 6))
    start = src.integer(2, 24 - length)  # prime on mover points start..start+length-1
    for point in range(start, start + length):
        board.put(1, BAR - point, 2)
    # The mover: a few stones just behind the prime, maybe one on the bar.
    behind = [p for p in range(start + length, min(25, start + length + 3))]
    if behind:
        board.scatter(src, 0, src.integer(1, 3), behind)
    if src.integer(0, 2) == 0:
        board.put(0, BAR, 1)
    # The rest low in the mover's home, packed (few moves left there).
    low = [p for p in range(1, min(start, 7)) if board.free(0, p)] or [1]
    off = _off_count(src, rules, 3)
    board.put(0, OFF, min(off, board.left(0)))
    board.scatter(src, 0, board.left(0), low)
    _opponent(src, board, rules, "random")


def _stuck_home(src, board, rules):
    """Most mover stones deep in home: under arrival they cannot move past 1."""
    deep = src.integer(1, 4)
    outside = src.integer(0, 3)
    if rules.bears_off:
        board.put(0, OFF, _off_count(src, rules, 10))
    board.scatter(src, 0, board.left(0) - outside, range(1, deep + 1))
    for _ in range(outside):
        where = src.integer(deep + 1, 24)
        board.put(0, where if board.free(0, where) else BAR)
    # Opponent points block the short moves inside home now and then.
    for point in range(deep + 1, 13):
        if src.integer(0, 3) == 0 and board.free(1, BAR - point) and board.left(1) >= 2:
            board.put(1, BAR - point, 2)
    _opponent(src, board, rules, "random")


def _win_next(src, board, rules):
    """A win one move (or one roll) away."""
    if not rules.bears_off:
        return _last_outside(src, board, rules, outside=src.choice((1, 1, 2)))
    on_board = src.choice((1, 1, 2, 2, 3, 4))
    board.put(0, OFF, STONES - on_board)
    board.scatter(src, 0, on_board, range(1, src.integer(1, 6) + 1), stack=False)
    style = "back" if rules.is_backgammon and src.boolean() else src.choice(("random", "home", "bar", "back"))
    _opponent(src, board, rules, style)


def _game_over(src, board, rules):
    """One side has already won (finished, or its closure holds)."""
    side = src.integer(0, 1)
    how = src.choice(("finished", "finished", "closure"))
    if how == "finished":
        if rules.bears_off:
            board.put(side, OFF, STONES)
        else:
            pattern = src.choice(TRIPLE_HOMES + (None, None))
            if pattern:
                for point, count in zip(HOME, pattern):
                    board.put(side, point, count)
            else:
                board.scatter(src, side, STONES, HOME)
        other = 1 - side
        if src.boolean():
            board.put(other, BAR, src.integer(1, 3))
        if rules.bears_off and src.boolean():
            board.put(other, OFF, src.integer(0, board.left(other) - 1))
        board.scatter(src, other, board.left(other))
        return
    for point in HOME:
        board.put(side, point, 2)
    board.put(1 - side, BAR, src.integer(1, 3))
    if rules.bears_off and src.boolean():
        board.put(side, OFF, src.integer(0, 3))
    board.scatter(src, side, board.left(side))
    board.scatter(src, 1 - side, board.left(1 - side))


def _start(src, board, rules):
    row = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
    board.rows = [list(row), list(row)]


_BUILDERS = {
    "random": _random,
    "blotty": _blotty,
    "bar": _bar,
    "entry_blocked": _entry_blocked,
    "bear_off": _bear_off,
    "last_outside": _last_outside,
    "closure_near": _closure_near,
    "near_x3": _near_x3,
    "one_die": _one_die,
    "stuck_home": _stuck_home,
    "win_next": _win_next,
    "game_over": _game_over,
    "start": _start,
}
assert set(_BUILDERS) == set(KINDS)


# --- checks (independent of the package's rule code) ----------------------------


def is_valid(rows, rules: Rules) -> bool:
    """Structurally valid for ``rules`` (the generators' own contract)."""
    for row in rows:
        if len(row) != 26 or min(row) < 0 or sum(row) != STONES:
            return False
    if any(rows[0][p] and rows[1][BAR - p] for p in POINTS):
        return False
    return rules.bears_off or (rows[0][OFF] == 0 and rows[1][OFF] == 0)


def _has_won(own, other, rules: Rules) -> bool:
    if rules.bears_off:
        finished = own[OFF] == STONES
    else:
        finished = sum(own[p] for p in HOME) == STONES
    if finished:
        return True
    closure = other[BAR] >= 1 and all(own[p] >= 2 for p in HOME)
    return rules.closure == "immediate" and closure


def both_won(rows, rules: Rules) -> bool:
    """Both sides have won: no game reaches this; the API raises."""
    return _has_won(rows[0], rows[1], rules) and _has_won(rows[1], rows[0], rules)


def build(src, kind: str, rules: Rules):
    board = _Board()
    _BUILDERS[kind](src, board, rules)
    # Any stone a builder could not place goes to a free point.
    for side in (0, 1):
        board.scatter(src, side, board.left(side))
    rows = board.rows
    if not rules.bears_off:
        # Arrival never bears off (builders already avoid it; belt and braces).
        assert rows[0][OFF] == 0 and rows[1][OFF] == 0, rows
    assert is_valid(rows, rules), (kind, rows)
    return rows


# --- hypothesis front end ----------------------------------------------------------


def position_kinds():
    return st.sampled_from(KINDS)


@st.composite
def positions_with_kind(draw, rules: Rules, kinds=KINDS):
    """``(kind, int8[2, 26] array)`` of a valid position for ``rules``."""
    kind = draw(st.sampled_from(kinds))
    rows = build(_HypothesisSource(draw), kind, rules)
    assume(not both_won(rows, rules))
    return kind, np.array(rows, dtype=np.int8)


def positions(rules: Rules, kinds=KINDS):
    """Valid ``int8[2, 26]`` positions for ``rules``, biased toward edge states."""
    return positions_with_kind(rules, kinds).map(lambda item: item[1])


def rolls():
    """Ordered rolls ``(a, b)``, each die 1..6 (both orders of a non-double)."""
    return st.tuples(st.integers(1, 6), st.integers(1, 6))


# --- numpy front end ----------------------------------------------------------------


def edge_positions(rules: Rules, count: int, seed: int, kinds=KINDS, *, with_kinds: bool = False):
    """``count`` valid positions for ``rules`` as ``int8[count, 2, 26]``, drawn
    from the edge kinds by :data:`WEIGHTS`; reproducible from ``seed``.

    With ``with_kinds=True`` also return the list of kind names, one per item.
    """
    rng = random.Random(f"edge-{seed}-{rules.code}")
    src = _RandomSource(rng)
    weights = [WEIGHTS[kind] for kind in kinds]
    out = np.empty((count, 2, 26), dtype=np.int8)
    names = []
    item = 0
    while item < count:
        kind = rng.choices(kinds, weights)[0]
        rows = build(src, kind, rules)
        if both_won(rows, rules):
            continue
        out[item] = rows
        names.append(kind)
        item += 1
    return (out, names) if with_kinds else out


def both_won_rows(rules: Rules):
    """A structurally valid position in which both sides have won under
    ``rules`` (None when these rules make that impossible to build here)."""
    if rules.closure == "immediate":
        # Both closures hold: each side's home made, each with a stone on the bar.
        row = [0] * 26
        for point in HOME:
            row[point] = 2
        row[BAR] = 1
        row[13] = 2
        return [list(row), list(row)]
    if rules.bears_off:
        return [[STONES] + [0] * 25, [STONES] + [0] * 25]
    row = [0] * 26
    row[1:7] = [3, 3, 3, 2, 2, 2]
    return [list(row), list(row)]
