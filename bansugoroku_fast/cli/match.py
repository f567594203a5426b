"""``bansugoroku match``: show and check match files (``.mat``).

    bansugoroku match show FILE [--game N] [--move M]
    bansugoroku match check FILE

``check`` replays every move and result: exit status 0 when the whole file
is right, 1 and ``FILE:line:column: message`` on the first problem.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import MatchFileError
from ..formats.mat import GameRecord, MatchRecord, read_match
from ..position import Position
from .common import rules_name


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    match = commands.add_parser("match", help="show or check a match file (.mat)")
    actions = match.add_subparsers(dest="match_command", required=True, metavar="ACTION")
    show = actions.add_parser("show", help="the games of a match file, and the board at a chosen move")
    show.add_argument("file", help="a .mat file")
    show.add_argument("--game", type=int, metavar="N", help="list the moves of game N (from 1)")
    show.add_argument("--move", type=int, metavar="M", help="with --game: the board before play M (from 1)")
    show.set_defaults(run=run_show)
    check = actions.add_parser("check", help="replay every move and result; exit 1 on the first problem")
    check.add_argument("file", help="a .mat file")
    check.set_defaults(run=run_check)


def _result(game: GameRecord, players: tuple[str, str]) -> str:
    if game.winner is None:
        return "unfinished"
    unit = "point" if game.points == 1 else "points"
    how = {"play": "", "drop": ", double dropped", "resign": ", by resignation"}[game.ending or "play"]
    return f"{players[game.winner]} wins {game.points} {unit}{how}"


def _summary(record: MatchRecord) -> list[str]:
    length = f"{record.match_length}-point match" if record.match_length else "money play"
    lines = [f"{length}, {rules_name(record.rules)} rules: {record.players[0]} v {record.players[1]}"]
    for game in record.games:
        crawford = " (Crawford)" if game.crawford else ""
        lines.append(
            f"  Game {game.number}{crawford} at {game.score[0]}-{game.score[1]}: {len(game.positions)} plays, "
            f"cube {game.game.cube}; {_result(game, record.players)}"
        )
    lines.append(f"Score: {record.players[0]} {record.scores[0]}, {record.players[1]} {record.scores[1]}")
    return lines


def _game_lines(record: MatchRecord, game: GameRecord) -> list[str]:
    lines = [f"Game {game.number}, {record.players[0]} v {record.players[1]}:"]
    ply = 0
    for action in game.actions:
        who = record.players[action.seat]
        if action.kind == "roll":
            ply += 1
            assert action.dice is not None
            what = f"{action.dice[0]}{action.dice[1]}: {action.text or '(no legal play)'}"
            lines.append(f"  play {ply:3d}  {who:>12s}  {what}")
        else:
            lines.append(f"            {who:>12s}  {action.text}")
    lines.append(f"  {_result(game, record.players)}")
    return lines


def _board_lines(record: MatchRecord, game: GameRecord, move: int) -> list[str]:
    if not 1 <= move <= len(game.positions):
        raise MatchFileError(f"game {game.number} has plays 1..{len(game.positions)}, not {move}")
    index = move - 1
    position = Position(game.positions[index])
    mover = record.players[int(game.movers[index])]
    a, b = (int(d) for d in game.dice[index])
    action = [act for act in game.actions if act.kind == "roll"][index]
    return [
        f"Game {game.number}, play {move}: {mover} (X) to play {a}{b}: {action.text or '(no legal play)'}",
        str(position),
        f"Position ID {position.id}",
    ]


def _read(file: str) -> MatchRecord:
    """The match file at ``file``; one that cannot be opened is a MatchFileError."""
    try:
        return read_match(Path(file))
    except OSError as error:
        raise MatchFileError(f"cannot read {file}: {error.strerror or error}") from None


def run_show(args: argparse.Namespace) -> int:
    """Print the match, a game's moves, or the board before one play."""
    record = _read(args.file)
    if args.game is None:
        if args.move is not None:
            raise MatchFileError("--move needs --game")
        print("\n".join(_summary(record)))
        return 0
    if not 1 <= args.game <= len(record.games):
        raise MatchFileError(f"{args.file} has games 1..{len(record.games)}, not {args.game}")
    game = record.games[args.game - 1]
    lines = _game_lines(record, game) if args.move is None else _board_lines(record, game, args.move)
    print("\n".join(lines))
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Replay the file; 0 if every move and result is right, else 1."""
    try:
        record = _read(args.file)
    except MatchFileError as error:
        where = f"{error.line}:{error.column}:" if error.line else ""
        print(f"{args.file}:{where} {error.message}", file=sys.stderr)
        return 1
    plays = sum(len(game.positions) for game in record.games)
    print(f"{args.file}: OK, {len(record.games)} games, {plays} plays, every move legal and every result right; "
          f"score {record.scores[0]}-{record.scores[1]}")
    return 0
