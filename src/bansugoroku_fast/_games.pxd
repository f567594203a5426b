# cython: language_level=3
"""What ``_games.pyx`` shares with the other kernel modules that play games
(``_env.pyx``, the vector environment's): the counter-based dice, the
policies and their choice of a play, and the steps of a ply (the scores
the policies choose by are ``_scoring``'s). The inline
functions are compiled into each module that cimports them; ``choose_play``
and ``load_policy`` are ``_games``' own, called through its C API.

Everything here is specified by ``bansugoroku_fast.oracle.games`` (see
``_games.pyx``).
"""
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.string cimport memcpy

from ._board cimport Board, RuleSet
from ._net cimport bsf_net
from ._queries cimport outcome_of
from ._scoring cimport FEATURES, Children, child_at
from ._search cimport Leaf, MODE_PLAYS, Search, run_turn

cdef enum:
    # policy codes (bansugoroku_fast.games.policies)
    POLICY_RANDOM = 0
    POLICY_FIRST = 1
    POLICY_LINEAR = 2
    POLICY_PUBEVAL = 3
    POLICY_NET = 4          # greedy at 0 ply by a network (Policy.net)
    POLICY_OUTSIDE = -1     # chosen by the caller (policies.CALLABLE): the kernel stops there
    DICE_STREAM = 0
    CHOICE_STREAM = 1


# --- the counter-based dice ----------------------------------------------------


cdef inline uint64_t splitmix64(uint64_t x) noexcept nogil:
    """The first output of SplitMix64 seeded with ``x``."""
    cdef uint64_t z = x + 0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t game_key(uint64_t seed, uint64_t game) noexcept nogil:
    """The part of every word of ``game`` that does not depend on the ply."""
    return splitmix64(splitmix64(seed) ^ game)


cdef inline uint64_t ply_word(uint64_t key, int64_t ply, int stream) noexcept nogil:
    return splitmix64(key ^ <uint64_t> (2 * ply + stream))


cdef inline uint64_t below(uint64_t value, uint64_t n) noexcept nogil:
    """The high 64 bits of ``value * n`` (n < 2**32), without 128-bit types."""
    return ((value >> 32) * n + (((value & 0xFFFFFFFFULL) * n) >> 32)) >> 32


cdef inline void roll_dice(uint64_t key, int64_t game, int64_t ply, bint opening, int stratify,
                           int* a, int* b) noexcept nogil:
    """The dice of ``ply`` of the game whose key is ``key`` (see the oracle)."""
    cdef int64_t index, j
    cdef int high, low
    if stratify and ply == 0:
        index = game % stratify % 36
    elif stratify == 1296 and ply == 1:
        j = game % 1296
        index = (j // 36 + j % 36) % 36
    elif opening and ply == 0:
        index = <int64_t> below(ply_word(key, 0, DICE_STREAM), 15)
        # the 15 pairs (high, low) in order (2, 1), (3, 1), (3, 2), (4, 1), ...
        high = 2
        while index >= high - 1:
            index -= high - 1
            high += 1
        a[0] = high
        b[0] = <int> index + 1
        return
    else:
        index = <int64_t> below(ply_word(key, ply, DICE_STREAM), 36)
    a[0] = <int> (index // 6 + 1)
    b[0] = <int> (index % 6 + 1)


# --- choosing a play ----------------------------------------------------------------


cdef struct Policy:
    int code
    double weights[FEATURES]   # POLICY_LINEAR only
    const bsf_net* net         # POLICY_NET only (its Model kept alive by the caller)


cdef inline Children found_children(const Search* s, int count) noexcept nogil:
    """The plays of the last ``run_turn`` in MODE_PLAYS (no rows lent)."""
    cdef Children children
    children.base = <const char*> &s.found.leaves[0].board
    children.stride = sizeof(Leaf)
    children.index = s.found.sorted_index
    children.count = count
    return children


cdef int choose_play(const Policy* policy, const Board* parent, const Children* children,
                     RuleSet rules, uint64_t key, int64_t ply) noexcept nogil
cdef int load_policy(int code, const double* weights, Py_ssize_t count, Policy* policy) except -1


# --- the steps of a ply -------------------------------------------------------------


cdef inline int roll_turn(Search* s, const Board* board, uint64_t key, int64_t game, int64_t ply,
                          bint opening, int stratify, int* a, int* b) noexcept nogil:
    """Roll ply ``ply`` of ``game`` and search its plays (MODE_PLAYS): their
    count, -1 if out of memory."""
    roll_dice(key, game, ply, opening, stratify, a, b)
    return run_turn(s, board, a[0], b[0], MODE_PLAYS)


cdef inline int play_ply(const Search* s, const Board* board, int count, int choice, int seat,
                         Board* after, int* winner, int* value) noexcept nogil:
    """``after`` = ``board`` after play ``choice`` of the last ``run_turn``
    (its ``count`` plays; ``board`` itself on a pass, count 0), seen by the
    mover, ``seat``. Returns its outcome's kind; ``winner`` (a seat) and
    ``value`` if it ended the game."""
    cdef Children children
    cdef int kind, won
    if count == 0:
        memcpy(after, board, sizeof(Board))
    else:
        children = found_children(s, count)
        memcpy(after, child_at(&children, choice), sizeof(Board))
    kind = outcome_of(after, s.rules, &won, value)
    winner[0] = seat if won == 0 else 1 - seat
    return kind


cdef inline void pass_the_dice(Board* board, const Board* after) noexcept nogil:
    """``board`` = ``after`` seen by the other side, to move next."""
    memcpy(board.me, after.opp, 26)
    memcpy(board.opp, after.me, 26)
