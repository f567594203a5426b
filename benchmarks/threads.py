"""Thread scaling of the batch kernels on a large batch: every corpus
position with each of the 21 rolls (2.1 million items by default), counted
and streamed with 1 and 2 threads in turn, interleaved, median of the
repeats.

    python -m benchmarks.threads [--size 100000] [--repeats 7]

Three measures: ``count`` (public ``count_plays``), ``kernel`` (the count
kernel alone, ``_batch.count_batch`` on arrays already checked, without
the serial argument checks and error scan of ``count_plays``), and
``stream`` (``iter_plays(reuse=True)``). The ratio means something only with
both cores idle: the load average is printed before and after. "cores
busy" is the process CPU time of the two-thread call over twice its wall
time: below 100%, a core waited (serial work, thread start-up, uneven
chunks); at 100% with a speed-up under 2x, each item cost more with both
cores running, which is the machine's doing, not the code's.

A fourth line is the machine's ceiling for this kernel: two processes (one
thread each, nothing shared but the read-only input pages) counting the
whole batch at once, against one process alone. Two threads cannot do
better than two processes, so the kernel's speed-up is also given as a
share of that ceiling; on this shared VM the ceiling itself is well below
2x (the cores contend for the memory system, not for the ALUs).
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection

import numpy as np

from bansugoroku_fast import Rules, _batch, batch, oracle

from .corpus import load_corpus
from .engines import stream
from .timing import interleaved_figures, report_each_default_variant

ROLLS = np.array(oracle.ALL_ROLLS, dtype=np.int8)
#: The project's target: two threads at least this many times one thread's speed.
TARGET = 1.8


def every_roll(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each position repeated with each of the 21 distinct rolls."""
    repeated = np.ascontiguousarray(np.repeat(positions, len(ROLLS), axis=0))
    dice = np.ascontiguousarray(np.tile(ROLLS, (len(positions), 1)))
    return repeated, dice


def kernel_count(positions: np.ndarray, dice: np.ndarray, rules, threads: int) -> np.ndarray:
    """``_batch.count_batch`` alone, on arrays ``count_plays`` accepts."""
    counts = np.empty(len(positions), dtype=np.int32)
    _batch.count_batch(positions, dice, rules.code, threads, counts)
    return counts


class ProcessPair:
    """Two forked processes, each ready to run ``kernel_count`` with one
    thread on the same items (inherited, not copied: the input pages stay
    shared and read only) whenever :meth:`run` says go.

    >>> from bansugoroku_fast import Position
    >>> positions, dice = every_roll(Position.initial().array[None])
    >>> with ProcessPair(positions, dice, Rules()) as pair:
    ...     pair.run()
    """

    def __init__(self, positions: np.ndarray, dice: np.ndarray, rules: Rules) -> None:
        context = multiprocessing.get_context("fork")
        self.connections: list[multiprocessing.connection.Connection] = []
        self.processes = []
        for _ in range(2):
            ours, theirs = context.Pipe()
            process = context.Process(target=_count_when_told, args=(theirs, positions, dice, rules), daemon=True)
            process.start()
            self.connections.append(ours)
            self.processes.append(process)

    def run(self) -> None:
        """Both processes count the items once, starting together."""
        for connection in self.connections:
            connection.send(True)
        for connection in self.connections:
            connection.recv()

    def __enter__(self) -> ProcessPair:
        return self

    def __exit__(self, *exc_info) -> None:
        for connection, process in zip(self.connections, self.processes):
            connection.send(False)
            process.join()


def _count_when_told(connection, positions: np.ndarray, dice: np.ndarray, rules: Rules) -> None:
    """A :class:`ProcessPair` process: count the items at each go, until told to stop."""
    counts = np.empty(len(positions), dtype=np.int32)
    while connection.recv():
        _batch.count_batch(positions, dice, rules.code, 1, counts)
        connection.send(True)


def runners(positions, dice, rules) -> dict:
    """The three ways of counting timed here, each a function of the thread count."""
    return {
        "count": lambda t: batch.count_plays(positions, dice, rules, threads=t),
        "kernel": lambda t: kernel_count(positions, dice, rules, t),
        "stream": lambda t: stream(positions, dice, rules, t),
    }


def main(argv: list[str] | None = None) -> None:
    report_each_default_variant(__doc__, report, argv)


def report(rules: Rules, size: int, repeats: int) -> None:
    """Check the kernel against ``count_plays``, then time and print 1 against 2 threads."""
    positions, dice = every_roll(load_corpus(rules, size).positions)
    expected = batch.count_plays(positions, dice, rules, threads=1)  # also checks the arrays
    if not np.array_equal(kernel_count(positions, dice, rules, 2), expected):
        raise AssertionError("count_batch disagrees with count_plays")
    kinds = runners(positions, dice, rules)
    measures = {(kind, threads): (lambda f=function, t=threads: f(t), len(positions))
                for kind, function in kinds.items() for threads in (1, 2)}
    with ProcessPair(positions, dice, rules) as pair:
        # the pair does twice the items: its figure is ns per item of the two together
        measures["pair", 2] = (pair.run, 2 * len(positions))
        figures = interleaved_figures(measures, repeats=repeats)
    print(f"{rules.short_name}: {len(positions):,} items", flush=True)
    for kind in kinds:
        one, two = figures[kind, 1].wall, figures[kind, 2].wall
        verdict = "met" if one / two >= TARGET else "missed"
        busy = figures[kind, 2].cpu / (2 * two)
        print(f"  {kind:6} 1 thread {one:6.1f} ns, 2 threads {two:6.1f} ns: x{one / two:.2f} "
              f"(target x{TARGET}: {verdict}); cores busy {busy:.0%}", flush=True)
    alone, pair_figure = figures["kernel", 1].wall, figures["pair", 2].wall
    ceiling, kernel_speedup = alone / pair_figure, alone / figures["kernel", 2].wall
    print(f"  ceiling: 2 processes of 1 thread {pair_figure:6.1f} ns an item together: x{ceiling:.2f} "
          f"the kernel alone; 2 threads reach {kernel_speedup / ceiling:.0%} of it", flush=True)


if __name__ == "__main__":
    main()
