"""The analysis of match files against GNU Backgammon's, timed in one run.

For each match file and each ply, GNU Backgammon (Debian's ``gnubg``, run as
``gnubg -t -q -p`` on a small script, one thread) imports the file and
analyses it; the library analyses the same file with
:func:`bansugoroku_fast.analyse` and the shipped network, one thread. Both
are timed in CPU seconds of the analysis alone (GNU Backgammon's inside its
own process, around ``analyse match``), and the ratio is GNU Backgammon's
time over the library's.

    python -m benchmarks.analyse                                # the reference matches, 0 and 2 plies
    python -m benchmarks.analyse --files tests/data/gnubg/analysis_7.mat --plies 0

GNU Backgammon's time covers its own network's evaluations; the library's
uses its shipped network (the figures of each analysis differ with the
network; ``tests/test_analysis.py`` compares them with GNU Backgammon's own
network plugged in).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time

from bansugoroku_fast import analyse, read_match

GNUBG = "/usr/games/gnubg"
#: Analysed before each timed run, and not timed.
WARM_UP = "tests/data/gnubg/auto5.mat"
FILES = ("tests/data/gnubg/analysis_3a.mat", "tests/data/gnubg/analysis_5.mat", "tests/data/gnubg/analysis_7.mat")

#: Run inside GNU Backgammon: analyse each file at each ply, print the CPU seconds as JSON.
SCRIPT = textwrap.dedent("""
    import json, sys, time
    import gnubg
    FILES, PLIES = {files!r}, {plies!r}
    gnubg.command("set threads 1")
    out = {{}}
    for path in FILES:
        for ply in PLIES:
            gnubg.command("import mat " + path)
            gnubg.command("set analysis chequerplay evaluation plies %d" % ply)
            gnubg.command("set analysis cubedecision evaluation plies %d" % ply)
            start = time.process_time()
            gnubg.command("analyse match")
            out["%s %d" % (path, ply)] = time.process_time() - start
    sys.stdout.write("RESULT " + json.dumps(out) + "\\n")
""")


def gnubg_seconds(files: list[str], plies: list[int]) -> dict[str, float]:
    """GNU Backgammon's CPU seconds for each ``"file ply"``."""
    with tempfile.TemporaryDirectory() as folder:
        script = os.path.join(folder, "time_analysis.py")
        with open(script, "w") as handle:
            handle.write(SCRIPT.format(files=[os.path.abspath(f) for f in files], plies=plies))
        done = subprocess.run([GNUBG, "-t", "-q", "-p", script], capture_output=True, text=True, check=True,
                              stdin=subprocess.DEVNULL)
    line = next(line for line in done.stdout.splitlines() if line.startswith("RESULT "))
    result: dict[str, float] = json.loads(line[len("RESULT "):])
    return result


def library_seconds(path: str, ply: int) -> float:
    """The library's CPU seconds to analyse ``path`` at ``ply`` on one thread."""
    record = read_match(path)
    # Load the network and the tables, and warm the allocator, on another
    # match first (GNU Backgammon has loaded its own before it is timed).
    analyse(read_match(WARM_UP), "net", ply=0, threads=1)
    start = time.process_time()
    analyse(record, "net", ply=ply, threads=1)
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", nargs="+", default=list(FILES))
    parser.add_argument("--plies", nargs="+", type=int, default=[0, 2])
    args = parser.parse_args(argv)
    if shutil.which(GNUBG) is None:
        print(f"{GNUBG} is absent: apt-get install gnubg", file=sys.stderr)
        return 2
    theirs = gnubg_seconds(args.files, args.plies)
    print("analysis of a match file, one thread (CPU seconds; ratio = GNU Backgammon's time over ours)")
    print(f"{'file':<32} {'ply':>3} {'library':>9} {'gnubg':>9} {'ratio':>7}")
    for path in args.files:
        for ply in args.plies:
            ours = library_seconds(path, ply)
            gnubg = theirs[f"{os.path.abspath(path)} {ply}"]
            print(f"{os.path.basename(path):<32} {ply:>3} {ours:>9.2f} {gnubg:>9.2f} {gnubg / ours:>7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
