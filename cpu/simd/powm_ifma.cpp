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
//  - N = 20: mont_r for both the product and the square (dedicated squaring: off-diagonal
//    products once, doubled): the 2N positions in blocks of 12 accumulator registers, the
//    operand digits as a sliding window of registers (no memory operands on the multiplies:
//    on the Intel machine below, VPMADD52 with a memory operand ran ~1.4x slower).
//  - N = 30: mont_r for the square, amm_r (sliding window of N+1 accumulator registers,
//    operands from memory) for the product.
//  - otherwise (N > 4): amm_rows / ams_rows, operand scanning with 4 multiplier digits and 4
//    quotient digits per pass over the in-memory accumulator, held in registers; each operand
//    digit of a column is loaded once into a register (no memory operands on the multiplies),
//    the product's columns are two dependency chains (product terms, Montgomery terms), and
//    the quotient digits of a pass are made with only q -> 2 multiplies -> q serial. Loops
//    over passes and columns are not unrolled (code size). N <= 4: amm.
//  - the table selection keeps the selected digits in registers for a compile-time N.
// Earlier, on the Zen 4 machine (bench/results/simd-powm-*.md): register versions +20..50%
// at N = 20/30, two rows per pass (the former amm2) +30% over one row per pass.
// Measured on the Intel Xeon (family 6 model 167, AVX-512 IFMA, 2 cores, KVM), this machine,
// 2026-11-25, bench_simd ifma_x8_ct, modexp/s per item: 1024 bits 15,300 -> 21,100..22,300
// (mont_r + register selection, load average ~4); 2048 / 3072 / 4096 bits (4 rows per pass
// instead of the former two-row amm2/ams2, load average ~2.8): 1,985..2,015 ->
// 2,240..2,440, 605..668 -> 712..763, 286..300 -> 340..342. Kernel microbenchmark (TSC
// cycles per call, N = 20 / 30): square 690 -> 580 / 1995 -> 1680, product 940 -> 745 /
// 3900 -> 1900, selection 900 -> 360 / 1550 -> 900; N = 40 / 79: square 3455 -> 2860 /
// 12560 -> 10080, product 3820 -> 3420 / 13800 -> 12560. Tried without gain here: mont_r
// at N = 40 (-25%: code size), block widths 6..14 (10..12 best); 6 rows per pass (slower),
// issuing the next pass's quotient digits inside the current pass, 6 or 8 rows per pass
// for the square's products, a single dependency chain per product column (-15%).
//
// The whole file is compiled for avx512f+avx512ifma; it only runs after the caller checked
// cpu::has_avx512ifma(). No std templates or external-linkage inline functions live here.
#if defined(__x86_64__)  // the whole file: x86-64 only (cpu/simd/lanes_impl.h)
#include "core/intrinsics.h"

#include "simd/lanes_impl.h"

#if defined(__clang__)
// clang reports the unroll pragmas of inner loops whose trip count is constant only once the
// enclosing loops are unrolled (mont_r's operand windows)
#pragma clang diagnostic ignored "-Wpass-failed"
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
static inline V madlo(V z, V x, V y) { return _mm512_madd52lo_epu64(z, x, y); }
static inline V madhi(V z, V x, V y) { return _mm512_madd52hi_epu64(z, x, y); }

// r = a*b/R mod m (almost: result in [0, 2m) for a, b in [0, 2m)). r may alias a or b.
// t: 2N vectors of scratch.
template <size_t NC>
static void amm(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
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

// A copy of p that the compiler cannot prove equal to p: loads through it are not merged
// with loads through other copies. Used once per row in the register kernels below, so that
// the operand digits are read from memory (as instruction operands) row by row instead of
// being hoisted into registers for the whole unrolled function, which spills.
template <class T>
static inline const T *fresh(const T *p) {
  __asm__ volatile("" : "+r"(p));
  return p;
}

// Register kernels for a compile-time N. The accumulator is a window of N+1
// registers (positions i..i+N at row i) that slides by one position per row; the operands
// are memory operands. The quotient digit's carry uses that x + lo(m0*q) == 0 mod 2^52: the
// carry out of position i is (x + 2^52 - 1) >> 52, known before q is.

// r = a*b/R mod m (almost), as amm.
template <size_t N>
static void amm_r(V *r, const V *a, const V *b, const V *m, V minv) {
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
  V w[N + 1];
#pragma GCC unroll 64
  for (size_t k = 0; k <= N; ++k) w[k] = zero;
#pragma GCC unroll 64
  for (size_t i = 0; i < N; ++i) {
    const V *ap = fresh(a), *mp = fresh(m);
    const V bi = fresh(b)[i];
    const V x = madlo(w[0], bi, ap[0]);
    const V q = madlo(zero, x, minv);
    const V c = _mm512_srli_epi64(_mm512_add_epi64(x, mask), 52);
    V y = madhi(madlo(w[1], bi, ap[1]), bi, ap[0]);
    y = _mm512_add_epi64(y, c);
    w[0] = madhi(madlo(y, q, mp[1]), q, mp[0]);
#pragma GCC unroll 64
    for (size_t j = 2; j < N; ++j) {
      V z = madhi(madlo(w[j], bi, ap[j]), bi, ap[j - 1]);
      w[j - 1] = madhi(madlo(z, q, mp[j]), q, mp[j - 1]);
    }
    w[N - 1] = madhi(madhi(w[N], bi, ap[N - 1]), q, mp[N - 1]);
    w[N] = zero;
  }
  V c = zero;
#pragma GCC unroll 64
  for (size_t k = 0; k < N; ++k) {
    V v = _mm512_add_epi64(w[k], c);
    c = _mm512_srli_epi64(v, 52);
    r[k] = _mm512_and_si512(v, mask);
  }
}

// Block kernel for compile-time N: the 2N positions of the product are processed in blocks
// of W accumulator registers, low to high. For each block: the product terms (rows of b, or
// of a above the diagonal for a square, then doubled, plus the diagonal), then the Montgomery
// terms of every quotient digit q_i that reaches the block; q_i is computed (and kept in qs)
// when its position i is complete. The operand digits a_j / m_j that a block needs at row i
// form a window j in [p0-1-i, p0+W-1-i] held in registers: one new digit per row, so the
// multiplications take both operands from registers. The low position's carry after q_i
// is (x + 2^52 - 1) >> 52 (x + lo(m0*q) == 0 mod 2^52), without the low product.
// Bounds as amm's, and for the square: a position holds < (2N+2)*2^52 after the doubling and
// the diagonal, the reduction adds < 2N*2^52 + carries: < 2^63 for N < 500. r may alias a or
// b (written at the end).
template <size_t N, size_t W, bool SQR>
static void mont_r(V *r, const V *a, const V *b, const V *m, V minv) {
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
  constexpr int n = (int)N, w = (int)W;
  V qs[N];
  V out[N];
  V carry = zero;  // into the first position of the next block
  V oc = zero;     // normalisation carry of the output digits
#pragma GCC unroll 64
  for (int p0 = 0; p0 < 2 * n; p0 += w) {
    V acc[W];
#pragma GCC unroll 64
    for (int k = 0; k < w; ++k) acc[k] = zero;
    acc[0] = carry;
    {  // product terms: row i (operand x_i = a_i or b_i) times the window of a
      const V *ap = fresh(a);
      const V *xp = SQR ? ap : fresh(b);
      V aw[N];
      bool first = true;
#pragma GCC unroll 64
      for (int i = 0; i < n; ++i) {
        const int jlo = p0 - 1 - i, jhi = p0 + w - 1 - i;  // window of a's digit indices
        const int jmin = SQR ? i + 1 : 0;
        if (jhi < jmin || jlo > n - 1) continue;
        if (first) {
#pragma GCC unroll 64
          for (int j = jlo; j <= jhi; ++j)
            if (j >= jmin && j < n) aw[j] = ap[j];
          first = false;
        } else if (jlo >= jmin && jlo < n) {
          aw[jlo] = ap[jlo];
        }
        const V xi = xp[i];
#pragma GCC unroll 64
        for (int k = 0; k < w; ++k) {
          const int p = p0 + k, jl = p - i, jh = p - 1 - i;
          if (jl >= jmin && jl < n) acc[k] = madlo(acc[k], xi, aw[jl]);
          if (jh >= jmin && jh < n) acc[k] = madhi(acc[k], xi, aw[jh]);
        }
      }
    }
    if (SQR) {
      const V *ap = fresh(a);
#pragma GCC unroll 64
      for (int k = 0; k < w; ++k) {
        const int p = p0 + k;
        if (p >= 2 * n) break;
        V v = _mm512_add_epi64(acc[k], acc[k]);
        if (k == 0) v = _mm512_sub_epi64(v, carry);  // the carry was doubled too
        const V d = ap[p / 2];
        acc[k] = (p & 1) ? madhi(v, d, d) : madlo(v, d, d);
      }
    }
    {  // Montgomery terms: row i adds q_i*m at position i
      const V *mp = fresh(m);
      V mw[N];
      bool first = true;
#pragma GCC unroll 64
      for (int i = 0; i < n; ++i) {
        const int jlo = p0 - 1 - i, jhi = p0 + w - 1 - i;
        if (jhi < 0 || jlo > n - 1) continue;
        V q;
        if (i < p0) {
          q = qs[i];
        } else {  // position i (in this block) is complete
          const int k = i - p0;
          q = madlo(zero, acc[k], minv);
          qs[i] = q;
          const V c = _mm512_srli_epi64(_mm512_add_epi64(acc[k], mask), 52);
          if (k + 1 < w) acc[k + 1] = _mm512_add_epi64(acc[k + 1], c);
          else carry = c;
        }
        if (first) {
#pragma GCC unroll 64
          for (int j = jlo; j <= jhi; ++j)
            if (j >= 0 && j < n) mw[j] = mp[j];
          first = false;
        } else if (jlo >= 0) {
          mw[jlo] = mp[jlo];
        }
#pragma GCC unroll 64
        for (int k = 0; k < w; ++k) {
          const int p = p0 + k, jl = p - i, jh = p - 1 - i;
          if (p <= i) continue;
          if (jl >= 0 && jl < n) acc[k] = madlo(acc[k], q, mw[jl]);
          if (jh >= 0 && jh < n) acc[k] = madhi(acc[k], q, mw[jh]);
        }
      }
    }
    if (p0 + w > n) carry = zero;
#pragma GCC unroll 64
    for (int k = 0; k < w; ++k) {
      const int p = p0 + k;
      if (p < n || p >= 2 * n) continue;
      const V v = _mm512_add_epi64(acc[k], oc);
      oc = _mm512_srli_epi64(v, 52);
      out[p - n] = _mm512_and_si512(v, mask);
    }
  }
#pragma GCC unroll 64
  for (int k = 0; k < n; ++k) r[k] = out[k];
}

// Row-block kernels for the sizes whose accumulator does not fit the registers (operand
// scanning): R rows of the product (PROD) and R quotient rows per pass over the in-memory
// accumulator, the R multiplier digits and R quotient digits held in registers, each
// operand digit of a column loaded once (no memory operands on the multiplies). ti points at
// the pass's first position; positions 0..R-1 (relative) are completed in the head, where the
// quotient digits are made (carry (x + 2^52 - 1) >> 52 as in mont_r), and dropped; the body
// and the tail update positions R..N+R-1. FRESH: positions N..N+R-1 hold nothing yet.
template <int R, bool PROD, bool FRESH>
static inline void rows_pass(V *ti, const V *a, const V *bi, const V *m, V minv, size_t N) {
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
  V bb[R], q[R];
  if (PROD) {
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) bb[r] = bi[r];
  }
  V c = zero;
#pragma GCC unroll 16
  for (int k = 0; k < R; ++k) {
    // the terms of q_(k-1) and the carry last: the serial chain is q -> 2 madds -> q
    V x = ti[k];
#pragma GCC unroll 16
    for (int r = 0; r < k; ++r) {
      if (PROD) x = madhi(madlo(x, a[k - r], bb[r]), a[k - r - 1], bb[r]);
      if (r + 1 < k) x = madhi(madlo(x, m[k - r], q[r]), m[k - r - 1], q[r]);
    }
    if (PROD) x = madlo(x, a[0], bb[k]);
    if (k) x = madhi(madlo(_mm512_add_epi64(x, c), m[1], q[k - 1]), m[0], q[k - 1]);
    q[k] = madlo(zero, x, minv);
    c = _mm512_srli_epi64(_mm512_add_epi64(x, mask), 52);
  }
  ti[R] = _mm512_add_epi64(ti[R], c);
#pragma GCC unroll 2
  for (size_t j = R; j < N; ++j) {
    V ad[R + 1], md[R + 1];
#pragma GCC unroll 16
    for (int r = 0; r <= R; ++r) {
      if (PROD) ad[r] = a[j - r];
      md[r] = m[j - r];
    }
    V y = ti[j];
    if (PROD) {  // two dependency chains
      V z = zero;
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) {
        y = madhi(madlo(y, ad[r], bb[r]), ad[r + 1], bb[r]);
        z = madhi(madlo(z, md[r], q[r]), md[r + 1], q[r]);
      }
      y = _mm512_add_epi64(y, z);
    } else {
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) {
        if (PROD) y = madhi(madlo(y, ad[r], bb[r]), ad[r + 1], bb[r]);
        y = madhi(madlo(y, md[r], q[r]), md[r + 1], q[r]);
      }
    }
    ti[j] = y;
  }
#pragma GCC unroll 16
  for (int v = 0; v < R; ++v) {  // positions N+v: the digits up to N-1
    const size_t j = N + v;
    V y = FRESH ? zero : ti[j];
#pragma GCC unroll 16
    for (int r = v; r < R; ++r) {
      if (r > v) {
        if (PROD) y = madlo(y, a[j - r], bb[r]);
        y = madlo(y, m[j - r], q[r]);
      }
      if (PROD) y = madhi(y, a[j - r - 1], bb[r]);
      y = madhi(y, m[j - r - 1], q[r]);
    }
    ti[j] = y;
  }
}

// r = a*b/R mod m (almost), R rows per pass (the last N mod R rows one at a time). Needs
// N > R. t: 2N vectors.
template <size_t NC, int R>
static void amm_rows(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
  for (size_t k = 0; k < N; ++k) t[k] = zero;
  const size_t full = N / R * R;
#pragma GCC unroll 1
  for (size_t i = 0; i < full; i += R) rows_pass<R, true, true>(t + i, a, b + i, m, minv, N);
#pragma GCC unroll 1
  for (size_t i = full; i < N; ++i) rows_pass<1, true, true>(t + i, a, b + i, m, minv, N);
  V c = zero;
  for (size_t k = 0; k < N; ++k) {
    V v = _mm512_add_epi64(t[N + k], c);
    c = _mm512_srli_epi64(v, 52);
    r[k] = _mm512_and_si512(v, mask);
  }
}

// Off-diagonal products of rows i..i+R-1 of a square (a_(i+r) * a_j for j > i+r) into t,
// R rows per pass; needs i + 2R <= N. Position p = 2i + u.
template <int R>
static inline void sqr_rows_pass(V *t, const V *a, size_t i, size_t N) {
  V ar[R];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) ar[r] = a[i + r];
#pragma GCC unroll 16
  for (int u = 1; u < 2 * R; ++u) {  // head: positions 2i+1 .. 2i+2R-1
    V y = t[2 * i + u];
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      if (u > 2 * r) y = madlo(y, ar[r], a[i + u - r]);
      if (u - 1 > 2 * r) y = madhi(y, ar[r], a[i + u - r - 1]);
    }
    t[2 * i + u] = y;
  }
#pragma GCC unroll 2
  for (size_t p = 2 * i + 2 * R; p < i + N; ++p) {
    V ad[R + 1];
#pragma GCC unroll 16
    for (int r = 0; r <= R; ++r) ad[r] = a[p - i - r];
    V y = t[p];
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) y = madhi(madlo(y, ar[r], ad[r]), ar[r], ad[r + 1]);
    t[p] = y;
  }
#pragma GCC unroll 16
  for (int v = 0; v < R; ++v) {  // tail: positions i+N+v
    V y = t[i + N + v];
#pragma GCC unroll 16
    for (int r = v; r < R; ++r) {
      if (r > v) y = madlo(y, ar[r], a[N + v - r]);
      y = madhi(y, ar[r], a[N + v - r - 1]);
    }
    t[i + N + v] = y;
  }
}

// Square: the off-diagonal products R rows per pass (the last rows one at a time), doubled,
// plus the diagonal, then the reduction R quotient rows per pass. Same bounds as mont_r's
// square. Needs N > R. t: 2N vectors.
template <size_t NC, int R>
static void ams_rows(V *r, const V *a, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = _mm512_setzero_si512();
  const V mask = _mm512_set1_epi64((1ll << 52) - 1);
  for (size_t k = 0; k < 2 * N; ++k) t[k] = zero;
  size_t i = 0;
#pragma GCC unroll 1
  for (; i + 2 * R <= N; i += R) sqr_rows_pass<R>(t, a, i, N);
#pragma GCC unroll 1
  for (; i + 1 < N; ++i) {
    const V ai = a[i];
    V *ti = t + i;
    ti[i + 1] = madlo(ti[i + 1], ai, a[i + 1]);
    for (size_t j = i + 2; j < N; ++j) ti[j] = madhi(madlo(ti[j], ai, a[j]), ai, a[j - 1]);
    ti[N] = madhi(ti[N], ai, a[N - 1]);
  }
  for (size_t k = 0; k < N; ++k) {
    const V d = a[k];
    t[2 * k] = madlo(_mm512_add_epi64(t[2 * k], t[2 * k]), d, d);
    t[2 * k + 1] = madhi(_mm512_add_epi64(t[2 * k + 1], t[2 * k + 1]), d, d);
  }
  const size_t full = N / R * R;
#pragma GCC unroll 1
  for (i = 0; i < full; i += R) rows_pass<R, false, false>(t + i, a, nullptr, m, minv, N);
#pragma GCC unroll 1
  for (i = full; i < N; ++i) rows_pass<1, false, false>(t + i, a, nullptr, m, minv, N);
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
  if constexpr (NC == 20) mont_r<20, 12, false>(r, a, b, m, minv);
  else if constexpr (NC == 30) amm_r<30>(r, a, b, m, minv);
  else if (N > 4) amm_rows<NC, 4>(r, a, b, m, minv, t, N);
  else amm<NC>(r, a, b, m, minv, t, N);
}
template <size_t NC>
static inline void sqrw(V *r, const V *a, const V *m, V minv, V *t, size_t N) {
  if constexpr (NC == 20) mont_r<20, 12, true>(r, a, a, m, minv);
  else if constexpr (NC == 30) mont_r<30, 10, true>(r, a, a, m, minv);
  else if (N > 4) ams_rows<NC, 4>(r, a, m, minv, t, N);
  else mulw<NC>(r, a, a, m, minv, t, N);
}

// out = tab[idx[lane]] lane by lane, reading every entry (masked moves, no secret addresses).
// With a compile-time N the output digits stay in registers, a block of at most 16 at a time.
template <size_t NC>
static void select(V *out, const V *tab, size_t Nrt, V idx, unsigned entries) {
  const V zero = _mm512_setzero_si512();
  if (NC) {
    constexpr size_t nb = (NC + 15) / 16, B = NC ? (NC + nb - 1) / nb : 1;
#pragma GCC unroll 8
    for (size_t d0 = 0; d0 < NC; d0 += B) {
      V o[B];
#pragma GCC unroll 32
      for (size_t d = 0; d < B; ++d) o[d] = zero;
      V ev = zero;
      const V one = _mm512_set1_epi64(1);
      const V *te = fresh(tab) + d0;
#pragma GCC unroll 1
      for (unsigned e = 0; e < entries; ++e) {
        const __mmask8 k = _mm512_cmpeq_epu64_mask(idx, ev);
#pragma GCC unroll 32
        for (size_t d = 0; d < B; ++d)
          if (d0 + d < NC) o[d] = _mm512_mask_mov_epi64(o[d], k, te[d]);
        te += NC;
        ev = _mm512_add_epi64(ev, one);
      }
#pragma GCC unroll 32
      for (size_t d = 0; d < B; ++d)
        if (d0 + d < NC) out[d0 + d] = o[d];
    }
    return;
  }
  const size_t N = Nrt;
  for (size_t d = 0; d < N; ++d) out[d] = zero;
  for (unsigned e = 0; e < entries; ++e) {
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

  const unsigned w = job.win, entries = 1u << w;  // (public: from the exponent's width)
  mulw<NC>(TAB, R2, ONE, M, minv, T, N);          // R mod m (Montgomery one)
  mulw<NC>(TAB + N, B, R2, M, minv, T, N);        // base * R mod m
  for (unsigned k = 2; k < entries; ++k) mulw<NC>(TAB + k * N, TAB + (k - 1) * N, TAB + N, M, minv, T, N);

  const size_t bits = job.ebits;
  if (bits == 0) {
    for (size_t d = 0; d < N; ++d) ACC[d] = TAB[d];
  } else {
    const size_t nw = (bits + w - 1) / w;
    const unsigned top = (unsigned)(bits - w * (nw - 1));
    size_t pos = bits - top;
    select<NC>(ACC, TAB, N, window(job, pos, top), entries);
    while (pos > 0) {
      pos -= w;
      for (unsigned s = 0; s < w; ++s) sqrw<NC>(ACC, ACC, M, minv, T, N);
      if (job.vt && window_zero_all(job, pos, w)) continue;  // (variable time: a product by one)
      select<NC>(SEL, TAB, N, window(job, pos, w), entries);
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

#endif  // __x86_64__
