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

from ..rules import Rules
from .aec import AGENTS, BanSugorokuAEC, aec_env
from .single import BanSugorokuEnv
from .table import MAX_PLAYS, STEP_ACTIONS, step_action, step_of_action
from .vector import BanSugorokuVectorEnv

__all__ = [
    "AGENTS", "BanSugorokuAEC", "BanSugorokuEnv", "BanSugorokuVectorEnv", "aec_env", "ban_sugoroku", "backgammon",
    "MAX_PLAYS", "STEP_ACTIONS", "step_action", "step_of_action",
]

NAMESPACE = "bansugoroku_fast"


def ban_sugoroku(finish: str = "arrival", closure: str = "multiplied", start: str = "alternate",
                 **options: Any) -> BanSugorokuEnv:
    """The ``"bansugoroku_fast/BanSugoroku-v0"`` environment."""
    return BanSugorokuEnv(Rules(finish=finish, closure=closure, start=start), **options)


def backgammon(**options: Any) -> BanSugorokuEnv:
    """The ``"bansugoroku_fast/Backgammon-v0"`` environment."""
    return BanSugorokuEnv(Rules(variant="backgammon"), **options)


def _register() -> None:
    for name, factory in (("BanSugoroku-v0", "ban_sugoroku"), ("Backgammon-v0", "backgammon")):
        env_id = f"{NAMESPACE}/{name}"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=f"{__name__}:{factory}")


_register()
