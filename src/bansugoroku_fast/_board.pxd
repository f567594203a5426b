# cython: language_level=3
"""The board every kernel shares: layout, constants, rule sets, outcome
kinds, the single-call play record, and the bit-mask helpers.

Header only (types, enums and inline functions; no module at run time), so
every kernel module that cimports from here compiles these helpers in and
the C compiler can inline them into its hot loops.

A position inside the kernels is a :c:type:`Board`: the two rows of the
interchange layout, row ``me`` = the side to move, row ``opp`` = its opponent,
each in its own numbering (0 = borne off, 1..24 = points, 25 = bar).

Why it is fast: a row is 26 bytes, so two overlapping 16-byte SSE2 loads
compare a whole row at once (``row_gt``, ``row_eq``, ``row_sum``); the
masks of points the mover occupies, holds twice, or may land on are then
plain 32-bit integers (bit p = point p), which the search and the
closed-form shortcuts combine with shifts and popcounts.
"""
from libc.stdint cimport uint32_t
from libc.string cimport memcpy

cdef enum:
    OFF = 0
    BAR = 25
    PLACES = 26
    STONES = 15
    HOME_TOP = 6            # points 1..6 are home
    MAX_STEPS = 4
    POINT_BITS = 0x1FFFFFE  # bits 1..24

# The record of one play in a single-call result (what api.py decodes): the
# board (52 bytes, row me then row opp), the number of steps, padding, then
# one (origin, target, die, hit) group of bytes per step.
cdef enum:
    RECORD_BOARD = 0
    RECORD_NSTEPS = 52
    RECORD_STEPS = 56
    RECORD_STEP_BYTES = 4
    RECORD_BYTES = RECORD_STEPS + MAX_STEPS * RECORD_STEP_BYTES

# What every kernel entry point reports about an item, instead of a result:
# a count or a flag >= 0 is a result, a Status < 0 a problem, which the
# Python layer turns into its typed error in one place
# (``bansugoroku_fast.checks.status_error``; ``_batch.STATUS`` names them).
cdef enum Status:
    STATUS_OK = 0
    STATUS_BOTH_WON = -1            # both rows satisfy a win: no game reaches it
    STATUS_NO_MEMORY = -2
    STATUS_INVALID_POSITION = -3    # not a valid position (what is wrong: _validate)
    STATUS_BORNE_OFF = -4           # stones borne off although the rules never bear off
    STATUS_INVALID_DICE = -5        # a die outside 1..6
    STATUS_CHANGED = -6             # the input changed between two passes over it

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

cdef enum:
    RULE_CODES = 16       # rule codes are 0..15 (4 bits); rules.py derives them


cdef inline RuleSet rules_from_code(int code) noexcept nogil:
    """The rule set of a rule code (``Rules.code``): bit 0 bear-off finish,
    bits 1-2 the closure (0 off, 1 multiplied, 2 immediate), bit 3 backgammon."""
    cdef RuleSet rules
    rules.bears_off = code & 1
    rules.closure = (code >> 1) & 3
    rules.backgammon = (code >> 3) & 1
    rules.doubles_moves = 4 if rules.backgammon else 2
    rules.win_stops = not rules.backgammon
    return rules


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


cdef extern from *:
    """
    /* Portable popcount and highest set bit: the build does not assume
       -mpopcnt, and a library call per count would cost more than this. */
    static inline int bsf_popcount(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    }
    static inline int bsf_highest_bit(unsigned int x) { return 31 - __builtin_clz(x); }
    """
    int popcount "bsf_popcount"(unsigned int) noexcept nogil
    int highest_bit "bsf_highest_bit"(unsigned int) noexcept nogil   # x != 0


cdef inline void board_masks(const Board* board, uint32_t* occupied, uint32_t* open_points) noexcept nogil:
    """Bit p (1..24, mover numbering): the mover has a stone on p; the
    opponent does not block p (fewer than 2 stones)."""
    occupied[0] = row_gt(board.me, 0) & POINT_BITS
    open_points[0] = ~flip26(row_gt(board.opp, 1)) & POINT_BITS


cdef inline void board_more_masks(const Board* board, uint32_t* multi, uint32_t* blots) noexcept nogil:
    """Bit p: the mover has two or more on p; the opponent has one stone on p."""
    multi[0] = row_gt(board.me, 1) & POINT_BITS
    blots[0] = flip26(row_eq(board.opp, 1)) & POINT_BITS


cdef inline int count_outside(const Board* board) noexcept nogil:
    """Mover stones on points 7..24 and the bar."""
    cdef int place, total = 0
    for place in range(HOME_TOP + 1, BAR + 1):
        total += board.me[place]
    return total


cdef inline bint home_closed(const signed char* own, const signed char* other) noexcept nogil:
    """``own`` holds each of its points 1..6 with two or more while ``other``
    has a stone on the bar (the closure of RULES.md)."""
    return (other[BAR] >= 1 and own[1] >= 2 and own[2] >= 2 and own[3] >= 2
            and own[4] >= 2 and own[5] >= 2 and own[6] >= 2)


cdef inline bint looks_valid(const signed char* rows) noexcept nogil:
    """Whether ``rows`` (2 x 26, row-major) is a valid position: no negative
    count, 15 stones a row, no point held by both sides (``_validate`` says
    what is wrong). Branch-free on bit masks: a few ns."""
    cdef const signed char* other = rows + PLACES
    if row_gt(rows, -1) & row_gt(other, -1) != (1 << PLACES) - 1:
        return False        # a negative count (row_sum needs none)
    return (row_sum(rows) == STONES and row_sum(other) == STONES
            and (row_gt(rows, 0) & flip26(row_gt(other, 0)) & POINT_BITS) == 0)


cdef inline int load_item(Board* board, const signed char* rows, RuleSet rules) noexcept nogil:
    """Copy the position at ``rows`` (2 x 26, caller memory) to ``board``
    (memory the call owns) and check the copy: STATUS_OK, or what is wrong
    with it. The kernels read only the copy, so caller memory that changes
    meanwhile (another thread) cannot reach them unchecked."""
    memcpy(board, rows, sizeof(Board))
    if not looks_valid(<const signed char*> board):
        return STATUS_INVALID_POSITION
    if not rules.bears_off and (board.me[OFF] or board.opp[OFF]):
        return STATUS_BORNE_OFF
    return STATUS_OK


cdef inline int dice_status(int a, int b) noexcept nogil:
    """STATUS_OK for a roll of two dice in 1..6, else STATUS_INVALID_DICE
    (check the copies the kernel goes on with, not caller memory)."""
    if a < 1 or a > 6 or b < 1 or b > 6:
        return STATUS_INVALID_DICE
    return STATUS_OK
