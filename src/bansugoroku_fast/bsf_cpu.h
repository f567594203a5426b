/* What the CPU running the process has, C for _cpu.pyx. */
#ifndef BSF_CPU_H
#define BSF_CPU_H

/* Whether the CPU has what the "avx2" builds use (GCC and Clang on x86;
   elsewhere none): __builtin_cpu_supports also checks that the OS saves
   the AVX registers. */
static int bsf_cpu_has_avx2(void) {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")
        && __builtin_cpu_supports("popcnt");
#else
    return 0;
#endif
}

#endif
