# cython: language_level=3
"""The endgame tables' declarations, and what other kernels call: a whole
game engine (``_games``) that stops its games at the tables cimports
``race_figures`` and reads a :c:type:`RaceTables` the Python layer filled
(see ``_tables.pyx``; ``bansugoroku_fast/endgames/_native.py`` makes one
from a ``Tables``)."""
from libc.stdint cimport int32_t

# What a builder reports (>= 0: fine): the Status of every kernel (_board.pxd).
from ._board cimport STATUS_NO_MEMORY as NO_MEMORY, STATUS_NO_PLAY as NO_PLAY, STATUS_TOO_LONG as TOO_LONG

cdef enum:
    POINTS = 6
    MOST_STONES = 15
    POSITIONS = 54264          # C(21, 6): up to 15 stones on 6 points
    SMALL_POSITIONS = 924      # C(12, 6): up to 6 stones on 6 points
    ROLLS = 21

# What a race look-up reports.
cdef enum:
    TWO_SIDED = 0
    ONE_SIDED = 1
    NOT_IN_TABLE = -1          # a row with stones outside the table's points
    OVER = -2                  # a row has finished: the game is over

# One kind's tables, borrowed (C-contiguous float64 arrays kept alive by the caller).
cdef struct RaceTables:
    const double* finish       # [POSITIONS][turns]: P(finish in exactly t turns)
    const double* finish_mean  # [POSITIONS]
    const double* first        # [POSITIONS][turns]: P(first stone off in t turns); NULL: no gammons
    const double* win          # [SMALL_POSITIONS][SMALL_POSITIONS]; NULL: one-sided only
    int turns
    bint bears_off             # the table's points are 1..6 (else 7..12: arrival)

cdef int32_t row_rank(const signed char* row, bint bears_off) noexcept nogil
cdef int race_figures(const RaceTables* tables, const signed char* mover, const signed char* other,
                      double* out) noexcept nogil
