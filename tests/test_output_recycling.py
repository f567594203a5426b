"""Recycled output blocks (``bansugoroku_fast._kernel``, ``batch.set_output_recycling``).

A released block of ``generate_plays``' output is written again by a later
call of about the same size: the result must equal one written into fresh
memory whatever the block held before, and no block may be handed out
while any array still views it.
"""
from __future__ import annotations

import gc
import os
import signal
import threading
import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bansugoroku_fast import _batch, _kernel
from bansugoroku_fast.rules import Rules

from . import playouts

batch = playouts.kernel_module("batch")

RULE_PARAMS = [pytest.param(Rules(), id="ban"), pytest.param(Rules(variant="backgammon"), id="backgammon")]
ITEMS = 6_000   # about 90,000 plays: a block of several MiB, recycled


@pytest.fixture(autouse=True)
def own_recycling():
    """Each test starts with nothing kept and the default limit, and leaves it so."""
    previous = batch.set_output_recycling(0)
    batch.set_output_recycling(_kernel.DEFAULT_LIMIT)
    yield
    batch.set_output_recycling(0)
    batch.set_output_recycling(previous)


@pytest.fixture(scope="module", params=RULE_PARAMS)
def items(request):
    rules = request.param
    positions, dice = playouts.playout_items(rules, ITEMS, seed=31)
    return rules, positions, dice


def fresh_result(rules, positions, dice, fields=batch.FIELDS):
    """generate_plays into memory straight from the OS (nothing recycled)."""
    previous = batch.set_output_recycling(0)
    try:
        return batch.generate_plays(positions, dice, rules, fields=fields)
    finally:
        batch.set_output_recycling(previous)


def block_address(result) -> int:
    return result.children.ctypes.data


def assert_same_result(got, expected, what):
    for name in ("offsets", *batch.FIELDS):
        a, b = getattr(got, name), getattr(expected, name)
        assert (a is None) == (b is None), f"{what}: {name}"
        if a is not None:
            assert np.array_equal(a, b), f"{what}: {name} differ"


@pytest.mark.parametrize("fields", [batch.FIELDS, ("children",)], ids=["every field", "children"])
def test_a_released_block_is_reused_and_rewritten_whole(items, fields):
    rules, positions, dice = items
    expected = fresh_result(rules, positions, dice, fields)
    first = batch.generate_plays(positions, dice, rules, fields=fields)
    assert first.children.nbytes >= _kernel.SMALLEST_RECYCLED
    address = block_address(first)
    for array in first:                     # offsets too: they are in the block
        if array is not None:
            array.view(np.uint8)[...] = 0x7F      # garbage left for the next call
    del first, array
    assert _kernel.kept_bytes() > 0
    second = batch.generate_plays(positions, dice, rules, fields=fields)
    assert block_address(second) == address, "the released block was not reused"
    assert _kernel.kept_bytes() == 0
    assert_same_result(second, expected, "recycled output")


@pytest.mark.parametrize("kept", ["hits", "offsets"])
def test_a_block_still_viewed_is_not_handed_out(items, kept):
    rules, positions, dice = items
    first = batch.generate_plays(positions, dice, rules)
    kept_array = getattr(first, kept)       # one array of the block kept alive
    kept_copy = kept_array.copy()
    del first
    assert _kernel.kept_bytes() == 0
    second = batch.generate_plays(positions, dice, rules)
    for array in second:
        assert not np.shares_memory(array, kept_array)
        array[...] = 5
    assert np.array_equal(kept_array, kept_copy)
    del kept_array, kept_copy
    assert _kernel.kept_bytes() > 0         # the first block is released now


def test_the_offsets_and_fields_of_a_block_do_not_overlap(items):
    rules, positions, dice = items
    result = batch.generate_plays(positions, dice, rules)
    arrays = list(result)
    for i, array in enumerate(arrays):
        for other in arrays[i + 1:]:
            assert not np.shares_memory(array, other)


@given(st.lists(st.integers(0, 2**31 - 1), max_size=50))
def test_play_offsets_are_zero_then_the_running_sums(counts):
    counts = np.array(counts, dtype=np.int32)
    offsets = np.full(len(counts) + 1, -1, dtype=np.int64)
    total = _batch.play_offsets(counts, offsets)
    assert offsets.tolist() == [0, *np.cumsum(counts, dtype=np.int64).tolist()]
    assert total == int(counts.sum(dtype=np.int64))


def test_play_offsets_refuse_offsets_of_the_wrong_length():
    with pytest.raises(ValueError, match="room for len"):
        _batch.play_offsets(np.zeros(3, np.int32), np.zeros(3, np.int64))


def test_a_block_in_a_reference_cycle_is_reused_after_collection(items):
    rules, positions, dice = items
    first = batch.generate_plays(positions, dice, rules, fields=("children",))
    address = block_address(first)
    cycle: list[object] = [first.children]
    cycle.append(cycle)
    del first, cycle
    gc.collect()
    assert block_address(batch.generate_plays(positions, dice, rules, fields=("children",))) == address


def test_limit_zero_frees_what_is_kept_and_keeps_nothing(items):
    rules, positions, dice = items
    batch.generate_plays(positions, dice, rules)
    assert _kernel.kept_bytes() > 0
    assert batch.set_output_recycling(0) == _kernel.DEFAULT_LIMIT
    assert _kernel.kept_bytes() == 0
    released = batch.generate_plays(positions, dice, rules)
    del released
    assert _kernel.kept_bytes() == 0


def test_over_the_limit_the_largest_blocks_go_first():
    mib = 1 << 20
    batch.set_output_recycling(5 * mib)
    small, large = _kernel.output_block(2 * mib), _kernel.output_block(4 * mib)
    del small
    assert _kernel.kept_bytes() == 2 * mib
    del large                                # 6 MiB kept > 5: the 4 MiB block goes
    assert _kernel.kept_bytes() == 2 * mib
    too_large = _kernel.output_block(6 * mib)
    del too_large                            # larger than the limit: never kept
    assert _kernel.kept_bytes() == 2 * mib
    batch.set_output_recycling(mib)
    assert _kernel.kept_bytes() == 0


def test_small_blocks_are_left_to_malloc():
    block = _kernel.output_block(_kernel.SMALLEST_RECYCLED - 1)
    assert block.shape == (_kernel.SMALLEST_RECYCLED - 1,) and block.dtype == np.uint8
    assert block.base is None               # plain np.empty: no lease
    del block
    assert _kernel.kept_bytes() == 0


@given(st.integers(min_value=1, max_value=1 << 40))
def test_a_size_class_holds_the_size_with_at_most_a_sixteenth_more(size):
    capacity = _kernel.size_class(size)
    assert size <= capacity <= size + size // 16
    assert _kernel.size_class(capacity) == capacity
    assert _kernel.size_class(size + 1) >= capacity


def test_threads_calling_at_once_get_correct_separate_output(items):
    rules, positions, dice = items
    expected = fresh_result(rules, positions, dice)
    failures: list[str] = []

    def work() -> None:
        previous = None
        for _ in range(4):
            result = batch.generate_plays(positions, dice, rules, threads=1)
            if previous is not None and np.shares_memory(result.children, previous.children):
                failures.append("two results alive share a block")
            for name in ("offsets", *batch.FIELDS):
                if not np.array_equal(getattr(result, name), getattr(expected, name)):
                    failures.append(f"{name} differ")
            previous = result

    threads = [threading.Thread(target=work) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


@pytest.mark.parametrize("limit", [-1, True, 2.5, "256", None])
def test_a_bad_limit_is_refused(limit):
    with pytest.raises(ValueError, match="limit_bytes"):
        batch.set_output_recycling(limit)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_a_child_forked_while_another_thread_holds_the_lock_has_its_own(items):
    rules, positions, dice = items
    expected = fresh_result(rules, positions, dice, ("children",))
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with _kernel._lock:
            taken.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait()
    try:
        pid = os.fork()
        if pid == 0:            # the child: the holder thread does not exist here
            code = 2
            try:
                batch.generate_plays(positions, dice, rules, fields=("children",))     # released at once
                again = batch.generate_plays(positions, dice, rules, fields=("children",))
                code = 0 if np.array_equal(again.children, expected.children) else 1
            finally:
                os._exit(code)  # never back into pytest
    finally:
        release.set()
        holder.join()
    for _ in range(600):        # a deadlocked child must fail the test, not hang it
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung on the recycling lock")
    assert os.waitstatus_to_exitcode(status) == 0
