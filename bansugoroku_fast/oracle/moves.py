"""The rules of docs/rules.md written for reading: the reference the kernels are
tested against.

Plain Python on lists of ints: no numpy, no bit tricks, no caching. Every
function here has a kernel-backed twin at package level with the same
signature and results (``bansugoroku_fast.legal_plays`` and so on); the
differential tests hold the two together. Nothing here may import kernel code.

A board, inside this module, is a pair of lists ``[mover, opponent]``, each
26 counts in its own numbering: index 0 = borne off, 1..24 = points, 25 = bar.

>>> from bansugoroku_fast import Position, Rules
>>> backgammon = Rules(variant="backgammon")
>>> [str(play) for play in legal_plays(Position.initial(), (6, 5), backgammon)]
['24/13', '24/18 13/8', '24/18 8/3', '13/8 13/7', '13/2', '13/7 8/3', '8/3 8/2']
>>> len(legal_plays(Position.initial(), (6, 5), backgammon))
7
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from ..checks import as_depth, as_dice, as_rules, as_side, check_position_for_rules
from ..errors import InvalidPositionError
from ..layout import BAR, BOTH_WON, OFF, STONES
from ..play import Outcome, OutcomeKind, Play, Step
from ..position import Position, as_position
from ..rules import ALL_ROLLS, Rules
from ..typing import DiceLike, PositionLike, RulesLike

Row: TypeAlias = Sequence[int]  # one side's 26 counts, in its own numbering
Board: TypeAlias = list[list[int]]  # [mover, opponent]
MoveSequence: TypeAlias = tuple[list[Step], int, Board]  # (steps, dice used, final board)

HOME = range(1, 7)  # points 1..6
OUTSIDE_HOME = range(7, 26)  # points 7..24 and the bar
TRIPLE_HOMES = ((2, 2, 2, 3, 3, 3), (2, 3, 2, 3, 2, 3))  # points 1..6


# --- reading a board ------------------------------------------------------


def _board(position: Position) -> Board:
    return [list(row) for row in position.rows]


def _home_counts(row: Row) -> tuple[int, ...]:
    return tuple(row[point] for point in HOME)


def _closure_holds(own: Row, other: Row) -> bool:
    """``own``'s six home points each hold two or more while ``other`` has a
    stone on the bar (docs/rules.md §3.3: the closure, muji)."""
    return other[BAR] >= 1 and all(count >= 2 for count in _home_counts(own))


def _finished(own: Row, rules: Rules) -> bool:
    """``own`` has reached the goal of its finish (15 home, or 15 off)."""
    if rules.bears_off:
        return own[OFF] == STONES
    return sum(_home_counts(own)) == STONES


def side_win(own: Row, other: Row, rules: Rules) -> Outcome | None:
    """How ``own`` has won against ``other`` (winner left as 0), or None."""
    if rules.is_backgammon:
        if own[OFF] != STONES:
            return None
        if other[OFF] > 0:
            return Outcome(0, 1, OutcomeKind.SINGLE)
        in_winners_home = any(other[point] for point in range(19, 25))
        if other[BAR] > 0 or in_winners_home:
            return Outcome(0, 3, OutcomeKind.BACKGAMMON)
        return Outcome(0, 2, OutcomeKind.GAMMON)

    finish_kind = OutcomeKind.BEAR_OFF if rules.bears_off else OutcomeKind.ARRIVAL
    finished = _finished(own, rules)
    closure = _closure_holds(own, other)
    if rules.closure == "immediate":
        if finished:
            return Outcome(0, 1, finish_kind)
        if closure:
            return Outcome(0, 1, OutcomeKind.CLOSURE)
        return None
    if not finished:
        return None
    if rules.closure == "multiplied" and closure:
        if _home_counts(own) in TRIPLE_HOMES:
            return Outcome(0, 3, OutcomeKind.CLOSED_HOME_X3)
        return Outcome(0, 2, OutcomeKind.CLOSED_HOME_X2)
    return Outcome(0, 1, finish_kind)


def _outcome_of_board(board: Board, rules: Rules) -> Outcome | None:
    mover, opponent = board
    mover_win = side_win(mover, opponent, rules)
    opponent_win = side_win(opponent, mover, rules)
    if mover_win and opponent_win:
        raise InvalidPositionError(BOTH_WON)
    if mover_win:
        return mover_win
    if opponent_win:
        return Outcome(1, opponent_win.value, opponent_win.kind)
    return None


# --- single moves ---------------------------------------------------------


def _may_bear_off(mover: Row) -> bool:
    """All of the mover's stones still on the board are on points 1..6."""
    return all(mover[place] == 0 for place in OUTSIDE_HOME)


def _target(mover: Row, opponent: Row, origin: int, die: int, rules: Rules) -> int | None:
    """Where a stone from ``origin`` goes with ``die``, or None if it may not."""
    target = origin - die
    if target >= 1:
        blocked = opponent[BAR - target] >= 2
        return None if blocked else target
    if not rules.bears_off or not _may_bear_off(mover):
        return None
    if target == 0:
        return OFF
    # A die larger than needed bears off only from the highest occupied point.
    higher_stones = any(mover[point] for point in range(origin + 1, 7))
    return None if higher_stones else OFF


def _single_moves(board: Board, die: int, rules: Rules) -> list[Step]:
    """Every single move with ``die``; from the bar only while stones are there."""
    mover, opponent = board
    origins = [BAR] if mover[BAR] > 0 else [p for p in range(24, 0, -1) if mover[p] > 0]
    moves: list[Step] = []
    for origin in origins:
        target = _target(mover, opponent, origin, die, rules)
        if target is not None:
            hit = target != OFF and opponent[BAR - target] == 1
            moves.append(Step(origin, target, die, hit))
    return moves


def _apply(board: Board, step: Step) -> Board:
    """The board after ``step`` (a new board; the old one is left as it was)."""
    mover, opponent = list(board[0]), list(board[1])
    mover[step.origin] -= 1
    mover[step.target] += 1
    if step.hit:
        opponent[BAR - step.target] -= 1
        opponent[BAR] += 1
    return [mover, opponent]


def _mover_has_won(board: Board, rules: Rules) -> bool:
    return rules.win_stops_turn and side_win(board[0], board[1], rules) is not None


# --- sequences and the must-play rules ----------------------------------------


def _dice_to_play(dice: tuple[int, int], rules: Rules) -> list[int]:
    a, b = dice
    return [a] * rules.doubles_moves if a == b else [a, b]


def _sequences(
    board: Board, dice_left: Sequence[int], rules: Rules, steps: list[Step], out: list[MoveSequence]
) -> None:
    """Append to ``out`` every maximal sequence from ``board`` as
    ``(steps, dice used, final board)``; a Ban-sugoroku win ends a sequence
    and counts as using every die."""
    extended = False
    for die in sorted(set(dice_left), reverse=True):
        rest = list(dice_left)
        rest.remove(die)
        for step in _single_moves(board, die, rules):
            extended = True
            after = _apply(board, step)
            if _mover_has_won(after, rules):
                out.append((steps + [step], len(steps) + 1 + len(rest), after))
            else:
                _sequences(after, rest, rules, steps + [step], out)
    if not extended and steps:
        out.append((steps, len(steps), board))


def _legal_sequences(board: Board, dice: tuple[int, int], rules: Rules) -> list[MoveSequence]:
    """The sequences the must-play rules allow: most dice, then the larger die."""
    found: list[MoveSequence] = []
    _sequences(board, _dice_to_play(dice, rules), rules, [], found)
    if not found:
        return []
    most = max(used for _, used, _ in found)
    legal = [sequence for sequence in found if sequence[1] == most]
    a, b = dice
    if most == 1 and a != b:
        larger = max(a, b)
        with_larger = [s for s in legal if s[0][0].die == larger]
        if with_larger:
            legal = with_larger
    return legal


def _board_key(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(board[0]), tuple(board[1])


def _sequence_key(steps: Sequence[Step]) -> tuple[tuple[int, int, int], ...]:
    return tuple((step.origin, step.target, step.die) for step in steps)


def _play(steps: Sequence[Step], board: Board) -> Play:
    return Play(
        steps=[(step.origin, step.target) for step in steps],
        dice=[step.die for step in steps],
        hits=[step.hit for step in steps],
        position=Position(board),
    )


def _checked(position: PositionLike, rules: RulesLike) -> tuple[Board, Rules, Outcome | None]:
    checked_position = as_position(position)
    checked_rules = as_rules(rules)
    check_position_for_rules(checked_position, checked_rules)
    board = _board(checked_position)
    return board, checked_rules, _outcome_of_board(board, checked_rules)


# --- public functions (mirrored by the kernel API) ---------------------------


def legal_plays(
    position: PositionLike, dice: DiceLike, rules: RulesLike = None, *, all_orderings: bool = False
) -> list[Play]:
    """The legal plays of ``position`` (row 0 to move) with ``dice``.

    One play per distinct resulting position, each with its canonical step
    list (the greatest ``(from, to, die)`` key among the legal orders reaching
    it), sorted by that key, greatest first: the specification
    :func:`bansugoroku_fast.legal_plays` is tested against.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`~bansugoroku_fast.position.Position`,
        a GNU Backgammon Position ID or an ``int8[2, 26]`` array.
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll: a pair of integers in 1..6 or text such as ``"6-5"``.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku with every option at its
        default.
    all_orderings : bool
        One play per distinct legal order of the moves instead of one per
        resulting position.

    Returns
    -------
    list of Play
        The plays; an empty list is a pass (or a game already over: see
        :func:`outcome`).

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules (stone counts, shared points, an
        unreadable Position ID).
    InvalidDiceError
        The dice are not a roll.
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that is
        not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position, Rules
    >>> [str(p) for p in legal_plays(Position.initial(), (1, 1), Rules())][:4]
    ['24/23(2)', '24/22', '24/23 8/7', '24/23 6/5']
    >>> len(legal_plays(Position.initial(), "6-5", "backgammon", all_orderings=True))
    14
    """
    roll = as_dice(dice)
    board, checked_rules, over = _checked(position, rules)
    if over is not None:
        return []
    sequences = _legal_sequences(board, roll, checked_rules)
    canonical: dict[tuple[tuple[int, ...], ...], tuple[list[Step], Board]] = {}
    for steps, _, final in sequences:
        identity = _sequence_key(steps) if all_orderings else _board_key(final)
        best = canonical.get(identity)
        if best is None or _sequence_key(steps) > _sequence_key(best[0]):
            canonical[identity] = (steps, final)
    ordered = sorted(canonical.values(), key=lambda item: _sequence_key(item[0]), reverse=True)
    return [_play(steps, final) for steps, final in ordered]


def legal_first_steps(position: PositionLike, dice: DiceLike, rules: RulesLike = None) -> list[Step]:
    """The single moves that start some legal play, greatest
    ``(origin, target, die)`` first.

    A move that would leave a die unplayable is never offered, so a
    step-by-step interface can offer exactly these.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`~bansugoroku_fast.position.Position`,
        a GNU Backgammon Position ID or an ``int8[2, 26]`` array.
    dice : ~bansugoroku_fast.typing.DiceLike
        The roll: a pair of integers in 1..6 or text such as ``"6-5"``.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.

    Returns
    -------
    list of Step
        The first moves; empty when the roll has no play or the game is over.

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules (stone counts, shared points, an
        unreadable Position ID).
    InvalidDiceError
        The dice are not a roll.
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that is
        not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position, Rules
    >>> [str(step) for step in legal_first_steps(Position.initial(), (6, 5), Rules())]
    ['24/18', '13/8', '13/7', '8/3', '8/2']
    """
    roll = as_dice(dice)
    board, checked_rules, over = _checked(position, rules)
    if over is not None:
        return []
    firsts = {steps[0] for steps, _, _ in _legal_sequences(board, roll, checked_rules)}
    return sorted(firsts, key=lambda step: (step.origin, step.target, step.die), reverse=True)


def outcome(position: PositionLike, rules: RulesLike = None) -> Outcome | None:
    """Who has won in ``position``, how and for how much; None while the
    game goes on.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position: a :class:`~bansugoroku_fast.position.Position`, a GNU
        Backgammon Position ID or an ``int8[2, 26]`` array.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.

    Returns
    -------
    Outcome or None
        The winner (0 = row 0), the points won (1, 2 or 3) and how
        (``kind``); None when nobody has won yet.

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules (stone counts, shared points, an
        unreadable Position ID).
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that is
        not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position, Rules
    >>> outcome(Position.initial(), Rules()) is None
    True
    >>> won = [[0] * 26, [0] * 26]
    >>> won[0][1:7] = [2, 2, 2, 3, 3, 3]; won[1][25] = 1; won[1][1] = 14
    >>> outcome(won)
    Outcome(winner=0, value=3, kind='closed-home-x3')
    """
    _, _, result = _checked(position, rules)
    return result


def blocked_points(position: PositionLike) -> tuple[int, ...]:
    """The mover's points (1..24) that the opponent holds with two or more.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`~bansugoroku_fast.position.Position`,
        a GNU Backgammon Position ID or an ``int8[2, 26]`` array.

    Returns
    -------
    tuple of int
        The blocked points in the mover's numbering, ascending.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> blocked_points(Position.initial())
    (1, 12, 17, 19)
    """
    opponent = _board(as_position(position))[1]
    return tuple(point for point in range(1, 25) if opponent[BAR - point] >= 2)


def blots(position: PositionLike) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Points holding exactly one stone: ``(mover's, opponent's)``.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`~bansugoroku_fast.position.Position`,
        a GNU Backgammon Position ID or an ``int8[2, 26]`` array.

    Returns
    -------
    tuple of (tuple of int, tuple of int)
        The mover's blots and the opponent's, each side in its own numbering
        (1..24), ascending.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).

    Examples
    --------
    >>> board = [[0] * 26, [0] * 26]
    >>> board[0][24], board[0][6], board[0][0] = 1, 2, 12    # a blot on 24
    >>> board[1][13], board[1][0] = 1, 14                    # a blot on its 13
    >>> blots(board)
    ((24,), (13,))
    """
    mover, opponent = _board(as_position(position))
    return _blots_of(mover), _blots_of(opponent)


def _blots_of(row: Row) -> tuple[int, ...]:
    return tuple(point for point in range(1, 25) if row[point] == 1)


def closure_holds(position: PositionLike, side: int = 0) -> bool:
    """Whether ``side``'s home is closed (each of its points 1..6 holds two
    or more) while the other side has a stone on the bar.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position: a :class:`~bansugoroku_fast.position.Position`, a GNU
        Backgammon Position ID or an ``int8[2, 26]`` array.
    side : int
        0 for row 0 (the mover), 1 for row 1.

    Returns
    -------
    bool
        True when the home is closed and the other side has a stone on the
        bar.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).
    InvalidArgumentError
        ``side`` is not 0 or 1.

    Examples
    --------
    >>> board = [[0] * 26, [0] * 26]
    >>> board[0][1:7] = [2, 2, 2, 3, 3, 3]; board[1][25] = 1; board[1][1] = 14
    >>> closure_holds(board), closure_holds(board, side=1)
    (True, False)
    """
    own = as_side(side)
    board = _board(as_position(position))
    return _closure_holds(board[own], board[1 - own])


def pip_counts(position: PositionLike) -> tuple[int, int]:
    """The two sides' pip counts: the sum of point x stones, the bar
    counting 25.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position: a :class:`~bansugoroku_fast.position.Position`, a GNU
        Backgammon Position ID or an ``int8[2, 26]`` array.

    Returns
    -------
    tuple of (int, int)
        ``(mover, opponent)``.

    Raises
    ------
    InvalidPositionError
        The position is not a position (stone counts, shared points, an
        unreadable Position ID).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> pip_counts(Position.initial())
    (167, 167)
    """
    mover, opponent = _board(as_position(position))
    return _pips(mover), _pips(opponent)


def _pips(row: Row) -> int:
    return sum(index * row[index] for index in range(1, 26))


def shots(position: PositionLike, rules: RulesLike = None) -> int:
    """How many of the 36 rolls give the mover a legal play that hits.

    Non-doubles count twice, as they come twice in 36; a finished game has
    no shots.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`~bansugoroku_fast.position.Position`,
        a GNU Backgammon Position ID or an ``int8[2, 26]`` array.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.

    Returns
    -------
    int
        The hitting rolls, 0 to 36.

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules (stone counts, shared points, an
        unreadable Position ID).
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that is
        not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    A blot six pips in front of the mover's stone on 13 (its point 7 is the
    opponent's 18): every roll with a 6, 5-1, 4-2, 3-3 and 2-2 hits.

    >>> board = [[0] * 26, [0] * 26]
    >>> board[0][13], board[0][0] = 1, 14
    >>> board[1][18], board[1][0] = 1, 14
    >>> shots(board, "backgammon")
    17
    """
    board, checked_rules, over = _checked(position, rules)
    if over is not None:
        return 0
    total = 0
    for a, b in ALL_ROLLS:
        sequences = _legal_sequences(board, (a, b), checked_rules)
        if any(step.hit for steps, _, _ in sequences for step in steps):
            total += 1 if a == b else 2
    return total


def perft(position: PositionLike, depth: int, rules: RulesLike = None) -> int:
    """Leaf count of the play tree ``depth`` plies deep over the 21 rolls.

    A roll with no play counts as one node, and so does a finished game.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`~bansugoroku_fast.position.Position`,
        a GNU Backgammon Position ID or an ``int8[2, 26]`` array.
    depth : int
        The plies, 0 or more (0 counts the position itself).
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.

    Returns
    -------
    int
        The leaves of the tree.

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules (stone counts, shared points, an
        unreadable Position ID).
    InvalidArgumentError
        ``depth`` is not an integer >= 0.
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that is
        not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> perft(Position.initial(), 0), perft(Position.initial(), 1, "backgammon")
    (1, 447)
    """
    checked_position = as_position(position)
    checked_rules = as_rules(rules)
    plies = as_depth(depth, least=0)
    if plies == 0 or outcome(checked_position, checked_rules) is not None:
        return 1
    return sum(perft_divide(checked_position, plies, checked_rules).values())


def perft_divide(position: PositionLike, depth: int, rules: RulesLike = None) -> dict[tuple[int, int], int]:
    """:func:`perft` split by the first roll.

    A finished game has no rolls to split by: ``{}`` (its perft is 1).

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 to move: a :class:`~bansugoroku_fast.position.Position`,
        a GNU Backgammon Position ID or an ``int8[2, 26]`` array.
    depth : int
        The plies, 1 or more, the first roll's included.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label
        (``"backgammon"``), or None for Ban-sugoroku's defaults.

    Returns
    -------
    dict of (int, int) to int
        ``{(a, b): count}`` over the 21 rolls (6-6, 6-5, ..., 1-1); empty for
        a finished game.

    Raises
    ------
    InvalidPositionError
        The position is not one of the rules (stone counts, shared points, an
        unreadable Position ID).
    InvalidArgumentError
        ``depth`` is not an integer >= 1.
    InvalidRulesError
        The rules are not a rule set (``RulesTypeError`` for a value that is
        not a :class:`~bansugoroku_fast.rules.Rules` or a label).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> divide = perft_divide(Position.initial(), 1, "backgammon")
    >>> divide[(6, 5)], divide[(1, 1)], sum(divide.values())
    (7, 42, 447)
    """
    checked_position = as_position(position)
    checked_rules = as_rules(rules)
    plies = as_depth(depth, least=1)
    if outcome(checked_position, checked_rules) is not None:
        return {}
    counts: dict[tuple[int, int], int] = {}
    for roll in ALL_ROLLS:
        plays = legal_plays(checked_position, roll, checked_rules)
        if not plays:
            counts[roll] = 1
        else:
            counts[roll] = sum(perft(p.position.swapped(), plies - 1, checked_rules) for p in plays)
    return counts

