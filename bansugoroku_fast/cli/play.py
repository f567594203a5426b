"""``bansugoroku play``: one game, printed move by move."""
from __future__ import annotations

import argparse
import random

from ..game import Game, play_random_game
from ..rules import Rules
from .common import Commands, add_rules_argument, rules_name


def add_parser(commands: Commands) -> None:
    play = commands.add_parser("play", help="play one random game and print it")
    add_rules_argument(play)
    play.add_argument("--seed", type=int, help="seed of the dice and choices (default: random)")
    play.set_defaults(run=run_play)


def _describe_start(game: Game) -> str:
    if not game.opening_rolls:
        return f"Seat {game.starter} starts (alternate: seat 0 starts the first game)."
    rolls = "; ".join(f"seat 0 rolls {a}, seat 1 rolls {b}" for a, b in game.opening_rolls)
    how = "plays those two dice" if game.rules.is_backgammon else "rolls both dice afresh"
    return f"Roll-off: {rolls}. Seat {game.starter} starts and {how}."


def run_play(args: argparse.Namespace) -> int:
    """Play one random game and print its moves and its result."""
    rules = Rules.parse(args.rules)
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    game = play_random_game(rules, seed)
    print(f"A random game, {rules_name(rules)} rules, seed {seed}")
    print(_describe_start(game))
    for record in game.history:
        print(record)
    print()
    print(f"Final position, seen by seat {game.seat_to_move} (X), who moved last:")
    print(game.position)
    print()
    print(f"Result: {game.result}.")
    return 0


