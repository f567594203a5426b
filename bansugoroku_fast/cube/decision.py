"""Cube decisions: whether the side on roll should double, and whether the
other side should take, by the cubeful equities of GNU Backgammon's method.

At 0 ply the position's cubeless probabilities (:func:`evaluate_position`)
become cubeful equities by Janowski's interpolation (:mod:`.janowski`)
with the cube efficiency of the position's kind (:mod:`.kinds`). At 1 and
2 plies the side on roll plays each of its 21 rolls (its best play by 0-ply
equity), the other side's cube decisions are made at the leaves in every
cube state the play can reach, and the cubeful values are carried back up
through those states, as GNU Backgammon's ``EvaluatePositionCubeful``
carries them: at each node a side that may double takes the best of
playing on and doubling (then the other side's best of taking and
passing).

A backgammon race with at most 6 stones a side (the two-sided endgame
table's positions) is valued from the table wherever the search meets it
(:mod:`.exact`): in money play by its exact cubeful equities (never
searched further), in a match by the match formula with the cube
efficiency its exact money equities imply, as GNU Backgammon values the
positions of its two-sided bear-off database.

>>> from bansugoroku_fast import Position
>>> d = cube_decision(Position.initial(), "backgammon", "net")
>>> d.action, d.no_double > d.double_take         # doubling now would cost
('No double, take', True)
"""
from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from .. import _kernel
from ..batch import outcome
from ..checks import as_rules, check_position_for_rules, scoring_rules
from ..errors import CubeTypeError, InvalidCubeError
from ..evaluators.network import as_threads
from ..evaluators.scoring import EvaluatorLike, flip, resolve_evaluator
from ..evaluators.search import ROLL_DICE, ROLL_WEIGHTS, as_ply, best_replies, swap_sides, values_on_roll
from ..position import as_position
from ..rules import Rules
from ..typing import PositionLike, RulesLike
from .actions import proper_action
from .exact import ExactRaces, exact_races, exact_values
from .janowski import CENTRED, OWNED, THEIRS
from .kinds import BEAROFF, cube_efficiency, kinds_and_efficiency, position_kinds
from .met import MatchEquityTable
from .states import MatchCube, MoneyCube, match_states, values_in_states

if TYPE_CHECKING:
    from ..formats import MatchState

#: A cube state of the search: money or match.
Cube = MoneyCube | MatchCube

__all__ = ["MAX_CUBE", "Cube", "CubeDecision", "Decided", "cube_decision", "cubeful_values", "decide_many",
           "equities_after_play", "equities_after_plays"]

#: The largest cube a decision takes (the source pages' app stops at 64).
MAX_CUBE = 64
MAX_PLY = 2
#: What a decision reads of a :class:`~bansugoroku_fast.formats.MatchState`.
MATCH_FIELDS = ("match_length", "score", "crawford", "cube", "cube_owner", "player_on_roll")


@dataclass(frozen=True)
class CubeDecision:
    """The cube decision of the side on roll (see the module).

    * ``action``: the proper action in GNU Backgammon's words
      (:data:`~.actions.ACTIONS`);
    * ``no_double``, ``double_take``, ``double_pass``: the cubeful
      equities of the three choices, normalised to a cube of 1 (in a match,
      in normalised money equivalents, EMG), and in a match the same as
      match winning chances: ``no_double_mwc``, ``double_take_mwc``,
      ``double_pass_mwc`` (None in money play);
    * ``probabilities``: the five cubeless probabilities of the side on
      roll (GNU Backgammon's order) at the decision's ply, and
      ``cubeless_equity`` (in money play with every gammon counted; in a
      match at the score's gammon values);
    * ``take_point``: the least chance of winning with which the other side
      takes (its own P(win)), and ``cash_point``: the side on roll's P(win)
      from which a double is a pass (``1 - take_point``), both where the
      cubeful take and pass are worth the same with these gammon rates;
    * ``cube_efficiency``: Janowski's ``x`` of the position's ``kind``
      (:mod:`.kinds`); ``ply``: the plies of the evaluation;
    * ``exact``: the figures are the two-sided endgame table's exact ones
      (money play, a backgammon race with at most 6 stones a side; see
      :mod:`.exact`): ``probabilities`` and the three equities are exact
      at every ply, and ``take_point``, ``cash_point`` and
      ``cube_efficiency`` stay Janowski's figures for the kind, which the
      decision does not use.

    Parameters
    ----------
    action : str
        The proper action, in GNU Backgammon's words.
    no_double : float
        The cubeful equity of not doubling, normalised to a cube of 1 (EMG
        in a match).
    double_take : float
        The same of doubling and being taken.
    double_pass : float
        The same of doubling and being passed.
    no_double_mwc : float or None
        In a match, ``no_double`` as match winning chances (None in money
        play).
    double_take_mwc : float or None
        In a match, ``double_take`` as match winning chances.
    double_pass_mwc : float or None
        In a match, ``double_pass`` as match winning chances.
    probabilities : tuple of float
        The five cubeless probabilities of the side on roll.
    cubeless_equity : float
        Its cubeless equity.
    take_point : float
        The least P(win) with which the other side takes.
    cash_point : float
        The side on roll's P(win) from which a double is a pass.
    cube_efficiency : float
        Janowski's ``x`` of the position's kind.
    kind : str
        The position's kind (:mod:`.kinds`).
    ply : int
        The plies of the evaluation.
    exact : bool
        The figures are the two-sided endgame table's exact ones.

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> decision = cube_decision(Position.initial(), "backgammon")
    >>> decision.action, decision.double_pass, decision.no_double > decision.double_take
    ('No double, take', 1.0, True)
    """

    action: str
    no_double: float
    double_take: float
    double_pass: float
    no_double_mwc: float | None
    double_take_mwc: float | None
    double_pass_mwc: float | None
    probabilities: tuple[float, ...]
    cubeless_equity: float
    take_point: float
    cash_point: float
    cube_efficiency: float
    kind: str
    ply: int
    exact: bool = False

    @property
    def best_equity(self) -> float:
        """The equity of the proper action (GNU Backgammon's optimal equity)."""
        if self.double_take >= self.no_double and self.double_pass >= self.no_double:
            return min(self.double_take, self.double_pass)
        return self.no_double

    def __repr__(self) -> str:
        return (f"CubeDecision({self.action!r}, no_double={self.no_double:+.4f}, "
                f"double_take={self.double_take:+.4f}, double_pass={self.double_pass:+.4f})")


# --- the cubeful values of a set of cube states ---------------------------------------------


def _with_doubles(states: list[Cube], top: bool) -> list[Cube | None]:
    """Each state followed by its doubled state where the side on roll may
    double below the top (the top's own double is the decision being made)."""
    out: list[Cube | None] = []
    for state in states:
        out += [state, state.doubled() if not top and state.may_double() else None]
    return out


def _best_of_each(values: np.ndarray, expanded: list[Cube | None]) -> np.ndarray:
    """``float64[N, S]``: per state, the side on roll's best of playing on
    and doubling (then the other side's best of taking and passing), from
    the values of the expanded states (GNU Backgammon's GetECF3)."""
    out = []
    for i in range(0, len(expanded), 2):
        state, doubled, no_double = expanded[i], expanded[i + 1], values[:, i]
        if doubled is None or state is None:
            out.append(no_double)
            continue
        take, double_pass = state.take(values[:, i + 1]), state.double_pass()
        doubles = (take >= no_double) & (double_pass >= no_double)
        out.append(np.where(doubles, np.minimum(take, double_pass), no_double))
    return np.stack(out, axis=1)


def cubeful_values(positions: np.ndarray, rules: Rules, evaluator: Any, states: list[Cube], ply: int,
                   top: bool, threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``(float64[N, 5], float64[N, S])``: the cubeless probabilities and
    the cubeful equity in each of ``states`` of each position, seen by the
    side on roll (row 0), at ``ply`` plies (see the module)."""
    expanded = _with_doubles(states, top)
    live = [state for state in expanded if state is not None]
    if ply == 0:
        probabilities, values = _leaf_values(positions, rules, evaluator, live, threads)
    else:
        # a finished game is a leaf at any ply, and so is an exact position in
        # money play (its figures are final)
        searched = outcome(positions, rules).winner < 0
        if isinstance(states[0], MoneyCube):
            searched[exact_races(positions, rules).rows] = False
        probabilities, values = np.zeros((len(positions), 5)), np.zeros((len(positions), len(live)))
        if searched.any():
            probabilities[searched], values[searched] = _after_each_roll(positions[searched], rules, evaluator,
                                                                         live, ply, threads)
        if not searched.all():
            probabilities[~searched], values[~searched] = _leaf_values(positions[~searched], rules, evaluator,
                                                                       live, threads)
    return probabilities, _best_of_each(_spread(values, expanded), expanded)


def _leaf_values(positions: np.ndarray, rules: Rules, evaluator: Any, states: list[Cube],
                 threads: int) -> tuple[np.ndarray, np.ndarray]:
    """``(float64[N, 5], float64[N, S])``: the 0-ply probabilities and
    cubeful values in ``states`` of each position, seen by the side on
    roll: from the two-sided table where it applies (:mod:`.exact`), else
    by Janowski's interpolation of the evaluator's probabilities."""
    exact = exact_races(positions, rules)
    probabilities = np.zeros((len(positions), 5))
    estimated = np.ones(len(positions), dtype=bool)
    estimated[exact.rows] = False
    if estimated.any():
        probabilities[estimated] = values_on_roll(positions[estimated], rules, evaluator, 0, threads)
    probabilities[exact.rows] = exact.probabilities
    return probabilities, _values_of(positions, probabilities, states, exact)


def _values_of(positions: np.ndarray, probabilities: np.ndarray, states: list[Cube], exact: Any,
               efficiency: np.ndarray | None = None) -> np.ndarray:
    """``float64[N, S]``: the 0-ply cubeful values in ``states`` of
    positions with these ``probabilities`` (seen by the side on roll),
    the rows of ``exact`` (:func:`.exact.exact_races`) from the table;
    ``efficiency`` the positions' cube efficiencies when already known."""
    if efficiency is None:
        efficiency = cube_efficiency(positions)
    values = np.stack([state.values(probabilities, efficiency) for state in states], axis=1)
    if len(exact.rows):
        values[exact.rows] = np.stack([exact_values(state, exact.probabilities, exact.no_double,
                                                    efficiency[exact.rows]) for state in states], axis=1)
    return values


def _spread(values: np.ndarray, expanded: list[Cube | None]) -> np.ndarray:
    """The values of the live states in the columns of ``expanded`` (NaN for None)."""
    out = np.full((len(values), len(expanded)), np.nan)
    out[:, [i for i, state in enumerate(expanded) if state is not None]] = values
    return out


def _after_each_roll(positions: np.ndarray, rules: Rules, evaluator: Any, states: list[Cube], ply: int,
                     threads: int) -> tuple[np.ndarray, np.ndarray]:
    """The side on roll's probabilities and cubeful values in ``states``:
    the mean over its rolls of the other side's, after its best play, at
    ``ply - 1`` plies, in the states as the other side sees them."""
    played, _ = best_replies(swap_sides(positions), rules, evaluator, threads)
    theirs = [state.seen_by_the_other_side() for state in states]
    their_probabilities, their_values = cubeful_values(swap_sides(played), rules, evaluator, theirs, ply - 1,
                                                       False, threads)
    weights = ROLL_WEIGHTS / ROLL_WEIGHTS.sum()
    mean_probabilities = np.einsum("krp,r->kp", their_probabilities.reshape(len(positions), len(ROLL_DICE), 5),
                                   weights)
    mean_values = np.einsum("krs,r->ks", their_values.reshape(len(positions), len(ROLL_DICE), len(states)),
                            weights)
    ours = np.stack([state.from_other_side(mean_values[:, k]) for k, state in enumerate(states)], axis=1)
    return flip(mean_probabilities), ours


#: The rules a cube is played under (Ban-sugoroku has none).
CUBE_RULES = Rules(variant="backgammon")


def equities_after_play(children: np.ndarray, probabilities: np.ndarray, state: Cube,
                        rules: Rules = CUBE_RULES, their_efficiency: np.ndarray | None = None) -> np.ndarray:
    """``float64[M]``: the cubeful equity (normalised; EMG in a match) of
    each child for the side that has just played it, from its
    ``probabilities`` (``float[M, 5]``, that side's, at any ply) and the
    cube ``state`` as that side sees it: the other side, on roll, takes its
    best of playing on and doubling at 0 ply (GNU Backgammon's cubeful
    value of a play); a child in the two-sided endgame table is valued
    from it (:mod:`.exact`), its ``probabilities`` replaced by the exact
    ones. ``their_efficiency``: the children's cube efficiency for the
    other side, when already known (``cube_efficiency(swap_sides(children))``)."""
    return equities_after_plays(children, probabilities, [state], np.zeros(len(children), dtype=np.int64), rules,
                                their_efficiency)


def equities_after_plays(children: np.ndarray, probabilities: np.ndarray, states: Sequence[Cube],
                         which: np.ndarray, rules: Rules = CUBE_RULES,
                         their_efficiency: np.ndarray | None = None) -> np.ndarray:
    """:func:`equities_after_play` of child ``j`` at the cube
    ``states[which[j]]``, all children in one pass whatever their states
    (all money cubes or all match cubes; match cubes in one kernel call)."""
    codes, efficiency = kinds_and_efficiency(children, on_roll=1)
    if their_efficiency is not None:
        efficiency = their_efficiency
    exact = _exact_bearoffs(children, codes, rules)
    if not all(isinstance(state, MatchCube) for state in states):
        return _equities_by_arrays(probabilities, states, which, efficiency, exact)
    ours = _match_equities(probabilities, states, which, efficiency)   # type: ignore[arg-type]
    if len(exact.rows):     # the table's positions, valued from it
        alone = ExactRaces(np.arange(len(exact.rows)), exact.probabilities, exact.no_double)
        ours[exact.rows] = _equities_by_arrays(probabilities[exact.rows], states, which[exact.rows],
                                               efficiency[exact.rows], alone)
    return ours


def _match_equities(probabilities: np.ndarray, states: Sequence[MatchCube], which: np.ndarray,
                    efficiency: np.ndarray) -> np.ndarray:
    """:func:`equities_after_plays` in match cubes, by the kernel (no table positions)."""
    theirs, doubled = _their_states(states)
    at_0, at_1 = _as_ours(states)
    return _kernel.match_equities_after_play(
        probabilities, efficiency, which, match_states(cast(list[MatchCube], theirs + doubled)),
        np.array([state.may_double() for state in theirs], dtype=bool),
        np.array([state.double_pass() for state in theirs]), at_0, at_1)


def _their_states(states: Sequence[Cube]) -> tuple[list[Cube], list[Cube]]:
    """Each state as the other side sees it, and that doubled (itself
    where the other side may not double: never read)."""
    theirs = [state.seen_by_the_other_side() for state in states]
    return theirs, [state.doubled() if state.may_double() else state for state in theirs]


def _as_ours(states: Sequence[Cube]) -> tuple[np.ndarray, np.ndarray]:
    """``(at_0, at_1)``: per state, the line ``at_0 + (at_1 - at_0) v``
    from the other side's value ``v`` to our normalised equity (money's
    ``-v``; a match's MWC to EMG at our cube)."""
    ends = np.array([state.equities(state.from_other_side(np.array([0.0, 1.0]))) for state in states])
    return np.ascontiguousarray(ends[:, 0]), np.ascontiguousarray(ends[:, 1])


def _equities_by_arrays(probabilities: np.ndarray, states: Sequence[Cube], which: np.ndarray,
                        efficiency: np.ndarray, exact: ExactRaces) -> np.ndarray:
    """:func:`equities_after_plays` from the states' values (:func:`.states.values_in_states`),
    the rows of ``exact`` from the table."""
    theirs, doubled = _their_states(states)
    their_probabilities = flip(np.asarray(probabilities, dtype=np.float64))
    their_probabilities[exact.rows] = exact.probabilities
    best = _states_values(their_probabilities, efficiency, theirs, which, exact)
    doubles = np.flatnonzero(np.array([state.may_double() for state in theirs])[which])
    if len(doubles):
        value = _states_values(their_probabilities[doubles], efficiency[doubles], doubled, which[doubles],
                               _rows_of(exact, doubles))
        take_factor = np.array([state.take(np.ones(1))[0] for state in theirs])     # 2 in money, 1 in a match
        take = take_factor[which[doubles]] * value
        double_pass = np.array([state.double_pass() for state in theirs])[which[doubles]]
        no_double = best[doubles]
        goes = (take >= no_double) & (double_pass >= no_double)
        best[doubles] = np.where(goes, np.minimum(take, double_pass), no_double)
    at_0, at_1 = _as_ours(states)
    ours: np.ndarray = at_0[which] + (at_1 - at_0)[which] * best
    return ours


def _exact_bearoffs(children: np.ndarray, codes: np.ndarray, rules: Rules) -> ExactRaces:
    """:func:`.exact.exact_races` of ``children`` seen by the side on roll
    (row 1), looked up among the bear-offs (``codes``: their kinds) alone:
    every table race is one."""
    bearoffs = np.flatnonzero(codes == BEAROFF)
    found = exact_races(swap_sides(children[bearoffs]), rules)
    return found._replace(rows=bearoffs[found.rows])


def _rows_of(exact: ExactRaces, rows: np.ndarray) -> ExactRaces:
    """``exact`` restricted to ``rows`` (sorted), renumbered within them."""
    at = np.searchsorted(rows, exact.rows)
    kept = (at < len(rows)) & (rows[np.minimum(at, len(rows) - 1)] == exact.rows)
    return ExactRaces(at[kept], exact.probabilities[kept], exact.no_double[kept])


def _states_values(probabilities: np.ndarray, efficiency: np.ndarray, states: Sequence[Cube], which: np.ndarray,
                   exact: ExactRaces) -> np.ndarray:
    """``float64[N]``: the 0-ply cubeful value of each row in its state
    ``states[which[row]]``, the rows of ``exact`` (:func:`.exact.exact_races`)
    from the table."""
    out = values_in_states(probabilities, efficiency, states, which)
    if len(exact.rows):
        for number in np.unique(which[exact.rows]):
            mine = np.flatnonzero(which[exact.rows] == number)
            rows = exact.rows[mine]
            out[rows] = exact_values(states[number], exact.probabilities[mine], exact.no_double[mine],
                                     efficiency[rows])
    return out


# --- the decision ---------------------------------------------------------------------------------


def _cube(cube: object) -> int:
    if isinstance(cube, bool) or not isinstance(cube, numbers.Integral):
        raise CubeTypeError(f"the cube is an integer power of 2 up to {MAX_CUBE}, got {cube!r}")
    value = int(cube)
    if value < 1 or value > MAX_CUBE or value & (value - 1):
        raise InvalidCubeError(f"the cube is a power of 2 from 1 to {MAX_CUBE}, got {value}")
    return value


def _owner(owner: object) -> int:
    if owner is None:
        return CENTRED
    if isinstance(owner, bool) or owner not in (0, 1):
        raise InvalidCubeError(f"the cube's owner is None (centred), 0 (the side on roll) or 1, got {owner!r}")
    return OWNED if owner == 0 else THEIRS


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise CubeTypeError(f"{name} is True or False, got {value!r}")
    return bool(value)


#: Points of each of the two grids on which a take point is sought.
TAKE_GRID_POINTS = 65


def _take_point(probabilities: np.ndarray, efficiency: float, doubled: Cube, double_pass: float) -> float:
    """The other side's take point: its P(win) where its take and its pass
    are worth the same to the doubler, the gammon rates of
    ``probabilities`` held. The take's value rises with P(win), piecewise
    linearly: the crossing is bracketed on a coarse grid, then on a fine
    grid within the bracket, then read off the line between the two points
    around it."""
    p = probabilities
    win_rates = p[1:3] / p[0] if p[0] > 0 else np.zeros(2)
    lose_rates = p[3:5] / (1 - p[0]) if p[0] < 1 else np.zeros(2)

    def surplus(win: np.ndarray) -> np.ndarray:
        scaled = np.concatenate([win[:, None], win[:, None] * win_rates, (1 - win[:, None]) * lose_rates], axis=1)
        result: np.ndarray = doubled.take(doubled.values(scaled, np.full(len(win), efficiency))) - double_pass
        return result

    low, high = 0.0, 1.0
    for _ in range(2):
        grid = np.linspace(low, high, TAKE_GRID_POINTS)
        values = surplus(grid)
        if not (values >= 0).any():
            return 0.0
        above = int(np.argmax(values >= 0))
        if above == 0:
            return 1.0 - grid[0] if low == 0.0 else 1.0 - low
        low, high = grid[above - 1], grid[above]
    below_value, above_value = values[above - 1], values[above]
    cash = low + (high - low) * (-below_value / (above_value - below_value) if above_value > below_value else 1.0)
    return float(1.0 - cash)


def _match_cube(match: Any, cube: int, owner: int | None, table: MatchEquityTable | None) -> MatchCube | None:
    """The cube state of ``match`` (a MatchState; None for money), checked
    against the ``cube`` and ``owner`` arguments."""
    if match is None:
        return None
    if not all(hasattr(match, name) for name in MATCH_FIELDS):     # a MatchState (formats sits above)
        raise CubeTypeError(f"match is a MatchState or None, got {type(match).__name__}")
    if table is not None and not isinstance(table, MatchEquityTable):
        raise CubeTypeError(f"table is a MatchEquityTable or None, got {type(table).__name__}")
    on_roll = match.player_on_roll
    relative_owner = None if match.cube_owner is None else (0 if match.cube_owner == on_roll else 1)
    if (cube, owner) not in ((1, None), (match.cube, relative_owner)):
        raise InvalidCubeError(f"cube={cube}, owner={owner} disagree with the match's cube "
                               f"({match.cube}, owner {relative_owner} as the side on roll sees it)")
    if match.match_length == 0:
        raise InvalidCubeError("the MatchState is a money game (match_length 0): pass match=None and the cube")
    score = (match.score[on_roll], match.score[1 - on_roll])
    table = table or MatchEquityTable.default()
    table.match_winning_chance(score, match.match_length, crawford=match.crawford)   # checks the score
    return MatchCube(table, match.match_length, score, match.crawford, match.cube, _owner(relative_owner))


def cube_decision(position: PositionLike, rules: RulesLike, evaluator: EvaluatorLike = "net", *, cube: int = 1,
                  owner: int | None = None, match: MatchState | None = None, ply: int = 0, jacoby: bool = False,
                  beavers: bool = False, table: MatchEquityTable | None = None,
                  threads: int | None = 1) -> CubeDecision:
    """The cube decision of the side on roll (row 0, before its roll) of
    ``position`` (see the module and :class:`CubeDecision`).

    Every argument is checked before any evaluation.

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        The position, row 0 on roll and not yet rolled.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes the default rules and warns.
    evaluator : ~bansugoroku_fast.evaluators.EvaluatorLike
        Anything :func:`~bansugoroku_fast.evaluators.evaluate` takes
        (``"net"``, the default: the shipped network).
    cube : int
        The cube's value, a power of 2 up to 64.
    owner : int or None
        None with the cube centred, 0 when the side on roll owns it, 1 when
        the other side does.
    match : ~bansugoroku_fast.formats.MatchState or None
        Match play: the match's state (its ``player_on_roll`` is row 0; its
        cube and owner are the decision's); None for money play.
    ply : int
        The search depth of the evaluations: 0, 1 or 2.
    jacoby : bool
        Money play's Jacoby rule (a gammon counts only once the cube has
        been turned).
    beavers : bool
        Money play with beavers (the taker may redouble at once, keeping the
        cube).
    table : ~bansugoroku_fast.cube.MatchEquityTable or None
        The match equity table (None: Kazaross-XG2).
    threads : int or None
        The threads of a NetEvaluator (None: every core).

    Returns
    -------
    CubeDecision
        The equities of no double, double/take and double/pass, the proper
        action in GNU Backgammon's words, the cube efficiency and how the
        position was judged (``kind``, ``exact``).

    Raises
    ------
    InvalidCubeError
        A cube or owner that no game reaches (a cube of 3, an owner that
        is not 0, 1 or None).
    InvalidPositionError
        The position is not one of the rules.
    InvalidEvaluatorError
        ``evaluator`` is not an evaluator of these rules.
    InvalidArgumentError
        ``ply`` is not 0, 1 or 2.

    Examples
    --------
    >>> import numpy as np
    >>> from bansugoroku_fast import Position
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 1:7] = board[1, 1:7] = [3, 3, 3, 2, 2, 2]       # a bear-off, 15 stones each
    >>> d = cube_decision(Position(board), "backgammon", "net", cube=2, owner=0)
    >>> d.kind, d.cube_efficiency, d.action
    ('bearoff', 0.6, 'No redouble, take')

    A race with at most 6 stones a side is decided exactly in money play
    (whatever the evaluator): one stone each on the 1-point, the side on
    roll bears off and wins, so it doubles and the other side passes:

    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[:, 0], board[:, 1] = 14, 1
    >>> d = cube_decision(Position(board), "backgammon", "net")
    >>> d.exact, d.action, [round(v, 12) for v in (d.no_double, d.double_take, d.double_pass)]
    (True, 'Double, pass', [1.0, 2.0, 1.0])
    """
    rules = as_rules(scoring_rules(rules, "cube_decision"))
    position = as_position(position)
    check_position_for_rules(position, rules)
    value, ply, jacoby, beavers = _cube(cube), as_ply(ply), _flag(jacoby, "jacoby"), _flag(beavers, "beavers")
    top: Cube = _match_cube(match, value, owner, table) or MoneyCube(_owner(owner), jacoby)
    evaluator = resolve_evaluator(evaluator, rules)
    decided = decide_many(position.array[None], rules, evaluator, top, ply, as_threads(threads), beavers=beavers)
    p = decided.probabilities[0]
    efficiency = float(cube_efficiency(position.array[None])[0])
    take_point = _take_point(p, efficiency, top.doubled(), top.double_pass())
    in_match = isinstance(top, MatchCube)
    mwc = tuple(float(v) for v in decided.values[0]) if in_match else (None, None, None)
    equities = [float(v) for v in decided.equities[0]]
    return CubeDecision(action=decided.actions[0], no_double=equities[0], double_take=equities[1],
                        double_pass=equities[2], no_double_mwc=mwc[0], double_take_mwc=mwc[1],
                        double_pass_mwc=mwc[2], probabilities=tuple(float(v) for v in p),
                        cubeless_equity=float(top.cubeless(p[None])[0]), take_point=take_point,
                        cash_point=1.0 - take_point, cube_efficiency=efficiency,
                        kind=str(position_kinds(position.array[None])[0]), ply=ply,
                        exact=not in_match and len(exact_races(position.array[None], rules).rows) == 1)


class Decided(NamedTuple):
    """The cube decisions of many positions in one cube state
    (:func:`decide_many`): ``probabilities`` ``float64[N, 5]``;
    ``values`` ``float64[N, 3]``, no double, double/take and double/pass
    in the state's own units (equity per cube of 1, or MWC);
    ``equities`` the same as normalised equities (EMG); ``actions``."""

    probabilities: np.ndarray
    values: np.ndarray
    equities: np.ndarray
    actions: list[str]


Decided.probabilities.__doc__ = "``float64[N, 5]``: the cubeless outcome probabilities of each position."
Decided.values.__doc__ = (
    "``float64[N, 3]``: no double, double/take and double/pass in the state's own units (equity per cube of 1, "
    "or match winning chances)."
)
Decided.equities.__doc__ = "``float64[N, 3]``: the same three as normalised equities (EMG)."
Decided.actions.__doc__ = "The proper action of each position, in GNU Backgammon's words."


def decide_many(positions: np.ndarray, rules: Rules, evaluator: Any, state: Cube, ply: int = 0, threads: int = 1,
                *, beavers: bool = False) -> Decided:
    """The cube decisions of checked ``positions`` (each seen by its side
    on roll) in one cube ``state``, evaluated together: what
    :func:`cube_decision` decides for each, without the take points."""
    probabilities, values = cubeful_values(positions, rules, evaluator, [state, state.doubled()], ply, True,
                                           threads)
    choices = np.stack([values[:, 0], state.take(values[:, 1]), np.full(len(positions), state.double_pass())],
                       axis=1)
    # one at a time, in the table's float32 arithmetic, as GNU Backgammon converts them: a double
    # within 1e-5 of not doubling is optional, and float64 rounding moves such ties
    equities = state.rounded_equities(choices)
    in_match = isinstance(state, MatchCube)
    jacoby = isinstance(state, MoneyCube) and state.jacoby
    actions = [proper_action(*(float(v) for v in row), centred=state.owner == CENTRED,
                             owned_by_the_other_side=state.owner == THEIRS, available=state.may_double(),
                             can_win_gammon=bool(p[1] > 0), match=in_match, jacoby=jacoby, beavers=beavers)
               for row, p in zip(equities, probabilities)]
    return Decided(probabilities, choices, equities, actions)
