"""Print a table of ns per (position, roll) for each rule set, and write it
as markdown (``--readme`` puts it in benchmarks/README.md).

Measured on the corpus of each rule set (see ``benchmarks/corpus.py``), all
in the same run, interleaved, median of ``--repeats``: the batch count and
the batch generate on one and on two threads over the whole corpus, the
single-call ``legal_plays`` from Python on a sample, and the oracle on a
smaller sample (the corpus is stored in random order, so its first items are
a fair sample). Ratios: kernel against oracle on the count (both on the
oracle's sample), two threads against one, and each figure against its
target. ``--peers`` adds gnubg-nn, bgsage and OpenSpiel (``benchmarks/peers.py``).

    python -m benchmarks.run --readme --peers
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import re
import shlex
import sys
from datetime import date
from pathlib import Path

import numpy as np

from bansugoroku_fast import Rules, batch, moves, oracle
from bansugoroku_fast._validate import first_invalid

from . import corpus as corpus_module
from . import engines, timing

README = Path(__file__).resolve().parent / "README.md"
RESULTS_START = "<!-- results:start -->"
RESULTS_END = "<!-- results:end -->"

#: (Ban-sugoroku, backgammon) ceilings in ns per (position, roll), one thread.
COUNT_TARGET_NS = (60, 120)
GENERATE_TARGET_NS = (300, 500)
THREAD_SPEEDUP_TARGET = 1.7
ORACLE_SPEEDUP_TARGET = 1000

MEASURE_LABELS = {
    "count_1": "batch count_plays, 1 thread",
    "count_2": "batch count_plays, 2 threads",
    "generate_1": "batch generate_plays, 1 thread",
    "generate_2": "batch generate_plays, 2 threads",
    "stream_1": "batch iter_plays(reuse=True), 1 thread",
    "stream_2": "batch iter_plays(reuse=True), 2 threads",
    "single": "single-call legal_plays (Python loop)",
    "oracle": "oracle legal_plays (Python loop)",
    "count_1_sample": "batch count_plays, 1 thread, on the oracle's sample (tiled)",
    "validate": "of which: input validation (_validate.first_invalid), 1 thread",
}
#: The oracle's sample is repeated to at least this many items for the
#: kernel's figure on the same items, so that the per-call cost is spread.
TILED_SAMPLE_ITEMS = 30_000


@dataclasses.dataclass
class VariantResult:
    """The figures of one rule set: ns per item, and what they ran on."""

    rules: Rules
    corpus_line: str
    ns: dict[str, float]  # wall clock
    cpu: dict[str, float]  # process CPU time (all threads)
    items: dict[str, int]
    counts_match: bool  # batch counts == the corpus's recorded counts

    def get(self, name):
        return self.ns.get(name)


def variant_measures(corpus, single_items: int, oracle_items: int) -> tuple[dict, dict]:
    """The timing measures of one corpus, and the items each runs on."""
    rules = corpus.rules
    measures = {}
    positions, dice = corpus.positions, corpus.dice
    for threads in (1, 2):
        measures[f"count_{threads}"] = (
            lambda t=threads: batch.count_plays(positions, dice, rules, threads=t), len(corpus))
        measures[f"generate_{threads}"] = (
            lambda t=threads: batch.generate_plays(positions, dice, rules, threads=t), len(corpus))
        measures[f"stream_{threads}"] = (
            lambda t=threads: engines.stream(positions, dice, rules, t), len(corpus))
    measures["validate"] = (lambda: first_invalid(positions), len(corpus))
    sample = corpus.head(single_items).items()
    measures["single"] = (timing.loop_over(moves.legal_plays, [(p, d, rules) for p, d in sample]), len(sample))
    oracle_sample = corpus.head(oracle_items)
    oracle_calls = [(p, d, rules) for p, d in oracle_sample.items()]
    measures["oracle"] = (timing.loop_over(oracle.legal_plays, oracle_calls), len(oracle_calls))
    copies = -(-TILED_SAMPLE_ITEMS // len(oracle_sample))
    tiled_positions = np.tile(oracle_sample.positions, (copies, 1, 1))
    tiled_dice = np.tile(oracle_sample.dice, (copies, 1))
    measures["count_1_sample"] = (
        lambda: batch.count_plays(tiled_positions, tiled_dice, rules, threads=1), len(tiled_dice))
    return measures, {name: items for name, (_, items) in measures.items()}


def counts_match(corpus) -> bool:
    """Whether the batch kernel's counts equal the counts recorded in the corpus
    (and ``generate_plays`` agrees with them): a regression total."""
    counts = batch.count_plays(corpus.positions, corpus.dice, corpus.rules, threads=2)
    offsets = batch.generate_plays(corpus.positions, corpus.dice, corpus.rules, threads=2).offsets
    return bool(np.array_equal(counts, corpus.play_counts)
                and np.array_equal(np.diff(offsets), corpus.play_counts))


def measure_variant(rules, args) -> VariantResult:
    """Load the corpus of ``rules`` and take every measure on it."""
    corpus = corpus_module.load_corpus(rules, args.size, args.seed)
    measures, items = variant_measures(corpus, args.single_items, args.oracle_items)
    bar = timing.progress_bar(args.repeats * len(measures), not args.no_progress)
    try:
        figures = timing.interleaved_figures(measures, repeats=args.repeats,
                                             progress=(lambda _: bar.update()) if bar else None)
    finally:
        if bar:
            bar.close()
    wall = {name: figure.wall for name, figure in figures.items()}
    cpu = {name: figure.cpu for name, figure in figures.items()}
    return VariantResult(rules, corpus_module.summary(corpus), wall, cpu, items, counts_match(corpus))


# --- ratios and targets ----------------------------------------------------------


def _ratio(numerator, denominator):
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


def checks(result: VariantResult, gnubg) -> list[tuple[str, str, float | None, bool | None]]:
    """``(check, target text, value, met)`` rows for one rule set; ``gnubg``
    is the gnubg-nn peer result (or None), whose two timings were taken
    interleaved on the same items."""
    ns = result.ns
    bg = int(result.rules.is_backgammon)
    rows = []

    def ceiling(name, limit):
        value = ns.get(name)
        rows.append((f"{MEASURE_LABELS[name]}, ns", f"<= {limit}", value,
                     None if value is None else value <= limit))

    def at_least(label, target, value, unit="x"):
        rows.append((label, f">= {target:g}{unit}", value, None if value is None else value >= target))

    cpu = result.cpu

    def cpu_ceiling(name, limit):
        value = cpu.get(name)
        rows.append((f"{MEASURE_LABELS[name]}, CPU ns", f"<= {limit}", value,
                     None if value is None else value <= limit))

    def cpu_speedup(name):
        # two threads doing the same work in the CPU time they took: the
        # wall-clock speed-up they would give on two idle cores
        value = _ratio(2 * cpu.get(f"{name}_1", 0), cpu.get(f"{name}_2"))
        at_least(f"{name}: 2 threads vs 1, from CPU time (2 x CPU 1 / CPU 2)", THREAD_SPEEDUP_TARGET,
                 value if cpu.get(f"{name}_1") else None)

    ceiling("count_1", COUNT_TARGET_NS[bg])
    cpu_ceiling("count_1", COUNT_TARGET_NS[bg])
    ceiling("generate_1", GENERATE_TARGET_NS[bg])
    cpu_ceiling("generate_1", GENERATE_TARGET_NS[bg])
    ceiling("stream_1", GENERATE_TARGET_NS[bg])
    cpu_ceiling("stream_1", GENERATE_TARGET_NS[bg])
    at_least("count: 2 threads vs 1 thread", THREAD_SPEEDUP_TARGET, _ratio(ns.get("count_1"), ns.get("count_2")))
    cpu_speedup("count")
    at_least("generate: 2 threads vs 1 thread", THREAD_SPEEDUP_TARGET,
             _ratio(ns.get("generate_1"), ns.get("generate_2")))
    cpu_speedup("generate")
    at_least("stream: 2 threads vs 1 thread", THREAD_SPEEDUP_TARGET,
             _ratio(ns.get("stream_1"), ns.get("stream_2")))
    at_least("batch count vs oracle (same sample)", ORACLE_SPEEDUP_TARGET,
             _ratio(ns.get("oracle"), ns.get("count_1_sample")))
    if result.rules.is_backgammon:
        speed = _ratio(gnubg.ns_peer, gnubg.ns_ours_single) if gnubg is not None else None
        at_least("single-call legal_plays vs gnubg-nn moves() (speed)", 1.0, speed)
    return rows


def _status(value, met, target: str) -> str:
    if value is None or met is None:
        return "n/a"
    if met:
        return "met"
    number = float(re.sub(r"[^0-9.]", "", target))
    if target.startswith("<="):
        return f"missed by {value - number:,.0f} ns ({value / number:.2f}x the ceiling)"
    return f"missed ({value:.2f}x against {number:g}x)"


def _value(value, label: str) -> str:
    if value is None:
        return "n/a"
    if label.endswith("ns"):
        return f"{value:,.0f}"
    return f"{value:,.0f}x" if value >= 100 else f"{value:.2f}x"


# --- report ----------------------------------------------------------------------


def _ns(value) -> str:
    return "n/a" if value is None else f"{value:,.0f}"


def _speedup(value) -> str:
    if value is None:
        return "n/a"
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def ns_table(results: list[VariantResult]) -> list[str]:
    """ns per (position, roll), and each figure as a speed-up over the oracle
    measured in the same run."""
    header = "| measure | " + " | ".join(
        f"{r.rules.short_name}: ns | CPU ns | x oracle" for r in results) + " |"
    lines = [header, "|---|" + "---:|---:|---:|" * len(results)]
    for name, label in MEASURE_LABELS.items():
        cells = []
        for r in results:
            value, cpu = r.get(name), r.cpu.get(name)
            speedup = None if name == "validate" else _ratio(r.get("oracle"), value)
            cells.append(f"{_ns(value)} | {_ns(cpu)} | {_speedup(speedup)}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def items_line(results: list[VariantResult]) -> str:
    r = results[0]
    parts = [f"{MEASURE_LABELS[name].split(',')[0]}: {count:,}" for name, count in r.items.items()
             if name in ("count_1", "single", "oracle")]
    return "Items per measure: " + "; ".join(parts) + "."


def checks_table(results: list[VariantResult], gnubg) -> list[str]:
    lines = ["| check | target | " + " | ".join(f"{r.rules.short_name} | status" for r in results) + " |",
             "|---|---|" + "---:|---|" * len(results)]
    per_variant = [checks(r, gnubg) for r in results]
    labels = []
    for rows in per_variant:
        for label, *_ in rows:
            if label not in labels:
                labels.append(label)
    for label in labels:
        cells, targets = [], []
        for rows in per_variant:
            row = next((row for row in rows if row[0] == label), None)
            if row is None:
                cells.append("- | -")
                continue
            _, target_text, value, met = row
            if target_text not in targets:
                targets.append(target_text)
            cells.append(f"{_value(value, label)} | {_status(value, met, target_text)}")
        lines.append(f"| {label} | {' / '.join(targets)} | " + " | ".join(cells) + " |")
    return lines


def load_average() -> str:
    return "/".join(f"{value:.2f}" for value in os.getloadavg())


def machine_line(load_at_start: str) -> str:
    """CPU, cores, Python, numpy and the load averages (1, 5, 15 min) at the
    start and end of the run: other processes competing for the cores skew
    the two-thread figures most."""
    cpu = platform.processor() or platform.machine()
    try:
        text = Path("/proc/cpuinfo").read_text()
        cpu = re.search(r"model name\s*:\s*(.+)", text)[1]
    except (OSError, TypeError):
        pass
    from bansugoroku_fast import batch

    return (f"{cpu}, {os.cpu_count()} cores (load average {load_at_start} at the start, "
            f"{load_average()} at the end); idle pool threads spin {batch.idle_spin() * 1e3:g} ms; "
            f"Python {platform.python_version()}, numpy {np.__version__}")


def report(results, peer_results, command: str, load_at_start: str) -> str:
    """The markdown of one run."""
    from . import peers as peers_module

    gnubg = next((p for p in peer_results if p.name == "gnubg-nn" and p.ns_peer), None)
    engine_text = "; ".join(f"{k}: {v}" for k, v in engines.DESCRIPTION.items())
    lines = [
        f"Measured {date.today().isoformat()} with `{command}` on {machine_line(load_at_start)}.",
        f"Engines: {engine_text}.", "",
        *[f"- {r.corpus_line}; batch counts equal the recorded counts: {'yes' if r.counts_match else 'NO'}"
          for r in results],
        "", "ns per (position, roll), median of the repeats: wall clock, process CPU time "
        "(summed over threads), and the wall-clock speed-up over the oracle measured in the same run:", "",
        *ns_table(results), "", items_line(results), "",
        "Ratios measured in the same run, against the targets:", "",
        *checks_table(results, gnubg),
    ]
    if peer_results:
        lines += ["", "Peers on the backgammon corpus (same run):", "", peers_module.markdown(peer_results)]
    return "\n".join(lines) + "\n"


def write_readme(markdown: str, path: Path = README) -> None:
    """Put ``markdown`` between the result markers of the README."""
    text = path.read_text()
    start, end = text.index(RESULTS_START) + len(RESULTS_START), text.index(RESULTS_END)
    path.write_text(text[:start] + "\n" + markdown + text[end:])


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=corpus_module.DEFAULT_SIZE, help="corpus items")
    parser.add_argument("--seed", type=int, default=corpus_module.DEFAULT_SEED)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--single-items", type=int, default=20_000)
    parser.add_argument("--oracle-items", type=int, default=300)
    parser.add_argument("--all-rules", action="store_true", help="all seven rule combinations")
    parser.add_argument("--peers", action="store_true", help="also time and check peer engines")
    parser.add_argument("--peer-timed-items", type=int, default=20_000)
    parser.add_argument("--peer-checked-items", type=int, default=None, help="default: whole corpus")
    parser.add_argument("--openspiel-items", type=int, default=10_000)
    parser.add_argument("--markdown", type=Path, help="also write the markdown to this file")
    parser.add_argument("--readme", action="store_true", help="update benchmarks/README.md")
    parser.add_argument("--no-progress", action="store_true")
    return parser.parse_args(argv)


def main(argv=None) -> None:
    args = parse_args(argv)
    command = "python -m benchmarks.run " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    load_at_start = load_average()
    results = []
    for rules in corpus_module.variants(args.all_rules):
        print(f"{rules.short_name}: loading corpus and timing", file=sys.stderr)
        results.append(measure_variant(rules, args))
    peer_results = []
    if args.peers:
        from . import peers as peers_module

        bg_corpus = corpus_module.load_corpus(Rules(variant="backgammon"), args.size, args.seed)
        peer_results = peers_module.run_peers(
            bg_corpus, timed_items=args.peer_timed_items, checked_items=args.peer_checked_items,
            openspiel_items=args.openspiel_items, repeats=args.repeats,
            say=lambda text: print(text, file=sys.stderr))
    markdown = report(results, peer_results, command.strip(), load_at_start)
    print(markdown)
    if args.markdown:
        args.markdown.write_text(markdown)
    if args.readme:
        write_readme(markdown)


if __name__ == "__main__":
    main()
