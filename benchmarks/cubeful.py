"""Cubeful games against cubeless ones: games per second of the same
rollouts, one thread, timed in one run.

The shipped backgammon network plays every checker play (``"net"``). A
cubeless rollout of the opening position plays its games in the kernels'
own loop; a cubeful one (``cubeful=True``) steps them together in Python
(lockstep) and, before every roll, evaluates the cube decision of every
side that may double (``decide_many`` over the games of one cube state),
so it pays for the waves and for one more network evaluation per roll;
the cubeless rollout with the same network as a plain Python callable
(in lockstep too) separates the two costs.
The rollout of a cube decision (``rollout_cube_decision``) plays two such
rollouts (no double, double/take).

    python -m benchmarks.cubeful                  # 1,296 games each
    python -m benchmarks.cubeful --games 5184 --repeats 3
"""
from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from bansugoroku_fast import EvaluatorPolicy, Position, rollout, rollout_cube_decision


def best_seconds(run: Callable[[], object], repeats: int) -> float:
    """The fastest of ``repeats`` runs, in wall-clock seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1296, help="games per rollout (default 1296)")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each, the fastest kept (default 2)")
    args = parser.parse_args(argv)
    start = Position.initial()
    network = EvaluatorPolicy("net", rules="backgammon")

    def in_lockstep(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """The network's plays, as a plain callable: played in lockstep, as cubeful games are."""
        return network(children, offsets)

    rollout(start, "backgammon", games=36, cubeful=True, threads=1)      # the network loaded, the caches warm
    cases = {
        "cubeless rollout (kernels)": lambda: rollout(start, "backgammon", games=args.games, seed=1, threads=1),
        "cubeless rollout (lockstep)": lambda: rollout(start, "backgammon", games=args.games, seed=1, threads=1,
                                                       policy=in_lockstep),
        "cubeful rollout": lambda: rollout(start, "backgammon", games=args.games, seed=1, threads=1, cubeful=True),
        "cube decision rollout (x2 games)": lambda: rollout_cube_decision(start, "backgammon", games=args.games,
                                                                          seed=1, threads=1),
    }
    print(f"{args.games} games from the opening position, backgammon, policy 'net', one thread "
          f"(best of {args.repeats})")
    print(f"{'':36s} {'seconds':>8s} {'games/s':>9s}")
    baseline = None
    for name, run in cases.items():
        seconds = best_seconds(run, args.repeats)
        games = args.games * (2 if name.startswith("cube decision") else 1)
        baseline = baseline or games / seconds
        print(f"{name:36s} {seconds:8.2f} {games / seconds:9.0f}   {games / seconds / baseline:5.2f}x")


if __name__ == "__main__":
    main()
