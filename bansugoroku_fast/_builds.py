"""Which build of the batch kernels this process runs.

The batch kernels (``src/bansugoroku_fast/_batch.pyx``) are compiled twice
on x86-64: ``_batch`` for the architecture's baseline (SSE2), which runs on
every CPU, and ``_batch_avx2`` from the same source for CPUs with AVX2,
BMI1/2 and POPCNT (nearly every x86-64 CPU since 2013-2015), where a batch
count takes about a fifth fewer instructions. At import, before any other
module of the package reads ``_batch``, :func:`install` puts the fastest
build this CPU runs in its place, so that every ``from . import _batch``
gets it; the two give the same results (``tests/test_builds.py``). What the
CPU has is asked of ``_cpu``, compiled once for the baseline. The other
kernel modules (the single-position entry points of ``_single`` among
them) are built once: their work is in the modules they call.

Set ``BANSUGOROKU_KERNELS=baseline`` before the import to run the baseline
build anyway. ``bansugoroku_fast.batch.KERNEL_BUILD`` says which runs.
"""
from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

from . import _batch, _cpu

#: The baseline build, whichever :func:`install` chose.
BASELINE: ModuleType = _batch
#: The environment variable that forces the baseline build (value ``baseline``).
CHOICE_VARIABLE = "BANSUGOROKU_KERNELS"
CHOICES = ("fastest", "baseline")


def fastest_build() -> ModuleType:
    """The batch kernels to run: ``_batch_avx2`` where it was built and the
    CPU has what it uses, unless ``BANSUGOROKU_KERNELS=baseline``; else
    ``_batch``."""
    choice = os.environ.get(CHOICE_VARIABLE, "fastest")
    if choice not in CHOICES:
        raise ValueError(f"{CHOICE_VARIABLE}={choice!r}: accepted values are {', '.join(CHOICES)}")
    if choice == "baseline" or BASELINE.BUILT_FOR == "avx2" or not _cpu.cpu_has_avx2():
        return BASELINE
    try:
        return importlib.import_module(f"{__package__}._batch_avx2")
    except ImportError:     # not built here (another architecture, a native build)
        return BASELINE


def install() -> ModuleType:
    """Make :func:`fastest_build` the package's ``_batch`` module (attribute
    and ``sys.modules`` entry); return it."""
    chosen = fastest_build()
    sys.modules[f"{__package__}._batch"] = chosen
    vars(sys.modules[__package__])["_batch"] = chosen    # what ``from . import _batch`` reads first
    return chosen
