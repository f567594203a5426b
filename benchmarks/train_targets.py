"""Which targets pay for training on rollouts: one round from the shipped
network with 1-ply targets against one with truncated, variance-reduced
rollout targets, on the same positions (the same seed), each new network
then played against the shipped one (duplicate dice, seats swapped).

    python -m benchmarks.train_targets --rules ban/arrival/multiplied --positions 2000 --pairs 2000

Prints, for each kind of target, the seconds the targets took, the fit's
loss and the new network's points per game against the shipped network.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time

from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator
from bansugoroku_fast.evaluators.nets import network_file
from bansugoroku_fast.rules import Rules
from bansugoroku_fast.strength import duplicate_match
from bansugoroku_fast.train import RoundsConfig, train_on_rollouts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rules", default="ban/arrival/multiplied")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--rollout-games", type=int, default=36)
    parser.add_argument("--truncate", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=2000, help="duplicate pairs against the shipped network")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    shipped = NetEvaluator.load(network_file(rules), rules=rules)
    print("| targets | positions | target s | loss | ppg against the shipped network ± s.e. |")
    print("|---|---:|---:|---:|---:|")
    for target in ("ply1", "rollout"):
        config = RoundsConfig(rules=rules, seed=args.seed, rounds=1, start=network_file(rules),
                              hidden=shipped.layer_sizes[1:-1], activation=shipped.activation,
                              encoding=shipped.encoding, games=max(200, args.positions // 20),
                              positions=args.positions, target=target, rollout_games=args.rollout_games,
                              truncate=args.truncate, chunk=250, epochs=4, rate=3e-4, eval_games=10)
        with tempfile.TemporaryDirectory() as folder:
            began = time.perf_counter()
            run = train_on_rollouts(config, folder, workers=args.workers, progress=False)
            seconds = time.perf_counter() - began
            net = NetEvaluator.load(os.path.join(folder, "net.npz"), rules=rules).with_endgames()
        score = duplicate_match(rules, EvaluatorPolicy(net), "net", args.pairs, seed=11, progress=False)
        print(f"| {target} | {args.positions} | {seconds:.0f} | {run.curve[-1]['loss']:.4f} | "
              f"{score.ppg:+.3f} ± {score.stderr:.3f} |")


if __name__ == "__main__":
    main()
