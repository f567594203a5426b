"""GNU Backgammon's Match ID, and the ``Position ID:Match ID`` pair.

A Match ID is 12 base64 characters over a 9-byte key. The key is a string of
66 bits, each field written least-significant bit first, fields in this
order (as GNU Backgammon's manual, "A technical description of the Match ID",
lays them out):

======  =====  ==================================================================
bits    field  meaning
======  =====  ==================================================================
1-4     cube   log2 of the cube value (1 .. 2**15)
5-6     owner  0 or 1 = that player owns the cube, 3 = centred
7       roll   the player on roll (or who rolled the dice shown)
8       craw   1 in the Crawford game
9-11    state  0 no game, 1 playing, 2 over, 3 resigned, 4 ended by a dropped cube
12      turn   the player who must decide now (the opponent when doubled or
               offered a resignation)
13      dbl    1 when a double is offered
14-15   resgn  resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
16-18   die 1  0 = not rolled
19-21   die 2
22-36   len    match length, 0 = money game
37-51   sc 0   player 0's score
52-66   sc 1   player 1's score
67      nojac  1 when the Jacoby rule is off (GNU Backgammon writes it; the
               manual's table stops at 66)
======  =====  ==================================================================

Bit ``k`` of the string is bit ``(k - 1) % 8`` of byte ``(k - 1) // 8``; the
dice are stored larger first. The remaining 5 bits of the 9 bytes are 0.

The Match ID GNU Backgammon shows at the start of a money game, player 1
having won the opening roll with 6-5:

>>> state = decode_match_id("cAkXAAAAAAAA")
>>> state.cube, state.cube_owner, state.player_on_roll, state.game_state, state.dice
(1, None, 1, 'playing', (6, 5))
>>> state.match_length, state.jacoby
(0, True)
>>> encode_match_id(state)
'cAkXAAAAAAAA'
>>> decode_match_id("cAkXAAAAAAA")
Traceback (most recent call last):
...
bansugoroku_fast.errors.MatchIdError: a Match ID has 12 characters, got 11: 'cAkXAAAAAAA'
"""
from __future__ import annotations

import base64
import binascii
import dataclasses
from dataclasses import dataclass

from ..errors import ArgumentTypeError, InvalidPositionError, MatchIdError
from ..games.interactive import Game
from ..position import Position, as_position
from ..typing import PositionLike

ID_LENGTH = 12
KEY_BYTES = 9
KEY_BITS = 67
CENTRED = 3  # the owner field of a centred cube
MAX_CUBE_LOG = 15
MAX_FIFTEEN_BITS = 2**15 - 1

#: Field name and width in bits, in key order.
FIELDS = (
    ("cube_log", 4),
    ("cube_owner", 2),
    ("player_on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die_1", 3),
    ("die_2", 3),
    ("match_length", 15),
    ("score_0", 15),
    ("score_1", 15),
    ("no_jacoby", 1),
)
assert sum(width for _, width in FIELDS) == KEY_BITS

#: Game states by their code (bits 9-11).
GAME_STATES = ("none", "playing", "over", "resigned", "dropped")
#: What a resignation offers, by its code (bits 14-15); 0 = no resignation.
RESIGNATIONS = ("none", "single", "gammon", "backgammon")


@dataclass(frozen=True)
class MatchState:
    """Everything a Match ID holds; players are 0 and 1 as GNU Backgammon
    numbers them. Every field is checked on construction (:class:`MatchIdError`).

    ``cube_owner`` is None when the cube is centred; ``dice`` None before the
    roll, else larger die first; ``resignation`` 0 (none), 1, 2 or 3 (the
    points offered: single, gammon, backgammon); ``match_length`` 0 for a
    money game; ``game_state`` one of :data:`GAME_STATES`; ``jacoby`` whether
    the Jacoby rule applies (GNU Backgammon's money-game default).

    Parameters
    ----------
    cube : int
        The cube's value, a power of 2.
    cube_owner : int or None
        The player who owns it; None when centred.
    player_on_roll : int
        The player on roll, 0 or 1.
    crawford : bool
        Whether this is the Crawford game.
    game_state : str
        One of :data:`GAME_STATES`.
    turn : int
        The player whose turn it is to act (to roll, or to answer a double).
    double_offered : bool
        Whether a double is being offered.
    resignation : int
        0, or the points of a resignation offered (1, 2 or 3).
    dice : tuple of (int, int) or None
        The roll, larger die first; None before the roll.
    match_length : int
        The match's length, 0 for a money game.
    score : tuple of (int, int)
        Player 0's and player 1's scores.
    jacoby : bool
        Whether the Jacoby rule applies.

    Examples
    --------
    >>> MatchState(dice=(3, 1)).dice
    (3, 1)
    >>> MatchState(cube=3)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.MatchIdError: the cube is a power of 2 from 1 to 32768, got 3
    """

    cube: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: str = "playing"
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        for problem in _problems(self):
            raise MatchIdError(problem)
        if self.dice is not None and self.dice[0] < self.dice[1]:
            object.__setattr__(self, "dice", (self.dice[1], self.dice[0]))

    def replace(self, **changes: object) -> MatchState:
        """A copy with some fields changed (and checked again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _problems(state: MatchState) -> list[str]:
    """What is wrong with ``state``, most basic first (empty when valid)."""
    cube = state.cube
    if not (_is_int(cube) and cube >= 1 and cube & (cube - 1) == 0 and cube <= 2**MAX_CUBE_LOG):
        return [f"the cube is a power of 2 from 1 to {2 ** MAX_CUBE_LOG}, got {cube!r}"]
    if state.cube_owner not in (None, 0, 1):
        return [f"the cube owner is 0, 1 or None (centred), got {state.cube_owner!r}"]
    for name in ("player_on_roll", "turn"):
        if getattr(state, name) not in (0, 1):
            return [f"{name} is player 0 or 1, got {getattr(state, name)!r}"]
    if state.game_state not in GAME_STATES:
        return [f"the game state is one of {', '.join(GAME_STATES)}, got {state.game_state!r}"]
    if state.resignation not in range(len(RESIGNATIONS)):
        return [f"a resignation offers 0 (none) to 3 points, got {state.resignation!r}"]
    if state.dice is not None and not (
        isinstance(state.dice, tuple) and len(state.dice) == 2
        and all(_is_int(die) and 1 <= die <= 6 for die in state.dice)
    ):
        return [f"the dice are None or two integers in 1..6, got {state.dice!r}"]
    numbers = (state.match_length, *state.score) if isinstance(state.score, tuple) else ()
    if len(numbers) != 3 or not all(_is_int(n) and 0 <= n <= MAX_FIFTEEN_BITS for n in numbers):
        return [
            f"the match length and the two scores are integers in 0..{MAX_FIFTEEN_BITS}, "
            f"got {state.match_length!r} and {state.score!r}"
        ]
    return _impossible_combinations(state)


def _impossible_combinations(state: MatchState) -> list[str]:
    if state.crawford and state.match_length == 0:
        return ["a money game (match length 0) has no Crawford game"]
    if state.double_offered and state.resignation:
        return ["a double and a resignation cannot both be pending"]
    if state.double_offered and state.dice is not None:
        return [f"a double is offered before rolling, but the dice show {state.dice}"]
    if state.double_offered and state.cube_owner not in (None, state.player_on_roll):
        return [f"player {state.player_on_roll} doubled, but player {state.cube_owner} owns the cube"]
    if state.double_offered and state.crawford:
        return ["nobody may double in the Crawford game"]
    if (state.double_offered or state.resignation) and state.turn == state.player_on_roll:
        return [
            f"player {state.turn} must answer the offer of player {state.player_on_roll}: "
            "the turn and the player on roll must differ"
        ]
    if not isinstance(state.crawford, bool) or not isinstance(state.double_offered, bool) \
            or not isinstance(state.jacoby, bool):
        return ["crawford, double_offered and jacoby are True or False"]
    # After the last game the score may pass the length; while playing it may not.
    if state.game_state == "playing" and state.match_length:
        over = [score for score in state.score if score >= state.match_length]
        if over:
            return [f"a score of {over[0]} in a {state.match_length}-point match leaves no game to play"]
    return []


# --- the bit string --------------------------------------------------------------------


def _field_values(state: MatchState) -> dict[str, int]:
    dice = state.dice or (0, 0)
    return {
        "cube_log": state.cube.bit_length() - 1,
        "cube_owner": CENTRED if state.cube_owner is None else state.cube_owner,
        "player_on_roll": state.player_on_roll,
        "crawford": int(state.crawford),
        "game_state": GAME_STATES.index(state.game_state),
        "turn": state.turn,
        "double_offered": int(state.double_offered),
        "resignation": state.resignation,
        "die_1": dice[0],
        "die_2": dice[1],
        "match_length": state.match_length,
        "score_0": state.score[0],
        "score_1": state.score[1],
        "no_jacoby": int(not state.jacoby),
    }


def encode_match_id(state: MatchState) -> str:
    """The 12-character Match ID of ``state``, as GNU Backgammon writes it.

    Parameters
    ----------
    state : MatchState
        The match's state (checked when it was made).

    Returns
    -------
    str
        The Match ID, 12 base64 characters.

    Raises
    ------
    ArgumentTypeError
        ``state`` is not a :class:`MatchState`.

    Examples
    --------
    GNU Backgammon's id after player 0 took a double from player 1 in a
    3-point match:

    >>> encode_match_id(MatchState(cube=2, cube_owner=0, player_on_roll=1, turn=1, match_length=3))
    'QQlgAAAAAAAE'
    """
    if not isinstance(state, MatchState):
        raise ArgumentTypeError(f"encode_match_id takes a MatchState, got {type(state).__name__}")
    key = 0
    shift = 0
    values = _field_values(state)
    for name, width in FIELDS:
        key |= values[name] << shift
        shift += width
    return base64.b64encode(key.to_bytes(KEY_BYTES, "little")).decode("ascii")


def _key_of(text: object) -> int:
    if not isinstance(text, str):
        raise MatchIdError(f"a Match ID is a str, got {type(text).__name__}")
    if len(text) != ID_LENGTH:
        raise MatchIdError(f"a Match ID has {ID_LENGTH} characters, got {len(text)}: {text!r}")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != KEY_BYTES:  # also refuses '=' padding: 12 characters carry 9 bytes
        raise MatchIdError(f"a Match ID is 12 base64 characters (A-Z, a-z, 0-9, +, /), got {text!r}")
    key = int.from_bytes(raw, "little")
    if key >> KEY_BITS:
        raise MatchIdError(f"Match ID {text!r} sets bits past the {KEY_BITS} the key has")
    return key


def decode_match_id(text: str) -> MatchState:
    """The :class:`MatchState` of a Match ID.

    Parameters
    ----------
    text : str
        A Match ID, 12 base64 characters (GNU Backgammon's ``show
        matchid``).

    Returns
    -------
    MatchState
        The cube, the turn, the dice, the match length and the score.

    Raises
    ------
    MatchIdError
        ``text`` is not 12 base64 characters, or a field holds a value no
        match has (the error names the field).

    Examples
    --------
    GNU Backgammon's id of the Crawford game at 4-2 in a 5-point match:

    >>> state = decode_match_id("8AmuAEAAEAAE")
    >>> state.score, state.match_length, state.crawford
    ((4, 2), 5, True)

    The same with game state 5, which does not exist:

    >>> decode_match_id("cA0XAAAAAAAA")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.MatchIdError: Match ID 'cA0XAAAAAAAA': the game state is one of none, ..., got 'code 5'
    """
    key = _key_of(text)
    values = {}
    for name, width in FIELDS:
        values[name] = key & ((1 << width) - 1)
        key >>= width
    problem = _field_problem(values)
    if problem:
        raise MatchIdError(f"Match ID {text!r}: {problem}")
    dice = (values["die_1"], values["die_2"])
    try:
        return MatchState(
            cube=1 << values["cube_log"],
            cube_owner=None if values["cube_owner"] == CENTRED else values["cube_owner"],
            player_on_roll=values["player_on_roll"],
            crawford=bool(values["crawford"]),
            game_state=GAME_STATES[values["game_state"]],
            turn=values["turn"],
            double_offered=bool(values["double_offered"]),
            resignation=values["resignation"],
            dice=None if dice == (0, 0) else dice,
            match_length=values["match_length"],
            score=(values["score_0"], values["score_1"]),
            jacoby=not values["no_jacoby"],
        )
    except MatchIdError as error:
        raise MatchIdError(f"Match ID {text!r}: {error}") from None


def _field_problem(values: dict[str, int]) -> str | None:
    """Field codes that no :class:`MatchState` has (checked before building one)."""
    if values["cube_owner"] == 2:
        return "the cube owner field is 2 (0 and 1 are players, 3 is centred)"
    if values["game_state"] >= len(GAME_STATES):
        return (f"the game state is one of {', '.join(GAME_STATES)}, "
                f"got 'code {values['game_state']}'")
    dice = (values["die_1"], values["die_2"])
    if dice != (0, 0) and not all(1 <= die <= 6 for die in dice):
        return f"the dice are 1..6 each, or both 0 (not rolled), got {dice}"
    return None


# --- Position ID:Match ID ---------------------------------------------------------------


def gnubg_id(position: PositionLike, state: MatchState) -> str:
    """The ``Position ID:Match ID`` pair that GNU Backgammon's ``set gnubgid``
    takes.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position as ``state.player_on_roll`` sees it (row 0).
    state : MatchState
        The match's state.

    Returns
    -------
    str
        ``"<Position ID>:<Match ID>"``.

    Raises
    ------
    InvalidPositionError
        ``position`` is not a position.
    ArgumentTypeError
        ``state`` is not a :class:`MatchState`.

    Examples
    --------
    >>> gnubg_id(Position.initial(), decode_match_id("cAkXAAAAAAAA"))
    '4HPwATDgc/ABMA:cAkXAAAAAAAA'
    """
    match_id = encode_match_id(state)
    return f"{as_position(position).id}:{match_id}"


def parse_gnubg_id(text: str) -> tuple[Position, MatchState]:
    """The position and the match state of a ``Position ID:Match ID`` pair.

    Parameters
    ----------
    text : str
        The pair, as GNU Backgammon's ``show gnubgid`` prints it
        (surrounding spaces are ignored).

    Returns
    -------
    tuple of (Position, MatchState)
        The position (row 0 = the player on roll) and the match state.

    Raises
    ------
    MatchIdError
        ``text`` is not a str holding two ids around a colon, or either id
        is not valid (the error says which).

    Examples
    --------
    >>> position, state = parse_gnubg_id("4HPwATDgc/ABMA:cAkXAAAAAAAA")
    >>> position == Position.initial(), state.dice
    (True, (6, 5))
    """
    if not isinstance(text, str):
        raise MatchIdError(f"a gnubg id is a str, got {type(text).__name__}")
    position_text, colon, match_text = text.strip().partition(":")
    if not colon:
        raise MatchIdError(f"a gnubg id is 'Position ID:Match ID', got {text!r}")
    try:
        position = Position.from_id(position_text)
    except InvalidPositionError as error:
        raise MatchIdError(f"the Position ID of {text!r}: {error}") from None
    return position, decode_match_id(match_text)


def game_state_of(game: Game, *, match_length: int = 0, score: tuple[int, int] = (0, 0),
                  crawford: bool = False) -> MatchState:
    """The :class:`MatchState` of a :class:`~bansugoroku_fast.Game` now.

    The game's seats are GNU Backgammon's players 0 and 1; the match around
    it, if any, is given by the keyword arguments.

    Parameters
    ----------
    game : ~bansugoroku_fast.Game
        The game.
    match_length : int
        The match's length in points; 0 for money play.
    score : tuple of (int, int)
        The seats' scores before this game.
    crawford : bool
        Whether this is the Crawford game.

    Returns
    -------
    MatchState
        The cube, the turn, the dice and the score (this game's points
        added once it is over).

    Raises
    ------
    ArgumentTypeError
        ``game`` is not a :class:`~bansugoroku_fast.Game`.
    MatchIdError
        The match arguments describe no match (a negative length, a score
        that leaves no game to play, a ``crawford`` that is not a bool).

    Examples
    --------
    >>> from bansugoroku_fast import Game
    >>> from bansugoroku_fast.games.interactive import ScriptedDice
    >>> game = Game("backgammon", ScriptedDice([3, 5, 4]))   # seat 1 wins the roll-off 5-3
    >>> state = game_state_of(game)
    >>> state.player_on_roll, state.dice, state.cube_owner
    (1, (5, 3), None)
    """
    if not isinstance(game, Game):
        raise ArgumentTypeError(f"game_state_of takes a Game, got {type(game).__name__}")
    dice = game.dice or game._opening_dice
    result = game.result
    points = list(score)
    if result is not None:
        points[result.winner] += result.points
    answering = game.double_offered_by
    return MatchState(
        cube=game.cube,
        cube_owner=game.cube_owner,
        player_on_roll=game.seat_to_move,
        crawford=crawford,
        game_state="playing" if result is None else ("dropped" if result.dropped else "over"),
        turn=game.seat_to_move if answering is None else 1 - answering,
        double_offered=answering is not None,
        dice=None if dice is None or result is not None else (int(dice[0]), int(dice[1])),
        match_length=match_length,
        score=(points[0], points[1]),
        jacoby=False,
    )


def game_gnubg_id(game: Game, *, match_length: int = 0, score: tuple[int, int] = (0, 0),
                  crawford: bool = False) -> str:
    """The ``Position ID:Match ID`` of a game now, the position seen by the
    side to move.

    Parameters
    ----------
    game : ~bansugoroku_fast.Game
        The game.
    match_length : int
        The match's length in points; 0 for money play.
    score : tuple of (int, int)
        The seats' scores before this game.
    crawford : bool
        Whether this is the Crawford game.

    Returns
    -------
    str
        ``"<Position ID>:<Match ID>"``, what GNU Backgammon's ``set
        gnubgid`` takes.

    Raises
    ------
    ArgumentTypeError
        ``game`` is not a :class:`~bansugoroku_fast.Game`.
    MatchIdError
        The match arguments describe no match.

    Examples
    --------
    Seat 0 wins the opening roll 5-2 in a 3-point match (GNU Backgammon
    shows the same Match ID for that state):

    >>> from bansugoroku_fast import Game
    >>> from bansugoroku_fast.games.interactive import ScriptedDice
    >>> game_gnubg_id(Game("backgammon", ScriptedDice([5, 2])), match_length=3)
    '4HPwATDgc/ABMA:MIFqAAAAAAAE'
    """
    state = game_state_of(game, match_length=match_length, score=score, crawford=crawford)
    return gnubg_id(game.position, state)
