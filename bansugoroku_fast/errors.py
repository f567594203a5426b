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

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> try:
    ...     Position.from_id("not an id")
    ... except BansugorokuError as error:
    ...     isinstance(error, ValueError)
    True
    """


class InvalidRulesError(BansugorokuError, ValueError):
    """An unknown variant or option, or an option the variant does not have.

    Examples
    --------
    >>> from bansugoroku_fast import Position, legal_plays
    >>> legal_plays(Position.initial(), (6, 5), "backgamon")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidRulesError: cannot read rules 'backgamon'; ...
    """


class InvalidPositionError(BansugorokuError, ValueError):
    """An array or id that is not a valid position (for these rules).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> Position([[14] + [0] * 25, [15] + [0] * 25])
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidPositionError: row 0 (side to move) holds 14 stones, not 15
    """


class InvalidDiceError(BansugorokuError, ValueError):
    """Dice that are not a pair of integers in 1..6.

    Examples
    --------
    >>> from bansugoroku_fast import Position, legal_plays
    >>> legal_plays(Position.initial(), (0, 5))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidDiceError: dice must be two integers in 1..6, got (0, 5)
    """


class PlayError(BansugorokuError, ValueError):
    """A play or move the caller named cannot be made: the base of
    :class:`InvalidNotationError`, :class:`IllegalPlayError` and
    :class:`AmbiguousPlayError`.

    Examples
    --------
    >>> from bansugoroku_fast import Position, parse_play
    >>> for text in ("24/x", "24/19"):
    ...     try:
    ...         parse_play(Position.initial(), (6, 5), text)
    ...     except PlayError as error:
    ...         print(type(error).__name__)
    InvalidNotationError
    IllegalPlayError
    """


class InvalidNotationError(PlayError):
    """Text that is not move notation at all (syntax): an unknown token, a
    point outside 0..25, a move without ``from/to``, a move that goes nowhere
    or backwards, more repeats than a turn has moves.

    Examples
    --------
    >>> from bansugoroku_fast import Position, parse_play
    >>> parse_play(Position.initial(), (6, 5), "24/x")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidNotationError: cannot read 'x' in '24/x'
    """


class IllegalPlayError(PlayError):
    """A play or move the rules do not allow here (or at this point of the
    turn): readable, but no legal play matches it.

    Examples
    --------
    >>> from bansugoroku_fast import Position, parse_play
    >>> parse_play(Position.initial(), (6, 5), "24/19")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.IllegalPlayError: '24/19' is not a legal play here; legal plays: ...
    """


class AmbiguousPlayError(PlayError):
    """Notation that matches more than one legal play; the message lists them.

    Examples
    --------
    Two blots, on the mover's 18 and 19: ``24/13`` with 6-5 hits either.

    >>> from bansugoroku_fast import Position, parse_play
    >>> mover, opponent = [0] * 26, [0] * 26
    >>> mover[24], mover[13] = 2, 13
    >>> opponent[7], opponent[6], opponent[24] = 1, 1, 13
    >>> parse_play(Position([mover, opponent]), (6, 5), "24/13", "backgammon")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.AmbiguousPlayError: '24/13' is ambiguous: it could be ...
    """


class GameStateError(BansugorokuError, ValueError):
    """An action out of turn: playing before rolling, rolling twice, doubling
    in Ban-sugoroku or after the roll, answering a double nobody offered,
    moving once the game is over.

    Examples
    --------
    >>> from bansugoroku_fast import Game
    >>> Game("backgammon", seed=1).play("8/3 6/3")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.GameStateError: ...
    """


class InvalidTrainingError(BansugorokuError, ValueError):
    """A training configuration, checkpoint or output path that cannot be used
    (:mod:`bansugoroku_fast.train`).

    Examples
    --------
    >>> from bansugoroku_fast.train.files import read_json
    >>> read_json("no-such-run.json")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidTrainingError: no-such-run.json: no such file
    """


class PolicyOutputError(BansugorokuError, ValueError):
    """Choices or scores that cannot choose a play: the wrong shape or
    dtype, an index outside a game's candidates, a NaN score. The message
    names the game.

    Examples
    --------
    >>> import numpy as np
    >>> from bansugoroku_fast import GameBatch
    >>> batch = GameBatch("backgammon", 2, seed=1)
    >>> wave = batch.candidates()
    >>> batch.step(np.array([99, 0]))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.PolicyOutputError: choice 99 for game 0 is outside its ... candidates ...
    """


class InvalidPolicyError(BansugorokuError, ValueError):
    """An unknown policy name, a policy pair that is not two policies, a
    policy the variant does not have, or weights that are not one finite
    number per feature.

    Examples
    --------
    >>> from bansugoroku_fast import play_games
    >>> play_games("backgammon", 1, policy="nope")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidPolicyError: policy: unknown policy 'nope'; accepted: ...
    """


class InvalidEvaluatorError(BansugorokuError, ValueError):
    """An evaluator that cannot score these positions: a network whose
    layers do not fit together or its encoding, an unknown encoding or
    activation, NaN or infinite weights, a network trained for other rules.

    Examples
    --------
    >>> import numpy as np
    >>> from bansugoroku_fast.evaluators import NetEvaluator
    >>> NetEvaluator([np.zeros((198, 8))], [np.zeros(8)])
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidEvaluatorError: a network has 1 or 2 hidden layers then the output layer ...
    """


class NetworkFileError(InvalidEvaluatorError):
    """A network file (``.npz``) that cannot be read or holds a bad value:
    ``path`` names the file and ``key`` the array at fault (empty when the
    whole file is).

    Parameters
    ----------
    message : str
        What is wrong, without the place.
    path : str
        The file ("" when unknown).
    key : str
        The array at fault ("" when the whole file is).

    Examples
    --------
    >>> from bansugoroku_fast.evaluators import NetEvaluator
    >>> NetEvaluator.load("no-such-net.npz")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.NetworkFileError: no-such-net.npz: no such file
    >>> error = NetworkFileError("not a finite number", "net.npz", "W1")
    >>> str(error), error.key
    ("net.npz: key 'W1': not a finite number", 'W1')
    """

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
    P(l3) > P(l2+) > 1 - P(win)). The message names the first position.

    Examples
    --------
    >>> import numpy as np
    >>> from bansugoroku_fast.evaluators import check_output
    >>> check_output(np.zeros((2, 4)), 2)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.EvaluatorOutputError: an evaluator returns five probabilities per position: ...
    """


class InvalidArgumentError(BansugorokuError, ValueError):
    """An argument (or setting) with a value the function does not take: a
    count, seed, depth or thread count out of its range, a word that is not
    one of those accepted, arguments that do not fit together. Errors of a
    kind that has its own class (rules, positions, dice, policies,
    evaluators...) raise that class instead; this one is for the rest. The
    message names the argument and what it takes.

    Examples
    --------
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
    :class:`ArgumentTypeError`, as Python's own ``TypeError``.

    Examples
    --------
    >>> from bansugoroku_fast.envs import backgammon
    >>> backgammon(rules="ban-sugoroku")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidOptionError: Backgammon-v0 plays backgammon; for Ban-sugoroku make ...
    """


class InvalidCubeError(BansugorokuError, ValueError):
    """A cube that cannot be: a value that is not a power of 2 up to the
    limit, an owner, score or Crawford flag that no game reaches.

    Examples
    --------
    >>> from bansugoroku_fast import Position, cube_decision
    >>> cube_decision(Position.initial(), "backgammon", cube=3)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidCubeError: the cube is a power of 2 from 1 to 64, got 3
    """


class GameTooLongError(BansugorokuError, RuntimeError):
    """A whole game that has not ended after ``max_plies`` plies (which names
    the game and the seed, so that it can be replayed). Not bad input, so not
    a ValueError: the rules allow long games, the cap is a safety net.

    Examples
    --------
    No backgammon game ends within five plies:

    >>> from bansugoroku_fast import play_games
    >>> play_games("backgammon", 1, policy="first", max_plies=5)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.GameTooLongError: game 0 (seed 0) has not ended after 5 plies; ...
    """

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
    """Rules that are neither a :class:`~bansugoroku_fast.Rules` nor a str label.

    Examples
    --------
    >>> from bansugoroku_fast import Position, legal_plays
    >>> legal_plays(Position.initial(), (6, 5), 3)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.RulesTypeError: rules must be a Rules (or a label such as 'backgammon'), got 3
    """



class PolicyOutputTypeError(PolicyOutputError, TypeError):
    """A policy's output (or the choices given to ``GameBatch.step``) of a dtype
    that is neither integer choices nor floating scores.

    Examples
    --------
    >>> import numpy as np
    >>> from bansugoroku_fast import GameBatch
    >>> batch = GameBatch("backgammon", 2, seed=1)
    >>> wave = batch.candidates()
    >>> batch.step(np.array(["a", "b"]))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.PolicyOutputTypeError: choices must be integers, int64[2], got dtype <U1
    """


class PolicyTypeError(InvalidPolicyError, TypeError):
    """A policy that is neither a name nor a LinearPolicy (nor a pair of
    them), or LinearPolicy weights that are not a sequence.

    Examples
    --------
    >>> from bansugoroku_fast import play_games
    >>> play_games("backgammon", 1, policy=3)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.PolicyTypeError: policy must be a policy name or a LinearPolicy, got int 3
    """


class EvaluatorOutputTypeError(EvaluatorOutputError, TypeError):
    """A Python evaluator's output that is not an array of real numbers.

    Examples
    --------
    >>> from bansugoroku_fast.evaluators import check_output
    >>> check_output([["a"] * 5], 1)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.EvaluatorOutputTypeError: an evaluator returns real numbers (float[N, 5]), got dtype <U1
    """


class CubeTypeError(InvalidCubeError, TypeError):
    """A cube argument of the wrong type (a cube value that is not an
    integer, a flag that is not a bool).

    Examples
    --------
    >>> from bansugoroku_fast import Position, cube_decision
    >>> cube_decision(Position.initial(), "backgammon", cube="2")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.CubeTypeError: the cube is an integer power of 2 up to 64, got '2'
    """


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
    takes. (Not ``argparse``'s error of the same name.)

    Examples
    --------
    >>> from bansugoroku_fast import Position, rollout
    >>> rollout(Position.initial(), "backgammon", games=2, endgames="yes")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.ArgumentTypeError: endgames must be True or False, got 'yes'
    """


class RequestError(BansugorokuError, ValueError):
    """An HTTP request to ``bansugoroku serve`` that cannot be read or is not
    allowed, whatever it asks: a body that is not JSON or not an object, a
    field the call does not take or one it needs left out, a body over the
    size limit, a missing or expired session, an unknown job, too many
    analyses at once. ``status`` is the HTTP status the server answers with
    (a 4xx); the message names the field or the limit.

    Parameters
    ----------
    message : str
        What is wrong with the request.
    status : int
        The HTTP status the server answers with, a 4xx.

    Examples
    --------
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
    any work.

    Examples
    --------
    >>> from bansugoroku_fast.analysis.report import report_target
    >>> report_target("no-such-folder/report.html")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.OutputPathError: ...
    """


class MatchIdError(BansugorokuError, ValueError):
    """A GNU Backgammon Match ID (or ``Position ID:Match ID`` pair) that is
    malformed or holds an impossible field; the message names the field.

    Examples
    --------
    >>> from bansugoroku_fast.formats import MatchState
    >>> MatchState(cube=3)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.MatchIdError: the cube is a power of 2 from 1 to 32768, got 3
    """


class MatchFileError(BansugorokuError, ValueError):
    """A match file (``.mat`` text) that cannot be read, or whose games do not
    replay: an illegal or ambiguous move, a wrong score or result; or games
    to write that cannot make one (plies that do not replay, games of
    several rule sets). ``line``
    and ``column`` (1-based; 0 when the whole file is at fault) say where.

    Parameters
    ----------
    message : str
        What is wrong, without the place.
    line : int
        The line at fault, from 1 (0 when the whole file is).
    column : int
        The column, from 1.

    Examples
    --------
    >>> from bansugoroku_fast.formats import parse_match
    >>> parse_match(" 3 point match\\n\\n Game 1\\n Ann : 0        Bob : 0\\n  1) 52: 24/19\\n")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.MatchFileError: line 5, column ...
    >>> error = MatchFileError("an illegal move", line=12, column=5)
    >>> str(error), error.line
    ('line 12, column 5: an illegal move', 12)
    """

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
    file is at fault) the place.

    Parameters
    ----------
    message : str
        What is wrong, without the place.
    path : str
        The file ("" when unknown).
    line : int
        The line at fault, from 1 (0 when the whole file is).

    Examples
    --------
    >>> from bansugoroku_fast.cube.met import MatchEquityTable
    >>> MatchEquityTable.load("no-such-table.xml")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.MatchEquityTableError: no-such-table.xml: cannot read the file: ...
    """

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
    not a power of two, probabilities outside [0, 1].

    Examples
    --------
    >>> from bansugoroku_fast.cube.met import MatchEquityTable
    >>> MatchEquityTable.default().match_winning_chance((-1, 0), 7)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.MatchEquityQueryError: score (-1, 0) is not a score of a 7-point match: each score is 0..6
    """


class MatchEquityQueryTypeError(MatchEquityQueryError, TypeError):
    """A look-up's argument of the wrong type: a score that is not a pair
    of integers, a length, player or cube that is not an integer, a
    Crawford flag that is not a bool.

    Examples
    --------
    >>> from bansugoroku_fast.cube.met import MatchEquityTable
    >>> MatchEquityTable.default().match_winning_chance(("a", 0), 7)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.MatchEquityQueryTypeError: a score must be an integer, got 'a'
    """


# Exact endgame tables (bansugoroku_fast.endgames).


class NotARaceError(InvalidPositionError):
    """A position the race tables cannot value: the base of
    :class:`ContactError` and :class:`NotInTableError`, and itself raised
    for a game that is already over.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> from bansugoroku_fast.endgames import race
    >>> race(Position([[15] + [0] * 25, [14, 1] + [0] * 24]), "backgammon")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.NotARaceError: the position: the game is over
    """


class ContactError(NotARaceError):
    """A position in which the sides can still meet (a stone on the bar, or
    stones that have not passed each other): not a race.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> from bansugoroku_fast.endgames import race
    >>> race(Position.initial(), "backgammon")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.ContactError: the position has contact (a stone on the bar, ...): not a race
    """


class NotInTableError(NotARaceError):
    """A race with stones outside the points the tables cover (backgammon
    and the bear-off finish: points 1..6; the arrival finish: points 1..12).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> from bansugoroku_fast.endgames import race
    >>> race(Position([[14, 0, 0, 0, 0, 0, 0, 0, 1] + [0] * 17, [14, 1] + [0] * 24]), "backgammon")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.NotInTableError: the position: row 0 has stones on point(s) [8]; ...
    """


class InvalidStonesError(BansugorokuError, ValueError):
    """Stone counts for a one-sided table that are not six counts >= 0 of
    at most 15 stones in all.

    Examples
    --------
    >>> from bansugoroku_fast.endgames import one_sided
    >>> one_sided([1, 2])
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidStonesError: stones must be six counts (points 1..6), got 2: [1, 2]
    """


class StonesTypeError(InvalidStonesError, TypeError):
    """Stone counts that are not a sequence (or array) of six integers.

    Examples
    --------
    >>> from bansugoroku_fast.endgames import one_sided
    >>> one_sided("abcdef")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.StonesTypeError: stones must be a sequence of six integers, got str
    """


class TableRulesError(InvalidRulesError):
    """Rules a table does not apply to (the first-stone-off table under the
    arrival finish, where no stone leaves the board).

    Examples
    --------
    >>> from bansugoroku_fast.endgames import first_off
    >>> first_off([0, 0, 0, 0, 0, 1])
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.TableRulesError: no stone leaves the board under ban/arrival/multiplied: no first-off table
    """


class EndgameCacheError(BansugorokuError, OSError):
    """The endgame tables' cache directory cannot be written (raised by an
    explicit build; a look-up builds in memory with an
    :class:`EndgameCacheWarning` instead).

    Examples
    --------
    >>> issubclass(EndgameCacheError, OSError), issubclass(EndgameCacheError, BansugorokuError)
    (True, True)
    """


class EndgameCacheWarning(UserWarning):
    """The endgame tables were rebuilt (a cache file missing, damaged or of
    another format) or could not be written to the cache and live in
    memory only.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error", EndgameCacheWarning)     # make a rebuilt cache an error
    ...     issubclass(EndgameCacheWarning, UserWarning)
    True
    """


class AssumedRulesWarning(UserWarning):
    """A call that scores positions (``rollout``, ``rank_plays``) was given
    no rules and assumed the default ones, Ban-sugoroku's (which the message
    names): a backgammon position, or a GNU Backgammon id, needs
    ``rules="backgammon"``, or its figures are those of another game.

    Examples
    --------
    >>> import warnings
    >>> from bansugoroku_fast import Position, rollout
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = rollout(Position.initial(), games=2, policy="first")
    >>> caught[0].category.__name__, str(caught[0].message)[:60]
    ('AssumedRulesWarning', 'rollout: no rules given, so it assumed ban-sugoroku,finish=a')
    """


class UnevenStrataWarning(UserWarning):
    """A stratified rollout of fewer games than its strata
    (``stratify=1296`` with fewer than 1,296 games, ``stratify=36`` with
    fewer than 36): the first rolls are not dealt evenly, so stratifying
    does not do what it promises.

    Examples
    --------
    >>> import warnings
    >>> from bansugoroku_fast import Position, rollout
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = rollout(Position.initial(), "backgammon", games=2, policy="first", stratify=36)
    >>> caught[0].category.__name__
    'UnevenStrataWarning'
    """
