// cpu/simd/powm_avx2.cpp: 4-lane Montgomery exponentiation with AVX2.
//
// One item per 64-bit lane, numbers as N digits of 26 bits (lane-interleaved), products by
// VPMULUDQ (32x32 -> 64, exact 52-bit products). Word-by-word almost-Montgomery
// multiplication with lazy carries: each accumulator digit receives at most 2 products of
// < 2^52 per step over N steps (< 2^63 for N < 1000; the driver allows N <= 631); only the
// low digit's carry is pushed each step and the result is normalised once at the end.
// Inputs in [0, 2m) give outputs in [0, 2m) because R = 2^(26N) > 4m. Both the product and
// the dedicated squaring (ams) process two rows per pass over the in-memory accumulator
// (AVX2 has 16 registers: no register-resident variant); 1024..4096-bit moduli (N = 40, 60,
// 79, 119, 158) get compile-time digit counts.
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

namespace mpb {
namespace simd {
namespace detail {
namespace {

using V = __m256i;

static inline V add(V a, V b) { return _mm256_add_epi64(a, b); }
static inline V mul(V a, V b) { return _mm256_mul_epu32(a, b); }

// r = a*b/R mod m (almost: result in [0, 2m) for a, b in [0, 2m)). r may alias a or b.
// t: 2N vectors of scratch. Two multiplier digits per pass over the accumulator (the second
// row's quotient digit is computed once the first row's terms at its position are in).
template <size_t NC>
static void amm(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm256_setzero_si256();
  const V mask = _mm256_set1_epi64x((1ll << 26) - 1);
  for (size_t k = 0; k < 2 * N; ++k) t[k] = zero;
  size_t i = 0;
  for (; i + 1 < N; i += 2) {
    const V b0 = b[i], b1 = b[i + 1];
    V *ti = t + i;
    V x0 = add(ti[0], mul(a[0], b0));
    const V q0 = _mm256_and_si256(mul(x0, minv), mask);  // low 32 bits of x0 suffice
    x0 = add(x0, mul(m[0], q0));                         // low 26 bits now zero
    V x1 = add(add(ti[1], _mm256_srli_epi64(x0, 26)), add(mul(a[1], b0), mul(m[1], q0)));
    x1 = add(x1, mul(a[0], b1));
    const V q1 = _mm256_and_si256(mul(x1, minv), mask);
    x1 = add(x1, mul(m[0], q1));
    const V c1 = _mm256_srli_epi64(x1, 26);
    for (size_t j = 2; j < N; ++j)
      ti[j] = add(ti[j], add(add(mul(a[j], b0), mul(m[j], q0)), add(mul(a[j - 1], b1), mul(m[j - 1], q1))));
    ti[N] = add(ti[N], add(mul(a[N - 1], b1), mul(m[N - 1], q1)));
    ti[2] = add(ti[2], c1);
  }
  if (i < N) {  // odd N: one last single row
    const V bi = b[i];
    V *ti = t + i;
    V x = add(ti[0], mul(a[0], bi));
    const V q = _mm256_and_si256(mul(x, minv), mask);
    x = add(x, mul(m[0], q));
    const V carry = _mm256_srli_epi64(x, 26);
    for (size_t j = 1; j < N; ++j) ti[j] = add(ti[j], add(mul(a[j], bi), mul(m[j], q)));
    ti[1] = add(ti[1], carry);
  }
  V c = zero;
  for (size_t k = 0; k < N; ++k) {
    V v = add(t[N + k], c);
    c = _mm256_srli_epi64(v, 26);
    r[k] = _mm256_and_si256(v, mask);
  }
}

// r = a^2/R mod m (almost), as amm(r, a, a, ...): the off-diagonal products once (two rows
// per pass), doubled, the diagonal added, then the reduction (two quotient digits per pass).
// Digits stay < 3N * 2^52 (< 2^63 for N < 680; the driver allows N <= 631).
template <size_t NC>
static void ams(V *r, const V *a, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm256_setzero_si256();
  const V mask = _mm256_set1_epi64x((1ll << 26) - 1);
  for (size_t k = 0; k < 2 * N; ++k) t[k] = zero;
  size_t i = 0;
  for (; i + 4 <= N; i += 2) {
    const V a0 = a[i], a1 = a[i + 1];
    V *ti = t + i;
    ti[i + 1] = add(ti[i + 1], mul(a0, a1));
    ti[i + 2] = add(ti[i + 2], mul(a0, a[i + 2]));
    for (size_t j = i + 3; j < N; ++j) ti[j] = add(ti[j], add(mul(a0, a[j]), mul(a1, a[j - 1])));
    ti[N] = add(ti[N], mul(a1, a[N - 1]));
  }
  for (; i + 1 < N; ++i) {
    const V ai = a[i];
    V *ti = t + i;
    for (size_t j = i + 1; j < N; ++j) ti[j] = add(ti[j], mul(ai, a[j]));
  }
  for (size_t k = 0; k < N; ++k) {
    t[2 * k] = add(add(t[2 * k], t[2 * k]), mul(a[k], a[k]));
    t[2 * k + 1] = add(t[2 * k + 1], t[2 * k + 1]);
  }
  for (i = 0; i + 1 < N; i += 2) {
    V *ti = t + i;
    V x0 = ti[0];
    const V q0 = _mm256_and_si256(mul(x0, minv), mask);
    x0 = add(x0, mul(m[0], q0));
    V x1 = add(add(ti[1], _mm256_srli_epi64(x0, 26)), mul(m[1], q0));
    const V q1 = _mm256_and_si256(mul(x1, minv), mask);
    x1 = add(x1, mul(m[0], q1));
    const V c1 = _mm256_srli_epi64(x1, 26);
    for (size_t j = 2; j < N; ++j) ti[j] = add(ti[j], add(mul(m[j], q0), mul(m[j - 1], q1)));
    ti[N] = add(ti[N], mul(m[N - 1], q1));
    ti[2] = add(ti[2], c1);
  }
  if (i < N) {  // odd N: one last single row
    V *ti = t + i;
    V x = ti[0];
    const V q = _mm256_and_si256(mul(x, minv), mask);
    x = add(x, mul(m[0], q));
    const V carry = _mm256_srli_epi64(x, 26);
    for (size_t j = 1; j < N; ++j) ti[j] = add(ti[j], mul(m[j], q));
    ti[1] = add(ti[1], carry);
  }
  V c = zero;
  for (size_t k = 0; k < N; ++k) {
    V v = add(t[N + k], c);
    c = _mm256_srli_epi64(v, 26);
    r[k] = _mm256_and_si256(v, mask);
  }
}

static void select(V *out, const V *tab, size_t N, V idx) {
  const V zero = _mm256_setzero_si256();
  for (size_t d = 0; d < N; ++d) out[d] = zero;
  for (unsigned e = 0; e < kTable; ++e) {
    const V k = _mm256_cmpeq_epi64(idx, _mm256_set1_epi64x(e));
    const V *te = tab + e * N;
    for (size_t d = 0; d < N; ++d) out[d] = _mm256_or_si256(out[d], _mm256_and_si256(k, te[d]));
  }
}

static V window(const Job &job, size_t pos, unsigned len) {
  alignas(32) uint64_t w[4];
  for (unsigned l = 0; l < 4; ++l) w[l] = window_bits(job.exp[l], job.en, pos, len);
  return _mm256_load_si256(reinterpret_cast<const V *>(w));
}

template <size_t NC>
static void run_kernel(const Job &job) {
  const size_t N = job.N;
  V *M = reinterpret_cast<V *>(job.M);
  const V minv = _mm256_load_si256(reinterpret_cast<const V *>(job.MINV));
  V *R2 = reinterpret_cast<V *>(job.R2);
  V *B = reinterpret_cast<V *>(job.B);
  V *ONE = reinterpret_cast<V *>(job.ONE);
  V *TAB = reinterpret_cast<V *>(job.TAB);
  V *ACC = reinterpret_cast<V *>(job.ACC);
  V *SEL = reinterpret_cast<V *>(job.SEL);
  V *T = reinterpret_cast<V *>(job.T);

  amm<NC>(TAB, R2, ONE, M, minv, T, N);
  amm<NC>(TAB + N, B, R2, M, minv, T, N);
  for (unsigned k = 2; k < kTable; ++k) amm<NC>(TAB + k * N, TAB + (k - 1) * N, TAB + N, M, minv, T, N);

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
      for (unsigned s = 0; s < kWindow; ++s) ams<NC>(ACC, ACC, M, minv, T, N);
      select(SEL, TAB, N, window(job, pos, kWindow));
      amm<NC>(ACC, ACC, SEL, M, minv, T, N);
    }
  }
  amm<NC>(ACC, ACC, ONE, M, minv, T, N);
}

}  // namespace

void avx2_kernel(const Job &job) {
  switch (job.N) {  // compile-time digit counts for 1024/1536/2048/3072/4096-bit moduli
    case 40: run_kernel<40>(job); break;
    case 60: run_kernel<60>(job); break;
    case 79: run_kernel<79>(job); break;
    case 119: run_kernel<119>(job); break;
    case 158: run_kernel<158>(job); break;
    default: run_kernel<0>(job); break;
  }
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
