// cpu/simd/powm_ifma.cpp: 8-lane Montgomery exponentiation with AVX-512 IFMA: the kernel of
// cpu/simd/ifma_kernel.h (its design and measurements are described there) on __m512i vectors,
// its operations as AVX-512F / IFMA intrinsics.

// The whole file is compiled for avx512f+avx512ifma; it only runs after the caller checked
// cpu::has_avx512ifma(). No std templates or external-linkage inline functions live here.
#if defined(__x86_64__)  // the whole file: x86-64 only (cpu/simd/lanes_impl.h)
#include "core/intrinsics.h"

#include "simd/lanes_impl.h"

// The loops below are unrolled (MPB_UNROLL: full unrolling keeps the operand windows in
// registers), rolled in the sanitizer and constant-time check builds (core/unroll.h).
#include "core/unroll.h"

#if defined(__clang__)
// clang reports the unroll pragmas of inner loops whose trip count is constant only once the
// enclosing loops are unrolled
#pragma clang diagnostic ignored "-Wpass-failed"
#pragma clang attribute push(__attribute__((target("avx512f,avx512ifma"))), apply_to = function)
#else
#pragma GCC push_options
// tuned as crypto_mb is built (-march=icelake-server): on the Zen 5 machine the N = 20 square
// carrying its table selection ran at 407 TSC cycles per call against 489 with the default tuning
#pragma GCC target("avx512f,avx512ifma,tune=icelake-server")
#endif

namespace mpb {
namespace simd {
namespace detail {
namespace {

// The vector operations of cpu/simd/ifma_kernel.h.
using V = __m512i;
using Mask = __mmask8;
static inline V vzero() { return _mm512_setzero_si512(); }
static inline V vset1(uint64_t x) { return _mm512_set1_epi64((long long)x); }
static inline V vload(const uint64_t *p) { return _mm512_load_si512(reinterpret_cast<const void *>(p)); }
static inline V vadd(V a, V b) { return _mm512_add_epi64(a, b); }
static inline V vsub(V a, V b) { return _mm512_sub_epi64(a, b); }
static inline V vand(V a, V b) { return _mm512_and_si512(a, b); }
static inline V vshr52(V a) { return _mm512_srli_epi64(a, 52); }
static inline V madlo(V z, V x, V y) { return _mm512_madd52lo_epu64(z, x, y); }
static inline V madhi(V z, V x, V y) { return _mm512_madd52hi_epu64(z, x, y); }
static inline Mask veq(V a, V b) { return _mm512_cmpeq_epu64_mask(a, b); }
static inline V vblend(V o, Mask k, V s) { return _mm512_mask_mov_epi64(o, k, s); }
static inline V valign1(V hi, V lo) { return _mm512_alignr_epi64(hi, lo, 1); }  // lo's lanes 1..7, hi's lane 0
#define MPB_IFMA_INLINE __attribute__((always_inline))

#include "simd/ifma_kernel.h"

}  // namespace

// The explicit VZEROUPPER: see avx2_kernel (cpu/simd/powm_avx2.cpp).
void ifma_kernel(const Job &job) {
  run_any(job);
  _mm256_zeroupper();
}

} // namespace detail
} // namespace simd
} // namespace mpb

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif  // __x86_64__
