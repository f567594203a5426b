"""What ``import bansugoroku_fast`` costs, against numpy's own import.

Runs ``python -X importtime -c "import numpy"`` and ``python -X importtime
-c "import bansugoroku_fast"`` in fresh interpreters, alternately, and reads
each run's cumulative time of the top-level import (microseconds, as
``-X importtime`` prints it). The package's import includes numpy's, so the
figure that matters is the difference; the target is at most 40 ms over
numpy. Also lists the package's modules that one import loads.

An editable install (``pip install -e``) adds its own import hook, shown as
``__editable__...finder`` in ``-X importtime``: where it is imported inside
the package's import its time is reported apart and left out of the
difference, since a user's install has none (imported at start-up by
``site``, it is in neither figure).

The children run with bytecode caching on (``PYTHONDONTWRITEBYTECODE`` left
out of their environment) after one warm-up import, as an installed package
runs (pip compiles its ``.pyc`` files at install): without it every import
would compile the package's sources again, which no installed package does.

    python -m benchmarks.import_time [--runs 15]
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

TARGET_MS = 40.0
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)")


#: The children's environment: bytecode cached, as in an installed package.
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def cumulative_us(statement: str) -> dict[str, int]:
    """Cumulative import time (us) of each top-level module ``statement``
    imports, and (under ``__editable__``) that of the editable-install hook
    where it was imported inside the package's import."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-c", statement],
                         capture_output=True, text=True, check=True, env=CHILD_ENV)
    times = {"__editable__": 0}
    hook_in_block = 0  # the hook's time among the modules since the last top-level one
    for line in run.stderr.splitlines():
        match = LINE.match(line)
        if not match:
            continue
        if match.group(4).startswith("__editable__"):
            hook_in_block += int(match.group(2))
        if len(match.group(3)) == 1:   # top level: one space of indent; its block ends here
            times[match.group(4)] = int(match.group(2))
            if match.group(4) == "bansugoroku_fast":
                times["__editable__"] = hook_in_block
            hook_in_block = 0
    return times


def loaded_modules() -> list[str]:
    code = "import sys, bansugoroku_fast; print(*sorted(m for m in sys.modules if m.startswith('bansugoroku_fast')))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    subprocess.run([sys.executable, "-c", "import bansugoroku_fast"], check=True, env=CHILD_ENV)  # the .pyc files
    numpy_ms, package_ms, hook_ms = [], [], []
    for _ in range(args.runs):
        numpy_ms.append(cumulative_us("import numpy")["numpy"] / 1000)
        times = cumulative_us("import bansugoroku_fast")
        hook = times["__editable__"]
        package_ms.append((times["bansugoroku_fast"] - hook) / 1000)
        hook_ms.append(hook / 1000)
    numpy_median, package_median = statistics.median(numpy_ms), statistics.median(package_ms)
    hook_median = statistics.median(hook_ms)
    over = package_median - numpy_median
    print(f"runs: {args.runs} of each, alternating; medians")
    print(f"import numpy:            {numpy_median:7.1f} ms")
    print(f"import bansugoroku_fast: {package_median:7.1f} ms (numpy included, the hook left out)")
    if hook_median:
        print(f"  editable-install hook: {hook_median:7.1f} ms (not in a user's install; left out above)")
    verdict = "met" if over <= TARGET_MS else "missed"
    print(f"over numpy:              {over:7.1f} ms (target <= {TARGET_MS:.0f} ms: {verdict})")
    modules = loaded_modules()
    short = ' '.join(name.removeprefix('bansugoroku_fast.') for name in modules)
    print(f"package modules loaded: {len(modules)}: {short}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
