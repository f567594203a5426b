"""Benchmarks of bansugoroku-fast: a fixed random-playout corpus, pytest-benchmark
suites, a table script and a side-by-side timing of peer engines.

Run from the repository root::

    python -m benchmarks.run            # the table of ns per (position, roll)
    python -m benchmarks.peers          # gnubg-nn, bgsage, OpenSpiel vs ours
    pytest benchmarks/ --benchmark-enable

None of it runs in the default test command (``testpaths`` leaves it out).
"""
