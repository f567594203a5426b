"""What the subcommands share: rule and position arguments, names, errors."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TypeAlias

from .. import errors
from ..position import Position
from ..rules import Rules

#: What each subcommand module's ``add_parser(commands)`` receives.
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

USER_ERRORS = (
    errors.InvalidPositionError,
    errors.InvalidDiceError,
    errors.InvalidRulesError,
    errors.PlayError,
    errors.GameStateError,
    errors.InvalidPolicyError,
    errors.MatchFileError,
    errors.MatchIdError,
    errors.OutputPathError,
    errors.InvalidArgumentError,    # InvalidOptionError among them
)
SIDE_NAMES = ("X (the side to move)", "O (the opponent)")


def rules_name(rules: Rules) -> str:
    return "backgammon" if rules.is_backgammon else rules.short_name.replace("ban/", "Ban-sugoroku ")


def position_arg(text: str | None) -> Position:
    """The start position, or that of a Position ID or an XGID (``XGID=...``)."""
    if text is None:
        return Position.initial()
    text = text.strip()
    return Position.from_xgid(text) if text.upper().startswith("XGID=") else Position.from_id(text)


def plays_count(count: int) -> str:
    return f"{count} legal play{'s' if count != 1 else ''}"


RULES_HELP = (
    "the rules' label (docs/glossary.md): 'ban-sugoroku' (the default, every option at its default), "
    "'backgammon', or options spelt out: 'ban-sugoroku,finish=bear_off,closure=off,start=alternate' "
    "(options left out take their defaults; the short form 'ban/bear_off/off' is accepted too)"
)
POSITION_HELP = "a GNU Backgammon Position ID or an XGID (default: the start position)"


def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="ban-sugoroku", help=RULES_HELP)


def add_position_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--position", metavar="ID", help=POSITION_HELP)


def add_rollout_options(parser: argparse.ArgumentParser) -> None:
    """``--endgames``, ``--truncate`` and ``--variance-reduction``: how a
    rollout's games stop and are valued (see ``rollout``)."""
    parser.add_argument("--endgames", action="store_true",
                        help="stop each game at the exact endgame tables and count its exact chances")
    parser.add_argument("--truncate", metavar="PLIES",
                        type=whole_number("truncate", 1, out_of_range="truncate must be 1 or more, got {}"),
                        help="stop each game after PLIES plies, valued by the policy's network (net, net1)")
    parser.add_argument("--variance-reduction", action="store_true",
                        help="take each roll's luck, judged by the policy's network (net, net1), out of its "
                             "game's result")


def rollout_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`add_rollout_options`' flags."""
    return {"endgames": args.endgames, "truncate": args.truncate, "variance_reduction": args.variance_reduction}


def rollout_flags(args: argparse.Namespace) -> list[str]:
    """The flags that ask for the same options again."""
    return ((["--endgames"] if args.endgames else []) + (["--truncate", str(args.truncate)] if args.truncate else [])
            + (["--variance-reduction"] if args.variance_reduction else []))


def whole_number(name: str, low: int, high: int | None = None, *, out_of_range: str) -> Callable[[str], int]:
    """An argparse ``type`` reading a whole number in ``low .. high`` (no
    upper bound if None); ``out_of_range`` is the complaint about another
    number (``{}`` stands for it).

    >>> depth = whole_number("depth", 0, out_of_range="depth must be 0 or more, got {}")
    >>> depth("3")
    3
    >>> depth("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: depth must be 0 or more, got -1
    >>> depth("x")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: depth must be a whole number, got 'x'
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(out_of_range.format(value))
        return value

    return parse
