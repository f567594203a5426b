"""``bansugoroku hint``: the legal plays of a roll, best first by rollout.

    bansugoroku hint POSITION_ID 6-5 [--rules RULES] [--policy P] [--games N] [--seed S]

Every legal play is rolled out ``--games`` times with the same dice after
each play (duplicate dice), as :func:`~bansugoroku_fast.rank_plays` does,
and the plays are listed best first with the mover's equity, its standard
error and how far behind the best play each is, with the standard error of
that difference over the paired games. A progress bar runs on stderr when
it is a terminal.
"""
from __future__ import annotations

import argparse
import sys

from ..checks import as_dice, as_rules, check_position_for_rules
from ..games.bulk import rank_plays
from ..games.policies import resolve_policies
from ..turn import dice_text
from .common import (
    Commands,
    add_rollout_options,
    add_rules_argument,
    plays_count,
    position_arg,
    rollout_flags,
    rollout_options,
    rules_name,
    whole_number,
)
from .rollout import policy_argument

DESCRIPTION = (
    "Rank the legal plays of a roll by rollout, as rank_plays does: each play is followed by --games games "
    "that see the same dice after every play; the plays are listed best first with the equity for the side "
    "to move, its standard error, and how far behind the best play each is."
)


def add_parser(commands: Commands) -> None:
    hint = commands.add_parser("hint", help="rank the plays of a roll by rollout (best first)",
                               description=DESCRIPTION)
    hint.add_argument("position", metavar="POSITION_ID", help="a GNU Backgammon Position ID or an XGID")
    hint.add_argument("dice", help="the roll, e.g. 6-5")
    add_rules_argument(hint)
    hint.add_argument("--policy", default="net",
                      help="the policy that plays the games out: random, first, heuristic, pubeval, race, net, "
                           "net1, or a pair 'heuristic,random' (default net: the shipped network of the rules)")
    hint.add_argument("--games", type=whole_number("games", 1, out_of_range="games: expected a positive whole "
                                                   "number, got {}"), default=1296, metavar="N",
                      help="games per play (default 1296)")
    hint.add_argument("--seed", type=whole_number("seed", 0, 2**64 - 1, out_of_range="seed must be in 0 .. "
                                                  "2**64 - 1, got {}"), default=0, metavar="S")
    add_rollout_options(hint)
    hint.add_argument("--no-progress", action="store_true", help="no progress bar")
    hint.set_defaults(run=run_hint)


def run_hint(args: argparse.Namespace) -> int:
    """Print the plays best first, with equities from the rollouts."""
    rules = as_rules(args.rules)
    position = position_arg(args.position)
    check_position_for_rules(position, rules)
    dice = as_dice(args.dice)
    policy = policy_argument(args.policy)
    resolve_policies(policy, rules, callables=True, networks=True)  # refused before any game is played
    progress = not args.no_progress and sys.stderr.isatty()
    ranked = rank_plays(position, dice, rules, games=args.games, policy=policy, seed=args.seed, progress=progress,
                        **rollout_options(args))
    if not ranked:
        print(f"No legal play for {dice_text(dice)}, {rules_name(rules)} rules: the turn passes (or the game is over).")
        return 0
    print(f"{plays_count(len(ranked))} for {dice_text(dice)}, {rules_name(rules)} rules, ranked by "
          f"{args.games:,} games each (policy {args.policy}, seed {args.seed}"
          + "".join(f" {flag}" for flag in rollout_flags(args)) + "); equity for the side to move:")
    best = ranked[0].equity
    width = max(len(str(entry.play)) for entry in ranked)
    for rank, entry in enumerate(ranked, start=1):
        behind = "" if rank == 1 else f"  {entry.equity - best:+.4f} +- {entry.difference_stderr:.4f}"
        print(f"{rank:3d}. {entry.play!s:<{width}}  {entry.equity:+.4f} +- {entry.stderr:.4f}{behind}")
    return 0
