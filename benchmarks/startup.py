"""What asking for two threads gives a batch call, by its size.

    python -m benchmarks.startup [--repeats 15] [--sizes 1,100,1000,10000,50000] [--json FILE]
    python -m benchmarks.startup --between-passes [--repeats 15]

Per default rule set, ``count_plays`` and ``generate_plays()`` (every field)
on the first N corpus items (``corpus.py``) for each N of ``--sizes``, on one
thread and on two, in two patterns:

* **in a row**: each call right after the last (the pool threads are still
  awake, spinning ``batch.idle_spin()`` seconds for the next call);
* **after idle**: each call after 10 ms asleep (the pool threads have gone
  to sleep, and a VM may have halted the second virtual CPU, which then
  takes a while to wake).

The calls are interleaved (one thread, two threads, the next size, ...) and
each figure is the median of the repeats, in microseconds a call. The
speed-up is one thread's time over two threads': below 1, asking for a
second thread made the call slower. With OpenMP's parallel regions (before
the pool) a call on two threads waited at its end for the second thread to
wake: a one-item count took 0.6-1 ms instead of 7 us.

This script uses only the public API, so it runs unchanged in an older tree
(copy it there) for a before/after table.

``--between-passes`` times instead the serial Python between the count and
the generate pass of ``generate_plays()`` (from the count kernel's return
to the generate kernel's call) on the whole 50,000-item corpus of each rule
set, on two threads, each call after five one-thread calls: the time the
pool threads must stay awake across for the generate pass to find them
so (``FOLLOWED_SPIN_NS`` in ``bsf_pool.c``). Then, in as many more calls,
its steps one by one, each in the call (caches cold from the count pass)
and again at once (warm): making the output, the offsets, and numpy's sum
of the counts, a step of the call until commit c0f053c.
"""
from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from unittest import mock

import numpy as np

from bansugoroku_fast import Rules, _batch, _kernel, batch

from .corpus import DEFAULT_VARIANTS, load_corpus
from .timing import load_noted, progress_bar, script_parser, seconds_of

SIZES = (1, 100, 1_000, 10_000, 50_000)
PATTERNS = ("in a row", "after idle")
IDLE_SECONDS = 0.01


def calls(rules: Rules, size: int) -> dict[str, Callable[[int], Callable[[], object]]]:
    """``{measure: threads -> call}`` on the first ``size`` corpus items."""
    corpus = load_corpus(rules, max(size, 1000))
    positions, dice = corpus.positions[:size], corpus.dice[:size]
    return {
        "count_plays": lambda threads: lambda: batch.count_plays(positions, dice, rules, threads=threads),
        "generate_plays": lambda threads: lambda: batch.generate_plays(positions, dice, rules, threads=threads),
    }


def timed(call: Callable[[], object], pattern: str) -> float:
    """Seconds of one call in ``pattern`` (after idle: asleep first, untimed)."""
    if pattern == "after idle":
        time.sleep(IDLE_SECONDS)
    return seconds_of(call)[0]


def measure(rules: Rules, sizes: tuple[int, ...], repeats: int, progress=None) -> list[dict[str, object]]:
    """One row per (size, measure, pattern): median microseconds a call on
    one and two threads, and the speed-up."""
    rows = []
    for size in sizes:
        for name, on in calls(rules, size).items():
            one, two = on(1), on(2)
            one(), two()     # warm up
            for pattern in PATTERNS:
                seconds: dict[int, list[float]] = {1: [], 2: []}
                for _ in range(repeats):
                    seconds[1].append(timed(one, pattern))
                    seconds[2].append(timed(two, pattern))
                    if progress is not None:
                        progress.update(1)
                one_us, two_us = (statistics.median(seconds[k]) * 1e6 for k in (1, 2))
                rows.append({"rules": rules.short_name, "items": size, "measure": name, "pattern": pattern,
                             "one thread us": one_us, "two threads us": two_us, "speed-up": one_us / two_us})
    return rows


def between_passes(rules: Rules, repeats: int) -> list[float]:
    """Microseconds from the count kernel's return to the generate kernel's
    call in ``generate_plays()`` on two threads, one a call."""
    corpus = load_corpus(rules, 50_000)
    marks: dict[str, float] = {}

    def timed_kernel(name: str) -> Callable[..., object]:
        kernel = getattr(_batch, name)

        def call(*args: object, **keywords: object) -> object:
            marks[name + " called"] = time.perf_counter()
            result = kernel(*args, **keywords)
            marks[name + " returned"] = time.perf_counter()
            return result
        return call

    gaps = []
    with mock.patch.object(_batch, "count_batch", timed_kernel("count_batch")), \
            mock.patch.object(_batch, "generate_batch", timed_kernel("generate_batch")):
        for _ in range(repeats):
            two_thread_call_after_five_on_one(rules, corpus)
            gaps.append((marks["generate_batch called"] - marks["count_batch returned"]) * 1e6)
    return gaps


def two_thread_call_after_five_on_one(rules: Rules, corpus) -> None:
    """``generate_plays()`` on two threads, after five calls on one."""
    for _ in range(5):
        batch.generate_plays(corpus.positions, corpus.dice, rules, threads=1)
    batch.generate_plays(corpus.positions, corpus.dice, rules, threads=2)


#: The steps between the passes that ``between_parts`` times, and numpy's
#: sum of the counts, which was one of them before commit c0f053c (the
#: count kernel now returns the total).
PARTS = ("making the output", "the offsets", "numpy's sum of the counts (before c0f053c)")


def between_parts(rules: Rules, repeats: int) -> dict[str, tuple[list[float], list[float]]]:
    """``{step: (cold, warm)}``, microseconds of each step between the
    passes of the calls of :func:`between_passes`: in the call, caches cold
    from the count pass, then the same step again at once, warm."""
    corpus = load_corpus(rules, 50_000)
    times: dict[str, tuple[list[float], list[float]]] = {part: ([], []) for part in PARTS}

    def cold_then_warm(part: str, step: Callable[..., object]) -> Callable[..., object]:
        def call(*args: object, **keywords: object) -> object:
            for kept in times[part]:
                start = time.perf_counter()
                result = step(*args, **keywords)
                kept.append((time.perf_counter() - start) * 1e6)
            return result
        return call

    count_batch = _batch.count_batch
    sum_counts = cold_then_warm(PARTS[2], lambda counts: counts.sum(dtype=np.int64))

    def count_then_sum(*args: object, **keywords: object) -> object:
        result = count_batch(*args, **keywords)
        sum_counts(args[4])     # the counts, as the call summed them before c0f053c
        return result

    with mock.patch.object(_batch, "count_batch", count_then_sum), \
            mock.patch.object(_kernel, "output_views", cold_then_warm(PARTS[0], _kernel.output_views)), \
            mock.patch.object(_batch, "play_offsets", cold_then_warm(PARTS[1], _batch.play_offsets)):
        for _ in range(repeats):
            two_thread_call_after_five_on_one(rules, corpus)
    return times


def table(rows: list[dict[str, object]]) -> str:
    """The rows as a Markdown table."""
    lines = ["| rules | items | measure | pattern | 1 thread, us | 2 threads, us | speed-up |",
             "|---|---:|---|---|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['rules']} | {row['items']:,} | {row['measure']} | {row['pattern']} "
                     f"| {row['one thread us']:,.1f} | {row['two threads us']:,.1f} | {row['speed-up']:.2f}x |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = script_parser(__doc__, repeats=15)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="batch sizes, comma-separated")
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--between-passes", action="store_true",
                        help="time the Python between generate_plays' two passes instead")
    args = parser.parse_args(argv)
    if args.between_passes:
        with load_noted():
            for rules in DEFAULT_VARIANTS:
                gaps = between_passes(rules, args.repeats)
                print(f"{rules.short_name}: between the passes {min(gaps):.0f}-{max(gaps):.0f} us, "
                      f"median {statistics.median(gaps):.0f} us ({len(gaps)} calls)")
                for part, (cold, warm) in between_parts(rules, args.repeats).items():
                    print(f"    {part}: median {statistics.median(cold):.0f} us in the call, "
                          f"{statistics.median(warm):.0f} us at once again")
        return
    sizes = tuple(int(size) for size in args.sizes.split(","))
    bar = progress_bar(len(DEFAULT_VARIANTS) * len(sizes) * 2 * len(PATTERNS) * args.repeats)
    rows = []
    with load_noted():
        for rules in DEFAULT_VARIANTS:
            rows += measure(rules, sizes, args.repeats, bar)
    if bar is not None:
        bar.close()
    print(f"idle spin {batch.idle_spin() * 1e3:g} ms" if hasattr(batch, "idle_spin") else "OpenMP threads")
    print(table(rows))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
