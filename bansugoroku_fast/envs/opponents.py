"""The policy in the other seat of :class:`~bansugoroku_fast.envs.BanSugorokuEnv`
and :class:`~bansugoroku_fast.envs.BanSugorokuVectorEnv`.

An opponent is given as

* a policy of :mod:`bansugoroku_fast.games.policies`: ``"random"``, ``"first"``,
  ``"heuristic"``, ``"pubeval"`` (backgammon) or a
  :class:`~bansugoroku_fast.LinearPolicy`; it chooses exactly what it
  chooses at the same seed, game and ply of
  :func:`~bansugoroku_fast.play_games` (the kernels' choice);
* or a callable ``policy(children, offsets)`` in the convention of
  :mod:`bansugoroku_fast.games.game_batch`: ``children`` is ``int8[k, 2, 26]``, the
  position after each legal play (in ``legal_plays`` order, seen by the
  opponent), ``offsets`` is ``int64[2] = [0, k]`` (one game; a wave of games
  in the vector environment); it returns its choices (``int64[1]``) or one
  score per child (``float[k]``; the greatest wins, the first on a tie).
"""
from __future__ import annotations

import numpy as np

from ..games.policies import ResolvedPolicy, choose, resolve_policy
from ..play import Play
from ..rules import Rules
from .table import Table


def opponent_of(policy: object, rules: Rules) -> ResolvedPolicy:
    """``policy`` (see the module docstring) resolved for ``rules``, checked
    now (one policy: a pair is refused); :func:`bansugoroku_fast.games.game_batch.choose`
    plays it."""
    return resolve_policy(policy, rules, "opponent", callables=True)


def choose_play(opponent: ResolvedPolicy, table: Table) -> Play:
    """The play ``opponent`` picks for the mover of ``table``."""
    assert table.seed is not None  # a game is under way
    parents = table.position.array[None]
    plays = table.legal_plays()
    offsets = np.array([0, len(plays)], dtype=np.int64)
    index = choose(opponent, parents, offsets, table.children(), table.rules, table.seed,
                   np.array([table.game], dtype=np.int64), np.array([table.ply], dtype=np.int64))[0]
    return plays[int(index)]
