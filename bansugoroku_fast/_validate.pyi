# Stub of the compiled module src/bansugoroku_fast/_validate.pyx (hand-written: real types).
import enum

import numpy as np
import numpy.typing as npt

class Problem(enum.IntEnum):
    """Problem codes; bansugoroku_fast.position turns them into messages."""

    OK = 0
    NEGATIVE_COUNT = 1
    ROW_SUM = 2
    SHARED_POINT = 3

def first_invalid(positions: npt.NDArray[np.int8]) -> tuple[int, int, int, int] | None:
    """``(item, code, where, value)`` of the first invalid position of an
    ``int8[N, 2, 26]`` batch, or ``None``."""

def key_problem(key: bytes) -> tuple[int, int, int] | None:
    """``(code, where, value)`` if the 52 bytes ``key`` are not a valid
    position, else ``None``."""
