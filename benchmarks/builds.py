"""Two builds of the kernels against each other: the batch calls timed in alternate processes.

    python -m benchmarks.builds BEFORE AFTER [--rounds 5] [--size 50000] [--repeats 7]
    python -m benchmarks.builds BEFORE AFTER --games 20000 [--rounds 5] [--repeats 3]
    python -m benchmarks.builds BEFORE AFTER --calls {single,env} [--size 20000] [--rounds 5] [--repeats 5]

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

``--calls single`` times the single-position calls, through the public
API, one call an item: ``legal_plays`` with ``len()`` and a loop over the
plays, ``legal_play_count``, ``legal_first_steps``, ``outcome`` and
``shots``, on the first ``--size`` items of each default rule set's corpus
(ns per item). ``--calls env`` times ``--size // 64`` steps of a 64-game
vector environment (``envs.BanSugorokuVectorEnv``, the first legal play
each time; ns per game-step).
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
#: The measures of ``--calls``, by its value.
CALLS = {
    "batch": MEASURES,
    "single": ("legal_plays + iteration", "legal_play_count", "legal_first_steps", "outcome", "shots"),
    "env": ("vector env step",),
}


def measure(size: int, repeats: int, kind: str = "batch") -> dict[str, object]:
    """Best ns per item of each of the ``kind`` :data:`CALLS` for both
    default rule sets, with the package's file (run inside the tree being
    timed)."""
    import bansugoroku_fast
    from benchmarks.corpus import DEFAULT_VARIANTS, load_corpus

    figures: dict[str, object] = {"package": bansugoroku_fast.__file__}
    for rules in DEFAULT_VARIANTS:
        corpus = load_corpus(rules, size)
        if kind == "single":
            calls = single_calls(corpus, rules)
        elif kind == "env":
            calls = env_calls(size, rules)
        else:
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


def single_calls(corpus, rules) -> dict[str, Callable[[], object]]:
    """The "single" :data:`CALLS`, each a loop over the items of
    ``corpus`` (one public call an item)."""
    import bansugoroku_fast
    from bansugoroku_fast import legal_first_steps, legal_plays, outcome, shots

    # Where the tree keeps it: moves (after the package's reshaping), api
    # (before). Asked of the tree's files, not by trying the import: an
    # editable install of another tree would answer for a missing module.
    if (Path(bansugoroku_fast.__file__).parent / "moves.py").exists():
        from bansugoroku_fast.moves import legal_play_count
    else:
        from bansugoroku_fast.api import legal_play_count

    items = corpus.items()

    def iteration() -> None:
        for position, dice in items:
            plays = legal_plays(position, dice, rules)
            len(plays)
            for _ in plays:
                pass

    def over_items(call: Callable[..., object], with_dice: bool) -> Callable[[], None]:
        def loop() -> None:
            for position, dice in items:
                call(position, dice, rules) if with_dice else call(position, rules)
        return loop

    return {
        "legal_plays + iteration": iteration,
        "legal_play_count": over_items(legal_play_count, True),
        "legal_first_steps": over_items(legal_first_steps, True),
        "outcome": over_items(outcome, False),
        "shots": over_items(shots, False),
    }


def env_calls(size: int, rules) -> dict[str, Callable[[], object]]:
    """The "env" :data:`CALLS`: ``size // 64`` steps of 64 games from a reset."""
    import numpy as np

    from bansugoroku_fast.envs import BanSugorokuVectorEnv

    env = BanSugorokuVectorEnv(64, rules)
    first_plays = np.zeros(64, dtype=np.int64)

    def steps() -> None:
        env.reset(seed=1)
        for _ in range(size // 64):
            env.step(first_plays)

    return {"vector env step": steps}


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


def run_in(tree: Path, size: int, repeats: int, games: int = 0, kind: str = "batch") -> dict[str, float]:
    """:func:`measure` (or with ``games``, :func:`measure_games`) in a
    process of its own that imports ``tree``'s package."""
    # This file by its path, not as part of a package: the tree's own
    # ``benchmarks`` (which may have no builds.py) serves the corpus.
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", str(size), str(repeats), str(games), kind]
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
    parser.add_argument("--calls", choices=tuple(CALLS), default="batch", help="which calls to time (not --games)")
    args = parser.parse_args(argv)
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    with load_noted():
        bar = progress_bar(2 * args.rounds)
        for _ in range(args.rounds):
            for side, tree in (("before", args.before), ("after", args.after)):
                runs[side].append(run_in(tree, args.size, args.repeats, args.games, args.calls))
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
        print(json.dumps(measure_games(games, repeats) if games else measure(size, repeats, sys.argv[5])))
    else:
        main()
