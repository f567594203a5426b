"""What a second busy thread leaves the first on this machine, by the kind of code.

    python -m benchmarks.cores [--repeats 30]

Builds ``benchmarks/cores.c`` and runs, in turn, three C loops of about
10 ms, each on one thread alone, then on two threads at once (pinned to two
CPUs): a chain of dependent multiplies (latency-bound), six independent
chains (throughput-bound), and random reads of a 256 KB table with a branch
on each (as a move generator's inner loops). A run's gain is what two
threads did in the time of one: twice the time alone over the slower
thread's time beside the other (2.00x: the second thread cost the first
nothing). The table gives each loop's median gain over the runs, the
lowest, the runs under 1.8x (the two-thread target of issue 10), and
where the time lost in those went: into running slower (the thread's CPU
time beside the other above that alone) or off the CPU (wall clock above
CPU time: the host ran other work on the vCPU, which this kernel's steal
accounting leaves out of a thread's CPU time).

Why: a VM's two vCPUs may be two physical cores or the two hardware
threads (SMT siblings) of one, and the host moves them as it schedules.
Siblings share one core's execution units, so they slow each other only
where each needs them: the latency-bound chain keeps its 2.00x beside a
sibling, the throughput-bound loops do not. A host that slowed both
threads alike (a lower clock) would slow the chain too, and time stolen
by other guests shows as time off the CPU. So runs in which the chain
gains 2.00x and the other loops lose time by running slower, on the CPU,
are spells in which our two vCPUs shared a core: in those, no
two-thread code of that kind gains 1.8x, the batch kernels and the plain C
yardstick of ``speed.py`` alike.
"""
from __future__ import annotations

import os
import statistics
import subprocess
from typing import NamedTuple

from .c_programs import HERE, build_program
from .timing import load_noted, script_parser

#: The speed-up issue 10 asks of two threads.
TARGET = 1.8


class Run(NamedTuple):
    """One run of a loop, in ms: wall clock and the thread's CPU time, alone
    and beside another (the slower thread)."""

    alone_wall: float
    alone_cpu: float
    beside_wall: float
    beside_cpu: float

    @property
    def gain(self) -> float:
        """What two threads did in the time of one (2.0 at best)."""
        return 2 * self.alone_wall / self.beside_wall

    @property
    def off_cpu(self) -> float:
        """Time beside the other that the thread did not run: taken by the
        host (steal) or by the guest's other work."""
        return self.beside_wall - self.beside_cpu

    @property
    def slower(self) -> float:
        """CPU time beside the other above that alone: the loop ran slower."""
        return self.beside_cpu - self.alone_cpu


def runs(repeats: int) -> dict[str, list[Run]]:
    """``{loop: [each run]}`` for the loops of ``cores.c``."""
    program = build_program("cores", [os.path.join(HERE, "cores.c")])
    output = subprocess.run([program, str(repeats)], check=True, capture_output=True, text=True).stdout
    found: dict[str, list[Run]] = {}
    for line in output.splitlines():
        name, *milliseconds = line.split()
        found.setdefault(name, []).append(Run(*map(float, milliseconds)))
    return found


def table(found: dict[str, list[Run]]) -> str:
    """The runs as a Markdown table: gains, and where the time lost in the
    runs under the target went."""
    lines = ["| loop | median gain | lowest | runs under 1.8x | their lost time: ran slower | off the CPU |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, loop_runs in found.items():
        under = [run for run in loop_runs if run.gain < TARGET]
        lost = sum(run.beside_wall - run.alone_wall for run in under)
        shares = (f"{sum(run.slower for run in under) / lost:.0%} | {sum(run.off_cpu for run in under) / lost:.0%}"
                  if under and lost > 0 else "- | -")
        gains = [run.gain for run in loop_runs]
        lines.append(f"| {name} | {statistics.median(gains):.2f}x | {min(gains):.2f}x "
                     f"| {len(under)}/{len(loop_runs)} | {shares} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    args = script_parser(__doc__, repeats=30).parse_args(argv)
    with load_noted():
        found = runs(args.repeats)
    print(table(found))


if __name__ == "__main__":
    main()
