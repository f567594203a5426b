"""Build the plain C yardsticks in ``benchmarks/`` on the fly into
``build/benchmarks`` and import them: ``_yardstick.pyx`` (the plain C loop
of whole random games) and ``_plain_movegen.pyx`` (a plain C move generator,
``plain_movegen.c``). A module is rebuilt when one of its sources (for
``_yardstick``, also the kernels' ``.pxd`` declarations) is newer than the
built file. The compiler flags are the package's (setup.py):
``-O3 -ffp-contract=off``, no ``-march``.

>>> from bansugoroku_fast import Position, Rules
>>> yardstick = load()
>>> yardstick.random_games(Position.initial().array, Rules(variant="backgammon").code, 3, 1) > 3 * 30
True
"""
from __future__ import annotations

import glob
import importlib
import os
import sys
from types import ModuleType

import numpy as np

from bansugoroku_fast import Rules, batch

from .corpus import DEFAULT_VARIANTS, sorted_child_order

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.join(ROOT, "build", "benchmarks")
#: The package's optimisation flags (setup.py), so the yardsticks are compiled alike.
COMPILE_ARGS = ["-O3", "-ffp-contract=off"]
#: The plain count's threads are OpenMP's (a parallel loop, the usual way
#: to put a plain C loop on threads), except on macOS, whose compiler has
#: none: there it runs on one thread whatever ``threads`` says.
OPENMP_ARGS = [] if sys.platform == "darwin" else ["-fopenmp"]
#: libgomp's settings for the yardstick, read when it loads (with the first
#: yardstick module), unless the caller set them: idle threads spin about
#: 0.1 ms, then sleep, as the package's pool threads do by default
#: (``bansugoroku_fast.batch.idle_spin``), not libgomp's own 3 ms.
OPENMP_SETTINGS = {"OMP_WAIT_POLICY": "passive", "GOMP_SPINCOUNT": "10000"}
#: Each yardstick module and what it is built from besides its ``.pyx``
#: (glob patterns under the repository root): ``_yardstick`` cimports the
#: kernels' declarations, ``_plain_movegen`` includes its C file.
INCLUDED_SOURCES = {
    "_yardstick": ("src/bansugoroku_fast/*.pxd", "src/bansugoroku_fast/*.h"),
    "_plain_movegen": ("benchmarks/plain_movegen.c",),
}


def load(name: str = "_yardstick") -> ModuleType:
    """The compiled yardstick module ``name`` (built once, then reused while
    its sources are unchanged)."""
    if BUILD not in sys.path:
        sys.path.insert(0, BUILD)
    if name in sys.modules:
        return sys.modules[name]
    if _stale(name):
        _build(name)
        importlib.invalidate_caches()
    caller_chose = any(setting in os.environ for setting in OPENMP_SETTINGS)
    if not caller_chose:
        os.environ.update(OPENMP_SETTINGS)
    try:
        return importlib.import_module(name)
    finally:
        if not caller_chose:
            for setting in OPENMP_SETTINGS:
                del os.environ[setting]


def _sources(name: str) -> list[str]:
    """The files module ``name`` is built from."""
    patterns = (f"benchmarks/{name}.pyx", *INCLUDED_SOURCES[name])
    return [path for pattern in patterns for path in glob.glob(os.path.join(ROOT, pattern))]


def _stale(name: str) -> bool:
    """No built module ``name``, or one older than a source."""
    built = glob.glob(os.path.join(BUILD, f"{name}.*.so")) + glob.glob(os.path.join(BUILD, f"{name}.*.pyd"))
    if not built:
        return True
    return max(os.path.getmtime(source) for source in _sources(name)) > min(map(os.path.getmtime, built))


def _build(name: str) -> None:
    import numpy
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    extension = Extension(
        name, [os.path.join(HERE, f"{name}.pyx")],
        # src/bansugoroku_fast: the headers the kernels' declarations include (bsf_portable.h)
        include_dirs=[numpy.get_include(), os.path.join(ROOT, "src"), os.path.join(ROOT, "src", "bansugoroku_fast"),
                      HERE],
        extra_compile_args=COMPILE_ARGS + OPENMP_ARGS, extra_link_args=OPENMP_ARGS,
    )
    distribution = Distribution({"ext_modules": cythonize(
        [extension], include_path=[os.path.join(ROOT, "src")], build_dir=BUILD, quiet=True, force=True,
    )})
    command = distribution.get_command_obj("build_ext")
    command.build_lib = BUILD
    command.build_temp = os.path.join(BUILD, "temp")
    command.force = True
    distribution.run_command("build_ext")


# --- the plain C move generator ------------------------------------------------


def plain_variant(rules: Rules) -> int:
    """The plain generator's code for ``rules``: it knows Ban-sugoroku's
    defaults (``Rules()``) and backgammon only.

    >>> plain_variant(Rules(variant="backgammon")) == load("_plain_movegen").VARIANTS["backgammon"]
    True
    """
    if rules not in DEFAULT_VARIANTS:
        raise ValueError(f"the plain C generator knows Rules() and backgammon only, not {rules.short_name}")
    return int(load("_plain_movegen").VARIANTS[rules.variant])


def plain_count(positions: np.ndarray, dice: np.ndarray, rules: Rules, threads: int = 1) -> np.ndarray:
    """``int32[n]``: the plain C generator's play counts (as ``count_plays``),
    on ``threads`` threads."""
    return load("_plain_movegen").count(positions, dice, plain_variant(rules), threads)  # type: ignore[no-any-return]


def plain_generate(positions: np.ndarray, dice: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``(offsets int64[n + 1], children int8[m, 2, 26])``: the plain C
    generator's plays (as ``generate_plays(..., fields=("children",))``,
    in its own order within each item)."""
    return load("_plain_movegen").generate(positions, dice, plain_variant(rules))  # type: ignore[no-any-return]


def disagreement(positions: np.ndarray, dice: np.ndarray, rules: Rules) -> str | None:
    """None if the plain C generator and ``bansugoroku_fast.batch`` give
    every item the same count and the same set of children; else which item
    differs first, and how.

    >>> from bansugoroku_fast import Position
    >>> start = Position.initial().array[None]
    >>> disagreement(start, np.array([[6, 5]], dtype=np.int8), Rules()) is None
    True
    """
    counts = batch.count_plays(positions, dice, rules, threads=1)
    plain_counts = plain_count(positions, dice, rules)
    if not np.array_equal(counts, plain_counts):
        item = int(np.flatnonzero(counts != plain_counts)[0])
        return f"{rules.short_name} item {item}: {plain_counts[item]} plays in C, {counts[item]} in the kernels"
    offsets, children = plain_generate(positions, dice, rules)
    ours = batch.generate_plays(positions, dice, rules, threads=1, fields=("children",))
    if not np.array_equal(offsets, ours.offsets):
        return f"{rules.short_name}: the plain C generator's offsets disagree with its counts"
    plain_sorted = children[sorted_child_order(offsets, children)]
    ours_sorted = ours.children[sorted_child_order(ours.offsets, ours.children)]
    differs = np.flatnonzero((plain_sorted != ours_sorted).reshape(len(children), -1).any(axis=1))
    if len(differs):
        item = int(np.searchsorted(offsets, differs[0], side="right") - 1)
        return f"{rules.short_name} item {item}: the plain C generator's children differ from the kernels'"
    return None
