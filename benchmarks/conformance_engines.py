"""Peer engines in the shape ``bansugoroku conformance check --engine`` takes.

    python -m bansugoroku_fast conformance check \\
        --engine benchmarks.conformance_engines:gnubg_nn_engine --rules backgammon

(from the repository root: ``python -m`` puts it on the path, where the
``bansugoroku`` script would not find ``benchmarks``)

* :func:`gnubg_nn_engine`: GNU Backgammon's move generator (``pip install
  gnubg-nn``; backgammon only). Its board is ``anBoard[2][25]``: ``[1]`` the
  side on roll, ``[0]`` the other, index ``i`` = point ``i + 1``, 24 = bar,
  borne-off stones implied; a game already over (``classify`` says
  ``c_over``) has no plays.
"""
from __future__ import annotations

import importlib

import numpy as np

from bansugoroku_fast import Rules
from bansugoroku_fast.layout import STONES


def gnubg_nn_engine(position: np.ndarray, dice: tuple[int, int], rules: Rules) -> list[list[list[int]]]:
    gnubg_nn = importlib.import_module("gnubg_nn")
    if not rules.is_backgammon:
        raise ValueError("gnubg-nn plays backgammon only")
    mover, other = position.tolist()
    board = [other[1:26], mover[1:26]]
    if gnubg_nn.classify(board) == gnubg_nn.c_over:
        return []
    results = []
    for key in gnubg_nn.moves(board, *dice):
        theirs, ours = gnubg_nn.board_from_position_key(key)  # the side that moved is second
        results.append([[STONES - sum(ours), *ours], [STONES - sum(theirs), *theirs]])
    return results
