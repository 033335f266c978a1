// cpu/simd/powm_avx2.cpp: 4-lane Montgomery exponentiation with AVX2.
//
// The lane arithmetic of cpu/simd/lanes_loop.h (shared with the AVX-512F engine; 26- to 28-bit
// digits by the modulus size) on 256-bit vectors: VPMULUDQ products (32x32 -> 64, exact), four rows
// per pass over the in-memory accumulator (the four multiplier and four quotient digits, the sum and
// two products fit the 16 registers; on Zen 3 1.5x the two-row passes at 1024 bits, 1.2-1.3x at
// 2048..4096), a dedicated squaring (its products four rows per pass from 48 digits on).
//
// The whole file is compiled for avx2; it only runs after the caller checked cpu::has_avx2().
#if defined(__x86_64__)  // the whole file: x86-64 only (cpu/simd/lanes_impl.h)
#include "core/intrinsics.h"

#include "simd/lanes_impl.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
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
  using V = __m256i;
  static constexpr bool kRows4 = true;
  static constexpr size_t kSqrRows4From = 48;  // four-row passes in the square from this many digits (Zen 3: 1.15x at 57..152 digits, 0.96x at 37)
  static V zero() { return _mm256_setzero_si256(); }
  static V load(const uint64_t *p) { return _mm256_load_si256(reinterpret_cast<const V *>(p)); }
  static V add(V a, V b) { return _mm256_add_epi64(a, b); }
  static V mul(V a, V b) { return _mm256_mul_epu32(a, b); }
  static V lowk(V a) { return _mm256_and_si256(a, _mm256_set1_epi64x((1ll << KB) - 1)); }
  static V highk(V a) { return _mm256_srli_epi64(a, KB); }
  // Every entry is read; the per-lane masks are made once, then four digits at a time are
  // gathered in registers over all entries (no read-modify-write of out per entry; Zen 3:
  // 1.03-1.05x the whole 1024-bit exponentiation).
  static void select(V *out, const V *tab, size_t N, V idx, unsigned entries) {
    V mask[kTable];
    for (unsigned e = 0; e < entries; ++e) mask[e] = _mm256_cmpeq_epi64(idx, _mm256_set1_epi64x(e));
    size_t d = 0;
    for (; d + 4 <= N; d += 4) {
      V o0 = zero(), o1 = o0, o2 = o0, o3 = o0;
      const V *te = tab + d;
      for (unsigned e = 0; e < entries; ++e, te += N) {
        const V k = mask[e];
        o0 = _mm256_or_si256(o0, _mm256_and_si256(k, te[0]));
        o1 = _mm256_or_si256(o1, _mm256_and_si256(k, te[1]));
        o2 = _mm256_or_si256(o2, _mm256_and_si256(k, te[2]));
        o3 = _mm256_or_si256(o3, _mm256_and_si256(k, te[3]));
      }
      out[d] = o0, out[d + 1] = o1, out[d + 2] = o2, out[d + 3] = o3;
    }
    for (; d < N; ++d) {
      V o = zero();
      const V *te = tab + d;
      for (unsigned e = 0; e < entries; ++e, te += N) o = _mm256_or_si256(o, _mm256_and_si256(mask[e], *te));
      out[d] = o;
    }
  }
  static V window(const Job &job, size_t pos, unsigned len) {
    alignas(32) uint64_t w[4];
    for (unsigned l = 0; l < 4; ++l) w[l] = window_bits(job.exp[l], job.en, pos, len);
    return _mm256_load_si256(reinterpret_cast<const V *>(w));
  }
};

}  // namespace

void avx2_kernel(const Job &job) { window_exp_any<Arith>(job); }

} // namespace detail
} // namespace simd
} // namespace mpb

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif  // __x86_64__
