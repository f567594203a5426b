/* Writing a turn search's output rows, C for _search.pxd (which declares
 * them for Cython): the children of a position, and their steps, dice and
 * hits, a row per play. Header only (static inline). */
#ifndef BSF_ROWS_H
#define BSF_ROWS_H

#include <stdint.h>
#include <string.h>

#include "bsf_portable.h"
#if defined(BSF_SSE2)
#include <emmintrin.h>
#endif

/* The step fields are written as packed integers (byte k of a field =
   step k), which assumes the byte order of every target we build for. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "bansugoroku_fast packs step bytes little-endian"
#endif

/* A board (row me then row opp) held for writing many rows from it:
   in four registers where there is SSE2. */
#if defined(BSF_SSE2)
typedef struct { __m128i part0, part1, part2, part3; } bsf_held;
static inline void bsf_hold(bsf_held* held, const signed char* board) {
    held->part0 = _mm_loadu_si128((const __m128i*) board);
    held->part1 = _mm_loadu_si128((const __m128i*) (board + 16));
    held->part2 = _mm_loadu_si128((const __m128i*) (board + 32));
    held->part3 = _mm_loadu_si128((const __m128i*) (board + 36));
}
static inline void bsf_store_held(signed char* out, const bsf_held* held) {
    _mm_storeu_si128((__m128i*) out, held->part0);
    _mm_storeu_si128((__m128i*) (out + 16), held->part1);
    _mm_storeu_si128((__m128i*) (out + 32), held->part2);
    _mm_storeu_si128((__m128i*) (out + 36), held->part3);
}
#else
typedef struct { const signed char* board; } bsf_held;
static inline void bsf_hold(bsf_held* held, const signed char* board) { held->board = board; }
static inline void bsf_store_held(signed char* out, const bsf_held* held) { memcpy(out, held->board, 52); }
#endif
/* The row ``out`` = ``middle`` (held in ``held``) with one more move of
   a mover stone from ``origin`` to ``target`` (a point, or 0: off),
   hitting the blot there if ``hit``: the board stored whole, then the
   four changed bytes computed from ``middle`` (the row is only written,
   never read back). */
static inline void bsf_write_child(signed char* restrict out, const bsf_held* held,
                                   const signed char* restrict middle, int origin, int target, uint32_t hit) {
    bsf_store_held(out, held);
    out[origin] = (signed char) (middle[origin] - 1);
    out[target] = (signed char) (middle[target] + 1);
    out[26 + 25 - target] = (signed char) (middle[26 + 25 - target] - (int) hit);
    out[26 + 25] = (signed char) (middle[26 + 25] + (int) hit);
}
/* The next move of a row loop: its origin (the greatest of ``origins``,
   taken out of them) and target with ``die`` (0, off, for a larger die
   bearing off). */
static inline void bsf_next_move(uint32_t* origins, int die, int* origin, int* target) {
    *origin = 31 - bsf_clz32(*origins);
    *origins ^= (uint32_t) 1 << *origin;
    *target = *origin - die < 0 ? 0 : *origin - die;
}
/* The row after a loop stopped by the room: the moves left are counted
   as rows, not written (so that the caller sees the disagreement). */
static inline int64_t bsf_past_room(int64_t row, uint32_t origins_left) {
    for (; origins_left; origins_left &= origins_left - 1)
        row++;
    return row;
}
/* Output rows row, row + 1, ... of ``children`` (while below ``room``;
   the rows past it are counted, not written) = ``middle`` with one more
   move with ``die``, from each of ``origins`` in turn, greatest first,
   to a point or off (a target below 0: a larger die bearing off),
   hitting where ``blots`` (bits 1..24) has the target's bit: the next
   row. */
static inline int64_t bsf_write_children(signed char* restrict children, int64_t row, int64_t room,
                                         const signed char* restrict middle, uint32_t origins, int die,
                                         uint32_t blots) {
    bsf_held held;
    bsf_hold(&held, middle);
    int origin, target;
    for (; origins && row < room; row++) {
        bsf_next_move(&origins, die, &origin, &target);
        bsf_write_child(children + row * 52, &held, middle, origin, target, (blots >> target) & 1);
    }
    return bsf_past_room(row, origins);
}
/* bsf_write_children with the rows' steps, dice and hits too (each
   NULL if not wanted), in the same loop: the row's move is step
   ``step`` (0..3) of its play, after the steps packed in
   ``earlier_pairs`` (bytes 2k, 2k + 1: origin and target of step k),
   ``earlier_dice`` and ``earlier_hits`` (byte k: step k's); the bytes
   past the move padded (-1, hits 0). One store per wanted field. */
static inline int64_t bsf_write_move_rows(signed char* restrict children, signed char* restrict steps,
                                          signed char* restrict dice, unsigned char* restrict hits,
                                          int64_t row, int64_t room, const signed char* restrict middle,
                                          uint32_t origins, int die, uint32_t blots, int step,
                                          uint64_t earlier_pairs, uint32_t earlier_dice,
                                          uint32_t earlier_hits) {
    int pair_shift = 16 * step, byte_shift = 8 * step;
    uint64_t pair_padding = step == 3 ? 0 : ~0ull << (pair_shift + 16);
    uint32_t byte_padding = step == 3 ? 0 : ~0u << (byte_shift + 8);
    uint32_t all_dice = earlier_dice | (uint32_t) (uint8_t) die << byte_shift | byte_padding;
    bsf_held held;
    bsf_hold(&held, middle);
    int origin, target;
    for (; origins && row < room; row++) {
        bsf_next_move(&origins, die, &origin, &target);
        uint32_t hit = (blots >> target) & 1;
        bsf_write_child(children + row * 52, &held, middle, origin, target, hit);
        uint64_t pairs = earlier_pairs | (uint64_t) ((uint32_t) origin | (uint32_t) target << 8) << pair_shift
                         | pair_padding;
        uint32_t all_hits = earlier_hits | hit << byte_shift;
        if (steps != NULL)
            memcpy(steps + row * 8, &pairs, 8);
        if (dice != NULL)
            memcpy(dice + row * 4, &all_dice, 4);
        if (hits != NULL)
            memcpy(hits + row * 4, &all_hits, 4);
    }
    return bsf_past_room(row, origins);
}

#endif
