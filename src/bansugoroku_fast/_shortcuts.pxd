# cython: language_level=3
"""Closed-form counting and listing of common rolls (see ``_shortcuts.pyx``)."""
from libc.stdint cimport uint32_t

from ._board cimport Board, RuleSet
from ._search cimport Search

cdef int count_two_moves(const Board* board, RuleSet rules, int a, int b) noexcept nogil
cdef int plays_two_moves(Search* s, const Board* start, int a, int b) noexcept nogil
cdef void count_last_two(Search* s, uint32_t occupied, uint32_t multi, int die,
                         int highest) noexcept nogil
cdef void count_last_three(Search* s, uint32_t origins, int die) noexcept nogil
