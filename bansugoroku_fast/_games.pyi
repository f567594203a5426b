# Stub of the compiled module src/bansugoroku_fast/_games.pyx (whole games in
# the kernels), written by hand; stubtest holds it to the module (.ci/run).
# A game that fails gets a Status (an int < 0, named in ``_batch.STATUS``)
# in the ``status`` array of the call.
from typing import Final, TypeAlias

import numpy as np
import numpy.typing as npt

_Int8: TypeAlias = npt.NDArray[np.int8]
_Int32: TypeAlias = npt.NDArray[np.int32]
_Int64: TypeAlias = npt.NDArray[np.int64]
_Float64: TypeAlias = npt.NDArray[np.float64]

FEATURE_NAMES: Final[tuple[str, ...]]
#: The games play_batch records, as the kernel writes them: (field, numpy dtype, shape of an entry),
#: per ply (the arrays it returns) and per game (the arrays the caller passes), and the bytes of each row.
PLY_FIELDS: Final[tuple[tuple[str, str, tuple[int, ...]], ...]]
PLY_ROW_BYTES: Final[int]
GAME_FIELDS: Final[tuple[tuple[str, str, tuple[int, ...]], ...]]
GAME_ROW_BYTES: Final[int]
#: The most units a hidden layer of a network playing in the game loop (POLICY_NET) may have.
NET_MAX_HIDDEN: Final[int]
NET_SIDE_FEATURES: Final[tuple[str, ...]]
#: Each seat's ``_net.Model`` where its code is POLICY_NET, else None.
_Models: TypeAlias = tuple[object, object]

def features_batch(positions: _Int8, code: int, out: npt.NDArray[np.float32]) -> None: ...
def dice_batch(seed: int, games: _Int64, plies: _Int64, opening: bool, stratify: int, out: _Int8) -> None: ...
def best_replies_batch(
    model: object,
    parents: _Int8,
    dice: _Int8,
    code: int,
    threads: int,
    replies: _Int8,
    values: npt.NDArray[np.float32],
    status: _Int8,
) -> None: ...
def choose_batch(
    policy_code: int,
    weights: _Float64,
    parents: _Int8,
    offsets: _Int64,
    children: _Int8,
    code: int,
    seed: int,
    games: _Int64,
    plies: _Int64,
    out: _Int32,
) -> None: ...
def random_play_batch(
    positions: _Int8, dice: _Int8, code: int, words: npt.NDArray[np.uint64], out: _Int8, counts: _Int32
) -> None: ...
def rollout_batch(
    positions: _Int8,
    first_game: int,
    games: int,
    codes: _Int32,
    weights: _Float64,
    models: _Models,
    code: int,
    seed: int,
    stratify: int,
    max_plies: int,
    threads: int,
    winner: _Int8,
    value: _Int8,
    kind: _Int8,
    plies: _Int32,
    status: _Int8,
) -> None: ...
def rollout_batch_to_tables(
    positions: _Int8,
    first_game: int,
    games: int,
    codes: _Int32,
    weights: _Float64,
    models: _Models,
    code: int,
    seed: int,
    stratify: int,
    max_plies: int,
    threads: int,
    bears_off: bool,
    gammons: bool,
    finish: _Float64,
    finish_mean: _Float64,
    first: _Float64,
    win_table: _Float64,
    winner: _Int8,
    value: _Int8,
    kind: _Int8,
    plies: _Int32,
    status: _Int8,
    race: _Float64,
) -> None: ...
def play_batch(
    start: _Int8,
    games: int,
    opening: bool,
    stratify: int,
    codes: _Int32,
    weights: _Float64,
    models: _Models,
    code: int,
    seed: int,
    max_plies: int,
    threads: int,
    winner: _Int8,
    value: _Int8,
    kind: _Int8,
    plies: _Int32,
    status: _Int8,
) -> tuple[_Int8, _Int8, _Int8]: ...
