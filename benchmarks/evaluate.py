"""Evaluators: the kernels' forward pass against numpy's float32 matmul, and
``best_plays`` at 1 and 2 plies against GNU Backgammon's, in one run.

    python -m benchmarks.evaluate [--positions 100000] [--repeats 5] [--items 40] [--games 2000]
        [--parts forward,search,selfplay]

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

**Self-play** (games per second, one thread, backgammon from the start,
the same dice seed for every player; interleaved repeats, the median of
each player's CPU time, as ``benchmarks.games`` times games): ``"heuristic"`` (the yardstick: the
kernels' move generation with a cheap linear score), the shipped network
at 0 ply (``"net"``) in the kernels' game loop, the same network played in
lockstep through Python (a callable wrapping it: each wave scored by one
call), and GNU Backgammon's 0-ply best move (``gnubg_nn.best_move(...,
n=0)``) asked position by position from Python in lockstep waves (the
driver of ``benchmarks.strength``'s ``gnubg`` player), on ``--games``
games (a tenth for the two lockstep players, a twentieth for gnubg-nn).
Targets: ``"net"`` at least 0.5x ``"heuristic"``'s games per second and
at least 10x gnubg-nn's.
"""
from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from datetime import date
from functools import partial
from typing import Any

import numpy as np
from tqdm import tqdm

from bansugoroku_fast import GameBatch, Rules, play_games
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator, best_plays, encode

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


def gnubg_games(count: int, seed: int) -> None:
    """``count`` games of gnubg-nn's 0-ply best move against itself, in lockstep waves."""
    from .strength import GnubgPlayer

    picker = GnubgPlayer(plies=0)
    batch = GameBatch(BACKGAMMON, count, seed=seed, record=False, threads=1)
    while not batch.done:
        wave = batch.candidates()
        choices = np.full(batch.n, -1, dtype=np.int64)
        active = wave.games >= 0
        choices[active] = picker.pick(wave)[active]
        batch.step(choices)


def selfplay_figures(games: int, repeats: int) -> None:
    """Games per second of self-play, one thread, each player on the same
    dice: interleaved repeats, the median CPU time of each."""
    net = EvaluatorPolicy(NetEvaluator.shipped(BACKGAMMON))

    def in_python(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        return net(children, offsets)  # a plain callable: played in lockstep

    players: dict[str, tuple[int, Callable[[int], object]]] = {
        "heuristic": (games, lambda n: play_games(BACKGAMMON, n, "heuristic", seed=1, threads=1)),
        "net, in the kernels": (games, lambda n: play_games(BACKGAMMON, n, net, seed=1, threads=1)),
        "net, in lockstep": (games // 10, lambda n: play_games(BACKGAMMON, n, in_python, seed=1, threads=1)),
    }
    try:
        import gnubg_nn  # noqa: F401
        players["gnubg-nn 0-ply"] = (max(2, games // 20), lambda n: gnubg_games(n, seed=1))
    except ImportError:
        pass
    figures = interleaved_figures({name: (partial(play, count), count) for name, (count, play) in players.items()},
                                  repeats=repeats)
    rates = {name: 1e9 / figure.cpu for name, figure in figures.items()}
    print(f"\nself-play, backgammon, one thread (games per second, median of {repeats}; ratio to heuristic; "
          "net's ratio to it)")
    for name, rate in rates.items():
        net_ratio = rates["net, in the kernels"] / rate
        print(f"  {name:<22}{rate:>10.1f}{rate / rates['heuristic']:>8.2f}x{net_ratio:>9.1f}x")
    child_costs(games, net, repeats)


def shape(net: Any) -> str:
    """A network's layer sizes and hidden activation, as ``"226-64 relu"``."""
    sizes = [net.weights[0].shape[0], *(w.shape[1] for w in net.weights[:-1])]
    return "-".join(str(size) for size in sizes) + f" {net.activation}"


def child_costs(games: int, net: EvaluatorPolicy, repeats: int) -> None:
    """What a game's time goes to, per child a player scores (a roll with
    two plays or more): the shipped network against ``"heuristic"``, the
    move generation alone (``"first"`` scores nothing) and an 8-unit
    network without the features (random weights: only the cost per child
    counts), and the budget a child has in a ``"net"`` game for ``"net"``
    to reach 0.5x ``"heuristic"``'s games per second."""
    from bansugoroku_fast import count_plays

    tiny = EvaluatorPolicy(NetEvaluator.random(BACKGAMMON, hidden=(8,), encoding="raw198", seed=3))
    shipped = f"net ({shape(net.evaluator)})"
    players = {"heuristic": "heuristic", shipped: net, "first (no scoring)": "first",
               "net 198-8 (random)": tiny}
    counts = {name: games if name != "net 198-8 (random)" else max(1, games // 10) for name in players}
    figures = interleaved_figures({name: (partial(play_games, BACKGAMMON, counts[name], policy, seed=1, threads=1),
                                          counts[name]) for name, policy in players.items()}, repeats=repeats)
    costs = {}
    for name, policy in players.items():
        records = play_games(BACKGAMMON, counts[name], policy, seed=1, threads=1)    # the same games: count them
        plays = count_plays(records.positions, records.dice, BACKGAMMON, threads=1)
        children = int(plays[plays >= 2].sum())
        seconds = figures[name].cpu * counts[name] / 1e9
        costs[name] = (children / counts[name], seconds * 1e9 / children, counts[name] / seconds)
    budget = 2 * 1e9 / costs["heuristic"][2] / costs[shipped][0]
    print("\nper child scored, one thread (children scored a game; ns of game time a child)")
    for name, (per_game, ns, _) in costs.items():
        print(f"  {name:<22}{per_game:>10.0f}{ns:>10.0f}")
    print(f"  budget of a net game's child for 0.5x heuristic: {budget:.0f} ns")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--games", type=int, default=2000, help="self-play games of the fastest players")
    parser.add_argument("--parts", default="forward,search,selfplay", help="which parts to run (comma-separated)")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    threads = {name: os.environ.get(name) for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    print(f"benchmarks.evaluate, {date.today()}, {os.cpu_count()} CPUs, BLAS threads {threads}")
    if "forward" in parts:
        forward_figures(args.positions, args.repeats)
    if "search" in parts:
        search_figures(args.items)
    if "selfplay" in parts:
        selfplay_figures(args.games, args.repeats)


if __name__ == "__main__":
    main()
