/* The board's bit masks, C for _board.pxd (which declares them for Cython):
 * the masks of a row, population counts and bit scans, and the one pass
 * over a position's 52 bytes that gives every mask the kernels read.
 * Header only (static inline): each kernel module compiles them with its
 * own flags and inlines them into its own loops. */
#ifndef BSF_BOARD_H
#define BSF_BOARD_H

#include "bsf_cpu.h"
#include "bsf_portable.h"
#if defined(BSF_SSE2)
#include <emmintrin.h>
#endif

/* Bit masks of one 26-byte row of a board (bit i = place i), SSE2 where
   there is SSE2 (x86-64 always): two overlapping 16-byte loads that stay
   inside the row, compared byte-wise at once, replace a 26-step loop.
   bsf_row_cmp: bit i = row[i] == k (equal) or row[i] > k; ``equal`` is
   a constant at every call, so each inlined copy keeps one comparison. */
#if defined(BSF_SSE2)
static inline unsigned int bsf_row_cmp(const signed char* row, int k, int equal) {
    __m128i kk = _mm_set1_epi8((char) k);
    __m128i lo = _mm_loadu_si128((const __m128i*) row);
    __m128i hi = _mm_loadu_si128((const __m128i*) (row + 10));
    lo = equal ? _mm_cmpeq_epi8(lo, kk) : _mm_cmpgt_epi8(lo, kk);
    hi = equal ? _mm_cmpeq_epi8(hi, kk) : _mm_cmpgt_epi8(hi, kk);
    return (unsigned int) _mm_movemask_epi8(lo)
         | ((unsigned int) _mm_movemask_epi8(hi) << 10);
}
#else
static inline unsigned int bsf_row_cmp(const signed char* row, int k, int equal) {
    unsigned int bits = 0;
    for (int i = 0; i < 26; i++)
        bits |= (unsigned int) (equal ? row[i] == k : row[i] > k) << i;
    return bits;
}
#endif
static inline unsigned int bsf_row_gt(const signed char* row, int k) {
    return bsf_row_cmp(row, k, 0);
}
static inline unsigned int bsf_row_eq(const signed char* row, int k) {
    return bsf_row_cmp(row, k, 1);
}

/* Population counts. The build does not assume -mpopcnt (no -march),
   and the portable bit-twiddling count is a chain of a dozen dependent
   instructions; where the kernels count most (the masks of a board's
   places, bits 0..25) two look-ups in a table of the counts of 13-bit
   numbers (8 KB, built by the preprocessor) take five independent ones.
   Built with -mpopcnt, both are the hardware instruction. A module built
   with BSF_POPCOUNT_BUILTIN (setup.py: _batch) counts places by the
   compiler's builtin where it has AVX2 copies (bsf_cpu.h): the instruction
   in those copies, a call into libgcc in its baseline code (slower than
   the table: the price of one mechanism, docs/architecture.md). */
#define BSF_B2(n) n, n + 1, n + 1, n + 2
#define BSF_B4(n) BSF_B2(n), BSF_B2(n + 1), BSF_B2(n + 1), BSF_B2(n + 2)
#define BSF_B6(n) BSF_B4(n), BSF_B4(n + 1), BSF_B4(n + 1), BSF_B4(n + 2)
#define BSF_B8(n) BSF_B6(n), BSF_B6(n + 1), BSF_B6(n + 1), BSF_B6(n + 2)
#define BSF_B10(n) BSF_B8(n), BSF_B8(n + 1), BSF_B8(n + 1), BSF_B8(n + 2)
#define BSF_B12(n) BSF_B10(n), BSF_B10(n + 1), BSF_B10(n + 1), BSF_B10(n + 2)
static const unsigned char bsf_bits_13[1 << 13] = { BSF_B12(0), BSF_B12(1) };
static inline int bsf_popcount(unsigned int x) {
#if defined(__POPCNT__)
    return bsf_popcount32(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
#endif
}
/* x < 2**26: a mask of places. */
static inline int bsf_popcount_places(unsigned int x) {
#if defined(__POPCNT__) || (defined(BSF_POPCOUNT_BUILTIN) && BSF_AVX2_COPIES)
    return bsf_popcount32(x);
#else
    return bsf_bits_13[x & 0x1FFFu] + bsf_bits_13[x >> 13];
#endif
}
static inline int bsf_highest_bit(unsigned int x) { return 31 - bsf_clz32(x); }
static inline int bsf_lowest_bit(unsigned int x) { return bsf_ctz32(x); }

/* One pass over a position's 52 bytes: every bit mask the kernels and
   the checks read, and whether the counts add up (see Scan in _board.pxd). Each row
   is read as two overlapping 16-byte loads (bytes 0..15 and 10..25),
   bytes 0..9 taken from the first and 10..25 from the second, so every
   mask, sum and copied byte comes from the same read of each byte even
   if the memory changes meanwhile. The opponent's row is byte-reversed
   in registers (SSE2 shuffles), so its masks come out in the mover's
   numbering (bit p = the opponent's place 25 - p) with no bit reversal. */
typedef struct {
    unsigned int me_any, me_multi;
    unsigned int opp_any, opp_multi, opp_blot;
    int counts_ok;
} bsf_scan;
#if defined(BSF_SSE2)
static inline __m128i bsf_reverse_bytes(__m128i v) {
    v = _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3));
    v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
    v = _mm_shufflehi_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
    return _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
}
/* Bytes 0..9 of lo and all of hi (= row bytes 10..25) as a 26-bit mask. */
static inline unsigned int bsf_join(__m128i lo, __m128i hi) {
    return ((unsigned int) _mm_movemask_epi8(lo) & 0x3FFu) | ((unsigned int) _mm_movemask_epi8(hi) << 10);
}
/* The same of a reversed row: hi reversed gives places 0..15, lo
   reversed (its bytes 0..9) places 16..25. */
static inline unsigned int bsf_join_reversed(__m128i rlo, __m128i rhi) {
    return ((unsigned int) _mm_movemask_epi8(rhi)) | (((unsigned int) _mm_movemask_epi8(rlo) >> 6) << 16);
}
/* No count below 0 and 15 stones in each row, from each row's first
   load (bytes 0..9 kept by ``head``) and second load. With no byte
   below 0 (each at most 127), two bytes add without overflow, so one
   byte-wise add and one sum of absolute differences give a row's sum. */
static inline int bsf_counts_ok(__m128i me_lo, __m128i me_hi, __m128i opp_lo, __m128i opp_hi) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i head = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0);
    __m128i me_head = _mm_and_si128(me_lo, head), opp_head = _mm_and_si128(opp_lo, head);
    int signs = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(me_head, me_hi), _mm_or_si128(opp_head, opp_hi)));
    __m128i me_sums = _mm_sad_epu8(_mm_add_epi8(me_head, me_hi), zero);
    __m128i opp_sums = _mm_sad_epu8(_mm_add_epi8(opp_head, opp_hi), zero);
    __m128i sums = _mm_add_epi64(_mm_unpacklo_epi64(me_sums, opp_sums), _mm_unpackhi_epi64(me_sums, opp_sums));
    __m128i fifteen = _mm_set_epi32(0, 15, 0, 15);      /* opp_sum, me_sum as 64-bit lanes */
    return (signs == 0) & (_mm_movemask_epi8(_mm_cmpeq_epi32(sums, fifteen)) == 0xFFFF);
}
static inline void bsf_scan_rows(const signed char* rows, bsf_scan* scan, signed char* copy) {
    const __m128i one = _mm_set1_epi8(1), zero = _mm_setzero_si128();
    __m128i me_lo = _mm_loadu_si128((const __m128i*) rows);
    __m128i me_hi = _mm_loadu_si128((const __m128i*) (rows + 10));
    __m128i opp_lo = _mm_loadu_si128((const __m128i*) (rows + 26));
    __m128i opp_hi = _mm_loadu_si128((const __m128i*) (rows + 36));
    if (copy != NULL) {     /* in this order: the later load's bytes win */
        _mm_storeu_si128((__m128i*) copy, me_lo);
        _mm_storeu_si128((__m128i*) (copy + 10), me_hi);
        _mm_storeu_si128((__m128i*) (copy + 26), opp_lo);
        _mm_storeu_si128((__m128i*) (copy + 36), opp_hi);
    }
    scan->counts_ok = bsf_counts_ok(me_lo, me_hi, opp_lo, opp_hi);
    scan->me_any = bsf_join(_mm_cmpgt_epi8(me_lo, zero), _mm_cmpgt_epi8(me_hi, zero));
    scan->me_multi = bsf_join(_mm_cmpgt_epi8(me_lo, one), _mm_cmpgt_epi8(me_hi, one));
    __m128i rlo = bsf_reverse_bytes(opp_lo), rhi = bsf_reverse_bytes(opp_hi);
    scan->opp_multi = bsf_join_reversed(_mm_cmpgt_epi8(rlo, one), _mm_cmpgt_epi8(rhi, one));
    scan->opp_blot = bsf_join_reversed(_mm_cmpeq_epi8(rlo, one), _mm_cmpeq_epi8(rhi, one));
    scan->opp_any = scan->opp_multi | scan->opp_blot;     /* above 1, or 1 */
}
#else
static inline void bsf_scan_rows(const signed char* rows, bsf_scan* scan, signed char* copy) {
    signed char row[52];
    int i;
    for (i = 0; i < 52; i++) row[i] = rows[i];     /* one read of each byte */
    if (copy != NULL)
        for (i = 0; i < 52; i++) copy[i] = row[i];
    int negative = 0, me_sum = 0, opp_sum = 0;
    scan->me_any = scan->me_multi = scan->opp_any = scan->opp_multi = scan->opp_blot = 0;
    for (i = 0; i < 26; i++) {
        signed char mine = row[i], theirs = row[26 + 25 - i];
        negative |= mine < 0 || theirs < 0;
        scan->me_any |= (unsigned int) (mine > 0) << i;
        scan->me_multi |= (unsigned int) (mine > 1) << i;
        scan->opp_any |= (unsigned int) (theirs > 0) << i;
        scan->opp_multi |= (unsigned int) (theirs > 1) << i;
        scan->opp_blot |= (unsigned int) (theirs == 1) << i;
        me_sum += mine;
        opp_sum += theirs;
    }
    scan->counts_ok = !negative && me_sum == 15 && opp_sum == 15;
}
#endif

#endif
