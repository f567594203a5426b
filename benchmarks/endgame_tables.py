"""What the exact endgame tables change in the shipped evaluators: the
shipped network with the tables (``"net"``: ``NetEvaluator.shipped``)
against the same weights without them (``NetEvaluator.load`` of the file).

**Move quality in bear-offs.** From ``--games`` games of ``"net"``
self-play (seed ``--seed``), every (position, roll) whose position has both
sides on the tables' points and at least two plays: each play valued by
the tables (``race_scores``: exact where both sides have at most 6 stones
there, the one-sided convolution elsewhere), and the equity each player's
choice gives up against the best, in millipoints a move; "exact" counts
only the items the two-sided table values exactly.

**Rollouts in races.** A few races outside the tables (stones still to
come home) rolled out with ``--rollout-games`` games, seeds ``0 ..
--seeds - 1``, variance-reduced, by each player: the standard error the
rollout reports and the spread of its equity over seeds.

    python -m benchmarks.endgame_tables --games 200 --rollout-games 1296 --seeds 3
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from bansugoroku_fast import Position, generate_plays, play_games, rollout
from bansugoroku_fast.endgames import race_batch, race_scores
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator
from bansugoroku_fast.evaluators.nets import network_file
from bansugoroku_fast.rules import Rules

#: Races outside the tables (row 0 to roll), by name: (rules label, board rows).
RACES = {
    "backgammon, 15 a side, a few to bring home": (
        "backgammon", [[0, 3, 3, 3, 2, 2, 0, 1, 1, 0] + [0] * 16, [0, 2, 3, 3, 3, 2, 0, 0, 1, 1] + [0] * 16]),
    "backgammon, long race": (
        "backgammon", [[0, 2, 2, 2, 2, 2, 2, 0, 1, 1, 1] + [0] * 15, [0, 0, 2, 2, 2, 2, 2, 0, 0, 2, 2, 1] + [0] * 14]),
    "ban/bear_off, 15 a side": (
        "ban/bear_off/multiplied", [[0, 3, 3, 3, 2, 2, 0, 1, 1, 0] + [0] * 16,
                                    [0, 2, 3, 3, 3, 2, 0, 0, 1, 1] + [0] * 16]),
    "ban/arrival, stones outside": (
        "ban/arrival/multiplied", [[0, 5, 0, 0, 0, 0, 0, 3, 2, 2, 2, 1] + [0] * 14,
                                   [0, 4, 0, 0, 0, 0, 0, 2, 3, 2, 2, 1, 0, 1] + [0] * 12]),
}


def players(rules: Rules) -> dict[str, NetEvaluator]:
    return {"without tables": NetEvaluator.load(network_file(rules), rules=rules),
            "with tables (\"net\")": NetEvaluator.shipped(rules)}


def bear_off_items(rules: Rules, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(positions, dice) of self-play where both sides are on the tables' points, with a choice."""
    records = play_games(rules, games, policy="net", seed=seed)
    tabled = race_batch(records.positions, rules, outside="nan").in_table
    positions, dice = records.positions[tabled], records.dice[tabled]
    counts = np.diff(generate_plays(positions, dice, rules, fields=("children",)).offsets)
    return np.ascontiguousarray(positions[counts > 1]), np.ascontiguousarray(dice[counts > 1])


def move_quality(rules: Rules, games: int, seed: int) -> None:
    positions, dice = bear_off_items(rules, games, seed)
    plays = generate_plays(positions, dice, rules, fields=("children",))
    exact_values = race_scores(plays.children, rules)
    item = np.repeat(np.arange(len(positions)), np.diff(plays.offsets))
    best = np.full(len(positions), -np.inf)
    np.maximum.at(best, item, exact_values)
    small = race_batch(positions, rules).two_sided
    for name, net in players(rules).items():
        choice = EvaluatorPolicy(net)(plays.children, plays.offsets)
        loss = 1000 * (best - exact_values[plays.offsets[:-1] + choice])
        print(f"| {rules.short_name} | {name} | {len(positions)} | {loss.mean():.2f} | {loss[small].mean():.2f} "
              f"({int(small.sum())}) | {100 * (loss < 1e-9).mean():.1f}% |")


def rollouts(rollout_games: int, seeds: int) -> None:
    for label, (rules_label, rows) in RACES.items():
        rules = Rules.parse(rules_label)
        for name, net in players(rules).items():
            results, began = [], time.perf_counter()
            for seed in range(seeds):
                results.append(rollout(Position(rows), rules, games=rollout_games, policy=EvaluatorPolicy(net),
                                       seed=seed, variance_reduction=True, threads=1))
            seconds = (time.perf_counter() - began) / seeds
            equities = [float(r.equity) for r in results]
            spread = statistics.stdev(equities) if seeds > 1 else float("nan")
            print(f"| {label} | {name} | {statistics.mean(equities):+.4f} | "
                  f"{statistics.mean(float(r.stderr) for r in results):.4f} | {spread:.4f} | {seconds:.1f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="self-play games giving the bear-off items")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollout-games", type=int, default=1296)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    print("| rules | player | items | mean loss (mp) | exactly valued items: loss (items) | best chosen |")
    print("|---|---|---:|---:|---:|---:|")
    for label in ("backgammon", "ban/bear_off/multiplied", "ban/arrival/multiplied"):
        move_quality(Rules.parse(label), args.games, args.seed)
    print()
    print("| race | player | equity | reported s.e. | s.d. over seeds | s a rollout |")
    print("|---|---|---:|---:|---:|---:|")
    rollouts(args.rollout_games, args.seeds)


if __name__ == "__main__":
    main()
