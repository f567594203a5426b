/* The forward pass of a network over positions in the interchange layout
   (bansugoroku_fast.evaluate): encoding and layers in one pass, float32.

   Header only (static inline), so that every kernel module that includes it
   through _net.pxd compiles the loops with its own flags and can inline
   them into its own hot loops.

   Why it is fast: the first layer never builds the 198 input units. Of a
   point's four units, the first three are 0/1 thresholds on its count, so
   the first layer's contribution of a point holding n stones is one
   precomputed row, the sum of the weight rows of the thresholds n passes
   (bsf_net.point_rows[row][point][min(n, 3) - 1]), plus (n - 3) times the
   fourth unit's row (halved in advance) beyond three stones. Bar and
   borne-off units have their rows scaled in advance too, the constant turn
   units are folded into the bias, and a "raw198+features" network reads
   the features as integers with its rows divided by their scales in
   advance; features linear in these units (pips, counts of stones, blots
   and made points, ...) are folded into the board's rows by the model
   (bansugoroku_fast.evaluators.kernel_arrays), so only the others
   (feature_mask) are read. A position is about 20 row additions of H
   floats where the dense product is 198 multiply-adds per unit. The hidden activations
   (a polynomial exp, branch-free) and the remaining dense layers are
   plain loops over H that the compiler vectorises; on GCC for x86-64 the
   entry points are compiled twice (BSF_NET_TWICE: for AVX2 and the
   baseline) and run as the probe of bsf_cpu.h says. */
#ifndef BSF_NET_H
#define BSF_NET_H

#include <stdint.h>
#include <string.h>

#include "bsf_cpu.h"
#include "bsf_portable.h"

#define BSF_NET_OUTPUTS 5
#define BSF_NET_POINTS 24
#define BSF_NET_MAX_HIDDEN 4096

/* Exact networks (bsf_net.exact): their first layer's arrays are integers
   in units of 1 / BSF_NET_EXACT_FIRST, their output weights in units of
   1 / BSF_NET_EXACT_OUT. */
#define BSF_NET_EXACT_FIRST 256.0f
#define BSF_NET_EXACT_OUT 1024.0f

typedef struct {
    int hidden1;                 /* units of the first hidden layer */
    int hidden2;                 /* units of the second, 0 with one hidden layer */
    int relu;                    /* hidden activation: 1 ReLU, 0 sigmoid */
    int features;                /* integer features given per position (0 or 28) */
    uint64_t feature_mask;       /* bit f set: feature f's row is added (the others are folded, their rows 0) */
    const float* point_rows;     /* [2][24][3][hidden1]: rows of n >= 1, n >= 2, n >= 3 summed */
    /* an exact network's threshold_rows, excess_rows, bar_rows, off_rows
       and feature_rows lie in that order in one array, so that its int16
       copy, rows16, has each row at the same index (Model makes them so) */
    const float* threshold_rows; /* [2][24][3][hidden1]: the rows of n >= 1, n >= 2, n >= 3 one by one */
    const float* excess_rows;    /* [2][24][hidden1]: the fourth unit's row / 2 */
    const float* bar_rows;       /* [2][hidden1]: the bar unit's row / 2 */
    const float* off_rows;       /* [2][hidden1]: the borne-off unit's row / 15 */
    const float* feature_rows;   /* [features][hidden1]: each feature's row / its scale */
    const float* bias1;          /* [hidden1]: bias + the turn units' rows */
    const float* weights2;       /* [hidden1][hidden2] */
    const float* bias2;          /* [hidden2] */
    const float* out_weights;    /* [5][last hidden]: transposed, a dot product per output */
    const float* out_bias;       /* [5] */
    /* made by bsf_net_prepare from the arrays above: */
    const float* step_rows[52][4]; /* byte at of a board going from n to n + 1 stones, n = 0, 1, 2, >= 3: its row */
    float out_bias8[8];          /* out_bias, then three zeros */
    /* An exact network (exact = 1): one hidden layer of ReLU units, a
       multiple of sixteen, whose first layer's arrays times
       BSF_NET_EXACT_FIRST are integers, as are its output weights times
       BSF_NET_EXACT_OUT, and whose first layer's sums lie within int16 on
       every position (evaluators/kernel_arrays.py checks all of it). Its
       children's sums are made in 16-bit integers, sixteen units to a
       vector: the same values as the float sums, but for float32's
       rounding of the weights. */
    int exact;
    const int16_t* rows16;       /* the rows from threshold_rows to feature_rows's end, times the scale */
    const int16_t* out16;        /* [5][hidden1]: out_weights times BSF_NET_EXACT_OUT */
    const int16_t* point16;      /* point_rows times the scale */
    const int16_t* bias16;       /* bias1 times the scale */
    int avx2;                    /* made by bsf_net_prepare: the CPU has AVX2 (bsf_net_exact_children_avx2) */
    int vnni;                    /* and AVX-512 VNNI on 256-bit vectors (bsf_net_exact_children_vnni) */
    /* made by bsf_net_prepare for an exact network: */
    const int16_t* step16[52][4]; /* step_rows's rows in rows16 */
    int read_features;           /* the features of feature_mask: how many, */
    int read_slots[64];          /* their slots, */
    const int16_t* read_rows16[64]; /* and their rows in rows16 */
    /* its places' rows at each count where bsf_net_places_size is not 0
       (bsf_net_fill_places), NULL elsewhere */
    const int16_t* place16;
    /* Not NULL: the exact endgame tables (a RaceTables of _tables.pxd,
       which this header does not read): a position both of whose sides
       they cover is scored from them instead of the layers (_net.pyx,
       table_probabilities). */
    const void* race_tables;
    /* Not NULL: the race network (a prepared bsf_net of the same
       features), which scores every position without contact that the
       tables do not (_net.pyx, handed_over). */
    const void* race;
} bsf_net;

/* The exact networks' children in AVX2, or AVX2 with AVX-512 VNNI, where
   the CPU has it, chosen when the network is prepared (BSF_NET_NO_AVX2:
   neither, BSF_NET_NO_VNNI: AVX2 alone, so that a test can compare the
   three paths). */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(BSF_NET_NO_AVX2)
#define BSF_NET_EXACT_AVX2 1
#include <immintrin.h>
#else
#define BSF_NET_EXACT_AVX2 0
#endif
#if BSF_NET_EXACT_AVX2 && !defined(BSF_NET_NO_VNNI)
#define BSF_NET_EXACT_VNNI 1
#else
#define BSF_NET_EXACT_VNNI 0
#endif

/* An exact network's row in rows16 of a float row of it. */
#define BSF_NET_ROW16(net, row) ((net)->rows16 + ((row) - (net)->threshold_rows))

/* Fills the fields made from the arrays (call once the arrays are set). A
   point's step from n to n + 1 stones adds the row of threshold n (n < 3)
   or the fourth unit's row (per stone); the bar and borne-off counts add
   their rows per stone at any count. */
static inline void bsf_net_prepare(bsf_net* net) {
    const int64_t n1 = net->hidden1;
    for (int at = 0; at < 52; at++) {
        int row = at >= 26, place = at - 26 * row;
        for (int n = 0; n < 4; n++) {
            if (place == 0) net->step_rows[at][n] = net->off_rows + row * n1;
            else if (place == 25) net->step_rows[at][n] = net->bar_rows + row * n1;
            else if (n < 3) net->step_rows[at][n] = net->threshold_rows + (((int64_t) row * BSF_NET_POINTS + place - 1) * 3 + n) * n1;
            else net->step_rows[at][n] = net->excess_rows + ((int64_t) row * BSF_NET_POINTS + place - 1) * n1;
        }
    }
    for (int k = 0; k < 8; k++) net->out_bias8[k] = k < BSF_NET_OUTPUTS ? net->out_bias[k] : 0.0f;
    if (!net->exact) return;
#if BSF_NET_EXACT_AVX2
    net->avx2 = bsf_cpu_avx2();
#endif
#if BSF_NET_EXACT_VNNI
    net->vnni = net->avx2 && bsf_cpu_has_vnni();
#endif
    for (int at = 0; at < 52; at++)
        for (int n = 0; n < 4; n++) net->step16[at][n] = BSF_NET_ROW16(net, net->step_rows[at][n]);
    net->read_features = 0;
    for (int f = 0; f < 64; f++) {
        if (!((net->feature_mask >> f) & 1)) continue;
        net->read_slots[net->read_features] = f;
        net->read_rows16[net->read_features++] = BSF_NET_ROW16(net, net->feature_rows) + f * n1;
    }
}

/* Units of an exact network's block: sixteen to a vector, eight vectors. */
#define BSF_NET_EXACT_BLOCK 128
/* The counts of stones a place holds: 0 .. 15. */
#define BSF_NET_COUNTS 16

/* The int16 values of a prepared network's place table: 52 bytes of a
   board, BSF_NET_COUNTS counts, hidden1 units, where its children read it
   (an exact network of one block, on a CPU with the vector paths); 0
   elsewhere, and no table. */
static inline int64_t bsf_net_places_size(const bsf_net* net) {
    return net->exact && net->avx2 && net->hidden1 == BSF_NET_EXACT_BLOCK
        ? 52 * BSF_NET_COUNTS * (int64_t) net->hidden1 : 0;
}

/* Fills a prepared network's place table (bsf_net_places_size values):
   row (at, n) is what byte at of a board at n stones adds to the first
   layer's sums, its steps from 0 to n summed (the thresholds passed, the
   fourth unit's row per stone past three; the bar's and borne-off rows per
   stone), in int16 that wraps. A child's sums are then its parent's plus,
   at each byte that changed, the row at the child's count minus the row at
   the parent's: whatever the change, one subtraction and one addition, and
   the same integers as adding the steps, since int16 sums wrap alike in any
   order. */
static inline void bsf_net_fill_places(bsf_net* net, int16_t* place16) {
    const int64_t n1 = net->hidden1;
    for (int at = 0; at < 52; at++) {
        int16_t* none = place16 + (int64_t) at * BSF_NET_COUNTS * n1;    /* the row at 0 stones */
        memset(none, 0, sizeof(int16_t) * (size_t) n1);
        for (int n = 1; n < BSF_NET_COUNTS; n++) {
            const int16_t* below = none + (n - 1) * n1;
            const int16_t* step = net->step16[at][n - 1 < 3 ? n - 1 : 3];    /* from n - 1 stones to n */
            int16_t* row = none + n * n1;
            for (int64_t u = 0; u < n1; u++) row[u] = (int16_t) (uint16_t) ((uint16_t) below[u] + (uint16_t) step[u]);
        }
    }
    net->place16 = place16;
}

/* Floats of scratch one position needs: both hidden layers. */
static inline int64_t bsf_net_scratch(const bsf_net* net) {
    int64_t own = (int64_t) net->hidden1 + net->hidden2;
    int64_t race = net->race ? bsf_net_scratch((const bsf_net*) net->race) : 0;
    return own > race ? own : race;
}

/* The loops are inlined into each caller (the AVX2 clone included, which
   then compiles them for AVX2). */
#if defined(__GNUC__) || defined(__clang__)
#define BSF_NET_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define BSF_NET_INLINE static __forceinline
#else
#define BSF_NET_INLINE static inline
#endif

#if defined(__GNUC__) || defined(__clang__)
#define BSF_NET_UNUSED __attribute__((unused))
#else
#define BSF_NET_UNUSED
#endif

/* BSF_NET_TWICE(name, (parameters), (arguments)) defines the entry point
   name, which runs name##_any's body compiled for AVX2 where the CPU has
   what the AVX2 copies use (bsf_cpu_avx2, the one probe), else compiled
   for the baseline: the copies' target attribute (BSF_AVX2_TARGET) on a
   copy the body is inlined into. BSF_NET_NO_CLONES: one build for the flags given
   (tests/net_builds.c compiles each instruction set alone to compare
   them). */
#if BSF_AVX2_COPIES && !defined(BSF_NET_NO_CLONES)
#define BSF_NET_TWICE(name, parameters, arguments)                                                 \
    BSF_AVX2_TARGET __attribute__((noinline, unused)) static void name##_avx2 parameters {          \
        name##_any arguments;                                                                      \
    }                                                                                              \
    __attribute__((noinline, unused)) static void name##_baseline parameters { name##_any arguments; } \
    __attribute__((unused)) static void name parameters {                                          \
        if (bsf_cpu_avx2()) name##_avx2 arguments;                                                 \
        else name##_baseline arguments;                                                            \
    }
#else
#define BSF_NET_TWICE(name, parameters, arguments) \
    BSF_NET_UNUSED static void name parameters { name##_any arguments; }
#endif

BSF_NET_INLINE void bsf_net_add(float* restrict h, const float* restrict w, int n) {
    for (int j = 0; j < n; j++) h[j] += w[j];
}

BSF_NET_INLINE void bsf_net_axpy(float* restrict h, float a, const float* restrict w, int n) {
    for (int j = 0; j < n; j++) h[j] += a * w[j];
}

/* The logistic function 1 / (1 + exp(-x)) to within 1e-7, written so that
   GCC vectorises a loop over it without -ffast-math: no float comparison
   and no float-to-int conversion (either may trap, and GCC keeps a loop
   whose statements may trap scalar). e = exp(-|x|) with |x| capped at 87
   by an integer minimum on its bits (non-negative floats order as their
   bits); exp by Cephes' single-precision polynomial (about 1 ulp), t / ln 2
   rounded to the nearest integer n by adding 1.5 * 2^23 (whose low
   mantissa bits then hold n) and 2^n built in the exponent bits; then
   1 / (1 + e) for x >= 0 and e / (1 + e) for x < 0, chosen by a mask made
   of x's sign bit. */
typedef union { float value; int32_t bits; } bsf_net_bits;

/* The exp(t) of t <= 0 (t = -|x|, capped) but for its factor 2^n:
   declares ``rounded`` (n in its low mantissa bits) and ``y`` (the
   polynomial of the remainder), of type T: a float or a vector of floats,
   the same operations for both. */
#define BSF_NET_EXP_PARTS(T, t, rounded, y)                          \
    T rounded = (t) * 1.44269504088896341f + 12582912.0f;            \
    T y;                                                             \
    {                                                                \
        T n_ = rounded - 12582912.0f;                                \
        T r_ = (t) - n_ * 0.693359375f;                              \
        r_ = r_ - n_ * -2.12194440e-4f;                              \
        y = r_ * 1.9875691500e-4f + 1.3981999507e-3f;                \
        y = y * r_ + 8.3334519073e-3f;                               \
        y = y * r_ + 4.1665795894e-2f;                               \
        y = y * r_ + 1.6666665459e-1f;                               \
        y = y * r_ + 5.0000001201e-1f;                               \
        y = y * (r_ * r_) + r_ + 1.0f;                               \
    }

BSF_NET_INLINE float bsf_net_sigmoid(float x) {
    bsf_net_bits in, size, rounded, scale, positive, negative, out;
    in.value = x;
    size.bits = in.bits & 0x7FFFFFFF;
    size.bits = size.bits < 0x42AE0000 ? size.bits : 0x42AE0000;     /* 87.0f */
    BSF_NET_EXP_PARTS(float, -size.value, rounded_value, y)
    rounded.value = rounded_value;
    scale.bits = (rounded.bits - 0x4B400000 + 127) << 23;
    float e = y * scale.value;
    positive.value = 1.0f / (1.0f + e);
    negative.value = e * positive.value;
    int32_t sign = in.bits >> 31;                                       /* all ones for x < 0 */
    out.bits = (positive.bits & ~sign) | (negative.bits & sign);
    return out.value;
}

/* max(x, 0) by the sign bit (-0 and negatives become +0). */
BSF_NET_INLINE float bsf_net_relu(float x) {
    bsf_net_bits in;
    in.value = x;
    in.bits &= ~(in.bits >> 31);
    return in.value;
}

#if defined(__GNUC__)
/* Vectors of eight floats and of eight int32 (two SSE2 registers each in
   the baseline build), loaded from and stored to any 4-byte-aligned
   address; four doubles. Functions take and give them through pointers
   (inlined, the values stay in registers): a vector passed by value would
   draw GCC's note on the AVX calling convention from builds without AVX. */
typedef float bsf_net_v8 __attribute__((vector_size(32), aligned(4)));
typedef int32_t bsf_net_i8 __attribute__((vector_size(32), aligned(4)));
typedef double bsf_net_d4 __attribute__((vector_size(32), aligned(8)));

/* mask ? a : b lane by lane (mask: a vector comparison's all ones or zeros). */
#define BSF_NET_PICK(mask, a, b) ((bsf_net_v8) ((((bsf_net_i8) (a)) & (mask)) | (((bsf_net_i8) (b)) & ~(mask))))
/* x in every lane */
#define BSF_NET_SPLAT(x) ((bsf_net_v8) {(x), (x), (x), (x), (x), (x), (x), (x)})

/* bsf_net_sigmoid of eight floats, in place: the same operations in the
   same order, so the same results to the bit, kept vectorised wherever it
   is inlined. */
BSF_NET_INLINE void bsf_net_sigmoid8(bsf_net_v8* x) {
    const bsf_net_i8 cap = {0x42AE0000, 0x42AE0000, 0x42AE0000, 0x42AE0000,
                            0x42AE0000, 0x42AE0000, 0x42AE0000, 0x42AE0000};
    bsf_net_i8 bits = (bsf_net_i8) *x;
    bsf_net_i8 size = bits & 0x7FFFFFFF;
    bsf_net_i8 below = size < cap;
    size = (size & below) | (cap & ~below);
    BSF_NET_EXP_PARTS(bsf_net_v8, -(bsf_net_v8) size, rounded, y)
    bsf_net_v8 scale = (bsf_net_v8) ((((bsf_net_i8) rounded) - 0x4B400000 + 127) << 23);
    bsf_net_v8 e = y * scale;
    bsf_net_v8 positive = 1.0f / (1.0f + e);
    bsf_net_v8 negative = e * positive;
    *x = BSF_NET_PICK(bits >> 31, negative, positive);    /* the sign bit: all ones for x < 0 */
}

/* Sums of neighbours, as haddps: [a0+a1, a2+a3, b0+b1, b2+b3, a4+a5, a6+a7, b4+b5, b6+b7]. */
typedef int32_t bsf_net_lanes __attribute__((vector_size(32)));
#define BSF_NET_HADD(a, b)                                                                    \
    (__builtin_shuffle((a), (b), (bsf_net_lanes) {0, 2, 8, 10, 4, 6, 12, 14})               \
     + __builtin_shuffle((a), (b), (bsf_net_lanes) {1, 3, 9, 11, 5, 7, 13, 15}))

/* *out = [the sum of o[0], ..., of o[4], 0, 0, 0], each the lanes' ((x0 +
   x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7)): one vector, no store. */
BSF_NET_INLINE void bsf_net_reduce5(const bsf_net_v8* o, bsf_net_v8* out) {
    const bsf_net_v8 zero = BSF_NET_SPLAT(0.0f);
    bsf_net_v8 first = BSF_NET_HADD(BSF_NET_HADD(o[0], o[1]), BSF_NET_HADD(o[2], o[3]));
    bsf_net_v8 last = BSF_NET_HADD(BSF_NET_HADD(o[4], zero), zero);
    *out = __builtin_shuffle(first, last, (bsf_net_lanes) {0, 1, 2, 3, 8, 9, 10, 11})
         + __builtin_shuffle(first, last, (bsf_net_lanes) {4, 5, 6, 7, 12, 13, 14, 15});
}

/* o[k] += h times output k's weights at units j .. j + 7, k = 0 .. 4
   (out_weights: [5][units]). */
BSF_NET_INLINE void bsf_net_output_step(bsf_net_v8* o, const bsf_net_v8* h, const float* out_weights, int64_t units,
                                        int j) {
    for (int k = 0; k < 5; k++) o[k] += *h * *(const bsf_net_v8*) (out_weights + k * units + j);
}

/* bsf_net_relu of eight floats, in place. */
BSF_NET_INLINE void bsf_net_relu8(bsf_net_v8* x) {
    bsf_net_i8 bits = (bsf_net_i8) *x;
    *x = (bsf_net_v8) (bits & ~(bits >> 31));
}
#endif

BSF_NET_INLINE void bsf_net_activate(float* restrict h, int n, int relu) {
    int j = 0;
    if (relu) {
        for (; j < n; j++) h[j] = bsf_net_relu(h[j]);
        return;
    }
#if defined(__GNUC__)
    for (; j + 8 <= n; j += 8) bsf_net_sigmoid8((bsf_net_v8*) (h + j));
#endif
    for (; j < n; j++) h[j] = bsf_net_sigmoid(h[j]);
}

#define BSF_NET_CTZ(x) bsf_ctz32(x)
#if defined(__GNUC__)
#define BSF_NET_CTZ64(x) __builtin_ctzll(x)
#else
BSF_NET_INLINE int BSF_NET_CTZ64(uint64_t x) {    /* x != 0 */
    int n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
}
#endif

/* Bit p (1..24) set where a row (26 bytes: 0 = off, 1..24 = points,
   25 = bar) holds more than k stones on point p: two overlapping 16-byte
   SSE2 comparisons where there is SSE2, else a loop. */
#if defined(BSF_SSE2)
#include <emmintrin.h>
BSF_NET_INLINE uint32_t bsf_net_row_above(const signed char* row, int k) {
    __m128i kk = _mm_set1_epi8((char) k);
    __m128i lo = _mm_cmpgt_epi8(_mm_loadu_si128((const __m128i*) row), kk);
    __m128i hi = _mm_cmpgt_epi8(_mm_loadu_si128((const __m128i*) (row + 10)), kk);
    uint32_t bits = (uint32_t) _mm_movemask_epi8(lo) | ((uint32_t) _mm_movemask_epi8(hi) << 10);
    return bits & 0x1FFFFFEu;
}
#else
BSF_NET_INLINE uint32_t bsf_net_row_above(const signed char* row, int k) {
    uint32_t bits = 0;
    for (int p = 1; p <= BSF_NET_POINTS; p++) bits |= (uint32_t) (row[p] > k) << p;
    return bits;
}
#endif

/* The first layer's sums for one position (52 bytes, row 0 then row 1,
   each 0 = off, 1..24 = points, 25 = bar) and its features (or NULL).
   The rows to add are listed first (rows added once, rows added times a
   count); then the sums are made BSF_NET_BLOCK units at a time, each block
   held in registers across all the rows (one load per row and block, no
   load and store of the sums per row). */
#define BSF_NET_BLOCK 32
#define BSF_NET_MAX_TERMS (2 * BSF_NET_POINTS + 4 + 64)

#if defined(__GNUC__)
BSF_NET_INLINE void bsf_net_block(float* restrict h, const float* restrict bias, const float* const* plain,
                                  int plains, const float* const* scaled, const float* counts, int scales,
                                  int offset) {
    bsf_net_v8 s0 = *(const bsf_net_v8*) (bias + offset), s1 = *(const bsf_net_v8*) (bias + offset + 8);
    bsf_net_v8 s2 = *(const bsf_net_v8*) (bias + offset + 16), s3 = *(const bsf_net_v8*) (bias + offset + 24);
    for (int t = 0; t < plains; t++) {
        const float* row = plain[t] + offset;
        s0 += *(const bsf_net_v8*) row;
        s1 += *(const bsf_net_v8*) (row + 8);
        s2 += *(const bsf_net_v8*) (row + 16);
        s3 += *(const bsf_net_v8*) (row + 24);
    }
    for (int t = 0; t < scales; t++) {
        const float* row = scaled[t] + offset;
        bsf_net_v8 count = {counts[t], counts[t], counts[t], counts[t], counts[t], counts[t], counts[t], counts[t]};
        s0 += count * *(const bsf_net_v8*) row;
        s1 += count * *(const bsf_net_v8*) (row + 8);
        s2 += count * *(const bsf_net_v8*) (row + 16);
        s3 += count * *(const bsf_net_v8*) (row + 24);
    }
    *(bsf_net_v8*) (h + offset) = s0;
    *(bsf_net_v8*) (h + offset + 8) = s1;
    *(bsf_net_v8*) (h + offset + 16) = s2;
    *(bsf_net_v8*) (h + offset + 24) = s3;
}
#else
BSF_NET_INLINE void bsf_net_block(float* restrict h, const float* restrict bias, const float* const* plain,
                                  int plains, const float* const* scaled, const float* counts, int scales,
                                  int offset) {
    memcpy(h + offset, bias + offset, sizeof(float) * BSF_NET_BLOCK);
    for (int t = 0; t < plains; t++) bsf_net_add(h + offset, plain[t] + offset, BSF_NET_BLOCK);
    for (int t = 0; t < scales; t++) bsf_net_axpy(h + offset, counts[t], scaled[t] + offset, BSF_NET_BLOCK);
}
#endif

BSF_NET_INLINE void bsf_net_first_layer(const bsf_net* net, const signed char* board, const int32_t* features,
                                       float* h) {
    const int n1 = net->hidden1;
    const float* plain[2 * BSF_NET_POINTS];
    const float* scaled[BSF_NET_MAX_TERMS];
    float counts[BSF_NET_MAX_TERMS];
    int plains = 0, scales = 0;
    for (int row = 0; row < 2; row++) {
        const signed char* stones = board + 26 * row;
        const float* points = net->point_rows + (int64_t) row * BSF_NET_POINTS * 3 * n1;
        const float* excess = net->excess_rows + (int64_t) row * BSF_NET_POINTS * n1;
        /* only the occupied points are visited (bit p of the mask = point p) */
        for (uint32_t mask = bsf_net_row_above(stones, 0); mask; mask &= mask - 1) {
            int p = BSF_NET_CTZ(mask), n = stones[p];
            plain[plains++] = points + ((int64_t) (p - 1) * 3 + (n < 3 ? n : 3) - 1) * n1;
        }
        for (uint32_t mask = bsf_net_row_above(stones, 3); mask; mask &= mask - 1) {
            int p = BSF_NET_CTZ(mask);
            scaled[scales] = excess + (int64_t) (p - 1) * n1;
            counts[scales++] = (float) (stones[p] - 3);
        }
        if (stones[25]) {
            scaled[scales] = net->bar_rows + (int64_t) row * n1;
            counts[scales++] = (float) stones[25];
        }
        if (stones[0]) {
            scaled[scales] = net->off_rows + (int64_t) row * n1;
            counts[scales++] = (float) stones[0];
        }
    }
    for (uint64_t mask = net->feature_mask; mask; mask &= mask - 1) {
        int f = BSF_NET_CTZ64(mask);
        if (features[f]) {
            scaled[scales] = net->feature_rows + (int64_t) f * n1;
            counts[scales++] = (float) features[f];
        }
    }
    int offset = 0;
    for (; offset + BSF_NET_BLOCK <= n1; offset += BSF_NET_BLOCK)
        bsf_net_block(h, net->bias1, plain, plains, scaled, counts, scales, offset);
#if defined(__GNUC__)
    for (; offset + 8 <= n1; offset += 8) {    /* then eight units at a time, in one register */
        bsf_net_v8 sum = *(const bsf_net_v8*) (net->bias1 + offset);
        for (int t = 0; t < plains; t++) sum += *(const bsf_net_v8*) (plain[t] + offset);
        for (int t = 0; t < scales; t++) sum += counts[t] * *(const bsf_net_v8*) (scaled[t] + offset);
        *(bsf_net_v8*) (h + offset) = sum;
    }
#endif
    if (offset < n1) {    /* the last units, fewer than a block */
        memcpy(h + offset, net->bias1 + offset, sizeof(float) * (size_t) (n1 - offset));
        for (int t = 0; t < plains; t++) bsf_net_add(h + offset, plain[t] + offset, n1 - offset);
        for (int t = 0; t < scales; t++) bsf_net_axpy(h + offset, counts[t], scaled[t] + offset, n1 - offset);
    }
}

/* Five outputs made consistent: clipped to [0, 1], then P(w2+) <= P(win),
   P(w3) <= P(w2+), P(l2+) <= 1 - P(win), P(l3) <= P(l2+). */
BSF_NET_INLINE void bsf_net_consistent(float* p) {
    for (int k = 0; k < BSF_NET_OUTPUTS; k++) p[k] = p[k] < 0.0f ? 0.0f : (p[k] > 1.0f ? 1.0f : p[k]);
    if (p[1] > p[0]) p[1] = p[0];
    if (p[2] > p[1]) p[2] = p[1];
    if (p[3] > 1.0f - p[0]) p[3] = 1.0f - p[0];
    if (p[4] > p[3]) p[4] = p[3];
}

/* A dense layer's sums: out = bias + x @ w (w: inputs x outputs), a block
   of BSF_NET_BLOCK outputs at a time held in registers across the inputs. */
BSF_NET_INLINE void bsf_net_dense(float* restrict out, const float* restrict bias, const float* restrict x,
                                  int inputs, const float* restrict w, int outputs) {
    int offset = 0;
#if defined(__GNUC__)
    for (; offset + BSF_NET_BLOCK <= outputs; offset += BSF_NET_BLOCK) {
        bsf_net_v8 s0 = *(const bsf_net_v8*) (bias + offset), s1 = *(const bsf_net_v8*) (bias + offset + 8);
        bsf_net_v8 s2 = *(const bsf_net_v8*) (bias + offset + 16), s3 = *(const bsf_net_v8*) (bias + offset + 24);
        for (int i = 0; i < inputs; i++) {
            const float* row = w + (int64_t) i * outputs + offset;
            bsf_net_v8 c = {x[i], x[i], x[i], x[i], x[i], x[i], x[i], x[i]};
            s0 += c * *(const bsf_net_v8*) row;
            s1 += c * *(const bsf_net_v8*) (row + 8);
            s2 += c * *(const bsf_net_v8*) (row + 16);
            s3 += c * *(const bsf_net_v8*) (row + 24);
        }
        *(bsf_net_v8*) (out + offset) = s0;
        *(bsf_net_v8*) (out + offset + 8) = s1;
        *(bsf_net_v8*) (out + offset + 16) = s2;
        *(bsf_net_v8*) (out + offset + 24) = s3;
    }
#endif
    if (offset < outputs) {
        memcpy(out + offset, bias + offset, sizeof(float) * (size_t) (outputs - offset));
        for (int i = 0; i < inputs; i++)
            bsf_net_axpy(out + offset, x[i], w + (int64_t) i * outputs + offset, outputs - offset);
    }
}

/* The output layer's five sums (then three zeros) into sums8: dot
   products of the last hidden layer with the transposed weights, eight
   partial sums per output in a vector register, added up at the end. */
BSF_NET_INLINE void bsf_net_outputs(const bsf_net* net, const float* last, int units, float* sums8) {
    int j = 0;
    float out[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
#if defined(__GNUC__)
    const bsf_net_v8 zero = BSF_NET_SPLAT(0.0f);
    bsf_net_v8 accumulators[BSF_NET_OUTPUTS] = {zero, zero, zero, zero, zero};
    for (; j + 8 <= units; j += 8)
        bsf_net_output_step(accumulators, (const bsf_net_v8*) (last + j), net->out_weights, units, j);
    bsf_net_reduce5(accumulators, (bsf_net_v8*) out);
#endif
    for (int k = 0; k < BSF_NET_OUTPUTS; k++) {
        const float* w = net->out_weights + (int64_t) k * units;
        float sum = out[k];
        for (int i = j; i < units; i++) sum += last[i] * w[i];
        sums8[k] = sum + net->out_bias[k];
    }
    sums8[5] = sums8[6] = sums8[7] = 0.0f;
}

/* The layers after the first up to the output layer's sums: h1 holds the
   first layer's sums (made its activations in place); sums8 gets the five
   output sums, then three zeros; scratch + hidden1 holds the second hidden
   layer. */
BSF_NET_INLINE void bsf_net_hidden_outputs(const bsf_net* net, float* h1, float* scratch, float* sums8) {
    bsf_net_activate(h1, net->hidden1, net->relu);
    const float* last = h1;
    int units = net->hidden1;
    if (net->hidden2) {
        float* h2 = scratch + net->hidden1;
        bsf_net_dense(h2, net->bias2, h1, net->hidden1, net->weights2, net->hidden2);
        bsf_net_activate(h2, net->hidden2, net->relu);
        last = h2;
        units = net->hidden2;
    }
    bsf_net_outputs(net, last, units, sums8);
}

/* The layers after the first: h1 holds the first layer's sums; out[5]
   (consistent); scratch + hidden1 holds the second hidden layer. */
BSF_NET_INLINE void bsf_net_after_first(const bsf_net* net, float* h1, float* out, float* scratch) {
    float sums[8];    /* the five sums padded to eight: their sigmoids are one vector */
    bsf_net_hidden_outputs(net, h1, scratch, sums);
    bsf_net_activate(sums, 8, 0);
    memcpy(out, sums, sizeof(float) * BSF_NET_OUTPUTS);
    bsf_net_consistent(out);
}

/* One position: out[5] (consistent); scratch holds bsf_net_scratch floats. */
BSF_NET_INLINE void bsf_net_forward(const bsf_net* net, const signed char* board, const int32_t* features,
                                   float* out, float* scratch) {
    bsf_net_first_layer(net, board, features, scratch);
    bsf_net_after_first(net, scratch, out, scratch);
}

/* Positions start .. stop - 1 of boards (one each ``stride`` bytes, its 52
   bytes first: 52 for an int8[N, 2, 26] array, sizeof(Leaf) for a search's
   leaves) and their features (net->features each, or NULL) into out (5
   each). */
BSF_NET_INLINE void bsf_net_forward_range_any(const bsf_net* net, const signed char* boards, int64_t stride,
                                              const int32_t* features, int64_t start, int64_t stop, float* out, float* scratch) {
    for (int64_t i = start; i < stop; i++)
        bsf_net_forward(net, boards + stride * i, features ? features + net->features * i : NULL, out + 5 * i,
                        scratch);
}
BSF_NET_TWICE(bsf_net_forward_range, (const bsf_net* net, const signed char* boards, int64_t stride, const int32_t* features,
               int64_t start, int64_t stop, float* out, float* scratch),
              (net, boards, stride, features, start, stop, out, scratch))

/* The equity of five consistent probabilities. */
static inline double bsf_net_equity(const float* p) {
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4];
}

/* --- the children of one position, from its sums (a game's choice) ---------

   A game kernel choosing a play scores the children of one parent, all
   seen by the mover (row 0 first). A child differs from its parent on a few
   places (the points its stones left and reached, a hit stone's point and
   the bar, the borne-off count) and on some of the features, so its first
   layer's sums are the parent's (bsf_net_sums, once a roll) plus, for each
   changed place, the rows of the steps its count took (one row for a
   place gaining or losing one stone: step_rows), plus each changed read
   feature's difference times its row: about six rows where a position from
   scratch takes about forty. Only the float32 rounding differs from a pass
   from scratch.

   The children of a parent go in two passes: bsf_net_children_sums gives each
   one's five output sums, then bsf_net_finish makes the probabilities and
   equities of many children, eight to a vector, so that the long chain of
   each child's output sigmoids overlaps the others' instead of stalling
   each child. With one hidden layer of a multiple of eight units, the
   hidden layer never leaves the registers (bsf_net_fused_sums). An exact
   network's children are summed in 16-bit integers instead, sixteen units
   to a vector (bsf_net_exact_child): half the bytes of rows to read and
   twice the units an instruction. */

#define BSF_NET_MAX_CHANGES (4 * 52 + 64)

/* The first layer's sums of one position (hidden1 floats). */
BSF_NET_INLINE void bsf_net_sums_any(const bsf_net* net, const signed char* board, const int32_t* features, float* sums) {
    bsf_net_first_layer(net, board, features, sums);
}
BSF_NET_TWICE(bsf_net_sums, (const bsf_net* net, const signed char* board, const int32_t* features, float* sums),
              (net, board, features, sums))

/* The rows that take a place (0 = off, 1..24, 25 = bar) of a row from
   ``before`` to ``after`` stones (any counts), with their coefficients,
   appended at rows + terms; the new count of terms. Branch-free: every
   candidate row is written and counted only when it applies. The bar and
   borne-off counts add their rows times the change. A point's three
   thresholds each add their row (+1 reached, -1 left) where the two counts
   lie on either side of it, and the fourth unit its row times the change
   of the stones beyond three. */
BSF_NET_INLINE int bsf_net_place_change(const bsf_net* net, int row, int place, int before, int after,
                                        const float** rows, float* coefficients, int terms) {
    const int64_t n1 = net->hidden1;
    if (place == 25 || place == 0) {
        rows[terms] = (place == 25 ? net->bar_rows : net->off_rows) + row * n1;
        coefficients[terms] = (float) (after - before);
        return terms + 1;
    }
    int64_t point = (int64_t) row * BSF_NET_POINTS + place - 1;
    for (int t = 0; t < 3; t++) {    /* threshold t: more than t stones */
        int crossed = (after > t) - (before > t);
        rows[terms] = net->threshold_rows + (point * 3 + t) * n1;
        coefficients[terms] = (float) crossed;
        terms += crossed != 0;
    }
    int excess = (after > 3 ? after - 3 : 0) - (before > 3 ? before - 3 : 0);
    rows[terms] = net->excess_rows + point * n1;
    coefficients[terms] = (float) excess;
    return terms + (excess != 0);
}

/* Bit i (0..51) set where the 52-byte boards a and b differ. */
BSF_NET_INLINE uint64_t bsf_net_changed(const signed char* a, const signed char* b) {
#if defined(__SSE2__)
    uint64_t same = 0;
    for (int at = 0; at < 48; at += 16)
        same |= (uint64_t) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*) (a + at)),
                                                            _mm_loadu_si128((const __m128i*) (b + at)))) << at;
    same |= (uint64_t) _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*) (a + 36)),
                                                        _mm_loadu_si128((const __m128i*) (b + 36)))) << 36;
    return ~same & ((1ULL << 52) - 1);
#else
    uint64_t changed = 0;
    for (int at = 0; at < 52; at++) changed |= (uint64_t) (a[at] != b[at]) << at;
    return changed;
#endif
}

/* The rows and coefficients that make a child's first layer's sums from
   its parent's (boards and their features, NULL when the network reads
   none), written from rows[0]; their count. */
BSF_NET_INLINE int bsf_net_child_terms(const bsf_net* net, const signed char* parent,
                                       const int32_t* parent_features, const signed char* child,
                                       const int32_t* child_features, const float** rows, float* coefficients) {
    int terms = 0;
    for (uint64_t changed = bsf_net_changed(parent, child); changed; changed &= changed - 1) {
        int at = BSF_NET_CTZ64(changed), before = parent[at], after = child[at], change = after - before;
        if (change == 1 || change == -1) {    /* the usual case: one step, one row */
            int low = before < after ? before : after;
            rows[terms] = net->step_rows[at][low < 3 ? low : 3];
            coefficients[terms++] = (float) change;
        } else {
            int row = at >= 26;
            terms = bsf_net_place_change(net, row, at - 26 * row, before, after, rows, coefficients, terms);
        }
    }
    for (uint64_t mask = net->feature_mask; mask; mask &= mask - 1) {    /* a changed feature keeps its slot */
        int f = BSF_NET_CTZ64(mask);
        int32_t change = child_features[f] - parent_features[f];
        rows[terms] = net->feature_rows + (int64_t) f * net->hidden1;
        coefficients[terms] = (float) change;
        terms += change != 0;
    }
    return terms;
}

#if defined(__GNUC__)
/* s[0 .. vectors - 1] (eight units each, from unit offset) += the sum of
   coefficients[t] times rows[t]. */
BSF_NET_INLINE void bsf_net_accumulate(bsf_net_v8* s, int vectors, const float* const* rows,
                                       const float* coefficients, int terms, int offset) {
    for (int t = 0; t < terms; t++) {
        const float* row = rows[t] + offset;
        bsf_net_v8 coefficient = BSF_NET_SPLAT(coefficients[t]);
        for (int v = 0; v < vectors; v++) s[v] += coefficient * *(const bsf_net_v8*) (row + 8 * v);
    }
}
#endif

/* h = base + the sum of coefficients[t] * rows[t] (n floats each), a block
   of units at a time held in registers across the rows. */
BSF_NET_INLINE void bsf_net_sums_from(float* restrict h, const float* restrict base, const float* const* rows,
                                      const float* coefficients, int terms, int n) {
    int offset = 0;
#if defined(__GNUC__)
    for (; offset + 8 <= n; offset += BSF_NET_BLOCK) {
        int vectors = n - offset < BSF_NET_BLOCK ? (n - offset) / 8 : BSF_NET_BLOCK / 8;
        bsf_net_v8 s[BSF_NET_BLOCK / 8];
        for (int v = 0; v < vectors; v++) s[v] = *(const bsf_net_v8*) (base + offset + 8 * v);
        bsf_net_accumulate(s, vectors, rows, coefficients, terms, offset);
        for (int v = 0; v < vectors; v++) *(bsf_net_v8*) (h + offset + 8 * v) = s[v];
        if (vectors < BSF_NET_BLOCK / 8) {    /* the last units, fewer than eight, below */
            offset += 8 * vectors;
            break;
        }
    }
#endif
    if (offset < n) {
        memcpy(h + offset, base + offset, sizeof(float) * (size_t) (n - offset));
        for (int t = 0; t < terms; t++) bsf_net_axpy(h + offset, coefficients[t], rows[t] + offset, n - offset);
    }
}

/* Units of the fused hidden layer held in registers at a time: 64 measured
   faster than 32 and 128 (which spills) in the game loop. */
#define BSF_NET_FUSED_BLOCK 64
#if defined(__GNUC__)
/* One hidden layer of a multiple of eight units: the five output sums
   (then three zeros) into sums8 of the hidden layer base + the sum of
   coefficients[t] * rows[t] (relu: ReLU units, else sigmoid; a constant
   where this is inlined). The hidden layer never leaves the registers:
   each block of units goes from its sums through its activation into the
   five output accumulators. The same operations in the same order as
   bsf_net_sums_from, bsf_net_activate and bsf_net_outputs: the same
   results to the bit. */
/* The units offset .. offset + 8 * vectors - 1 of bsf_net_fused_sums into
   its five output accumulators; inlined with a constant count of vectors,
   the block's sums stay in registers. */
BSF_NET_INLINE void bsf_net_fused_block(const bsf_net* net, int relu, const float* restrict base,
                                        const float* const* rows, const float* coefficients, int terms,
                                        int offset, int vectors, bsf_net_v8* accumulators) {
    bsf_net_v8 s[BSF_NET_FUSED_BLOCK / 8];
    for (int v = 0; v < vectors; v++) s[v] = *(const bsf_net_v8*) (base + offset + 8 * v);
    bsf_net_accumulate(s, vectors, rows, coefficients, terms, offset);
    for (int v = 0; v < vectors; v++) {
        bsf_net_v8 h = s[v];
        if (relu)
            bsf_net_relu8(&h);
        else
            bsf_net_sigmoid8(&h);
        bsf_net_output_step(accumulators, &h, net->out_weights, net->hidden1, offset + 8 * v);
    }
}

BSF_NET_INLINE void bsf_net_fused_sums(const bsf_net* net, int relu, const float* restrict base,
                                       const float* const* rows, const float* coefficients, int terms,
                                       float* sums8) {
    const int n = net->hidden1;
    const bsf_net_v8 zero = BSF_NET_SPLAT(0.0f);
    bsf_net_v8 accumulators[BSF_NET_OUTPUTS] = {zero, zero, zero, zero, zero};
    int offset = 0;
    for (; offset + BSF_NET_FUSED_BLOCK <= n; offset += BSF_NET_FUSED_BLOCK)    /* whole blocks: unrolled */
        bsf_net_fused_block(net, relu, base, rows, coefficients, terms, offset, BSF_NET_FUSED_BLOCK / 8,
                            accumulators);
    if (offset < n)
        bsf_net_fused_block(net, relu, base, rows, coefficients, terms, offset, (n - offset) / 8, accumulators);
    bsf_net_v8 sums;
    bsf_net_reduce5(accumulators, &sums);
    *(bsf_net_v8*) sums8 = sums + *(const bsf_net_v8*) net->out_bias8;
}
#endif

/* An exact network's terms of a child: rows of rows16 and what each is
   multiplied by. */
typedef struct {
    const int16_t* rows[BSF_NET_MAX_CHANGES];
    int16_t coefficients[BSF_NET_MAX_CHANGES];
    int count;
} bsf_net_exact_terms;

/* Appends row times change to terms (branch-free: kept unless change is 0). */
BSF_NET_INLINE void bsf_net_exact_term(bsf_net_exact_terms* terms, const int16_t* row, int change) {
    terms->rows[terms->count] = row;
    terms->coefficients[terms->count] = (int16_t) change;
    terms->count += change != 0;
}

/* The terms of byte at of a board going from before to after stones:
   the thresholds crossed and the stones beyond three (a point), or the
   stones times the row per stone (the bar, borne off). */
BSF_NET_INLINE void bsf_net_exact_place_terms(const bsf_net* net, int at, int before, int after,
                                              bsf_net_exact_terms* terms) {
    int place = at >= 26 ? at - 26 : at;
    if (place == 25 || place == 0) {
        bsf_net_exact_term(terms, net->step16[at][0], after - before);    /* per stone at any count */
        return;
    }
    for (int t = 0; t < 3; t++)    /* threshold t: more than t stones */
        bsf_net_exact_term(terms, net->step16[at][t], (after > t) - (before > t));
    bsf_net_exact_term(terms, net->step16[at][3], (after > 3 ? after - 3 : 0) - (before > 3 ? before - 3 : 0));
}

/* The terms of the read features going from the parent's values to the child's. */
BSF_NET_INLINE void bsf_net_exact_feature_terms(const bsf_net* net, const int32_t* parent_features,
                                                const int32_t* child_features, bsf_net_exact_terms* terms) {
    for (int k = 0; k < net->read_features; k++) {
        int f = net->read_slots[k];
        bsf_net_exact_term(terms, net->read_rows16[k], child_features[f] - parent_features[f]);
    }
}

/* An exact network's terms that make a child's first layer's sums from
   its parent's: bsf_net_child_terms over rows16 (the same rows). */
BSF_NET_INLINE void bsf_net_exact_child_terms(const bsf_net* net, const signed char* parent,
                                              const int32_t* parent_features, const signed char* child,
                                              const int32_t* child_features, bsf_net_exact_terms* terms) {
    terms->count = 0;
    for (uint64_t changed = bsf_net_changed(parent, child); changed; changed &= changed - 1) {
        int at = BSF_NET_CTZ64(changed), before = parent[at], after = child[at], change = after - before;
        if (change == 1 || change == -1) {    /* the usual case: one step, one row */
            int low = before < after ? before : after;
            bsf_net_exact_term(terms, net->step16[at][low < 3 ? low : 3], change);
        } else {
            bsf_net_exact_place_terms(net, at, before, after, terms);
        }
    }
    bsf_net_exact_feature_terms(net, parent_features, child_features, terms);
}

#if defined(__GNUC__)
typedef int16_t bsf_net_s16 __attribute__((vector_size(32), aligned(2)));
typedef uint16_t bsf_net_u16 __attribute__((vector_size(32), aligned(2)));

/* The units offset .. offset + 16 * vectors - 1 of an exact network's
   first layer into out[0 ..]: base plus its terms, in 16-bit integers, and
   through the ReLU where relu (a constant where this is inlined). The
   sums wrap modulo 2^16 (unsigned, where wrapping is defined), but the
   sums of any position lie within int16, so each ends exact. Inlined with
   a constant count of vectors, the sums stay in registers. */
BSF_NET_INLINE void bsf_net_exact_block(const int16_t* restrict base, const bsf_net_exact_terms* terms, int offset,
                                        int vectors, int relu, int16_t* restrict out) {
    bsf_net_u16 s[BSF_NET_EXACT_BLOCK / 16];
    for (int v = 0; v < vectors; v++) s[v] = *(const bsf_net_u16*) (base + offset + 16 * v);
    for (int t = 0; t < terms->count; t++) {
        uint16_t c = (uint16_t) terms->coefficients[t];
        bsf_net_u16 coefficient = {c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c};
        const int16_t* row = terms->rows[t] + offset;
        for (int v = 0; v < vectors; v++) s[v] += coefficient * *(const bsf_net_u16*) (row + 16 * v);
    }
    for (int v = 0; v < vectors; v++) {
        bsf_net_s16 sum = (bsf_net_s16) s[v];
        *(bsf_net_s16*) (out + 16 * v) = relu ? sum & ~(sum >> 15) : sum;    /* ReLU: the sign bit spread, a mask */
    }
}
#else
BSF_NET_INLINE void bsf_net_exact_block(const int16_t* restrict base, const bsf_net_exact_terms* terms, int offset,
                                        int vectors, int relu, int16_t* restrict out) {
    for (int j = 0; j < 16 * vectors; j++) {    /* wrapping 16-bit sums, as the vectors make them */
        uint16_t sum = (uint16_t) base[offset + j];
        for (int t = 0; t < terms->count; t++)
            sum = (uint16_t) (sum + (uint16_t) (terms->coefficients[t] * terms->rows[t][offset + j]));
        out[j] = relu && (int16_t) sum < 0 ? 0 : (int16_t) sum;
    }
}
#endif

/* An exact network's first layer's sums of one position (hidden1 int16_t,
   in units of 1 / BSF_NET_EXACT_FIRST): bsf_net_sums's rows, in integers. */
BSF_NET_INLINE void bsf_net_exact_sums_any(const bsf_net* net, const signed char* board, const int32_t* features,
                                           int16_t* sums16) {
    const int64_t n1 = net->hidden1;
    bsf_net_exact_terms terms;
    terms.count = 0;
    for (int row = 0; row < 2; row++) {
        const signed char* stones = board + 26 * row;
        int64_t first_point = (int64_t) row * BSF_NET_POINTS;
        for (uint32_t mask = bsf_net_row_above(stones, 0); mask; mask &= mask - 1) {
            int p = BSF_NET_CTZ(mask), n = stones[p];
            bsf_net_exact_term(&terms, net->point16 + ((first_point + p - 1) * 3 + (n < 3 ? n : 3) - 1) * n1, 1);
        }
        for (uint32_t mask = bsf_net_row_above(stones, 3); mask; mask &= mask - 1) {
            int p = BSF_NET_CTZ(mask);
            bsf_net_exact_term(&terms, BSF_NET_ROW16(net, net->excess_rows) + (first_point + p - 1) * n1,
                               stones[p] - 3);
        }
        bsf_net_exact_term(&terms, BSF_NET_ROW16(net, net->bar_rows) + row * n1, stones[25]);
        bsf_net_exact_term(&terms, BSF_NET_ROW16(net, net->off_rows) + row * n1, stones[0]);
    }
    for (int k = 0; k < net->read_features; k++)
        bsf_net_exact_term(&terms, net->read_rows16[k], features[net->read_slots[k]]);
    int offset = 0;
    for (; offset + BSF_NET_EXACT_BLOCK <= n1; offset += BSF_NET_EXACT_BLOCK)
        bsf_net_exact_block(net->bias16, &terms, offset, BSF_NET_EXACT_BLOCK / 16, 0, sums16 + offset);
    if (offset < n1) bsf_net_exact_block(net->bias16, &terms, offset, (int) (n1 - offset) / 16, 0, sums16 + offset);
}
BSF_NET_TWICE(bsf_net_exact_sums, (const bsf_net* net, const signed char* board, const int32_t* features, int16_t* sums16),
              (net, board, features, sums16))

/* o[k] += the dot product of the ReLU units h[0 .. units - 1] with output
   k's weights from unit offset, k = 0 .. 4, in 32-bit integers (GCC makes
   them multiply-adds of 16-bit pairs; the network's check bounds the sums
   within int32). */
BSF_NET_INLINE void bsf_net_exact_dots(const bsf_net* net, const int16_t* restrict h, int units, int offset,
                                       int32_t* o) {
    const int16_t* w = net->out16 + offset;
    const int64_t n = net->hidden1;
    int32_t o0 = 0, o1 = 0, o2 = 0, o3 = 0, o4 = 0;
    for (int j = 0; j < units; j++) {    /* one pass over h: five sums */
        int32_t x = h[j];
        o0 += x * w[j];
        o1 += x * w[n + j];
        o2 += x * w[2 * n + j];
        o3 += x * w[3 * n + j];
        o4 += x * w[4 * n + j];
    }
    o[0] += o0, o[1] += o1, o[2] += o2, o[3] += o3, o[4] += o4;
}

/* An exact network's child: its five output sums (then three zeros) into
   sums8 from its parent's sums16 (bsf_net_exact_sums): a block of units at
   a time from the rows through the ReLU units into the output layer's
   integer sums, then scaled to floats. */
BSF_NET_INLINE void bsf_net_exact_child(const bsf_net* net, const signed char* parent,
                                        const int32_t* parent_features, const int16_t* base,
                                        const signed char* child, const int32_t* child_features, float* sums8) {
    const int n = net->hidden1;
    bsf_net_exact_terms terms;
    int16_t h[BSF_NET_EXACT_BLOCK] __attribute__((aligned(32)));
    int32_t o[BSF_NET_OUTPUTS] = {0, 0, 0, 0, 0};
    bsf_net_exact_child_terms(net, parent, parent_features, child, child_features, &terms);
    for (int offset = 0; offset < n; offset += BSF_NET_EXACT_BLOCK) {
        int units = n - offset < BSF_NET_EXACT_BLOCK ? n - offset : BSF_NET_EXACT_BLOCK;
        if (units == BSF_NET_EXACT_BLOCK)    /* whole blocks: unrolled */
            bsf_net_exact_block(base, &terms, offset, BSF_NET_EXACT_BLOCK / 16, 1, h);
        else
            bsf_net_exact_block(base, &terms, offset, units / 16, 1, h);
        bsf_net_exact_dots(net, h, units, offset, o);
    }
    const float scale = 1.0f / (BSF_NET_EXACT_FIRST * BSF_NET_EXACT_OUT);
    for (int k = 0; k < 8; k++) sums8[k] = k < BSF_NET_OUTPUTS ? (float) o[k] * scale + net->out_bias[k] : 0.0f;
}

#if BSF_NET_EXACT_AVX2
#define BSF_NET_SIMD(name) name##_avx2
#define BSF_NET_SIMD_TARGET "avx2"
#define BSF_NET_SIMD_VNNI 0
#include "bsf_net_exact_simd.h"
#undef BSF_NET_SIMD
#undef BSF_NET_SIMD_TARGET
#undef BSF_NET_SIMD_VNNI
#endif
#if BSF_NET_EXACT_VNNI
#define BSF_NET_SIMD(name) name##_vnni
#define BSF_NET_SIMD_TARGET "avx2,avx512f,avx512vl,avx512vnni"
#define BSF_NET_SIMD_VNNI 1
#include "bsf_net_exact_simd.h"
#undef BSF_NET_SIMD
#undef BSF_NET_SIMD_TARGET
#undef BSF_NET_SIMD_VNNI
#endif

/* A child's five output sums (then three zeros) into sums8, from its
   parent's first layer's sums (bsf_net_sums; for an exact network, as
   integers: bsf_net_exact_sums, else NULL); the features of each (or NULL
   when the network reads none); scratch holds bsf_net_scratch floats. */
BSF_NET_INLINE void bsf_net_child(const bsf_net* net, const signed char* parent, const int32_t* parent_features,
                                  const float* parent_sums, const int16_t* parent_sums16, const signed char* child,
                                  const int32_t* child_features, float* scratch, float* sums8) {
    if (net->exact) {
        bsf_net_exact_child(net, parent, parent_features, parent_sums16, child, child_features, sums8);
        return;
    }
    const float* rows[BSF_NET_MAX_CHANGES];
    float coefficients[BSF_NET_MAX_CHANGES];
    int terms = bsf_net_child_terms(net, parent, parent_features, child, child_features, rows, coefficients);
#if defined(__GNUC__)
    if (!net->hidden2 && net->hidden1 % 8 == 0) {
        if (net->relu)
            bsf_net_fused_sums(net, 1, parent_sums, rows, coefficients, terms, sums8);
        else
            bsf_net_fused_sums(net, 0, parent_sums, rows, coefficients, terms, sums8);
        return;
    }
#endif
    bsf_net_sums_from(scratch, parent_sums, rows, coefficients, terms, net->hidden1);
    bsf_net_hidden_outputs(net, scratch, scratch, sums8);
}

/* The five output sums of n children of one parent into sums[k * stride
   + i] (stride a multiple of eight; the lanes from n to the next multiple
   of eight set to 0), as bsf_net_child makes them: child i's board is
   children[i] (NULL: a finished child, whose sums are 0) and its features
   children_features + i * features_stride (NULL when the network reads
   none). bsf_net_finish makes them probabilities. */
BSF_NET_INLINE void bsf_net_children_sums_any(const bsf_net* net, const signed char* parent, const int32_t* parent_features,
                                              const float* parent_sums, const int16_t* parent_sums16,
                                              const signed char* const* children, const int32_t* children_features,
                                              int64_t features_stride, int n, float* scratch, float* sums, int64_t stride) {
#if BSF_NET_EXACT_AVX2
    if (net->exact && net->avx2) {
        void (*exact_children)(const bsf_net*, const signed char*, const int32_t*, const int16_t*,
                               const signed char* const*, const int32_t*, int64_t, int, float*, int64_t)
            = bsf_net_exact_children_avx2;
#if BSF_NET_EXACT_VNNI
        if (net->vnni) exact_children = bsf_net_exact_children_vnni;
#endif
        exact_children(net, parent, parent_features, parent_sums16, children, children_features, features_stride, n,
                       sums, stride);
        return;
    }
#endif
    float row[8];
    for (int i = 0; i < n; i++) {
        if (children[i])
            bsf_net_child(net, parent, parent_features, parent_sums, parent_sums16, children[i],
                          children_features ? children_features + i * features_stride : NULL, scratch, row);
        else
            memset(row, 0, sizeof row);
        for (int k = 0; k < BSF_NET_OUTPUTS; k++) sums[k * stride + i] = row[k];
    }
    for (int i = n; i < ((n + 7) & ~7); i++)
        for (int k = 0; k < BSF_NET_OUTPUTS; k++) sums[k * stride + i] = 0.0f;
}
BSF_NET_TWICE(bsf_net_children_sums, (const bsf_net* net, const signed char* parent, const int32_t* parent_features,
               const float* parent_sums, const int16_t* parent_sums16, const signed char* const* children,
               const int32_t* children_features, int64_t features_stride, int n, float* scratch, float* sums,
               int64_t stride),
              (net, parent, parent_features, parent_sums, parent_sums16, children, children_features, features_stride, n,
               scratch, sums, stride))

/* The probabilities and equities of n children from their output sums:
   sums[k * stride + i] holds output k of child i, with stride a multiple
   of eight and the lanes from n up to it finite (zeros, say). Each child's
   five probabilities are made in place, as bsf_net_after_first makes them
   (the same results to the bit), and its equity (bsf_net_equity) written
   to equities[i]: eight children to a vector. */
BSF_NET_INLINE void bsf_net_finish_any(float* sums, int64_t stride, int n, double* equities) {
#if defined(__GNUC__)
    const bsf_net_v8 zero = BSF_NET_SPLAT(0.0f), one = BSF_NET_SPLAT(1.0f);
    for (int i = 0; i < n; i += 8) {
        bsf_net_v8 p[BSF_NET_OUTPUTS];
        for (int k = 0; k < BSF_NET_OUTPUTS; k++) {    /* bsf_net_consistent, lane by lane */
            bsf_net_v8 x = *(const bsf_net_v8*) (sums + k * stride + i);
            bsf_net_sigmoid8(&x);
            x = BSF_NET_PICK(x < zero, zero, x);
            p[k] = BSF_NET_PICK(x > one, one, x);
        }
        p[1] = BSF_NET_PICK(p[1] > p[0], p[0], p[1]);
        p[2] = BSF_NET_PICK(p[2] > p[1], p[1], p[2]);
        bsf_net_v8 rest = one - p[0];
        p[3] = BSF_NET_PICK(p[3] > rest, rest, p[3]);
        p[4] = BSF_NET_PICK(p[4] > p[3], p[3], p[4]);
        for (int k = 0; k < BSF_NET_OUTPUTS; k++) *(bsf_net_v8*) (sums + k * stride + i) = p[k];
        for (int half = 0; half < 8; half += 4) {    /* bsf_net_equity, in doubles */
            bsf_net_d4 d[BSF_NET_OUTPUTS];
            for (int k = 0; k < BSF_NET_OUTPUTS; k++)
                d[k] = (bsf_net_d4) {p[k][half], p[k][half + 1], p[k][half + 2], p[k][half + 3]};
            bsf_net_d4 equity = 2.0 * d[0] - 1.0 + d[1] - d[3] + d[2] - d[4];
            for (int j = 0; j < 4 && i + half + j < n; j++) equities[i + half + j] = equity[j];
        }
    }
#else
    for (int i = 0; i < n; i++) {
        float p[BSF_NET_OUTPUTS];
        for (int k = 0; k < BSF_NET_OUTPUTS; k++) p[k] = bsf_net_sigmoid(sums[k * stride + i]);
        bsf_net_consistent(p);
        for (int k = 0; k < BSF_NET_OUTPUTS; k++) sums[k * stride + i] = p[k];
        equities[i] = bsf_net_equity(p);
    }
#endif
}
BSF_NET_TWICE(bsf_net_finish, (float* sums, int64_t stride, int n, double* equities),
              (sums, stride, n, equities))

#endif
