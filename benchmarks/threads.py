"""Thread scaling of the batch kernels on a large batch: every corpus
position with each of the 21 rolls (2.1 million items by default), counted
and generated with 1 and 2 threads in turn, median of the repeats.

    python -m benchmarks.threads [--size 100000] [--repeats 7]

The ratio means something only with both cores idle: the load average is
printed before and after.
"""
from __future__ import annotations

import argparse
import os

import numpy as np

from bansugoroku_fast import Rules, batch, oracle

from .corpus import load_corpus
from .timing import interleaved_figures

ROLLS = np.array(oracle.ALL_ROLLS, dtype=np.int8)


def every_roll(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each position repeated with each of the 21 distinct rolls."""
    repeated = np.ascontiguousarray(np.repeat(positions, len(ROLLS), axis=0))
    dice = np.ascontiguousarray(np.tile(ROLLS, (len(positions), 1)))
    return repeated, dice


def _stream(positions, dice, rules, threads) -> int:
    return sum(len(c.children) for _, c in batch.iter_plays(positions, dice, rules, threads=threads, reuse=True))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=None, help="corpus positions (default: the corpus default)")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}", flush=True)
    for rules in (Rules(), Rules(variant="backgammon")):
        corpus = load_corpus(rules, args.size)
        positions, dice = every_roll(corpus.positions)
        measures = {}
        for threads in (1, 2):
            measures[f"count {threads}"] = (
                lambda t=threads: batch.count_plays(positions, dice, rules, threads=t), len(positions))
            measures[f"stream {threads}"] = (
                lambda t=threads: _stream(positions, dice, rules, t), len(positions))
        figures = interleaved_figures(measures, repeats=args.repeats)
        ns = {name: figure.wall for name, figure in figures.items()}
        for kind in ("count", "stream"):
            one, two = ns[f"{kind} 1"], ns[f"{kind} 2"]
            print(f"{rules.short_name:24} {kind:6} 1 thread {one:6.1f} ns, 2 threads {two:6.1f} ns: x{one / two:.2f}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
