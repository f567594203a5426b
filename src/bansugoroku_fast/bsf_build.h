/* Which instructions a kernel module was compiled to use beyond the
 * architecture's baseline: BSF_BUILT_FOR_AVX2 is 1 in a
 * BANSUGOROKU_NATIVE=1 build on a CPU with AVX2, BMI2 and POPCNT, else 0
 * (the default build, whose AVX2 code is in copies: bsf_cpu.h). A module
 * includes it to say which it is (BUILT_FOR, running_copies). */
#ifndef BSF_BUILD_H
#define BSF_BUILD_H

#if defined(__AVX2__) && defined(__BMI2__) && defined(__POPCNT__)
#define BSF_BUILT_FOR_AVX2 1
#else
#define BSF_BUILT_FOR_AVX2 0
#endif

#endif
