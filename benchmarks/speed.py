"""The batch kernels against a plain C move generator, in one run.

    python -m benchmarks.speed [--size 50000] [--repeats 5] [--json FILE]

Per rule set (Ban-sugoroku's defaults, backgammon), on the corpus of random
playout items (``benchmarks/corpus.py``), one process, every call into
fresh output arrays, interleaved, best of the repeats (wall ns per item):

* the plain C generator (``benchmarks/plain_movegen.c``, built on the fly by
  ``yardstick.py``) counting, and generating the children only;
* our ``count_plays``, ``generate_plays(fields=("children",))`` and
  ``generate_plays()`` (every field), one thread;
* our ``count_plays`` and ``generate_plays()`` on two threads, one call
  on its own (timed after five one-thread calls: the second thread has
  gone to sleep and must be woken, as in a program that calls now and
  then) and five calls in a row (as a stream of batches calls: the second
  thread is still awake after the first), both against five calls in a
  row on one thread (the same code just run, as before the two-thread
  call);
* the plain C count on one thread and on two, in both patterns, on as many
  items as it takes to last as long on one thread as our ``count_plays``
  ("as long as count_plays"), or as our ``generate_plays()`` ("as long as
  generate_plays"): a job of the same length gains as much from a second
  thread as the machine allows (the time to wake a sleeping thread, to
  share the items out), so these speed-ups say what ours can be held to
  (where they fall short of 2x, ``python -m benchmarks.cores`` tells the
  machine's share: on a VM whose two vCPUs are at times the SMT siblings
  of one core, two threads of any throughput-bound code gain less then,
  the kernels and this yardstick alike);
* ``generate_plays()`` with its output block straight from the OS, not
  recycled (``batch.set_output_recycling``): what the recycling saves, in
  the same run.

Nothing is timed unless the plain generator and the kernels agree on every
item (counts and child sets: ``yardstick.disagreement``). The table gives
each figure's ratio to the C figure of the same run (for two threads, the
speed-up over one thread in the same pattern) against the project's targets,
met or missed.
"""
from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from bansugoroku_fast import Rules, batch

from .corpus import DEFAULT_VARIANTS, load_corpus
from .timing import interleaved_figures, load_noted, not_recycled, progress_bar, script_parser, seconds_of
from .yardstick import disagreement, plain_count, plain_generate

SIZE = 50_000
CHILDREN = ("children",)


class Row(NamedTuple):
    """One line of the table: a measure, the measure it is compared with
    (None for a yardstick), the target on the ratio ("" for none), and
    whether the ratio is a speed-up (ns of ``against`` / ns) rather than a
    cost (ns / ns of ``against``)."""

    name: str
    against: str | None = None
    target: str = ""
    speed_up: bool = False


#: Calls in a row in the "5 calls in a row" measures.
IN_A_ROW = 5


def thread_names(name: str) -> tuple[str, str, str]:
    """The names of measure ``name`` in a row on one thread, once on two
    threads, and in a row on two."""
    return (f"{name}, {IN_A_ROW} calls in a row", f"{name}, 2 threads",
            f"{name}, 2 threads, {IN_A_ROW} calls in a row")


def thread_rows(name: str, target: str = "") -> tuple[Row, Row, Row]:
    """The rows of :func:`thread_names`, in the order they are timed: the
    calls in a row on one thread; one call on two threads, just after them
    (the second thread has gone to sleep, the caches hold what one thread
    left); and calls in a row on two threads. Both against the calls in a
    row on one thread, the same code just run, where a lone one-thread call
    comes after other code (the row ``name``: about 27 against 19 ns an
    item for the Ban-sugoroku count, caches and branch history cold)."""
    in_a_row_once, two_threads, two_threads_in_a_row = thread_names(name)
    return (Row(in_a_row_once), Row(two_threads, in_a_row_once, target, True),
            Row(two_threads_in_a_row, in_a_row_once, target, True))


def plain_as_long_name(ours: str) -> str:
    """The name of the plain C count as long as our measure ``ours``."""
    return f"plain C count, as long as {ours}"


#: The table, in order (the order of the timing too): costs at most their
#: target, speed-ups at least theirs.
ROWS = (
    Row("plain C count"),
    Row("count_plays", "plain C count", "<= 1.3"),
    Row("plain C generate (children)"),
    Row("generate_plays, children only", "plain C generate (children)", "<= 1.3"),
    Row("generate_plays, every field", "plain C generate (children)", "<= 1.6"),
    *thread_rows("count_plays", ">= 1.8"),
    *thread_rows("generate_plays, every field", ">= 1.8"),
    Row(plain_as_long_name("count_plays")),
    *thread_rows(plain_as_long_name("count_plays")),
    Row(plain_as_long_name("generate_plays")),
    *thread_rows(plain_as_long_name("generate_plays")),
    Row("generate_plays, every field, not recycled", "plain C generate (children)"),
)


def in_a_row(call: Callable[[], object]) -> Callable[[], None]:
    """``call`` :data:`IN_A_ROW` times, one after the other."""
    def calls() -> None:
        for _ in range(IN_A_ROW):
            call()
    return calls


Measures = dict[str, tuple[Callable[[], object], int]]


def thread_measures(name: str, on: Callable[[int], Callable[[], object]], items: int) -> Measures:
    """Measure ``name`` (``on(threads)`` a call over ``items`` items) on
    one thread, and as :func:`thread_names` names it."""
    in_a_row_once, two_threads, two_threads_in_a_row = thread_names(name)
    return {name: (on(1), items), in_a_row_once: (in_a_row(on(1)), IN_A_ROW * items),
            two_threads: (on(2), items), two_threads_in_a_row: (in_a_row(on(2)), IN_A_ROW * items)}


def best_seconds(call: Callable[[], object], repeats: int = 3) -> float:
    """The quickest of ``repeats`` calls, in seconds (to size a job)."""
    return min(seconds_of(call)[0] for _ in range(repeats))


def plain_as_long(ours_name: str, ours: Callable[[], object], positions: np.ndarray, dice: np.ndarray,
                  rules: Rules) -> Measures:
    """The measures of the plain C count as long as ``ours``
    (:func:`plain_as_long_name`): on the first items of the corpus, as many
    as last as long on one thread as ``ours`` does on all of them. Its
    items are a search each and its output is a count: a job of the same
    length with none of the kernels' costs of writing plays."""
    plain_count(positions, dice, rules)     # warm up (and build)
    ours()
    share = best_seconds(ours) / best_seconds(lambda: plain_count(positions, dice, rules))
    items = max(1, min(len(positions), round(share * len(positions))))
    some_positions, some_dice = positions[:items], dice[:items]

    def on(threads: int) -> Callable[[], object]:
        return lambda: plain_count(some_positions, some_dice, rules, threads)

    return thread_measures(plain_as_long_name(ours_name), on, items)


def measures(rules: Rules, size: int) -> Measures:
    """The timed calls of :data:`ROWS` on the corpus of ``rules``, after
    checking that the plain generator agrees with the kernels on it."""
    corpus = load_corpus(rules, size)
    positions, dice = corpus.positions, corpus.dice
    n = len(positions)
    problem = disagreement(positions, dice, rules)
    if problem is not None:
        raise SystemExit(f"not timed: the plain C generator disagrees with the kernels ({problem})")

    def generate(fields: tuple[str, ...]) -> Callable[[int], Callable[[], object]]:
        return lambda threads: lambda: batch.generate_plays(positions, dice, rules, threads=threads, fields=fields)

    def count(threads: int) -> Callable[[], object]:
        return lambda: batch.count_plays(positions, dice, rules, threads=threads)

    every_field = generate(batch.FIELDS)
    calls: Measures = {
        "plain C count": (lambda: plain_count(positions, dice, rules), n),
        "plain C generate (children)": (lambda: plain_generate(positions, dice, rules), n),
        "generate_plays, children only": (generate(CHILDREN)(1), n),
        **thread_measures("count_plays", count, n),
        **thread_measures("generate_plays, every field", every_field, n),
        **plain_as_long("count_plays", count(1), positions, dice, rules),
        **plain_as_long("generate_plays", every_field(1), positions, dice, rules),
        "generate_plays, every field, not recycled": (not_recycled(every_field(1)), n),
    }
    return {row.name: calls[row.name] for row in ROWS}


#: The C figures the project's first targets were set from (another
#: author's C, ns per item, another run): shown beside ours as an indication
#: only, as this run's plain C generator is much slower (benchmarks/README.md
#: says why).
ISSUE_C = {
    Rules().short_name: {"plain C count": 22.0, "plain C generate (children)": 235.0},
    Rules(variant="backgammon").short_name: {"plain C count": 58.0, "plain C generate (children)": 360.0},
}


def ratio(row: Row, figures: dict[str, float]) -> float | None:
    """The ratio ``row`` is judged on (None for a yardstick)."""
    if row.against is None:
        return None
    if row.speed_up:
        return figures[row.against] / figures[row.name]
    return figures[row.name] / figures[row.against]


def issue_ratio(row: Row, rules_name: str, figures: dict[str, float]) -> str:
    """The row's figure over the issue's C figure for the row's yardstick
    (for a yardstick, its own; "" where the issue has none)."""
    issue = ISSUE_C[rules_name].get(row.against or row.name)
    return "" if issue is None else f"{figures[row.name] / issue:.2f}x"


def met(row: Row, value: float | None) -> str:
    """``met`` or ``missed`` against the row's target ("" without one).

    >>> two_threads = Row("count_plays, 2 threads", "count_plays", ">= 1.8", True)
    >>> met(ROWS[1], 1.2), met(two_threads, 1.2), met(ROWS[0], None), met(ROWS[-1], 1.2)
    ('met', 'missed', '', '')
    """
    if value is None or not row.target:
        return ""
    bound = float(row.target[2:])
    return "met" if (value >= bound if row.target.startswith(">=") else value <= bound) else "missed"


def cell(row: Row, rules_name: str, figures: dict[str, float]) -> str:
    """One rule set's figures for ``row``, as benchmarks/README.md's table
    has them: "ns, ratio verdict, vs issue's C"."""
    value = ratio(row, figures)
    parts = [f"{figures[row.name]:,.0f}", "1.00x" if value is None else f"{value:.2f}x {met(row, value)}".strip()]
    issue = issue_ratio(row, rules_name, figures)
    return ", ".join(parts + [issue] if issue else parts)


def markdown(figures: dict[str, dict[str, float]]) -> str:
    """The table, one row per measure, one column per rule set (cells as
    :func:`cell`), to paste into benchmarks/README.md column by column."""
    lines = ["| measure | target |" + "".join(f" {name}: ns, ratio, vs issue's C |" for name in figures),
             "|---|---|" + "---|" * len(figures)]
    for row in ROWS:
        cells = "".join(f" {cell(row, name, per_rules)} |" for name, per_rules in figures.items())
        lines.append(f"| {row.name} | {row.target and row.target + 'x'} |{cells}")
    return "\n".join(lines)


def commit() -> str:
    """The checked-out commit (short hash), or "unknown"."""
    try:
        result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=os.path.dirname(os.path.abspath(__file__)), check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return result.stdout.strip()


def main(argv: list[str] | None = None) -> None:
    parser = script_parser(__doc__, size=SIZE, repeats=5)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")
    args = parser.parse_args(argv)
    with load_noted():
        calls = {(rules.short_name, name): call
                 for rules in DEFAULT_VARIANTS for name, call in measures(rules, args.size).items()}
        bar = progress_bar(len(calls) * args.repeats)
        found = interleaved_figures(calls, repeats=args.repeats, summary=min,
                                    progress=(lambda _: bar.update()) if bar is not None else None)
        if bar is not None:
            bar.close()
        load_after = os.getloadavg()
    figures: dict[str, dict[str, float]] = {rules.short_name: {} for rules in DEFAULT_VARIANTS}
    for (rules_name, name), figure in found.items():
        figures[rules_name][name] = figure.wall
    checked_out = commit()
    print(f"commit {checked_out}; {args.size:,} items per rule set, best of {args.repeats}, wall ns per item\n")
    print(markdown(figures))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"commit": checked_out, "size": args.size, "repeats": args.repeats,
                       "load_average_after": load_after, "ns_per_item": figures}, out, indent=1)


if __name__ == "__main__":
    main()
