# cython: language_level=3
"""Types shared by the move-generation kernels (``_moves.pyx``).

Types (structs and enums) and one inline check, so that cimporting this
header costs no import at run time.

A position inside the kernels is a :c:type:`Board`: the two rows of the
interchange layout, row ``me`` = the side to move, row ``opp`` = its opponent,
each in its own numbering (0 = borne off, 1..24 = points, 25 = bar).
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

cdef enum:
    OFF = 0
    BAR = 25
    PLACES = 26
    STONES = 15
    MAX_STEPS = 4
    RECORD_BYTES = 72   # one play in a single-call result: see _moves.pyx

# What a search collects at its leaves.
cdef enum Mode:
    MODE_COUNT = 0       # distinct resulting positions, no steps
    MODE_PLAYS = 1       # distinct positions with their canonical steps
    MODE_SEQUENCES = 2   # every distinct legal sequence (all orderings)
    MODE_SHOTS = 3       # only: does some legal sequence hit?

# Outcome kinds, in the order of bansugoroku_fast.play.OutcomeKind.
cdef enum Kind:
    KIND_NONE = -1
    KIND_ARRIVAL = 0
    KIND_BEAR_OFF = 1
    KIND_CLOSED_HOME_X2 = 2
    KIND_CLOSED_HOME_X3 = 3
    KIND_CLOSURE = 4
    KIND_SINGLE = 5
    KIND_GAMMON = 6
    KIND_BACKGAMMON = 7
    KIND_BOTH_WON = -2     # invalid: both rows satisfy a win

cdef enum Closure:
    CLOSURE_OFF = 0
    CLOSURE_MULTIPLIED = 1
    CLOSURE_IMMEDIATE = 2

cdef struct Board:
    signed char me[26]
    signed char opp[26]

cdef struct RuleSet:
    bint bears_off
    int closure           # a Closure
    bint backgammon
    int doubles_moves     # 2 (Ban-sugoroku) or 4 (backgammon)
    bint win_stops        # a Ban-sugoroku sequence ends when its side wins

cdef struct Leaf:
    Board board           # the resulting position (row me = the side that played)
    uint64_t zkey         # additive Zobrist key of the board, relative to the start
    uint64_t order        # the sequence key tuple packed so that > compares alike
    signed char origin[4]
    signed char target[4]
    signed char die[4]
    signed char hit[4]
    int nsteps
    int slot              # its slot in the hash table
    bint large            # reached by a single move with the larger die

cdef struct Search:
    RuleSet rules
    int mode
    bint unique           # leaves are distinct by construction: no hash look-up
    bint nonincreasing    # doubles without win-stop: origins never increase
    bint presorted        # leaves were found in descending key order: no sort
    # the position being searched and the sequence that led to it
    Board board
    uint64_t zkey
    int outside           # mover stones on points 7..24 and the bar
    uint32_t occupied     # bit p: the mover has a stone on point p (1..24)
    uint32_t multi        # bit p: the mover has two or more on point p
    uint32_t open_points  # bit p: the opponent does not block point p (fixed in a turn)
    uint32_t blots        # bit p: the opponent has one stone on p (at the start of the turn)
    int ndice             # moves the roll gives
    int dice[4]           # the die of each move in the order being searched
    int larger            # the larger die of a non-double, 0 for a double
    signed char origin[4]
    signed char target[4]
    signed char die[4]
    signed char hit[4]
    # results
    Leaf* leaves
    int nleaves
    int leaf_capacity
    int32_t* slots        # leaf index + 1, 0 = empty
    int slot_mask
    int best_used
    bint any_large
    bint stop             # early exit (shots)
    bint hit_best, hit_large, hit_small
    bint failed           # out of memory
    int winner, value     # scratch for outcome_of in parallel loops
    int32_t* sorted_index # leaf indices by descending order (MODE_PLAYS/SEQUENCES)
    # Output rows a batch lends (NULL: none); the two-move generator and the
    # search of a presorted double write their plays there directly, at most
    # out_room of them, and set wrote_out.
    signed char* out_children
    signed char* out_steps
    signed char* out_dice
    unsigned char* out_hits
    int64_t out_room
    bint wrote_out


cdef extern from *:
    """
    /* Bit masks of one 26-byte row of a board (bit i = place i), SSE2 where
       there is SSE2 (x86-64 always): two overlapping 16-byte loads that stay
       inside the row, compared byte-wise at once, replace a 26-step loop.
       bsf_row_cmp: bit i = row[i] == k (equal) or row[i] > k; ``equal`` is
       a constant at every call, so each inlined copy keeps one comparison. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline unsigned int bsf_row_cmp(const signed char* row, int k, int equal) {
        __m128i kk = _mm_set1_epi8((char) k);
        __m128i lo = _mm_loadu_si128((const __m128i*) row);
        __m128i hi = _mm_loadu_si128((const __m128i*) (row + 10));
        lo = equal ? _mm_cmpeq_epi8(lo, kk) : _mm_cmpgt_epi8(lo, kk);
        hi = equal ? _mm_cmpeq_epi8(hi, kk) : _mm_cmpgt_epi8(hi, kk);
        return (unsigned int) _mm_movemask_epi8(lo)
             | ((unsigned int) _mm_movemask_epi8(hi) << 10);
    }
    /* Sum of a row whose bytes are all >= 0 (sum of absolute differences to 0). */
    static inline int bsf_row_sum(const signed char* row) {
        __m128i zero = _mm_setzero_si128();
        __m128i lo = _mm_loadu_si128((const __m128i*) row);
        /* bytes 10..15 are in both loads: count them in lo only */
        __m128i hi = _mm_slli_si128(_mm_srli_si128(
            _mm_loadu_si128((const __m128i*) (row + 10)), 6), 6);
        __m128i sums = _mm_add_epi64(_mm_sad_epu8(lo, zero), _mm_sad_epu8(hi, zero));
        return _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
    #else
    static inline unsigned int bsf_row_cmp(const signed char* row, int k, int equal) {
        unsigned int bits = 0;
        for (int i = 0; i < 26; i++)
            bits |= (unsigned int) (equal ? row[i] == k : row[i] > k) << i;
        return bits;
    }
    static inline int bsf_row_sum(const signed char* row) {
        int total = 0;
        for (int i = 0; i < 26; i++) total += row[i];
        return total;
    }
    #endif
    static inline unsigned int bsf_row_gt(const signed char* row, int k) {
        return bsf_row_cmp(row, k, 0);
    }
    static inline unsigned int bsf_row_eq(const signed char* row, int k) {
        return bsf_row_cmp(row, k, 1);
    }
    /* Bit i -> bit 25 - i (i in 0..25): an opponent's index to the mover's point. */
    static inline unsigned int bsf_flip26(unsigned int x) {
        x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
        x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
        x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
        x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
        x = (x >> 16) | (x << 16);
        return x >> 6;
    }
    """
    unsigned int row_gt "bsf_row_gt"(const signed char* row, int k) noexcept nogil
    unsigned int row_eq "bsf_row_eq"(const signed char* row, int k) noexcept nogil
    int row_sum "bsf_row_sum"(const signed char* row) noexcept nogil
    unsigned int flip26 "bsf_flip26"(unsigned int x) noexcept nogil

cdef enum:
    POINT_BITS = 0x1FFFFFE      # bits 1..24


cdef inline bint looks_valid(const signed char* rows) noexcept nogil:
    """Whether ``rows`` (2 x 26, row-major) is a valid position: no negative
    count, 15 stones a row, no point held by both sides (``_validate`` says
    what is wrong). Branch-free on bit masks: a few ns."""
    cdef const signed char* other = rows + PLACES
    if row_gt(rows, -1) & row_gt(other, -1) != (1 << PLACES) - 1:
        return False        # a negative count (row_sum needs none)
    return (row_sum(rows) == STONES and row_sum(other) == STONES
            and (row_gt(rows, 0) & flip26(row_gt(other, 0)) & POINT_BITS) == 0)
