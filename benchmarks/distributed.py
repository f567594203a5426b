"""Dask: the speed-up from one to two worker processes (one thread each).

    python -m benchmarks.distributed [--size 100000] [--repeats 5]

Two LocalClusters stay up side by side, one of 1 worker and one of 2, and
the measures alternate between them (A B, A B, ...; median of the repeats),
so a slow spell of the shared machine hits both alike. Measures:

* ``shots``: :func:`bansugoroku_fast.distributed.shots` (every roll of every
  position searched for a hit) over the benchmark corpus as a dask array in
  chunks of 10,000 positions;
* ``rollout``: :func:`bansugoroku_fast.distributed.rollout` of 8 corpus
  positions, ``--games`` random games each, in blocks of 1,296 games.

Each result is checked against the local one. The ratio means something only
with both cores idle: the load average is printed before and after.
"""
from __future__ import annotations

import dask.array as da
import numpy as np
from dask.distributed import Client, LocalCluster

from bansugoroku_fast import Rules, batch, rollout
from bansugoroku_fast import distributed as on_dask

from .corpus import DEFAULT_SIZE, load_corpus
from .timing import Figure, interleaved_figures, load_noted, script_parser

CHUNK = 10_000


def cluster_client(workers: int) -> Client:
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster)


def main(argv: list[str] | None = None) -> None:
    parser = script_parser(__doc__, size=DEFAULT_SIZE, repeats=5)
    parser.add_argument("--games", type=int, default=12_960, help="rollout games per position")
    args = parser.parse_args(argv)
    with load_noted():
        figures = one_against_two_workers(args.size, args.games, args.repeats)
        for kind, unit in (("shots", "position"), ("rollout", "game")):
            one, two = figures[kind, 1].wall, figures[kind, 2].wall
            print(f"{kind:8} 1 worker {one / 1e3:8.1f} us/{unit}, 2 workers {two / 1e3:8.1f} us/{unit}: "
                  f"x{one / two:.2f}", flush=True)


def one_against_two_workers(size: int, games: int, repeats: int) -> dict[tuple[str, int], Figure]:
    """``{(measure, workers): Figure}``, each result checked against the local one."""
    rules = Rules(variant="backgammon")
    positions = load_corpus(rules, size).positions
    lazy = da.from_array(positions, chunks=(CHUNK, 2, 26))
    starts = positions[:8]
    expected_shots = batch.shots(positions, rules, threads=1)
    expected_rollout = rollout(starts, rules, games=games, policy="random", seed=1, threads=1)
    clients = {workers: cluster_client(workers) for workers in (1, 2)}
    try:
        def run_shots(client: Client) -> None:
            assert np.array_equal(client.compute(on_dask.shots(lazy, rules), sync=True), expected_shots)

        def run_rollout(client: Client) -> None:
            result = on_dask.rollout(starts, rules, games, "random", 1, client=client, block=1296)
            assert np.array_equal(result.counts, expected_rollout.counts)

        measures = {
            ("shots", workers): (lambda c=client: run_shots(c), len(positions))
            for workers, client in clients.items()
        } | {
            ("rollout", workers): (lambda c=client: run_rollout(c), len(starts) * games)
            for workers, client in clients.items()
        }
        return interleaved_figures(measures, repeats=repeats)
    finally:
        for client in clients.values():
            cluster = client.cluster
            client.close()
            cluster.close()

if __name__ == "__main__":
    main()
