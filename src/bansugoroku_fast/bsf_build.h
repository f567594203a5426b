/* Which instructions this build of a kernel module was compiled to use
 * beyond the architecture's baseline: BSF_BUILT_FOR_AVX2 is 1 in the
 * "avx2" builds (setup.py's VARIANTS: -mavx2 -mbmi -mbmi2 -mpopcnt) and in a
 * BANSUGOROKU_NATIVE=1 build on such a CPU, else 0. Each build of a module
 * includes it, so that it can say which it is (BUILT_FOR). */
#ifndef BSF_BUILD_H
#define BSF_BUILD_H

#if defined(__AVX2__) && defined(__BMI2__) && defined(__POPCNT__)
#define BSF_BUILT_FOR_AVX2 1
#else
#define BSF_BUILT_FOR_AVX2 0
#endif

#endif
