"""Run the fuzz targets with atheris (libFuzzer), each in its own process.

    python -m fuzz --all --runs 3000             # the short run CI does
    python -m fuzz notation --seconds 600 --grow  # a long run that adds to the corpus

Each target starts from its corpus ``fuzz/corpus/<target>/``; new inputs go
to a scratch directory, and ``--grow`` copies them into the corpus (libFuzzer
keeps only inputs that reached new code). A target's
failure (an exception it does not allow, a crash, a sanitizer report) ends
the run with its exit status and leaves the input as ``crash-*`` in the
current directory.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
TARGET_NAMES = ("positions", "batch", "dice", "rules", "notation", "position_id", "xgid", "match_file", "match_id")


def _fuzz_one(name: str, libfuzzer_args: list[str]) -> None:
    """In this process: instrument the package, then hand over to libFuzzer
    (which exits the process when done)."""
    import atheris

    with atheris.instrument_imports(include=["bansugoroku_fast", "fuzz"]):
        from fuzz.targets import TARGETS
    atheris.Setup([sys.argv[0], *libfuzzer_args], TARGETS[name])
    atheris.Fuzz()


def _run(name: str, runs: int | None, seconds: int | None, grow: bool) -> int:
    corpus = CORPUS / name
    corpus.mkdir(parents=True, exist_ok=True)
    limits = [f"-runs={runs}"] if runs is not None else []
    if seconds is not None:
        limits.append(f"-max_total_time={seconds}")
    with tempfile.TemporaryDirectory() as scratch:
        # The first directory receives new inputs; the corpus is only read.
        command = [sys.executable, "-m", "fuzz", "--one", name,
                   scratch, str(corpus), "-keep_seed=1", "-timeout=20", "-rss_limit_mb=4096", *limits]
        print(f"fuzz {name}: {' '.join(command[3:])}", flush=True)
        status = subprocess.run(command, check=False).returncode
        if status == 0 and grow:  # libFuzzer kept only inputs that found new coverage
            for found in Path(scratch).iterdir():
                shutil.copy(found, corpus / found.name)
        return status


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--one"]:  # the child process: one target, libFuzzer's own arguments
        _fuzz_one(argv[1], argv[2:])
        return 0
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", metavar="target",
                        help=f"targets to run: {', '.join(TARGET_NAMES)}")
    parser.add_argument("--all", action="store_true", help="run every target")
    parser.add_argument("--runs", type=int, help="inputs per target")
    parser.add_argument("--seconds", type=int, help="time per target")
    parser.add_argument("--grow", action="store_true", help="merge new inputs into fuzz/corpus/<target>/")
    args = parser.parse_args(argv)
    names = TARGET_NAMES if args.all else args.targets
    unknown = set(names) - set(TARGET_NAMES)
    if not names or unknown:
        parser.error(f"name targets among {', '.join(TARGET_NAMES)} or give --all")
    for name in names:
        status = _run(name, args.runs, args.seconds, args.grow)
        if status:
            print(f"fuzz {name}: FAILED (exit status {status})", file=sys.stderr)
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
