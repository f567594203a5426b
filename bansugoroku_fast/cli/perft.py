"""``bansugoroku perft``: leaves of the play tree over the 21 rolls, timed."""
from __future__ import annotations

import argparse
import time

from .. import moves as single
from ..checks import check_position_for_rules
from ..rules import Rules
from .common import (
    Commands,
    add_position_argument,
    add_rules_argument,
    position_arg,
    rules_name,
    whole_number,
)


def add_parser(commands: Commands) -> None:
    perft = commands.add_parser("perft", help="count the plays over all 21 rolls for N plies")
    depth = whole_number("depth", 0, out_of_range="depth must be 0 or more, got {}")
    perft.add_argument("--depth", type=depth, required=True, metavar="N")
    add_position_argument(perft)
    add_rules_argument(perft)
    perft.add_argument("--divide", action="store_true", help="print the count of each first roll")
    perft.set_defaults(run=run_perft)


def run_perft(args: argparse.Namespace) -> int:
    """Count the leaves of the play tree over the 21 rolls, and time it."""
    rules = Rules.parse(args.rules)
    position = position_arg(args.position)
    check_position_for_rules(position, rules)
    started = time.perf_counter()
    if args.divide and args.depth >= 1 and single.outcome(position, rules) is None:
        per_roll = single.perft_divide(position, args.depth, rules)
        for (a, b), count in per_roll.items():
            print(f"{a}-{b}: {count:,}")
        total = sum(per_roll.values())
    else:
        total = single.perft(position, args.depth, rules)
    elapsed = time.perf_counter() - started
    print(f"perft({args.depth}) = {total:,}  [{rules_name(rules)}, {elapsed:.3f} s]")
    return 0


