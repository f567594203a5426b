"""How long a long batch takes to stop after Ctrl-C.

    python -m benchmarks.interrupt                  # every batch function, 5 interrupts each
    python -m benchmarks.interrupt --repeats 20 --threads 1

Each batch function runs on enough copies of a costly position to last
``--seconds`` (10 s by default) uninterrupted; a timer thread sends SIGINT to
the process a quarter of the way in (``os.kill(os.getpid(), SIGINT)``),
noting the time just before, and the latency is the time from that note to
the ``KeyboardInterrupt`` reaching the caller. The figures are the median and
the worst over ``--repeats`` interrupts; the uninterrupted time of the whole
batch is printed beside them as the yardstick (without the signal checks, the
latency would be that time, less the quarter before the signal).
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import threading
import time
from collections.abc import Callable

import numpy as np

from bansugoroku_fast import Position, batch, count_plays, generate_plays, iter_plays

BACKGAMMON = "backgammon"


def costly_position() -> Position:
    """15 single stones on points 7..21, the opponent's blots on the other
    points and six on its bar: 1-1 has over a thousand plays, every roll may
    hit, so each item costs a long search."""
    opponent = [0] * 26
    for point in (1, 2, 3, 19, 20, 21, 22, 23, 24):
        opponent[point] = 1
    opponent[25] = 6
    return Position([[0] * 7 + [1] * 15 + [0] * 4, opponent])


def calls(threads: int) -> dict[str, Callable[[np.ndarray], object]]:
    def stream(positions: np.ndarray) -> int:
        return sum(len(chunk.children) for _, chunk in
                   iter_plays(positions, (1, 1), BACKGAMMON, threads=threads, reuse=True))

    return {
        "count_plays": lambda positions: count_plays(positions, (1, 1), BACKGAMMON, threads=threads),
        "generate_plays": lambda positions: generate_plays(positions, (1, 1), BACKGAMMON, threads=threads),
        "iter_plays": stream,
        "batch.shots": lambda positions: batch.shots(positions, BACKGAMMON, threads=threads),
        "batch.outcome": lambda positions: batch.outcome(positions, BACKGAMMON),
    }


def seconds_per_item(call: Callable[[np.ndarray], object], item: np.ndarray) -> float:
    """On a batch doubled until it lasts 0.2 s, the least of three runs."""
    size, took = 64, 0.0
    while took < 0.2:
        size *= 2
        positions = np.broadcast_to(item, (size, 2, 26)).copy()
        runs = []
        for _ in range(3):
            begun = time.perf_counter()
            call(positions)
            runs.append(time.perf_counter() - begun)
        took = min(runs)
    return took / size


def interrupt_latency(call: Callable[[np.ndarray], object], positions: np.ndarray, delay: float) -> float | None:
    """Seconds from SIGINT to the KeyboardInterrupt out of ``call``; None if
    the batch ended before the signal came."""
    sent: list[float] = []

    def send() -> None:
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    # Started with SIGINT ignored (a background job), Python installs no
    # KeyboardInterrupt handler: install it for the measurement.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(delay, send)
    timer.start()
    try:
        try:
            call(positions)
        except KeyboardInterrupt:
            caught = time.perf_counter()
            return caught - sent[0]
        timer.join()
        time.sleep(0.05)  # the KeyboardInterrupt lands here
    except KeyboardInterrupt:
        pass
    return None


def milliseconds(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:>12.1f} ms {max(seconds) * 1000:>5.1f} ms"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.interrupt", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="uninterrupted length of each batch")
    parser.add_argument("--repeats", type=int, default=5, help="interrupts per function")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-items", type=int, default=4_000_000, help="cap on the batch size (memory)")
    args = parser.parse_args(argv)
    item = costly_position().array
    print(f"{'function':<16} {'items':>10} {'batch alone':>12} {'latency median':>15} {'worst':>8}")
    for name, call in calls(args.threads).items():
        per_item = seconds_per_item(call, item)
        items = int(min(args.max_items, args.seconds / per_item))
        positions = np.broadcast_to(item, (items, 2, 26)).copy()
        latencies = [interrupt_latency(call, positions, items * per_item / 4) for _ in range(args.repeats)]
        measured = [latency for latency in latencies if latency is not None]
        figures = milliseconds(measured) if measured else "   ended before the signal"
        print(f"{name:<16} {items:>10,} {items * per_item:>10.2f} s {figures}", flush=True)


if __name__ == "__main__":
    main()
