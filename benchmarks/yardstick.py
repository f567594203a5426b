"""Build ``benchmarks/_yardstick.pyx`` (the plain C loop of whole random
games) on the fly into ``build/benchmarks`` and import it.

>>> from bansugoroku_fast import Position, Rules
>>> yardstick = load()
>>> yardstick.random_games(Position.initial().array, Rules(variant="backgammon").code, 3, 1) > 3 * 30
True
"""
from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.join(ROOT, "build", "benchmarks")


def load() -> ModuleType:
    """The compiled yardstick module (built once, then reused)."""
    if BUILD not in sys.path:
        sys.path.insert(0, BUILD)
    try:
        return importlib.import_module("_yardstick")
    except ImportError:
        _build()
        importlib.invalidate_caches()
        return importlib.import_module("_yardstick")


def _build() -> None:
    import numpy
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    extension = Extension(
        "_yardstick", [os.path.join(HERE, "_yardstick.pyx")],
        include_dirs=[numpy.get_include(), os.path.join(ROOT, "src")],
        extra_compile_args=["-O3"],
    )
    distribution = Distribution({"ext_modules": cythonize(
        [extension], include_path=[os.path.join(ROOT, "src")], build_dir=BUILD, quiet=True,
    )})
    command = distribution.get_command_obj("build_ext")
    command.build_lib = BUILD
    command.build_temp = os.path.join(BUILD, "temp")
    distribution.run_command("build_ext")
