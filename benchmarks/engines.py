"""The package's three engines (the batch kernel, the kernel-backed single
call, the pure-Python oracle) behind one calling convention for the
benchmarks.

>>> from bansugoroku_fast import Rules
>>> import numpy as np
>>> from bansugoroku_fast.position import INITIAL_ROW
>>> start = np.array([[INITIAL_ROW, INITIAL_ROW]], dtype=np.int8)
>>> offsets, children = children_of(start, np.array([[6, 5]], dtype=np.int8),
...                                 Rules(variant="backgammon"))
>>> offsets.tolist(), children.shape
([0, 7], (7, 2, 26))
"""
from __future__ import annotations

import numpy as np

from bansugoroku_fast import batch, moves, oracle
from bansugoroku_fast.position import Position

#: ``children_of`` backends, fastest first.
BACKENDS = ("batch", "single", "oracle")

#: What each benchmark runs against, for printing in reports.
DESCRIPTION = {
    "batch": "bansugoroku_fast.batch.count_plays / generate_plays",
    "single": "bansugoroku_fast.moves.legal_plays",
}


def games_over(positions: np.ndarray, rules) -> np.ndarray:
    """``bool[N]``: which positions are finished games."""
    return batch.outcome(positions, rules).winner >= 0


def stream(positions: np.ndarray, dice: np.ndarray, rules, threads: int) -> int:
    """Every play of a batch, chunk by chunk into reused memory (the way a
    rollout consumes them); returns the number of plays seen."""
    return sum(
        len(chunk.children)
        for _, chunk in batch.iter_plays(positions, dice, rules, threads=threads, reuse=True)
    )


def _children_by_single_calls(positions, dice, rules, legal_plays):
    """Offsets and children from one ``legal_plays`` call per item."""
    offsets = np.zeros(len(positions) + 1, dtype=np.int64)
    children = []
    for index, (position, roll) in enumerate(zip(positions, dice)):
        plays = legal_plays(Position._trusted(position), (int(roll[0]), int(roll[1])), rules)
        children.extend(play.position.array for play in plays)
        offsets[index + 1] = offsets[index] + len(plays)
    stacked = np.array(children, dtype=np.int8).reshape(-1, 2, 26)
    return offsets, stacked


def children_of(positions: np.ndarray, dice: np.ndarray, rules, *, backend: str = "batch"):
    """``(offsets, children)`` of a batch: the positions after each legal play.

    ``backend`` is one of :data:`BACKENDS`. The order of children within an
    item is the backend's own; callers that need one order sort them.
    """
    if backend == "batch":
        plays = batch.generate_plays(positions, dice, rules, threads=1)
        return plays.offsets, plays.children
    legal_plays = {"single": moves.legal_plays, "oracle": oracle.legal_plays}[backend]
    return _children_by_single_calls(positions, dice, rules, legal_plays)
