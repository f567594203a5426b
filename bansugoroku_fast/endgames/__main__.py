"""``python -m bansugoroku_fast.endgames build [--kind NAME ...]``: build the
endgame tables and write them to the cache directory, with a progress bar.

Exit status 0 when every table was written, 1 when the cache directory
cannot be written (the message says where and why).
"""
from __future__ import annotations

import argparse
import sys
import time

from tqdm import tqdm

from ..errors import EndgameCacheError
from .store import KINDS, ROWS_PER_KIND, build, cache_path, kind_rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bansugoroku_fast.endgames",
                                     description="Build the exact endgame tables into the cache directory.")
    commands = parser.add_subparsers(dest="command", required=True)
    build_command = commands.add_parser("build", help="build every table (or those of --kind) and cache them")
    build_command.add_argument("--kind", action="append", choices=sorted(KINDS),
                               help="a kind of table to build (repeatable; default: all)")
    arguments = parser.parse_args(argv)
    kinds = [KINDS[name] for name in (arguments.kind or list(KINDS))]
    with tqdm(total=ROWS_PER_KIND * len(kinds), unit="row", desc="endgame tables") as bar:
        for kind in kinds:
            done_before = bar.n

            def report(rows: int, start: int = done_before) -> None:
                bar.update(start + rows - bar.n)

            started = time.perf_counter()
            try:
                build(kind_rules(kind), cache=True, progress=report)
            except EndgameCacheError as error:
                bar.close()
                print(f"error: {error}", file=sys.stderr)
                return 1
            bar.write(f"{kind.name}: built in {time.perf_counter() - started:.1f} s, written to {cache_path(kind)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
