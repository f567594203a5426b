/* An exact network's children in 256-bit vectors: one definition of
   bsf_net_exact_children_<set> (and its helpers) for an instruction set,
   included by bsf_net.h once per set with
     BSF_NET_SIMD(name)    the name of each function for the set,
     BSF_NET_SIMD_TARGET   its GCC target string,
     BSF_NET_SIMD_VNNI     1 where the set has AVX-512 VNNI (vpdpwssd: the
                           output layer's multiply-add and sum in one
                           instruction), else 0.
   The sets give the same integers, so the same floats: a multiply-add of
   16-bit pairs into 32 bits wraps nowhere (the network's check bounds the
   sums within int32), whichever instruction adds it. No include guard:
   included once per set. */

/* o[k] += sixteen ReLU units h (from unit at) times output k's weights,
   as 16-bit multiply-adds into 32-bit sums, k = 0 .. 4. */
__attribute__((target(BSF_NET_SIMD_TARGET), always_inline, unused))
static inline void BSF_NET_SIMD(bsf_net_exact_madd)(const bsf_net* net, __m256i h, int at, __m256i* o) {
    for (int k = 0; k < BSF_NET_OUTPUTS; k++) {
        const __m256i w = _mm256_loadu_si256((const __m256i*) (net->out16 + (int64_t) k * net->hidden1 + at));
#if BSF_NET_SIMD_VNNI
        o[k] = _mm256_dpwssd_epi32(o[k], h, w);    /* the multiply-add and the sum in one instruction */
#else
        o[k] = _mm256_add_epi32(o[k], _mm256_madd_epi16(h, w));
#endif
    }
}

/* An exact network of one block (BSF_NET_EXACT_BLOCK units): a child's
   sums straight from its parent's in eight registers, each byte that
   changed adding its place table row at the child's count and taking away
   the row at the parent's (no branch on the change, no list), the read
   features by a list of terms; then the ReLU units' multiply-adds into o. */
__attribute__((target(BSF_NET_SIMD_TARGET), always_inline, unused))
static inline void BSF_NET_SIMD(bsf_net_exact_block)(const bsf_net* net, const signed char* parent,
                                            const int32_t* parent_features, const int16_t* base,
                                            const signed char* child, const int32_t* child_features, __m256i* o) {
    enum { VECTORS = BSF_NET_EXACT_BLOCK / 16 };
    __m256i s[VECTORS];
    for (int v = 0; v < VECTORS; v++) s[v] = _mm256_loadu_si256((const __m256i*) (base + 16 * v));
    for (uint64_t changed = bsf_net_changed(parent, child); changed; changed &= changed - 1) {
        int at = BSF_NET_CTZ64(changed);
        const int16_t* gained = net->place16 + ((int64_t) at * BSF_NET_COUNTS + child[at]) * BSF_NET_EXACT_BLOCK;
        const int16_t* lost = net->place16 + ((int64_t) at * BSF_NET_COUNTS + parent[at]) * BSF_NET_EXACT_BLOCK;
        for (int v = 0; v < VECTORS; v++)
            s[v] = _mm256_sub_epi16(_mm256_add_epi16(s[v], _mm256_loadu_si256((const __m256i*) (gained + 16 * v))),
                                    _mm256_loadu_si256((const __m256i*) (lost + 16 * v)));
    }
    bsf_net_exact_terms terms;
    terms.count = 0;
    bsf_net_exact_feature_terms(net, parent_features, child_features, &terms);
    for (int t = 0; t < terms.count; t++) {
        const __m256i coefficient = _mm256_set1_epi16(terms.coefficients[t]);
        for (int v = 0; v < VECTORS; v++)
            s[v] = _mm256_add_epi16(s[v], _mm256_mullo_epi16(coefficient, _mm256_loadu_si256(
                (const __m256i*) (terms.rows[t] + 16 * v))));
    }
    for (int v = 0; v < VECTORS; v++) {
        __m256i h = _mm256_andnot_si256(_mm256_srai_epi16(s[v], 15), s[v]);    /* ReLU */
        BSF_NET_SIMD(bsf_net_exact_madd)(net, h, 16 * v, o);
    }
}

/* bsf_net_exact_child for the n children of bsf_net_children_sums, in
   the set's vectors (the CPU has them: bsf_net.avx2, bsf_net.vnni; the
   choice is bsf_net_children_sums's): each block's ReLU units go through
   the output layer as 16-bit multiply-adds into five vectors of 32-bit
   sums, reduced once a child; the same integers, so the same floats, as
   bsf_net_exact_child. */
__attribute__((target(BSF_NET_SIMD_TARGET), noinline, unused))
static void BSF_NET_SIMD(bsf_net_exact_children)(const bsf_net* net, const signed char* parent,
                                        const int32_t* parent_features, const int16_t* base,
                                        const signed char* const* children, const int32_t* children_features,
                                        int64_t features_stride, int count, float* sums, int64_t stride) {
    const int n = net->hidden1;
    const __m256 scale = _mm256_set1_ps(1.0f / (BSF_NET_EXACT_FIRST * BSF_NET_EXACT_OUT));
    const __m256 bias = _mm256_loadu_ps(net->out_bias8);
    for (int i = 0; i < count; i++) {
        float sums8[8];
        if (!children[i]) {
            memset(sums8, 0, sizeof sums8);
        } else {
            bsf_net_exact_terms terms;
            int16_t h[BSF_NET_EXACT_BLOCK] __attribute__((aligned(32)));
            __m256i o[BSF_NET_OUTPUTS];
            for (int k = 0; k < BSF_NET_OUTPUTS; k++) o[k] = _mm256_setzero_si256();
            const int32_t* features = children_features ? children_features + i * features_stride : NULL;
            if (n == BSF_NET_EXACT_BLOCK && net->place16)
                BSF_NET_SIMD(bsf_net_exact_block)(net, parent, parent_features, base, children[i], features, o);
            else {
                bsf_net_exact_child_terms(net, parent, parent_features, children[i], features, &terms);
                for (int offset = 0; offset < n; offset += BSF_NET_EXACT_BLOCK) {
                    int units = n - offset < BSF_NET_EXACT_BLOCK ? n - offset : BSF_NET_EXACT_BLOCK;
                    bsf_net_exact_block(base, &terms, offset, units / 16, 1, h);
                    for (int v = 0; v < units / 16; v++) {
                        BSF_NET_SIMD(bsf_net_exact_madd)(net, _mm256_load_si256((const __m256i*) (h + 16 * v)),
                                                offset + 16 * v, o);
                    }
                }
            }
            /* the five sums, then three zeros, as bsf_net_reduce5 adds floats */
            const __m256i zero = _mm256_setzero_si256();
            __m256i first = _mm256_hadd_epi32(_mm256_hadd_epi32(o[0], o[1]), _mm256_hadd_epi32(o[2], o[3]));
            __m256i last = _mm256_hadd_epi32(_mm256_hadd_epi32(o[4], zero), zero);
            __m256i total = _mm256_add_epi32(_mm256_permute2x128_si256(first, last, 0x20),
                                             _mm256_permute2x128_si256(first, last, 0x31));
            _mm256_storeu_ps(sums8, _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(total), scale), bias));
        }
        for (int k = 0; k < BSF_NET_OUTPUTS; k++) sums[k * stride + i] = sums8[k];
    }
    for (int i = count; i < ((count + 7) & ~7); i++)
        for (int k = 0; k < BSF_NET_OUTPUTS; k++) sums[k * stride + i] = 0.0f;
}
