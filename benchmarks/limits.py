"""Memory per item of each batch output, and a long iter_plays stream in bounded memory.

    python -m benchmarks.limits                       # bytes per item, then 10^8 items streamed
    python -m benchmarks.limits --stream-items 1e7    # a shorter stream

For each rule set, on the random-playout corpus (``corpus.py``): the bytes a
``count_plays`` and a ``generate_plays`` output take per item (from the
arrays' sizes, plays per item measured on the corpus), and the peak resident
memory a ``generate_plays`` of the whole corpus adds, measured in a fresh
process. Then ``iter_plays(reuse=True)`` streams ``--stream-items`` items
(blocks of 10^6 positions, as a reader of a large file would pass them) and
reports the peak resident memory of the whole process: it stays the same
whatever the number of items.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

import numpy as np

from bansugoroku_fast import Rules, count_plays, generate_plays, iter_plays

from .corpus import load_corpus, variants

#: Bytes of one play in a PlayBatch: children int8[2, 26], steps int8[4, 2],
#: dice int8[4], hits bool[4].
PLAY_BYTES = 52 + 8 + 4 + 4
#: Bytes of one item in a PlayBatch besides its plays: its offset (int64).
ITEM_BYTES = 8
BLOCK = 1_000_000
MIB = 1 << 20


def peak_rss_bytes() -> int:
    """The peak resident set size of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def rss_bytes() -> int:
    """The resident set size of this process now (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def _child_generate(label: str) -> None:
    """In a fresh process: the peak memory one generate_plays of the corpus adds."""
    rules = Rules.parse(label)
    corpus = load_corpus(rules)
    positions, dice = corpus.positions.copy(), corpus.dice.copy()
    count_plays(positions[:10], dice[:10], rules)  # load everything the call needs
    before = rss_bytes()
    plays = generate_plays(positions, dice, rules, threads=1)
    print(peak_rss_bytes() - before, len(plays.children))


def per_item_figures(rules: Rules) -> dict[str, float]:
    corpus = load_corpus(rules)
    items = len(corpus.positions)
    plays = int(count_plays(corpus.positions, corpus.dice, rules).sum())
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.limits", "--child-generate", rules.short_name],
        capture_output=True, text=True, check=True,
    )
    added, generated = (int(word) for word in result.stdout.split())
    assert generated == plays
    return {
        "plays per item": plays / items,
        "count_plays output, bytes per item": 4,
        "generate_plays output, bytes per item": ITEM_BYTES + PLAY_BYTES * plays / items,
        "generate_plays measured peak, bytes per item": added / items,
    }


def stream(rules: Rules, total: int, progress: bool) -> tuple[int, int, float]:
    """Stream ``total`` items through iter_plays(reuse=True); (plays, peak RSS, seconds)."""
    corpus = load_corpus(rules)
    repeats = -(-BLOCK // len(corpus.positions))
    block_positions = np.concatenate([corpus.positions] * repeats)[:BLOCK]
    block_dice = np.concatenate([corpus.dice] * repeats)[:BLOCK]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="item", unit_scale=True, desc=f"stream {rules.short_name}")
    plays = 0
    begun = time.perf_counter()
    for start in range(0, total, BLOCK):
        size = min(BLOCK, total - start)
        for _, chunk in iter_plays(block_positions[:size], block_dice[:size], rules, reuse=True):
            plays += len(chunk.children)
        if bar is not None:
            bar.update(size)
    if bar is not None:
        bar.close()
    return plays, peak_rss_bytes(), time.perf_counter() - begun


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.limits", description=__doc__.splitlines()[0])
    parser.add_argument("--stream-items", type=float, default=1e8, help="items to stream (default 1e8)")
    parser.add_argument("--all-rules", action="store_true", help="all seven rule combinations")
    parser.add_argument("--child-generate", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_generate:
        _child_generate(args.child_generate)
        return
    for rules in variants(args.all_rules):
        figures = per_item_figures(rules)
        print(f"{rules.short_name}:")
        for name, value in figures.items():
            print(f"  {name}: {value:,.1f}")
        per_item = figures["generate_plays measured peak, bytes per item"]
        print(f"  so generate_plays on 5 million items needs {5e6 * per_item / (1 << 30):.1f} GiB")
    rules = variants()[-1]
    total = int(args.stream_items)
    plays, peak, seconds = stream(rules, total, progress=sys.stderr.isatty())
    print(f"iter_plays(reuse=True), {rules.short_name}: {total:,} items, {plays:,} plays in {seconds:.0f} s; "
          f"peak RSS of the process {peak / MIB:,.0f} MiB")


if __name__ == "__main__":
    main()
