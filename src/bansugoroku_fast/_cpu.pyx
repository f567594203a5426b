# cython: language_level=3
"""What the CPU running this process has, compiled once for the
architecture's baseline (it must run on every CPU, to say which code of
the kernels may run): the seam and the tests ask it."""

cdef extern from "bsf_cpu.h":
    int bsf_cpu_has_avx2() noexcept nogil


def cpu_has_avx2():
    """Whether the CPU running this process has what the ``"avx2"`` builds
    use (and the OS saves its registers): AVX2, BMI1, BMI2, POPCNT."""
    return bool(bsf_cpu_has_avx2())
