"""Bulk analysis and rollouts on Dask (the ``distributed`` extra).

**Analysis of positions held as a** ``dask.array``: ``int8[N, 2, 26]``
positions chunked along the first axis (from ``.npy`` files, zarr stores or
anything larger than memory) go through the batch queries of
:mod:`bansugoroku_fast.batch` chunk by chunk with ``map_blocks``, lazily: each
function here returns dask arrays, and nothing runs until they are computed
(on the local scheduler, or on a cluster with a ``dask.distributed.Client``).
A bad position raises when its chunk is computed, named by its index in the
whole array.

>>> import dask.array as da
>>> import numpy as np
>>> from bansugoroku_fast import Position
>>> positions = da.from_array(np.stack([Position.initial().array] * 5), chunks=(2, 2, 26))
>>> counts = count_plays(positions, (6, 5), "backgammon")
>>> counts
dask.array<count_plays, shape=(5,), dtype=int32, chunksize=(2,), chunktype=numpy.ndarray>
>>> counts.compute().tolist(), pip_counts(positions)[:, 0].sum().compute()
([7, 7, 7, 7, 7], np.int64(835))
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np

from . import batch
from .batch import OutcomeBatch
from .checks import as_dice, as_rules
from .errors import InvalidDiceError, InvalidPositionError

__all__ = [
    "count_plays", "outcome", "shots", "blocked_points", "blots", "closure_holds", "pip_counts",
]

_ITEM = re.compile(r"^(position|dice) (\d+)")


def _positions(positions: Any) -> da.Array:
    """``positions`` as a dask array of shape ``(N, 2, 26)``, chunked along
    the first axis only (its content is checked chunk by chunk, later)."""
    array = positions if isinstance(positions, da.Array) else da.asarray(positions)
    if array.ndim != 3 or array.shape[1:] != (2, 26):
        raise InvalidPositionError(f"positions must have shape (N, 2, 26), got {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidPositionError(f"positions must hold integers, got dtype {array.dtype}")
    return array.rechunk({1: -1, 2: -1})


def _renumbered(error: ValueError, start: int) -> ValueError:
    """``error`` with the item it names counted from the start of the whole array."""
    message = _ITEM.sub(lambda found: f"{found[1]} {start + int(found[2])}", str(error), count=1)
    if message == str(error):
        message = f"in positions {start}..: {error}"
    return type(error)(message)


def _per_chunk(query: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """``query`` over one chunk, its errors naming items of the whole array
    (``index`` holds the chunk's item numbers)."""
    def run(index: np.ndarray, *blocks: np.ndarray) -> np.ndarray:
        try:
            return query(*blocks)
        except (InvalidPositionError, InvalidDiceError) as error:
            raise _renumbered(error, int(index[0])) from None

    return run


def _map(query: Callable[..., np.ndarray], positions: da.Array, *per_item: da.Array, dtype: Any,
         trailing: tuple[int, ...], name: str) -> da.Array:
    """``query(positions_chunk, *per_item_chunks)`` chunk by chunk:
    ``(N, 2, 26)`` (and ``(N, k)`` per item) in, ``(N, *trailing)`` out."""
    index = da.arange(positions.shape[0], chunks=positions.chunks[0])
    new_axes = dict(zip("uvw", trailing))
    arguments: list[Any] = [index, "i", positions, "ijk"]
    for array in per_item:
        arguments += [array.rechunk((positions.chunks[0], -1)), "il"]
    return da.blockwise(_per_chunk(query), "i" + "uvw"[: len(trailing)], *arguments, dtype=dtype,
                        new_axes=new_axes, concatenate=True, token=name)


def _dice(dice: Any, positions: da.Array) -> da.Array | tuple[int, int]:
    """One pair for every position, or ``(N, 2)`` dice chunked like the positions."""
    array = dice if isinstance(dice, da.Array) else np.asarray(dice)
    if array.shape == (2,):
        return as_dice(array.tolist())
    if array.ndim != 2 or array.shape != (positions.shape[0], 2):
        raise InvalidDiceError(f"dice must be one pair or shape ({positions.shape[0]}, 2), got {array.shape}")
    return da.asarray(array)


def count_plays(positions: Any, dice: Any, rules: Any = None) -> da.Array:
    """Lazy ``int32[N]``: :func:`bansugoroku_fast.count_plays` of every chunk."""
    rules = as_rules(rules)
    positions = _positions(positions)
    rolls = _dice(dice, positions)
    if isinstance(rolls, da.Array):
        def count(block: np.ndarray, block_dice: np.ndarray) -> np.ndarray:
            return batch.count_plays(block, block_dice, rules, threads=1)

        return _map(count, positions, rolls, dtype=np.int32, trailing=(), name="count_plays")
    return _map(lambda block: batch.count_plays(block, rolls, rules, threads=1), positions,
                dtype=np.int32, trailing=(), name="count_plays")


def outcome(positions: Any, rules: Any = None) -> OutcomeBatch:
    """:func:`bansugoroku_fast.batch.outcome` as an :class:`OutcomeBatch` of
    lazy ``int8[N]`` arrays (``winner``, ``value``, ``kind``; -1 while the
    game goes on)."""
    rules = as_rules(rules)

    def found(block: np.ndarray) -> np.ndarray:
        return np.stack(batch.outcome(block, rules), axis=1)

    table = _map(found, _positions(positions), dtype=np.int8, trailing=(3,), name="outcome")
    return OutcomeBatch(table[:, 0], table[:, 1], table[:, 2])


def shots(positions: Any, rules: Any = None) -> da.Array:
    """Lazy ``int8[N]``: :func:`bansugoroku_fast.batch.shots`."""
    rules = as_rules(rules)
    return _map(lambda block: batch.shots(block, rules, threads=1), _positions(positions),
                dtype=np.int8, trailing=(), name="shots")


def blocked_points(positions: Any) -> da.Array:
    """Lazy ``bool[N, 25]``: :func:`bansugoroku_fast.batch.blocked_points`."""
    return _map(batch.blocked_points, _positions(positions), dtype=np.bool_, trailing=(25,),
                name="blocked_points")


def blots(positions: Any) -> da.Array:
    """Lazy ``bool[N, 2, 25]``: :func:`bansugoroku_fast.batch.blots`."""
    return _map(batch.blots, _positions(positions), dtype=np.bool_, trailing=(2, 25), name="blots")


def closure_holds(positions: Any) -> da.Array:
    """Lazy ``bool[N, 2]``: :func:`bansugoroku_fast.batch.closure_holds`."""
    return _map(batch.closure_holds, _positions(positions), dtype=np.bool_, trailing=(2,),
                name="closure_holds")


def pip_counts(positions: Any) -> da.Array:
    """Lazy ``int32[N, 2]``: :func:`bansugoroku_fast.batch.pip_counts`."""
    return _map(batch.pip_counts, _positions(positions), dtype=np.int32, trailing=(2,), name="pip_counts")
