"""``bansugoroku moves``: the board and the legal plays of a roll."""
from __future__ import annotations

import argparse

from .. import moves as single
from ..checks import as_dice
from ..rules import Rules
from ..turn import dice_text
from .common import (
    SIDE_NAMES,
    Commands,
    add_position_argument,
    add_rules_argument,
    plays_count,
    position_arg,
    rules_name,
)


def add_parser(commands: Commands) -> None:
    moves = commands.add_parser("moves", help="list the legal plays of a roll")
    moves.add_argument("dice", help="the roll, e.g. 6-5")
    add_position_argument(moves)
    add_rules_argument(moves)
    moves.set_defaults(run=run_moves)


def run_moves(args: argparse.Namespace) -> int:
    """Print the board and the legal plays of a roll."""
    rules = Rules.parse(args.rules)
    position = position_arg(args.position)
    dice = as_dice(args.dice)
    finished = single.outcome(position, rules)
    print(position)
    print()
    if finished is not None:
        print(
            f"The game is over: {SIDE_NAMES[finished.winner]} has won "
            f"({finished.kind}, worth {finished.value}); there is nothing to play."
        )
        return 0
    plays = single.legal_plays(position, dice, rules)
    if not plays:
        print(f"No legal play for {dice_text(dice)}, {rules_name(rules)} rules: the turn passes.")
        return 0
    print(f"{plays_count(len(plays))} for {dice_text(dice)}, {rules_name(rules)} rules:")
    for play in plays:
        print(play)
    return 0


