# Stub of the compiled module src/bansugoroku_fast/_cube.pyx (hand-written: real types).
import numpy as np
import numpy.typing as npt

def match_values(
    p: npt.NDArray[np.float64],
    efficiency: npt.NDArray[np.float64],
    which: npt.NDArray[np.int64],
    cubeful: npt.NDArray[np.uint8],
    gammon: npt.NDArray[np.float64],
    owner: npt.NDArray[np.int64],
    levels: npt.NDArray[np.int64],
    level_results: npt.NDArray[np.float64],
    doubled_dead: npt.NDArray[np.uint8],
    prime_results: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> None: ...

def kinds(
    positions: npt.NDArray[np.int8], on_roll: int, codes: npt.NDArray[np.int8], pips: npt.NDArray[np.int32]
) -> None: ...

def match_equities_after_play(
    p: npt.NDArray[np.float64],
    efficiency: npt.NDArray[np.float64],
    which: npt.NDArray[np.int64],
    cubeful: npt.NDArray[np.uint8],
    gammon: npt.NDArray[np.float64],
    owner: npt.NDArray[np.int64],
    levels: npt.NDArray[np.int64],
    level_results: npt.NDArray[np.float64],
    doubled_dead: npt.NDArray[np.uint8],
    prime_results: npt.NDArray[np.float64],
    may_double: npt.NDArray[np.uint8],
    double_pass: npt.NDArray[np.float64],
    at_0: npt.NDArray[np.float64],
    at_1: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> None: ...
