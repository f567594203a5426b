# cython: language_level=3
"""What the CPU running this process has, compiled once for the
architecture's baseline (it must run on every CPU, to say which build of
the kernels may run): ``bansugoroku_fast._kernel`` asks it before it
imports any kernel module that has an AVX2 build."""

cdef extern from *:
    """
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
    """
    int bsf_cpu_has_avx2() noexcept nogil


def cpu_has_avx2():
    """Whether the CPU running this process has what the ``"avx2"`` builds
    use (and the OS saves its registers): AVX2, BMI1, BMI2, POPCNT."""
    return bool(bsf_cpu_has_avx2())
