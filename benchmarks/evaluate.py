"""Evaluators: the kernels' forward pass against numpy's float32 matmul, and
``best_plays`` at 1 and 2 plies against GNU Backgammon's, in one run.

    python -m benchmarks.evaluate [--positions 100000] [--repeats 5] [--items 40]

Run it with one BLAS thread (``OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1``:
the comparison is one core against one core).

**Forward pass** (interleaved repeats, median; ns per position): positions
reached in backgammon games the ``"heuristic"`` policy plays (``after``
boards, the side that has just moved), ``--positions`` of them, for three
network shapes (Tesauro's 198-80; 226-128 with the features, GNU
Backgammon's contact network's hidden size; 198-128-64 ReLU):

* ``kernel``: ``NetEvaluator.score_valid`` (encoding included, one thread,
  the features computed by the kernels for the 226-input network);
* ``numpy matmul``: the yardstick, numpy's own float32 matmul of the same
  layer shapes on inputs already encoded (``x @ W0``, ``h @ W1``...), no
  bias, no activation, no encoding;
* ``numpy forward``: ``NetEvaluator.forward(encode(...))``, the whole pass
  in numpy.

The ratio is matmul's ns per position over the kernel's (target: at least
0.5, the kernel at least half numpy's throughput).

**Search** (seconds per call, mean over ``--items`` (position, roll) items
reached in games ``"pubeval"`` plays against itself): ``best_plays(...,
ply=1)`` and ``ply=2`` with a 226-128 network (random weights: the cost
does not depend on them) and the default move filter (the best 8 within
0.16, as GNU Backgammon's default), against ``gnubg_nn.best_move(board,
d1, d2, n=1)`` and ``n=2`` on the same items (its own network, move
filters and evaluation cache, which repeated positions hit). Skipped
without gnubg-nn.
"""
from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from datetime import date

import numpy as np
from tqdm import tqdm

from bansugoroku_fast import Rules, play_games
from bansugoroku_fast.evaluators import NetEvaluator, best_plays, encode

from .timing import interleaved_figures

BACKGAMMON = Rules(variant="backgammon")
SHAPES = {
    "198-80 sigmoid": dict(hidden=(80,), encoding="raw198", activation="sigmoid"),
    "226-128 sigmoid": dict(hidden=(128,), encoding="raw198+features", activation="sigmoid"),
    "198-128-64 relu": dict(hidden=(128, 64), encoding="raw198", activation="relu"),
}


def game_positions(count: int, seed: int = 1) -> np.ndarray:
    """``count`` positions from heuristic self-play, seen by the side that has just moved."""
    positions: list[np.ndarray] = []
    total = 0
    while total < count:
        after = play_games(BACKGAMMON, 500, policy="heuristic", seed=seed + len(positions), threads=1).after
        positions.append(after)
        total += len(after)
    return np.ascontiguousarray(np.concatenate(positions)[:count])


def matmul_only(net: NetEvaluator, inputs: np.ndarray) -> Callable[[], object]:
    weights = net.weights

    def run() -> object:
        values = inputs
        for w in weights:
            values = values @ w
        return values

    return run


def forward_figures(count: int, repeats: int) -> None:
    positions = game_positions(count)
    print(f"forward pass over {len(positions):,} positions, one thread (ns per position, median of {repeats})")
    print(f"{'network':<18}{'kernel':>10}{'numpy matmul':>14}{'numpy forward':>15}{'ratio':>8}")
    for name, shape in SHAPES.items():
        net = NetEvaluator.random(BACKGAMMON, seed=1, **shape)
        inputs = encode(positions, net.encoding, BACKGAMMON)
        np.testing.assert_allclose(net(positions[:1000]), net.forward(inputs[:1000]), atol=1e-5)
        figures = interleaved_figures({
            "kernel": (lambda net=net: net.score_valid(positions), len(positions)),
            "matmul": (matmul_only(net, inputs), len(positions)),
            "forward": (lambda net=net: net.forward(encode(positions, net.encoding, BACKGAMMON)), len(positions)),
        }, repeats=repeats)
        kernel, matmul, forward = (figures[k].wall for k in ("kernel", "matmul", "forward"))
        print(f"{name:<18}{kernel:>10.0f}{matmul:>14.0f}{forward:>15.0f}{matmul / kernel:>8.2f}")


def search_items(count: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` (position, roll) items with at least two plays, from pubeval self-play."""
    from bansugoroku_fast import count_plays

    records = play_games(BACKGAMMON, 40, policy="pubeval", seed=3, threads=1)
    several = np.flatnonzero(count_plays(records.positions, records.dice, BACKGAMMON, threads=1) >= 2)
    chosen = np.random.default_rng(3).choice(several, size=min(count, len(several)), replace=False)
    return records.positions[chosen], records.dice[chosen]


def gnubg_board(position: np.ndarray) -> list[list[int]]:
    """gnubg-nn's ``anBoard[2][25]``: ``[1]`` the side on roll, index ``i`` = point ``i + 1``, 24 = bar."""
    mover, other = position.tolist()
    return [other[1:26], mover[1:26]]


def search_figures(count: int) -> None:
    positions, dice = search_items(count)
    net = NetEvaluator.random(BACKGAMMON, seed=1, **SHAPES["226-128 sigmoid"])
    try:
        import gnubg_nn
    except ImportError:
        gnubg_nn = None
    print(f"\nbest play per call over {len(positions)} items from pubeval self-play (ms per call, mean)")
    print(f"{'ply':<6}{'best_plays':>12}{'gnubg-nn':>12}{'ratio':>8}")
    for ply in (1, 2):
        ours = theirs = 0.0
        for position, roll in tqdm(list(zip(positions, dice)), desc=f"ply {ply}", leave=False):
            start = time.perf_counter()
            best_plays(position, tuple(int(d) for d in roll), BACKGAMMON, net, ply=ply)
            ours += time.perf_counter() - start
            if gnubg_nn is not None:
                start = time.perf_counter()
                gnubg_nn.best_move(gnubg_board(position), int(roll[0]), int(roll[1]), n=ply)
                theirs += time.perf_counter() - start
        ours_ms, theirs_ms = ours * 1e3 / len(positions), theirs * 1e3 / len(positions)
        gnubg = f"{theirs_ms:>12.1f}{theirs_ms / ours_ms:>8.2f}" if gnubg_nn is not None else f"{'absent':>12}"
        print(f"{ply:<6}{ours_ms:>12.1f}{gnubg}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--items", type=int, default=40)
    args = parser.parse_args()
    threads = {name: os.environ.get(name) for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    print(f"benchmarks.evaluate, {date.today()}, {os.cpu_count()} CPUs, BLAS threads {threads}")
    forward_figures(args.positions, args.repeats)
    search_figures(args.items)


if __name__ == "__main__":
    main()
