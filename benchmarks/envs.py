"""Steps per second of the native vector environment against Gymnasium's
``SyncVectorEnv`` over the single environment, same number of
sub-environments, whole-play actions chosen at random among the legal ones.

    python -m benchmarks.envs [--envs 256] [--steps 200] [--repeats 5]

A step is one agent play in every sub-environment (and the opponent's reply,
``"random"``, inside the step, as in the single environment). Both run in
turn within each repeat (median kept), from the same seed; both pay the
same numpy draw of random actions per step.
"""
from __future__ import annotations

import argparse
import os
from datetime import date

import gymnasium
import numpy as np

from bansugoroku_fast import Rules
from bansugoroku_fast.envs import BanSugorokuEnv, BanSugorokuVectorEnv

from .timing import interleaved_figures


def random_legal(masks: np.ndarray, generator: np.random.Generator) -> np.ndarray:
    """A random legal play per sub-environment (the legal plays are the
    first ``mask.sum()`` indices)."""
    return (generator.random(len(masks)) * masks.sum(axis=1)).astype(np.int64)


def runner(env: gymnasium.vector.VectorEnv, steps: int):
    def run() -> None:
        generator = np.random.default_rng(0)
        observations, _ = env.reset(seed=1)
        for _ in range(steps):
            observations, *_ = env.step(random_legal(observations["action_mask"], generator))

    return run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=256, help="sub-environments")
    parser.add_argument("--steps", type=int, default=200, help="vector steps per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{date.today().isoformat()}; load average before: {os.getloadavg()}", flush=True)
    for rules in (Rules(), Rules(variant="backgammon")):
        native = BanSugorokuVectorEnv(args.envs, rules, opponent="random")
        sync = gymnasium.vector.SyncVectorEnv(
            [lambda r=rules: BanSugorokuEnv(r, opponent="random", actions="play")] * args.envs,
            autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
        )
        items = args.envs * args.steps
        figures = interleaved_figures(
            {"native": (runner(native, args.steps), items), "sync": (runner(sync, args.steps), items)},
            repeats=args.repeats,
        )
        native_rate, sync_rate = 1e9 / figures["native"].wall, 1e9 / figures["sync"].wall
        print(f"{rules.short_name}: {args.envs} sub-environments, sub-environment steps per second: "
              f"native {native_rate:,.0f}, SyncVectorEnv {sync_rate:,.0f}: x{native_rate / sync_rate:.1f}",
              flush=True)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
