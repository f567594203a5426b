/* What the CPU running the process has: the one probe that every choice of
   code by CPU reads, C for _cpu.pyx and bsf_net.h. The seam runs the AVX2
   build of the batch kernels (a twin module, compiled with -mavx2 and the
   rest) where bsf_cpu_has_avx2 says so; bsf_net.h runs its entry points'
   AVX2 copies (a target attribute) and its exact networks' AVX2 and VNNI
   paths on the same answers. */
#ifndef BSF_CPU_H
#define BSF_CPU_H

#include "bsf_portable.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define BSF_CPU_PROBES 1
#else
#define BSF_CPU_PROBES 0
#endif

/* Whether the CPU has what the "avx2" builds use (GCC and Clang on x86;
   elsewhere none): __builtin_cpu_supports also checks that the OS saves
   the AVX registers. */
static inline int bsf_cpu_has_avx2(void) {
#if BSF_CPU_PROBES
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")
        && __builtin_cpu_supports("popcnt");
#else
    return 0;
#endif
}

/* Whether it has AVX-512 VNNI and VL besides (the exact networks' VNNI path). */
static inline int bsf_cpu_has_vnni(void) {
#if BSF_CPU_PROBES
    return bsf_cpu_has_avx2() && __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vl");
#else
    return 0;
#endif
}

/* bsf_cpu_has_avx2, asked once a module (a relaxed atomic: threads asking
   together store the same answer). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((unused))
#endif
static int bsf_cpu_avx2_answer = -1;

static inline int bsf_cpu_avx2(void) {
    int answer = bsf_load_int(&bsf_cpu_avx2_answer);
    if (answer < 0) {
        answer = bsf_cpu_has_avx2();
        bsf_store_int(&bsf_cpu_avx2_answer, answer);
    }
    return answer;
}

#endif
