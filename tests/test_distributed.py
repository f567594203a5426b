"""Dask: bulk analysis of dask arrays of positions, on a real LocalCluster."""
from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("dask.distributed")

from dask.utils import key_split  # noqa: E402

from bansugoroku_fast import Position, Rules, batch, count_plays, rollout  # noqa: E402
from bansugoroku_fast import distributed as bulk  # noqa: E402
from bansugoroku_fast.errors import InvalidDiceError, InvalidPositionError  # noqa: E402
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
    whole = rollout(Position.initial(), "backgammon", games=72, policy="random", seed=3, stratify=36)
    head = rollout(Position.initial(), "backgammon", games=36, policy="random", seed=3, stratify=36)
    tail = rollout(Position.initial(), "backgammon", games=36, policy="random", seed=3, stratify=36,
                   first_game=36)
    assert (whole.counts == head.counts + tail.counts).all()
    assert (whole.kind_counts == head.kind_counts + tail.kind_counts).all()
    assert round(whole.mean_plies * 72) == round(head.mean_plies * 36) + round(tail.mean_plies * 36)
    with pytest.raises(ValueError, match="first_game must be a non-negative integer, got -1"):
        rollout(Position.initial(), "backgammon", games=36, first_game=-1)


# --- rollouts ------------------------------------------------------------------------


def assert_same_result(got, want) -> None:
    """Every figure equal, bit for bit."""
    for name in ("counts", "kind_counts", "games", "equity", "stderr", "win_probability", "win_stderr",
                 "mean_plies"):
        assert np.array_equal(getattr(got, name), getattr(want, name), equal_nan=True), name
    assert (got.gnubg is None) == (want.gnubg is None)
    for key in want.gnubg or {}:
        assert np.array_equal(got.gnubg[key], want.gnubg[key], equal_nan=True), key
        assert np.array_equal(got.gnubg_stderr[key], want.gnubg_stderr[key], equal_nan=True), key


@pytest.mark.parametrize("rules, policy, stratify", [
    (Rules(), "random", None),
    (BACKGAMMON, ("heuristic", "random"), 36),
    (Rules(finish="bear_off", closure="immediate"), "first", None),
], ids=["ban-random", "backgammon-pair-stratified", "ban-bear-off-first"])
def test_rollout_on_the_cluster_is_bit_identical_to_the_local_one(client, rules, policy, stratify):
    starts = playout_items(rules, 40, seed=8)[0][:3]
    local = rollout(starts, rules, games=144, policy=policy, seed=9, stratify=stratify)
    remote = bulk.rollout(starts, rules, 144, policy, 9, client=client, block=36, stratify=stratify)
    assert_same_result(remote, local)


def test_rollout_of_one_position_and_of_many_chunks(client):
    # 70 positions: two chunks of POSITIONS_PER_TASK (64) and 6.
    starts = playout_items(Rules(), 200, seed=6)[0][:70]
    local = rollout(starts, Rules(), games=24, policy="random", seed=2)
    assert_same_result(bulk.rollout(starts, Rules(), 24, "random", 2, client=client, block=12), local)
    single = bulk.rollout(Position.initial(), BACKGAMMON, 72, "random", 4, client=client, block=36)
    assert_same_result(single, rollout(Position.initial(), BACKGAMMON, games=72, policy="random", seed=4))
    assert single.counts.shape == (2, 4)


def test_rollout_without_a_client_runs_on_the_default_scheduler():
    with dask.config.set(scheduler="threads"):
        result = bulk.rollout(Position.initial(), BACKGAMMON, 72, "first", 1, block=24)
    assert_same_result(result, rollout(Position.initial(), BACKGAMMON, games=72, policy="first", seed=1))


def test_a_worker_killed_mid_rollout_changes_nothing(client):
    starts = playout_items(BACKGAMMON, 40, seed=3)[0][:4]
    games, block = 96 * 144, 144  # 96 tasks
    local = rollout(starts, BACKGAMMON, games=games, policy="random", seed=7)

    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(bulk.rollout, starts, BACKGAMMON, games, "random", 7, client=client, block=block)
        busy: list[str] = []
        while not busy:  # until a worker is playing a block of this rollout
            assert not running.done(), "the rollout ended before a worker could be killed"
            busy = [address for address, keys in client.processing().items()
                    if any(key_split(key) == "play_block" for key in keys)]  # key_split drops the "_"
            time.sleep(0.02)
        os.kill(client.run(os.getpid, workers=busy[:1])[busy[0]], signal.SIGKILL)
        assert not running.done()
        result = running.result(timeout=600)
    assert_same_result(result, local)
    client.wait_for_workers(2, timeout=120)  # the nanny started a new worker process ...
    assert busy[0] not in client.scheduler_info()["workers"]  # ... in place of the one killed


def test_bad_rollout_arguments_are_named(client):
    with pytest.raises(TypeError, match=r"client must be a dask\.distributed\.Client or None, got str"):
        bulk.rollout(Position.initial(), Rules(), 72, client="tcp://localhost:8786")
    with pytest.raises(ValueError, match="games=100 does not split into blocks of 36 games"):
        bulk.rollout(Position.initial(), Rules(), 100, client=client, block=36)
    with pytest.raises(ValueError, match="games must be a positive integer"):
        bulk.rollout(Position.initial(), Rules(), 0, client=client)


# --- match files ---------------------------------------------------------------------------------------

MATCHES = [os.path.join(os.path.dirname(__file__), "data", "gnubg", name)
           for name in ("analysis_3a.mat", "analysis_3b.mat", "analysis_5.mat")]


def test_match_files_analysed_on_the_cluster_are_bit_identical_to_each_alone(client):
    from bansugoroku_fast import analyse, read_match

    analyses = bulk.analyse_files(MATCHES, "net", client=client)
    assert [a.to_json() for a in analyses] == [
        analyse(read_match(path), "net", threads=1, source=path).to_json() for path in MATCHES]


def test_a_damaged_match_file_is_named_before_any_analysis(tmp_path, client):
    from bansugoroku_fast import MatchFileError

    damaged = tmp_path / "damaged.mat"
    damaged.write_text(Path(MATCHES[0]).read_text().replace(" 1) ", " 1) 9x: ", 1))
    submitted = []
    original = client.compute
    client.compute = lambda *args, **kwargs: submitted.append(args) or original(*args, **kwargs)
    try:
        with pytest.raises(MatchFileError, match=r"line \d+, column \d+: .*damaged\.mat: game 1, move 1"):
            bulk.analyse_files([MATCHES[1], damaged], client=client)
        with pytest.raises(MatchFileError, match=r"missing\.mat: cannot read it"):
            bulk.analyse_files([tmp_path / "missing.mat"], client=client)
        with pytest.raises(TypeError, match=r"files must be a sequence of paths, got str"):
            bulk.analyse_files(MATCHES[0], client=client)
    finally:
        del client.compute
    assert submitted == []


@pytest.mark.parametrize("evaluator, error, words", [
    ("gnubg", "InvalidEvaluatorError", "unknown evaluator name 'gnubg'"),
    (42, "ArgumentTypeError", "an evaluator is a NetEvaluator, a callable"),
])
def test_an_evaluator_no_task_could_use_is_refused_before_the_files_are_read(tmp_path, evaluator, error, words):
    # It raised in every task, after every file had been read and sent to the workers.
    from bansugoroku_fast import errors

    with pytest.raises(getattr(errors, error), match=words):
        bulk.analyse_files([tmp_path / "not-there.mat"], evaluator)
