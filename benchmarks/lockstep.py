"""Python policies at batch speed: whole backgammon games per second with a
numpy-only callable policy, against the same policy built into the kernels
and against a Python loop over gnubg-nn's move generator, in one run.

    python -m benchmarks.lockstep [--games 1024] [--repeats 5]

Measures (one core: ``threads=1``; all interleaved, median of the repeats):

* ``built-in linear``: ``play_games(policy=LinearPolicy(w))``, the kernels'
  own greedy linear policy (``w`` = the shipped backgammon ``"heuristic"``
  weights), ``--games`` games started together;
* ``callable linear``: ``play_games(policy=f)`` where ``f(children,
  offsets)`` computes the same scores with numpy from ``features()`` (so it
  plays the same games: checked before timing), called once per wave;
* ``GameBatch linear``: ``GameBatch(restart=True, record=False)`` stepped
  with the same ``f`` (``step_with``), ``--games`` games always in flight;
  the figure is games finished per second in the steady state;
* ``GameBatch numpy``: the same with a numpy-only policy that never calls
  the package (``numpy_safety``: hit, bear off, make points, leave no blots);
* ``gnubg-nn``: a Python loop that plays one game after the other with
  ``gnubg_nn.moves(board, d1, d2)`` listing the plays, the dice from
  ``random``, and a uniformly random play (the cheapest policy there is:
  the loop's own cost is the yardstick). Skipped if gnubg-nn is absent
  (``pip install gnubg-nn``).

Targets: a numpy-only callable through GameBatch
at least 5,000 games/s and at least 4x the gnubg-nn loop; the callable
linear policy within 3x of the built-in one.
"""
from __future__ import annotations

import argparse
import os
import random
from collections.abc import Callable
from datetime import date

import numpy as np

from bansugoroku_fast import GameBatch, LinearPolicy, Rules, features, play_games
from bansugoroku_fast.games.policies import HEURISTIC_WEIGHTS

from .timing import interleaved_figures

BACKGAMMON = Rules(variant="backgammon")
WARM_UP_STEPS = 150  # about three game lengths: slots then hold games of every age


def numpy_linear(weights: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``f(children, offsets)``: the LinearPolicy score of each child, the
    float64 sum in feature order (what the kernels compute, bit for bit)."""

    def policy(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        values = features(children, BACKGAMMON).astype(np.float64)
        score = np.zeros(len(children))
        for k, weight in enumerate(weights):
            score += weight * values[:, k]
        return score

    return policy


def numpy_safety(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """A numpy-only policy that never calls the package: each opposing stone
    on the bar (a hit) and each stone borne off +1, each own blot -1, each
    own made point +0.5 (it wins about 98% of games against "random")."""
    own = children[:, 0, 1:25]
    gains = (children[:, 1, 25] + children[:, 0, 0]).astype(np.float32)
    return gains - (own == 1).sum(axis=1, dtype=np.int16) + 0.5 * (own >= 2).sum(axis=1, dtype=np.int16)


def lockstep_games(batch: GameBatch, policy: Callable, target: int) -> Callable[[], None]:
    """A timed call: steps until ``target`` more games have finished (the
    last step may finish a few more: under 1% with 1,024 in flight)."""

    def run() -> None:
        goal = batch.games_finished + target
        while batch.games_finished < goal:
            batch.step_with(policy)
        batch.records(clear=True)

    return run


# --- gnubg-nn ---------------------------------------------------------------------------


def gnubg_games(count: int, seed: int) -> Callable[[], None]:
    """``count`` random games with gnubg-nn listing the plays. Its board is
    ``[other, on roll]``, 25 entries each (points 1..24, bar); a listed key
    decodes to the board after the play, the side that moved still second."""
    import gnubg_nn

    start_row = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
    rng = random.Random(seed)

    def run() -> None:
        for _ in range(count):
            board = [list(start_row), list(start_row)]
            while True:
                keys = gnubg_nn.moves(board, rng.randint(1, 6), rng.randint(1, 6))
                if keys:
                    board = gnubg_nn.board_from_position_key(keys[rng.randrange(len(keys))])
                    if not any(board[1]):
                        break  # the side that moved has borne everything off
                board = [board[1], board[0]]

    return run


def steady_batch(games: int, seed: int, policy: Callable) -> tuple[Callable[[], None], int]:
    """A timed call finishing ``games`` games of a GameBatch in its steady
    state (games of every length in flight), and that count."""
    batch = GameBatch(BACKGAMMON, games, seed=seed, restart=True, record=False, threads=1)
    for _ in range(WARM_UP_STEPS):
        batch.step_with(policy)
    return lockstep_games(batch, policy, games), games


def measure(games: int, repeats: int, seed: int) -> dict[str, tuple[float, float]]:
    """Games per second of each measure (median of the repeats): per second
    of wall time, and per second of the process's CPU time (what one core of
    its own would give on a machine busy with other work)."""
    weights = np.array(HEURISTIC_WEIGHTS["backgammon"])
    policy = numpy_linear(weights)
    builtin = LinearPolicy(weights)
    same = play_games(BACKGAMMON, 64, policy=policy, seed=seed, threads=1)
    expected = play_games(BACKGAMMON, 64, policy=builtin, seed=seed, threads=1)
    assert all((getattr(same, f) == getattr(expected, f)).all() for f in expected._fields), \
        "the callable must play the built-in policy's games"

    measures = {
        "built-in linear": (lambda: play_games(BACKGAMMON, games, policy=builtin, seed=seed, threads=1), games),
        "callable linear": (lambda: play_games(BACKGAMMON, games, policy=policy, seed=seed, threads=1), games),
        "GameBatch linear": steady_batch(games, seed, policy),
        "GameBatch numpy": steady_batch(games, seed, numpy_safety),
    }
    try:
        gnubg_count = max(20, games // 16)
        measures["gnubg-nn"] = (gnubg_games(gnubg_count, seed), gnubg_count)
    except ImportError:
        pass
    figures = interleaved_figures(measures, repeats=repeats)
    return {name: (1e9 / figure.wall, 1e9 / figure.cpu) for name, figure in figures.items()}


def report(rates: dict[str, tuple[float, float]], games: int, repeats: int, load: tuple[float, float]) -> str:
    wall = {name: rate[0] for name, rate in rates.items()}
    cpu = {name: rate[1] for name, rate in rates.items()}
    base = wall["GameBatch numpy"]
    lines = [
        f"Backgammon games per second, one thread, {games} games in flight, median of {repeats} "
        f"({date.today()}, load average {load[0]:.2f} at the start, {load[1]:.2f} at the end):",
        "",
        "| measure | games/s (wall) | games/s (CPU) | GameBatch numpy / this (wall) |",
        "|---|---:|---:|---:|",
    ]
    for name in rates:
        lines.append(f"| {name} | {wall[name]:,.0f} | {cpu[name]:,.0f} | {base / wall[name]:.2f} |")
    lines.append("")
    checks = [
        ("GameBatch numpy >= 5,000 games per CPU second", cpu["GameBatch numpy"] >= 5000),
        ("GameBatch numpy >= 4x the gnubg-nn loop", "gnubg-nn" in wall and base >= 4 * wall["gnubg-nn"]),
        ("built-in linear <= 3x callable linear", wall["built-in linear"] <= 3 * wall["callable linear"]),
        ("built-in linear <= 3x GameBatch linear", wall["built-in linear"] <= 3 * wall["GameBatch linear"]),
    ]
    lines += [f"- {text}: {'met' if met else 'NOT met'}" for text, met in checks]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1024, help="games in flight (default 1024)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = os.getloadavg()[0]
    rates = measure(args.games, args.repeats, args.seed)
    print(report(rates, args.games, args.repeats, (start, os.getloadavg()[0])))


if __name__ == "__main__":
    main()
