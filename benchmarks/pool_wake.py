"""The pool's wake-up rules, timed from C with and without each of them.

    python -m benchmarks.pool_wake [--calls 300]

Builds ``benchmarks/pool_wake.c`` against ``src/bansugoroku_fast/bsf_pool.c``
four times (into ``build/benchmarks``) with the system C compiler:

* **pool**: as the package builds it;
* **always wake**: ``-DWAKE_WORTH_NS=0``, a sleeping pool thread woken for
  every job of more than one chunk, however short;
* **no stream rule**: ``-DSTREAM_NS=0``, a job right after another woken
  for only if it is long enough, as after idle;
* **no placement**: ``-DKEEP_OFF_CALLER=0``, a woken pool thread left where
  the scheduler puts it (possibly the caller's CPU).

Each runs jobs of 100 and 400 items of 1 us (0.1 and 0.4 ms on one thread),
on two threads, in chunks of 25, each job after 50 us of work (the pool
thread still spinning), 1 ms asleep or 10 ms asleep, and reports the
columns ``pool_wake.c`` prints (its docstring says what each is). The
variants run in turn, each pattern ``--repeats`` times, and the table keeps
the median of the repeats.

The figures that ``bsf_pool.c``'s comments give come from this command;
a pool thread that dozed between jobs, tried with it and dropped, is told
in ``docs/performance/history.md``.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys

from .c_programs import HERE, KERNELS, build_program
from .timing import load_noted, progress_bar, script_parser

VARIANTS = {"pool": [], "always wake": ["-DWAKE_WORTH_NS=0"], "no stream rule": ["-DSTREAM_NS=0"],
            "no placement": ["-DKEEP_OFF_CALLER=0"]}
PATTERNS = {"50 us busy (spinning)": 0, "1 ms asleep": 1000, "10 ms asleep": 10000}
ITEMS = (100, 400)
COLUMNS = ("speed-up p50", "speed-up p10", "joined", "join p50, us", "caller stall p50, us",
           "caller stall p90, us", "shared CPU", "pool CPU")


def build(name: str, flags: list[str]) -> str:
    """The probe built with ``flags``: its path."""
    return build_program("pool_wake_" + name.replace(" ", "_"), [os.path.join(HERE, "pool_wake.c"),
                         os.path.join(KERNELS, "bsf_pool.c")], [f"-I{KERNELS}", *flags])


def row(program: str, items: int, gap_us: int, calls: int) -> list[float]:
    """The figures of one run of ``program``."""
    output = subprocess.run([program, str(items), str(gap_us), str(calls)], check=True,
                            capture_output=True, text=True).stdout
    return [float(value) for value in output.split()]


def main(argv: list[str] | None = None) -> None:
    parser = script_parser(__doc__, repeats=3)
    parser.add_argument("--calls", type=int, default=300, help="jobs a run")
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("(not Linux: the placement rule does nothing here)")
    programs = {name: build(name, flags) for name, flags in VARIANTS.items()}
    runs: dict[tuple[str, str, int], list[list[float]]] = {}
    bar = progress_bar(args.repeats * len(PATTERNS) * len(ITEMS) * len(programs))
    with load_noted():
        for _ in range(args.repeats):
            for pattern, gap_us in PATTERNS.items():
                for items in ITEMS:
                    for name, program in programs.items():
                        runs.setdefault((pattern, name, items), []).append(row(program, items, gap_us, args.calls))
                        if bar is not None:
                            bar.update(1)
    if bar is not None:
        bar.close()
    print(f"{args.calls} jobs a run, median of {args.repeats} runs")
    print("| before the job | variant | items | " + " | ".join(COLUMNS) + " |")
    print("|---|---|---:|" + "---:|" * len(COLUMNS))
    for (pattern, name, items), figures in runs.items():
        medians = [statistics.median(column) for column in zip(*figures)]
        cells = [f"{value:.2f}" if k in (0, 1, 2, 6, 7) else f"{value:.0f}" for k, value in enumerate(medians)]
        print(f"| {pattern} | {name} | {items} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
