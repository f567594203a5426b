"""``bansugoroku perft``: leaves of the play tree over the 21 rolls, timed.

From depth 2 the count runs play by play of the first roll, behind a
progress bar on stderr (when it is a terminal; ``--no-progress`` turns it
off), and ``--divide`` prints each first roll's count as soon as it is known.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator

from tqdm import tqdm

from .. import moves as single
from ..checks import check_position_for_rules
from ..position import Position
from ..rules import ALL_ROLLS, Rules
from .common import (
    Commands,
    add_position_argument,
    add_rules_argument,
    position_arg,
    rules_name,
    whole_number,
)

#: From this depth the count is split play by play, for the progress bar
#: (below it the whole count takes milliseconds).
PROGRESS_DEPTH = 2


def add_parser(commands: Commands) -> None:
    perft = commands.add_parser("perft", help="count the plays over all 21 rolls for N plies")
    depth = whole_number("depth", 0, out_of_range="depth must be 0 or more, got {}")
    perft.add_argument("--depth", type=depth, required=True, metavar="N")
    add_position_argument(perft)
    add_rules_argument(perft)
    perft.add_argument("--divide", action="store_true", help="print the count of each first roll as it is known")
    perft.add_argument("--no-progress", action="store_true", help="no progress bar")
    perft.set_defaults(run=run_perft)


def roll_counts(position: Position, depth: int, rules: Rules, progress: bool) -> Iterator[tuple[tuple[int, int], int]]:
    """``(roll, count)`` for each first roll in :data:`ALL_ROLLS` order, as
    :func:`~bansugoroku_fast.perft_divide` counts them (a roll with no play
    is one leaf), counted play by play behind a progress bar."""
    plays = {roll: single.legal_plays(position, roll, rules) for roll in ALL_ROLLS}
    with tqdm(total=sum(max(len(found), 1) for found in plays.values()), disable=not progress, unit="play",
              leave=False, desc=f"perft({depth})") as bar:
        for roll, found in plays.items():
            count = 1 if not found else 0
            for play in found:
                count += single.perft(play.position.swapped(), depth - 1, rules)
                bar.update()
            if not found:
                bar.update()
            yield roll, count


def run_perft(args: argparse.Namespace) -> int:
    """Count the leaves of the play tree over the 21 rolls, and time it."""
    rules = Rules.parse(args.rules)
    position = position_arg(args.position)
    check_position_for_rules(position, rules)
    started = time.perf_counter()
    over = single.outcome(position, rules) is not None
    if args.depth < PROGRESS_DEPTH or over:
        if args.divide and args.depth >= 1 and not over:
            for (a, b), count in single.perft_divide(position, args.depth, rules).items():
                print(f"{a}-{b}: {count:,}")
        total = single.perft(position, args.depth, rules)
    else:
        progress = not args.no_progress and sys.stderr.isatty()
        total = 0
        for (a, b), count in roll_counts(position, args.depth, rules, progress):
            total += count
            if args.divide:
                print(f"{a}-{b}: {count:,}", flush=True)
    elapsed = time.perf_counter() - started
    print(f"perft({args.depth}) = {total:,}  [{rules_name(rules)}, {elapsed:.3f} s]")
    return 0
