# cython: language_level=3
"""Rule queries on one position (see ``_queries.pyx``).

Results below 0 are a Status (``_board.pxd``): STATUS_BOTH_WON (an invalid
position) or STATUS_NO_MEMORY.
"""
from libc.stdint cimport int64_t

from ._board cimport Board, RuleSet
from ._search cimport Search

cdef int outcome_of(const Board* board, RuleSet rules, int* winner, int* value) noexcept nogil
cdef int count_roll(Search* s, const Board* start, int a, int b) noexcept nogil
cdef int shots_of(Search* s, const Board* start) noexcept nogil
cdef int64_t perft(Search** searches, const Board* start, int depth, int a, int b) noexcept nogil
