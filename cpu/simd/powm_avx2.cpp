// cpu/simd/powm_avx2.cpp: 4-lane Montgomery exponentiation with AVX2.
//
// The lane arithmetic of cpu/simd/lanes_loop.h (shared with the AVX-512F engine; 26- to 28-bit
// digits by the modulus size) on 256-bit vectors: VPMULUDQ products (32x32 -> 64, exact), four rows
// per pass over the in-memory accumulator (the four multiplier and four quotient digits, the sum and
// two products fit the 16 registers; on Zen 3 1.5x the two-row passes at 1024 bits, 1.2-1.3x at
// 2048..4096), a dedicated squaring (its products four rows per pass too).
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
  // four-row passes in the square from this many digits (its loop needs 7): every size. Zen 3,
  // 2026-11-27, after the overlapped heads (ab_libs, one thread): RSA-2048 (37 digits) 1.08x the
  // two-row passes, RSA-1024 (19) 1.04x, RSA-1536 (28) 1.07x, powm 512 1.04x; 57..152 digits
  // took them already (1.15x; at 37 digits they had been 0.96x before the heads overlapped).
  static constexpr size_t kSqrRows4From = 8;
  static V zero() { return _mm256_setzero_si256(); }
  static V load(const uint64_t *p) { return _mm256_load_si256(reinterpret_cast<const V *>(p)); }
  static V add(V a, V b) { return _mm256_add_epi64(a, b); }
  static V mul(V a, V b) { return _mm256_mul_epu32(a, b); }
  static V lowk(V a) { return _mm256_and_si256(a, _mm256_set1_epi64x((1ll << KB) - 1)); }
  static V highk(V a) { return _mm256_srli_epi64(a, KB); }
  // The masked OR over every entry of a table whose entries are `stride` vectors apart: count
  // vectors of the entry whose mask is all ones (per lane), four at a time gathered in registers
  // over all entries (no read-modify-write per entry; Zen 3: 1.03-1.05x the whole 1024-bit
  // exponentiation); emit(j, o) takes vector j.
  template <class F>
  static void gather(const V *mask, const V *tab, size_t stride, size_t count, unsigned entries, F emit) {
    size_t j = 0;
    for (; j + 4 <= count; j += 4) {
      V o0 = zero(), o1 = o0, o2 = o0, o3 = o0;
      const V *te = tab + j;
      for (unsigned e = 0; e < entries; ++e, te += stride) {
        const V k = mask[e];
        o0 = _mm256_or_si256(o0, _mm256_and_si256(k, te[0]));
        o1 = _mm256_or_si256(o1, _mm256_and_si256(k, te[1]));
        o2 = _mm256_or_si256(o2, _mm256_and_si256(k, te[2]));
        o3 = _mm256_or_si256(o3, _mm256_and_si256(k, te[3]));
      }
      emit(j, o0), emit(j + 1, o1), emit(j + 2, o2), emit(j + 3, o3);
    }
    for (; j < count; ++j) {
      V o = zero();
      const V *te = tab + j;
      for (unsigned e = 0; e < entries; ++e, te += stride) o = _mm256_or_si256(o, _mm256_and_si256(mask[e], *te));
      emit(j, o);
    }
  }
  // Every entry is read; the per-lane masks are made once.
  static void select(V *out, const V *tab, size_t N, V idx, unsigned entries) {
    V mask[kTable];
    for (unsigned e = 0; e < entries; ++e) mask[e] = _mm256_cmpeq_epi64(idx, _mm256_set1_epi64x(e));
    gather(mask, tab, N, N, entries, [out](size_t d, V o) { out[d] = o; });
  }
  // The window's table packed (window_exp, after building it): a digit is < 2^KB < 2^32, so its
  // four lanes fit 128 bits and one vector holds digits 2j and 2j+1 (the last one 0 for odd N);
  // an entry is then (N+1)/2 vectors instead of N. In place: entry e's packed vectors go to
  // [e*P, (e+1)*P) (P = (N+1)/2), which ends at or before entry e+1's unpacked start, and each
  // vector is written after the two digits it holds were read. select_packed reads half the
  // bytes of select (a 1024-bit table: 19 KB instead of 38 KB, inside a 32 KB L1).
  static constexpr bool kPackedTable = true;
  static size_t packed_width(size_t N) { return (N + 1) / 2; }
  static __m128i pack4(V a) {  // the low halves of the four 64-bit lanes
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(a, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
  }
  static void pack_table(V *tab, size_t N, unsigned entries) {
    const size_t P = packed_width(N);
    for (unsigned e = 0; e < entries; ++e) {
      const V *src = tab + e * N;
      V *dst = tab + e * P;
      for (size_t j = 0; j < P; ++j) {
        const __m128i lo = pack4(src[2 * j]);
        const __m128i hi = 2 * j + 1 < N ? pack4(src[2 * j + 1]) : _mm_setzero_si128();
        dst[j] = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
      }
    }
  }
  // select on the packed table: out = entry idx (per lane) as N vectors of 64-bit digits.
  static void select_packed(V *out, const V *ptab, size_t N, V idx, unsigned entries) {
    const size_t P = packed_width(N);
    const V idx32 = _mm256_permutevar8x32_epi32(idx, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
    V mask[kTable];
    for (unsigned e = 0; e < entries; ++e) mask[e] = _mm256_cmpeq_epi32(idx32, _mm256_set1_epi32((int)e));
    gather(mask, ptab, P, P, entries, [out, N](size_t j, V o) {
      out[2 * j] = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(o));
      if (2 * j + 1 < N) out[2 * j + 1] = _mm256_cvtepu32_epi64(_mm256_extracti128_si256(o, 1));
    });
  }
  static V window(const Job &job, size_t pos, unsigned len) {
    alignas(32) uint64_t w[4];
    for (unsigned l = 0; l < 4; ++l) w[l] = window_bits(job.exp[l], job.en, pos, len);
    return _mm256_load_si256(reinterpret_cast<const V *>(w));
  }
};

}  // namespace

// The explicit VZEROUPPER: GCC made the call above a tail jump into code without one, and the
// scalar kernels' legacy SSE instructions (the table selection) then ran with the upper halves
// dirty: 17% slower scalar exponentiations on the Zen 5 VM after any AVX2 or AVX-512F call
// (2026-11-30, 1024 bits, constant time: 4,700 against 5,650 items/s).
void avx2_kernel(const Job &job) {
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
