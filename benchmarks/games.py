"""Whole games: speed against the yardsticks, thread scaling, policy win
rates, and what stratified first rolls buy.

    python -m benchmarks.games [--games 20000] [--repeats 5] [--seeds 60] [--parts speed,wins,strata]

* **Speed** (games per second, from the median CPU time of interleaved
  repeats; one thread unless said): random backgammon games from the start
  by ``rollout(..., policy="random", threads=1)`` against (a) the plain C
  loop over the same move generator (``benchmarks/_yardstick.pyx``, built on
  the fly) and (b) gnubg-nn driven from Python with random plays (the
  ``peers`` extra); ``"heuristic"`` and ``"pubeval"`` rollouts; two threads
  against one (wall clock: meaningful only with both cores idle, so the load
  average is printed).
* **Win rates**: the policy as seat 0 (it moves first) against ``"random"``
  (and pubeval against heuristic), with a 95% interval.
* **Stratification**: the spread (standard deviation over ``--seeds``
  independent seeds) of the equity of 1,296-game rollouts with and without
  stratified first rolls, the number of plain games that would give the
  same spread, and the mean ``stderr`` the rollouts reported (the plain
  formula, which a stratified rollout's spread should not exceed).
"""
from __future__ import annotations

import argparse
import math
import os
import random
import statistics
from datetime import date

import numpy as np

from bansugoroku_fast import Position, Rules, play_games, rollout

from . import yardstick
from .timing import interleaved_figures

BACKGAMMON = Rules(variant="backgammon")
BAN = Rules()


def gnubg_random_games(games: int, seed: int) -> int:
    """Random backgammon games with gnubg-nn listing the plays, driven from
    Python (``moves`` then ``board_from_position_key``); returns the plies.
    A gnubg board is ``[opponent, side to move]``, 25 places each (24 = bar);
    after a play, index 1 is the side that played."""
    import gnubg_nn

    rng = random.Random(seed)
    start = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
    plies = 0
    for _ in range(games):
        board = [list(start), list(start)]
        while True:
            keys = gnubg_nn.moves(board, rng.randint(1, 6), rng.randint(1, 6))
            if keys:
                board = gnubg_nn.board_from_position_key(rng.choice(keys))
            plies += 1
            if sum(board[1]) == 0:  # the side that played has borne off all 15
                break
            board = [board[1], board[0]]
    return plies


def speed(games: int, repeats: int) -> None:
    start = Position.initial()
    loop = yardstick.load()
    measures = {
        "C loop over the kernels (yardstick)": (
            lambda: loop.random_games(start.array, BACKGAMMON.code, games, 7), games
        ),
        "rollout random, 1 thread": (lambda: rollout(start, BACKGAMMON, games, "random", threads=1), games),
        "rollout heuristic, 1 thread": (lambda: rollout(start, BACKGAMMON, games, "heuristic", threads=1), games),
        "rollout pubeval, 1 thread": (lambda: rollout(start, BACKGAMMON, games, "pubeval", threads=1), games),
        "Ban-sugoroku rollout random, 1 thread": (lambda: rollout(start, BAN, games, "random", threads=1), games),
        "Ban-sugoroku rollout heuristic, 1 thread": (lambda: rollout(start, BAN, games, "heuristic", threads=1), games),
    }
    try:
        import gnubg_nn  # noqa: F401
        few = max(50, games // 100)
        measures["gnubg-nn from Python, random plays"] = (lambda: gnubg_random_games(few, 7), few)
    except ImportError:
        print("gnubg-nn is not installed (pip install '.[peers]'): its row is left out")
    figures = interleaved_figures(measures, repeats=repeats)
    yard = figures["C loop over the kernels (yardstick)"].cpu
    print(f"\n{'backgammon unless said, games from the start':<46} {'games/s (CPU)':>14} {'vs C loop':>10}")
    for name, figure in figures.items():
        print(f"{name:<46} {1e9 / figure.cpu:>14,.0f} {yard / figure.cpu:>9.2f}x")
    if "gnubg-nn from Python, random plays" in figures:
        ratio = figures["gnubg-nn from Python, random plays"].cpu / figures["rollout random, 1 thread"].cpu
        print(f"rollout random vs gnubg-nn from Python: {ratio:,.0f}x")

    threads = {
        f"{count} thread{'s' if count > 1 else ''}": (
            lambda count=count: rollout(start, BACKGAMMON, 2 * games, "random", threads=count), 2 * games)
        for count in (1, 2)
    }
    print(f"\nthreads (random rollouts, wall clock); load average {os.getloadavg()}")
    walls = interleaved_figures(threads, repeats=repeats)
    for name, figure in walls.items():
        print(f"{name:<10} {1e9 / figure.wall:>10,.0f} games/s")
    print(f"2 threads / 1 thread: {walls['1 thread'].wall / walls['2 threads'].wall:.2f}x; "
          f"load average after {os.getloadavg()}")


def win_rates(games: int) -> None:
    print(f"\nseat 0 (moves first) against seat 1, {games:,} games each")
    pairs = [
        (BACKGAMMON, "heuristic", "random"), (BACKGAMMON, "pubeval", "random"),
        (BACKGAMMON, "pubeval", "heuristic"), (BACKGAMMON, "random", "random"),
        (BAN, "heuristic", "random"), (BAN, "random", "random"),
    ]
    for rules, first, second in pairs:
        records = play_games(rules, games, (first, second), seed=2024)
        rate = float((records.winner == 0).mean())
        margin = 1.96 * math.sqrt(rate * (1 - rate) / games)
        print(f"{rules.short_name:<24} {first:>9} vs {second:<9} {100 * rate:6.2f}% +- {100 * margin:.2f}")


#: A short bear-off race (each side has four stones left, 11 off): the first
#: two rolls decide most games, so dealing them evenly removes most of the luck.
RACE = Position([
    [11, 0, 0, 1, 1, 1, 1] + [0] * 19,   # the mover: one stone on each of 3, 4, 5, 6
    [11, 0, 1, 0, 1, 1, 1] + [0] * 19,   # the opponent: on its 2, 4, 5, 6
])


def stratification(seeds: int) -> None:
    """Equal cost (1,296 games a rollout); the spread of the estimate over seeds."""
    for name, position in (("the backgammon start", Position.initial()), ("a short bear-off race", RACE)):
        print(f"\nequity of 1,296-game heuristic rollouts from {name}, spread over {seeds} seeds")
        spreads, reported = {}, {}
        for stratify in (None, 36, 1296):
            results = [rollout(position, BACKGAMMON, 1296, "heuristic", seed=seed, stratify=stratify)
                       for seed in range(seeds)]
            spreads[stratify] = statistics.stdev(result.equity for result in results)
            reported[stratify] = statistics.fmean(result.stderr for result in results)
        for stratify, spread in spreads.items():
            equivalent = 1296 * (spreads[None] / spread) ** 2 if spread else math.inf
            # The reported stderr is the plain formula (tallies): at or above the
            # spread for a stratified rollout, about equal to it for a plain one.
            print(f"stratify={stratify!s:<5} stdev {spread:.4f}   worth {equivalent:,.0f} plain games   "
                  f"mean reported stderr {reported[stratify]:.4f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games per speed measure")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=60, help="rollouts per stratification mode")
    parser.add_argument("--win-games", type=int, default=20_000)
    parser.add_argument("--parts", default="speed,wins,strata", help="which parts to run (comma-separated)")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    print(f"{date.today().isoformat()}; load average before: {os.getloadavg()}; numpy {np.__version__}")
    if "speed" in parts:
        speed(args.games, args.repeats)
    if "wins" in parts:
        win_rates(args.win_games)
    if "strata" in parts:
        stratification(args.seeds)


if __name__ == "__main__":
    main()
