"""The ``bansugoroku`` command: legal plays, perft counts, games in the
terminal, match files and their analysis, the conformance kit and rollouts (``--help`` of each
subcommand for all its options).

    bansugoroku moves [--position ID] [--rules RULES] 6-5
    bansugoroku perft --depth N [--position ID] [--rules RULES] [--divide]
    bansugoroku play [--rules RULES] [--seed S] [--vs POLICY [--seat 0|1] | --seats P0,P1]
    bansugoroku match show FILE [--game N [--move M]]
    bansugoroku match check FILE
    bansugoroku analyse FILE.mat ... [--ply N] [--json] [--report FILE.html] [--plot FILE.png] [--threads T]
    bansugoroku conformance export DIR
    bansugoroku conformance check (--engine MODULE:FUNCTION | --command CMD) [--rules RULES]
    bansugoroku rollout [--position ID|XGID] [--rules RULES] [--games N] [--policy P] [--seed S]
                        [--threads T] [--stratify [36|1296]] [--json] [--plot FILE.png] [--no-progress]
    bansugoroku hint POSITION_ID 6-5 [--rules RULES] [--policy P] [--games N] [--seed S] [--no-progress]
    bansugoroku serve [--host 127.0.0.1] [--port 8000] [--open]
    bansugoroku --version

Bad input (an unreadable id, dice or rules label, an unreadable or illegal
play, a file that cannot be written: each option that writes a file checks
its path and format before any work) ends with a one-line ``error: ...`` on
stderr and exit status 2, never a traceback; ``match check`` reports a problem in the file it checks with
exit status 1.

>>> main(["moves", "--rules", "backgammon", "6-5"])  # doctest: +ELLIPSIS
 13 14 15 16 17 18  | 19 20 21 22 23 24
...
7 legal plays for 6-5 (Goroku), backgammon rules:
24/13
24/18 13/8
24/18 8/3
13/8 13/7
13/2
13/7 8/3
8/3 8/2
0
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ..version import __version__
from . import analyse, conformance, hint, match, moves, perft, play, race, rollout, serve
from .common import USER_ERRORS

# One module per subcommand, each with add_parser(commands); listed in the
# order ``--help`` shows them.
SUBCOMMANDS = (moves, perft, play, match, analyse, conformance, rollout, hint, race, serve)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bansugoroku",
        description="Legal plays for Ban-sugoroku (Japanese backgammon) and modern backgammon.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for subcommand in SUBCOMMANDS:
        subcommand.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return 0, or exit with status 2 on bad input."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
        return status
    except USER_ERRORS as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
