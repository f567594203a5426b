"""Run an engine over the corpus: agreement per rule set and edge class, the
smallest example of each kind of disagreement, perft counts, and timing
against this library's kernels on the same items.

>>> from bansugoroku_fast import Rules
>>> from bansugoroku_fast.formats.conformance import load_corpus, reference
>>> items, perfts = load_corpus([Rules(variant="backgammon")])
>>> small = [perft for perft in perfts if perft.nodes < 1000]
>>> report = check_engine(PythonEngine(reference.kernel_engine), items[:50], small)
>>> report.ok, report.checked, report.perft_checked == len(small)
(True, 50, True)
"""
from __future__ import annotations

import gc
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tqdm import tqdm

from ... import moves
from ...position import Position
from ...rules import ALL_ROLLS, Rules
from . import reference
from .corpus import CorpusItem, PerftItem
from .engines import Engine, EngineFailure, PythonEngine

#: The kinds of disagreement, in the order the report lists them.
KINDS = ("missing", "extra", "duplicate", "finished", "perft", "crash", "hang")
FINISHED_TAG = "game_over"


@dataclass(frozen=True)
class Disagreement:
    """One item on which the engine and the corpus differ."""

    kind: str
    item: CorpusItem | PerftItem
    ids: tuple[str, ...] = ()  # the results concerned (missing, extra or duplicated)
    detail: str = ""

    @property
    def size(self) -> tuple[int, int]:
        """How small an example this is (results listed, then stones on the board)."""
        position = Position.from_id(self.item.position_id)
        listed = len(self.item.results) if isinstance(self.item, CorpusItem) else self.item.nodes
        return listed + len(self.ids), int(position.array[:, 1:].sum())


@dataclass
class Report:
    """What :func:`check_engine` found."""

    engine: str
    agreement: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # (rules, tag) -> [agree, total]
    disagreements: list[Disagreement] = field(default_factory=list)
    perft_checked: int = 0
    engine_ns: int = 0
    ours_ns: int = 0
    checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.disagreements

    def smallest(self) -> dict[str, Disagreement]:
        """The smallest example of each kind of disagreement found."""
        examples: dict[str, Disagreement] = {}
        for found in self.disagreements:
            best = examples.get(found.kind)
            if best is None or found.size < best.size:
                examples[found.kind] = found
        return {kind: examples[kind] for kind in KINDS if kind in examples}

    def render(self) -> str:
        lines = [f"Engine: {self.engine}", "", f"{'rules':24s} {'class':16s} {'agree':>7s} / total"]
        for (rules, tag), (agree, total) in sorted(self.agreement.items()):
            mark = "" if agree == total else "   <-- disagrees"
            lines.append(f"{rules:24s} {tag:16s} {agree:7d} / {total}{mark}")
        lines.append(f"perft: {self.perft_checked} counts checked")
        if self.checked:
            engine = self.engine_ns / self.checked
            ours = self.ours_ns / self.checked
            ratio = engine / ours if ours else float("nan")
            lines += ["", f"Time on the same {self.checked} items: engine {engine:,.0f} ns per item, "
                          f"bansugoroku-fast kernels {ours:,.0f} ns per item (engine / ours = {ratio:.2f})"]
        counts = Counter(found.kind for found in self.disagreements)
        if counts:
            lines += ["", "Disagreements: " + ", ".join(f"{counts[kind]} {kind}" for kind in KINDS if counts[kind])]
            for kind, example in self.smallest().items():
                lines += ["", f"Smallest '{kind}' example:", describe(example)]
        else:
            lines += ["", "The engine agrees with the corpus on every item."]
        return "\n".join(lines)


def _notation(item: CorpusItem, ids: Iterable[str]) -> list[str]:
    """Our notation for results we list; the Position ID for others."""
    position = Position.from_id(item.position_id)
    named = {play.position.id: str(play) for play in moves.legal_plays(position, item.dice, item.rules)}
    return [f"{named[result]} ({result})" if result in named else f"{result} (no legal play reaches it)"
            for result in ids]


def describe(found: Disagreement) -> str:
    """A disagreement as boards and notation."""
    item = found.item
    position = Position.from_id(item.position_id)
    if isinstance(item, PerftItem):
        head = f"rules {item.rules.short_name}, perft depth {item.depth} of {item.position_id}"
        return "\n".join([head, str(position), found.detail])
    a, b = item.dice
    lines = [f"rules {item.rules.short_name}, classes {','.join(item.tags)}: {item.position_id} {a}-{b}",
             str(position)]
    if found.kind == "missing":
        lines.append("plays the engine did not list: " + "; ".join(_notation(item, found.ids)))
    elif found.kind == "extra":
        lines.append("results the engine listed that no legal play reaches: " + "; ".join(found.ids))
        lines += ["the first of them:", str(Position.from_id(found.ids[0]))]
    elif found.kind == "duplicate":
        lines.append("listed more than once: " + "; ".join(_notation(item, found.ids)))
    else:
        lines.append(found.detail)
    if found.kind in ("missing", "extra", "duplicate"):
        legal = "; ".join(_notation(item, item.results)) or "none (the turn passes)"
        lines.append(f"the legal plays: {legal}")
    return "\n".join(lines)


def _compare(item: CorpusItem, listed: list[str]) -> list[Disagreement]:
    if FINISHED_TAG in item.tags and listed:
        detail = f"the game is over, so there is no play, but the engine listed {len(listed)}"
        return [Disagreement("finished", item, tuple(listed), detail)]
    expected = set(item.results)
    found = []
    counts = Counter(listed)
    duplicated = tuple(sorted(result for result, count in counts.items() if count > 1))
    if duplicated:
        found.append(Disagreement("duplicate", item, duplicated))
    missing = tuple(sorted(expected - set(listed)))
    if missing:
        found.append(Disagreement("missing", item, missing))
    extra = tuple(sorted(set(listed) - expected))
    if extra:
        found.append(Disagreement("extra", item, extra))
    return found


def _engine_perft(engine: Engine, position: Position, depth: int, rules: Rules) -> int:
    """perft through the engine's listings (a finished game, decided by this
    library's outcome, counts one; a roll with no play counts one)."""
    if depth == 0 or moves.outcome(position, rules) is not None:
        return 1
    total = 0
    for roll in ALL_ROLLS:
        listed = engine.results(position, roll, rules)
        if not listed:
            total += 1
        else:
            total += sum(_engine_perft(engine, Position.from_id(result).swapped(), depth - 1, rules)
                         for result in listed)
    return total


def _time_ours(position: Position, item: CorpusItem) -> int:
    """This library's kernels on the same item through the same interface a
    Python engine has (an ``int8[2, 26]`` array in, the resulting positions
    out: :func:`reference.kernel_engine`); timed right after the engine, so
    that both see the same machine load."""
    board = position.array.copy()
    started = time.perf_counter_ns()
    results = reference.kernel_engine(board, item.dice, item.rules)
    elapsed = time.perf_counter_ns() - started
    del results  # freed outside the timing, as the engine's results are
    return elapsed


def check_engine(engine: Engine, items: Sequence[CorpusItem], perfts: Sequence[PerftItem] = (),
                 *, progress: bool | None = None) -> Report:
    """Run ``engine`` over ``items`` and ``perfts``; stop at a crash or a hang."""
    report = Report(engine.name)
    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(total=len(items) + len(perfts), disable=not show, unit="item", desc="conformance")
    collecting = gc.isenabled()
    gc.disable()  # a collection inside one side's timing would charge it the other's garbage
    try:
        for item in items:
            position = Position.from_id(item.position_id)
            try:
                listed = engine.results(position, item.dice, item.rules)
            except EngineFailure as failure:
                report.disagreements.append(Disagreement(failure.kind, item, (), str(failure)))
                return report
            report.engine_ns += engine.last_ns
            report.ours_ns += _time_ours(position, item)
            report.checked += 1
            found = _compare(item, listed)
            report.disagreements.extend(found)
            for tag in item.tags:
                counts = report.agreement.setdefault((item.rules.short_name, tag), [0, 0])
                counts[0] += not found
                counts[1] += 1
            bar.update()
        for perft in perfts:
            try:
                nodes = _engine_perft(engine, Position.from_id(perft.position_id), perft.depth, perft.rules)
            except EngineFailure as failure:
                report.disagreements.append(Disagreement(failure.kind, perft, (), str(failure)))
                return report
            report.perft_checked += 1
            if nodes != perft.nodes:
                message = f"the engine's perft is {nodes:,}, the corpus says {perft.nodes:,}"
                report.disagreements.append(Disagreement("perft", perft, (), message))
            bar.update()
    finally:
        bar.close()
        if collecting:
            gc.enable()
    return report


__all__ = ["Disagreement", "PythonEngine", "Report", "check_engine", "describe"]
