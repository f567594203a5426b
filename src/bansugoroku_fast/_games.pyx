# cython: language_level=3
"""Whole games in the kernels: the counter-based dice, the features, the
policies' choices.

Everything here is specified by ``bansugoroku_fast.oracle.games`` (the dice
stream, the features, the scores and the tie rule) and must compute exactly
what it computes: integers for the features, float64 sums in index order for
the scores (this module is compiled with ``-ffp-contract=off``, so no fused
multiply-add changes a rounding), the first greatest score wins.

The Python layer validates every argument; the loops here trust them.
"""
cimport cython
from cython.parallel cimport prange
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

from ._board cimport BAR, OFF, PLACES, STONES, Board, Kind, RuleSet, CLOSURE_IMMEDIATE, CLOSURE_MULTIPLIED

from bansugoroku_fast.policies import (
    FEATURE_NAMES, PUBEVAL_CONTACT_WEIGHTS, PUBEVAL_RACE_WEIGHTS, PUBEVAL_WIN_SCORE,
)

cdef enum:
    SIDE_FEATURES = 14
    FEATURES = 28
    PUBEVAL_INPUTS = 122
    # policy codes (bansugoroku_fast.policies)
    POLICY_RANDOM = 0
    POLICY_FIRST = 1
    POLICY_LINEAR = 2
    POLICY_PUBEVAL = 3
    DICE_STREAM = 0
    CHOICE_STREAM = 1

assert len(FEATURE_NAMES) == FEATURES

cdef double PUBEVAL_RACE[PUBEVAL_INPUTS]
cdef double PUBEVAL_CONTACT[PUBEVAL_INPUTS]
cdef double PUBEVAL_WIN = PUBEVAL_WIN_SCORE
for _i in range(PUBEVAL_INPUTS):
    PUBEVAL_RACE[_i] = PUBEVAL_RACE_WEIGHTS[_i]
    PUBEVAL_CONTACT[_i] = PUBEVAL_CONTACT_WEIGHTS[_i]

# REACH[m][r]: bit d set if ordered roll r = 6 * (a - 1) + (b - 1) carries a
# stone d pips, blocks ignored, when a double moves m times (m = 2 or 4).
cdef uint32_t REACH[5][36]


cdef void _init_reach() noexcept nogil:
    cdef int moves, a, b, k
    cdef uint32_t bits
    for moves in range(2, 5, 2):
        for a in range(1, 7):
            for b in range(1, 7):
                if a == b:
                    bits = 0
                    for k in range(1, moves + 1):
                        bits |= 1u << (a * k)
                else:
                    bits = (1u << a) | (1u << b) | (1u << (a + b))
                REACH[moves][6 * (a - 1) + b - 1] = bits


_init_reach()


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


# --- features -----------------------------------------------------------------


cdef inline bint _closure(const signed char* own, const signed char* other) noexcept nogil:
    return (other[BAR] >= 1 and own[1] >= 2 and own[2] >= 2 and own[3] >= 2
            and own[4] >= 2 and own[5] >= 2 and own[6] >= 2)


cdef int _win_value(const signed char* own, const signed char* other, RuleSet rules) noexcept nogil:
    """The value of ``own``'s win over ``other``, 0 if it has not won."""
    cdef int point
    cdef bint finished
    if rules.backgammon:
        if own[OFF] != STONES:
            return 0
        if other[OFF] > 0:
            return 1
        if other[BAR] > 0:
            return 3
        for point in range(19, 25):
            if other[point] > 0:
                return 3
        return 2
    if rules.bears_off:
        finished = own[OFF] == STONES
    else:
        finished = own[1] + own[2] + own[3] + own[4] + own[5] + own[6] == STONES
    if rules.closure == CLOSURE_IMMEDIATE:
        return 1 if finished or _closure(own, other) else 0
    if not finished:
        return 0
    if rules.closure == CLOSURE_MULTIPLIED and _closure(own, other):
        if (own[1] == 2 and own[3] == 2 and own[4] == 3 and own[6] == 3
                and ((own[2] == 2 and own[5] == 3) or (own[2] == 3 and own[5] == 2))):
            return 3
        return 2
    return 1


cdef inline int _exposure(uint32_t blots, uint32_t other_places, int doubles_moves) noexcept nogil:
    """Rolls of 36 on which ``other`` could hit a blot, blocks ignored: a
    stone on its place q (bit q, 25 = bar) reaches our point p (bit p) after
    q + p - 25 pips."""
    cdef uint32_t distances = 0
    cdef int point, roll, count = 0
    for point in range(1, 25):
        if blots >> point & 1:
            distances |= other_places >> (25 - point)
    distances &= ~1u
    if distances == 0:
        return 0
    for roll in range(36):
        if distances & REACH[doubles_moves][roll]:
            count += 1
    return count


cdef void side_features(const signed char* own, const signed char* other, RuleSet rules,
                        int* out) noexcept nogil:
    """The SIDE_FEATURES integers of ``own`` against ``other``, in the
    oracle's order (``oracle.games.side_features`` defines each)."""
    cdef int p, pips = 0, home = 0, back = 0, blot_count = 0, made = 0, home_made = 0
    cdef int anchors = 0, stacking = 0, run = 0, prime = 0
    cdef uint32_t blots = 0, other_places = 0
    for p in range(1, 25):
        pips += p * own[p]
        if own[p] == 1:
            blot_count += 1
            blots |= 1u << p
        if own[p] >= 2:
            made += 1
            run += 1
            if run > prime:
                prime = run
        else:
            run = 0
        if own[p] > 3:
            stacking += own[p] - 3
    for p in range(1, 26):
        if other[p] > 0:
            other_places |= 1u << p
    for p in range(1, 7):
        home += own[p]
        if own[p] >= 2:
            home_made += 1
    for p in range(19, 25):
        back += own[p]
        if own[p] >= 2:
            anchors += 1
    out[0] = pips + 25 * own[BAR]
    out[1] = own[OFF]
    out[2] = own[BAR]
    out[3] = home
    out[4] = back + own[BAR]
    out[5] = blot_count
    out[6] = made
    out[7] = home_made
    out[8] = prime
    out[9] = anchors
    out[10] = _exposure(blots, other_places, rules.doubles_moves)
    out[11] = stacking
    out[12] = _closure(own, other)
    out[13] = _win_value(own, other, rules)


cdef inline void board_features(const Board* board, RuleSet rules, int* out) noexcept nogil:
    side_features(board.me, board.opp, rules, out)
    side_features(board.opp, board.me, rules, out + SIDE_FEATURES)


cdef double linear_score(const double* weights, const Board* board, RuleSet rules) noexcept nogil:
    """``0.0 + w[0] * f[0] + w[1] * f[1] + ...`` in index order."""
    cdef int values[FEATURES]
    cdef int i
    cdef double score = 0.0
    board_features(board, rules, values)
    for i in range(FEATURES):
        score += weights[i] * <double> values[i]
    return score


# --- pubeval ----------------------------------------------------------------------


cdef bint is_race(const Board* board) noexcept nogil:
    """No contact: the rearmost stones have passed each other."""
    cdef int mover_back = 25, opponent_back = 25
    while mover_back > 0 and board.me[mover_back] == 0:
        mover_back -= 1
    while opponent_back > 0 and board.opp[opponent_back] == 0:
        opponent_back -= 1
    return mover_back + opponent_back <= 25


cdef double pubeval_score(const Board* board, bint race) noexcept nogil:
    """Tesauro's pubeval of a position seen by the side that just moved; the
    inputs that are zero add nothing and are skipped, the others are added in
    the oracle's index order."""
    cdef const double* w = &PUBEVAL_CONTACT[0]
    cdef double score = 0.0
    cdef int block, point, n, first
    if board.me[OFF] == STONES:
        return PUBEVAL_WIN
    if race:
        w = &PUBEVAL_RACE[0]
    for block in range(24):
        point = 24 - block
        n = board.me[point] if board.me[point] else -board.opp[BAR - point]
        first = 5 * block
        if n == -1:
            score += w[first]
        elif n == 1:
            score += w[first + 1]
        elif n >= 2:
            score += w[first + 2]
            if n == 3:
                score += w[first + 3]
            elif n >= 4:
                score += w[first + 4] * ((n - 3) / 2.0)
    if board.opp[BAR]:
        score += w[120] * (board.opp[BAR] / 2.0)
    if board.me[OFF]:
        score += w[121] * (board.me[OFF] / 15.0)
    return score


# --- choosing a play ----------------------------------------------------------------


cdef int choose_play(int code, const double* weights, const Board* parent, const Board* children,
                     int count, RuleSet rules, uint64_t key, int64_t ply) noexcept nogil:
    """The index of the play ``code`` picks among ``count`` > 0 children (in
    ``legal_plays`` order); the first greatest score wins."""
    cdef int i, best = 0
    cdef double score, best_score = 0.0
    cdef bint race
    if code == POLICY_RANDOM:
        return <int> below(ply_word(key, ply, CHOICE_STREAM), <uint64_t> count)
    if code == POLICY_FIRST or count == 1:
        return 0
    race = is_race(parent) if code == POLICY_PUBEVAL else False
    for i in range(count):
        if code == POLICY_PUBEVAL:
            score = pubeval_score(&children[i], race)
        else:
            score = linear_score(weights, &children[i], rules)
        if i == 0 or score > best_score:
            best, best_score = i, score
    return best


# --- Python entry points ---------------------------------------------------------------


cdef RuleSet _rules(int code) noexcept nogil:
    """The rule set of ``Rules.code`` (as ``_moves.rules_from_code``)."""
    cdef RuleSet rules
    rules.bears_off = code & 1
    rules.closure = (code >> 1) & 3
    rules.backgammon = (code >> 3) & 1
    rules.doubles_moves = 4 if rules.backgammon else 2
    rules.win_stops = not rules.backgammon
    return rules


@cython.boundscheck(False)
@cython.wraparound(False)
def features_batch(const signed char[:, :, ::1] positions, int code, float[:, ::1] out):
    """``out[i]`` = the FEATURES values of position i."""
    cdef Py_ssize_t n = positions.shape[0], i
    cdef int k
    cdef int values[FEATURES]
    cdef RuleSet rules = _rules(code)
    with nogil:
        for i in range(n):
            board_features(<const Board*> &positions[i, 0, 0], rules, values)
            for k in range(FEATURES):
                out[i, k] = values[k]


@cython.boundscheck(False)
@cython.wraparound(False)
def dice_batch(uint64_t seed, const int64_t[::1] games, int64_t ply, bint opening, int stratify,
               signed char[:, ::1] out):
    """``out[i]`` = the roll of ``ply`` of game ``games[i]``."""
    cdef Py_ssize_t i
    cdef int a, b
    with nogil:
        for i in range(games.shape[0]):
            roll_dice(game_key(seed, <uint64_t> games[i]), games[i], ply, opening, stratify, &a, &b)
            out[i, 0] = a
            out[i, 1] = b


@cython.boundscheck(False)
@cython.wraparound(False)
def choose_batch(int policy, const double[::1] weights, const signed char[:, :, ::1] parents,
                 const int64_t[::1] offsets, const signed char[:, :, ::1] children, int code,
                 uint64_t seed, const int64_t[::1] games, int64_t ply, int32_t[::1] out):
    """``out[i]`` = the index (within item i's plays, rows
    ``offsets[i]:offsets[i + 1]`` of ``children``) of the play ``policy``
    picks for ply ``ply`` of game ``games[i]``; -1 for an item with no play."""
    cdef Py_ssize_t i
    cdef int64_t count
    cdef RuleSet rules = _rules(code)
    cdef const double* w = &weights[0] if weights.shape[0] else NULL
    with nogil:
        for i in range(parents.shape[0]):
            count = offsets[i + 1] - offsets[i]
            if count == 0:
                out[i] = -1
            else:
                out[i] = choose_play(policy, w, <const Board*> &parents[i, 0, 0],
                                     <const Board*> &children[offsets[i], 0, 0], <int> count,
                                     rules, game_key(seed, <uint64_t> games[i]), ply)
