# Stub of the compiled module src/bansugoroku_fast/_cpu.pyx (what the CPU
# has, built once for the baseline), written by hand; stubtest holds it to
# the module (.ci/run).

def cpu_has_avx2() -> bool:
    """Whether the CPU has AVX2, BMI1, BMI2 and POPCNT (and the OS saves the AVX registers)."""
