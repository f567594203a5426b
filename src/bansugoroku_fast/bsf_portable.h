/* What the kernels' hand-written C needs from the compiler, written once
 * for each: GCC and Clang (their builtins), MSVC (its intrinsics), and any
 * other C99 compiler (plain C, slower). The wheels are built by GCC on
 * Linux, Clang on macOS and MSVC on Windows (pyproject.toml,
 * [tool.cibuildwheel]).
 *
 * - bsf_ctz32, bsf_clz32, bsf_popcount32: bit scans and counts (x != 0 for
 *   the scans);
 * - bsf_load_int, bsf_store_int, bsf_fetch_add_i64 and their kin: the
 *   atomic accesses the pool and the batch drivers share between threads;
 * - bsf_cpu_relax: the pause instruction of a spin loop;
 * - BSF_SSE2: SSE2 may be used (x86-64 always has it: GCC and Clang say so
 *   with __SSE2__, MSVC with _M_X64);
 * - restrict: MSVC's C takes it as __restrict before C11.
 */
#ifndef BSF_PORTABLE_H
#define BSF_PORTABLE_H

#include <stdint.h>

#if defined(__SSE2__) || (defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_AMD64)))
#define BSF_SSE2 1
#endif

#if defined(_MSC_VER) && !defined(__clang__) && !defined(__cplusplus) \
    && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L)
#define restrict __restrict
#endif

/* --- bit scans and counts -------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)

static inline int bsf_ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int bsf_clz32(uint32_t x) { return __builtin_clz(x); }
static inline int bsf_popcount32(uint32_t x) { return __builtin_popcount(x); }

#elif defined(_MSC_VER)
#include <intrin.h>

static __inline int bsf_ctz32(uint32_t x) {
    unsigned long index;
    _BitScanForward(&index, x);
    return (int) index;
}
static __inline int bsf_clz32(uint32_t x) {
    unsigned long index;
    _BitScanReverse(&index, x);
    return 31 - (int) index;
}
/* Not __popcnt: the baseline build must run on CPUs without POPCNT. */
static __inline int bsf_popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int) ((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

#else

static inline int bsf_ctz32(uint32_t x) {
    int n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
}
static inline int bsf_clz32(uint32_t x) {
    int n = 0;
    while (!(x & 0x80000000u)) { x <<= 1; n++; }
    return n;
}
static inline int bsf_popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int) ((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

#endif

/* --- atomics ------------------------------------------------------------------------------
 * Relaxed unless named: _acquire loads, _release stores. */

#if defined(__GNUC__) || defined(__clang__)

#define bsf_load_int(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define bsf_load_int_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define bsf_store_int(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define bsf_store_int_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define bsf_load_i64(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define bsf_store_i64(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define bsf_load_u64_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define bsf_store_u64_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define bsf_fetch_add_i64(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)

#elif defined(_MSC_VER)
/* The Interlocked functions are full barriers: stronger than asked, never weaker. */
#include <intrin.h>

static __inline int bsf_load_int(int* p) { return (int) _InterlockedOr((volatile long*) p, 0); }
static __inline void bsf_store_int(int* p, int v) { _InterlockedExchange((volatile long*) p, (long) v); }
static __inline int64_t bsf_load_i64(int64_t* p) { return _InterlockedOr64((volatile __int64*) p, 0); }
static __inline void bsf_store_i64(int64_t* p, int64_t v) { _InterlockedExchange64((volatile __int64*) p, v); }
static __inline int64_t bsf_fetch_add_i64(int64_t* p, int64_t v) {
    return _InterlockedExchangeAdd64((volatile __int64*) p, v);
}
#define bsf_load_int_acquire(p) bsf_load_int(p)
#define bsf_store_int_release(p, v) bsf_store_int((p), (v))
#define bsf_load_u64_acquire(p) ((uint64_t) bsf_load_i64((int64_t*) (p)))
#define bsf_store_u64_release(p, v) bsf_store_i64((int64_t*) (p), (int64_t) (v))

#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_ATOMICS__)
/* C11: the plain objects are accessed as atomic ones of the same size. */
#include <stdatomic.h>

#define bsf_load_int(p) atomic_load_explicit((_Atomic int*) (p), memory_order_relaxed)
#define bsf_load_int_acquire(p) atomic_load_explicit((_Atomic int*) (p), memory_order_acquire)
#define bsf_store_int(p, v) atomic_store_explicit((_Atomic int*) (p), (v), memory_order_relaxed)
#define bsf_store_int_release(p, v) atomic_store_explicit((_Atomic int*) (p), (v), memory_order_release)
#define bsf_load_i64(p) atomic_load_explicit((_Atomic int64_t*) (p), memory_order_relaxed)
#define bsf_store_i64(p, v) atomic_store_explicit((_Atomic int64_t*) (p), (v), memory_order_relaxed)
#define bsf_load_u64_acquire(p) atomic_load_explicit((_Atomic uint64_t*) (p), memory_order_acquire)
#define bsf_store_u64_release(p, v) atomic_store_explicit((_Atomic uint64_t*) (p), (v), memory_order_release)
#define bsf_fetch_add_i64(p, v) atomic_fetch_add_explicit((_Atomic int64_t*) (p), (v), memory_order_relaxed)

#else
#error "bansugoroku-fast needs atomics: GCC, Clang, MSVC or a C11 compiler with <stdatomic.h>"
#endif

/* --- the pause of a spin loop ---------------------------------------------------------- */

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
static inline void bsf_cpu_relax(void) { __builtin_ia32_pause(); }
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
static inline void bsf_cpu_relax(void) { __asm__ __volatile__("yield"); }
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
static __inline void bsf_cpu_relax(void) { _mm_pause(); }
#elif defined(_MSC_VER) && defined(_M_ARM64)
static __inline void bsf_cpu_relax(void) { __yield(); }
#else
static inline void bsf_cpu_relax(void) {}
#endif

#endif
