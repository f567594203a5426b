"""Dask: bulk analysis of dask arrays of positions, on a real LocalCluster."""
from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("dask.distributed")

from bansugoroku_fast import InvalidDiceError, InvalidPositionError, Rules, batch, count_plays  # noqa: E402
from bansugoroku_fast import distributed as bulk  # noqa: E402
from tests.playouts import playout_items  # noqa: E402

BACKGAMMON = Rules(variant="backgammon")
CHUNK = 700


@pytest.fixture(scope="module")
def client():
    """One LocalCluster of two worker processes (one thread each) for the module."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="module", params=[Rules(), BACKGAMMON, Rules(finish="bear_off", closure="immediate")],
                ids=str)
def corpus(request):
    rules = request.param
    positions, dice = playout_items(rules, 3_000, seed=12)
    return rules, positions, dice


def test_queries_on_the_cluster_equal_the_batch_api(client, corpus):
    rules, positions, dice = corpus
    lazy = da.from_array(positions, chunks=(CHUNK, 2, 26))
    lazy_dice = da.from_array(dice, chunks=(CHUNK * 2, 2))  # chunked unlike the positions
    found = bulk.outcome(lazy, rules)
    results = client.compute([
        bulk.count_plays(lazy, lazy_dice, rules), bulk.count_plays(lazy, (6, 6), rules),
        bulk.shots(lazy, rules), bulk.pip_counts(lazy), bulk.blocked_points(lazy), bulk.blots(lazy),
        bulk.closure_holds(lazy), found.winner, found.value, found.kind,
    ], sync=True)
    expected_outcome = batch.outcome(positions, rules)
    expected = [
        count_plays(positions, dice, rules), count_plays(positions, (6, 6), rules),
        batch.shots(positions, rules), batch.pip_counts(positions), batch.blocked_points(positions),
        batch.blots(positions), batch.closure_holds(positions), *expected_outcome,
    ]
    for got, want in zip(results, expected):
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_queries_are_lazy_and_keep_the_chunks():
    positions, _ = playout_items(Rules(), 1_000, seed=1)
    lazy = da.from_array(positions, chunks=(300, 2, 26))
    counts = bulk.count_plays(lazy, (3, 1), Rules())
    assert isinstance(counts, da.Array) and counts.chunks == ((300, 300, 300, 100),)
    assert bulk.blots(lazy).chunks == ((300, 300, 300, 100), (2,), (25,))
    # Two calls with different rules are two computations, not one cached key.
    other = bulk.count_plays(lazy, (3, 1), BACKGAMMON)
    assert counts.name != other.name


def test_a_bad_position_is_named_by_its_index_in_the_whole_array():
    positions, _ = playout_items(Rules(), 1_000, seed=2)
    positions = positions.copy()
    positions[612, 0, 6] += 1  # 16 stones in row 0 of item 612 (chunk 2, item 12)
    lazy = da.from_array(positions, chunks=(300, 2, 26))
    counts = bulk.count_plays(lazy, (6, 5), Rules())  # building the graph checks nothing yet
    with pytest.raises(InvalidPositionError, match=r"^position 612: row 0 \(side to move\) holds 16 stones"):
        counts.compute(scheduler="sync")


@pytest.mark.parametrize("positions, message", [
    (np.zeros((3, 26), dtype=np.int8), r"shape \(N, 2, 26\), got \(3, 26\)"),
    (np.zeros((3, 2, 26), dtype=np.float32), "must hold integers"),
])
def test_bad_position_arrays_are_refused_at_once(positions, message):
    with pytest.raises(InvalidPositionError, match=message):
        bulk.pip_counts(positions)


def test_bad_dice_are_refused():
    positions = da.zeros((4, 2, 26), dtype=np.int8, chunks=(2, 2, 26))
    with pytest.raises(InvalidDiceError, match=r"one pair or shape \(4, 2\), got \(3, 2\)"):
        bulk.count_plays(positions, np.ones((3, 2), dtype=np.int8))
    with pytest.raises(InvalidDiceError, match=r"two integers in 1\.\.6"):
        bulk.count_plays(positions, (0, 7))


def test_rollouts_over_consecutive_game_ranges_add_up():
    # Games 0..71 are games 0..35 and 36..71: the tallies of the two ranges add up.
    from bansugoroku_fast import Position, rollout

    whole = rollout(Position.initial(), "backgammon", games=72, policy="random", seed=3, stratify=36)
    head = rollout(Position.initial(), "backgammon", games=36, policy="random", seed=3, stratify=36)
    tail = rollout(Position.initial(), "backgammon", games=36, policy="random", seed=3, stratify=36,
                   first_game=36)
    assert (whole.counts == head.counts + tail.counts).all()
    assert (whole.kind_counts == head.kind_counts + tail.kind_counts).all()
    assert round(whole.mean_plies * 72) == round(head.mean_plies * 36) + round(tail.mean_plies * 36)
    with pytest.raises(ValueError, match="first_game must be a non-negative integer, got -1"):
        rollout(Position.initial(), "backgammon", games=36, first_game=-1)
