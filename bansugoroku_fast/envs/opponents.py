"""The policy in the other seat of :class:`~bansugoroku_fast.envs.BanSugorokuEnv`.

An opponent is given as

* a policy name, ``"random"`` or ``"first"``: the policies of
  :mod:`bansugoroku_fast.policies`, choosing exactly what they choose in
  :func:`~bansugoroku_fast.play_games` at the same seed, game and ply;
* or a callable ``policy(children, offsets)`` in the convention of
  :mod:`bansugoroku_fast.lockstep`: ``children`` is ``int8[k, 2, 26]``, the
  position after each legal play (in ``legal_plays`` order, seen by the
  opponent), ``offsets`` is ``int64[2] = [0, k]``; it returns its choice
  (``int64[1]``) or one score per child (``float[k]``; the greatest wins,
  the first on a tie).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..choices import choices_from_output
from ..play import Play
from ..rules import Rules
from ._dice import random_choice
from .table import Table

Opponent = Callable[[Table], Play]


def _random(table: Table) -> Play:
    plays = table.legal_plays()
    return plays[random_choice(table.seed, table.game, table.ply, len(plays))]


def _first(table: Table) -> Play:
    return table.legal_plays()[0]


NAMED = {"random": _random, "first": _first}


def opponent_of(policy: object, rules: Rules) -> Opponent:
    """The opponent that ``policy`` names (see the module docstring)."""
    if isinstance(policy, str):
        if policy not in NAMED:
            raise ValueError(f"unknown opponent policy {policy!r}; choose one of {sorted(NAMED)} or a callable")
        return NAMED[policy]
    if callable(policy):
        return _from_callable(policy)
    raise TypeError(f"an opponent is a policy name or a callable, got {policy!r}")


def _from_callable(policy: Callable[[np.ndarray, np.ndarray], object]) -> Opponent:
    def choose(table: Table) -> Play:
        plays = table.legal_plays()
        children = np.stack([play.position.array for play in plays])
        offsets = np.array([0, len(plays)], dtype=np.int64)
        output = policy(children, offsets)
        return plays[int(choices_from_output(output, offsets, game_ids=np.array([table.game]))[0])]

    return choose
