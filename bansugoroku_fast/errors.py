"""Typed errors. Each error of bad input subclasses :class:`ValueError`, so
``except ValueError`` catches bad input of every kind, and each message says
what is wrong; an argument of the wrong type raises the ``...TypeError`` of its
kind, a :class:`TypeError` too. :class:`GameTooLongError`, not bad input, is a
:class:`RuntimeError`.

A play the caller names (notation for :func:`~bansugoroku_fast.parse_play`,
:meth:`Turn.play <bansugoroku_fast.turn.Turn.play>` or
:meth:`Game.play <bansugoroku_fast.games.interactive.Game.play>`) fails in one of three
ways, as python-chess separates them: :class:`InvalidNotationError` (the text
cannot be read), :class:`IllegalPlayError` (no legal play or move matches) and
:class:`AmbiguousPlayError` (several do). :class:`PlayError` catches all three.

>>> from bansugoroku_fast import Position, parse_play
>>> start = Position.initial()
>>> parse_play(start, (6, 5), "24/x")
Traceback (most recent call last):
...
bansugoroku_fast.errors.InvalidNotationError: cannot read 'x' in '24/x'
>>> parse_play(start, (6, 5), "24/19")
Traceback (most recent call last):
...
bansugoroku_fast.errors.IllegalPlayError: '24/19' is not a legal play here; legal plays: ...
>>> issubclass(IllegalPlayError, PlayError) and issubclass(PlayError, ValueError)
True
"""

__all__ = [
    "AmbiguousPlayError",
    "AssumedRulesWarning",
    "ArgumentTypeError",
    "BansugorokuError",
    "ContactError",
    "CubeTypeError",
    "EndgameCacheError",
    "EndgameCacheWarning",
    "EvaluatorOutputError",
    "EvaluatorOutputTypeError",
    "GameStateError",
    "GameTooLongError",
    "IllegalPlayError",
    "InvalidCubeError",
    "InvalidArgumentError",
    "InvalidDiceError",
    "InvalidEvaluatorError",
    "InvalidNotationError",
    "InvalidOptionError",
    "InvalidPolicyError",
    "InvalidPositionError",
    "InvalidRulesError",
    "InvalidStonesError",
    "InvalidTrainingError",
    "MatchFileError",
    "MatchEquityQueryError",
    "MatchEquityQueryTypeError",
    "MatchEquityTableError",
    "MatchIdError",
    "NetworkFileError",
    "NotARaceError",
    "NotInTableError",
    "OutputPathError",
    "PlayError",
    "PolicyOutputError",
    "PolicyOutputTypeError",
    "PolicyTypeError",
    "RequestError",
    "RulesTypeError",
    "StonesTypeError",
    "TableRulesError",
    "UnevenStrataWarning",
]


class BansugorokuError(Exception):
    """The base of every error the library raises: ``except BansugorokuError``
    catches them all, and each is also the built-in error of its kind
    (:class:`ValueError`, :class:`TypeError`, :class:`RuntimeError` or
    :class:`OSError`).

    >>> from bansugoroku_fast import Position
    >>> try:
    ...     Position.from_id("not an id")
    ... except BansugorokuError as error:
    ...     isinstance(error, ValueError)
    True
    """


class InvalidRulesError(BansugorokuError, ValueError):
    """An unknown variant or option, or an option the variant does not have."""


class InvalidPositionError(BansugorokuError, ValueError):
    """An array or id that is not a valid position (for these rules)."""


class InvalidDiceError(BansugorokuError, ValueError):
    """Dice that are not a pair of integers in 1..6."""


class PlayError(BansugorokuError, ValueError):
    """A play or move the caller named cannot be made: the base of
    :class:`InvalidNotationError`, :class:`IllegalPlayError` and
    :class:`AmbiguousPlayError`."""


class InvalidNotationError(PlayError):
    """Text that is not move notation at all (syntax): an unknown token, a
    point outside 0..25, a move without ``from/to``, a move that goes nowhere
    or backwards, more repeats than a turn has moves."""


class IllegalPlayError(PlayError):
    """A play or move the rules do not allow here (or at this point of the
    turn): readable, but no legal play matches it."""


class AmbiguousPlayError(PlayError):
    """Notation that matches more than one legal play; the message lists them."""


class GameStateError(BansugorokuError, ValueError):
    """An action out of turn: playing before rolling, rolling twice, doubling
    in Ban-sugoroku or after the roll, answering a double nobody offered,
    moving once the game is over."""


class InvalidTrainingError(BansugorokuError, ValueError):
    """A training configuration, checkpoint or output path that cannot be used
    (:mod:`bansugoroku_fast.train`)."""


class PolicyOutputError(BansugorokuError, ValueError):
    """Choices or scores that cannot choose a play: the wrong shape or
    dtype, an index outside a game's candidates, a NaN score. The message
    names the game."""


class InvalidPolicyError(BansugorokuError, ValueError):
    """An unknown policy name, a policy pair that is not two policies, a
    policy the variant does not have, or weights that are not one finite
    number per feature."""


class InvalidEvaluatorError(BansugorokuError, ValueError):
    """An evaluator that cannot score these positions: a network whose
    layers do not fit together or its encoding, an unknown encoding or
    activation, NaN or infinite weights, a network trained for other rules."""


class NetworkFileError(InvalidEvaluatorError):
    """A network file (``.npz``) that cannot be read or holds a bad value:
    ``path`` names the file and ``key`` the array at fault (empty when the
    whole file is)."""

    def __init__(self, message: str, path: str = "", key: str = ""):
        self.message = message  # without the place
        self.path = path
        self.key = key
        where = f"{path}: " if path else ""
        where += f"key {key!r}: " if key else ""
        super().__init__(where + message)


class EvaluatorOutputError(BansugorokuError, ValueError):
    """What a Python evaluator returned cannot be probabilities of the five
    outcomes: the wrong shape, NaN or infinite values, values outside
    [0, 1], cumulative probabilities out of order (P(w3) > P(w2+) > P(win),
    P(l3) > P(l2+) > 1 - P(win)). The message names the first position."""


class InvalidArgumentError(BansugorokuError, ValueError):
    """An argument (or setting) with a value the function does not take: a
    count, seed, depth or thread count out of its range, a word that is not
    one of those accepted, arguments that do not fit together. Errors of a
    kind that has its own class (rules, positions, dice, policies,
    evaluators...) raise that class instead; this one is for the rest. The
    message names the argument and what it takes.

    >>> from bansugoroku_fast import play_games
    >>> play_games("backgammon", games=0)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidArgumentError: games must be a positive integer, got 0
    """


class InvalidOptionError(InvalidArgumentError):
    """An option that contradicts another (an environment id's rules and a
    ``rules=`` of another variant, command-line options that do not
    combine). A keyword the function does not take at all raises
    :class:`ArgumentTypeError`, as Python's own ``TypeError``."""


class InvalidCubeError(BansugorokuError, ValueError):
    """A cube that cannot be: a value that is not a power of 2 up to the
    limit, an owner, score or Crawford flag that no game reaches."""


class GameTooLongError(BansugorokuError, RuntimeError):
    """A whole game that has not ended after ``max_plies`` plies (which names
    the game and the seed, so that it can be replayed). Not bad input, so not
    a ValueError: the rules allow long games, the cap is a safety net."""

    @classmethod
    def of_game(cls, game: str, seed: int, max_plies: int) -> "GameTooLongError":
        """The error for ``game`` (its name: "game 3", "game 3 from position
        1"), not over after ``max_plies`` plies, saying how to end such games
        instead.

        >>> print(GameTooLongError.of_game("game 3", 7, 100))
        game 3 (seed 7) has not ended after 100 plies; on_long="truncate" ends such games there, unfinished (winner -1)
        """
        return cls(f"{game} (seed {seed}) has not ended after {max_plies} plies; "
                   f'on_long="truncate" ends such games there, unfinished (winner -1)')


# Wrong types: each is also a TypeError, as Python's own functions raise for
# an argument of the wrong type, and still the ValueError subclass of its
# kind, so one ``except`` catches every bad value of that argument.


class RulesTypeError(InvalidRulesError, TypeError):
    """Rules that are neither a :class:`~bansugoroku_fast.Rules` nor a str label."""



class PolicyOutputTypeError(PolicyOutputError, TypeError):
    """A policy's output (or the choices given to ``GameBatch.step``) of a dtype
    that is neither integer choices nor floating scores."""


class PolicyTypeError(InvalidPolicyError, TypeError):
    """A policy that is neither a name nor a LinearPolicy (nor a pair of
    them), or LinearPolicy weights that are not a sequence."""


class EvaluatorOutputTypeError(EvaluatorOutputError, TypeError):
    """A Python evaluator's output that is not an array of real numbers."""


class CubeTypeError(InvalidCubeError, TypeError):
    """A cube argument of the wrong type (a cube value that is not an
    integer, a flag that is not a bool)."""


class ArgumentTypeError(InvalidArgumentError, TypeError):
    """An argument of a type the function does not take (a flag that is not
    a bool, play notation that is not a str, an evaluator that is neither a
    NetEvaluator nor a callable, a table's path that is no path, a seed
    that is no source of randomness...), a required argument left out, or a
    keyword argument the function does not take (the message then lists
    those it does), as Python's own ``TypeError``. Kinds whose wrong types
    are caught apart have a ``...TypeError`` of their own
    (:class:`RulesTypeError`, :class:`PolicyTypeError`,
    :class:`CubeTypeError`...); the message names the argument and what it
    takes. (Not ``argparse``'s error of the same name.)"""


class RequestError(BansugorokuError, ValueError):
    """An HTTP request to ``bansugoroku serve`` that cannot be read or is not
    allowed, whatever it asks: a body that is not JSON or not an object, a
    field the call does not take or one it needs left out, a body over the
    size limit, a missing or expired session, an unknown job, too many
    analyses at once. ``status`` is the HTTP status the server answers with
    (a 4xx); the message names the field or the limit.

    >>> error = RequestError("unknown field 'colour'; the fields are position, dice, rules", status=422)
    >>> error.status, isinstance(error, ValueError)
    (422, True)
    """

    def __init__(self, message: str, status: int = 400):
        self.status = status
        super().__init__(message)


class OutputPathError(BansugorokuError, ValueError):
    """A file or directory to write that cannot be written: a missing or
    unwritable directory, a format the writer does not know. Raised before
    any work."""


class MatchIdError(BansugorokuError, ValueError):
    """A GNU Backgammon Match ID (or ``Position ID:Match ID`` pair) that is
    malformed or holds an impossible field; the message names the field."""


class MatchFileError(BansugorokuError, ValueError):
    """A match file (``.mat`` text) that cannot be read, or whose games do not
    replay: an illegal or ambiguous move, a wrong score or result; or games
    to write that cannot make one (plies that do not replay, games of
    several rule sets). ``line``
    and ``column`` (1-based; 0 when the whole file is at fault) say where."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        self.message = message  # without the place
        self.line = line
        self.column = column
        where = f"line {line}, column {column}: " if line else ""
        super().__init__(where + message)


# Match equity tables (bansugoroku_fast.cube.met).


class MatchEquityTableError(BansugorokuError, ValueError):
    """A match equity table that cannot be used: a file that cannot be read
    or is not one of GNU Backgammon's ``met/*.xml`` tables, a table of the
    wrong shape, a chance outside [0, 1], chances that do not rise with the
    lead. ``path`` names the file and ``line`` (1-based; 0 when the whole
    file is at fault) the place."""

    def __init__(self, message: str, path: str = "", line: int = 0):
        self.message = message  # without the place
        self.path = path
        self.line = line
        where = f"{path}: " if path else ""
        where += f"line {line}: " if line else ""
        super().__init__(where + message)



class MatchEquityQueryError(BansugorokuError, ValueError):
    """A look-up in a match equity table whose arguments cannot be: a
    negative score, a score that has already won the match, a match longer
    than the table, a Crawford game with no player 1-away, a cube that is
    not a power of two, probabilities outside [0, 1]."""


class MatchEquityQueryTypeError(MatchEquityQueryError, TypeError):
    """A look-up's argument of the wrong type: a score that is not a pair
    of integers, a length, player or cube that is not an integer, a
    Crawford flag that is not a bool."""


# Exact endgame tables (bansugoroku_fast.endgames).


class NotARaceError(InvalidPositionError):
    """A position the race tables cannot value: the base of
    :class:`ContactError` and :class:`NotInTableError`, and itself raised
    for a game that is already over."""


class ContactError(NotARaceError):
    """A position in which the sides can still meet (a stone on the bar, or
    stones that have not passed each other): not a race."""


class NotInTableError(NotARaceError):
    """A race with stones outside the points the tables cover (backgammon
    and the bear-off finish: points 1..6; the arrival finish: points 1..12)."""


class InvalidStonesError(BansugorokuError, ValueError):
    """Stone counts for a one-sided table that are not six counts >= 0 of
    at most 15 stones in all."""


class StonesTypeError(InvalidStonesError, TypeError):
    """Stone counts that are not a sequence (or array) of six integers."""


class TableRulesError(InvalidRulesError):
    """Rules a table does not apply to (the first-stone-off table under the
    arrival finish, where no stone leaves the board)."""


class EndgameCacheError(BansugorokuError, OSError):
    """The endgame tables' cache directory cannot be written (raised by an
    explicit build; a look-up builds in memory with an
    :class:`EndgameCacheWarning` instead)."""


class EndgameCacheWarning(UserWarning):
    """The endgame tables were rebuilt (a cache file missing, damaged or of
    another format) or could not be written to the cache and live in
    memory only."""


class AssumedRulesWarning(UserWarning):
    """A call that scores positions (``rollout``, ``rank_plays``) was given
    no rules and assumed the default ones, Ban-sugoroku's (which the message
    names): a backgammon position, or a GNU Backgammon id, needs
    ``rules="backgammon"``, or its figures are those of another game."""


class UnevenStrataWarning(UserWarning):
    """A stratified rollout of fewer games than its strata
    (``stratify=1296`` with fewer than 1,296 games, ``stratify=36`` with
    fewer than 36): the first rolls are not dealt evenly, so stratifying
    does not do what it promises."""
