# Stub of the compiled module src/bansugoroku_fast/_scoring.pyx (what the
# policies score a play by: features, pubeval, a network's choice), written
# by hand; stubtest holds it to the module (.ci/run). Its functions are C,
# called by the other kernel modules (cimport), but for score_batch; its
# other Python names are the tables it copies when it loads.
from typing import Final

import numpy as np
import numpy.typing as npt

from ._net import Model

FEATURE_NAMES: Final[tuple[str, ...]]
PUBEVAL_CONTACT_WEIGHTS: Final[tuple[float, ...]]
PUBEVAL_RACE_WEIGHTS: Final[tuple[float, ...]]
PUBEVAL_WIN_SCORE: Final[float]

def score_batch(model: Model, positions: npt.NDArray[np.int8], code: int, out: npt.NDArray[np.float32],
                threads: int = 1, outcomes: bool = False) -> None: ...
def children_batch(model: Model, parents: npt.NDArray[np.int8], offsets: npt.NDArray[np.int64],
                   children: npt.NDArray[np.int8], code: int, out: npt.NDArray[np.float32],
                   threads: int = 1) -> None: ...
