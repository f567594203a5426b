"""Match files: the Jellyfish ``.mat`` text that GNU Backgammon exports.

A file is a header (``; [Key "Value"]`` comment lines, then ``N point
match``) followed by games. Each game is ``Game n``, a score line
(``name : score   name : score``) and numbered lines with two columns, the
first player's action on the left and the second's on the right::

     Game 1
     Alice : 0                      Bob : 0
      1)                             31: 8/5 6/5
      2) 52: 13/8 24/22               Doubles => 2
      3)  Takes                      53: 25/22* 13/8
      4) 54:
                                      Wins 2 points

An action is a roll and its play (``52: 13/8 24/22``; an empty play is a
roll with no legal play), ``Doubles => n``, ``Takes`` or ``Drops``; the game
ends with ``Wins n points`` in the winner's column (a resignation is a
``Wins`` line with no other ending). Plays are read leniently: ``25`` or
``bar`` for the bar, ``0`` or ``off`` for off, one step per die or joined,
``13/7(2)``, hit marks optional.

Every play is resolved against the legal plays of the position reached
(:func:`~bansugoroku_fast.parse_play`), every cube action and every score
checked; anything that does not replay raises :class:`MatchFileError` naming
the line, the column, the game and the move.

Ban-sugoroku games get the same text with one more header line naming the
variant and its options: ``; [Variant "ban-sugoroku,finish=arrival,..."]``.

>>> text = '''
...  1 point match
...
...  Game 1
...  Alice : 0                      Bob : 0
...   1) 31: 8/5 6/5                 42: 8/4 6/4
...                                   Wins 4 points
... '''
>>> parse_match(text)
Traceback (most recent call last):
...
bansugoroku_fast.errors.MatchFileError: line 7, column 35: game 1, move 1: Bob wins 4 by resignation, but ... 1, 2 or 3
"""
from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np

from .. import moves
from ..checks import as_rules, non_negative_int
from ..errors import (
    ArgumentTypeError,
    GameStateError,
    InvalidArgumentError,
    InvalidRulesError,
    MatchFileError,
    PlayError,
)
from ..games.interactive import CubeRecord, Game, Match, TurnRecord
from ..games.records import GameRecords
from ..play import Play
from ..position import Position
from ..rules import Rules

if TYPE_CHECKING:
    from ..oracle.games import GameRecords as PlainGameRecords

#: Larger files are refused before they are read (a real match file is a few kB).
MAX_FILE_BYTES = 16 * 2**20
#: An action that starts at this column or later is in the right-hand column.
RIGHT_COLUMN = 20
#: Where GNU Backgammon starts the right-hand column (and the width it pads to).
WRITE_RIGHT_COLUMN = 33
VARIANT_KEY = "Variant"
BACKGAMMON_VARIANTS = ("backgammon", "standard")

_HEADER = re.compile(r'^\s*;\s*\[\s*([^\]"]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d{1,5})\s+points?\s+match\s*(?:\(.*\))?\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d{1,5})\s*$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(?P<n0>\S.*?)\s*:\s*(?P<s0>\d{1,5})\s+(?P<n1>\S.*?)\s*:\s*(?P<s1>\d{1,5})\s*$")
_MOVE_LINE = re.compile(r"^\s*(\d{1,5})\)")
# One action: a roll with its play, a cube action or a win, with where it starts.
_ACTION = re.compile(
    r"(?P<roll>\b\d\d:)"
    r"|(?P<double>\bDoubles?\b(?:\s*=>\s*(?P<cube>\d+))?)"
    r"|(?P<take>\b(?:Takes|Accepts)\b)"
    r"|(?P<drop>\b(?:Drops|Passes|Rejects|Refuses)\b)"
    r"|(?P<beaver>\bBeavers?\b(?:\s*=>\s*\d+)?)"
    r"|(?P<win>\bWins\s+(?P<points>\d+)\s+points?(?:\s+and\s+the\s+match)?)",
    re.IGNORECASE,
)


# --- what a file holds ---------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One entry of a game: ``kind`` is 'roll', 'double', 'take', 'drop' or
    'win'; ``seat`` 0 (left column) or 1; ``line``/``column`` where it starts."""

    kind: str
    seat: int
    line: int
    column: int
    dice: tuple[int, int] | None = None
    text: str = ""  # the play as written (a roll), or the action's words
    value: int = 0  # the cube offered (double) or the points won (win)
    move_number: int = 0


@dataclass(frozen=True)
class GameRecord:
    """One game of a match file, replayed.

    ``game`` is the replayed :class:`~bansugoroku_fast.Game` (cube and result;
    a resigned game has no result there, its ending is ``"resign"`` here);
    ``winner`` is 0 (the player named first) or 1, ``points`` what the game
    scored, both None while the game is unfinished (the last game of a match
    in progress). ``positions``/``dice``/``after`` are its checker plays in
    the shape of :func:`play_games` records: ``int8[P, 2, 26]`` before each
    play from the mover's side, ``int8[P, 2]``, and ``int8[P, 2, 26]`` after
    (equal to ``positions`` for a roll with no legal play).

    Parameters
    ----------
    number : int
        The game's number in the file, from 1.
    score : tuple of (int, int)
        The score before the game, the player named first's first.
    starter : int
        The player who moved first.
    crawford : bool
        Whether it is the Crawford game.
    actions : tuple of Action
        The file's actions, in order.
    game : Game
        The replayed game.
    winner : int or None
        0 (the player named first) or 1; None while unfinished.
    points : int or None
        What the game scored; None while unfinished.
    ending : str or None
        ``"play"``, ``"drop"``, ``"resign"``, or None while unfinished.
    positions : numpy.ndarray
        ``int8[P, 2, 26]``: before each checker play, from the mover's side.
    dice : numpy.ndarray
        ``int8[P, 2]``: the roll of each.
    after : numpy.ndarray
        ``int8[P, 2, 26]``: after each.
    movers : numpy.ndarray
        ``int8[P]``: the seat of each play.

    Examples
    --------
    >>> from bansugoroku_fast import play_games
    >>> record = parse_match(write_match(play_games("backgammon", 1, policy="first", seed=1)))
    >>> game = record.games[0]
    >>> game.number, game.ending, len(game.positions) == len(game.dice) == len(game.movers)
    (1, 'play', True)
    """

    number: int
    score: tuple[int, int]
    starter: int
    crawford: bool
    actions: tuple[Action, ...]
    game: Game
    winner: int | None
    points: int | None
    ending: str | None  # 'play', 'drop', 'resign', or None (unfinished)
    positions: np.ndarray
    dice: np.ndarray
    after: np.ndarray
    movers: np.ndarray = field(repr=False)  # int8[P]: the seat of each play

    @property
    def finished(self) -> bool:
        return self.ending is not None


@dataclass(frozen=True)
class MatchRecord:
    """A match file: ``match_length`` (0 = money play), the two player names
    (left column first), the ``; [Key "Value"]`` headers, the rules (from the
    ``Variant`` header; backgammon without one) and the replayed games.

    Parameters
    ----------
    match_length : int
        The match's length, 0 for money play.
    players : tuple of (str, str)
        The two players' names, left column first.
    headers : dict[str, str]
        The ``; [Key "Value"]`` headers.
    rules : Rules
        The rules (from the ``Variant`` header; backgammon without one).
    games : list of GameRecord
        The replayed games.

    Examples
    --------
    >>> from bansugoroku_fast import play_games
    >>> record = parse_match(write_match(play_games("backgammon", 2, policy="first", seed=1)))
    >>> record.match_length, record.rules.short_name, len(record.games), record.games[0].winner in (0, 1)
    (0, 'backgammon', 2, True)
    """

    match_length: int
    players: tuple[str, str]
    headers: dict[str, str]
    rules: Rules
    games: tuple[GameRecord, ...]

    @property
    def scores(self) -> tuple[int, int]:
        """Points won by each player over the finished games."""
        points = [0, 0]
        for game in self.games:
            if game.winner is not None and game.points is not None:
                points[game.winner] += game.points
        return points[0], points[1]


# --- reading -----------------------------------------------------------------------------


def _file_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the file at ``path`` (a missing one: FileNotFoundError naming it)."""
    size = os.path.getsize(path)
    if size > MAX_FILE_BYTES:
        raise MatchFileError(f"{os.fspath(path)}: {size} bytes is more than a match file holds ({MAX_FILE_BYTES})")
    with open(path, "rb") as stream:
        return stream.read()


def _text_of(source: str | bytes | bytearray) -> str:
    """``source`` as text (bytes decoded as UTF-8), checked for size."""
    if isinstance(source, (bytes, bytearray)):
        if len(source) > MAX_FILE_BYTES:
            raise MatchFileError(f"{len(source)} bytes is more than a match file holds ({MAX_FILE_BYTES})")
        try:
            return bytes(source).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = bytes(source)[: error.start].count(b"\n") + 1
            column = error.start - bytes(source).rfind(b"\n", 0, error.start)
            raise MatchFileError("not text (bytes that are not UTF-8)", line, column) from None
    if not isinstance(source, str):
        raise ArgumentTypeError(
            f"parse_match takes the text of a match file (str or bytes), got {type(source).__name__}")
    if len(source) > MAX_FILE_BYTES:
        raise MatchFileError(f"{len(source)} characters is more than a match file holds ({MAX_FILE_BYTES})")
    return source


def _looks_like_text(source: str) -> bool:
    """A str that is a match file's text rather than a path: what
    ``read_match`` accepted before :func:`parse_match` existed."""
    return "\n" in source or bool(_LENGTH.match(source))


def _check_characters(lines: Sequence[str]) -> None:
    for number, line in enumerate(lines, start=1):
        for column, char in enumerate(line, start=1):
            if (char < " " and char != "\t") or char == "\x7f":
                raise MatchFileError(f"control character {char!r}: not a match file", number, column)


def read_match(path: str | os.PathLike[str] | bytes | bytearray, *, rules: Rules | str | None = None) -> MatchRecord:
    """Read and replay the match file at ``path``, as GNU Backgammon
    exports matches (``export match mat``).

    The text of a file goes to :func:`parse_match` instead. Text passed as
    ``path`` (a str holding a line break, or a lone ``N point match`` line)
    is still read as text, with a :class:`DeprecationWarning`; so are bytes.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    rules : ~bansugoroku_fast.rules.Rules or str or None
        The rules of a file that has no ``Variant`` header (such a file is
        backgammon otherwise); a file's own header must agree.

    Returns
    -------
    MatchRecord
        The match: its length, players, headers, rules, final scores and
        every game replayed (plays, cube actions, how it ended).

    Raises
    ------
    FileNotFoundError
        No file at ``path`` (an :class:`OSError` for a file that cannot be
        read).
    ArgumentTypeError
        ``path`` is not a str or an ``os.PathLike``.
    MatchFileError
        The text is not a match file, or a game in it does not replay under
        the rules (an impossible roll, an illegal or ambiguous play, a score
        that does not add up): the error names the line and column.
    InvalidRulesError
        ``rules`` is not a rule set.

    Examples
    --------
    >>> from pathlib import Path
    >>> record = read_match(Path("tests/data/gnubg/auto5.mat"))
    >>> record.match_length, record.players, record.scores
    (5, ('gnubg', 'root'), (5, 0))
    >>> [(game.winner, game.points, game.ending) for game in record.games]
    [(0, 2, 'drop'), (0, 2, 'drop'), (0, 1, 'play')]
    >>> read_match("nope.mat")
    Traceback (most recent call last):
    ...
    FileNotFoundError: [Errno 2] No such file or directory: 'nope.mat'
    """
    if isinstance(path, (bytes, bytearray)) or (isinstance(path, str) and _looks_like_text(path)):
        warnings.warn("read_match(text) is deprecated: read_match takes a path; pass text to parse_match(text)",
                      DeprecationWarning, stacklevel=2)
        return parse_match(path if isinstance(path, str) else bytes(path), rules=rules)
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"read_match takes a path (str or os.PathLike), got {type(path).__name__}; "
                        "text goes to parse_match")
    return parse_match(_file_bytes(path), rules=rules)


def parse_match(text: str | bytes, *, rules: Rules | str | None = None) -> MatchRecord:
    """Read and replay the text of a match file.

    Parameters
    ----------
    text : str or bytes
        The file's text (``bytes`` are read as UTF-8).
    rules : ~bansugoroku_fast.rules.Rules or str or None
        The rules of a file that has no ``Variant`` header (such a file is
        backgammon otherwise); a file's own header must agree.

    Returns
    -------
    MatchRecord
        The match: its length, players, headers, rules, final scores and
        every game replayed (plays, cube actions, how it ended).

    Raises
    ------
    ArgumentTypeError
        ``text`` is not a str or bytes.
    MatchFileError
        The text is not a match file, or a game in it does not replay under
        the rules (an impossible roll, an illegal or ambiguous play, a score
        that does not add up): the error names the line and column.
    InvalidRulesError
        ``rules`` is not a rule set.

    Examples
    --------
    >>> record = parse_match(" 0 point match\\n")
    >>> record.match_length, record.rules.short_name, record.games
    (0, 'backgammon', ())
    >>> parse_match("5 point mtach\\n")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.MatchFileError: line 1, column 1: expected 'N point match', got '5 point mtach'
    """
    lines = _text_of(text).splitlines()
    _check_characters(lines)
    reader = _Reader(lines, None if rules is None else as_rules(rules))
    return reader.read()


class _Reader:
    """Reads a match file line by line (line numbers are 1-based)."""

    def __init__(self, lines: Sequence[str], rules: Rules | None = None):
        self.lines = lines
        self.given_rules = rules
        self.index = 0
        self.headers: dict[str, str] = {}

    # -- lines --

    def _peek(self) -> str | None:
        return self.lines[self.index] if self.index < len(self.lines) else None

    def _skip_blank_and_comments(self) -> None:
        while self.index < len(self.lines):
            line = self.lines[self.index]
            stripped = line.strip()
            if stripped.startswith(";"):
                header = _HEADER.match(line)
                if header:
                    self.headers[header.group(1).strip()] = header.group(2)
            elif stripped:
                return
            self.index += 1

    def _error(self, message: str, column: int = 1) -> MatchFileError:
        return MatchFileError(message, self.index + 1, column)

    @staticmethod
    def _first_column(line: str) -> int:
        return len(line) - len(line.lstrip()) + 1

    # -- the match --

    def read(self) -> MatchRecord:
        self._skip_blank_and_comments()
        line = self._peek()
        if line is None:
            raise MatchFileError("no 'N point match' line: the file is empty or holds only comments")
        length = _LENGTH.match(line)
        if not length:
            raise self._error(
                f"expected 'N point match', got {line.strip()[:40]!r}", self._first_column(line)
            )
        match_length = int(length.group(1))
        self.index += 1
        rules = self._rules()
        players: tuple[str, str] | None = None
        games: list[GameRecord] = []
        totals = [0, 0]
        self._skip_blank_and_comments()
        while self._peek() is not None:
            number, score, names, actions = self._game_text(len(games) + 1)
            if players is None:
                players = names
            elif names != players:
                raise MatchFileError(
                    f"game {number}: players {names} differ from game 1's {players}", actions[0].line
                    if actions else self.index, 1)
            if games and not games[-1].finished:
                raise MatchFileError(f"game {number - 1} has no result but game {number} follows", self.index, 1)
            self._check_score(number, score, totals, match_length)
            crawford = self._is_crawford(score, match_length, games)
            record = self._replayed(number, score, crawford, actions, rules, players)
            games.append(record)
            if record.winner is not None and record.points is not None:
                totals[record.winner] += record.points
            self._skip_blank_and_comments()
        return MatchRecord(match_length, players or ("", ""), dict(self.headers), rules, tuple(games))

    def _rules(self) -> Rules:
        variant = self.headers.get(VARIANT_KEY)
        if variant is None:
            return self.given_rules or Rules(variant="backgammon")
        if variant.strip().lower() in BACKGAMMON_VARIANTS:
            stated = Rules(variant="backgammon")
        else:
            try:
                stated = Rules.parse(variant)
            except InvalidRulesError as error:
                raise MatchFileError(f"the Variant header {variant!r}: {error}") from None
        if self.given_rules is not None and self.given_rules != stated:
            raise MatchFileError(f"the Variant header says {stated.short_name}, "
                                 f"but rules={self.given_rules.short_name} was given")
        return stated

    def _replayed(self, number: int, score: tuple[int, int], crawford: bool, actions: list[Action],
                  rules: Rules, players: tuple[str, str]) -> GameRecord:
        """The game replayed; a file without a ``Variant`` header, read as
        backgammon, says so when a play does not replay (it may be Ban-sugoroku)."""
        try:
            return _replay(number, score, crawford, actions, rules, players)
        except MatchFileError as error:
            about_a_play = isinstance(error.__context__, PlayError) or "play" in error.message
            if VARIANT_KEY in self.headers or self.given_rules is not None or not about_a_play:
                raise
            hint = (f"{error.message} (the file has no Variant header, so it was read as backgammon; "
                    f"a Ban-sugoroku file states its rules with a header line such as "
                    f'; [{VARIANT_KEY} "ban-sugoroku,finish=arrival,closure=multiplied,start=alternate"], '
                    "or read it with read_match(path, rules='ban-sugoroku'))")
            raise MatchFileError(hint, error.line, error.column) from None

    def _check_score(self, number: int, score: tuple[int, int], totals: list[int], length: int) -> None:
        if list(score) != totals:
            raise MatchFileError(
                f"game {number} starts at {score[0]}-{score[1]}, but the games before it add up to "
                f"{totals[0]}-{totals[1]}", self._score_line, 1)
        if length and max(score) >= length:
            raise MatchFileError(
                f"game {number}: the {length}-point match was already won ({score[0]}-{score[1]})",
                self._score_line, 1)

    @staticmethod
    def _is_crawford(score: tuple[int, int], length: int, games: list[GameRecord]) -> bool:
        """The first game in which a player needs one point to win the match."""
        if not length or length - 1 not in score:
            return False
        return not any(length - 1 in game.score for game in games)

    # -- one game --

    def _game_text(self, expected: int) -> tuple[int, tuple[int, int], tuple[str, str], list[Action]]:
        line = self.lines[self.index]
        game = _GAME.match(line)
        if not game:
            raise self._error(f"expected 'Game {expected}', got {line.strip()[:40]!r}", self._first_column(line))
        number = int(game.group(1))
        if number != expected:
            raise self._error(f"expected game {expected}, got game {number}", self._first_column(line))
        self.index += 1
        self._skip_blank_and_comments()
        score_text = self._peek()
        score = _SCORE.match(score_text) if score_text is not None else None
        if score_text is None or not score:
            raise self._error(
                f"game {number}: expected the score line 'name : score   name : score', got "
                f"{(score_text or '').strip()[:40]!r}", 1)
        self._score_line = self.index + 1
        names = (score.group("n0"), score.group("n1"))
        points = (int(score.group("s0")), int(score.group("s1")))
        self.index += 1
        actions = self._actions(number)
        return number, points, names, actions

    def _actions(self, game_number: int) -> list[Action]:
        actions: list[Action] = []
        last_number = 0
        while self.index < len(self.lines):
            line = self.lines[self.index]
            stripped = line.strip()
            if not stripped or stripped.startswith(";"):
                self.index += 1
                continue
            if _GAME.match(line):
                break
            numbered = _MOVE_LINE.match(line)
            if numbered:
                move_number = int(numbered.group(1))
                if move_number != last_number + 1:
                    raise self._error(
                        f"game {game_number}: move {move_number} follows move {last_number}",
                        numbered.start(1) + 1)
                last_number = move_number
                body_start = numbered.end()
            else:
                move_number = last_number
                body_start = 0
            actions.extend(self._line_actions(line, body_start, move_number, game_number, bool(numbered)))
            self.index += 1
        return actions

    def _line_actions(self, line: str, start: int, move_number: int, game_number: int,
                      numbered: bool) -> list[Action]:
        found = list(_ACTION.finditer(line, start))
        if not found or line[start:found[0].start()].strip():
            column = start + len(line[start:]) - len(line[start:].lstrip()) + 1
            what = line[start:].strip()
            if not numbered and not found:
                raise self._error(f"game {game_number}: cannot read {line.strip()[:40]!r}", column)
            if what and (not found or line[start:found[0].start()].strip()):
                raise self._error(f"game {game_number}, move {move_number}: cannot read {what[:40]!r}", column)
        if len(found) > 2:
            raise self._error(
                f"game {game_number}, move {move_number}: three actions on one line", found[2].start() + 1)
        actions = []
        for slot, match in enumerate(found):
            end = found[slot + 1].start() if slot + 1 < len(found) else len(line)
            seat = 1 if slot == 1 or match.start() >= RIGHT_COLUMN else 0
            actions.append(self._action(match, line[match.end():end], seat, move_number, game_number))
        return actions

    def _action(self, match: re.Match[str], rest: str, seat: int, move_number: int, game_number: int) -> Action:
        line, column = self.index + 1, match.start() + 1
        where = f"game {game_number}, move {move_number}"
        kind = match.lastgroup
        if kind == "roll":
            a, b = int(match.group(0)[0]), int(match.group(0)[1])
            if not (1 <= a <= 6 and 1 <= b <= 6):
                raise MatchFileError(f"{where}: impossible dice {a}{b}", line, column)
            return Action("roll", seat, line, column, (a, b), rest.strip(), 0, move_number)
        if rest.strip():
            raise MatchFileError(
                f"{where}: cannot read {rest.strip()[:40]!r} after {match.group(0)!r}",
                line, match.end() + len(rest) - len(rest.lstrip()) + 1)
        if kind == "beaver":
            raise MatchFileError(f"{where}: beavers are not part of these rules", line, column)
        if kind == "double":
            cube = match.group("cube")
            return Action("double", seat, line, column, None, match.group(0), int(cube) if cube else 0, move_number)
        if kind == "win":
            return Action("win", seat, line, column, None, match.group(0), int(match.group("points")), move_number)
        return Action(kind or "", seat, line, column, None, match.group(0), 0, move_number)


# --- replaying a game ------------------------------------------------------------------------


class _FedDice:
    """The dice the file says were rolled, handed to the game one roll at a time."""

    def __init__(self) -> None:
        self.values: list[int] = []

    def roll_die(self) -> int:
        return self.values.pop(0)

    def choose(self, count: int) -> int:
        return 0


class _Replay:
    """Plays a game's actions into a :class:`Game`, collecting its checker plays."""

    def __init__(self, number: int, starter: int, rules: Rules, players: tuple[str, str]):
        self.number = number
        self.players = players
        self.dice_source = _FedDice()
        self.game = Game.from_position(Position.initial(rules), rules, self.dice_source, seat_to_move=starter)
        self.positions: list[np.ndarray] = []
        self.dice: list[tuple[int, int]] = []
        self.after: list[np.ndarray] = []
        self.movers: list[int] = []

    def error(self, action: Action, message: str) -> MatchFileError:
        return MatchFileError(f"game {self.number}, move {action.move_number}: {message}", action.line, action.column)

    def play(self, action: Action) -> None:
        game = self.game
        if game.is_over:
            raise self.error(action, f"{action.text or action.kind!r} after the game ended ({game.result})")
        expected = game.seat_to_move if game.double_offered_by is None else 1 - game.double_offered_by
        if action.seat != expected:
            raise self.error(
                action, f"{self.players[action.seat]} ({'right' if action.seat else 'left'} column) "
                f"acts, but it is {self.players[expected]}'s turn")
        try:
            if action.kind == "roll":
                self._roll(action)
            elif action.kind == "double":
                game.offer_double()
                if action.value and action.value != game.cube * 2:
                    raise self.error(action, f"the cube goes from {game.cube} to {game.cube * 2}, "
                                             f"not {action.value}")
            elif action.kind == "take":
                game.take()
            elif action.kind == "drop":
                game.drop()
        except (GameStateError, PlayError) as error:
            raise self.error(action, str(error)) from None

    def _roll(self, action: Action) -> None:
        assert action.dice is not None
        game = self.game
        before = game.position
        self.dice_source.values = list(action.dice)
        game.roll()
        passed = game.dice is None  # the roll had no legal play: the turn has passed
        if passed and action.text:
            raise self.error(action, f"{action.text!r} is written, but {action.dice[0]}{action.dice[1]} "
                                     "has no legal play here")
        if not passed and not action.text:
            legal = ", ".join(str(play) for play in game.legal_plays())
            raise self.error(action, f"no play is written for {action.dice[0]}{action.dice[1]}, "
                                     f"but there are legal plays: {legal}")
        played: Play | None = None
        if not passed:
            game.play(action.text)
            record = game.history[-1]
            assert isinstance(record, TurnRecord)
            played = record.play
        self.positions.append(before.array)
        self.dice.append(action.dice)
        self.after.append(played.position.array if played is not None else before.array)
        self.movers.append(action.seat)

    def finish(self, action: Action | None, crawford: bool, score: tuple[int, int],
               actions: tuple[Action, ...]) -> GameRecord:
        game = self.game
        winner: int | None = None
        points: int | None = None
        ending: str | None = None
        if action is not None:
            winner, points = action.seat, action.value
            ending = self._check_win(action)
        elif game.is_over:
            last = actions[-1] if actions else None
            raise MatchFileError(
                f"game {self.number} ended ({game.result}) but no 'Wins' line follows",
                last.line if last else 0, 1)
        return GameRecord(
            self.number, score, self.game.starter, crawford, actions, game, winner, points, ending,
            _stack(self.positions, (2, 26)), np.array(self.dice, dtype=np.int8).reshape(-1, 2),
            _stack(self.after, (2, 26)), np.array(self.movers, dtype=np.int8),
        )

    def _check_win(self, action: Action) -> str:
        game = self.game
        result = game.result
        name = self.players[action.seat]
        if result is not None:
            if (result.winner, result.points) != (action.seat, action.value):
                raise self.error(
                    action, f"{name} wins {action.value}, but the game gives {self.players[result.winner]} "
                    f"{result.points} ({result})")
            return "drop" if result.dropped else "play"
        # A resignation: the loser gives up 1, 2 or 3 times the cube.
        if game.double_offered_by is not None:
            raise self.error(action, f"{name} wins, but the double is still waiting for an answer")
        if action.value not in (game.cube, 2 * game.cube, 3 * game.cube):
            raise self.error(
                action, f"{name} wins {action.value} by resignation, but with the cube at {game.cube} "
                f"a resignation scores {game.cube}, {2 * game.cube} or {3 * game.cube}")
        return "resign"


def _stack(arrays: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray:
    if not arrays:
        return np.zeros((0, *shape), dtype=np.int8)
    return np.ascontiguousarray(np.stack(arrays), dtype=np.int8)


def _replay(number: int, score: tuple[int, int], crawford: bool, actions: list[Action],
            rules: Rules, players: tuple[str, str]) -> GameRecord:
    if not actions:
        return _Replay(number, 0, rules, players).finish(None, crawford, score, ())
    starter = actions[0].seat
    replay = _Replay(number, starter, rules, players)
    win: Action | None = None
    for action in actions:
        if win is not None:
            raise replay.error(action, f"{action.text or action.kind!r} after the game ended")
        if action.kind == "win":
            win = action
            continue
        if crawford and action.kind == "double":
            raise replay.error(action, "nobody may double in the Crawford game")
        replay.play(action)
    return replay.finish(win, crawford, score, tuple(actions))


# --- writing -----------------------------------------------------------------------------------


def _step_text(origin: int, target: int, hit: bool) -> str:
    return f"{origin}/{target}" + ("*" if hit else "")


def play_text(play: Play | None) -> str:
    """A play as GNU Backgammon's match export writes it: one step per die,
    25 for the bar, 0 for off.

    Parameters
    ----------
    play : ~bansugoroku_fast.Play or None
        The play; None for a turn without one.

    Returns
    -------
    str
        The steps, hits marked with ``*``; an empty string for no play.

    Raises
    ------
    ArgumentTypeError
        ``play`` is not a :class:`~bansugoroku_fast.Play` or None.

    Examples
    --------
    >>> from bansugoroku_fast import legal_plays, parse_play
    >>> play = parse_play(Position.initial(), (6, 5), "24/13", Rules(variant="backgammon"))
    >>> play_text(play)
    '24/18 18/13'
    """
    if play is None:
        return ""
    if not isinstance(play, Play):
        raise ArgumentTypeError(f"play_text takes a Play or None, got {type(play).__name__}")
    return " ".join(_step_text(a, b, hit) for (a, b), hit in zip(play.steps, play.hits))


def _dice_text(dice: Sequence[int]) -> str:
    a, b = int(dice[0]), int(dice[1])
    return f"{max(a, b)}{min(a, b)}:"


@dataclass
class _GameText:
    """One game's entries per seat, in order, ready to lay out in columns."""

    starter: int
    entries: list[tuple[int, str]] = field(default_factory=list)  # (seat, text)
    winner: int | None = None
    points: int | None = None


def _layout(number: int, score: Sequence[int], players: Sequence[str], game: _GameText) -> list[str]:
    # At least one space between the columns, however long the first name.
    lines = ["", f" Game {number}", f" {players[0]} : {score[0]}".ljust(WRITE_RIGHT_COLUMN - 2)
             + f" {players[1]} : {score[1]}"]
    slots: list[str] = [] if game.starter == 0 else [""]
    for _, text in game.entries:
        slots.append(text)
    for row in range(0, len(slots), 2):
        left = slots[row]
        right = slots[row + 1] if row + 1 < len(slots) else ""
        start = f"{row // 2 + 1:3d}) " + left
        if right:
            start = start.ljust(WRITE_RIGHT_COLUMN - 1) + " " + right
        lines.append(start.rstrip())
    if game.winner is not None:
        indent = 6 if game.winner == 0 else WRITE_RIGHT_COLUMN + 1
        unit = "point" if game.points == 1 else "points"
        lines.append(" " * indent + f"Wins {game.points} {unit}")
    return lines


def _game_entries(game: Game) -> _GameText:
    text = _GameText(game.starter)
    for record in game.history:
        if isinstance(record, CubeRecord):
            if record.action == "double":
                text.entries.append((record.seat, f" Doubles => {record.cube * 2}"))
            else:
                text.entries.append((record.seat, " Takes" if record.action == "take" else " Drops"))
        else:
            text.entries.append((record.seat, f"{_dice_text(record.dice)} {play_text(record.play)}".rstrip()
                                 + ("" if record.play else " ")))
    if game.result is not None:
        text.winner, text.points = game.result.winner, game.result.points
    return text


def _record_entries(records: Any, index: int, rules: Rules) -> _GameText:
    """One game of ``play_games`` records; a match file starts every game
    from the rules' start position, so the records must too."""
    start, end = int(records.offsets[index]), int(records.offsets[index + 1])
    text = _GameText(0)
    expected = Position.initial(rules)
    for ply in range(start, end):
        seat = (ply - start) % 2
        before = Position(records.positions[ply])
        if before != expected:
            where = "the start position" if ply == start else "the position the ply before left"
            raise MatchFileError(
                f"game {index}, ply {ply - start}: starts from {before.id}, not {where} ({expected.id})")
        after = Position(records.after[ply])
        dice = (int(records.dice[ply][0]), int(records.dice[ply][1]))
        plays = moves.legal_plays(before, dice, rules)
        chosen = next((play for play in plays if play.position == after), None)
        if chosen is None and not (after == before and not plays):
            raise MatchFileError(f"game {index}, ply {ply - start}: no legal play of {dice} leads to {after.id}")
        text.entries.append((seat, f"{_dice_text(dice)} {play_text(chosen)}".rstrip() + ("" if chosen else " ")))
        expected = after.swapped()
    winner, value = int(records.winner[index]), int(records.value[index])
    if winner in (0, 1) and value > 0:
        text.winner, text.points = winner, value
    return text


def _games_of(source: object, rules: Rules | str | None) -> tuple[list[_GameText], Rules]:
    carried = _carried_rules(source)
    if carried is not None and rules is not None and as_rules(rules) != carried:
        raise InvalidRulesError(f"the games were played under {carried.short_name}, "
                                f"not the rules= given ({as_rules(rules).short_name})")
    if isinstance(source, MatchRecord):
        return [_game_entries(game.game) if game.ending != "resign" else _resigned(game)
                for game in source.games], source.rules
    if isinstance(source, Match):
        return [_game_entries(game) for game in source.games], source.rules
    if isinstance(source, Game):
        return [_game_entries(source)], source.rules
    if _is_play_games_records(source):
        rules = _records_rules(source, rules)
        count = len(source.offsets) - 1
        return [_record_entries(source, index, rules) for index in range(count)], rules
    games = list(source) if isinstance(source, Iterable) else None
    if games is None or not games or not all(isinstance(game, Game) for game in games):
        raise ArgumentTypeError("write_match takes a Match, a Game, games, a MatchRecord or play_games records")
    rule_sets = {game.rules for game in games}
    if len(rule_sets) != 1:
        raise MatchFileError("the games of one match file share one rule set")
    return [_game_entries(game) for game in games], rule_sets.pop()


def _carried_rules(source: object) -> Rules | None:
    """The rules a Match, a Game or a MatchRecord was played under (None for anything else)."""
    return source.rules if isinstance(source, (MatchRecord, Match, Game)) else None


def _check_layout(match_length: object, players: object, headers: object) -> None:
    """write_match's arguments other than the games: what its text can carry and read back."""
    non_negative_int(match_length, "match_length")
    if (isinstance(players, str) or not isinstance(players, Sequence) or len(players) != 2
            or not all(isinstance(name, str) and name.strip() and not _LINE_BREAK.search(name) for name in players)):
        raise InvalidArgumentError(f"players must be two names (str, on one line), got {players!r}")
    if headers is None:
        return
    if not isinstance(headers, Mapping):
        raise ArgumentTypeError(f"headers must be a dict of str to str, got {type(headers).__name__}")
    for key, value in headers.items():
        if not (isinstance(key, str) and key.strip() and not re.search(r'[\]"]', key) and not _LINE_BREAK.search(key)
                and isinstance(value, str) and not _LINE_BREAK.search(value)):
            raise InvalidArgumentError(f"header {key!r}: {value!r} cannot be written; a header is a name (no ']' or "
                                       "'\"') and a str value, each on one line")


#: What ends a line for str.splitlines, which reads the files back.
_LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


def _records_rules(records: Any, rules: Rules | str | None) -> Rules:
    """The rules of ``play_games`` records: those they carry, or ``rules=``
    (needed for the oracle's records, which carry none); both must agree."""
    carried = getattr(records, "rules", None)
    if rules is None:
        if carried is None:
            raise InvalidArgumentError("write_match needs rules= for records that do not carry their rules")
        return as_rules(carried)
    given = as_rules(rules)
    if carried is not None and as_rules(carried) != given:
        raise InvalidRulesError(f"the records were played under {as_rules(carried).short_name}, "
                                f"not the rules= given ({given.short_name})")
    return given


def _is_play_games_records(source: object) -> TypeGuard[Any]:
    """``play_games`` records: the package's :class:`GameRecords` or the
    oracle's (the same fields, holding lists), told by their fields so that
    this module needs nothing of the oracle."""
    return isinstance(source, tuple) and getattr(source, "_fields", None) == GameRecords._fields


def _resigned(record: GameRecord) -> _GameText:
    text = _game_entries(record.game)
    text.winner, text.points = record.winner, record.points
    return text


def write_match(source: Match | Game | Sequence[Game] | MatchRecord | GameRecords | PlainGameRecords, *,
                match_length: int = 0, players: Sequence[str] = ("Player 1", "Player 2"),
                rules: Rules | str | None = None, headers: dict[str, str] | None = None) -> str:
    """The match file text of games, as GNU Backgammon exports matches.

    Ban-sugoroku files carry a ``; [Variant "..."]`` header naming the
    rules, which :func:`parse_match` reads back.

    Parameters
    ----------
    source : Match or Game or list of Game or MatchRecord or ~bansugoroku_fast.games.GameRecords
        The games: a :class:`~bansugoroku_fast.Match`, a
        :class:`~bansugoroku_fast.Game` or a list of games, a
        :class:`MatchRecord`, or :func:`~bansugoroku_fast.play_games`
        records, the package's (which carry their rules) or the oracle's
        (with ``rules=``); seat 0 moved first in each game.
    match_length : int
        The match's length in points, 0 for money play (a
        :class:`MatchRecord`'s own when 0).
    players : Sequence of str
        The two players' names, seat 0 first (a :class:`MatchRecord`'s own
        when left at the default).
    rules : ~bansugoroku_fast.rules.Rules or str or None
        The rules of the oracle's records; for any other source, None or
        the rules it was played under.
    headers : dict or None
        Header names to values, str each, written first as
        ``; [Event "..."]`` lines.

    Returns
    -------
    str
        The file's text.

    Raises
    ------
    ArgumentTypeError
        ``source`` is none of the above, or ``headers`` is not a dict.
    InvalidArgumentError
        ``match_length`` is not an integer >= 0, ``players`` is not two
        names on one line each, a header cannot be written on one line, or
        the oracle's records come without ``rules``.
    InvalidRulesError
        ``rules`` is not a rule set, or not the one the games were played
        under.
    MatchFileError
        The games of a list were played under different rules, or records
        hold a ply that does not replay (the error names game and ply).

    Examples
    --------
    >>> from bansugoroku_fast import Computer
    >>> game = Game("backgammon", seed=1)
    >>> game.hand_over(0, Computer("random", cube=None)); game.hand_over(1, Computer("random", cube=None))
    >>> game.advance()
    >>> text = write_match(game, players=("Alice", "Bob"))
    >>> print(text.splitlines()[4])
     Alice : 0                      Bob : 0
    >>> parse_match(text).games[0].winner == game.result.winner
    True

    Games played by :func:`~bansugoroku_fast.play_games` (the side that
    moved first is the player named first):

    >>> from bansugoroku_fast import play_games
    >>> records = play_games("ban-sugoroku", games=2, seed=1)
    >>> read_back = parse_match(write_match(records))
    >>> [game.winner for game in read_back.games] == records.winner.tolist()
    True
    """
    _check_layout(match_length, players, headers)
    games, rules = _games_of(source, rules)
    if isinstance(source, MatchRecord):
        match_length = match_length or source.match_length
        if tuple(players) == ("Player 1", "Player 2"):
            players = source.players
        headers = {**source.headers, **(headers or {})}
    header_lines = [f'; [{key} "{value}"]' for key, value in (headers or {}).items() if key != VARIANT_KEY]
    if not rules.is_backgammon:
        header_lines.append(f'; [{VARIANT_KEY} "{rules.label}"]')
    lines = header_lines + ["", f" {match_length} point match"]
    score = [0, 0]
    for number, game in enumerate(games, start=1):
        lines.extend(_layout(number, score, players, game))
        if game.winner is not None and game.points is not None:
            score[game.winner] += game.points
    return "\n".join(lines) + "\n"
