# Stub of the compiled module src/bansugoroku_fast/_env.pyx (the vector
# environment's kernel), written by hand; stubtest holds it to the module
# (.ci/run). A problem with a row or a choice is returned as ``(k, status)``
# (a Status named in ``_batch.STATUS``), or None.
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

_Int8: TypeAlias = npt.NDArray[np.int8]
_Int32: TypeAlias = npt.NDArray[np.int32]
_Int64: TypeAlias = npt.NDArray[np.int64]
_Float64: TypeAlias = npt.NDArray[np.float64]

def advance_batch(
    rows: _Int64,
    choices: _Int64,
    boards: _Int8,
    dice: _Int8,
    plies: _Int64,
    games: _Int64,
    counts: _Int32,
    winner: _Int8,
    value: _Int8,
    truncated: npt.NDArray[np.uint8],
    agent_seat: int,
    policy_code: int,
    weights: _Float64,
    code: int,
    seed: int,
    opening: bool,
    max_plies: int,
    max_plays: int,
) -> tuple[int, int] | None: ...
