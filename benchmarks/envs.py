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

import gymnasium
import numpy as np

from bansugoroku_fast import Rules
from bansugoroku_fast.envs import BanSugorokuEnv, BanSugorokuVectorEnv

from .corpus import DEFAULT_VARIANTS
from .timing import interleaved_figures, load_noted, script_parser


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
    parser = script_parser(__doc__, repeats=5)
    parser.add_argument("--envs", type=int, default=256, help="sub-environments")
    parser.add_argument("--steps", type=int, default=200, help="vector steps per repeat")
    args = parser.parse_args(argv)
    with load_noted():
        for rules in DEFAULT_VARIANTS:
            report(rules, args.envs, args.steps, args.repeats)


def report(rules: Rules, envs: int, steps: int, repeats: int) -> None:
    """Time and print the native vector environment against SyncVectorEnv."""
    native = BanSugorokuVectorEnv(envs, rules, opponent="random")
    sync = gymnasium.vector.SyncVectorEnv(
        [lambda: BanSugorokuEnv(rules, opponent="random", actions="play")] * envs,
        autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
    )
    items = envs * steps
    figures = interleaved_figures(
        {"native": (runner(native, steps), items), "sync": (runner(sync, steps), items)},
        repeats=repeats,
    )
    native_rate, sync_rate = 1e9 / figures["native"].wall, 1e9 / figures["sync"].wall
    print(f"{rules.short_name}: {envs} sub-environments, sub-environment steps per second: "
          f"native {native_rate:,.0f}, SyncVectorEnv {sync_rate:,.0f}: x{native_rate / sync_rate:.1f}",
          flush=True)

if __name__ == "__main__":
    main()
