"""Small C programs of ``benchmarks/``, built on the fly with the system's
C compiler (``CC``, else ``cc`` or ``gcc``) into ``build/benchmarks``."""
from __future__ import annotations

import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KERNELS = os.path.join(ROOT, "src", "bansugoroku_fast")
BUILD = os.path.join(ROOT, "build", "benchmarks")


def build_program(name: str, sources: list[str], flags: tuple[str, ...] | list[str] = ()) -> str:
    """``sources`` (paths) compiled with ``-O2 -pthread`` and ``flags`` into
    the program ``name``: its path."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit(f"{name} needs a C compiler (cc or gcc, or CC)")
    os.makedirs(BUILD, exist_ok=True)
    program = os.path.join(BUILD, name)
    subprocess.run([compiler, "-O2", "-pthread", *flags, *sources, "-o", program], check=True)
    return program
