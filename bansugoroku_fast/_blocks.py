"""Large output blocks, recycled once nothing refers to them any more.

Fresh memory from the OS is zeroed page by page when first written: for
the 40 MB of children of 50,000 Ban-sugoroku items that costs more than
working out the plays (``benchmarks/README.md``, "Recycled output"). So a
block of 1 MiB or more that :func:`output_block` hands out is kept when
the last array viewing it goes, up to :func:`set_recycling`'s limit, and
handed out again by a later call of the same size class: the caller still
gets new arrays with nothing in common with any array alive, as from
``np.empty``, without paying the OS again.

How it knows a block is free without counting references: the arrays
handed out are views of a :class:`_Lease`, an object that only exposes
the block (``__array_interface__``). Every view of it, and every view of
those, refers to the lease; when the last one goes the lease is collected
and its finalizer puts the block back.

>>> block = output_block(3 << 20)
>>> address = block.ctypes.data
>>> del block                       # the last view: the block is kept
>>> output_block(3 << 20).ctypes.data == address
True
"""
from __future__ import annotations

import os
import threading
import weakref

import numpy as np

SMALLEST_RECYCLED = 1 << 20
"""Smaller blocks come from malloc's own heap, which reuses them already."""

DEFAULT_LIMIT = 256 << 20

_released: dict[int, list[np.ndarray]] = {}     # size class -> blocks kept
_kept_bytes = 0
_limit = DEFAULT_LIMIT
# Reentrant: a finalizer can run in the middle of output_block, in the same
# thread, when the garbage collector frees a lease that was in a cycle.
_lock = threading.RLock()


def _after_fork_in_child() -> None:
    # Another thread may have held the lock when the process forked.
    global _lock
    _lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class _Lease:
    """The block ``raw`` exposed to numpy; collected when the last array
    viewing it goes."""

    def __init__(self, raw: np.ndarray) -> None:
        self.raw = raw
        # raw's own description (its memory, writeable): numpy's C getter,
        # where raw.ctypes runs Python code, slow with the caches cold
        # from a count pass (generate_plays makes its output between passes).
        self.__array_interface__ = raw.__array_interface__


def output_block(size: int) -> np.ndarray:
    """A new ``uint8[size]`` array of uninitialised memory, as
    ``np.empty(size, np.uint8)``, recycled from a released block of the
    same size class when there is one (1 MiB and more)."""
    if size < SMALLEST_RECYCLED:
        return np.empty(size, dtype=np.uint8)
    capacity = size_class(size)
    raw = _take(capacity)
    if raw is None:
        raw = np.empty(capacity, dtype=np.uint8)
    lease = _Lease(raw)
    weakref.finalize(lease, _release, raw).atexit = False
    return np.asarray(lease)[:size]


def size_class(size: int) -> int:
    """``size`` rounded up to a multiple of 1/16 of its power of two (at
    most 1/16 more), so that calls of nearly the same size share blocks.

    >>> size_class(1 << 20), size_class((1 << 20) + 1), size_class(3_000_000)
    (1048576, 1114112, 3014656)
    """
    step = 1 << max(size.bit_length() - 5, 0)
    return -(-size // step) * step


def set_recycling(limit: int) -> int:
    """Keep at most ``limit`` bytes of released blocks (0: none, and the
    ones kept are freed now); returns the previous limit."""
    global _limit
    with _lock:
        previous, _limit = _limit, limit
        _trim()
    return previous


def kept_bytes() -> int:
    """Bytes of released blocks kept for reuse now."""
    return _kept_bytes


def _take(capacity: int) -> np.ndarray | None:
    global _kept_bytes
    with _lock:
        blocks = _released.get(capacity)
        if not blocks:
            return None
        _kept_bytes -= capacity
        return blocks.pop()


def _release(raw: np.ndarray) -> None:
    global _kept_bytes
    with _lock:
        if raw.size > _limit:
            return
        _released.setdefault(raw.size, []).append(raw)
        _kept_bytes += raw.size
        _trim()


def _trim() -> None:
    """Free kept blocks, largest first, until within the limit."""
    global _kept_bytes
    while _kept_bytes > _limit:
        largest = max(_released)
        _released[largest].pop()
        _kept_bytes -= largest
        if not _released[largest]:
            del _released[largest]
