"""Time the exact endgame tables: building each kind, and looking races up.

Build: seconds to build each kind's one-sided tables (every one of the
54,264 positions, the kernels' search for each of its 21 rolls; the best
of ``--repeats``, wall and CPU, one core) and its two-sided table.

Look-up, ns per position over a batch of ``--size`` random table races
(each row a uniformly drawn table position: mostly one-sided races; and a
batch of two-sided ones), measures interleaved, medians of ``--repeats``:

* ``race_batch``: the public call (it checks every position first, with
  the kernels' outcome pass);
* ``kernel look-up``: the kernels' look-up alone (``_kernel.race_lookup``);
* ``numpy indexing`` (the yardstick): numpy's own fancy indexing of the
  same tables for the same batch, given the rows' ranks (which it does not
  compute): ``win[r0, r1]`` (two-sided), or gathering the two rows'
  distributions a one-sided race reads, ``finish[r0]`` and ``finish[r1]``
  (without the convolution).

Rollouts that stop at the tables (``--rollouts``, or ``--rollouts-only``):
games per second of ``rollout(..., endgames=True)`` against the same
rollout played out (the yardstick, measured in the same run, the best CPU
time of ``--repeats``, one thread), for a race already in the tables (15
stones a side on points 1..6) and one with stones still on points 7..9,
with the ``"heuristic"`` policy (played out by the kernels) and the
``"race"`` policy (the tables' play; played out in lockstep); with each
run's equity and standard error.

Figures are wall and process CPU time: on a shared machine the CPU time
is what a call cost (the wall time also counts waiting for a core).

    python -m benchmarks.endgames --size 100000 --repeats 7
    python -m benchmarks.endgames --rollouts-only --games 5184 --repeats 3
"""
from __future__ import annotations

from functools import partial

import numpy as np

from bansugoroku_fast import Position, _kernel, rollout
from bansugoroku_fast.endgames import KINDS, race_batch
from bansugoroku_fast.endgames.store import build, kind_rules, tables

from . import timing


def build_seconds(repeats: int) -> dict[str, tuple[float, float, float]]:
    """``{kind: (one-sided wall, one-sided CPU, two-sided wall)}``, best of ``repeats``."""
    figures = {}
    for name, kind in KINDS.items():
        one = min(timing.seconds_of(partial(_kernel.build_one_sided, kind.rule_code, kind.bears_off))
                  for _ in range(repeats))
        two = min(timing.seconds_of(partial(_kernel.build_two_sided, kind.rule_code, kind.cube))[0]
                  for _ in range(repeats))
        figures[name] = (one[0], one[1], two)
    return figures


def random_races(kind_name: str, size: int, small: bool, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``(positions int8[size, 2, 26], ranks int32[size, 2])``: random table races."""
    kind = KINDS[kind_name]
    rng = np.random.default_rng(seed)
    top = _kernel.TABLE_SMALL_POSITIONS if small else _kernel.TABLE_POSITIONS
    ranks = rng.integers(1, top, size=(size, 2)).astype(np.int32)
    counts = np.array([_kernel.table_counts_of_rank(r) for r in range(top)], dtype=np.int8)
    positions = np.zeros((size, 2, 26), dtype=np.int8)
    for row in (0, 1):
        stones = counts[ranks[:, row]]
        positions[:, row, kind.base_point:kind.base_point + 6] = stones
        positions[:, row, 0 if kind.bears_off else 1] += 15 - stones.sum(axis=1, dtype=np.int8)
    return positions, ranks


def lookup_figures(kind_name: str, size: int, repeats: int, small: bool) -> dict[str, timing.Figure]:
    kind = KINDS[kind_name]
    rules = kind_rules(kind)
    built = tables(rules)
    positions, ranks = random_races(kind_name, size, small)
    r0, r1 = ranks[:, 0].copy(), ranks[:, 1].copy()

    def public() -> None:
        race_batch(positions, rules)

    def kernel() -> None:
        _kernel.race_lookup(positions, kind.bears_off, kind.gammons, built.finish, built.finish_mean,
                            built.first, built.win)

    def numpy_indexing() -> None:
        if small:
            built.win[r0, r1]
        else:
            built.finish[r0]
            built.finish[r1]

    return timing.interleaved_figures({"race_batch": (public, size), "kernel look-up": (kernel, size),
                                       "numpy indexing": (numpy_indexing, size)}, repeats=repeats)


#: Backgammon races, each row's stones on points 0 (off), 1, 2, ...
ROLLOUT_RACES = {
    "in the tables (15 v 15 on 1..6)": ([0, 3, 3, 3, 2, 2, 2], [0, 2, 2, 3, 3, 3, 2]),
    "stones on 7..9": ([0, 2, 2, 2, 2, 2, 1, 2, 1, 1], [0, 2, 2, 2, 2, 2, 2, 1, 1, 1]),
}


def rollout_figures(games: int, repeats: int) -> None:
    """Print games per second with and without ``endgames=True``."""
    print(f"\n## rollouts that stop at the tables (backgammon, {games} games, best CPU of {repeats}, 1 thread)\n")
    print("| race | policy | played out: games/s | equity | endgames=True: games/s | equity | speed-up "
          "| plies/game (out / stopped) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, (row0, row1) in ROLLOUT_RACES.items():
        position = Position([row0 + [0] * (26 - len(row0)), row1 + [0] * (26 - len(row1))])
        for policy in ("heuristic", "race"):
            runs = {}
            for endgames in (False, True):
                def run(endgames: bool = endgames, policy: str = policy, position: Position = position) -> object:
                    return rollout(position, "backgammon", games=games, policy=policy, seed=1, threads=1,
                                   endgames=endgames)
                result = run()
                cpu = min(timing.seconds_of(run)[1] for _ in range(repeats))
                runs[endgames] = (games / cpu, result)
            (slow, out), (fast, stopped) = runs[False], runs[True]
            print(f"| {name} | {policy} | {slow:,.0f} | {out.equity:+.4f} ± {out.stderr:.4f} | {fast:,.0f} "
                  f"| {stopped.equity:+.4f} ± {stopped.stderr:.4f} | {fast / slow:.1f}x "
                  f"| {out.mean_plies:.1f} / {stopped.mean_plies:.1f} |")


def main(argv: list[str] | None = None) -> None:
    parser = timing.script_parser(__doc__, size=100_000, repeats=7)
    parser.add_argument("--rollouts", action="store_true", help="also time rollouts that stop at the tables")
    parser.add_argument("--rollouts-only", action="store_true", help="only time rollouts that stop at the tables")
    parser.add_argument("--games", type=int, default=5184, help="games per rollout")
    arguments = parser.parse_args(argv)
    with timing.load_noted():
        if not arguments.rollouts_only:
            report(arguments.size, arguments.repeats)
        if arguments.rollouts or arguments.rollouts_only:
            rollout_figures(arguments.games, arguments.repeats)


def report(size: int, repeats: int) -> None:
    print("\n## building (best of the repeats, seconds)\n")
    print("| kind | one-sided wall | one-sided CPU | two-sided wall |")
    print("|---|---:|---:|---:|")
    for name, (wall, cpu, two) in build_seconds(min(repeats, 3)).items():
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {two:.2f} |")
    for name in KINDS:
        build(kind_rules(KINDS[name]))   # in memory, for the look-ups
    print(f"\n## race look-up, ns per position (batch of {size}, medians of {repeats})\n")
    print("| kind | races | race_batch wall / CPU | kernel look-up wall / CPU | numpy indexing wall / CPU "
          "| kernel / numpy (CPU) |")
    print("|---|---|---:|---:|---:|---:|")
    for name in KINDS:
        for small in (False, True):
            figures = lookup_figures(name, size, repeats, small)
            cells = " | ".join(f"{figures[m].wall:.0f} / {figures[m].cpu:.0f}"
                               for m in ("race_batch", "kernel look-up", "numpy indexing"))
            ratio = figures["kernel look-up"].cpu / figures["numpy indexing"].cpu
            print(f"| {name} | {'two-sided' if small else 'random (mostly one-sided)'} | {cells} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
