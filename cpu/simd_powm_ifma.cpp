// cpu/simd_powm_ifma.cpp: 8-lane Montgomery exponentiation with AVX-512 IFMA.
//
// One item per 64-bit lane, numbers as N digits of 52 bits (lane-interleaved), multiplied
// with VPMADD52LUQ/VPMADD52HUQ. Almost-Montgomery multiplication, word by word: the
// accumulator digits stay un-normalised (each receives at most 4 products of < 2^52 per
// step and N+1 steps, < 2^63 for N < 2^9), only the low digit's carry is pushed up each step
// so that the quotient digit is exact, and the result is normalised once at the end.
// Inputs in [0, 2m) give outputs in [0, 2m) because R = 2^(52N) > 4m.
//
// The whole file is compiled for avx512f+avx512ifma; it only runs after the caller checked
// cpu::has_avx512ifma(). No std templates or external-linkage inline functions live here.
#include <immintrin.h>

// gcc 12 warns about its own _mm512_undefined_epi32() inside the intrinsics headers.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "simd_powm_impl.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512ifma")

namespace mpb {
namespace simd {
namespace detail {
namespace {

using V = __m512i;

static inline V madlo(V z, V x, V y) { return _mm512_madd52lo_epu64(z, x, y); }
static inline V madhi(V z, V x, V y) { return _mm512_madd52hi_epu64(z, x, y); }

// r = a*b/R mod m (almost: result in [0, 2m) for a, b in [0, 2m)). r may alias a or b.
// t: 2N vectors of scratch.
static void amm(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t N) {
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
  for (size_t k = 0; k < N; ++k) t[k] = zero;
  for (size_t i = 0; i < N; ++i) {
    const V bi = b[i];
    V *ti = t + i;
    V x = madlo(ti[0], a[0], bi);
    const V q = madlo(zero, x, minv);  // < 2^52: only the low 52 bits of x and minv are used
    x = madlo(x, m[0], q);             // low 52 bits now zero
    const V carry = _mm512_srli_epi64(x, 52);
    for (size_t j = 1; j < N; ++j) {
      V y = madlo(ti[j], a[j], bi);
      y = madhi(y, a[j - 1], bi);
      y = madlo(y, m[j], q);
      y = madhi(y, m[j - 1], q);
      ti[j] = y;
    }
    ti[N] = madhi(madhi(zero, a[N - 1], bi), m[N - 1], q);
    ti[1] = _mm512_add_epi64(ti[1], carry);
  }
  V c = zero;
  for (size_t k = 0; k < N; ++k) {
    V v = _mm512_add_epi64(t[N + k], c);
    c = _mm512_srli_epi64(v, 52);
    r[k] = _mm512_and_si512(v, mask);
  }
}

// out = tab[idx[lane]] lane by lane, reading every entry (masked moves, no secret addresses).
static void select(V *out, const V *tab, size_t N, V idx) {
  const V zero = _mm512_setzero_si512();
  for (size_t d = 0; d < N; ++d) out[d] = zero;
  for (unsigned e = 0; e < kTable; ++e) {
    const __mmask8 k = _mm512_cmpeq_epu64_mask(idx, _mm512_set1_epi64(e));
    const V *te = tab + e * N;
    for (size_t d = 0; d < N; ++d) out[d] = _mm512_mask_mov_epi64(out[d], k, te[d]);
  }
}

static V window(const Job &job, size_t pos, unsigned len) {
  alignas(64) uint64_t w[8];
  for (unsigned l = 0; l < 8; ++l) w[l] = window_bits(job.exp[l], job.en, pos, len);
  return _mm512_load_si512(reinterpret_cast<const void *>(w));
}

}  // namespace

void ifma_kernel(const Job &job) {
  const size_t N = job.N;
  V *M = reinterpret_cast<V *>(job.M);
  const V minv = _mm512_load_si512(reinterpret_cast<const void *>(job.MINV));
  V *R2 = reinterpret_cast<V *>(job.R2);
  V *B = reinterpret_cast<V *>(job.B);
  V *ONE = reinterpret_cast<V *>(job.ONE);
  V *TAB = reinterpret_cast<V *>(job.TAB);
  V *ACC = reinterpret_cast<V *>(job.ACC);
  V *SEL = reinterpret_cast<V *>(job.SEL);
  V *T = reinterpret_cast<V *>(job.T);

  amm(TAB, R2, ONE, M, minv, T, N);          // R mod m (Montgomery one)
  amm(TAB + N, B, R2, M, minv, T, N);        // base * R mod m
  for (unsigned k = 2; k < kTable; ++k) amm(TAB + k * N, TAB + (k - 1) * N, TAB + N, M, minv, T, N);

  const size_t bits = job.ebits;
  if (bits == 0) {
    for (size_t d = 0; d < N; ++d) ACC[d] = TAB[d];
  } else {
    const size_t nw = (bits + kWindow - 1) / kWindow;
    const unsigned top = (unsigned)(bits - kWindow * (nw - 1));
    size_t pos = bits - top;
    select(ACC, TAB, N, window(job, pos, top));
    while (pos > 0) {
      pos -= kWindow;
      for (unsigned s = 0; s < kWindow; ++s) amm(ACC, ACC, ACC, M, minv, T, N);
      select(SEL, TAB, N, window(job, pos, kWindow));
      amm(ACC, ACC, SEL, M, minv, T, N);
    }
  }
  amm(ACC, ACC, ONE, M, minv, T, N);  // leave the Montgomery domain: result in [0, m]
}

} // namespace detail
} // namespace simd
} // namespace mpb

#pragma GCC pop_options
