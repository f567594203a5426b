"""pytest-benchmark suites: ns per (position, roll) on the fixed corpus.

Not part of the default test run (``testpaths`` leaves ``benchmarks/`` out
and ``addopts`` disables benchmarks); run them explicitly::

    pytest benchmarks/ --benchmark-enable
    pytest benchmarks/ --benchmark-enable --benchmark-columns=median,rounds \\
        --benchmark-sort=name          # sorted by name, compact

Each benchmark puts its figure in ``extra_info["ns_per_item"]`` (median
round time / items) so that ``--benchmark-json`` carries it. The batch
benchmarks double as regression tests: their counts must equal the counts
recorded when the corpus was built.

Environment: ``BANSUGOROKU_BENCH_SIZE`` (corpus items; default 100,000 with
the batch kernel, 3,000 without), ``BANSUGOROKU_BENCH_ALL_RULES=1`` (all
seven rule combinations instead of the two defaults).
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from bansugoroku_fast import oracle

from . import corpus as corpus_module
from . import engines

SIZE = int(os.environ["BANSUGOROKU_BENCH_SIZE"]) if os.environ.get("BANSUGOROKU_BENCH_SIZE") else None
VARIANTS = corpus_module.variants(os.environ.get("BANSUGOROKU_BENCH_ALL_RULES") == "1")
SINGLE_ITEMS = 5_000
ORACLE_ITEMS = 100


@pytest.fixture(scope="module", params=VARIANTS, ids=lambda rules: rules.short_name)
def bench_corpus(request):
    """The corpus of one rule set (built once, then read from the cache)."""
    return corpus_module.load_corpus(request.param, SIZE)


@pytest.fixture
def bench(benchmark, bench_corpus):
    """The ``benchmark`` fixture, grouped by rule set in the report."""
    benchmark.group = bench_corpus.rules.short_name
    return benchmark


def batch_or_skip():
    batch = engines.batch_module()
    if batch is None:
        pytest.skip("bansugoroku_fast.batch (count_plays, generate_plays) is not available")
    return batch


def record(benchmark, corpus, items: int) -> None:
    """Store ns per item in ``extra_info`` (after the benchmark has run)."""
    benchmark.extra_info["items"] = items
    benchmark.extra_info["rules"] = corpus.rules.short_name
    if benchmark.stats is not None:  # None when benchmarks are disabled
        benchmark.extra_info["ns_per_item"] = benchmark.stats.stats.median * 1e9 / items


def loop(function, calls):
    """One call per item, as a user's Python loop would (results dropped,
    so that keeping them does not load the garbage collector)."""
    def run():
        for call in calls:
            function(*call)

    return run


def play_counts(function, calls) -> list[int]:
    """``len(function(*call))`` per call (untimed, for the checks)."""
    return [len(function(*call)) for call in calls]


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_count(bench, bench_corpus, threads):
    batch = batch_or_skip()
    counts = bench.pedantic(
        batch.count_plays, args=(bench_corpus.positions, bench_corpus.dice, bench_corpus.rules),
        kwargs={"threads": threads}, rounds=7, warmup_rounds=1)
    record(bench, bench_corpus, len(bench_corpus))
    assert np.array_equal(np.asarray(counts), bench_corpus.play_counts)


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_generate(bench, bench_corpus, threads):
    batch = batch_or_skip()
    generated = bench.pedantic(
        batch.generate_plays, args=(bench_corpus.positions, bench_corpus.dice, bench_corpus.rules),
        kwargs={"threads": threads}, rounds=5, warmup_rounds=1)
    record(bench, bench_corpus, len(bench_corpus))
    offsets, children = engines.offsets_and_children(generated)
    assert np.array_equal(np.diff(offsets), bench_corpus.play_counts)
    assert children.shape == (bench_corpus.total_plays, 2, 26)


def test_single_call_legal_plays(bench, bench_corpus):
    legal_plays = engines.kernel_legal_plays()
    if legal_plays is None:
        pytest.skip("the kernel-backed legal_plays is not available")
    sample = bench_corpus.head(SINGLE_ITEMS)
    calls = [(position, dice, sample.rules) for position, dice in sample.items()]
    bench.pedantic(loop(legal_plays, calls), rounds=5, warmup_rounds=1)
    record(bench, sample, len(sample))
    assert play_counts(legal_plays, calls) == sample.play_counts.tolist()


def test_oracle_legal_plays(bench, bench_corpus):
    sample = bench_corpus.head(ORACLE_ITEMS)
    calls = [(position, dice, sample.rules) for position, dice in sample.items()]
    bench.pedantic(loop(oracle.legal_plays, calls), rounds=3, warmup_rounds=0)
    record(bench, sample, len(sample))
    assert play_counts(oracle.legal_plays, calls) == sample.play_counts.tolist()
