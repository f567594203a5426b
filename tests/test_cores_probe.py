"""``benchmarks/cores.py``, the probe of what a second busy thread leaves
the first: its arithmetic on known runs, and its C program run once (the
figures the performance guide's account of two threads rests on).

The C program is compiled on the fly; that test is skipped where there is
no C compiler or fewer than two CPUs.
"""
from __future__ import annotations

import os

import pytest

from . import source_tree

source_tree.require("benchmarks")

from benchmarks import cores  # noqa: E402
from benchmarks.c_programs import HERE, build_program  # noqa: E402


def test_a_run_splits_the_time_it_lost_into_slower_and_off_the_cpu():
    # 10 ms alone; beside the other, 12.5 ms of wall clock of which 12 ms on
    # the CPU: two threads did 2 * 10 / 12.5 = 1.6 runs in the time of one,
    # 2 ms of the 2.5 lost went into running slower, 0.5 ms off the CPU.
    run = cores.Run(alone_wall=10.0, alone_cpu=10.0, beside_wall=12.5, beside_cpu=12.0)
    assert run.gain == pytest.approx(1.6)
    assert run.slower == pytest.approx(2.0)
    assert run.off_cpu == pytest.approx(0.5)


def test_the_table_counts_the_runs_under_the_target_and_shares_their_loss():
    shared_core = cores.Run(10.0, 10.0, 12.5, 12.0)      # 1.60x: 2 ms slower, 0.5 ms off the CPU
    stolen = cores.Run(10.0, 10.0, 12.5, 10.0)           # 1.60x: 2.5 ms off the CPU
    clean = cores.Run(10.0, 10.0, 10.0, 10.0)            # 2.00x
    lines = cores.table({"loop": [shared_core, stolen, clean]}).splitlines()
    # median 1.60x, lowest 1.60x, 2 runs of 3 under 1.8x; of their 5 ms
    # lost, 2 ran slower (40%) and 3 off the CPU (60%).
    assert lines[2] == "| loop | 1.60x | 1.60x | 2/3 | 40% | 60% |"
    assert cores.table({"loop": [clean]}).splitlines()[2] == "| loop | 2.00x | 2.00x | 0/1 | - | - |"


@source_tree.needs_c_compiler()
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_the_c_loops_run_alone_and_beside_each_other():
    program = build_program("cores", [os.path.join(HERE, "cores.c")])
    runs = cores.c_runs(program)
    assert set(runs) == {"latency-bound", "throughput-bound", "branchy-lookups"}
    for run in runs.values():
        assert 0 < run.alone_cpu <= run.alone_wall * 1.01 + 0.1
        assert 0 < run.beside_cpu <= run.beside_wall * 1.01 + 0.1
