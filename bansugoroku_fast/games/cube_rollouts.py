"""The rollout of a cube decision, as GNU Backgammon's cubeful rollout of a
cube decision makes it: the position rolled out twice with the cube, once
after **no double** (the side on roll keeps the cube as it is and plays its
roll; from then on both sides double, take and pass by the evaluator) and
once after **double/take** (the cube doubled, owned by the other side), on
the same dice game for game (duplicate dice: game ``g`` of both rolls the
same dice until the cubes part their ways), so that the difference is
measured with less noise than either equity. Double/pass is worth the
cube's value, 1.0 normalised. The proper action follows from the three,
in GNU Backgammon's words (:func:`~bansugoroku_fast.cube.actions.proper_action`).

>>> from bansugoroku_fast import Position
>>> result = rollout_cube_decision(Position.initial(), "backgammon", games=72, seed=1)
>>> result.double_pass, result.no_double > result.double_take       # the opening is no double
(1.0, True)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import (
    MAX_PLIES,
    as_on_long,
    as_stderr_target,
    as_stratify,
    as_threads,
    run_arguments,
    scoring_rules,
    warn_uneven_strata,
)
from ..cube.actions import proper_action
from ..errors import InvalidArgumentError
from ..typing import PoliciesLike, PositionLike, RulesLike
from .bulk import cubeful_rollout_tally, rollout_positions
from .cubeful import CUBE_LIMIT, CubeSettings, as_cube_settings, cubing_of
from .policies import resolve_policies
from .tallies import RolloutResult, mean_and_stderr

__all__ = ["CubeRollout", "rollout_cube_decision"]


@dataclass(frozen=True)
class CubeRollout:
    """A cube decision rolled out (see the module): the side on roll's
    cubeful equities, normalised to the cube before the decision,
    ``no_double`` and ``double_take`` with their standard errors,
    ``double_pass`` (1.0), ``difference_stderr`` (of ``double_take -
    no_double`` over the paired games), the proper ``action`` and the two
    rollouts themselves (``no_double_rollout``, ``double_take_rollout``:
    their ``cubeful_equity`` is per cube at their start, so the
    double/take's is half ``double_take``).

    Parameters
    ----------
    action : str
        The proper action, in GNU Backgammon's words.
    no_double : float
        The side on roll's cubeful equity without doubling, normalised to
        the cube before the decision.
    no_double_stderr : float
        Its standard error.
    double_take : float
        The same after a double and a take.
    double_take_stderr : float
        Its standard error.
    double_pass : float
        1.0.
    difference_stderr : float
        The standard error of ``double_take - no_double`` over the paired
        games.
    no_double_rollout : RolloutResult
        The rollout without a double.
    double_take_rollout : RolloutResult
        The rollout after a double and a take (its ``cubeful_equity`` per
        cube at its start: half ``double_take``).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> found = rollout_cube_decision(Position.initial(), "backgammon", games=36, policy="first", stratify=36)
    >>> found.double_pass, found.no_double_rollout.games, found.double_take_rollout.games
    (1.0, 36, 36)
    """

    action: str
    no_double: float
    no_double_stderr: float
    double_take: float
    double_take_stderr: float
    double_pass: float
    difference_stderr: float
    no_double_rollout: RolloutResult
    double_take_rollout: RolloutResult

    @property
    def games(self) -> int:
        """Games played for each of the two."""
        return int(self.no_double_rollout.games)

    def __repr__(self) -> str:
        return (f"CubeRollout({self.action!r}, no_double={self.no_double:+.4f} ({self.no_double_stderr:.4f}), "
                f"double_take={self.double_take:+.4f} ({self.double_take_stderr:.4f}), games={self.games})")


def _decision_settings(cubeful: object) -> CubeSettings:
    """The cube before the decision, checked: the side on roll (seat 0) may double."""
    settings = as_cube_settings(cubeful)
    if settings is None:
        raise InvalidArgumentError("rollout_cube_decision rolls out with the cube: cubeful is True or a CubeSettings, "
                                   "not False")
    if settings.match is not None:
        raise InvalidArgumentError("rollout_cube_decision rolls out money play; leave out match")
    if settings.owner == 1:
        raise InvalidArgumentError("rollout_cube_decision: the other side (seat 1) owns the cube; "
                                   "the side on roll has no cube decision")
    if settings.cube >= CUBE_LIMIT:
        raise InvalidArgumentError(f"rollout_cube_decision: the cube is at its limit, {CUBE_LIMIT}")
    return settings


def rollout_cube_decision(position: PositionLike, rules: RulesLike = None, games: int = 1296,
                          policy: PoliciesLike = "net", seed: int = 0,
                          threads: int | None = None, progress: bool = False, *,
                          cubeful: bool | CubeSettings = True,
                          stratify: int | None = None, stderr_target: float | None = None,
                          max_plies: int = MAX_PLIES, on_long: str = "raise") -> CubeRollout:
    """Roll out the cube decision of the side on roll (row 0 of
    ``position``, seat 0, before its roll) in money play.

    Two rollouts with the same dice, one after no double and one after
    double/take, give the equities of no double, double/take and (1.0)
    double/pass, and the proper action from them (see the module).

    Parameters
    ----------
    position : ~bansugoroku_fast.typing.PositionLike
        One backgammon position, row 0 on roll and not yet rolled.
    rules : ~bansugoroku_fast.typing.RulesLike
        The rule set; None assumes Ban-sugoroku's defaults and warns
        (:class:`~bansugoroku_fast.errors.AssumedRulesWarning`).
    games : int
        How many games after each decision, at least 1.
    policy : ~bansugoroku_fast.typing.PoliciesLike
        As in :func:`~bansugoroku_fast.play_games`; by default ``"net"``,
        the shipped network.
    seed : int
        The dice: the same seed rolls the same games.
    threads : int or None
        Threads for the kernels (None: every core); the figures do not
        depend on it.
    progress : bool
        A progress bar (tqdm) on stderr.
    cubeful : bool or CubeSettings
        True, or a :class:`~bansugoroku_fast.games.cubeful.CubeSettings`
        giving the cube before the decision (centred, or owned by seat 0: a
        redouble), Jacoby, beavers and the evaluator whose 0-ply cube
        decisions both sides follow after the first.
    stratify : int or None
        36 (or 1296) deals the first roll (or two) evenly over each 36 (or
        1,296) consecutive games, as in :func:`~bansugoroku_fast.rollout`.
    stderr_target : float or None
        Play blocks of 1,296 games until the standard errors of both
        rollouts are at most this.
    max_plies : int
        The plies a game may last.
    on_long : str
        ``"raise"`` or ``"truncate"``, as in :func:`~bansugoroku_fast.rollout`.

    Returns
    -------
    CubeRollout
        The proper action, the equities of no double and double/take with
        their standard errors (and that of their difference), and both
        rollouts' full results.

    Raises
    ------
    InvalidRulesError
        The rules have no cube (Ban-sugoroku), or are not a rule set.
    InvalidArgumentError
        The side on roll cannot double (the other side owns the cube, the
        cube is at 64), ``cubeful`` is False or names a match, ``position``
        is a batch, or a count or option is out of its range
        (``ArgumentTypeError`` for a ``cubeful`` of another type).
    InvalidPolicyError
        A policy that is not one.
    InvalidPositionError
        The position is not one of the rules.
    GameTooLongError
        A game has not ended after ``max_plies`` plies, unless
        ``on_long="truncate"``.

    Examples
    --------
    One stone each on the 1- and 2-points of both sides: every roll bears
    off both of the side on roll, which wins at once, so it doubles and
    the other side passes:

    >>> import numpy as np
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[:, 0], board[:, 1], board[:, 2] = 13, 1, 1
    >>> decision = rollout_cube_decision(board, "backgammon", games=36, seed=1)
    >>> decision.action, decision.double_pass
    ('Double, pass', 1.0)
    """
    rules = scoring_rules(rules, "rollout_cube_decision")
    rules, games, seed, max_plies, threads = run_arguments(rules, games, seed, max_plies, threads)
    on_long, threads = as_on_long(on_long), as_threads(threads)
    strata = as_stratify(stratify)
    warn_uneven_strata(strata, games, "rollout_cube_decision")
    stop_at = as_stderr_target(stderr_target)
    policies = resolve_policies(policy, rules, callables=True, networks=True)
    settings = _decision_settings(cubeful)
    cubing = cubing_of(settings, rules, policies[0].function, "rollout_cube_decision")
    positions, single = rollout_positions(position, rules)
    if not single:
        raise InvalidArgumentError("rollout_cube_decision takes one position, not a batch")
    pair = np.repeat(positions, 2, axis=0)                 # no double, double/take
    cube = np.array([settings.cube, 2 * settings.cube])
    tally, points = cubeful_rollout_tally(pair, rules, games, policies, seed, strata, max_plies, threads, stop_at,
                                          progress, 0, on_long, cubing, cube, np.array([settings.owner_seat, 1]),
                                          np.array([True, False]))
    no_double, double_take = tally.results(True)
    kept = ~tally.cut.any(axis=0)                 # games both rollouts finished
    difference = (points[1, kept] - points[0, kept]) / settings.cube
    _, difference_stderr = mean_and_stderr(float(difference.sum()), float((difference ** 2).sum()), int(kept.sum()))
    nd, dt = float(no_double.cubeful_equity), 2 * float(double_take.cubeful_equity)
    can_win_gammon = bool(no_double.gnubg is not None and no_double.gnubg["win_gammon"] > 0)
    action = proper_action(nd, dt, 1.0, centred=settings.owner is None, can_win_gammon=can_win_gammon,
                           jacoby=settings.jacoby, beavers=settings.beavers)
    return CubeRollout(action, nd, float(no_double.cubeful_stderr), dt, 2 * float(double_take.cubeful_stderr), 1.0,
                       difference_stderr, no_double, double_take)
