"""Reinforcement-learning environments (the ``rl`` extra: ``gymnasium``,
``pettingzoo``, ``cairosvg``).

* :func:`aec_env`: a two-player PettingZoo AEC environment;
* :class:`BanSugorokuEnv`: a single-agent Gymnasium environment, a policy in
  the other seat; registered (on import of this module) as
  ``"bansugoroku_fast/BanSugoroku-v0"`` (options ``finish``, ``closure``,
  ``start`` of :class:`~bansugoroku_fast.Rules`) and
  ``"bansugoroku_fast/Backgammon-v0"``;
* :class:`BanSugorokuVectorEnv`: ``num_envs`` of those, stepped together by
  the batch kernels.

Actions (per stone or per whole play) are described in
:mod:`bansugoroku_fast.envs.table`, observations and renders in
:mod:`bansugoroku_fast.envs.views`, opponents in
:mod:`bansugoroku_fast.envs.opponents`.

>>> import gymnasium
>>> import bansugoroku_fast.envs
>>> env = gymnasium.make("bansugoroku_fast/BanSugoroku-v0", finish="bear_off", closure="immediate")
>>> env.unwrapped.rules.short_name
'ban/bear_off/immediate'
>>> observation, info = env.reset(seed=3)
>>> sorted(observation)
['action_mask', 'dice', 'observation']
"""
from __future__ import annotations

from typing import Any

import gymnasium

from ..checks import as_rules, check_keywords
from ..errors import InvalidOptionError
from ..rules import Rules
from ..typing import RulesLike
from .aec import AGENTS, BanSugorokuAEC, aec_env
from .single import BanSugorokuEnv
from .table import MAX_PLAYS, STEP_ACTIONS, step_action, step_of_action
from .vector import BanSugorokuVectorEnv

__all__ = [
    "AGENTS", "BanSugorokuAEC", "BanSugorokuEnv", "BanSugorokuVectorEnv", "aec_env", "ban_sugoroku", "backgammon",
    "MAX_PLAYS", "STEP_ACTIONS", "step_action", "step_of_action",
]

NAMESPACE = "bansugoroku_fast"


#: The keywords :class:`BanSugorokuEnv` takes besides ``rules``.
ENV_OPTIONS = ("opponent", "seat", "actions", "max_plays", "observation", "render_mode", "max_plies",
               "illegal_action")


def ban_sugoroku(rules: RulesLike = None, *, finish: str | None = None, closure: str | None = None,
                 start: str | None = None, **options: Any) -> BanSugorokuEnv:
    """The ``"bansugoroku_fast/BanSugoroku-v0"`` environment: one seat of a
    Ban-sugoroku game against an opponent.

    ``finish``, ``closure`` and ``start`` each override ``rules`` where both
    are given, so ``gymnasium.make`` can pick the rules option by option.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        Ban-sugoroku rules (a :class:`~bansugoroku_fast.rules.Rules` or a
        label), or None for the defaults.
    finish : str or None
        ``"arrival"`` or ``"bear_off"``; None keeps that of ``rules``.
    closure : str or None
        ``"multiplied"``, ``"immediate"`` or ``"off"``; None keeps that of
        ``rules``.
    start : str or None
        ``"alternate"`` or ``"roll_off"``; None keeps that of ``rules``.
    **options : Any
        The options of :class:`BanSugorokuEnv` (:data:`ENV_OPTIONS`:
        ``opponent``, ``seat``, ``actions``, ``max_plays``, ``observation``,
        ``render_mode``, ``max_plies``, ``illegal_action``).

    Returns
    -------
    BanSugorokuEnv
        The environment, not yet reset.

    Raises
    ------
    InvalidRulesError
        The rules, or a ``finish``, ``closure`` or ``start``, are not
        Ban-sugoroku's.
    InvalidOptionError
        ``rules`` are backgammon's (``ArgumentTypeError`` for a keyword the
        environment does not take).
    InvalidArgumentError
        An option out of its range (a ``seat`` other than 0 or 1, an unknown
        ``actions``...).
    InvalidPolicyError
        ``opponent`` is not a policy.

    Examples
    --------
    >>> ban_sugoroku("ban-sugoroku,finish=bear_off", closure="off").rules.short_name
    'ban/bear_off/off'
    >>> ban_sugoroku("backgamon")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidRulesError: cannot read rules 'backgamon'; ...
    >>> ban_sugoroku(sead=3)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.ArgumentTypeError: BanSugoroku-v0 takes no option 'sead'; its options: ...
    """
    check_keywords(options, ENV_OPTIONS + ("rules", "finish", "closure", "start"), "BanSugoroku-v0")
    base = as_rules(rules)
    if base.is_backgammon:
        raise InvalidOptionError(
            "BanSugoroku-v0 plays Ban-sugoroku; for backgammon make 'bansugoroku_fast/Backgammon-v0'"
        )
    chosen = {"finish": finish, "closure": closure, "start": start}
    fields = {name: value if value is not None else getattr(base, name) for name, value in chosen.items()}
    return BanSugorokuEnv(Rules(**fields), **options)


def backgammon(rules: RulesLike = None, **options: Any) -> BanSugorokuEnv:
    """The ``"bansugoroku_fast/Backgammon-v0"`` environment: one seat of a
    backgammon game against an opponent.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        None, or backgammon's rules (a :class:`~bansugoroku_fast.rules.Rules`
        or ``"backgammon"``).
    **options : Any
        The options of :class:`BanSugorokuEnv` (:data:`ENV_OPTIONS`).

    Returns
    -------
    BanSugorokuEnv
        The environment, not yet reset.

    Raises
    ------
    InvalidOptionError
        ``rules`` are Ban-sugoroku's (``ArgumentTypeError`` for a keyword
        the environment does not take).
    InvalidRulesError
        ``rules`` are not a rule set.
    InvalidArgumentError
        An option out of its range.
    InvalidPolicyError
        ``opponent`` is not a policy.

    Examples
    --------
    >>> env = backgammon(opponent="first")
    >>> observation, info = env.reset(seed=0)
    >>> env.rules.short_name, observation["observation"].shape
    ('backgammon', (2, 26))
    >>> backgammon(rules="ban-sugoroku")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidOptionError: Backgammon-v0 plays backgammon; for Ban-sugoroku make ...
    """
    check_keywords(options, ENV_OPTIONS + ("rules",), "Backgammon-v0")
    if rules is not None and not as_rules(rules).is_backgammon:
        raise InvalidOptionError(
            "Backgammon-v0 plays backgammon; for Ban-sugoroku make 'bansugoroku_fast/BanSugoroku-v0'"
        )
    return BanSugorokuEnv(Rules(variant="backgammon"), **options)


def _register() -> None:
    for name, factory in (("BanSugoroku-v0", "ban_sugoroku"), ("Backgammon-v0", "backgammon")):
        env_id = f"{NAMESPACE}/{name}"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=f"{__name__}:{factory}")


_register()
