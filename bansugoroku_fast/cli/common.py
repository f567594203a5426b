"""What the subcommands share: rule and position arguments, names, errors."""
from __future__ import annotations

import argparse
from typing import TypeAlias

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
    "rules label: 'ban-sugoroku' (default), 'backgammon', 'ban/bear_off/immediate', "
    "'ban-sugoroku,finish=bear_off,closure=off'"
)
POSITION_HELP = "a GNU Backgammon Position ID or an XGID (default: the start position)"


def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="ban-sugoroku", help=RULES_HELP)


def add_position_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--position", metavar="ID", help=POSITION_HELP)
