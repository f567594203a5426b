"""Two builds of the kernels against each other: the batch calls timed in alternate processes.

    python -m benchmarks.builds BEFORE AFTER [--rounds 5] [--size 50000] [--repeats 7] [--calls batch]

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

``--calls single`` times the single-position calls instead, through the
public API, one call an item: ``legal_plays`` with ``len()`` and a loop
over the plays, ``legal_play_count``, ``legal_first_steps``, ``outcome``
and ``shots``, on the first ``--size`` items of each default rule set's
corpus (ns per item). ``--calls games`` times whole games: ``rollout`` of
``--size`` games from the start, one thread, with the ``"random"``,
``"heuristic"`` and (backgammon) ``"pubeval"`` policies (ns per game), and ``--size``
steps of a 64-game vector environment (``envs.BanSugorokuVectorEnv``,
the first legal play each time; ns per game-step).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

#: The measures each process times, by name, for each ``--calls``.
MEASURES = {
    "batch": ("count", "children", "every field"),
    "single": ("legal_plays + iteration", "legal_play_count", "legal_first_steps", "outcome", "shots"),
    "games": ("random rollout", "heuristic rollout", "pubeval rollout (backgammon)", "vector env step"),
}


def measure(size: int, repeats: int, kind: str = "batch") -> dict[str, object]:
    """Best ns per item (per game for ``kind`` "games") of each of the
    ``kind`` :data:`MEASURES` for both default rule sets, with the
    package's file (run inside the tree being timed)."""
    import bansugoroku_fast
    from benchmarks.corpus import DEFAULT_VARIANTS, load_corpus

    figures: dict[str, object] = {"package": bansugoroku_fast.__file__}
    for rules in DEFAULT_VARIANTS:
        if kind == "games":
            calls = game_calls(size, rules)
        else:
            corpus = load_corpus(rules, size)
            calls = (single_calls(corpus, rules) if kind == "single"
                     else batch_calls(corpus.positions, corpus.dice, rules))
        best = dict.fromkeys(calls, float("inf"))
        for _ in range(repeats):
            for name, call in calls.items():
                start = time.perf_counter()
                call()
                best[name] = min(best[name], time.perf_counter() - start)
        for name, seconds in best.items():
            figures[f"{rules.short_name} {name}"] = seconds / size * 1e9
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
    """The calls of :data:`SINGLE_MEASURES`, each a loop over the items
    of ``corpus`` (one public call an item)."""
    from bansugoroku_fast import legal_first_steps, legal_plays, outcome, shots
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


def game_calls(size: int, rules) -> dict[str, Callable[[], object]]:
    """The calls of the "games" :data:`MEASURES`, ``size`` games (or
    game-steps) each, one thread."""
    import numpy as np

    from bansugoroku_fast import Position, rollout
    from bansugoroku_fast.envs import BanSugorokuVectorEnv

    start = Position.initial(rules)
    env = BanSugorokuVectorEnv(64, rules)
    first_plays = np.zeros(64, dtype=np.int64)

    def steps() -> None:
        env.reset(seed=1)
        for _ in range(size // 64):
            env.step(first_plays)

    def rollouts(policy: str) -> Callable[[], object]:
        return lambda: rollout(start, rules, games=size, policy=policy, seed=1, threads=1)

    policies = ("random", "heuristic", "pubeval") if rules.is_backgammon else ("random", "heuristic")
    return {**{f"{policy} rollout": rollouts(policy) for policy in policies}, "vector env step": steps}


def run_in(tree: Path, size: int, repeats: int, kind: str = "batch") -> dict[str, float]:
    """:func:`measure` in a process of its own that imports ``tree``'s package."""
    # This file by its path, not as part of a package: the tree's own
    # ``benchmarks`` (which may have no builds.py) serves the corpus.
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", str(size), str(repeats), kind]
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


def markdown(before: dict[str, float], after: dict[str, float]) -> str:
    """The table: ns per item before and after, and the speed-up.

    >>> print(markdown({"ban count": 60.0}, {"ban count": 40.0}))
    | ns per item | before | after | speed-up |
    |---|---:|---:|---:|
    | ban count | 60 | 40 | 1.50x |
    """
    lines = ["| ns per item | before | after | speed-up |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {before[name]:,.0f} | {after[name]:,.0f} | {before[name] / after[name]:.2f}x |"
              for name in before]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    from .timing import load_noted, progress_bar, script_parser

    parser = script_parser(__doc__, size=50_000, repeats=7)
    parser.add_argument("before", type=Path, help="source tree built in place (the yardstick)")
    parser.add_argument("after", type=Path, help="source tree built in place")
    parser.add_argument("--rounds", type=int, default=5, help="processes per tree")
    parser.add_argument("--calls", choices=tuple(MEASURES), default="batch", help="which calls to time")
    args = parser.parse_args(argv)
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    with load_noted():
        bar = progress_bar(2 * args.rounds)
        for _ in range(args.rounds):
            for side, tree in (("before", args.before), ("after", args.after)):
                runs[side].append(run_in(tree, args.size, args.repeats, args.calls))
                if bar is not None:
                    bar.update()
        if bar is not None:
            bar.close()
    unit = "games" if args.calls == "games" else "items"
    print(f"{args.size:,} {unit} per rule set; best of {args.repeats} calls a process, "
          f"best of {args.rounds} processes a tree; before: {args.before}, after: {args.after}\n")
    print(markdown(best_of(runs["before"]), best_of(runs["after"])))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:     # a child of run_in, inside the tree it times
        print(json.dumps(measure(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] if sys.argv[4:] else "batch")))
    else:
        main()
