"""Rollouts with variance reduction and truncation against the played-out
rollout, at equal games: the standard error each reports, the spread of
the equity over seeds, and the games per second.

The reference positions are the start of each rules' game after the side
to move has played 3-1 as ``"net"`` plays it (0-ply), the other side to
roll: a position whose rollout every engine shows. Each is rolled out with
``policy="net"``, ``games`` games, ``stratify=36``, seeds ``seed ..
seed + seeds - 1``, four ways: played out (the net in the kernels), with
``variance_reduction=True``, with ``truncate=10``, and with both. The
target: with variance reduction, a standard error at most half the
played-out one (column "s.e. / played out", the mean over seeds).

    python -m benchmarks.variance_reduction --games 1296 --seeds 3
"""
from __future__ import annotations

import argparse
import statistics
import time

from bansugoroku_fast import Position, best_plays, rollout
from bansugoroku_fast.evaluators import NetEvaluator
from bansugoroku_fast.rules import Rules

#: name: the rollout's keyword arguments
KINDS = {
    "played out": {},
    "variance reduction": {"variance_reduction": True},
    "truncated at 10 plies": {"truncate": 10},
    "truncated at 10 plies, variance reduction": {"truncate": 10, "variance_reduction": True},
}


def reference_position(rules: Rules) -> Position:
    """The start after the net's 0-ply 3-1, seen by the side to roll next."""
    best = best_plays(Position.initial(rules), (3, 1), rules, NetEvaluator.shipped(rules))[0]
    return best.play.position.swapped()


def measure(position: Position, rules: Rules, games: int, seeds: range, kind: dict) -> dict[str, float]:
    """Equities, reported standard errors and seconds over ``seeds``."""
    equities, errors, seconds = [], [], 0.0
    for seed in seeds:
        began = time.perf_counter()
        result = rollout(position, rules, games=games, policy="net", seed=seed, stratify=36, threads=1,
                         progress=True, **kind)
        seconds += time.perf_counter() - began
        equities.append(result.equity)
        errors.append(result.stderr)
    return {"equity": statistics.fmean(equities), "stderr": statistics.fmean(errors),
            "spread": statistics.stdev(equities) if len(equities) > 1 else float("nan"),
            "games_per_second": games * len(seeds) / seconds}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1296)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=["backgammon", "ban-sugoroku"])
    arguments = parser.parse_args(argv)
    seeds = range(arguments.seed, arguments.seed + arguments.seeds)
    print(f"| rules | position | rollout | equity | s.e. (reported) | s.e. / played out | spread over seeds "
          f"| games/s |  ({arguments.games} games x {arguments.seeds} seeds, policy net, stratify 36, one thread)")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for label in arguments.rules:
        rules = Rules.parse(label)
        position = reference_position(rules)
        played = None
        for name, kind in KINDS.items():
            figures = measure(position, rules, arguments.games, seeds, kind)
            played = played or figures
            ratio = figures["stderr"] / played["stderr"]
            print(f"| {label} | `{position.id}` | {name} | {figures['equity']:+.4f} | {figures['stderr']:.4f} "
                  f"| {ratio:.3f} | {figures['spread']:.4f} | {figures['games_per_second']:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
