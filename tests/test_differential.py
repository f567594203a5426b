"""Differential tests: every public single-position function of the kernel API
(``bansugoroku_fast.moves``) against the pure-Python oracle (``bansugoroku_fast.oracle``),
the specification in code, for every rule combination.

What is compared, exactly (types included: a tuple is not a list, a numpy
integer is not an int):

* ``legal_plays``: the plays in order, each play's canonical steps, dice per
  step, hits per step and resulting position; every play is replayed step by
  step by the small independent replayer below (legal single moves, hits, the
  bar rule, bear-off rules) and must reach ``play.position``;
* ``legal_plays(..., all_orderings=True)``, ``legal_first_steps``, ``outcome``;
* the queries ``blocked_points``, ``blots``, ``closure_holds`` (both sides),
  ``pip_counts``, ``shots`` (on a smaller sample: the oracle's is slow),
  ``perft`` / ``perft_divide``;
* errors: both raise the same exception type on the same bad input.

Inputs: (a) random-playout items (``tests/playouts.py``), (b) edge positions
from hypothesis (``tests/strategies.py``, derandomized for CI) and (c) a bulk
run of >= 8,000 playout items per rule combination (250,000 with
``BANSUGOROKU_LONG=1``) comparing the resulting position sets of the batch
kernel with the oracle's (two worker processes).

Sizes: the defaults keep these files at about a minute on two cores, on
the rule sets of ``tests.boards.LANDING_RULES``; ``-m slow`` adds the
others and the slow bulk comparison (200,000 items per rule set), and
``BANSUGOROKU_LONG=1`` multiplies the sizes (a million items in the slow
bulk comparison; ``.ci/full`` runs ``-m slow`` at the default sizes).
"""
from __future__ import annotations

import multiprocessing
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bansugoroku_fast import oracle
from bansugoroku_fast.errors import InvalidPositionError
from bansugoroku_fast.play import Outcome, Play, Step
from bansugoroku_fast.position import Position
from bansugoroku_fast.rules import Rules

from . import playouts, strategies
from .boards import rules_params

moves = playouts.kernel_module("moves")

LONG = os.environ.get("BANSUGOROKU_LONG") == "1"
RULES = Rules.all_combinations()
RULE_PARAMS = rules_params(RULES)

#: Bulk comparison (batch kernel vs oracle: counts and resulting-position sets).
BULK_ITEMS = int(os.environ.get("BANSUGOROKU_BULK_ITEMS", 250_000 if LONG else 8_000))
BULK_EDGE_ITEMS = 100_000 if LONG else 3_000
SLOW_BULK_ITEMS = 1_000_000 if LONG else 200_000
#: Full-detail comparison of every function on single calls.
DETAIL_ITEMS = 20_000 if LONG else 300
SHOTS_ITEMS = 1_000 if LONG else 100
EXAMPLES = 2_000 if LONG else 200
SHOTS_EXAMPLES = 300 if LONG else 30
#: Worker processes of the bulk oracle run (the oracle is the slow side).
WORKERS = max(1, int(os.environ.get("BANSUGOROKU_WORKERS", min(2, os.cpu_count() or 1))))

BAR = 25


def kernel(name):
    """The kernel API function ``name``."""
    return getattr(moves, name)


# --- exact comparison ---------------------------------------------------------------


def call(function, *args, **kwargs):
    """``("ok", result)`` or ``("raised", exception type, message)``."""
    try:
        return ("ok", function(*args, **kwargs))
    except Exception as error:
        return ("raised", type(error), str(error))


def same(a, b) -> bool:
    """Equal values of the same types, recursively (tuple vs list, int vs
    numpy int and bool vs int all count as differences)."""
    if isinstance(a, Play) and isinstance(b, Play):
        # The kernel API may return a lazy subclass of Play; compare the values.
        return (
            same(a.steps, b.steps)
            and same(a.dice, b.dice)
            and same(a.hits, b.hits)
            and same(a.position, b.position)
        )
    if isinstance(a, moves.Plays) and type(b) is list:
        # The kernel's lazy sequence: its plays, read one by one, then as a
        # list, must be the oracle's list; its length is known before.
        return (len(a) == len(b) and same(list(a), b)
                and same([a[k] for k in range(len(a))], b) and a == b)
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):
            return False
        if a and isinstance(a[0], Play):
            return same_plays(a, b)
        return all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, Position):
        return a.key == b.key and a.array.dtype == b.array.dtype and a.array.shape == b.array.shape
    if isinstance(a, Outcome):
        return same(a.winner, b.winner) and same(a.value, b.value) and a.kind is b.kind
    return a == b


def same_plays(a, b) -> bool:
    """Two equally long lists of plays: values compared all through, types
    (tuples of ints and bools, a Position) checked in full on the first play
    and on the last (enough to catch a type that differs systematically)."""
    if not all(isinstance(play, Play) for play in b):
        return False
    if not (same(a[0], b[0]) and same(a[-1], b[-1])):
        return False
    return [(p.steps, p.dice, p.hits, p.position.key) for p in a] == [
        (p.steps, p.dice, p.hits, p.position.key) for p in b
    ]


def same_result(kernel_result, oracle_result) -> bool:
    if kernel_result[0] != oracle_result[0]:
        return False
    if kernel_result[0] == "raised":
        return kernel_result[1] is oracle_result[1]
    return same(kernel_result[1], oracle_result[1])


def describe(position, rules, roll=None) -> str:
    position = position if isinstance(position, Position) else Position(position)
    text = f"rules={rules.short_name} position={position.array.tolist()} id={position.id}"
    if roll is not None:
        text += f" dice={tuple(int(d) for d in roll)}"
    return text


def show(result) -> str:
    if result[0] == "raised":
        return f"raised {result[1].__name__}: {result[2]}"
    value = result[1]
    if isinstance(value, list) and value and isinstance(value[0], Play):
        return "[" + ", ".join(
            f"{p.steps} dice={p.dice} hits={p.hits} -> {p.position.array.tolist()}" for p in value
        ) + "]"
    return repr(value)


def assert_same(name, kernel_result, oracle_result, context):
    """``context``: text, or a callable giving it (built only on failure)."""
    if not same_result(kernel_result, oracle_result):
        text = context() if callable(context) else context
        raise AssertionError(
            f"{name} differs: {text}\n  kernel: {show(kernel_result)}\n  oracle: {show(oracle_result)}"
        )


# --- an independent replayer ------------------------------------------------------------


def replay(position: Position, play: Play, rules: Rules, roll) -> None:
    """Play ``play``'s steps one by one on ``position`` with the rules of
    docs/rules.md written a third time (small and separate from oracle and kernels),
    checking each single move and its hit flag, and that the end is
    ``play.position``."""
    mover, opponent = (list(row) for row in position.rows)
    a, b = roll
    assert len(play.steps) == len(play.dice) == len(play.hits) >= 1, play
    if a == b:
        assert all(d == a for d in play.dice) and len(play.dice) <= rules.doubles_moves, play
    else:
        assert len(play.dice) <= 2 and sorted(play.dice) in ([a], [b], sorted((a, b))), play
    for (origin, target), die, hit in zip(play.steps, play.dice, play.hits):
        assert 1 <= origin <= BAR and mover[origin] > 0, (play, origin)
        assert mover[BAR] == 0 or origin == BAR, f"{play}: a stone on the bar must enter first"
        landing = origin - die
        if landing >= 1:
            assert target == landing, play
            assert opponent[BAR - target] < 2, f"{play}: lands on a blocked point {target}"
            assert hit == (opponent[BAR - target] == 1), f"{play}: hit flag of {origin}/{target}"
        else:
            assert rules.bears_off, f"{play}: bears off under the arrival finish"
            assert target == 0 and not hit, play
            assert sum(mover[7:26]) == 0, f"{play}: bears off with stones outside home"
            if landing < 0:
                assert sum(mover[origin + 1 : 7]) == 0, f"{play}: overshoot from {origin} with higher stones"
        mover[origin] -= 1
        mover[target] += 1
        if hit:
            opponent[BAR - target] -= 1
            opponent[BAR] += 1
    assert (tuple(mover), tuple(opponent)) == play.position.rows, f"{play}: replay ends elsewhere"


def check_play_lists(position, roll, rules, kernel_plays, *, canonical: bool) -> None:
    """Structural checks on the kernel's plays beyond equality with the oracle."""
    positions = [play.position.key for play in kernel_plays]
    keys = [tuple(zip(play.steps, play.dice)) for play in kernel_plays]
    if canonical:
        assert len(set(positions)) == len(positions), "two plays reach the same position"
    assert len(set(keys)) == len(keys), "a step list is repeated"
    order = [tuple((o, t, d) for (o, t), d in zip(p.steps, p.dice)) for p in kernel_plays]
    assert order == sorted(order, reverse=True), "plays not sorted by step key, descending"
    if canonical:  # (each ordering equals the oracle's; one replay per position is enough)
        for play in kernel_plays:
            replay(position, play, rules, roll)


def with_context(function, context, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except AssertionError as error:
        raise AssertionError(f"{error}\n  at {context()}") from None


# --- everything about one (position, roll) ---------------------------------------------------


def compare_item(position, roll, rules, *, with_shots=False, form=0) -> None:
    """Every single-position function on one item, kernel against oracle."""
    position = Position(position)
    roll = (int(roll[0]), int(roll[1]))

    def context():
        return describe(position, rules, roll)

    # The kernel API takes the same argument forms as the oracle.
    arg = (position, position.array, position.tolist())[form % 3]
    rules_arg = rules if form % 2 == 0 else rules.short_name
    dice_arg = roll if form % 4 != 3 else f"{roll[0]}-{roll[1]}"

    k = call(kernel("legal_plays"), arg, dice_arg, rules_arg)
    o = call(oracle.legal_plays, position, roll, rules)
    assert_same("legal_plays", k, o, context)
    if k[0] == "ok":
        with_context(check_play_lists, context, position, roll, rules, k[1], canonical=True)
    # kernel-only: the length of the oracle's list
    count = call(moves.legal_play_count, arg, dice_arg, rules_arg)
    assert_same("legal_play_count", count, ("ok", len(o[1])) if o[0] == "ok" else o, context)

    k = call(kernel("legal_plays"), arg, dice_arg, rules_arg, all_orderings=True)
    o = call(oracle.legal_plays, position, roll, rules, all_orderings=True)
    assert_same("legal_plays(all_orderings=True)", k, o, context)
    if k[0] == "ok":
        with_context(check_play_lists, context, position, roll, rules, k[1], canonical=False)

    k = call(kernel("legal_first_steps"), arg, dice_arg, rules_arg)
    o = call(oracle.legal_first_steps, position, roll, rules)
    assert_same("legal_first_steps", k, o, context)
    if k[0] == "ok":
        assert all(type(s) is Step for s in k[1]), context()

    compare_position(position, rules, with_shots=with_shots, form=form)


def compare_position(position, rules, *, with_shots=False, form=0) -> None:
    """The roll-free functions on one position."""
    position = Position(position)

    def context():
        return describe(position, rules)

    arg = (position, position.array, position.tolist())[form % 3]
    assert_same("outcome", call(kernel("outcome"), arg, rules), call(oracle.outcome, position, rules), context)
    for name in ("blocked_points", "blots", "pip_counts"):
        k = call(kernel(name), arg)
        o = call(getattr(oracle, name), position)
        assert_same(name, k, o, context)
    for side in (0, 1):
        k = call(kernel("closure_holds"), arg, side)
        o = call(oracle.closure_holds, position, side)
        assert_same(f"closure_holds(side={side})", k, o, context)
    assert_same(
        "closure_holds(default side)", call(kernel("closure_holds"), arg), call(oracle.closure_holds, position), context
    )
    if with_shots:
        k = call(kernel("shots"), arg, rules)
        o = call(oracle.shots, position, rules)
        assert_same("shots", k, o, context)


# --- (a) random-playout items, every function ------------------------------------------------


@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_playout_items_every_function(rules):
    """Full detail on an evenly spread subset of the bulk corpus below."""
    positions, dice = playouts.playout_items(rules, BULK_ITEMS, seed=1)
    stride = max(1, len(positions) // DETAIL_ITEMS)
    shots_every = max(1, DETAIL_ITEMS // SHOTS_ITEMS)
    for count, index in enumerate(range(0, len(positions), stride)):
        compare_item(positions[index], dice[index], rules, form=index, with_shots=count % shots_every == 0)


@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_edge_positions_every_roll(rules):
    """Numpy-generated edge positions with all 21 distinct rolls (and one
    reversed non-double), single calls, full detail."""
    count = 600 if LONG else 20
    positions = strategies.edge_positions(rules, count, seed=5)
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)] + [(2, 5)]
    for index, position in enumerate(positions):
        for roll in rolls:
            compare_item(position, roll, rules, form=index)
        k = call(kernel("shots"), position, rules)
        assert_same("shots", k, call(oracle.shots, Position(position), rules), describe(position, rules))


# --- (b) hypothesis edge positions -------------------------------------------------------


HYPOTHESIS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("rules", RULE_PARAMS)
@HYPOTHESIS
@given(data=st.data())
def test_edge_positions_every_function(rules, data):
    kind, array = data.draw(strategies.positions_with_kind(rules), label="kind, position")
    event(f"kind={kind}")
    roll = data.draw(strategies.rolls(), label="roll")
    form = data.draw(st.integers(0, 11), label="argument form")
    compare_item(array, roll, rules, form=form)


@pytest.mark.parametrize("rules", RULE_PARAMS)
@settings(HYPOTHESIS, max_examples=SHOTS_EXAMPLES)
@given(data=st.data())
def test_edge_positions_shots(rules, data):
    _, array = data.draw(strategies.positions_with_kind(rules), label="kind, position")
    k = call(kernel("shots"), array, rules)
    o = call(oracle.shots, Position(array), rules)
    assert_same("shots", k, o, describe(array, rules))


# --- (c) bulk: >= 20,000 playout items per rule combination ------------------------------------

# The bulk run compares, per item, the batch kernel's children (as 52-byte
# keys) with the final boards of the oracle's legal sequences. The oracle side
# uses the oracle's own internals (``_outcome_of_board``, ``_legal_sequences``)
# without building Play objects, which is what ``legal_plays`` is made of; the
# detail tests above check ``legal_plays`` itself. Items are split between
# worker processes (fork), which read the arrays they inherit.

_BULK = {}


def _oracle_children(rows, roll, rules):
    board = [list(rows[0]), list(rows[1])]
    try:
        if oracle.moves._outcome_of_board(board, rules) is not None:
            return set()
    except InvalidPositionError:
        return None
    return {bytes(final[0] + final[1]) for _, _, final in oracle.moves._legal_sequences(board, roll, rules)}


def _bulk_chunk(bounds):
    """Compare items ``bounds[0]:bounds[1]`` of ``_BULK``; return mismatches."""
    rules, positions, dice, offsets, children = (
        _BULK[name] for name in ("rules", "positions", "dice", "offsets", "children")
    )
    mismatches = []
    for index in range(*bounds):
        rows = positions[index].tolist()
        roll = (int(dice[index, 0]), int(dice[index, 1]))
        expected = _oracle_children(rows, roll, rules)
        low, high = int(offsets[index]), int(offsets[index + 1])
        got = [children[j].tobytes() for j in range(low, high)]
        if expected is None or len(set(got)) != len(got) or set(got) != expected:
            mismatches.append((index, sorted(expected or ()), sorted(got)))
            if len(mismatches) >= 20:
                break
    return mismatches


#: Items per generate_plays call in the bulk run (bounds the memory held).
BULK_SLICE = 100_000


def bulk_compare(rules, positions, dice):
    """All items through ``batch.generate_plays`` and the oracle; the mismatches
    as ``(item index, oracle child keys, kernel child keys)``."""
    batch = playouts.kernel_module("batch")
    found = []
    for start in range(0, len(positions), BULK_SLICE):
        stop = min(start + BULK_SLICE, len(positions))
        found += [
            (index + start, *rest)
            for index, *rest in _bulk_slice(rules, batch, positions[start:stop], dice[start:stop])
        ]
        if len(found) >= 20:
            break
    return found


def _bulk_slice(rules, batch, positions, dice):
    result = batch.generate_plays(positions, dice, rules)
    offsets = np.asarray(result.offsets)
    children = np.asarray(result.children)
    assert offsets.shape == (len(positions) + 1,) and offsets[0] == 0
    assert children.shape == (offsets[-1], 2, 26) and children.dtype == np.int8
    _BULK.update(rules=rules, positions=positions, dice=dice, offsets=offsets, children=children)
    step = 2_000
    chunks = [(low, min(low + step, len(positions))) for low in range(0, len(positions), step)]
    try:
        if WORKERS > 1 and len(chunks) > 1:
            with multiprocessing.get_context("fork").Pool(WORKERS) as pool:
                found = pool.map(_bulk_chunk, chunks, chunksize=1)
        else:
            found = [_bulk_chunk(chunk) for chunk in chunks]
    finally:
        _BULK.clear()
    return [m for part in found for m in part]


def report_bulk(rules, positions, dice, mismatches):
    def rows(keys):
        return [np.frombuffer(k, np.int8).reshape(2, 26).tolist() for k in keys]

    lines = [f"{len(mismatches)} item(s) differ under {rules.short_name} (first 10; the list stops at 20 per worker):"]
    for entry in mismatches[:10]:
        index, expected, got = entry[:3]
        only_oracle = sorted(set(expected) - set(got))
        only_kernel = sorted(set(got) - set(expected))
        lines.append(f"  item {index}: {describe(positions[index], rules, dice[index])}")
        lines.append(f"    oracle {len(expected)} plays, kernel {len(got)} ({len(set(got))} distinct)" + (
            f", kernel count_plays {entry[3]}" if len(entry) > 3 else ""))
        lines.append(f"    only in the oracle's: {rows(only_oracle[:4])}")
        lines.append(f"    only in the kernel's: {rows(only_kernel[:4])}")
    return "\n".join(lines)


@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_bulk_playouts_against_oracle(rules):
    positions, dice = playouts.playout_items(rules, BULK_ITEMS, seed=1)
    assert len(positions) >= BULK_ITEMS
    mismatches = bulk_compare(rules, positions, dice)
    assert not mismatches, report_bulk(rules, positions, dice, mismatches)


@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_bulk_edge_positions_against_oracle(rules):
    positions = strategies.edge_positions(rules, BULK_EDGE_ITEMS, seed=3)
    dice = np.random.default_rng([3, rules.code]).integers(1, 7, size=(len(positions), 2), dtype=np.int8)
    mismatches = bulk_compare(rules, positions, dice)
    assert not mismatches, report_bulk(rules, positions, dice, mismatches)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_bulk_many_items(rules):
    """Opt-in (``-m slow``): 200,000 playout items per rule combination (a
    million with ``BANSUGOROKU_LONG=1``)."""
    positions, dice = playouts.playout_items(rules, SLOW_BULK_ITEMS, seed=7)
    mismatches = bulk_compare(rules, positions, dice)
    assert not mismatches, report_bulk(rules, positions, dice, mismatches)


# --- perft ------------------------------------------------------------------------------

# Known answers. They are legitimate here because each was computed by two
# independent implementations that agree: the pure-Python oracle and the
# Cython kernels. Backgammon: the public figures 447 and 202,782 (depth 1, 2
# from the start). Ban-sugoroku (doubles move twice; the start is too far from
# any finish for the rule options to matter at these depths): 246 and 63,722,
# computed with the oracle and confirmed by the kernels.
PERFT = {
    "backgammon": (447, 202_782),
    **{rules.short_name: (246, 63_722) for rules in RULES if not rules.is_backgammon},
}


@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_perft_from_the_start(rules):
    start = Position.initial()
    depth1, depth2 = PERFT[rules.short_name]
    assert kernel("perft")(start, 1, rules) == depth1
    assert kernel("perft")(start, 2, rules) == depth2
    assert oracle.perft(start, 1, rules) == depth1
    k = call(kernel("perft_divide"), start, 1, rules)
    assert_same("perft_divide depth 1", k, call(oracle.perft_divide, start, 1, rules), describe(start, rules))


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_perft_depth2_oracle(rules):
    """The oracle's depth-2 figure (seconds per combination)."""
    assert oracle.perft(Position.initial(), 2, rules) == PERFT[rules.short_name][1]


@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_perft_divide_from_edge_positions(rules):
    positions = strategies.edge_positions(rules, 60 if LONG else 12, seed=9)
    for position in positions:
        k = call(kernel("perft_divide"), position, 1, rules)
        o = call(oracle.perft_divide, Position(position), 1, rules)
        assert_same("perft_divide depth 1", k, o, describe(position, rules))
        for depth in (0, 1):
            k = call(kernel("perft"), position, depth, rules)
            o = call(oracle.perft, Position(position), depth, rules)
            assert_same(f"perft depth {depth}", k, o, describe(position, rules))


# --- errors -------------------------------------------------------------------------------


START = Position.initial().tolist()


def _changed(row, **moves):
    """A copy of START with ``row``'s counts changed: ``p6=-1`` removes a stone from index 6."""
    rows = [list(START[0]), list(START[1])]
    for place, delta in moves.items():
        rows[row][int(place[1:])] += delta
    return rows


BAD_POSITIONS = {
    "row sum 14": _changed(0, p6=-1),
    "row sum 16": _changed(0, p6=+1),
    "negative count": _changed(0, p1=-1, p6=+1),
    "shared point": _changed(1, p13=-1, p19=+1),  # row 1's point 19 is the mover's 6
    "wrong shape": [START[0]],
    "three rows": [START[0], START[1], START[1]],
    "ragged": [START[0], START[1][:-1]],
    "floats": np.array(START, dtype=float) + 0.5,
    "bools": np.ones((2, 26), dtype=bool),
    "huge values": np.array(START, dtype=np.int64) * 1000,
    "bad id": "not-an-id!!!!!",
    "short id": "4HPwATDgc/AB",
    "None": None,
}


BAD_DICE = [(0, 1), (7, 2), (1,), (1, 2, 3), "x-y", None, (1.5, 2), (True, 2), 65, "7-1"]
BAD_RULES = ["chess", 42, "ban/sprint"]


@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_errors_match(rules):
    """Both sides raise the same exception type on the same bad input (and
    accept the same unusual-but-valid spellings alike)."""
    start = Position.initial()
    roll = (3, 1)
    cases = []  # (label, kernel call, oracle call)
    for label, bad in BAD_POSITIONS.items():
        for name, extra in (
            ("legal_plays", (roll, rules)),
            ("legal_first_steps", (roll, rules)),
            ("outcome", (rules,)),
            ("shots", (rules,)),
            ("blocked_points", ()),
            ("blots", ()),
            ("closure_holds", ()),
            ("pip_counts", ()),
            ("perft", (1, rules)),
        ):
            cases.append((f"{name}({label})", name, (bad, *extra), {}))
    for bad in BAD_DICE + [(np.int64(3), np.int8(1)), [3, 1], "31", " 3 , 1 "]:
        for name in ("legal_plays", "legal_first_steps"):
            cases.append((f"{name}(dice={bad!r})", name, (start, bad, rules), {}))
    for bad in BAD_RULES:
        for name, args in (
            ("legal_plays", (start, roll, bad)),
            ("legal_first_steps", (start, roll, bad)),
            ("outcome", (start, bad)),
            ("shots", (start, bad)),
            ("perft", (start, 1, bad)),
            ("perft_divide", (start, 1, bad)),
        ):
            cases.append((f"{name}(rules={bad!r})", name, args, {}))
    for name, depth in (("perft", -1), ("perft", 1.5), ("perft", True), ("perft", "1"),
                        ("perft_divide", 0), ("perft_divide", -2), ("perft_divide", 2.0)):
        cases.append((f"{name}(depth={depth!r})", name, (start, depth, rules), {}))
    for side in (2, -1, "0", None):
        cases.append((f"closure_holds(side={side!r})", "closure_holds", (start, side), {}))
    # Rule-dependent invalid positions.
    off = _changed(0, p6=-1, p0=+1)
    both_won = strategies.both_won_rows(rules)
    for label, position in (("one stone borne off", off), ("both sides have won", both_won)):
        for name, extra in (
            ("legal_plays", (roll, rules)),
            ("legal_first_steps", (roll, rules)),
            ("outcome", (rules,)),
            ("shots", (rules,)),
            ("perft", (1, rules)),
            ("perft_divide", (1, rules)),
        ):
            cases.append((f"{name}({label})", name, (position, *extra), {}))
    # Bad input in two arguments at once: the same check must fire first.
    bad = BAD_POSITIONS["row sum 14"]
    cases.append(("legal_plays(bad dice, bad position)", "legal_plays", (bad, (0, 0), rules), {}))
    cases.append(("legal_plays(bad position, bad rules)", "legal_plays", (bad, roll, "chess"), {}))
    every_order = {"all_orderings": True}
    cases.append(("legal_plays(all_orderings, bad dice)", "legal_plays", (start, (9, 9), rules), every_order))

    failures = []
    for label, name, args, kwargs in cases:
        k = call(kernel(name), *args, **kwargs)
        o = call(getattr(oracle, name), *args, **kwargs)
        if not same_result(k, o):
            failures.append(f"{label}: kernel {show(k)} / oracle {show(o)}")
    assert not failures, f"{len(failures)} of {len(cases)} cases differ:\n" + "\n".join(failures)


@pytest.mark.skipif(playouts.KERNEL_PACKAGE != "bansugoroku_fast", reason="stand-in kernel package")
def test_package_level_functions_are_the_kernel_ones():
    """What this file tests is what users call."""
    import bansugoroku_fast

    for name in ("legal_plays", "legal_first_steps", "outcome", "shots", "blocked_points", "blots",
                 "closure_holds", "pip_counts", "perft", "perft_divide"):
        assert getattr(bansugoroku_fast, name) is getattr(moves, name), name


def test_harness_replayer_rejects_a_wrong_play():
    """The replayer used above is not vacuous."""
    rules = Rules(variant="backgammon")
    start = Position.initial()
    play = oracle.legal_plays(start, (6, 5), rules)[0]
    replay(start, play, rules, (6, 5))
    wrong = Play(play.steps, play.dice, (True,) + play.hits[1:], play.position)
    with pytest.raises(AssertionError):
        replay(start, wrong, rules, (6, 5))
    wrong = Play(((24, 19), (19, 13)), (5, 6), play.hits, play.position)
    with pytest.raises(AssertionError):
        replay(start, wrong, rules, (6, 5))
