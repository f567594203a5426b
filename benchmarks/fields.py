"""What the output of ``generate_plays`` costs: every field into fresh
arrays, children only, and both into preallocated ``out=`` buffers, one
thread, interleaved, median of the repeats (wall and process CPU ns per
item), with the count alone as the yardstick of the search itself.

    python -m benchmarks.fields [--size 100000] [--repeats 7]
"""
from __future__ import annotations

import numpy as np

from bansugoroku_fast import Rules, batch

from .corpus import load_corpus
from .timing import interleaved_figures, report_each_default_variant

CHILDREN = ("children",)


def main(argv: list[str] | None = None) -> None:
    report_each_default_variant(__doc__, report, argv)


def report(rules: Rules, size: int, repeats: int) -> None:
    """Check that ``out=`` gives the same plays, then time and print the measures."""
    corpus = load_corpus(rules, size)
    positions, dice = corpus.positions, corpus.dice
    whole = batch.generate_plays(positions, dice, rules, threads=1)
    buffers = batch.play_buffers(len(positions), len(whole.children))
    for fields in (batch.FIELDS, CHILDREN):  # the buffers give the same plays
        into = batch.generate_plays(positions, dice, rules, threads=1, fields=fields, out=buffers)
        if not np.array_equal(into.children, whole.children):
            raise AssertionError(f"out= buffers with fields={fields} differ from the fresh result")

    def generate(fields, out=None):
        return lambda: batch.generate_plays(positions, dice, rules, threads=1, fields=fields, out=out)

    measures = {
        "count_plays (yardstick)": (lambda: batch.count_plays(positions, dice, rules, threads=1), len(positions)),
        "every field, fresh arrays": (generate(batch.FIELDS), len(positions)),
        "children only, fresh arrays": (generate(CHILDREN), len(positions)),
        "every field, out= buffers": (generate(batch.FIELDS, buffers), len(positions)),
        "children only, out= buffers": (generate(CHILDREN, buffers), len(positions)),
    }
    figures = interleaved_figures(measures, repeats=repeats)
    print(f"{rules.short_name}: {len(positions):,} items, {len(whole.children):,} plays", flush=True)
    for name, figure in figures.items():
        print(f"  {name:28} {figure.wall:7.0f} ns wall {figure.cpu:7.0f} ns CPU", flush=True)


if __name__ == "__main__":
    main()
