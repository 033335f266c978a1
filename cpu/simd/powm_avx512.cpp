// cpu/simd/powm_avx512.cpp: 8-lane Montgomery exponentiation with AVX-512F alone (no IFMA:
// Skylake-SP / Cascade Lake servers, or an IFMA CPU with avx512ifma masked).
//
// The lane arithmetic of cpu/simd/lanes_loop.h (shared with the AVX2 engine; 26- to 28-bit
// digits by the modulus size) on 512-bit vectors: VPMULUDQ products, and with 32 registers four rows per pass over the
// in-memory accumulator (rows4: the product and the square's reduction), on the Intel Xeon of
// bench/results (IFMA masked) 1.19-1.27x two rows per pass; the inner loop unrolled by 4
// (+5-10% there). The table selection is a masked move per entry (AVX-512 mask registers), the
// same instructions for every index.
//
// The whole file is compiled for avx512f; it only runs after the caller checked
// cpu::has_avx512f().
#if defined(__x86_64__)  // the whole file: x86-64 only (cpu/simd/lanes_impl.h)
#include "core/intrinsics.h"

#include "simd/lanes_impl.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f")
#endif

#include "simd/lanes_loop.h"  // after the target pragma: its loop is compiled for this target

namespace mpb {
namespace simd {
namespace detail {
namespace {

// The instruction set as lanes_loop.h takes it, with KB-bit digits.
template <unsigned KB>
struct Arith {
  static constexpr unsigned kBits = KB;
  using V = __m512i;
  static constexpr bool kRows4 = true;
  static constexpr size_t kSqrRows4From = ~size_t(0);  // never: two-row passes in the square (not measured on AVX-512F since the four-row pass exists)
  static V zero() { return _mm512_setzero_si512(); }
  static V load(const uint64_t *p) { return _mm512_load_si512(reinterpret_cast<const V *>(p)); }
  static V add(V a, V b) { return _mm512_add_epi64(a, b); }
  static V mul(V a, V b) { return _mm512_mul_epu32(a, b); }
  static V lowk(V a) { return _mm512_and_si512(a, _mm512_set1_epi64((1ll << KB) - 1)); }
  static V highk(V a) { return _mm512_srli_epi64(a, KB); }
  static constexpr bool kPackedTable = false;  // (the AVX2 engine packs its table; not done here)
  static void select(V *out, const V *tab, size_t N, V idx, unsigned entries) {
    for (size_t d = 0; d < N; ++d) out[d] = zero();
    for (unsigned e = 0; e < entries; ++e) {
      const __mmask8 k = _mm512_cmpeq_epi64_mask(idx, _mm512_set1_epi64(e));
      const V *te = tab + e * N;
      for (size_t d = 0; d < N; ++d) out[d] = _mm512_mask_mov_epi64(out[d], k, te[d]);
    }
  }
  static V window(const Job &job, size_t pos, unsigned len) {
    alignas(64) uint64_t w[8];
    for (unsigned l = 0; l < 8; ++l) w[l] = window_bits(job.exp[l], job.en, pos, len);
    return _mm512_load_si512(reinterpret_cast<const V *>(w));
  }
};

}  // namespace

// The explicit VZEROUPPER: see avx2_kernel (cpu/simd/powm_avx2.cpp).
void avx512f_kernel(const Job &job) {
  window_exp_any<Arith>(job);
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
