"""Microseconds per step of the single environment (``BanSugorokuEnv``),
for either action kind, against a yardstick measured in the same run.

A step is one agent action chosen at random among the masked ones, and
everything the environment does inside ``step`` (the opponent's replies,
``"random"``, the passes, the observation). Episodes restart with
``reset()`` when they end (its cost is counted too). The yardstick is one
typed ``legal_plays(Position, (6, 5), Rules)`` call at the start position:
the target, 60 us a step on a machine where that call costs 1.2 us, is a
step at most 50 such calls.

    python -m benchmarks.single_env [--steps 2000] [--repeats 5]
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bansugoroku_fast import Position, Rules, legal_plays
from bansugoroku_fast.envs import BanSugorokuEnv

from .corpus import DEFAULT_VARIANTS
from .timing import interleaved_figures, load_noted, script_parser

#: The target in yardstick calls: 60 us over 1.2 us.
TARGET_CALLS = 50


def stepping(rules: Rules, actions: str, steps: int) -> Callable[[], None]:
    """``steps`` random masked steps of a fresh environment, from seed 1."""
    def run() -> None:
        env = BanSugorokuEnv(rules, actions=actions)
        generator = np.random.default_rng(0)
        observation, _ = env.reset(seed=1)
        for _ in range(steps):
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, truncated, _ = env.step(int(legal[int(generator.random() * len(legal))]))
            if terminated or truncated:
                observation, _ = env.reset()

    return run


def yardstick(rules: Rules, calls: int) -> Callable[[], None]:
    start = Position.initial()

    def run() -> None:
        for _ in range(calls):
            legal_plays(start, (6, 5), rules)

    return run


def main(argv: list[str] | None = None) -> None:
    parser = script_parser(__doc__, repeats=5)
    parser.add_argument("--steps", type=int, default=2000, help="steps per repeat and action kind")
    args = parser.parse_args(argv)
    with load_noted():
        for rules in DEFAULT_VARIANTS:
            measures = {"legal_plays call": (yardstick(rules, 20 * args.steps), 20 * args.steps),
                        "step (per stone)": (stepping(rules, "step", args.steps), args.steps),
                        "step (whole play)": (stepping(rules, "play", args.steps), args.steps)}
            figures = interleaved_figures(measures, args.repeats)
            base = figures["legal_plays call"].wall
            print(f"{rules.short_name}: median of {args.repeats}, wall us (CPU us), in yardstick calls")
            for name, figure in figures.items():
                print(f"  {name:<18} {figure.wall / 1e3:8.2f} ({figure.cpu / 1e3:8.2f})   {figure.wall / base:6.1f}")
            for name in ("step (per stone)", "step (whole play)"):
                calls = figures[name].wall / base
                verdict = "met" if calls <= TARGET_CALLS else "NOT met"
                print(f"  {name}: {calls:.1f} calls, target <= {TARGET_CALLS}: {verdict}"
                      f" (60 us at 1.2 us a call; here {TARGET_CALLS * base / 1e3:.1f} us)")


if __name__ == "__main__":
    main()
