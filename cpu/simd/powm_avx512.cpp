// cpu/simd/powm_avx512.cpp: 8-lane Montgomery exponentiation with AVX-512F alone (no IFMA:
// Skylake-SP / Cascade Lake servers, or an IFMA CPU with avx512ifma masked).
//
// The AVX2 engine's arithmetic (cpu/simd/powm_avx2.cpp) on 512-bit vectors: one item per
// 64-bit lane, numbers as N digits of 26 bits (lane-interleaved), products by VPMULUDQ
// (32x32 -> 64, exact 52-bit products), word-by-word almost-Montgomery multiplication with
// lazy carries (each accumulator digit receives at most 2 products of < 2^52 per step over N
// steps: < 2^63 for N < 1000; the driver allows N <= 631), a dedicated squaring, inputs and
// outputs in [0, 2m) (R = 2^(26N) > 4m). Unlike AVX2's 16 registers, the 32 here hold four
// rows per pass over the in-memory accumulator (rows4: the product and the square's
// reduction; the leftover rows two or one at a time): on the Intel Xeon of bench/results
// (IFMA masked) 1.19-1.27x two rows per pass. The table selection is a masked move per entry
// (AVX-512 mask registers), the same instructions for every index. 1024..4096-bit moduli
// (N = 40, 60, 79, 119, 158) get compile-time digit counts.
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

namespace mpb {
namespace simd {
namespace detail {
namespace {

using V = __m512i;

static inline V add(V a, V b) { return _mm512_add_epi64(a, b); }
static inline V mul(V a, V b) { return _mm512_mul_epu32(a, b); }

// One pass of four rows over the in-memory accumulator ti (positions i.. of t): with PROD the
// product terms a*b_k of the four multiplier digits b[0..3] and the Montgomery terms m*q_k, else
// (the square's reduction) the Montgomery terms alone. q_k is made once position k of the pass
// is complete; positions 0..3 are then zero mod 2^26 and their carry moves to position 4. Each
// position receives at most 8 products of < 2^52 per pass, 2N over the N/4 passes (the bound of
// the two-row passes: < 2^63 for N < 1000). The 32 vector registers hold the digits b_k, q_k
// and the operand columns of the four rows.
// acc + a[j]*bk with PROD, else acc (the square's reduction has no product terms)
template <bool PROD>
static inline V pa(V acc, const V *a, size_t j, V bk) {
  if constexpr (PROD) return add(acc, mul(a[j], bk));
  (void)a, (void)j, (void)bk;
  return acc;
}

template <bool PROD = true>
static inline void rows4(V *ti, const V *a, const V *b, const V *m, V minv, size_t N, V mask) {
  V b0 = _mm512_setzero_si512(), b1 = b0, b2 = b0, b3 = b0;
  if constexpr (PROD) b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
  V x0 = pa<PROD>(ti[0], a, 0, b0);
  const V q0 = _mm512_and_si512(mul(x0, minv), mask);
  x0 = add(x0, mul(m[0], q0));
  V x1 = add(add(ti[1], _mm512_srli_epi64(x0, 26)), mul(m[1], q0));
  x1 = pa<PROD>(pa<PROD>(x1, a, 1, b0), a, 0, b1);
  const V q1 = _mm512_and_si512(mul(x1, minv), mask);
  x1 = add(x1, mul(m[0], q1));
  V x2 = add(add(ti[2], _mm512_srli_epi64(x1, 26)), add(mul(m[2], q0), mul(m[1], q1)));
  x2 = pa<PROD>(pa<PROD>(pa<PROD>(x2, a, 2, b0), a, 1, b1), a, 0, b2);
  const V q2 = _mm512_and_si512(mul(x2, minv), mask);
  x2 = add(x2, mul(m[0], q2));
  V x3 = add(add(ti[3], _mm512_srli_epi64(x2, 26)), add(add(mul(m[3], q0), mul(m[2], q1)), mul(m[1], q2)));
  x3 = pa<PROD>(pa<PROD>(pa<PROD>(pa<PROD>(x3, a, 3, b0), a, 2, b1), a, 1, b2), a, 0, b3);
  const V q3 = _mm512_and_si512(mul(x3, minv), mask);
  x3 = add(x3, mul(m[0], q3));
  const V c3 = _mm512_srli_epi64(x3, 26);
#pragma GCC unroll 4
  for (size_t j = 4; j < N; ++j) {
    V s = add(add(mul(m[j], q0), mul(m[j - 1], q1)), add(mul(m[j - 2], q2), mul(m[j - 3], q3)));
    if constexpr (PROD) s = add(s, add(add(mul(a[j], b0), mul(a[j - 1], b1)), add(mul(a[j - 2], b2), mul(a[j - 3], b3))));
    ti[j] = add(ti[j], s);
  }
  V s = add(add(mul(m[N - 1], q1), mul(m[N - 2], q2)), mul(m[N - 3], q3));
  if constexpr (PROD) s = add(s, add(add(mul(a[N - 1], b1), mul(a[N - 2], b2)), mul(a[N - 3], b3)));
  ti[N] = add(ti[N], s);
  s = add(mul(m[N - 1], q2), mul(m[N - 2], q3));
  if constexpr (PROD) s = add(s, add(mul(a[N - 1], b2), mul(a[N - 2], b3)));
  ti[N + 1] = add(ti[N + 1], s);
  s = mul(m[N - 1], q3);
  if constexpr (PROD) s = add(s, mul(a[N - 1], b3));
  ti[N + 2] = add(ti[N + 2], s);
  ti[4] = add(ti[4], c3);
}

// r = a*b/R mod m (almost: result in [0, 2m) for a, b in [0, 2m)). r may alias a or b.
// t: 2N vectors of scratch. Two multiplier digits per pass over the accumulator (the second
// row's quotient digit is computed once the first row's terms at its position are in).
template <size_t NC>
static void amm(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 26) - 1);
  for (size_t k = 0; k < 2 * N; ++k) t[k] = zero;
  size_t i = 0;
  for (; i + 3 < N; i += 4) rows4(t + i, a, b + i, m, minv, N, mask);
  for (; i + 1 < N; i += 2) {
    const V b0 = b[i], b1 = b[i + 1];
    V *ti = t + i;
    V x0 = add(ti[0], mul(a[0], b0));
    const V q0 = _mm512_and_si512(mul(x0, minv), mask);  // low 32 bits of x0 suffice
    x0 = add(x0, mul(m[0], q0));                         // low 26 bits now zero
    V x1 = add(add(ti[1], _mm512_srli_epi64(x0, 26)), add(mul(a[1], b0), mul(m[1], q0)));
    x1 = add(x1, mul(a[0], b1));
    const V q1 = _mm512_and_si512(mul(x1, minv), mask);
    x1 = add(x1, mul(m[0], q1));
    const V c1 = _mm512_srli_epi64(x1, 26);
    for (size_t j = 2; j < N; ++j)
      ti[j] = add(ti[j], add(add(mul(a[j], b0), mul(m[j], q0)), add(mul(a[j - 1], b1), mul(m[j - 1], q1))));
    ti[N] = add(ti[N], add(mul(a[N - 1], b1), mul(m[N - 1], q1)));
    ti[2] = add(ti[2], c1);
  }
  if (i < N) {  // odd N: one last single row
    const V bi = b[i];
    V *ti = t + i;
    V x = add(ti[0], mul(a[0], bi));
    const V q = _mm512_and_si512(mul(x, minv), mask);
    x = add(x, mul(m[0], q));
    const V carry = _mm512_srli_epi64(x, 26);
    for (size_t j = 1; j < N; ++j) ti[j] = add(ti[j], add(mul(a[j], bi), mul(m[j], q)));
    ti[1] = add(ti[1], carry);
  }
  V c = zero;
  for (size_t k = 0; k < N; ++k) {
    V v = add(t[N + k], c);
    c = _mm512_srli_epi64(v, 26);
    r[k] = _mm512_and_si512(v, mask);
  }
}

// r = a^2/R mod m (almost), as amm(r, a, a, ...): the off-diagonal products once (two rows
// per pass: four gained nothing measurable), doubled, the diagonal added, then the reduction (four quotient digits per
// pass, rows4, then two).
// Digits stay < 3N * 2^52 (< 2^63 for N < 680; the driver allows N <= 631).
template <size_t NC>
static void ams(V *r, const V *a, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 26) - 1);
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
  for (i = 0; i + 3 < N; i += 4) rows4<false>(t + i, nullptr, nullptr, m, minv, N, mask);
  for (; i + 1 < N; i += 2) {
    V *ti = t + i;
    V x0 = ti[0];
    const V q0 = _mm512_and_si512(mul(x0, minv), mask);
    x0 = add(x0, mul(m[0], q0));
    V x1 = add(add(ti[1], _mm512_srli_epi64(x0, 26)), mul(m[1], q0));
    const V q1 = _mm512_and_si512(mul(x1, minv), mask);
    x1 = add(x1, mul(m[0], q1));
    const V c1 = _mm512_srli_epi64(x1, 26);
    for (size_t j = 2; j < N; ++j) ti[j] = add(ti[j], add(mul(m[j], q0), mul(m[j - 1], q1)));
    ti[N] = add(ti[N], mul(m[N - 1], q1));
    ti[2] = add(ti[2], c1);
  }
  if (i < N) {  // odd N: one last single row
    V *ti = t + i;
    V x = ti[0];
    const V q = _mm512_and_si512(mul(x, minv), mask);
    x = add(x, mul(m[0], q));
    const V carry = _mm512_srli_epi64(x, 26);
    for (size_t j = 1; j < N; ++j) ti[j] = add(ti[j], mul(m[j], q));
    ti[1] = add(ti[1], carry);
  }
  V c = zero;
  for (size_t k = 0; k < N; ++k) {
    V v = add(t[N + k], c);
    c = _mm512_srli_epi64(v, 26);
    r[k] = _mm512_and_si512(v, mask);
  }
}

static void select(V *out, const V *tab, size_t N, V idx) {
  const V zero = _mm512_setzero_si512();
  for (size_t d = 0; d < N; ++d) out[d] = zero;
  for (unsigned e = 0; e < kTable; ++e) {
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

template <size_t NC>
static void run_kernel(const Job &job) {
  const size_t N = job.N;
  V *M = reinterpret_cast<V *>(job.M);
  const V minv = _mm512_load_si512(reinterpret_cast<const V *>(job.MINV));
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

void avx512f_kernel(const Job &job) {
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
