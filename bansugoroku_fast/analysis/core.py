"""The analysis of games and matches, as GNU Backgammon analyses them.

:func:`analyse` judges every decision of a match file's games (a
:class:`~bansugoroku_fast.formats.MatchRecord` or one
:class:`~bansugoroku_fast.formats.mat.GameRecord`) or of the library's own
game records (:func:`~bansugoroku_fast.play_games`, Ban-sugoroku included):

* each checker play: every legal play of its roll ranked by the evaluator
  at ``ply`` plies (:func:`~bansugoroku_fast.evaluators.search.best_plays_batch`,
  GNU Backgammon's move filter above 0 ply; a played play the filter left
  at 0 ply is taken to ``ply`` plies too, as GNU Backgammon adds the played
  move to its list). Its ``loss`` is the best play's equity minus the
  played one's, its ``mark`` GNU Backgammon's (:mod:`bansugoroku_fast.analysis.figures`). A roll
  with at most one legal play is *forced*: it is listed, never counted.
* each roll's ``luck``, as GNU Backgammon's ``LuckAnalysis`` computes it at
  0 ply: the equity after the best play of the roll (by 0-ply equity; the
  position itself when the roll has no play) minus its mean over the 36
  rolls. The opening roll of a game started by a roll-off (no doubles) is
  measured against the 30 rolls that start a game, either side's: from the
  start position that mean is 0.
* each cube decision (backgammon match files, where the cube is used):
  the action taken against the proper one, by
  :func:`bansugoroku_fast.cube.cube_decision` (see :func:`cube_decisions`).

The figures are GNU Backgammon's normalised equity (a cube of 1; in a match
its EMG), and each player's ``error_rate`` is its total loss over its
unforced plays and close cube decisions, in millipoints (GNU Backgammon's
"error rate", and its rating band from it).

Every position of a record goes through the batch kernels in a few calls:
one :func:`best_plays_batch` over every play, one search of the 21 rolls of
every position for the luck.

>>> from bansugoroku_fast import play_games
>>> from bansugoroku_fast.evaluators import NetEvaluator
>>> net = NetEvaluator.random("backgammon", hidden=(8,), seed=1)
>>> analysis = analyse(play_games("backgammon", games=1, seed=3), net)
>>> analysis.decisions[0].kind, analysis.decisions[0].game, analysis.decisions[0].move_number
('play', 1, 1)
>>> sum(p.unforced for p in analysis.players) == sum(not d.forced for d in analysis.decisions)
True
"""
from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

import numpy as np

from ..batch import generate_plays
from ..checks import as_rules
from ..cube.decision import Cube, decide_many, equities_after_play, equities_after_plays
from ..cube.janowski import CENTRED, OWNED, THEIRS
from ..cube.met import MatchEquityTable
from ..cube.states import MatchCube, MoneyCube
from ..errors import ArgumentTypeError, InvalidArgumentError, InvalidRulesError, MatchFileError
from ..evaluators.network import as_threads
from ..evaluators.scoring import EVALUATOR_NAMES, Evaluator, EvaluatorLike, equity, evaluate_plays, resolve_evaluator
from ..evaluators.search import (
    ROLL_DICE,
    ROLL_WEIGHTS,
    as_ply,
    best_plays_batch,
    best_replies,
    ply_values,
    roll_index,
    swap_sides,
)
from ..formats.mat import GameRecord, MatchRecord
from ..games.records import GameRecords
from ..notation import format_steps
from ..position import Position
from ..position_id import encode_many
from ..rules import Rules
from ..typing import RulesLike
from ..version import __version__
from .figures import luck_mark, mark, rating

__all__ = ["EVALUATOR_NAMES", "Analysis", "Decision", "PlayerStatistics", "analyse", "cube_decisions"]

#: Items per batch call (a progress bar moves once per chunk).
CHUNK = 512
#: A cube decision is *close*, and counted in the error rate, when doubling
#: costs less than this (GNU Backgammon's ``isCloseCubedecision``).
CLOSE_CUBE = 0.16
#: What each cube action is called in a decision's ``action``.
CUBE_ACTIONS = ("no double", "double", "take", "pass")


# --- what an analysis holds ------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One decision of a game.

    ``game`` counts from 1; ``move_number`` is the ``N)`` of the match
    file's line (for game records: the turn pair, ``ply // 2 + 1``);
    ``player`` 0 (the file's left column; in game records the side that
    moved first) or 1; ``kind`` ``"play"`` or ``"cube"``; ``forced``: a
    play with at most one legal play, or a cube decision that is not close
    (neither counts in the error rate). ``position_id``: the position
    before the decision, from the deciding player's side (for a take or a
    pass: the doubler's, as GNU Backgammon shows it).

    A play: ``dice``, ``played`` and ``best`` (notation; "" for a roll with
    no legal play), ``played_equity`` and ``best_equity`` (the mover's, at
    ``ply`` plies), ``loss`` (``best_equity - played_equity``), ``mark``,
    ``luck`` (None where the luck was not measured) and ``luck_mark``.

    A cube decision: ``action`` (one of ``"no double"``, ``"double"``,
    ``"take"``, ``"pass"``), ``proper`` (GNU Backgammon's words, as
    ``cube_decision`` gives them), ``cube`` (its value before the
    decision), ``no_double`` / ``double_take`` / ``double_pass`` (the
    doubler's, normalised), ``loss`` and ``mark``.

    Parameters
    ----------
    game : int
        The game, counted from 1.
    move_number : int
        The ``N)`` of the match file's line (records: ``ply // 2 + 1``).
    player : int
        0 (the file's left column; the side that moved first) or 1.
    kind : str
        ``"play"`` or ``"cube"``.
    forced : bool
        A play with at most one legal play, or a cube decision that is not
        close.
    position_id : str
        The position before the decision, from the deciding player's side.
    loss : float
        The equity lost against the best decision.
    mark : str or None
        GNU Backgammon's mark of the loss.
    dice : tuple of (int, int) or None
        A play's roll.
    played : str or None
        A play's notation.
    best : str or None
        The best play's notation.
    played_equity : float or None
        The mover's equity after the play made.
    best_equity : float or None
        The mover's equity after the best play.
    luck : float or None
        The roll's luck (None where it was not measured).
    luck_mark : str or None
        The roll's luck mark.
    action : str or None
        A cube decision's action: ``"no double"``, ``"double"``, ``"take"``
        or ``"pass"``.
    proper : str or None
        The proper action, in GNU Backgammon's words.
    cube : int or None
        The cube's value before the decision.
    no_double : float or None
        The doubler's normalised equity without doubling.
    double_take : float or None
        The same after a double and a take.
    double_pass : float or None
        The same after a double and a pass.

    Examples
    --------
    >>> decision = Decision(1, 1, 0, "play", False, "4HPwATDgc/ABMA", loss=0.07, mark="bad", dice=(6, 5),
    ...                     played="13/2", best="24/13")
    >>> sorted(decision.to_dict())[:4], decision.to_dict()["dice"]
    (['best', 'best_equity', 'dice', 'forced'], [6, 5])
    """

    game: int
    move_number: int
    player: int
    kind: str
    forced: bool
    position_id: str
    loss: float = 0.0
    mark: str | None = None
    dice: tuple[int, int] | None = None
    played: str | None = None
    best: str | None = None
    played_equity: float | None = None
    best_equity: float | None = None
    luck: float | None = None
    luck_mark: str | None = None
    action: str | None = None
    proper: str | None = None
    cube: int | None = None
    no_double: float | None = None
    double_take: float | None = None
    double_pass: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields that apply to this kind of decision (JSON-ready)."""
        play_only = ("dice", "played", "best", "played_equity", "best_equity", "luck", "luck_mark")
        cube_only = ("action", "proper", "cube", "no_double", "double_take", "double_pass")
        skip = cube_only if self.kind == "play" else play_only
        out = {key: value for key, value in asdict(self).items() if key not in skip}
        if out.get("dice") is not None:
            out["dice"] = list(out["dice"])
        return out


@dataclass(frozen=True)
class PlayerStatistics:
    """One player's figures, as GNU Backgammon's statistics give them.

    ``unforced``: checker plays with more than one legal play;
    ``close_cube``: cube decisions counted (every double, take and pass,
    and each chance to double that was close); ``checker_error`` and
    ``cube_error``: the total loss (normalised equity, EMG in a match);
    ``error_rate``: their sum per decision counted, in millipoints (None
    with no decision); ``luck``: the total luck of its rolls (EMG);
    ``marks``: how many decisions carry each mark; ``rating``: GNU
    Backgammon's band for the error rate.

    Parameters
    ----------
    player : int
        0 or 1.
    name : str
        The player's name.
    moves : int
        Its checker plays.
    unforced : int
        Those with more than one legal play.
    close_cube : int
        Its cube decisions counted.
    checker_error : float
        The total loss of its checker plays (normalised equity; EMG in a
        match).
    cube_error : float
        The total loss of its cube decisions.
    error_rate : float or None
        Their sum per decision counted, in millipoints (None with no
        decision).
    luck : float
        The total luck of its rolls.
    marks : dict[str, int]
        How many decisions carry each mark.
    luck_marks : dict[str, int]
        How many rolls carry each luck mark.
    rating : str or None
        GNU Backgammon's band for the error rate.

    Examples
    --------
    >>> first, second = statistics([], ["Ann", "Bob"])
    >>> first.name, first.moves, first.error_rate, first.rating
    ('Ann', 0, None, None)
    """

    player: int
    name: str
    moves: int
    unforced: int
    close_cube: int
    checker_error: float
    cube_error: float
    error_rate: float | None
    luck: float
    marks: dict[str, int] = field(default_factory=dict)
    luck_marks: dict[str, int] = field(default_factory=dict)
    rating: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` returns: the ``decisions`` in order, the two
    ``players``' statistics, and what was analysed (``rules``, ``ply``,
    ``match_length``, ``names``, ``games``: each game's number, score,
    winner and points).

    Parameters
    ----------
    decisions : tuple of Decision
        Every decision, in playing order.
    players : tuple of (PlayerStatistics, PlayerStatistics)
        Each player's statistics, player 0's first.
    rules : Rules
        The rules of the games.
    ply : int
        The plays' search depth.
    match_length : int
        The match's length, 0 for money play.
    names : tuple of (str, str)
        The players' names.
    games : tuple of dict
        Each game's number, score, winner and points.
    source : str
        What was analysed (a file's name), or "".

    Examples
    --------
    >>> from bansugoroku_fast import play_games
    >>> analysis = analyse(play_games("backgammon", 1, policy="first", seed=2), luck=False)
    >>> analysis.rules.short_name, analysis.ply, len(analysis.players), analysis.decisions[0].kind
    ('backgammon', 0, 2, 'play')
    """

    decisions: tuple[Decision, ...]
    players: tuple[PlayerStatistics, PlayerStatistics]
    rules: Rules
    ply: int
    match_length: int
    names: tuple[str, str]
    games: tuple[dict[str, Any], ...]
    source: str = ""

    def errors(self) -> list[Decision]:
        """The decisions that carry a mark, worst first."""
        return sorted((d for d in self.decisions if d.mark is not None), key=lambda d: -d.loss)

    def to_dict(self) -> dict[str, Any]:
        """Everything, as plain values (what :meth:`to_json` writes)."""
        return {
            "source": self.source, "rules": self.rules.label, "ply": self.ply,
            "match_length": self.match_length, "names": list(self.names), "games": list(self.games),
            "players": [p.to_dict() for p in self.players],
            "decisions": [d.to_dict() for d in self.decisions],
            "version": __version__,
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The analysis as JSON: what ``bansugoroku analyse --json`` prints."""
        return json.dumps(self.to_dict(), indent=indent)


# --- the turns of a record ---------------------------------------------------------------------


@dataclass
class _Turn:
    """One roll to judge."""

    game: int
    move_number: int
    player: int
    position: np.ndarray  # int8[2, 26], mover's side
    dice: tuple[int, int]
    after: np.ndarray
    cube: Cube | None = None    # as the mover sees it; None: cubeless (no cube in these rules)


@dataclass
class CubePoint:
    """One cube decision to judge: ``player`` decides ``action`` with the
    cube at ``cube`` (``owner`` None when centred, else the seat that
    owns it) in ``position`` seen by the player on roll, ``on_roll``."""

    game: int
    move_number: int
    player: int
    on_roll: int
    position: np.ndarray
    action: str
    cube: int
    owner: int | None
    score: tuple[int, int]
    crawford: bool
    match_length: int


@dataclass
class _Record:
    rules: Rules
    match_length: int
    names: tuple[str, str]
    games: list[dict[str, Any]]
    items: list[_Turn | CubePoint]


def _match_items(record: MatchRecord | GameRecord, match_length: int) -> tuple[list[_Turn | CubePoint],
                                                                                 list[dict[str, Any]]]:
    games = record.games if isinstance(record, MatchRecord) else (record,)
    items: list[_Turn | CubePoint] = []
    summaries = []
    for game in games:
        items.extend(_game_items(game, match_length))
        summaries.append({"game": game.number, "score": list(game.score), "winner": game.winner,
                          "points": game.points, "crawford": game.crawford})
    return items, summaries


def _game_items(game: GameRecord, match_length: int) -> list[_Turn | CubePoint]:
    """A match file game's rolls and cube decisions, in order: before each
    roll of a player who may double and did not, its "no double"."""
    rules = game.game.rules
    position = Position.initial(rules).array     # seen by the player on roll
    cube, owner, roll, offered = 1, None, 0, False
    items: list[_Turn | CubePoint] = []
    table = MatchEquityTable.default() if match_length else None
    for action in game.actions:
        state = (cube, owner, game.score, game.crawford, match_length)
        if action.kind == "roll":
            cube_state = (_cube_state(action.seat, cube, owner, game, match_length, table)
                          if rules.is_backgammon else None)
            # no cube before a game's opening roll, nor where the cube is not the roller's to turn
            if cube_state is not None and roll > 0 and not offered and cube_state.may_double():
                items.append(CubePoint(game.number, action.move_number, action.seat, action.seat, position,
                                       "no double", *state))
            offered = False
            items.append(_Turn(game.number, action.move_number, action.seat, game.positions[roll],
                               (int(game.dice[roll][0]), int(game.dice[roll][1])), game.after[roll], cube_state))
            position = np.ascontiguousarray(game.after[roll][::-1])
            roll += 1
        elif action.kind == "double":
            items.append(CubePoint(game.number, action.move_number, action.seat, action.seat, position,
                                   "double", *state))
            offered = True
        elif action.kind in ("take", "drop"):
            items.append(CubePoint(game.number, action.move_number, action.seat, 1 - action.seat, position,
                                   "take" if action.kind == "take" else "pass", *state))
            if action.kind == "take":
                cube, owner = cube * 2, action.seat
    return items


def _cube_state(seat: int, cube: int, owner: int | None, game: GameRecord, match_length: int,
                table: MatchEquityTable | None) -> Cube:
    """The cube as ``seat``, on roll, sees it."""
    code = CENTRED if owner is None else (OWNED if owner == seat else THEIRS)
    if table is None:
        return MoneyCube(code)
    score = (game.score[seat], game.score[1 - seat])
    return MatchCube(table, match_length, score, game.crawford, cube, code)


def _records_items(records: Any) -> tuple[list[_Turn | CubePoint], list[dict[str, Any]]]:
    items: list[_Turn | CubePoint] = []
    summaries = []
    offsets = np.asarray(records.offsets)
    positions, dice, after = (np.asarray(records.positions, dtype=np.int8), np.asarray(records.dice),
                              np.asarray(records.after, dtype=np.int8))
    for g in range(len(offsets) - 1):
        start, end = int(offsets[g]), int(offsets[g + 1])
        for ply in range(start, end):
            turn = ply - start
            items.append(_Turn(g + 1, turn // 2 + 1, turn % 2, positions[ply],
                               (int(dice[ply][0]), int(dice[ply][1])), after[ply]))
        winner = int(records.winner[g])
        summaries.append({"game": g + 1, "score": [0, 0], "winner": winner if winner >= 0 else None,
                          "points": int(records.value[g]) if winner >= 0 else None, "crawford": False})
    return items, summaries


def _is_records(source: object) -> bool:
    return isinstance(source, tuple) and getattr(source, "_fields", None) == GameRecords._fields


def _record(source: object, rules: object) -> _Record:
    if isinstance(source, MatchRecord):
        items, games = _match_items(source, source.match_length)
        return _Record(source.rules, source.match_length, source.players, games, items)
    if isinstance(source, GameRecord):
        items, games = _match_items(source, 0)
        return _Record(source.game.rules, 0, ("Player 1", "Player 2"), games, items)
    if _is_records(source):
        carried = getattr(source, "rules", None)
        if carried is None and rules is None:
            raise InvalidArgumentError("analyse needs rules= for game records that do not carry their rules")
        resolved = as_rules(rules if rules is not None else carried)
        if carried is not None and rules is not None and as_rules(carried) != resolved:
            raise InvalidRulesError(f"the records were played under {as_rules(carried).short_name}, "
                             f"not the rules= given ({resolved.short_name})")
        items, games = _records_items(source)
        return _Record(resolved, 0, ("Player 1", "Player 2"), games, items)
    raise ArgumentTypeError("analyse takes a MatchRecord or a GameRecord (read_match) or play_games records, "
                    f"got {type(source).__name__}")


# --- the evaluator ---------------------------------------------------------------------------------


# --- judging the plays -------------------------------------------------------------------------------


class _Bar:
    """A tqdm bar when asked for, else nothing."""

    def __init__(self, total: int, show: bool, desc: str) -> None:
        self.bar: Any = None
        if show:
            from tqdm import tqdm
            self.bar = tqdm(total=total, desc=desc, unit="pos", leave=False)

    def update(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _chunks(count: int) -> Iterable[slice]:
    for start in range(0, count, CHUNK):
        yield slice(start, min(start + CHUNK, count))


def _played_rows(children: np.ndarray, offsets: np.ndarray, after: np.ndarray) -> np.ndarray:
    """``int64[N]``: the row of ``children`` equal to ``after[i]`` within item i's plays (-1: none)."""
    counts = np.diff(offsets)
    item = np.repeat(np.arange(len(counts)), counts)
    equal = (children.reshape(len(children), -1) == after.reshape(len(after), -1)[item]).all(axis=1)
    rows = np.full(len(counts), -1, dtype=np.int64)
    hits = np.flatnonzero(equal)[::-1]     # the first hit of an item written last
    rows[item[hits]] = hits
    return rows


def _judge_plays(turns: list[_Turn], rules: Rules, evaluator: Evaluator, ply: int, threads: int,
                 bar: _Bar) -> list[dict[str, Any]]:
    """Per turn: counts, best and played rows' equities and plays."""
    out: list[dict[str, Any]] = []
    for part in _chunks(len(turns)):
        chunk = turns[part]
        positions = np.stack([t.position for t in chunk]).astype(np.int8)
        dice = np.array([t.dice for t in chunk], dtype=np.int8)
        after = np.stack([t.after for t in chunk]).astype(np.int8)
        scored = best_plays_batch(positions, dice, rules, evaluator, ply, threads=threads)
        probabilities = scored.probabilities.copy()
        plies = scored.ply.copy()
        played = _played_rows(scored.children, scored.offsets, after)
        counts = np.diff(scored.offsets)
        if ply > 0:     # a played play the filter kept at 0 ply: to the full depth, as GNU Backgammon does
            shallow = np.flatnonzero((played >= 0) & (plies[np.maximum(played, 0)] < ply))
            if len(shallow):
                rows = played[shallow]
                probabilities[rows] = ply_values(scored.children[rows], rules, evaluator, ply, threads)
                plies[rows] = ply
        equities = _play_equities(chunk, scored.offsets, scored.children, probabilities)
        best = _best_rows(equities, plies, scored.offsets)
        for i, turn in enumerate(chunk):
            entry: dict[str, Any] = {"count": int(counts[i])}
            if counts[i] == 0:
                stays = turn.position[None].astype(np.int8)     # a play of its own that changes nothing
                own = evaluate_plays(stays, np.array([0, 1]), stays, rules, evaluator, threads)
                worth = equity(own) if turn.cube is None else equities_after_play(stays, own, turn.cube)
                entry["played_equity"] = entry["best_equity"] = float(worth[0])
            else:
                first = int(scored.offsets[i])
                best_row = first + int(best[i])
                played_row = int(played[i])
                if played_row < 0:
                    raise MatchFileError(f"game {turn.game}, move {turn.move_number}: the play recorded is not "
                                     "a legal play of its roll")
                if equities[played_row] > equities[best_row] and plies[played_row] >= plies[best_row]:
                    best_row = played_row
                entry.update(best_row=best_row - first, played_row=played_row - first,
                             best_equity=float(equities[best_row]), played_equity=float(equities[played_row]),
                             best_child=scored.children[best_row])
            out.append(entry)
        bar.update(len(chunk))
    return out


def _cube_groups(cubes: Sequence[Cube | None]) -> dict[tuple[Any, ...], tuple[Cube, list[int]]]:
    """The indices of ``cubes`` by cube state (None left out): each state's
    positions are valued in one call."""
    groups: dict[tuple[Any, ...], tuple[Cube, list[int]]] = {}
    for i, cube in enumerate(cubes):
        if cube is None:
            continue
        key = ((cube.owner, cube.jacoby) if isinstance(cube, MoneyCube)
               else (id(cube.table), cube.length, cube.score, cube.crawford, cube.cube, cube.owner))
        groups.setdefault(key, (cube, []))[1].append(i)
    return groups


def _play_equities(turns: Sequence[_Turn], offsets: np.ndarray, children: np.ndarray,
                   probabilities: np.ndarray) -> np.ndarray:
    """``float64[M]``: each child's equity for its mover: cubeful at its
    turn's cube (GNU Backgammon's analysis), cubeless without a cube."""
    turn_of_child = np.repeat(np.arange(len(turns)), np.diff(offsets))
    return _cubeful_equities(children, probabilities, turn_of_child, [turn.cube for turn in turns])


def _cubeful_equities(children: np.ndarray, probabilities: np.ndarray, owners: np.ndarray,
                      cubes: Sequence[Cube | None]) -> np.ndarray:
    """``float64[M]``: each child's equity for the side that played it, at
    the cube ``cubes[owners[j]]`` of child ``j`` (cubeless where None), all
    cube states in one pass."""
    groups = _cube_groups(cubes)
    if not groups:
        cubeless: np.ndarray = equity(probabilities)
        return cubeless
    group_of = np.full(len(cubes), -1, dtype=np.int64)
    for number, (_, members) in enumerate(groups.values()):
        group_of[members] = number
    child_group = group_of[owners]
    states = [cube for cube, _ in groups.values()]
    if (child_group >= 0).all():      # a match or a money game: every child has a cube
        return equities_after_plays(children, probabilities, states, child_group)
    out: np.ndarray = equity(probabilities)
    rows = np.flatnonzero(child_group >= 0)
    out[rows] = equities_after_plays(children[rows], probabilities[rows], states, child_group[rows])
    return out


def _best_rows(equities: np.ndarray, plies: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """``int64[N]``: each item's best play within its plays: the deepest
    searched, then the greatest equity, then the first (-1 for none)."""
    best = np.full(len(offsets) - 1, -1, dtype=np.int64)
    for i in range(len(offsets) - 1):
        start, stop = int(offsets[i]), int(offsets[i + 1])
        if stop > start:
            deepest = plies[start:stop] == plies[start:stop].max()
            best[i] = int(np.argmax(np.where(deepest, equities[start:stop], -np.inf)))
    return best


def roll_values(positions: np.ndarray, rules: Rules, evaluator: Evaluator, threads: int,
                cubes: Sequence[Cube | None] | None = None) -> np.ndarray:
    """``float64[N, 21]``: for each position (row 0 to roll) and each roll
    of :data:`~bansugoroku_fast.evaluators.search.ROLL_DICE`, row 0's
    equity after its best play (the position itself when the roll has no
    play): by 0-ply equity, or, where ``cubes[i]`` is given, by cubeful
    equity at that cube, as GNU Backgammon's luck analysis chooses."""
    if cubes is None or all(cube is None for cube in cubes):
        _, values = best_replies(swap_sides(positions), rules, evaluator, threads)
        return equity(values).reshape(len(positions), len(ROLL_DICE))
    return _cubeful_rolls(positions, rules, evaluator, threads, cubes).values


class _Rolls(NamedTuple):
    """Every play of every roll of N positions, valued at their cubes:
    item ``i * 21 + r`` is position ``i``'s roll ``ROLL_DICE[r]``, its
    plays rows ``offsets[item]:offsets[item + 1]`` of ``children`` and
    ``worth`` (a roll with no play: one row, the position itself)."""

    values: np.ndarray       # float64[N, 21]: the best worth of each roll
    counts: np.ndarray       # int64[N * 21]: each roll's plays (0: none)
    offsets: np.ndarray      # int64[N * 21 + 1]
    children: np.ndarray     # int8[M, 2, 26]
    worth: np.ndarray        # float64[M]: the mover's cubeful equity


def _cubeful_rolls(positions: np.ndarray, rules: Rules, evaluator: Evaluator, threads: int,
                   cubes: Sequence[Cube | None]) -> _Rolls:
    rolls = len(ROLL_DICE)
    parents = np.repeat(positions, rolls, axis=0)
    plays = generate_plays(parents, np.tile(ROLL_DICE, (len(positions), 1)), rules, threads=threads,
                           fields=("children",))
    counts = np.diff(plays.offsets)
    stays = counts == 0               # a roll with no play leaves the position as it is
    if stays.any():
        rows = np.repeat(np.arange(len(parents)), np.maximum(counts, 1))
        children = np.empty((len(rows), 2, 26), dtype=np.int8)
        offsets = np.concatenate([[0], np.cumsum(np.maximum(counts, 1))])
        played = np.flatnonzero(~stays[rows])
        children[played] = plays.children
        children[offsets[:-1][stays]] = parents[stays]
    else:
        children, offsets = plays.children, plays.offsets
    probabilities = evaluate_plays(parents, offsets, children, rules, evaluator, threads).astype(np.float64)
    worth = _cubeful_equities(children, probabilities, np.repeat(np.arange(len(parents)), np.diff(offsets)) // rolls,
                              cubes)
    best = np.maximum.reduceat(worth, offsets[:-1]) if len(worth) else np.zeros(0)
    return _Rolls(best.reshape(len(positions), rolls), counts, offsets, children, worth)


def _luck(turns: list[_Turn], rules: Rules, evaluator: Evaluator, threads: int, bar: _Bar,
          judge: bool = False) -> tuple[np.ndarray, list[dict[str, Any]] | None]:
    """``float64[N]``: each turn's luck (GNU Backgammon's ``LuckAnalysis``
    at 0 ply); with ``judge`` (every turn with a cube), also each turn's
    plays judged at 0 ply as :func:`_judge_plays` judges them, read from
    its roll's plays among the 21 (no second evaluation)."""
    luck = np.empty(len(turns))
    judged: list[dict[str, Any]] = []
    start = Position.initial(rules).array
    opening = ROLL_WEIGHTS == 2.0    # the rolls a roll-off may start a game with
    for part in _chunks(len(turns)):
        chunk = turns[part]
        positions = np.stack([t.position for t in chunk]).astype(np.int8)
        dice = np.array([t.dice for t in chunk], dtype=np.int8)
        if judge:
            rolled = _cubeful_rolls(positions, rules, evaluator, threads, [t.cube for t in chunk])
            values = rolled.values
            judged += _judged_from_rolls(chunk, rolled, roll_index(dice))
        else:
            values = roll_values(positions, rules, evaluator, threads, [t.cube for t in chunk])
        mean = values @ ROLL_WEIGHTS / ROLL_WEIGHTS.sum()
        first = np.array([rules.start == "roll_off" and t.dice[0] != t.dice[1]
                          and np.array_equal(t.position, start) for t in chunk], dtype=bool)
        if first.any():     # LuckFirst: my 15 opening rolls, and the other side's 15 from its side
            their_cubes = [None if t.cube is None else t.cube.seen_by_the_other_side()
                           for t, is_first in zip(chunk, first) if is_first]
            theirs = roll_values(swap_sides(positions[first]), rules, evaluator, threads, their_cubes)
            mean[first] = (values[first][:, opening].sum(axis=1) - theirs[:, opening].sum(axis=1)) / 30
        luck[part] = values[np.arange(len(chunk)), roll_index(dice)] - mean
        bar.update(len(chunk) * (2 if judge else 1))
    return luck, (judged if judge else None)


def _judged_from_rolls(turns: Sequence[_Turn], rolled: _Rolls, rolls: np.ndarray) -> list[dict[str, Any]]:
    """Each turn's entry of :func:`_judge_plays` at 0 ply, from the plays
    of its own roll among ``rolled`` (``rolls``: each turn's roll index)."""
    items = np.arange(len(turns)) * len(ROLL_DICE) + rolls
    starts, stops = rolled.offsets[items], rolled.offsets[items + 1]
    rows = np.concatenate([np.arange(start, stop) for start, stop in zip(starts, stops)])
    offsets = np.concatenate([[0], np.cumsum(stops - starts)])
    after = np.stack([turn.after for turn in turns]).astype(np.int8)
    played = _played_rows(rolled.children[rows], offsets, after) - offsets[:-1]     # within each turn's plays
    out = []
    for i, turn in enumerate(turns):
        start, stop = int(starts[i]), int(stops[i])
        worth = rolled.worth[start:stop]
        if rolled.counts[items[i]] == 0:       # no play: the position stays
            out.append({"count": 0, "played_equity": float(worth[0]), "best_equity": float(worth[0])})
            continue
        if played[i] < 0:
            raise MatchFileError(f"game {turn.game}, move {turn.move_number}: the play recorded is not "
                                 "a legal play of its roll")
        best_row = int(np.argmax(worth))
        out.append({"count": int(rolled.counts[items[i]]), "best_row": best_row, "played_row": int(played[i]),
                    "best_equity": float(worth[best_row]), "played_equity": float(worth[played[i]]),
                    "best_child": rolled.children[start + best_row]})
    return out


def _notations(turns: Sequence[_Turn], judged: Sequence[dict[str, Any]], rules: Rules,
               threads: int) -> list[tuple[str, str]]:
    """Each turn's played and best play in GNU Backgammon's notation
    (``""`` where it has no play), from one batch of its plays' steps."""
    out = [("", "")] * len(turns)
    moved = [i for i, entry in enumerate(judged) if entry["count"] > 0]
    if not moved:
        return out
    plays = generate_plays(np.stack([turns[i].position for i in moved]).astype(np.int8),
                           np.array([turns[i].dice for i in moved], dtype=np.int8), rules, threads=threads,
                           fields=("children", "steps", "hits"))
    played = _played_rows(plays.children, plays.offsets, np.stack([turns[i].after for i in moved]).astype(np.int8))
    best = _played_rows(plays.children, plays.offsets, np.stack([judged[i]["best_child"] for i in moved]))
    for k, i in enumerate(moved):
        text = _steps_text(plays, int(played[k]))
        out[i] = (text, text if best[k] == played[k] else _steps_text(plays, int(best[k])))
    return out


def _steps_text(plays: Any, row: int) -> str:
    """The notation of row ``row`` of a batch of plays with steps and hits."""
    return _notation_of(tuple(plays.steps[row].ravel().tolist()), tuple(plays.hits[row].tolist()))


@functools.lru_cache(maxsize=1 << 16)
def _notation_of(steps: tuple[int, ...], hits: tuple[bool, ...]) -> str:
    """The notation of a play's steps (``from, to`` pairs, -1 where unused)
    and hits: the same few thousand plays recur across matches."""
    used = [k for k in range(len(hits)) if steps[2 * k] >= 0]
    return format_steps([(steps[2 * k], steps[2 * k + 1]) for k in used], [hits[k] for k in used])


# --- the cube ------------------------------------------------------------------------------------------


def _decide_each(points: Sequence[CubePoint], rules: Rules, evaluator: Evaluator, ply: int,
                 decide: Callable[..., Any]) -> list[tuple[float, float, float, str]]:
    """Each point by ``decide``, called as :func:`~bansugoroku_fast.cube_decision` is."""
    from ..formats.match_id import MatchState

    out = []
    for point in points:
        owner = None if point.owner is None else (0 if point.owner == point.on_roll else 1)
        match = MatchState(cube=point.cube, cube_owner=point.owner, player_on_roll=point.on_roll,
                           crawford=point.crawford, match_length=point.match_length, score=point.score)
        result = decide(Position(point.position), rules, evaluator, cube=point.cube, owner=owner,
                        match=match if point.match_length else None, ply=ply)
        out.append((float(result.no_double), float(result.double_take), float(result.double_pass),
                    str(result.action)))
    return out


def _decide_by_state(points: Sequence[CubePoint], rules: Rules, evaluator: Evaluator,
                     ply: int) -> list[tuple[float, float, float, str]]:
    """Every point decided as :func:`~bansugoroku_fast.cube_decision` would,
    the points of each cube state evaluated together."""
    table = MatchEquityTable.default()
    states = [_point_state(point, table) for point in points]
    out: list[tuple[float, float, float, str]] = [(0.0, 0.0, 0.0, "")] * len(points)
    for state, members in _cube_groups(states).values():
        positions = np.stack([points[i].position for i in members]).astype(np.int8)
        decided = decide_many(positions, rules, evaluator, state, ply)
        for k, i in enumerate(members):
            nd, dt, dp = (float(v) for v in decided.equities[k])
            out[i] = (nd, dt, dp, decided.actions[k])
    return out


def _point_state(point: CubePoint, table: MatchEquityTable) -> Cube:
    """The cube as the player on roll at ``point`` sees it."""
    code = CENTRED if point.owner is None else (OWNED if point.owner == point.on_roll else THEIRS)
    if not point.match_length:
        return MoneyCube(code)
    score = (point.score[point.on_roll], point.score[1 - point.on_roll])
    return MatchCube(table, point.match_length, score, point.crawford, point.cube, code)


def cube_decisions(points: Sequence[CubePoint], rules: RulesLike, evaluator: EvaluatorLike, ply: int,
                   decide: Callable[..., Any] | None = None) -> list[Decision | None]:
    """Each cube point judged as :func:`~bansugoroku_fast.cube_decision`
    judges it (the points of each cube state evaluated together), or by
    ``decide``, one point at a time.

    The losses, as GNU Backgammon's statistics count them: a missed double
    ``optimal - no_double``; a double ``optimal - min(double_take,
    double_pass)``; a take ``double_take - double_pass`` when passing was
    better for the taker; a pass the other way round. A no-double that is
    not close (doubling would lose 0.16 or more) is marked forced: it
    counts in no statistic.

    Parameters
    ----------
    points : Sequence of CubePoint
        The cube decisions to judge, each with its position seen by the
        player on roll, the action taken and the cube and match state.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set (backgammon's: only it has a cube).
    evaluator : ~bansugoroku_fast.evaluators.EvaluatorLike
        A :class:`~bansugoroku_fast.evaluators.NetEvaluator`, a callable
        ``positions -> float[N, 5]`` or ``"net"``, the shipped network.
    ply : int
        The search depth, 0, 1 or 2.
    decide : Callable or None
        None, or a function judging one point instead: called with the
        position seen by the player on roll, ``cube``, ``owner`` (None, 0 =
        the player on roll, 1 = the other), ``match`` (a ``MatchState``) and
        ``ply``, it returns an object with ``no_double``, ``double_take``,
        ``double_pass`` (normalised, the doubler's) and ``action``.

    Returns
    -------
    list of Decision or None
        One cube :class:`Decision` per point, in order.

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set.
    InvalidEvaluatorError
        ``evaluator`` is not an evaluator of the rules
        (``ArgumentTypeError`` for a value of another type).
    InvalidArgumentError
        ``ply`` is not 0, 1 or 2 (``ArgumentTypeError`` for a point that is
        not a :class:`CubePoint` or a ``decide`` that is not callable).

    Examples
    --------
    Not doubling at the start of a money game is right, and not close:

    >>> from bansugoroku_fast import Position
    >>> start = CubePoint(game=1, move_number=1, player=0, on_roll=0, position=Position.initial().array,
    ...                   action="no double", cube=1, owner=None, score=(0, 0), crawford=False, match_length=0)
    >>> (decision,) = cube_decisions([start], "backgammon", "net", 0)
    >>> decision.kind, decision.action, decision.loss, decision.forced, decision.no_double > 0
    ('cube', 'no double', 0.0, True, True)
    """
    rules = as_rules(rules)
    evaluator, ply = resolve_evaluator(evaluator, rules), as_ply(ply)
    if decide is not None and not callable(decide):
        raise ArgumentTypeError(f"decide must be a callable or None, got {type(decide).__name__}")
    for index, point in enumerate(points):
        if not isinstance(point, CubePoint):
            raise ArgumentTypeError(f"points[{index}] must be a CubePoint, got {type(point).__name__}")
    results = (_decide_each(points, rules, evaluator, ply, decide) if decide is not None
               else _decide_by_state(points, rules, evaluator, ply))
    out: list[Decision | None] = []
    position_ids = encode_many(np.stack([point.position for point in points]).astype(np.int8)) if points else []
    for point, position_id, (nd, dt, dp, proper) in zip(points, position_ids, results):
        optimal = max(nd, min(dt, dp))
        close = optimal - min(dt, 1.0) < CLOSE_CUBE
        if point.action == "no double":
            loss, counted = optimal - nd, close
        elif point.action == "double":
            loss, counted = optimal - min(dt, dp), True
        elif point.action == "take":
            loss, counted = max(dt - dp, 0.0), True
        else:
            loss, counted = max(dp - dt, 0.0), True
        loss = max(loss, 0.0)
        out.append(Decision(point.game, point.move_number, point.player, "cube", not counted,
                            position_id, loss, mark(loss), action=point.action,
                            proper=proper, cube=point.cube, no_double=nd, double_take=dt,
                            double_pass=dp))
    return out


# --- the statistics ----------------------------------------------------------------------------------


def statistics(decisions: Sequence[Decision], names: Sequence[str]) -> tuple[PlayerStatistics, PlayerStatistics]:
    """Each player's :class:`PlayerStatistics` from its decisions, as GNU
    Backgammon's statistics count them.

    Forced plays and cube decisions that are not close count in no error
    rate; marks and luck are counted over every decision.

    Parameters
    ----------
    decisions : Sequence of Decision
        The decisions of both players (the ``player`` field says whose).
    names : Sequence of str
        The two players' names, player 0's first.

    Returns
    -------
    tuple of (PlayerStatistics, PlayerStatistics)
        Player 0's figures, then player 1's.

    Raises
    ------
    ArgumentTypeError
        ``names`` is not two strings, or a decision is not a
        :class:`Decision`.

    Examples
    --------
    Player 0 makes a bad play (a loss of 0.07) and a forced one:

    >>> bad = Decision(1, 1, 0, "play", False, "4HPwATDgc/ABMA", loss=0.07, mark="bad")
    >>> forced = Decision(1, 2, 0, "play", True, "4HPwATDgc/ABMA")
    >>> first, second = statistics([bad, forced], ["Ann", "Bob"])
    >>> first.moves, first.unforced, round(first.error_rate, 6), first.marks["bad"], first.rating
    (2, 1, 70.0, 1, 'Awful!')
    >>> second.moves, second.error_rate, second.rating
    (0, None, None)
    """
    if isinstance(names, str) or len(names) != 2 or not all(isinstance(name, str) for name in names):
        raise ArgumentTypeError(f"names must be the two players' names, got {names!r}")
    for index, decision in enumerate(decisions):
        if not isinstance(decision, Decision):
            raise ArgumentTypeError(f"decisions[{index}] must be a Decision, got {type(decision).__name__}")
    players = []
    for player in (0, 1):
        own = [d for d in decisions if d.player == player]
        plays = [d for d in own if d.kind == "play"]
        cubes = [d for d in own if d.kind == "cube" and not d.forced]
        unforced = sum(not d.forced for d in plays)
        checker = float(sum(d.loss for d in plays if not d.forced))
        cube = float(sum(d.loss for d in cubes))
        counted = unforced + len(cubes)
        per = (checker + cube) / counted if counted else None
        marks = {name: sum(d.mark == name for d in own) for name in ("doubtful", "bad", "very bad")}
        lucks = {name: sum(d.luck_mark == name for d in plays)
                 for name in ("very lucky", "lucky", "unlucky", "very unlucky")}
        players.append(PlayerStatistics(
            player, names[player], len(plays), unforced, len(cubes), checker, cube,
            None if per is None else 1000 * per, float(sum(d.luck or 0.0 for d in plays)),
            marks, lucks, rating(per)))
    return players[0], players[1]


# --- the entry point ---------------------------------------------------------------------------------


def analyse(record: MatchRecord | GameRecord | GameRecords, evaluator: EvaluatorLike = "net", *, ply: int = 0,
            threads: int | None = None, progress: bool = False, rules: RulesLike = None, luck: bool = True,
            source: str = "") -> Analysis:
    """The analysis of ``record``: every checker play and cube decision
    judged, as GNU Backgammon judges them (see the module for the figures).

    Parameters
    ----------
    record : ~bansugoroku_fast.formats.MatchRecord or ~bansugoroku_fast.games.GameRecords
        A :class:`~bansugoroku_fast.formats.MatchRecord` or a
        :class:`~bansugoroku_fast.formats.mat.GameRecord` (from
        :func:`~bansugoroku_fast.read_match`), or
        :func:`~bansugoroku_fast.play_games` records.
    evaluator : ~bansugoroku_fast.evaluators.EvaluatorLike
        A :class:`~bansugoroku_fast.evaluators.NetEvaluator`, a callable
        ``positions -> float[N, 5]`` or ``"net"`` (the default: the shipped
        network of the record's rules).
    ply : int
        The plays' search depth, 0, 1 or 2 (the luck is judged at 0 ply, as
        GNU Backgammon does).
    threads : int or None
        The kernels' threads (None: every core); the figures do not depend
        on it.
    progress : bool
        A progress bar (tqdm) on stderr.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rules of records that carry none (``play_games`` records).
    luck : bool
        Judge each roll's luck too (``False``: half the work at 0 ply).
    source : str
        What was analysed (a file's name), named in the output.

    Returns
    -------
    Analysis
        Every decision in order (``decisions``), each player's figures
        (``players``: error rate, luck, rating...), ``errors()`` for the
        marked ones, ``to_json()``.

    Raises
    ------
    ArgumentTypeError
        ``record`` is not a match, a game or game records.
    InvalidArgumentError
        ``ply`` is not 0, 1 or 2, or another argument out of its range.
    InvalidEvaluatorError
        ``evaluator`` is not an evaluator of the record's rules.

    Examples
    --------
    >>> from bansugoroku_fast import play_games
    >>> games = play_games("backgammon", games=2, policy="heuristic", seed=3)
    >>> analysis = analyse(games, "net")
    >>> len(analysis.decisions) == len(games.positions), len(analysis.players)
    (True, 2)
    """
    ply = as_ply(ply)
    threads = as_threads(threads)
    found = _record(record, rules)
    rules = found.rules
    evaluator = resolve_evaluator(evaluator, rules)
    turns = [item for item in found.items if isinstance(item, _Turn)]
    points = [item for item in found.items if isinstance(item, CubePoint)]
    bar = _Bar(len(turns) * (2 if luck else 1) + len(points), bool(progress), "analysing")
    try:
        if ply == 0 and luck and turns and all(turn.cube is not None for turn in turns):
            luck_of_turns, judged_by_luck = _luck(turns, rules, evaluator, threads, bar, judge=True)
            lucks: np.ndarray | None = luck_of_turns
            judged = judged_by_luck or []
        else:
            judged = _judge_plays(turns, rules, evaluator, ply, threads, bar)
            lucks = _luck(turns, rules, evaluator, threads, bar)[0] if turns and luck else None
        cubes = cube_decisions(points, rules, evaluator, ply)
        bar.update(len(points))
    finally:
        bar.close()
    notations = _notations(turns, judged, rules, threads)
    position_ids = encode_many(np.stack([turn.position for turn in turns]).astype(np.int8)) if turns else []
    play_decisions = iter(_play_decision(turn, entry, None if lucks is None else float(lucks[i]), position_ids[i],
                                         notations[i])
                          for i, (turn, entry) in enumerate(zip(turns, judged)))
    cube_iter = iter(cubes)
    decisions: list[Decision] = []
    for item in found.items:
        if isinstance(item, _Turn):
            decisions.append(next(play_decisions))
        else:
            judged_cube = next(cube_iter)
            if judged_cube is not None:
                decisions.append(judged_cube)
    return Analysis(tuple(decisions), statistics(decisions, found.names), rules, ply, found.match_length,
                    found.names, tuple(found.games), source)


def _play_decision(turn: _Turn, entry: dict[str, Any], luck: float | None, position_id: str,
                   notations: tuple[str, str]) -> Decision:
    forced = entry["count"] <= 1
    played, best = notations
    loss = 0.0 if entry["count"] == 0 else max(entry["best_equity"] - entry["played_equity"], 0.0)
    return Decision(turn.game, turn.move_number, turn.player, "play", forced, position_id, loss,
                    None if forced else mark(loss), turn.dice, played, best, entry["played_equity"],
                    entry["best_equity"], luck, None if luck is None else luck_mark(luck))
