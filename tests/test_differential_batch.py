"""The batch API (``bansugoroku_fast.batch``) against the single-position kernel
API (``bansugoroku_fast.moves``), which ``test_differential.py`` holds to the oracle.

* ``count_plays`` == ``len(legal_plays)`` (and ``moves.legal_play_count``);
* ``generate_plays``: per item the children, steps, dice and hits of the
  single call's plays, in the same order, padded with -1 / False;
* ``iter_plays`` chunks concatenate to ``generate_plays``;
* ``generate_plays(fields=...)``, ``out=`` buffers and ``iter_plays(reuse=True,
  fields=...)`` write exactly what the full call writes, in those fields;
* ``threads=1`` and ``threads=2`` give identical arrays;
* the vectorised queries (``outcome``, ``blocked_points``, ``blots``,
  ``closure_holds``, ``pip_counts``, ``shots``) == the single queries;
* a bad item raises the exception type the single call raises on it.

Items: random-playout items and numpy edge positions (game-over ones included).
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from bansugoroku_fast.errors import InvalidArgumentError, InvalidDiceError, InvalidPositionError
from bansugoroku_fast.position import Position
from bansugoroku_fast.rules import Rules

from . import playouts, strategies
from .boards import rules_params

moves = playouts.kernel_module("moves")
batch = playouts.kernel_module("batch")

LONG = os.environ.get("BANSUGOROKU_LONG") == "1"
RULES = Rules.all_combinations()
RULE_PARAMS = rules_params(RULES)
PLAYOUT_ITEMS = 200_000 if LONG else 6_000
EDGE_ITEMS = 50_000 if LONG else 2_000
SHOTS_ITEMS = 20_000 if LONG else 1_500


@pytest.fixture(scope="module", params=RULE_PARAMS)
def corpus(request):
    """``(rules, positions, dice)``: playout items then edge positions (random rolls)."""
    rules = request.param
    positions, dice = playouts.playout_items(rules, PLAYOUT_ITEMS, seed=2)
    edge = strategies.edge_positions(rules, EDGE_ITEMS, seed=4)
    edge_dice = np.random.default_rng([4, rules.code]).integers(1, 7, size=(EDGE_ITEMS, 2), dtype=np.int8)
    return rules, np.concatenate([positions, edge]), np.concatenate([dice, edge_dice])


def roll_of(dice_row):
    return int(dice_row[0]), int(dice_row[1])


def context(rules, positions, dice, index):
    return f"item {index}: rules={rules.short_name} position={positions[index].tolist()} dice={roll_of(dice[index])}"


# --- plays -------------------------------------------------------------------------------


def test_count_plays_equals_single_calls(corpus):
    rules, positions, dice = corpus
    counts = batch.count_plays(positions, dice, rules)
    assert counts.dtype == np.int32 and counts.shape == (len(positions),)
    bad = []
    for index in range(len(positions)):
        expected = len(moves.legal_plays(positions[index], roll_of(dice[index]), rules))
        single = moves.legal_play_count(positions[index], roll_of(dice[index]), rules)
        if counts[index] != expected or single != expected:
            bad.append(f"{context(rules, positions, dice, index)}: batch {counts[index]}, single {expected}")
    assert not bad, f"{len(bad)} counts differ:\n" + "\n".join(bad[:10])


def expected_rows(plays):
    """The batch rows the single call's plays should give (padded)."""
    count = len(plays)
    children = np.empty((count, 2, 26), dtype=np.int8)
    steps = np.full((count, 4, 2), -1, dtype=np.int8)
    dice = np.full((count, 4), -1, dtype=np.int8)
    hits = np.zeros((count, 4), dtype=np.bool_)
    for row, play in enumerate(plays):
        children[row] = play.position.array
        used = len(play.steps)
        steps[row, :used] = play.steps
        dice[row, :used] = play.dice
        hits[row, :used] = play.hits
    return children, steps, dice, hits


def check_generated(rules, positions, dice, result):
    assert result.offsets.dtype == np.int64 and result.offsets.shape == (len(positions) + 1,)
    assert result.offsets[0] == 0 and (np.diff(result.offsets) >= 0).all()
    total = int(result.offsets[-1])
    assert result.children.dtype == np.int8 and result.children.shape == (total, 2, 26)
    assert result.steps.dtype == np.int8 and result.steps.shape == (total, 4, 2)
    assert result.dice.dtype == np.int8 and result.dice.shape == (total, 4)
    assert result.hits.dtype == np.bool_ and result.hits.shape == (total, 4)
    bad = []
    for index in range(len(positions)):
        low, high = result.offsets[index], result.offsets[index + 1]
        plays = moves.legal_plays(positions[index], roll_of(dice[index]), rules)
        want = expected_rows(plays)
        got = (result.children[low:high], result.steps[low:high], result.dice[low:high], result.hits[low:high])
        for name, w, g in zip(("children", "steps", "dice", "hits"), want, got):
            if w.shape != g.shape or not np.array_equal(w, g):
                if name == "children" and w.shape == g.shape and {r.tobytes() for r in w} == {r.tobytes() for r in g}:
                    name = "children (same set, other order)"
                bad.append(f"{context(rules, positions, dice, index)}: {name} differ\n"
                           f"    single: {w.tolist()}\n    batch:  {g.tolist()}")
                break
        if len(bad) >= 10:
            break
    assert not bad, "generate_plays differs from legal_plays:\n" + "\n".join(bad)


def test_generate_plays_equals_single_calls(corpus):
    rules, positions, dice = corpus
    result = batch.generate_plays(positions, dice, rules)
    check_generated(rules, positions, dice, result)


def assert_batches_equal(a, b, what):
    for name in ("offsets", "children", "steps", "dice", "hits"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), f"{what}: {name} differ"


@pytest.mark.parametrize("chunk_size, reuse", [(1, False), (7, False), (1000, False), (1000, True), (None, True)])
def test_iter_plays_concatenates_to_generate_plays(corpus, chunk_size, reuse):
    rules, positions, dice = corpus
    # Small chunks: a slice is plenty (and each chunk is one kernel call).
    limit = {1: 400, 7: 3000}.get(chunk_size, len(positions))
    positions, dice = positions[:limit], dice[:limit]
    whole = batch.generate_plays(positions, dice, rules)
    options = {"reuse": True} if reuse else {}
    if chunk_size is not None:
        options["chunk_size"] = chunk_size
    else:
        chunk_size = batch.CHUNK_SIZE
    starts, parts = [], []
    for start, part in batch.iter_plays(positions, dice, rules, **options):
        starts.append(start)
        # With reuse=True a chunk is valid only until the next: keep copies.
        parts.append(type(part)(*(np.array(field, copy=True) for field in part)))
    assert starts == list(range(0, len(positions), chunk_size))
    offsets = [np.zeros(1, dtype=np.int64)]
    base = 0
    for part in parts:
        assert part.offsets[0] == 0
        offsets.append(part.offsets[1:] + base)
        base += int(part.offsets[-1])
    joined = type(whole)(
        np.concatenate(offsets),
        np.concatenate([p.children for p in parts]),
        np.concatenate([p.steps for p in parts]),
        np.concatenate([p.dice for p in parts]),
        np.concatenate([p.hits for p in parts]),
    )
    assert_batches_equal(joined, whole, f"iter_plays(chunk_size={chunk_size})")


FIELD_CHOICES = [("children",), ("children", "hits"), ("children", "steps", "dice")]


@pytest.mark.parametrize("fields", FIELD_CHOICES, ids=lambda fields: "+".join(fields))
def test_chosen_fields_equal_the_full_result(corpus, fields):
    rules, positions, dice = corpus
    whole = batch.generate_plays(positions, dice, rules)
    chosen = batch.generate_plays(positions, dice, rules, fields=fields, threads=2)
    for name in ("offsets", *batch.FIELDS):
        got = getattr(chosen, name)
        if name in fields or name == "offsets":
            assert np.array_equal(got, getattr(whole, name)), f"fields={fields}: {name} differ"
        else:
            assert got is None, f"fields={fields}: {name} written"


def test_out_buffers_hold_the_full_result(corpus):
    rules, positions, dice = corpus
    whole = batch.generate_plays(positions, dice, rules)
    # Larger than needed and filled with garbage: only the rows written count.
    buffers = batch.play_buffers(len(positions) + 3, len(whole.children) + 10)
    for array in buffers:
        array.view(np.uint8)[...] = 0x7F
    into = batch.generate_plays(positions, dice, rules, out=buffers)
    assert_batches_equal(into, whole, "generate_plays(out=...)")
    assert np.shares_memory(into.children, buffers.children)
    # The same buffers again, children only: the rows written are the same.
    again = batch.generate_plays(positions, dice, rules, out=buffers, fields=("children",))
    assert np.array_equal(again.children, whole.children) and again.hits is None


@pytest.mark.parametrize("fields", [batch.FIELDS, ("children",), ("children", "hits")])
def test_play_buffers_are_separate_arrays_of_their_shapes(fields):
    # One allocation behind the fields: each must still be its own rows.
    buffers = batch.play_buffers(5, 37, fields=fields)
    arrays = {name: getattr(buffers, name) for name in fields}
    for name, array in arrays.items():
        assert array.shape[0] == 37 and array.flags.c_contiguous and array.flags.writeable, name
    assert arrays["children"].shape == (37, 2, 26) and arrays["children"].dtype == np.int8
    for name, array in arrays.items():
        for other_name, other in arrays.items():
            if other_name != name:
                assert not np.shares_memory(array, other), (name, other_name)
    for value, array in enumerate(arrays.values(), start=1):
        array.view(np.uint8)[...] = value
    for value, (name, array) in enumerate(arrays.items(), start=1):
        assert (array.view(np.uint8) == value).all(), f"{name} was overwritten by another field"
    assert buffers.offsets.shape == (6,)


def test_streamed_chosen_fields_equal_the_full_result(corpus):
    rules, positions, dice = corpus
    whole = batch.generate_plays(positions, dice, rules)
    children = [np.array(part.children) for _, part in batch.iter_plays(
        positions, dice, rules, chunk_size=997, reuse=True, fields=("children",))]
    assert np.array_equal(np.concatenate(children), whole.children)


def test_out_buffers_too_small_are_refused_before_writing():
    start = np.stack([Position.initial().array] * 2)
    small = batch.play_buffers(2, 13)  # 6-5 and 1-1 give 7 + 42 plays (README)
    small.children[...] = 0
    with pytest.raises(ValueError, match="room for 13 rows, 49 are needed"):
        batch.generate_plays(start, [[6, 5], [1, 1]], "backgammon", out=small)
    assert not small.children.any()


@pytest.mark.parametrize("fields", [("steps",), "children", ("children", "moves"), ()])
def test_bad_fields_are_refused(fields):
    start = Position.initial().array[None]
    with pytest.raises(ValueError, match="fields"):
        batch.generate_plays(start, [[6, 5]], "backgammon", fields=fields)


@pytest.mark.parametrize(("items", "plays"), [(-1, 5), (1.5, 5), (2, -3), (True, 5)])
def test_bad_buffer_sizes_are_refused(items, plays):
    # A negative size once gave buffers of garbage shape, and a float numpy's TypeError.
    with pytest.raises(InvalidArgumentError, match="must be an integer >= 0"):
        batch.play_buffers(items, plays)


def test_thread_counts_give_identical_results(corpus):
    rules, positions, dice = corpus
    one = batch.generate_plays(positions, dice, rules, threads=1)
    two = batch.generate_plays(positions, dice, rules, threads=2)
    assert_batches_equal(one, two, "generate_plays threads=1 vs 2")
    default = batch.generate_plays(positions, dice, rules)
    assert_batches_equal(one, default, "generate_plays threads=1 vs default")
    c1 = batch.count_plays(positions, dice, rules, threads=1)
    c2 = batch.count_plays(positions, dice, rules, threads=2)
    assert np.array_equal(c1, c2) and np.array_equal(c1, np.diff(one.offsets))
    sample = positions[:SHOTS_ITEMS]
    s1 = batch.shots(sample, rules, threads=1)
    s2 = batch.shots(sample, rules, threads=2)
    assert s1.dtype == s2.dtype and np.array_equal(s1, s2)


def test_input_forms_give_identical_results(corpus):
    """int64 / non-contiguous / list input gives what the int8 C array gives."""
    rules, positions, dice = corpus
    positions, dice = positions[:2000], dice[:2000]
    base = batch.generate_plays(positions, dice, rules)
    wide = batch.generate_plays(positions.astype(np.int64), dice.astype(np.int32), rules)
    assert_batches_equal(base, wide, "int64 input")
    strided = np.repeat(positions, 2, axis=0)[::2]
    assert not strided.flags.c_contiguous
    assert_batches_equal(base, batch.generate_plays(strided, dice, rules), "non-contiguous input")
    small = batch.generate_plays(positions[:50].tolist(), dice[:50].tolist(), rules.short_name)
    assert_batches_equal(batch.generate_plays(positions[:50], dice[:50], rules), small, "list input")
    one_roll = batch.generate_plays(positions, dice[0], rules)  # one pair for every item
    same_roll = np.repeat(dice[:1], len(positions), axis=0)
    assert_batches_equal(one_roll, batch.generate_plays(positions, same_roll, rules), "one roll for all")
    empty = batch.generate_plays(positions[:0], dice[:0], rules)
    assert empty.offsets.tolist() == [0] and empty.children.shape == (0, 2, 26)
    assert batch.count_plays(positions[:0], dice[:0], rules).shape == (0,)


# --- vectorised queries -----------------------------------------------------------------------


def test_outcome_equals_single_calls(corpus):
    rules, positions, _ = corpus
    result = batch.outcome(positions, rules)
    kinds = result.kinds()
    bad = []
    for index in range(len(positions)):
        single = moves.outcome(positions[index], rules)
        if single is None:
            got = (int(result.winner[index]), int(result.value[index]), kinds[index])
            ok = got == (-1, 0, None)
        else:
            got = (int(result.winner[index]), int(result.value[index]), kinds[index])
            ok = got == (single.winner, single.value, single.kind)
        if not ok:
            bad.append(f"item {index} {positions[index].tolist()}: batch {got}, single {single}")
    assert not bad, "\n".join(bad[:10])
    assert (result.winner >= 0).any(), "the corpus should hold finished games"


def test_queries_equal_single_calls(corpus):
    _, positions, _ = corpus
    blocked = batch.blocked_points(positions)
    blot_mask = batch.blots(positions)
    closure = batch.closure_holds(positions)
    pips = batch.pip_counts(positions)
    assert blocked.shape == (len(positions), 25) and blocked.dtype == np.bool_
    assert blot_mask.shape == (len(positions), 2, 25) and blot_mask.dtype == np.bool_
    assert closure.shape == (len(positions), 2) and closure.dtype == np.bool_
    assert pips.shape == (len(positions), 2)
    for index in range(len(positions)):
        position = positions[index]
        where = f"item {index}: {position.tolist()}"
        assert tuple(np.flatnonzero(blocked[index]).tolist()) == moves.blocked_points(position), where
        mover, opponent = moves.blots(position)
        assert tuple(np.flatnonzero(blot_mask[index, 0]).tolist()) == mover, where
        assert tuple(np.flatnonzero(blot_mask[index, 1]).tolist()) == opponent, where
        assert (bool(closure[index, 0]), bool(closure[index, 1])) == (
            moves.closure_holds(position, 0),
            moves.closure_holds(position, 1),
        ), where
        assert tuple(pips[index].tolist()) == moves.pip_counts(position), where
    assert closure.any(), "the corpus should hold closed homes"


def test_shots_equal_single_calls(corpus):
    rules, positions, _ = corpus
    # Playout items first, then edge positions: sample both.
    sample = np.concatenate([positions[: SHOTS_ITEMS // 2], positions[-SHOTS_ITEMS // 2 :]])
    result = batch.shots(sample, rules)
    assert result.shape == (len(sample),)
    single = [moves.shots(position, rules) for position in sample]
    bad = [i for i in range(len(sample)) if int(result[i]) != single[i]]
    assert not bad, [(sample[i].tolist(), int(result[i]), single[i]) for i in bad[:10]]


# --- errors ---------------------------------------------------------------------------------


def single_error(function, *args):
    try:
        function(*args)
    except Exception as error:
        return type(error)
    return None


@pytest.mark.parametrize("rules", RULE_PARAMS)
def test_bad_items_raise_like_single_calls(rules):
    good = strategies.edge_positions(rules, 20, seed=8)
    dice = np.full((20, 2), 3, dtype=np.int8)
    bad_positions = {
        "row sum": [[0] * 26, Position.initial().tolist()[1]],
        "shared point": Position.initial().tolist(),
        "borne off": Position.initial().tolist(),
        "both won": strategies.both_won_rows(rules),
    }
    bad_positions["shared point"][1][13] -= 1
    bad_positions["shared point"][1][19] += 1
    bad_positions["borne off"][0][6] -= 1
    bad_positions["borne off"][0][0] += 1
    for label, position in bad_positions.items():
        expected = single_error(moves.legal_plays, position, (3, 3), rules)
        array = np.array(good)
        array[11] = position
        for name, call in (
            ("count_plays", lambda items: batch.count_plays(items, dice, rules)),
            ("generate_plays", lambda items: batch.generate_plays(items, dice, rules)),
            ("iter_plays", lambda items: list(batch.iter_plays(items, dice, rules, chunk_size=5))),
            ("shots", lambda items: batch.shots(items, rules)),
            ("outcome", lambda items: batch.outcome(items, rules)),
        ):
            got = single_error(call, array)
            assert got is expected, f"{name} with a '{label}' item raised {got}, the single call {expected}"
    for bad_roll in ([0, 3], [7, 1], [3], [1.5, 2]):
        expected = single_error(moves.legal_plays, good[0], tuple(bad_roll), rules)
        trial = dice.tolist()
        trial[0] = bad_roll
        for name in ("count_plays", "generate_plays"):
            got = single_error(getattr(batch, name), good, trial, rules)
            assert got is expected, f"{name} with dice {bad_roll}: batch raised {got}, the single call {expected}"
    assert single_error(batch.count_plays, good, dice[:5], rules) is InvalidDiceError
    assert single_error(batch.count_plays, good[0], dice[:1], rules) is InvalidPositionError


# --- regressions ---------------------------------------------------------------------------

#: Items that once broke a kernel build (kept: cheap, and they hit odd paths).
REGRESSIONS = [
    # An intermediate build corrupted the heap in generate_plays on this
    # backgammon item ("munmap_chunk(): invalid pointer"); 23 plays.
    ("backgammon", [[0, 0, 0, 5, 0, 2, 1, 0, 1, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0],
                    [0, 0, 2, 0, 0, 0, 5, 0, 1, 1, 0, 0, 0, 4, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0]], (4, 6)),
]


@pytest.mark.parametrize("label, position, roll", REGRESSIONS)
def test_regression_items(label, position, roll):
    from bansugoroku_fast import oracle

    rules = Rules.parse(label)
    expected = oracle.legal_plays(position, roll, rules)
    positions = np.array([position] * 64, dtype=np.int8)
    dice = np.array([roll] * 64, dtype=np.int8)
    for threads in (1, 2):
        result = batch.generate_plays(positions, dice, rules, threads=threads)
        assert np.diff(result.offsets).tolist() == [len(expected)] * 64
        want = np.array([play.position.array for play in expected])
        for index in range(64):
            low, high = result.offsets[index], result.offsets[index + 1]
            assert np.array_equal(result.children[low:high], want)
