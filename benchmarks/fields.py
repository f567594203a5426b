"""What the output of ``generate_plays`` costs: every field into fresh
arrays, children only, and both into preallocated ``out=`` buffers, one
thread, interleaved, median of the repeats (wall and process CPU ns per
item), with the count alone as the yardstick of the search itself.

    python -m benchmarks.fields [--size 100000] [--repeats 7]
"""
from __future__ import annotations

import argparse
import os
from datetime import date

import numpy as np

from bansugoroku_fast import Rules, batch

from .corpus import DEFAULT_SIZE, load_corpus
from .timing import interleaved_figures

CHILDREN = ("children",)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=DEFAULT_SIZE, help="corpus items")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    print(f"{date.today().isoformat()}; load average before: {os.getloadavg()}", flush=True)
    for rules in (Rules(), Rules(variant="backgammon")):
        corpus = load_corpus(rules, args.size)
        positions, dice = corpus.positions, corpus.dice
        whole = batch.generate_plays(positions, dice, rules, threads=1)
        buffers = batch.play_buffers(len(positions), len(whole.children))
        for fields in (batch.FIELDS, CHILDREN):  # the buffers give the same plays
            into = batch.generate_plays(positions, dice, rules, threads=1, fields=fields, out=buffers)
            if not np.array_equal(into.children, whole.children):
                raise AssertionError(f"out= buffers with fields={fields} differ from the fresh result")

        def generate(fields, out=None):
            return lambda: batch.generate_plays(positions, dice, rules, threads=1, fields=fields, out=out)  # noqa: B023 (timed within this iteration)

        measures = {
            "count_plays (yardstick)": (lambda: batch.count_plays(positions, dice, rules, threads=1), len(positions)),  # noqa: B023
            "every field, fresh arrays": (generate(batch.FIELDS), len(positions)),
            "children only, fresh arrays": (generate(CHILDREN), len(positions)),
            "every field, out= buffers": (generate(batch.FIELDS, buffers), len(positions)),
            "children only, out= buffers": (generate(CHILDREN, buffers), len(positions)),
        }
        figures = interleaved_figures(measures, repeats=args.repeats)
        print(f"{rules.short_name}: {len(positions):,} items, {len(whole.children):,} plays", flush=True)
        for name, figure in figures.items():
            print(f"  {name:28} {figure.wall:7.0f} ns wall {figure.cpu:7.0f} ns CPU", flush=True)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
