"""The AVX2 twin of the batch kernels against their baseline build, in one
process: what the twin module (the second of the kernels' two CPU-dispatch
mechanisms, ``docs/architecture.md``) buys.

``_batch`` and ``_batch_avx2`` are the same source compiled for the
architecture's baseline and for AVX2 with BMI1/2 and POPCNT; the package
imports the second where the CPU has them. Both are timed on the corpus,
one thread, interleaved (``timing.interleaved_figures``, best CPU time of
the repeats): ``count_batch`` and ``generate_batch`` into buffers made
once. The figure is baseline time / twin time (above 1: the twin is
faster). The kernels' counts are checked against the corpus's first.

    python -m benchmarks.twin --size 100000 --repeats 9
"""
from __future__ import annotations

import numpy as np

from bansugoroku_fast import _batch, _cpu

from .corpus import load_corpus
from .timing import interleaved_figures, report_each_default_variant


def kernel_calls(module, corpus) -> dict[str, object]:
    """The two calls of ``module`` on the corpus, into buffers made once."""
    positions, dice, code = corpus.positions, corpus.dice, corpus.rules.code
    counts = np.empty(len(positions), np.int32)
    offsets = np.empty(len(positions) + 1, np.int64)
    module.count_batch(positions, dice, code, 1, counts)
    if not np.array_equal(counts, corpus.play_counts):
        raise AssertionError(f"{module.__name__}: counts differ from the corpus's")
    total = module.play_offsets(counts, offsets)
    children = np.empty((total, 2, 26), np.int8)
    steps, step_dice = np.empty((total, 4, 2), np.int8), np.empty((total, 4), np.int8)
    hits, status = np.empty((total, 4), np.uint8), np.empty(len(positions), np.int32)
    return {
        "count_batch": lambda: module.count_batch(positions, dice, code, 1, counts),
        "generate_batch": lambda: module.generate_batch(positions, dice, code, 1, offsets, children, steps,
                                                        step_dice, hits, status),
    }


def report(rules, size: int, repeats: int) -> None:
    """One line per call: ns per item of each build, and their ratio."""
    from bansugoroku_fast import _batch_avx2

    corpus = load_corpus(rules, size)
    builds = {"baseline": kernel_calls(_batch, corpus), "avx2": kernel_calls(_batch_avx2, corpus)}
    measures = {(build, call): (function, len(corpus))
                for build, calls in builds.items() for call, function in calls.items()}
    figures = interleaved_figures(measures, repeats, summary=min)
    for call in builds["baseline"]:
        baseline, twin = figures[("baseline", call)].cpu, figures[("avx2", call)].cpu
        print(f"{rules.short_name:24} {call:15} baseline {baseline:7.1f} ns  avx2 twin {twin:7.1f} ns  "
              f"baseline / twin {baseline / twin:.2f}x")


def main(argv: list[str] | None = None) -> None:
    if not _cpu.cpu_has_avx2():
        raise SystemExit("this CPU has no AVX2: the twin is not used here")
    report_each_default_variant(__doc__, report, argv)


if __name__ == "__main__":
    main()
