"""The batch kernels' AVX2 copies against their baseline code, in one
process: what the copies (``src/bansugoroku_fast/bsf_cpu.h``,
``docs/architecture.md``) buy.

Each thread entry point of ``_batch`` is compiled twice, for the
architecture's baseline and for AVX2 with BMI1/2 and POPCNT; the package
runs the second where the CPU has them. Both are timed on the corpus, one
thread, interleaved (``timing.interleaved_figures``, best CPU time of the
repeats): ``count_batch`` and ``generate_batch`` into buffers made once,
each timed call choosing its code first (``_batch.run_avx2_copies``). The
figure is baseline time / AVX2 time (above 1: the copies are faster). The
kernels' counts are checked against the corpus's first.

    python -m benchmarks.copies --size 100000 --repeats 9
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bansugoroku_fast import _batch, _kernel

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


def on_code(function: Callable[[], object], avx2: bool) -> Callable[[], None]:
    """``function``, run on the AVX2 copies or on the baseline code."""
    def timed() -> None:
        _batch.run_avx2_copies(avx2)
        function()
    return timed


def report(rules, size: int, repeats: int) -> None:
    """One line per call: ns per item of each code, and their ratio."""
    corpus = load_corpus(rules, size)
    codes = {code: {call: on_code(function, code == "avx2") for call, function in kernel_calls(_batch, corpus).items()}
             for code in ("baseline", "avx2")}
    measures = {(code, call): (function, len(corpus))
                for code, calls in codes.items() for call, function in calls.items()}
    try:
        figures = interleaved_figures(measures, repeats, summary=min)
    finally:
        _kernel.choose_batch_code()
    for call in codes["baseline"]:
        baseline, avx2 = figures[("baseline", call)].cpu, figures[("avx2", call)].cpu
        print(f"{rules.short_name:24} {call:15} baseline {baseline:7.1f} ns  avx2 copies {avx2:7.1f} ns  "
              f"baseline / avx2 {baseline / avx2:.2f}x")


def main(argv: list[str] | None = None) -> None:
    if not _batch.run_avx2_copies(True):
        raise SystemExit("no AVX2 copies run here (a CPU without AVX2, BMI1/2 or POPCNT, or a build without them)")
    _kernel.choose_batch_code()
    report_each_default_variant(__doc__, report, argv)


if __name__ == "__main__":
    main()
