"""This library as a conformance engine, in both forms the checker takes:
:func:`kernel_engine` (a Python callable over the Cython kernels),
:func:`oracle_engine` (the pure-Python oracle), and, run as a program,
the line protocol of corpus/README.md::

    python -m bansugoroku_fast.formats.conformance.reference

It is also a worked example for engine authors: read ``RULES POSITION-ID
A-B``, answer the Position IDs of the results on one line.

>>> from bansugoroku_fast import Position, Rules
>>> len(kernel_engine(Position.initial().array, (6, 5), Rules(variant="backgammon")))
7
"""
from __future__ import annotations

import sys
from typing import TextIO

import numpy as np

from ... import moves
from ...oracle import moves as spec
from ...position import Position
from ...rules import Rules


def kernel_engine(position: np.ndarray | Position, dice: tuple[int, int], rules: Rules) -> list[Position]:
    """The resulting positions, from the kernels (a :class:`Position` is
    taken as it is, an array is validated first)."""
    return [play.position for play in moves.legal_plays(position, dice, rules)]


def oracle_engine(position: np.ndarray, dice: tuple[int, int], rules: Rules) -> list[Position]:
    """The resulting positions, from the oracle."""
    return [play.position for play in spec.legal_plays(Position(position), dice, rules)]


def serve(requests: TextIO, answers: TextIO) -> None:
    """Answer each request line until the input ends."""
    for line in requests:
        rules_label, position_id, dice = line.split()
        a, b = dice.split("-")
        results = kernel_engine(Position.from_id(position_id).array, (int(a), int(b)), Rules.parse(rules_label))
        answers.write(" ".join(result.id for result in results) + "\n")
        answers.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
