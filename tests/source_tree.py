"""What a test needs beyond the installed package: files of the source tree
and a C compiler that works.

The suite also runs from a copy of ``tests/`` alone against an installed
wheel, on a machine path where no C compiler is reachable (``.ci/wheel``,
and cibuildwheel's test command). There the README, ``docs/``, ``src/``,
``benchmarks/`` and the rest of the tree are absent: a test that reads them,
or compiles C, skips and says what it needs, instead of failing on a file
that a user's installation never has.
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path

import pytest

#: The folder that holds ``tests/``: the project's root in a checkout.
ROOT = Path(__file__).resolve().parent.parent


def missing(*parts: str) -> list[str]:
    """The paths (relative to :data:`ROOT`) among ``parts`` that are absent."""
    return [part for part in parts if not (ROOT / part).exists()]


def reason(absent: list[str]) -> str:
    return (f"needs the source tree's {', '.join(absent)} (absent: the tests run from a copy, "
            "against an installed package)")


def needs(*parts: str) -> pytest.MarkDecorator:
    """A mark that skips a test (or, as ``pytestmark``, a module) unless
    every path of ``parts`` (relative to the root) exists."""
    absent = missing(*parts)
    return pytest.mark.skipif(bool(absent), reason=reason(absent))


def require(*parts: str) -> None:
    """Skip the whole module unless ``parts`` exist: for a module that
    imports from them at its top (``from benchmarks import ...``)."""
    absent = missing(*parts)
    if absent:
        pytest.skip(reason(absent), allow_module_level=True)


def path(*parts: str) -> Path:
    """``ROOT / parts``, or skip the test that asks for it if it is absent."""
    absent = missing("/".join(parts))
    if absent:
        pytest.skip(reason(absent))
    return ROOT.joinpath(*parts)


@functools.cache
def c_compiler() -> str | None:
    """The path of a C compiler that compiles a one-line program: ``$CC``,
    Python's own (sysconfig), ``gcc`` or ``cc``, the first that works; None
    if none does. A compiler on the path that fails (CI's shims) is none."""
    commands = [os.environ.get("CC") or "", sysconfig.get_config_var("CC") or "", "gcc", "cc"]
    candidates = [command.split()[0] for command in commands if command.strip()]  # the program, not its flags
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "probe.c")
        source.write_text("int main(void) { return 0; }\n")
        for name in candidates:
            found = shutil.which(name)
            if found is None:
                continue
            try:
                done = subprocess.run([found, str(source), "-o", str(Path(folder, "probe"))],
                                      capture_output=True, timeout=60, check=False)
            except (OSError, subprocess.SubprocessError):
                continue
            if done.returncode == 0:
                return found
    return None


def needs_c_compiler() -> pytest.MarkDecorator:
    """A mark that skips a test unless a C compiler works here."""
    return pytest.mark.skipif(c_compiler() is None, reason="needs a working C compiler (none found)")
