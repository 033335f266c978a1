// cpu/simd/powm_ifma.cpp: 8-lane Montgomery exponentiation with AVX-512 IFMA.
//
// One item per 64-bit lane, numbers as N digits of 52 bits (lane-interleaved), multiplied
// with VPMADD52LUQ/VPMADD52HUQ. Almost-Montgomery multiplication, word by word: the
// accumulator digits stay un-normalised (each receives at most 4 product halves of < 2^52
// per step over at most N steps, < 2^63 for N < 500; the driver allows N <= 316), only the
// low digit's carry is pushed up each step so that the quotient digit is exact, and the
// result is normalised once at the end. Inputs in [0, 2m) give outputs in [0, 2m) because
// R = 2^(52N) > 4m.
//
// By size (N digits; 1024/1536/2048/3072/4096-bit moduli have N = 20/30/40/60/79 and get
// compile-time instantiations, other sizes a run-time N):
//  - N <= 30 (compile time): amm / ams fully unrolled with the accumulator in registers;
//    ams is a dedicated squaring (off-diagonal products once, doubled) + reduction.
//  - otherwise: amm2 / ams2, two rows per pass over the in-memory accumulator.
// Measured on the Zen 4 machine (bench/results/simd-powm-*.md): the register versions gave
// +20..50% at N = 20/30, amm2 +30% over one row per pass, ams2 +6..10% over amm2 squaring.
//
// The whole file is compiled for avx512f+avx512ifma; it only runs after the caller checked
// cpu::has_avx512ifma(). No std templates or external-linkage inline functions live here.
#include "core/intrinsics.h"

#include "simd/lanes_impl.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512ifma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512ifma")
#endif

namespace mpb {
namespace simd {
namespace detail {
namespace {

using V = __m512i;
constexpr size_t kRegDigits = 30;  // fully unrolled, register-resident accumulator up to this

static inline V madlo(V z, V x, V y) { return _mm512_madd52lo_epu64(z, x, y); }
static inline V madhi(V z, V x, V y) { return _mm512_madd52hi_epu64(z, x, y); }

// r = a*b/R mod m (almost: result in [0, 2m) for a, b in [0, 2m)). r may alias a or b.
// t: 2N vectors of scratch.
template <size_t NC>
static void amm(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
  // with a compile-time size and full unrolling the accumulator lives in registers
  V tl[NC && NC <= kRegDigits ? 2 * NC : 1];
  if (NC && NC <= kRegDigits) t = tl;
  for (size_t k = 0; k < N; ++k) t[k] = zero;
#pragma GCC unroll 64
  for (size_t i = 0; i < N; ++i) {
    const V bi = b[i];
    V *ti = t + i;
    V x = madlo(ti[0], a[0], bi);
    const V q = madlo(zero, x, minv);  // < 2^52: only the low 52 bits of x and minv are used
    x = madlo(x, m[0], q);             // low 52 bits now zero
    const V carry = _mm512_srli_epi64(x, 52);
#pragma GCC unroll 64
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
#pragma GCC unroll 64
  for (size_t k = 0; k < N; ++k) {
    V v = _mm512_add_epi64(t[N + k], c);
    c = _mm512_srli_epi64(v, 52);
    r[k] = _mm512_and_si512(v, mask);
  }
}

// amm with two multiplier digits per pass over the accumulator (halves its loads and
// stores; for the sizes whose accumulator does not fit the registers). Same terms, same
// bounds as amm; the quotient digit of the second row is computed after the first row's
// contribution to its position.
template <size_t NC>
static void amm2(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
  for (size_t k = 0; k < N; ++k) t[k] = zero;
  size_t i = 0;
  for (; i + 1 < N; i += 2) {
    const V b0 = b[i], b1 = b[i + 1];
    V *ti = t + i;
    V x0 = madlo(ti[0], a[0], b0);
    const V q0 = madlo(zero, x0, minv);
    x0 = madlo(x0, m[0], q0);
    V x1 = _mm512_add_epi64(ti[1], _mm512_srli_epi64(x0, 52));
    x1 = madhi(madlo(x1, a[1], b0), a[0], b0);
    x1 = madhi(madlo(x1, m[1], q0), m[0], q0);
    x1 = madlo(x1, a[0], b1);
    const V q1 = madlo(zero, x1, minv);
    x1 = madlo(x1, m[0], q1);
    V y = _mm512_add_epi64(ti[2], _mm512_srli_epi64(x1, 52));
    // position i+2 .. i+N-1: both rows complete
    for (size_t j = 2; j < N; ++j) {
      if (j > 2) y = ti[j];
      y = madlo(y, a[j], b0);
      y = madhi(y, a[j - 1], b0);
      y = madlo(y, a[j - 1], b1);
      y = madhi(y, a[j - 2], b1);
      y = madlo(y, m[j], q0);
      y = madhi(y, m[j - 1], q0);
      y = madlo(y, m[j - 1], q1);
      y = madhi(y, m[j - 2], q1);
      ti[j] = y;
    }
    V z = madhi(madhi(zero, a[N - 1], b0), m[N - 1], q0);
    z = madhi(madlo(z, a[N - 1], b1), a[N - 2], b1);
    z = madhi(madlo(z, m[N - 1], q1), m[N - 2], q1);
    ti[N] = z;
    ti[N + 1] = madhi(madhi(zero, a[N - 1], b1), m[N - 1], q1);
  }
  if (i < N) {  // odd N: one last single row
    const V bi = b[i];
    V *ti = t + i;
    V x = madlo(ti[0], a[0], bi);
    const V q = madlo(zero, x, minv);
    x = madlo(x, m[0], q);
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

// r = a^2/R mod m (almost), as amm(r, a, a, ...): the off-diagonal products once, doubled,
// the diagonal added, then word-by-word Montgomery reduction of the 2N-digit square.
// Bounds: before doubling a digit holds < N products' halves (< N*2^52), after doubling and
// the diagonal < (2N+2)*2^52, the reduction adds < 2N*2^52 + carries: < 2^63 for N < 500.
template <size_t NC>
static void ams(V *r, const V *a, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
  V tl[NC && NC <= kRegDigits ? 2 * NC : 1];
  if (NC && NC <= kRegDigits) t = tl;
#pragma GCC unroll 64
  for (size_t k = 0; k < 2 * N; ++k) t[k] = zero;
#pragma GCC unroll 64
  for (size_t i = 0; i + 1 < N; ++i) {
    const V ai = a[i];
    V *ti = t + i;
    ti[i + 1] = madlo(ti[i + 1], ai, a[i + 1]);
#pragma GCC unroll 64
  for (size_t j = i + 2; j < N; ++j) ti[j] = madhi(madlo(ti[j], ai, a[j]), ai, a[j - 1]);
    ti[N] = madhi(ti[N], ai, a[N - 1]);
  }
#pragma GCC unroll 64
  for (size_t k = 1; k < 2 * N; ++k) t[k] = _mm512_add_epi64(t[k], t[k]);
#pragma GCC unroll 64
  for (size_t i = 0; i < N; ++i) {
    t[2 * i] = madlo(t[2 * i], a[i], a[i]);
    t[2 * i + 1] = madhi(t[2 * i + 1], a[i], a[i]);
  }
#pragma GCC unroll 64
  for (size_t i = 0; i < N; ++i) {
    V *ti = t + i;
    const V q = madlo(zero, ti[0], minv);
    const V x = madlo(ti[0], m[0], q);
    const V carry = _mm512_srli_epi64(x, 52);
    V y = ti[1];
    if (N > 1) y = madlo(y, m[1], q);
    y = madhi(y, m[0], q);
    ti[1] = _mm512_add_epi64(y, carry);
#pragma GCC unroll 64
  for (size_t j = 2; j < N; ++j) ti[j] = madhi(madlo(ti[j], m[j], q), m[j - 1], q);
    if (N > 1) ti[N] = madhi(ti[N], m[N - 1], q);
  }
  V c = zero;
#pragma GCC unroll 64
  for (size_t k = 0; k < N; ++k) {
    V v = _mm512_add_epi64(t[N + k], c);
    c = _mm512_srli_epi64(v, 52);
    r[k] = _mm512_and_si512(v, mask);
  }
}

// ams for the sizes whose accumulator does not fit the registers: the same square (off-
// diagonal products once, doubled, plus the diagonal) and reduction, both two rows per pass
// over the accumulator. Needs N >= 5. Same bounds as ams.
template <size_t NC>
static void ams2(V *r, const V *a, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
  for (size_t k = 0; k < 2 * N; ++k) t[k] = zero;
  size_t i = 0;
  // rows i and i+1 of the off-diagonal products: position i+j gets a_i*a_j (lo), a_i*a_(j-1)
  // (hi), a_(i+1)*a_(j-1) (lo), a_(i+1)*a_(j-2) (hi) where those pairs are above the diagonal
  for (; i + 5 <= N; i += 2) {
    const V a0 = a[i], a1 = a[i + 1];
    V *ti = t + i;
    ti[i + 1] = madlo(ti[i + 1], a0, a1);
    ti[i + 2] = madhi(madlo(ti[i + 2], a0, a[i + 2]), a0, a1);
    ti[i + 3] = madlo(madhi(madlo(ti[i + 3], a0, a[i + 3]), a0, a[i + 2]), a1, a[i + 2]);
    for (size_t j = i + 4; j < N; ++j)
      ti[j] = madhi(madlo(madhi(madlo(ti[j], a0, a[j]), a0, a[j - 1]), a1, a[j - 1]), a1, a[j - 2]);
    ti[N] = madhi(madlo(madhi(ti[N], a0, a[N - 1]), a1, a[N - 1]), a1, a[N - 2]);
    ti[N + 1] = madhi(ti[N + 1], a1, a[N - 1]);
  }
  for (; i + 1 < N; ++i) {
    const V ai = a[i];
    V *ti = t + i;
    ti[i + 1] = madlo(ti[i + 1], ai, a[i + 1]);
    for (size_t j = i + 2; j < N; ++j) ti[j] = madhi(madlo(ti[j], ai, a[j]), ai, a[j - 1]);
    ti[N] = madhi(ti[N], ai, a[N - 1]);
  }
  for (size_t k = 0; k < N; ++k) {
    t[2 * k] = madlo(_mm512_add_epi64(t[2 * k], t[2 * k]), a[k], a[k]);
    t[2 * k + 1] = madhi(_mm512_add_epi64(t[2 * k + 1], t[2 * k + 1]), a[k], a[k]);
  }
  // reduction, two quotient digits per pass
  for (i = 0; i + 1 < N; i += 2) {
    V *ti = t + i;
    const V q0 = madlo(zero, ti[0], minv);
    const V x0 = madlo(ti[0], m[0], q0);
    V x1 = _mm512_add_epi64(ti[1], _mm512_srli_epi64(x0, 52));
    x1 = madhi(madlo(x1, m[1], q0), m[0], q0);
    const V q1 = madlo(zero, x1, minv);
    x1 = madlo(x1, m[0], q1);
    V y = _mm512_add_epi64(ti[2], _mm512_srli_epi64(x1, 52));
    for (size_t j = 2; j < N; ++j) {
      if (j > 2) y = ti[j];
      y = madhi(madlo(madhi(madlo(y, m[j], q0), m[j - 1], q0), m[j - 1], q1), m[j - 2], q1);
      ti[j] = y;
    }
    ti[N] = madhi(madlo(madhi(ti[N], m[N - 1], q0), m[N - 1], q1), m[N - 2], q1);
    ti[N + 1] = madhi(ti[N + 1], m[N - 1], q1);
  }
  if (i < N) {  // odd N: one last single row
    V *ti = t + i;
    const V q = madlo(zero, ti[0], minv);
    const V x = madlo(ti[0], m[0], q);
    const V carry = _mm512_srli_epi64(x, 52);
    ti[1] = _mm512_add_epi64(madhi(madlo(ti[1], m[1], q), m[0], q), carry);
    for (size_t j = 2; j < N; ++j) ti[j] = madhi(madlo(ti[j], m[j], q), m[j - 1], q);
    ti[N] = madhi(ti[N], m[N - 1], q);
  }
  V c = zero;
  for (size_t k = 0; k < N; ++k) {
    V v = _mm512_add_epi64(t[N + k], c);
    c = _mm512_srli_epi64(v, 52);
    r[k] = _mm512_and_si512(v, mask);
  }
}

// The multiplication and squaring used by the exponentiation, chosen by size.
template <size_t NC>
static inline void mulw(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t N) {
  if (NC && NC <= kRegDigits) amm<NC>(r, a, b, m, minv, t, N);
  else if (N >= 3) amm2<NC>(r, a, b, m, minv, t, N);
  else amm<NC>(r, a, b, m, minv, t, N);
}
template <size_t NC>
static inline void sqrw(V *r, const V *a, const V *m, V minv, V *t, size_t N) {
  if (NC && NC <= kRegDigits) ams<NC>(r, a, m, minv, t, N);
  else if (N >= 5) ams2<NC>(r, a, m, minv, t, N);
  else mulw<NC>(r, a, a, m, minv, t, N);
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

template <size_t NC>
static void run_kernel(const Job &job) {
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

  mulw<NC>(TAB, R2, ONE, M, minv, T, N);          // R mod m (Montgomery one)
  mulw<NC>(TAB + N, B, R2, M, minv, T, N);        // base * R mod m
  for (unsigned k = 2; k < kTable; ++k) mulw<NC>(TAB + k * N, TAB + (k - 1) * N, TAB + N, M, minv, T, N);

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
      for (unsigned s = 0; s < kWindow; ++s) sqrw<NC>(ACC, ACC, M, minv, T, N);
      select(SEL, TAB, N, window(job, pos, kWindow));
      mulw<NC>(ACC, ACC, SEL, M, minv, T, N);
    }
  }
  mulw<NC>(ACC, ACC, ONE, M, minv, T, N);  // leave the Montgomery domain: result in [0, m]
}

}  // namespace

void ifma_kernel(const Job &job) {
  switch (job.N) {  // compile-time digit counts for the common sizes (1024..4096-bit moduli)
    case 20: run_kernel<20>(job); break;
    case 30: run_kernel<30>(job); break;
    case 40: run_kernel<40>(job); break;
    case 60: run_kernel<60>(job); break;
    case 79: run_kernel<79>(job); break;
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
