"""pytest-benchmark suites: ns per (position, roll) on the fixed corpus.

Not part of the default test run (``testpaths`` leaves ``benchmarks/`` out
and ``addopts`` disables benchmarks); run them explicitly::

    pytest benchmarks/ --benchmark-enable
    pytest benchmarks/ --benchmark-enable --benchmark-columns=median,rounds \\
        --benchmark-sort=name          # sorted by name, compact

Each benchmark puts its figure in ``extra_info["ns_per_item"]`` (median
round time / items) so that ``--benchmark-json`` carries it. Each benchmark
doubles as a regression test: its counts must equal the counts recorded when
the corpus was built and, as those come from whichever engine built it, the
oracle's counts on the first items.

Environment: ``BANSUGOROKU_BENCH_SIZE`` (corpus items; default 100,000),
``BANSUGOROKU_BENCH_ALL_RULES=1`` (all seven rule combinations instead of
the two defaults).
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from bansugoroku_fast import batch, moves, oracle

from . import corpus as corpus_module

SIZE = int(os.environ["BANSUGOROKU_BENCH_SIZE"]) if os.environ.get("BANSUGOROKU_BENCH_SIZE") else None
VARIANTS = corpus_module.variants(os.environ.get("BANSUGOROKU_BENCH_ALL_RULES") == "1")
SINGLE_ITEMS = 5_000
ORACLE_ITEMS = 100


@pytest.fixture(scope="module", params=VARIANTS, ids=lambda rules: rules.short_name)
def bench_corpus(request):
    """The corpus of one rule set (built once, then read from the cache)."""
    return corpus_module.load_corpus(request.param, SIZE)


@pytest.fixture(scope="module")
def oracle_counts(bench_corpus):
    """The oracle's play counts of the first ``ORACLE_ITEMS`` items: a check
    that does not depend on the engine that built the corpus."""
    sample = bench_corpus.head(ORACLE_ITEMS)
    return np.array(play_counts(oracle.legal_plays, calls_of(sample)), dtype=np.int32)


@pytest.fixture
def bench(benchmark, bench_corpus):
    """The ``benchmark`` fixture, grouped by rule set in the report."""
    benchmark.group = bench_corpus.rules.short_name
    return benchmark


def record(benchmark, corpus, items: int) -> None:
    """Store ns per item in ``extra_info`` (after the benchmark has run)."""
    benchmark.extra_info["items"] = items
    benchmark.extra_info["rules"] = corpus.rules.short_name
    if benchmark.stats is not None:  # None when benchmarks are disabled
        benchmark.extra_info["ns_per_item"] = benchmark.stats.stats.median * 1e9 / items


def calls_of(corpus) -> list[tuple]:
    """``(position, dice, rules)`` per item, for the single-call API."""
    return [(position, dice, corpus.rules) for position, dice in corpus.items()]


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


def check_counts(counts, corpus, oracle_counts) -> None:
    counts = np.asarray(counts)
    assert np.array_equal(counts, corpus.play_counts)
    assert np.array_equal(counts[:len(oracle_counts)], oracle_counts[:len(counts)])


def time_batch(bench, corpus, function, threads: int, rounds: int):
    """Time ``function(positions, dice, rules, threads=threads)`` over the
    whole corpus; returns its result."""
    result = bench.pedantic(function, args=(corpus.positions, corpus.dice, corpus.rules),
                            kwargs={"threads": threads}, rounds=rounds, warmup_rounds=1)
    record(bench, corpus, len(corpus))
    return result


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_count(bench, bench_corpus, oracle_counts, threads):
    counts = time_batch(bench, bench_corpus, batch.count_plays, threads, rounds=7)
    check_counts(counts, bench_corpus, oracle_counts)


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_generate(bench, bench_corpus, oracle_counts, threads):
    plays = time_batch(bench, bench_corpus, batch.generate_plays, threads, rounds=5)
    check_counts(np.diff(plays.offsets), bench_corpus, oracle_counts)
    assert plays.offsets[0] == 0 and plays.children.shape == (bench_corpus.total_plays, 2, 26)


def test_single_call_legal_plays(bench, bench_corpus, oracle_counts):
    sample = bench_corpus.head(SINGLE_ITEMS)
    calls = calls_of(sample)
    bench.pedantic(loop(moves.legal_plays, calls), rounds=5, warmup_rounds=1)
    record(bench, sample, len(sample))
    check_counts(play_counts(moves.legal_plays, calls), sample, oracle_counts)


def test_oracle_legal_plays(bench, bench_corpus, oracle_counts):
    sample = bench_corpus.head(ORACLE_ITEMS)
    bench.pedantic(loop(oracle.legal_plays, calls_of(sample)), rounds=3, warmup_rounds=0)
    record(bench, sample, len(sample))
    assert np.array_equal(oracle_counts, sample.play_counts)
