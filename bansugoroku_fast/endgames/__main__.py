"""``python -m bansugoroku_fast.endgames``: build the endgame tables into
the cache directory, or compare the one-sided approximation with the exact
two-sided tables.

* ``build [--kind NAME ...]``: build (every kind, or those named) with a
  progress bar and write them to the cache; exit status 1 when the cache
  directory cannot be written (the message says where and why);
* ``compare [--plot FILE]``: for each kind, the largest and mean difference
  in the winning chance between the one-sided convolution and the exact
  table, over every pair of positions of 1 to 6 stones, and where the
  largest is; ``--plot`` draws how the differences spread (matplotlib);
* ``cube [--plot FILE]``: Janowski's 0-ply money cube figures (GNU
  Backgammon's bear-off efficiency, 0.6) against the exact cubeful
  backgammon table: the largest and mean difference per cube state, how
  often the proper action differs and what that costs;
  ``--plot`` draws how the differences spread.
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np
from tqdm import tqdm

from ..errors import EndgameCacheError
from .races import one_sided_differences, one_sided_error
from .store import CUBE_STATES, KINDS, ROWS_PER_KIND, TableKind, build, cache_path, kind_rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bansugoroku_fast.endgames",
                                     description="Build the exact endgame tables, or compare them.")
    commands = parser.add_subparsers(dest="command", required=True)
    build_command = commands.add_parser("build", help="build every table (or those of --kind) and cache them")
    build_command.add_argument("--kind", action="append", choices=sorted(KINDS),
                               help="a kind of table to build (repeatable; default: all)")
    compare_command = commands.add_parser("compare", help="the one-sided approximation against the exact tables")
    compare_command.add_argument("--plot", metavar="FILE", help="draw the spread of the differences to FILE")
    cube_command = commands.add_parser("cube", help="Janowski's cube figures against the exact cubeful table")
    cube_command.add_argument("--plot", metavar="FILE", help="draw the spread of the differences to FILE")
    arguments = parser.parse_args(argv)
    if arguments.command == "compare":
        return compare(arguments.plot)
    if arguments.command == "cube":
        return compare_cube(arguments.plot)
    return build_all([KINDS[name] for name in (arguments.kind or list(KINDS))])


def build_all(kinds: list[TableKind]) -> int:
    with tqdm(total=ROWS_PER_KIND * len(kinds), unit="row", desc="endgame tables") as bar:
        for kind in kinds:
            done_before = bar.n

            def report(rows: int, start: int = done_before) -> None:
                bar.update(start + rows - bar.n)

            started = time.perf_counter()
            try:
                build(kind_rules(kind), cache=True, progress=report)
            except EndgameCacheError as error:
                bar.close()
                print(f"error: {error}", file=sys.stderr)
                return 1
            bar.write(f"{kind.name}: built in {time.perf_counter() - started:.1f} s, written to {cache_path(kind)}")
    return 0


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, or None (with the message) if it is not installed."""
    try:
        import matplotlib
    except ImportError:
        print("error: --plot needs matplotlib: pip install 'bansugoroku-fast[plot]'", file=sys.stderr)
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def compare_cube(plot: str | None) -> int:
    from ..cube.exact import janowski_comparison, janowski_differences

    found = janowski_comparison()
    print("| cube | largest difference | mean difference |")
    print("|---|---:|---:|")
    for name, largest, mean in zip(CUBE_STATES, found.largest, found.mean):
        print(f"| {name} | {largest:.4f} | {mean:.4f} |")
    print(f"\ncube centred: the proper action differs on {100 * found.action_differs:.1f}% of the pairs; "
          f"Janowski's action costs {found.mean_cost:.5f} on average, at most {found.largest_cost:.4f} "
          f"({found.position.id})")
    if plot is not None:
        plt = _pyplot()
        if plt is None:
            return 1
        figure, axes = plt.subplots(figsize=(7, 4))
        differences = np.abs(janowski_differences()[1:, 1:])
        bins = np.logspace(-8, 0, 50).tolist()
        for column, name in enumerate(CUBE_STATES):
            axes.hist(np.maximum(differences[..., column].ravel(), 1e-8), bins=bins, histtype="step", label=name)
        axes.set(xscale="log", yscale="log", xlabel="|Janowski (x = 0.6) - exact| money equity, no double "
                 "(below 1e-8: at 1e-8)", ylabel="pairs of positions (up to 6 stones a side)",
                 title="Janowski's cube figures against the exact cubeful table")
        axes.legend(title="cube")
        figure.tight_layout()
        figure.savefig(plot)
        print(f"plot written to {plot}")
    return 0


def compare(plot: str | None) -> int:
    print("| kind | largest difference | mean difference | where (row 0 to roll) |")
    print("|---|---:|---:|---|")
    for kind in KINDS.values():
        error = one_sided_error(kind_rules(kind))
        print(f"| {kind.name} | {error.largest:.4f} | {error.mean:.6f} | {error.position.id} |")
    if plot is not None:
        plt = _pyplot()
        if plt is None:
            return 1
        figure, axes = plt.subplots(figsize=(7, 4))
        bins = np.logspace(-8, -1, 50).tolist()
        for kind in KINDS.values():
            differences = np.abs(one_sided_differences(kind_rules(kind))[1:, 1:]).ravel()
            axes.hist(np.maximum(differences, 1e-8), bins=bins, histtype="step", label=kind.name)
        axes.set(xscale="log", yscale="log", xlabel="|one-sided - exact| winning chance (below 1e-8: at 1e-8)",
                 ylabel="pairs of positions (up to 6 stones a side)",
                 title="One-sided approximation against the exact two-sided tables")
        axes.legend()
        figure.tight_layout()
        figure.savefig(plot)
        print(f"plot written to {plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
