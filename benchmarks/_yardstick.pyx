# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The yardstick of whole-game speed: a plain C loop over the move
generator, with none of the library's whole-game machinery (no counter-based
dice, no policy dispatch, no records). Each ply: roll two dice with a
xorshift generator, search the plays (``run_turn``), take one uniformly at
random, check the outcome, swap the rows. Built on the fly by
``benchmarks/yardstick.py``; not part of the installed package.
"""
from libc.stdint cimport int64_t, uint64_t
from libc.string cimport memcpy

from bansugoroku_fast._board cimport Board, KIND_NONE, RuleSet, rules_from_code
from bansugoroku_fast._queries cimport outcome_of
from bansugoroku_fast._search cimport MODE_PLAYS, Search, found_board, run_turn, search_free, search_new


cdef inline uint64_t xorshift(uint64_t* state) noexcept nogil:
    """Marsaglia's xorshift64* (state never 0)."""
    state[0] ^= state[0] >> 12
    state[0] ^= state[0] << 25
    state[0] ^= state[0] >> 27
    return state[0] * 0x2545F4914F6CDD1DULL


def random_games(const signed char[:, ::1] start, int code, int64_t games, uint64_t seed):
    """Play ``games`` random games from ``start``; return the plies played."""
    cdef RuleSet rules = rules_from_code(code)
    cdef Search* s = search_new(rules, True)
    cdef Board board, after
    cdef uint64_t state = seed | 1
    cdef int64_t game, plies = 0
    cdef int a, b, count, winner, value
    if s == NULL:
        raise MemoryError()
    with nogil:
        for game in range(games):
            memcpy(&board, &start[0, 0], sizeof(Board))
            while True:
                a = <int> (xorshift(&state) % 6) + 1
                b = <int> (xorshift(&state) % 6) + 1
                count = run_turn(s, &board, a, b, MODE_PLAYS)
                if count > 0:
                    memcpy(&after, found_board(s, <int> (xorshift(&state) % <uint64_t> count)), sizeof(Board))
                else:
                    memcpy(&after, &board, sizeof(Board))
                plies += 1
                if outcome_of(&after, rules, &winner, &value) != KIND_NONE:
                    break
                memcpy(board.me, after.opp, 26)
                memcpy(board.opp, after.me, 26)
    search_free(s)
    return plies
