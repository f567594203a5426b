/* How the kernels run code compiled for the CPU they find, the one
   mechanism: an entry point is compiled twice in its module, a copy for
   AVX2 (with BMI1/2 and POPCNT; a target attribute, BSF_AVX2_TARGET) beside
   the baseline one, and the probe here (bsf_cpu_avx2) says which runs.
   The batch kernels' thread entry points (_batch.pyx) and the networks'
   entry points (bsf_net.h, BSF_NET_TWICE; its exact networks' AVX2 and
   VNNI paths too) are chosen so. C for _cpu.pyx, _batch.pyx and bsf_net.h. */
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

/* BSF_AVX2_COPIES: 1 where an entry point gets an AVX2 copy (GCC for
   x86-64, a build not already for AVX2: a BANSUGOROKU_NATIVE=1 build on
   such a CPU has one build, for it), else 0 and the copy is the baseline
   code again. A copy is a function with BSF_AVX2_TARGET, and code inlined
   into it takes its instructions: the network's copies inline their body
   (always_inline); BSF_AVX2_COPY adds flatten, which compiles every
   callee in the module into the copy (the batch kernels' copies). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__AVX2__)
#define BSF_AVX2_COPIES 1
#define BSF_AVX2_TARGET __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define BSF_AVX2_COPY __attribute__((target("avx2,bmi,bmi2,popcnt"), flatten))
#else
#define BSF_AVX2_COPIES 0
#define BSF_AVX2_TARGET
#define BSF_AVX2_COPY
#endif
/* The return type of a Cython function that is such a copy: Cython puts no
   attribute on a function it defines, but writes its return type, so
   _batch.pyx declares its copies' return type as this one. */
#define bsf_avx2_copy_void BSF_AVX2_COPY void

/* bsf_cpu_has_avx2, asked once a module (a relaxed atomic: threads asking
   together store the same answer). _batch.run_avx2_copies sets it for the
   batch kernels, between batches. */
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
