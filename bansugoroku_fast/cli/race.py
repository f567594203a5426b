"""``bansugoroku race``: the exact figures of a race from the endgame tables.

The position's side to move (X) rolls; the figures are the winning and
gammon chances, each side's expected turns to finish and the cubeless
equity, with the method (``two-sided``: exact for both sides playing to
win; ``one-sided``: the convolution of the two sides' distributions of
turns, see docs/endgames.md). A position with contact, or with stones
outside the tables' points, is a one-line error with exit status 2.
"""
from __future__ import annotations

import argparse
import json

from ..checks import check_position_for_rules
from ..endgames import RaceResult, race
from ..rules import Rules
from .common import SIDE_NAMES, Commands, add_rules_argument, position_arg, rules_name


def add_parser(commands: Commands) -> None:
    parser = commands.add_parser("race", help="exact race figures (no contact) from the endgame tables")
    parser.add_argument("position", metavar="POSITION_ID", help="a GNU Backgammon Position ID or an XGID")
    add_rules_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run_race)


def run_race(args: argparse.Namespace) -> int:
    """Print the exact race figures of the position, X to roll."""
    rules = Rules.parse(args.rules)
    position = position_arg(args.position)
    check_position_for_rules(position, rules)
    result = race(position, rules)
    print(json.dumps(as_dict(result)) if args.json else "\n".join(lines(result, rules)))
    return 0


def as_dict(result: RaceResult) -> dict[str, object]:
    return {"win": result.win, "win_gammon": result.win_gammon, "lose_gammon": result.lose_gammon,
            "equity": result.equity, "turns": list(result.turns), "method": result.method}


def lines(result: RaceResult, rules: Rules) -> list[str]:
    """The figures as text, one per line."""
    text = [f"race, {rules_name(rules)} rules, {SIDE_NAMES[0]} to roll ({result.method}, exact tables)",
            f"  win          {result.win:.6f}"]
    if rules.is_backgammon:
        text += [f"  win gammon   {result.win_gammon:.6f}", f"  lose gammon  {result.lose_gammon:.6f}"]
    text += [f"  equity       {result.equity:+.6f} (cubeless)",
             f"  turns X      {result.turns[0]:.4f} (expected, alone)",
             f"  turns O      {result.turns[1]:.4f} (expected, alone)"]
    return text
