"""Build the Cython kernels in ``src/bansugoroku_fast/`` as ``bansugoroku_fast._*`` extension modules.

Each ``src/bansugoroku_fast/_name.pyx`` becomes ``bansugoroku_fast._name``;
the folder mirrors the package so that ``from ._search cimport run_turn``
finds ``_search.pxd`` (Cython looks for ``bansugoroku_fast/_search.pxd`` on
the include path ``src``) and the module imports ``bansugoroku_fast._search``
at run time.

Environment switches (read at build time):

* ``BANSUGOROKU_DEBUG=1`` turns Cython bounds checks and wraparound checks on
  and compiles with ``-O0 -g`` so that a kernel that reads out of bounds raises
  instead of silently misbehaving.
* ``BANSUGOROKU_NATIVE=1`` compiles for the building machine's own CPU
  (``-march=native``: the hardware popcount, its widest SIMD): faster
  kernels that may not run on another machine. The default build assumes
  nothing beyond the architecture's baseline (SSE2 on x86-64); with GCC for
  x86-64 the batch kernels and the networks' entry points also get copies
  for CPUs with AVX2, BMI1/2 and POPCNT, which run where the CPU has them
  (a target attribute in the C, see ``src/bansugoroku_fast/bsf_cpu.h``).
* ``BANSUGOROKU_SANITIZE=1`` compiles and links with AddressSanitizer and
  UndefinedBehaviorSanitizer (``-O1 -g``, frame pointers kept): an
  out-of-bounds access or undefined behaviour in a kernel is reported where it
  happens. Run Python with the ASan runtime preloaded (see ``.ci/sanitize``).

The flags are chosen per compiler (:func:`compile_flags`): GCC and Clang
(Linux, macOS) take the options above; MSVC (Windows) takes its own and
has no sanitizer or native build. The kernels' hand-written C has a form
for each compiler (``src/bansugoroku_fast/bsf_portable.h``).
"""
import os
import subprocess
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("BANSUGOROKU_DEBUG") == "1"
SANITIZE = os.environ.get("BANSUGOROKU_SANITIZE") == "1"
SANITIZER_FLAGS = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]
NATIVE = os.environ.get("BANSUGOROKU_NATIVE") == "1"



def compile_flags(compiler_type, name):
    """``(compile, link)`` flags of kernel module ``name`` for a compiler of
    distutils' ``compiler_type`` (``"msvc"``, or ``"unix"`` for GCC and Clang)."""
    if compiler_type == "msvc":
        if SANITIZE or NATIVE:
            sys.exit("setup.py: BANSUGOROKU_SANITIZE and BANSUGOROKU_NATIVE need GCC or Clang")
        # /fp:precise contracts nothing into a fused multiply-add (no FMA in the x64 baseline anyway).
        return (["/Od", "/Zi"] if DEBUG else ["/O2"]) + ["/fp:precise"], []
    compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]
    # The policies' float64 scores must round exactly as the oracle's Python sums
    # do (src/bansugoroku_fast/_games.pyx): no fused multiply-add.
    compile_args.append("-ffp-contract=off")
    if NATIVE:
        compile_args.append("-march=native")
    link_args = []
    if SANITIZE:
        compile_args = ["-O1", "-g", *SANITIZER_FLAGS]
        link_args = list(SANITIZER_FLAGS)
    # Batches run their items on POSIX threads (the _pool module).
    compile_args.append("-pthread")
    link_args.append("-pthread")
    return compile_args, link_args


directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
}


KERNELS = os.path.join("src", "bansugoroku_fast")


# C sources linked into one module beside its .pyx.
C_SOURCES = {"_pool": ["bsf_pool.c"]}
# The kernels' C is in the headers bsf_*.h, declared for Cython by
# ``cdef extern from "bsf_*.h"`` in the .pxd and .pyx files; most modules
# reach most headers through the .pxd they cimport, so each module depends
# on all of them (a change to one rebuilds every module).
C_HEADERS = sorted(name for name in os.listdir(KERNELS) if name.startswith("bsf_") and name.endswith(".h"))


# Macros of one module: _batch counts places by __builtin_popcount, one
# instruction in its AVX2 copies (src/bansugoroku_fast/bsf_board.h).
MODULE_MACROS = {"_batch": [("BSF_POPCOUNT_BUILTIN", "1")]}


def extension(name):
    return Extension(
        f"bansugoroku_fast.{name}",
        [os.path.join(KERNELS, source) for source in [f"{name}.pyx", *C_SOURCES.get(name, [])]],
        depends=[os.path.join(KERNELS, header) for header in C_HEADERS],
        include_dirs=[numpy.get_include(), KERNELS],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"), *MODULE_MACROS.get(name, [])],
    )



# The batch item loop compiles a copy of the whole count for each default
# rule set (_count_item_under in _batch.pyx); GCC's default limit on
# inlining one function would leave the closed forms as calls in them.
BIG_INLINE_MODULES = ("_batch",)
BIG_INLINE = "--param=max-inline-insns-single=1000"


def is_gcc(command):
    """Whether the compiler ``command`` (a list) is GCC, whose options BIG_INLINE is."""
    try:
        found = subprocess.run([command[0], "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in found.stdout


class BuildKernels(build_ext):
    """build_ext with the flags of the compiler that builds (compile_flags)
    and BIG_INLINE for BIG_INLINE_MODULES where it is GCC."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:       # the modules compile on every core unless -j says otherwise
            self.parallel = os.cpu_count() or 1

    def build_extension(self, ext):
        name = ext.name.rsplit(".", 1)[-1]
        ext.extra_compile_args, ext.extra_link_args = compile_flags(self.compiler.compiler_type, name)
        compiler = getattr(self.compiler, "compiler_so", None)
        if name in BIG_INLINE_MODULES and not DEBUG and compiler and is_gcc(compiler):
            ext.extra_compile_args = [*ext.extra_compile_args, BIG_INLINE]
        super().build_extension(ext)


MODULES = [name[:-4] for name in sorted(os.listdir(KERNELS)) if name.endswith(".pyx")]
STRAY = [name for name in os.listdir("src") if name.endswith((".pyx", ".pxd"))]
if STRAY:
    sys.exit(f"setup.py: move {', '.join(STRAY)} to {KERNELS}/ (kernel sources live there)")

setup(
    cmdclass={"build_ext": BuildKernels},
    ext_modules=cythonize(
        [extension(name) for name in MODULES],
        compiler_directives=directives,
        include_path=["src"],
    ),
)
