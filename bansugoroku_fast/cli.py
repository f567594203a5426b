"""The ``bansugoroku`` command: legal plays, perft counts and a demo game.

    bansugoroku moves [--position ID] [--rules RULES] 6-5
    bansugoroku perft --depth N [--position ID] [--rules RULES] [--divide]
    bansugoroku play [--rules RULES] [--seed S]

Bad input (an unreadable id, dice or rules label) ends with a one-line
``error: ...`` on stderr and exit status 2, never a traceback.

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
import random
import sys
import time

import bansugoroku_fast as package
from .checks import as_dice, check_position_for_rules
from .errors import GameStateError, IllegalPlayError, InvalidDiceError, InvalidPositionError, InvalidRulesError
from .game import dice_text, play_random_game
from .position import Position
from .rules import Rules

USER_ERRORS = (InvalidPositionError, InvalidDiceError, InvalidRulesError, IllegalPlayError, GameStateError)
SIDE_NAMES = ("X (the side to move)", "O (the opponent)")


def _rules_name(rules: Rules) -> str:
    return "backgammon" if rules.is_backgammon else rules.short_name.replace("ban/", "Ban-sugoroku ")


def _position(text: str | None) -> Position:
    return Position.initial() if text is None else Position.from_id(text.strip())


def _plays_count(count: int) -> str:
    return f"{count} legal play{'s' if count != 1 else ''}"


# --- moves --------------------------------------------------------------------


def run_moves(args) -> int:
    """Print the board and the legal plays of a roll."""
    rules = Rules.parse(args.rules)
    position = _position(args.position)
    dice = as_dice(args.dice)
    finished = package.outcome(position, rules)
    print(position)
    print()
    if finished is not None:
        print(
            f"The game is over: {SIDE_NAMES[finished.winner]} has won "
            f"({finished.kind}, worth {finished.value}); there is nothing to play."
        )
        return 0
    plays = package.legal_plays(position, dice, rules)
    if not plays:
        print(f"No legal play for {dice_text(dice)}, {_rules_name(rules)} rules: the turn passes.")
        return 0
    print(f"{_plays_count(len(plays))} for {dice_text(dice)}, {_rules_name(rules)} rules:")
    for play in plays:
        print(play)
    return 0


# --- perft --------------------------------------------------------------------


def run_perft(args) -> int:
    """Count the leaves of the play tree over the 21 rolls, and time it."""
    rules = Rules.parse(args.rules)
    position = _position(args.position)
    check_position_for_rules(position, rules)
    started = time.perf_counter()
    if args.divide and args.depth >= 1 and package.outcome(position, rules) is None:
        per_roll = package.perft_divide(position, args.depth, rules)
        for (a, b), count in per_roll.items():
            print(f"{a}-{b}: {count:,}")
        total = sum(per_roll.values())
    else:
        total = package.perft(position, args.depth, rules)
    elapsed = time.perf_counter() - started
    print(f"perft({args.depth}) = {total:,}  [{_rules_name(rules)}, {elapsed:.3f} s]")
    return 0


# --- play ---------------------------------------------------------------------


def _describe_start(game) -> str:
    if not game.opening_rolls:
        return f"Seat {game.starter} starts (alternate: seat 0 starts the first game)."
    rolls = "; ".join(f"seat 0 rolls {a}, seat 1 rolls {b}" for a, b in game.opening_rolls)
    how = "plays those two dice" if game.rules.is_backgammon else "rolls both dice afresh"
    return f"Roll-off: {rolls}. Seat {game.starter} starts and {how}."


def run_play(args) -> int:
    """Play one random game and print its moves and its result."""
    rules = Rules.parse(args.rules)
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    game = play_random_game(rules, seed)
    print(f"A random game, {_rules_name(rules)} rules, seed {seed}")
    print(_describe_start(game))
    for record in game.history:
        print(record)
    print()
    print(f"Final position, seen by seat {game.seat_to_move} (X), who moved last:")
    print(game.position)
    print()
    print(f"Result: {game.result}.")
    return 0


# --- the parser -----------------------------------------------------------------


def _depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be a whole number, got {text!r}") from None
    if depth < 0:
        raise argparse.ArgumentTypeError(f"depth must be 0 or more, got {depth}")
    return depth


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bansugoroku",
        description="Legal plays for Ban-sugoroku (Japanese backgammon) and modern backgammon.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules_help = (
        "rules label: 'ban-sugoroku' (default), 'backgammon', 'ban/bear_off/immediate', "
        "'ban-sugoroku,finish=bear_off,closure=off'"
    )
    position_help = "a GNU Backgammon Position ID (default: the start position)"

    moves = commands.add_parser("moves", help="list the legal plays of a roll")
    moves.add_argument("dice", help="the roll, e.g. 6-5")
    moves.add_argument("--position", metavar="ID", help=position_help)
    moves.add_argument("--rules", default="ban-sugoroku", help=rules_help)
    moves.set_defaults(run=run_moves)

    perft = commands.add_parser("perft", help="count the plays over all 21 rolls for N plies")
    perft.add_argument("--depth", type=_depth, required=True, metavar="N")
    perft.add_argument("--position", metavar="ID", help=position_help)
    perft.add_argument("--rules", default="ban-sugoroku", help=rules_help)
    perft.add_argument("--divide", action="store_true", help="print the count of each first roll")
    perft.set_defaults(run=run_perft)

    play = commands.add_parser("play", help="play one random game and print it")
    play.add_argument("--rules", default="ban-sugoroku", help=rules_help)
    play.add_argument("--seed", type=int, help="seed of the dice and choices (default: random)")
    play.set_defaults(run=run_play)
    return parser


def main(argv=None) -> int:
    """Run the command line; return 0, or exit with status 2 on bad input."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except USER_ERRORS as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    except BrokenPipeError:  # output piped into e.g. `head`, which stopped reading
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
