"""The policy in the other seat of :class:`~bansugoroku_fast.envs.BanSugorokuEnv`
and :class:`~bansugoroku_fast.envs.BanSugorokuVectorEnv`.

An opponent is given as

* a policy of :mod:`bansugoroku_fast.policies`: ``"random"``, ``"first"``,
  ``"heuristic"``, ``"pubeval"`` (backgammon) or a
  :class:`~bansugoroku_fast.LinearPolicy`; it chooses exactly what it
  chooses at the same seed, game and ply of
  :func:`~bansugoroku_fast.play_games` (the kernels' choice);
* or a callable ``policy(children, offsets)`` in the convention of
  :mod:`bansugoroku_fast.lockstep`: ``children`` is ``int8[k, 2, 26]``, the
  position after each legal play (in ``legal_plays`` order, seen by the
  opponent), ``offsets`` is ``int64[2] = [0, k]`` (one game; a wave of games
  in the vector environment); it returns its choices (``int64[1]``) or one
  score per child (``float[k]``; the greatest wins, the first on a tie).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import _games
from ..batch import PlayBatch, generate_plays
from ..choices import choices_from_output
from ..games import _policy_arrays
from ..play import Play
from ..policies import RANDOM, resolve_policies
from ..rules import Rules
from ._dice import random_choices
from .table import Table

#: ``choose(seed, games int64[n], plies int64[n], parents int8[n, 2, 26],
#: plays) -> int64[n]``: the index each game's policy picks among its plays
#: (``plays`` over the ``parents``, the positions before the play).
WaveChooser = Callable[[int, np.ndarray, np.ndarray, np.ndarray, PlayBatch], np.ndarray]


def opponent_of(policy: object, rules: Rules) -> WaveChooser:
    """The chooser of ``policy`` (see the module docstring), checked now."""
    if callable(policy) and not isinstance(policy, type):
        def call(seed: int, games: np.ndarray, plies: np.ndarray, parents: np.ndarray,
                 plays: PlayBatch) -> np.ndarray:
            return choices_from_output(policy(plays.children, plays.offsets), plays.offsets, game_ids=games)

        return call
    resolved = resolve_policies(policy, rules)[0]
    codes, weights = _policy_arrays((resolved, resolved))
    if resolved.code == RANDOM:
        # The "random" policy's choice stream at each game's own ply (the
        # kernel's takes one ply for all): the same formula, in numpy.
        return lambda seed, games, plies, parents, plays: random_choices(seed, games, plies, plays.counts())

    def kernel(seed: int, games: np.ndarray, plies: np.ndarray, parents: np.ndarray,
               plays: PlayBatch) -> np.ndarray:
        choices = np.empty(len(games), dtype=np.int32)
        _games.choose_batch(int(codes[0]), weights[0], parents, plays.offsets, plays.children, rules.code,
                            seed, np.ascontiguousarray(games, dtype=np.int64), 0, choices)
        return choices.astype(np.int64)  # no policy but "random" looks at the ply

    return kernel


def choose_play(chooser: WaveChooser, table: Table) -> Play:
    """The play ``chooser`` picks for the mover of ``table``."""
    parents = table.position.array[None]
    plays = generate_plays(parents, np.array([table.dice], dtype=np.int8), table.rules, threads=1)
    index = chooser(table.seed, np.array([table.game]), np.array([table.ply]), parents, plays)[0]
    return table.legal_plays()[int(index)]
