"""Timing helpers: medians of interleaved repeats, in ns per item.

The machine is noisy, so every measure of a run is taken in turn within each
repeat (A B C, A B C, ...) rather than all repeats of A before B: slow spells
then hit every measure alike, and ratios between them stay fair.

>>> timings = interleaved_medians({"noop": (lambda: None, 10)}, repeats=3)
>>> sorted(timings), timings["noop"] >= 0
(['noop'], True)
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from datetime import date
from typing import TYPE_CHECKING, NamedTuple, TypeVar
from unittest import mock

import numpy as np

if TYPE_CHECKING:
    from bansugoroku_fast import Rules

#: What names a measure: a string, or a tuple such as (rules, measure).
Name = TypeVar("Name")


def seconds_of(function: Callable[[], object]) -> tuple[float, float]:
    """``(wall, CPU)`` seconds of one call, with the garbage collector paused
    (as timeit does). CPU time is the process's, summed over its threads: on
    a machine shared with other work it shows what the call cost, where the
    wall time also counts the time spent waiting for a core."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        wall, cpu = time.perf_counter_ns(), time.process_time_ns()
        function()
        return (time.perf_counter_ns() - wall) / 1e9, (time.process_time_ns() - cpu) / 1e9
    finally:
        if collecting:
            gc.enable()


class Figure(NamedTuple):
    """Ns per item of one measure (the median of the repeats, or what
    ``summary`` made of them): wall clock and process CPU time."""

    wall: float
    cpu: float


def interleaved_figures(measures: dict[Name, tuple[Callable[[], object], int]], repeats: int = 5,
                        warmup: int = 1, progress=None,
                        summary: Callable[[list[float]], float] = statistics.median) -> dict[Name, Figure]:
    """``{name: Figure}`` for ``measures = {name: (function, items)}``.

    Each function does all its items in one call; it runs ``warmup`` times
    untimed, then ``repeats`` times, interleaved with the others. ``summary``
    makes one figure of the repeats: the median, or ``min`` for the best.
    """
    for function, _ in measures.values():
        for _ in range(warmup):
            function()
    walls: dict[Name, list[float]] = {name: [] for name in measures}
    cpus: dict[Name, list[float]] = {name: [] for name in measures}
    for _ in range(repeats):
        for name, (function, items) in measures.items():
            wall, cpu = seconds_of(function)
            walls[name].append(wall * 1e9 / items)
            cpus[name].append(cpu * 1e9 / items)
            if progress is not None:
                progress(name)
    return {name: Figure(summary(walls[name]), summary(cpus[name])) for name in measures}


def interleaved_medians(measures, repeats: int = 5, warmup: int = 1, progress=None) -> dict[str, float]:
    """``{name: median wall ns per item}``: :func:`interleaved_figures`,
    wall clock only."""
    figures = interleaved_figures(measures, repeats, warmup, progress)
    return {name: figure.wall for name, figure in figures.items()}


def loop_over(function: Callable, items) -> Callable[[], None]:
    """A function that calls ``function(*item)`` for every item, for timing
    per-item APIs (one Python call per item)."""
    items = list(items)

    def run():
        for item in items:
            function(*item)

    return run


def not_recycled(call: Callable[[], object]) -> Callable[[], object]:
    """``call`` with its output blocks fresh from the OS (``np.empty``), as
    if ``batch.set_output_recycling(0)``, without freeing the blocks kept
    for the other measures of the run."""
    from bansugoroku_fast import _kernel  # play_buffers takes its blocks from _kernel.output_block

    def fresh_block(size: int) -> np.ndarray:
        return np.empty(size, dtype=np.uint8)

    def run() -> object:
        with mock.patch.object(_kernel, "output_block", fresh_block):
            return call()
    return run


def script_parser(doc: str | None, *, size: int | None = None, repeats: int = 7) -> argparse.ArgumentParser:
    """The options every timing script takes: ``--repeats``, and ``--size``
    (corpus items) when ``size`` is its default; the description is the
    first line of ``doc`` (the script's docstring)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0] if doc else None)
    if size is not None:
        parser.add_argument("--size", type=int, default=size, help="corpus items")
    parser.add_argument("--repeats", type=int, default=repeats)
    return parser


def progress_bar(total: int, enabled: bool = True):
    """A tqdm bar on stderr when ``enabled`` and stderr is a terminal, else
    None (``tqdm`` is a dependency of the package)."""
    if not (enabled and sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="run", file=sys.stderr, leave=False)


def report_each_default_variant(doc: str | None, report: Callable[[Rules, int, int], None],
                                argv: list[str] | None = None) -> None:
    """The ``main`` of a script that times each default rule set's corpus:
    ``--size`` and ``--repeats`` parsed from ``argv``, the load noted, then
    ``report(rules, size, repeats)`` for Ban-sugoroku's defaults and backgammon."""
    from .corpus import DEFAULT_SIZE, DEFAULT_VARIANTS

    args = script_parser(doc, size=DEFAULT_SIZE).parse_args(argv)
    with load_noted():
        for rules in DEFAULT_VARIANTS:
            report(rules, args.size, args.repeats)


@contextlib.contextmanager
def load_noted() -> Iterator[None]:
    """Print the date and the load average before the body and after it:
    figures taken on a busy machine say so."""
    print(f"{date.today().isoformat()}; load average before: {os.getloadavg()}", flush=True)
    yield
    print(f"load average after: {os.getloadavg()}", flush=True)
