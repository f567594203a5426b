# Stub of the compiled module src/bansugoroku_fast/_net.pyx (networks' forward
# passes), written by hand.
from typing import Final

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

ARRAYS: Final[tuple[str, ...]]
ROWS: Final[tuple[str, ...]]
EXACT_ARRAYS: Final[tuple[str, ...]]
ALIGNMENT: Final[int]

@disjoint_base
class Model:
    def __init__(self, arrays: dict[str, npt.NDArray[np.float32]], hidden1: int, hidden2: int, relu: bool,
                 features: int, feature_mask: int, exact: bool = False) -> None: ...
    @property
    def arrays(self) -> dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int16]]: ...
    def use_tables(self, finish: npt.NDArray[np.float64], finish_mean: npt.NDArray[np.float64],
                   first: npt.NDArray[np.float64], win: npt.NDArray[np.float64], bears_off: bool,
                   gammons: bool) -> None: ...
    def use_race(self, race: Model) -> None: ...
    @property
    def race(self) -> Model | None: ...
    @property
    def race_used(self) -> bool: ...
    @property
    def tables_used(self) -> bool: ...
    @property
    def features(self) -> int: ...
    @property
    def exact(self) -> bool: ...

def best_children(model: Model, children: npt.NDArray[np.int8], offsets: npt.NDArray[np.int64], code: int,
                  features: npt.NDArray[np.int32], out: npt.NDArray[np.int64]) -> None: ...
