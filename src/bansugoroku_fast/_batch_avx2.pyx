# cython: language_level=3
"""The batch kernels of ``_batch.pyx``, the same source compiled for CPUs
with AVX2, BMI1/2 and POPCNT (x86-64; setup.py's ``VARIANTS``):
``bansugoroku_fast._kernel`` puts this module in place of ``_batch`` where
the CPU has them (``_cpu.cpu_has_avx2``). The 13-bit table popcounts become
one instruction each, SIMD code takes three-operand forms, and shifts and
masks need fewer moves: a batch count about a fifth fewer instructions an
item."""
include "_batch.pyx"
