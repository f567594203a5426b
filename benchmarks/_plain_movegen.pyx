# cython: language_level=3, boundscheck=False, wraparound=False
"""The plain C move generator of ``plain_movegen.c`` over a batch, called
as the package's batch kernels are: one call from Python, fresh numpy
output (the count on one thread or more, with OpenMP). Built on the fly by
``benchmarks/yardstick.py``; not part of the installed package. The
arguments are trusted (valid positions and dice, as the benchmarks and
tests pass them).
"""
from cython.view cimport array as cvarray
from libc.stdint cimport int8_t, int32_t, int64_t
from libc.stdlib cimport free

import numpy as np

cdef extern from "plain_movegen.c" nogil:
    enum:
        PM_BAN_SUGOROKU
        PM_BACKGAMMON
    int pm_count_batch(const int8_t* positions, const int8_t* dice, int64_t n, int variant, int threads,
                       int32_t* counts)
    int pm_generate_batch(const int8_t* positions, const int8_t* dice, int64_t n, int variant,
                          int64_t* offsets, int8_t** children, int64_t* rows)

#: The rule sets the generator knows, by ``Rules.variant``.
VARIANTS = {"ban-sugoroku": PM_BAN_SUGOROKU, "backgammon": PM_BACKGAMMON}


def count(const int8_t[:, :, ::1] positions, const int8_t[:, ::1] dice, int variant, int threads=1):
    """``int32[n]``: the plays of each (position, roll), on ``threads`` threads."""
    cdef int64_t n = positions.shape[0]
    counts = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] out = counts
    cdef int status = 0
    if dice.shape[0] != n:
        raise ValueError("positions and dice differ in length")
    if n:
        with nogil:
            status = pm_count_batch(&positions[0, 0, 0], &dice[0, 0], n, variant, threads, &out[0])
    if status != 0:
        raise MemoryError()
    return counts


def generate(const int8_t[:, :, ::1] positions, const int8_t[:, ::1] dice, int variant):
    """``(offsets int64[n + 1], children int8[m, 2, 26])``: the plays of item
    ``i`` are ``children[offsets[i]:offsets[i + 1]]``. The children are the
    C loop's own buffer, handed to numpy without a copy."""
    cdef int64_t n = positions.shape[0], rows = 0
    offsets = np.zeros(n + 1, dtype=np.int64)
    cdef int64_t[::1] offset_view = offsets
    cdef int8_t* children = NULL
    cdef int status
    cdef cvarray owner
    if dice.shape[0] != n:
        raise ValueError("positions and dice differ in length")
    with nogil:
        status = pm_generate_batch(&positions[0, 0, 0] if n else NULL, &dice[0, 0] if n else NULL, n,
                                   variant, &offset_view[0], &children, &rows)
    if status != 0:
        raise MemoryError()
    if rows == 0:
        free(children)
        return offsets, np.empty((0, 2, 26), dtype=np.int8)
    owner = cvarray(shape=(rows, 2, 26), itemsize=1, format="b", mode="c", allocate_buffer=False)
    owner.data = <char*> children
    owner.callback_free_data = free
    return offsets, np.asarray(owner)
