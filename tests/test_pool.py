"""The pool of threads that batches run on (``src/bansugoroku_fast/bsf_pool.c``).

``_pool.slots_of_items`` runs a job whose items record the slot (0: the
calling thread, 1..: pool threads) that ran them, each item busy for a
given time so that pool threads have time to join; the batch tests hold
the kernels' results on any thread count to the oracle's.
"""
from __future__ import annotations

import math
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from bansugoroku_fast import Position, _pool, batch
from bansugoroku_fast.moves import ALL_ROLLS

from . import source_tree
from .test_hardening import assert_clean_exit, run_isolated

KERNELS = source_tree.ROOT / "src" / "bansugoroku_fast"
#: How often a call is tried before the test says no pool thread took part:
#: each try takes some tens of milliseconds, and a loaded machine may give
#: the woken thread no CPU for many of them.
TRIES = 200


def assert_every_item_ran_once(slots: np.ndarray, took_part: int, threads: int) -> None:
    """Each item ran on exactly one slot of the ``threads`` the job asked
    for, and no more slots than the ``took_part`` threads the call reports
    (any of the pool's: one that wakes late may miss the job)."""
    assert (slots >= 0).all(), f"items never ran: {np.flatnonzero(slots < 0)[:10]}"
    assert (slots < 1000).all(), f"items ran twice: {np.flatnonzero(slots >= 1000)[:10]}"
    used = set(np.unique(slots).tolist())
    assert used <= set(range(threads)) and len(used) <= took_part, (used, took_part)


@pytest.mark.parametrize(("items", "chunk", "threads"), [
    (0, 1, 2), (1, 1, 2), (7, 3, 2), (1000, 1, 2), (1000, 7, 3), (1001, 256, 8), (5000, 16, 1),
])
def test_every_item_runs_once(items, chunk, threads):
    slots, took_part = _pool.slots_of_items(items, chunk, threads)
    assert 1 <= took_part <= threads
    assert_every_item_ran_once(slots, took_part, threads)


@pytest.mark.parametrize(("items", "chunk"), [(0, 1), (1, 1), (256, 256), (100, 1000)])
def test_a_job_of_one_chunk_runs_on_the_calling_thread_alone(items, chunk):
    # Waking a pool thread for one chunk would cost more than the chunk.
    slots, took_part = _pool.slots_of_items(items, chunk, 4)
    assert took_part == 1
    assert (slots == 0).all()


def test_one_thread_asked_runs_on_the_calling_thread_alone():
    slots, took_part = _pool.slots_of_items(2000, 1, 1, item_seconds=1e-5)
    assert took_part == 1
    assert (slots == 0).all()


def test_pool_threads_join_a_long_job():
    # 400 items of 0.25 ms: 0.1 s on one thread, far longer than a pool
    # thread takes to wake (under a few ms even on a loaded machine).
    slots, took_part = _pool.slots_of_items(400, 2, 2, item_seconds=2.5e-4)
    assert took_part == 2
    assert_every_item_ran_once(slots, took_part, 2)
    assert (slots == 1).any() and (slots == 0).any()
    assert _pool.started_threads() >= 1


def test_jobs_from_two_threads_at_once_each_run_every_item_once():
    # One caller has the pool at a time; the other runs its job alone.
    results: dict[int, tuple[np.ndarray, int]] = {}

    def job(name: int) -> None:
        results[name] = _pool.slots_of_items(300, 2, 2, item_seconds=1e-4)

    callers = [threading.Thread(target=job, args=(name,)) for name in range(3)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    assert sorted(results) == [0, 1, 2]
    for slots, took_part in results.values():
        assert_every_item_ran_once(slots, took_part, 2)


def test_batches_from_two_threads_at_once_give_the_results_of_one():
    positions = np.broadcast_to(Position.initial().array, (3000, 2, 26)).copy()
    dice = np.resize(np.array(ALL_ROLLS, dtype=np.int8), (3000, 2))
    expected = batch.generate_plays(positions, dice, "backgammon", threads=1)
    got: dict[int, batch.PlayBatch] = {}

    def generate(name: int) -> None:
        got[name] = batch.generate_plays(positions, dice, "backgammon", threads=2)

    callers = [threading.Thread(target=generate, args=(name,)) for name in range(3)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    for result in got.values():
        assert np.array_equal(result.offsets, expected.offsets)
        assert np.array_equal(result.children, expected.children)
        assert np.array_equal(result.steps, expected.steps)


@pytest.mark.parametrize("rules", ["ban-sugoroku", "backgammon"])
def test_batch_passes_shared_with_a_pool_thread_give_the_results_of_one(rules):
    # The pool thread kept awake (a long spin, after a job that woke it), so
    # that it joins both passes of generate_plays and the count; each call
    # is tried until a pool thread took part in it (one does at once,
    # unless the machine gives it no CPU: on a loaded machine, as when the
    # suite runs on every core beside other jobs, it may take many tries).
    positions = np.broadcast_to(Position.initial().array, (60000, 2, 26)).copy()
    dice = np.resize(np.array(ALL_ROLLS, dtype=np.int8), (60000, 2))
    expected = batch.generate_plays(positions, dice, rules, threads=1)
    before = _pool.idle_spin()
    try:
        batch.set_idle_spin(1.0)
        for call, check in [
            (lambda: batch.generate_plays(positions, dice, rules, threads=2),
             lambda got: all(np.array_equal(getattr(got, f), getattr(expected, f)) for f in got._fields)),
            (lambda: batch.count_plays(positions, dice, rules, threads=2),
             lambda got: np.array_equal(got, expected.counts())),
        ]:
            for _ in range(TRIES):
                _pool.slots_of_items(200, 2, 2, item_seconds=2.5e-4)     # wakes the pool thread
                shared = _pool.shared_jobs()
                result = call()
                assert check(result)
                if _pool.shared_jobs() > shared:
                    break
            assert _pool.shared_jobs() > shared, f"no pool thread took part in {TRIES} tries"
    finally:
        batch.set_idle_spin(before)


def test_idle_spin_is_set_and_read_in_seconds():
    before = _pool.idle_spin()
    try:
        batch.set_idle_spin(0.002)
        assert batch.idle_spin() == pytest.approx(0.002)
        batch.set_idle_spin(0)
        assert batch.idle_spin() == 0
        slots, took_part = _pool.slots_of_items(200, 2, 2, item_seconds=2.5e-4)  # pool threads sleep at once
        assert_every_item_ran_once(slots, took_part, 2)
    finally:
        batch.set_idle_spin(before)


@pytest.mark.parametrize("seconds", [-1e-6, math.nan, -math.inf])
def test_a_bad_idle_spin_is_refused(seconds):
    before = _pool.idle_spin()
    with pytest.raises(ValueError, match="idle spin"):
        batch.set_idle_spin(seconds)
    assert _pool.idle_spin() == before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_pool_threads_block_every_signal():
    # Signals (Ctrl-C) must reach the threads that run Python, not a pool
    # thread, which could not run a handler.
    _pool.slots_of_items(400, 2, 2, item_seconds=2.5e-4)
    masks = {}
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/status") as status:
            fields = dict(line.split(":\t", 1) for line in status.read().splitlines() if ":\t" in line)
        masks.setdefault(fields["Name"].strip(), []).append(int(fields["SigBlk"], 16))
    assert "bsf-pool" in masks, sorted(masks)
    blocked_by_all = (1 << 64) - 1
    for mask in masks["bsf-pool"]:
        # SIGKILL and SIGSTOP cannot be blocked; glibc keeps two of its own.
        assert bin(mask & blocked_by_all).count("1") >= 58, hex(mask)


@pytest.mark.skipif(not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2,
                    reason="reads /proc; needs two CPUs")
def test_a_pool_thread_is_kept_off_the_callers_cpu():
    # Its affinity is the caller's CPUs but the one the caller was on when
    # the thread started (a fresh process: the first job starts it).
    output = assert_clean_exit(run_isolated("""
        import os
        from bansugoroku_fast import _pool
        _pool.slots_of_items(40, 2, 2, item_seconds=2.5e-4)
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/comm") as name:
                if name.read().strip() == "bsf-pool":
                    print(*sorted(os.sched_getaffinity(int(task))))
                    print(*sorted(os.sched_getaffinity(0)))
    """))
    pool_cpus, caller_cpus = ({int(cpu) for cpu in line.split()} for line in output.splitlines())
    assert pool_cpus < caller_cpus and len(caller_cpus - pool_cpus) == 1, output


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_forked_after_the_pool_started_starts_its_own():
    # The child has none of the parent's pool threads (fork copies the
    # forking thread alone); it starts its own and gets the same results.
    output = assert_clean_exit(run_isolated("""
        import os
        import numpy as np
        from bansugoroku_fast import Position, _pool, batch, rollout
        from bansugoroku_fast.moves import ALL_ROLLS
        positions = np.broadcast_to(Position.initial().array, (4000, 2, 26)).copy()
        dice = np.resize(np.array(ALL_ROLLS, dtype=np.int8), (4000, 2))
        expected = batch.generate_plays(positions, dice, "backgammon", threads=2)
        slots, took_part = _pool.slots_of_items(400, 2, 2, item_seconds=2.5e-4)
        assert took_part == 2 and _pool.started_threads() == 1
        pid = os.fork()
        if pid == 0:
            started_at_fork = _pool.started_threads()
            slots, took_part = _pool.slots_of_items(400, 2, 2, item_seconds=2.5e-4)
            got = batch.generate_plays(positions, dice, "backgammon", threads=2)
            same = (np.array_equal(got.children, expected.children)
                    and rollout(Position.initial(), "backgammon", games=50, seed=3, threads=2).counts.sum() == 50)
            ok = started_at_fork == 0 and took_part == 2 and _pool.started_threads() == 1 and same
            os._exit(0 if ok else 3)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
    """, timeout=120))
    assert output.split() == ["child", "0"], output


def thread_sanitizer_compiler() -> str | None:
    """A C compiler with ThreadSanitizer's runtime, or None."""
    compiler = source_tree.c_compiler()
    if compiler is None or not KERNELS.is_dir():
        return None
    runtime = subprocess.run([compiler, "-print-file-name=libtsan.so"], capture_output=True, text=True)
    return compiler if os.path.isabs(runtime.stdout.strip()) else None


@source_tree.needs("src/bansugoroku_fast/bsf_pool.c")
@pytest.mark.skipif(thread_sanitizer_compiler() is None, reason="needs a C compiler with ThreadSanitizer")
def test_the_pool_has_no_data_race_under_thread_sanitizer(tmp_path):
    # tests/pool_stress.c: three callers at once, 300 jobs each of random
    # sizes, chunks and threads; an item run twice, or written after its
    # job returned, is a race ThreadSanitizer reports.
    program = tmp_path / "pool_stress"
    subprocess.run([thread_sanitizer_compiler(), "-fsanitize=thread", "-O1", "-g", "-pthread", f"-I{KERNELS}",
                    str(Path(__file__).with_name("pool_stress.c")), str(KERNELS / "bsf_pool.c"), "-o", str(program)],
                   check=True, capture_output=True, text=True)
    environment = {name: value for name, value in os.environ.items() if name != "LD_PRELOAD"}  # not under ASan
    environment["TSAN_OPTIONS"] = "halt_on_error=1 exitcode=66"
    result = subprocess.run([str(program), "3", "300"], capture_output=True, text=True, env=environment,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr[-4000:]
    assert result.stdout.startswith("0 failures"), result.stdout
