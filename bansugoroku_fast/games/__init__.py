"""Whole games: everything about playing games, in one room.

Three ways to play, one for each need:

* **interactive**, a person and the computer, turn by turn, with the cube:
  :class:`Game` and :class:`Match` (:mod:`~bansugoroku_fast.games.interactive`;
  a match's score: :class:`MatchScore`), the computer player
  :class:`Computer` with its cube (:class:`NetCube`, :class:`PipCountCube`:
  :mod:`~bansugoroku_fast.games.computer`);
* **bulk**, many games at kernel speed with built-in policies:
  :func:`play_games` (every ply recorded), :func:`rollout` (tallies) and
  :func:`rank_plays` (:mod:`~bansugoroku_fast.games.bulk`); with the cube
  (``cubeful=True`` or :class:`CubeSettings`: :mod:`~bansugoroku_fast.games.cubeful`),
  and the rollout of a cube decision, :func:`rollout_cube_decision`
  (:mod:`~bansugoroku_fast.games.cube_rollouts`);
* **Python policies in lockstep**, many games stepped together so that one
  Python call scores every waiting game's candidates: :class:`GameBatch`
  (:mod:`~bansugoroku_fast.games.game_batch`); ``play_games`` and ``rollout``
  use it by themselves when a policy is a Python callable.

What a policy is (names, :class:`LinearPolicy`, callables) is in
:mod:`~bansugoroku_fast.games.policies`; what games leave behind, in
:mod:`~bansugoroku_fast.games.records` (:class:`GameRecords`) and
:mod:`~bansugoroku_fast.games.tallies` (:class:`RolloutResult`,
:class:`RankedPlay`). Every name here is also importable from
``bansugoroku_fast`` itself.

>>> records = play_games("backgammon", games=2, policy="first", seed=1)
>>> len(records.offsets), int(records.winner.min()) >= 0
(3, True)
"""
from __future__ import annotations

from ..scoring import FEATURE_NAMES
from .bulk import features, play_games, rank_plays, rollout
from .computer import Computer, NetCube, PipCountCube
from .cube_rollouts import CubeRollout, rollout_cube_decision
from .cubeful import CubeSettings, MatchScore
from .game_batch import Candidates, GameBatch, roll_dice, segment_argmax
from .interactive import Game, Match
from .policies import LinearPolicy
from .records import GameRecords
from .tallies import RankedPlay, RolloutResult

__all__ = [
    # interactive
    "Game", "Match", "MatchScore", "Computer", "NetCube", "PipCountCube",
    # bulk
    "play_games", "rollout", "rank_plays", "features", "FEATURE_NAMES", "CubeSettings",
    "rollout_cube_decision", "CubeRollout",
    # Python policies in lockstep
    "GameBatch", "Candidates", "segment_argmax", "roll_dice",
    # policies and what games leave behind
    "LinearPolicy", "GameRecords", "RolloutResult", "RankedPlay",
]
