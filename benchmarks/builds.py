"""Two builds of the kernels against each other: the batch calls timed in alternate processes.

    python -m benchmarks.builds BEFORE AFTER [--rounds 5] [--size 50000] [--repeats 7]
    python -m benchmarks.builds BEFORE AFTER --games 20000 [--rounds 5] [--repeats 3]

BEFORE and AFTER are source trees of this project with their kernels built
in place (``python setup.py build_ext --inplace``; ``git worktree add
/tmp/before COMMIT`` gives one of an older commit). Two builds cannot share
a process (their extension modules have the same names), so each round runs
one process per tree, in turn (before, after, before, after, ...): slow
spells of a shared machine then hit both alike. Each process times
``count_plays`` and ``generate_plays`` (children only, and every field),
one thread, fresh output, on the corpus of each default rule set
(``corpus.py``, read from the tree's own cache or built there), best of
``--repeats`` calls; the table keeps each measure's best process and the
speed-up, before / after.

``--games N`` times whole games instead: ``rollout`` of N ``"random"``
games from each default rule set's start, one thread, best CPU time of
``--repeats`` calls (CPU time: a single-threaded call on a shared machine),
in ns per game, with the games per second.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

#: The measures each process times, by name.
MEASURES = ("count", "children", "every field")


def measure(size: int, repeats: int) -> dict[str, object]:
    """Best ns per item of each of :data:`MEASURES` for both default rule
    sets, with the package's file (run inside the tree being timed)."""
    import bansugoroku_fast
    from benchmarks.corpus import DEFAULT_VARIANTS, load_corpus

    figures: dict[str, object] = {"package": bansugoroku_fast.__file__}
    for rules in DEFAULT_VARIANTS:
        corpus = load_corpus(rules, size)
        calls = batch_calls(corpus.positions, corpus.dice, rules)
        best = dict.fromkeys(calls, float("inf"))
        for _ in range(repeats):
            for name, call in calls.items():
                start = time.perf_counter()
                call()
                best[name] = min(best[name], time.perf_counter() - start)
        for name, seconds in best.items():
            figures[f"{rules.short_name} {name}"] = seconds / len(corpus.positions) * 1e9
    return figures


def batch_calls(positions, dice, rules) -> dict[str, Callable[[], object]]:
    """The calls of :data:`MEASURES` on these items, one thread each."""
    from bansugoroku_fast import batch

    return {
        "count": lambda: batch.count_plays(positions, dice, rules, threads=1),
        "children": lambda: batch.generate_plays(positions, dice, rules, threads=1, fields=("children",)),
        "every field": lambda: batch.generate_plays(positions, dice, rules, threads=1),
    }


def measure_games(games: int, repeats: int) -> dict[str, object]:
    """Best CPU ns per game of ``games`` random games from the start of
    both default rule sets (``rollout``, one thread), with the package's file."""
    import bansugoroku_fast
    from bansugoroku_fast import Position, Rules, rollout

    figures: dict[str, object] = {"package": bansugoroku_fast.__file__}
    for rules in (Rules(), Rules(variant="backgammon")):
        start, best = Position.initial(rules), float("inf")
        for _ in range(repeats):
            began = time.process_time()
            rollout(start, rules, games, "random", threads=1)
            best = min(best, time.process_time() - began)
        figures[f"{rules.short_name} random games"] = best / games * 1e9
    return figures


def run_in(tree: Path, size: int, repeats: int, games: int = 0) -> dict[str, float]:
    """:func:`measure` (or with ``games``, :func:`measure_games`) in a
    process of its own that imports ``tree``'s package."""
    # This file by its path, not as part of a package: the tree's own
    # ``benchmarks`` (which may have no builds.py) serves the corpus.
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", str(size), str(repeats), str(games)]
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, cwd=tree, env=environment, capture_output=True, text=True, check=True)
    figures = json.loads(done.stdout)
    package = Path(figures.pop("package")).resolve()
    if tree.resolve() not in package.parents:
        raise SystemExit(f"{tree}: the process imported {package}, not this tree's package")
    return figures


def best_of(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each measure's best (lowest) figure over the runs.

    >>> best_of([{"a": 3.0, "b": 1.0}, {"a": 2.0, "b": 4.0}])
    {'a': 2.0, 'b': 1.0}
    """
    return {name: min(run[name] for run in runs) for name in runs[0]}


def markdown(before: dict[str, float], after: dict[str, float], item: str = "item") -> str:
    """The table: ns per item before and after, and the speed-up (with
    ``item="game"``, the games per second too).

    >>> print(markdown({"ban count": 60.0}, {"ban count": 40.0}))
    | ns per item | before | after | speed-up |
    |---|---:|---:|---:|
    | ban count | 60 | 40 | 1.50x |
    >>> print(markdown({"ban random games": 40_000.0}, {"ban random games": 10_000.0}, "game"))
    | ns per game | before | after | speed-up | games/s before | after |
    |---|---:|---:|---:|---:|---:|
    | ban random games | 40,000 | 10,000 | 4.00x | 25,000 | 100,000 |
    """
    rates = item == "game"
    lines = [f"| ns per {item} | before | after | speed-up |" + (" games/s before | after |" if rates else ""),
             "|---|---:|---:|---:|" + ("---:|---:|" if rates else "")]
    for name in before:
        line = f"| {name} | {before[name]:,.0f} | {after[name]:,.0f} | {before[name] / after[name]:.2f}x |"
        if rates:
            line += f" {1e9 / before[name]:,.0f} | {1e9 / after[name]:,.0f} |"
        lines.append(line)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    from .timing import load_noted, progress_bar, script_parser

    parser = script_parser(__doc__, size=50_000, repeats=7)
    parser.add_argument("before", type=Path, help="source tree built in place (the yardstick)")
    parser.add_argument("after", type=Path, help="source tree built in place")
    parser.add_argument("--rounds", type=int, default=5, help="processes per tree")
    parser.add_argument("--games", type=int, default=0, help="time N random games a rule set instead")
    args = parser.parse_args(argv)
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    with load_noted():
        bar = progress_bar(2 * args.rounds)
        for _ in range(args.rounds):
            for side, tree in (("before", args.before), ("after", args.after)):
                runs[side].append(run_in(tree, args.size, args.repeats, args.games))
                if bar is not None:
                    bar.update()
        if bar is not None:
            bar.close()
    what = f"{args.games:,} random games (CPU time)" if args.games else f"{args.size:,} items"
    print(f"{what} per rule set; best of {args.repeats} calls a process, "
          f"best of {args.rounds} processes a tree; before: {args.before}, after: {args.after}\n")
    print(markdown(best_of(runs["before"]), best_of(runs["after"]), "game" if args.games else "item"))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:     # a child of run_in, inside the tree it times
        size, repeats, games = (int(value) for value in sys.argv[2:5])
        print(json.dumps(measure_games(games, repeats) if games else measure(size, repeats)))
    else:
        main()
