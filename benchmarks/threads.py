"""Thread scaling of the batch kernels on a large batch: every corpus
position with each of the 21 rolls (2.1 million items by default), counted
and streamed with 1 and 2 threads in turn, interleaved, median of the
repeats.

    python -m benchmarks.threads [--size 100000] [--repeats 7]

Three measures: ``count`` (public ``count_plays``), ``kernel`` (the count
kernel alone, ``_batch.count_batch`` on arrays already checked, without
the serial argument checks and error scan of ``count_plays``), and
``stream`` (``iter_plays(reuse=True)``). The ratio means something only with
both cores idle: the load average is printed before and after.
"""
from __future__ import annotations

import numpy as np

from bansugoroku_fast import Rules, _batch, batch, oracle

from .corpus import load_corpus
from .engines import stream
from .timing import interleaved_figures, report_each_default_variant

ROLLS = np.array(oracle.ALL_ROLLS, dtype=np.int8)
#: Issue 10's target: two threads at least this many times one thread's speed.
TARGET = 1.8


def every_roll(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each position repeated with each of the 21 distinct rolls."""
    repeated = np.ascontiguousarray(np.repeat(positions, len(ROLLS), axis=0))
    dice = np.ascontiguousarray(np.tile(ROLLS, (len(positions), 1)))
    return repeated, dice


def kernel_count(positions: np.ndarray, dice: np.ndarray, rules, threads: int) -> np.ndarray:
    """``_batch.count_batch`` alone, on arrays ``count_plays`` accepts."""
    counts = np.empty(len(positions), dtype=np.int32)
    _batch.count_batch(positions, dice, rules.code, threads, counts)
    return counts


def runners(positions, dice, rules) -> dict:
    """The three ways of counting timed here, each a function of the thread count."""
    return {
        "count": lambda t: batch.count_plays(positions, dice, rules, threads=t),
        "kernel": lambda t: kernel_count(positions, dice, rules, t),
        "stream": lambda t: stream(positions, dice, rules, t),
    }


def main(argv: list[str] | None = None) -> None:
    report_each_default_variant(__doc__, report, argv)


def report(rules: Rules, size: int, repeats: int) -> None:
    """Check the kernel against ``count_plays``, then time and print 1 against 2 threads."""
    positions, dice = every_roll(load_corpus(rules, size).positions)
    expected = batch.count_plays(positions, dice, rules, threads=1)  # also checks the arrays
    if not np.array_equal(kernel_count(positions, dice, rules, 2), expected):
        raise AssertionError("count_batch disagrees with count_plays")
    kinds = runners(positions, dice, rules)
    measures = {(kind, threads): (lambda f=function, t=threads: f(t), len(positions))
                for kind, function in kinds.items() for threads in (1, 2)}
    figures = interleaved_figures(measures, repeats=repeats)
    print(f"{rules.short_name}: {len(positions):,} items", flush=True)
    for kind in kinds:
        one, two = figures[kind, 1].wall, figures[kind, 2].wall
        verdict = "met" if one / two >= TARGET else "missed"
        print(f"  {kind:6} 1 thread {one:6.1f} ns, 2 threads {two:6.1f} ns: x{one / two:.2f} "
              f"(target x{TARGET}: {verdict})", flush=True)


if __name__ == "__main__":
    main()
