// cuda/thread/mont.cuh: per-thread multiple-precision arithmetic on N 32-bit words
// (host + device). One GPU thread owns one item; every loop is unrolled over the
// compile-time N, so operands live in registers.
//
//  - mul_comba_dc<N>:  delayed-carry Comba (seed 003): per column, the low and the high halves
//                      of the 32x32->64 products are summed in two 64-bit accumulators and the
//                      carries are resolved once per column;
//  - mul_chain<N>:     operand scanning with hardware carry chains (mad.lo.cc / madc.hi.cc);
//  - mont_mul<N>:      Montgomery multiplication (CIOS, carry chains), r = a*b/R mod n with
//                      R = 2^(32N), for an odd n < R; inputs < n give an output < n; a run-time
//                      `square` flag lets one inlined copy serve squarings too;
//  - sqr_chain<N>, mont_sqr_chain<N>: dedicated squaring, cross products once (row by row,
//                      carry chains), doubled, plus the diagonal (N^2/2 + N/2 products), then a
//                      Montgomery reduction (N^2 products);
//  - mont_comba_dc<N, SQUARE>: Montgomery product or square by delayed-carry product scanning
//                      (seed 003: quotient digits chosen column by column);
//  - mont_step<V, N>:  the exponentiation loop's step with the variant V (MontVariant,
//                      tuning::GPU_POWM_MONT): one CIOS copy, CIOS + mont_sqr_chain, or Comba;
//  - mont_redc<N>:     r = x/R mod n for a 2N-word x < n*R.
// The second operand of mont_mul is read through a functor b(i) -> word i, so it can come
// from registers, from memory, or from a constant-time table scan (cuda/thread/powm.cuh).
#pragma once
#include "cuda/thread/chain.cuh"

namespace mpb {
namespace gpu {

// Second-operand providers ------------------------------------------------------------------
struct RegWords {  // words held by the caller (registers after unrolling)
  const uint32_t *p;
  MPB_HD uint32_t operator()(int i) const { return p[i]; }
};
struct OneWord {   // the value 1 (used by from-Montgomery conversion)
  MPB_HD uint32_t operator()(int i) const { return i == 0 ? 1u : 0u; }
};

// Small helpers ---------------------------------------------------------------------------
template <int N>
MPB_HD void copy_words(uint32_t *r, const uint32_t *a) {
MPB_UNROLL
  for (int i = 0; i < N; i++) r[i] = a[i];
}

// r = a - n if a >= n else a, branch-free. a has N words plus a top word `top` (0 or 1).
template <int N>
MPB_HD void cond_sub_n(uint32_t *r, const uint32_t *a, uint32_t top, const uint32_t *n) {
  uint32_t s[N];
  Chain c;
  s[0] = c.sub_cc(a[0], n[0]);
MPB_UNROLL
  for (int i = 1; i < N; i++) s[i] = c.subc_cc(a[i], n[i]);
  uint32_t borrow = c.subc(top, 0);        // 0 when a >= n, 0xFFFFFFFF when a < n
  uint32_t keep_a = borrow;                // all ones -> keep a
MPB_UNROLL
  for (int i = 0; i < N; i++) r[i] = select(keep_a, a[i], s[i]);
}

// r = (a + b) mod n for a, b < n
template <int N>
MPB_HD void add_mod(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *n) {
  uint32_t s[N];
  Chain c;
  s[0] = c.add_cc(a[0], b[0]);
MPB_UNROLL
  for (int i = 1; i < N; i++) s[i] = c.addc_cc(a[i], b[i]);
  uint32_t top = c.addc(0, 0);
  cond_sub_n<N>(r, s, top, n);
}

// r = (a - b) mod n for a, b < n
template <int N>
MPB_HD void sub_mod(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *n) {
  uint32_t d[N];
  Chain c;
  d[0] = c.sub_cc(a[0], b[0]);
MPB_UNROLL
  for (int i = 1; i < N; i++) d[i] = c.subc_cc(a[i], b[i]);
  uint32_t mask = c.subc(0, 0);  // all ones when a < b: add n back
  Chain c2;
  r[0] = c2.add_cc(d[0], n[0] & mask);
MPB_UNROLL
  for (int i = 1; i < N; i++) r[i] = c2.addc_cc(d[i], n[i] & mask);
}

// Plain products ---------------------------------------------------------------------------
// r[0..2N) = a * b, delayed-carry Comba (seed 003 on 32-bit digits).
template <int N>
MPB_HD void mul_comba_dc(uint32_t *r, const uint32_t *a, const uint32_t *b) {
  uint64_t lo = 0, hi = 0;  // sums of the low and high halves of the column's products
MPB_UNROLL
  for (int k = 0; k < 2 * N - 1; k++) {
MPB_UNROLL
    for (int i = 0; i < N; i++) {  // constant bounds: fully unrolled, registers only
      if (k - i < 0 || k - i >= N) continue;
      uint32_t x = a[i], y = b[k - i];
      lo += mul_lo(x, y);
      hi += mul_hi(x, y);
    }
    // resolve the column once: word k is the low half of lo; its high half is the carry
    // into column k+1, and the high halves of this column's products belong there too
    r[k] = (uint32_t)lo;
    lo = (lo >> 32) + hi;
    hi = 0;
  }
  r[2 * N - 1] = (uint32_t)lo;
}

// r[0..2N) = a * b, operand scanning with hardware carry chains.
template <int N>
MPB_HD void mul_chain(uint32_t *r, const uint32_t *a, const uint32_t *b) {
  uint32_t t[2 * N];
MPB_UNROLL
  for (int i = 0; i < 2 * N; i++) t[i] = 0;
MPB_UNROLL
  for (int i = 0; i < N; i++) {
    uint32_t bi = b[i];
    Chain c;
    t[i] = c.mad_lo_cc(a[0], bi, t[i]);
MPB_UNROLL
    for (int j = 1; j < N; j++) t[i + j] = c.madc_lo_cc(a[j], bi, t[i + j]);
    t[i + N] = c.addc(t[i + N], 0);
    if (N == 1) {
      t[i + 1] += mul_hi(a[0], bi);  // cannot carry: the row fits in N+1 words
    } else {
      Chain d;
      t[i + 1] = d.mad_hi_cc(a[0], bi, t[i + 1]);
MPB_UNROLL
      for (int j = 1; j < N - 1; j++) t[i + j + 1] = d.madc_hi_cc(a[j], bi, t[i + j + 1]);
      t[i + N] = d.madc_hi(a[N - 1], bi, t[i + N]);
    }
  }
MPB_UNROLL
  for (int i = 0; i < 2 * N; i++) r[i] = t[i];
}

// Montgomery ---------------------------------------------------------------------------------
// One reduction row of CIOS on the (N+2)-word accumulator t: t += q*n with q making t[0] zero,
// then t /= 2^32 (t[N+1] is zero on return).
template <int N>
MPB_HD void mont_reduce_row(uint32_t *t, const uint32_t *n, uint32_t ninv) {
  const uint32_t q = t[0] * ninv;
  Chain c;
  t[0] = c.mad_lo_cc(q, n[0], t[0]);
MPB_UNROLL
  for (int j = 1; j < N; j++) t[j] = c.madc_lo_cc(q, n[j], t[j]);
  t[N] = c.addc_cc(t[N], 0);
  t[N + 1] = c.addc(t[N + 1], 0);
  Chain d;
  t[1] = d.mad_hi_cc(q, n[0], t[1]);
MPB_UNROLL
  for (int j = 1; j < N; j++) t[j + 1] = d.madc_hi_cc(q, n[j], t[j + 1]);
  t[N + 1] = d.addc(t[N + 1], 0);
MPB_UNROLL
  for (int j = 0; j < N + 1; j++) t[j] = t[j + 1];
  t[N + 1] = 0;
}

// r = a * b / 2^(32N) mod n. n odd, ninv = -n^-1 mod 2^32, a, b < n. r may alias a.
// square = true ignores b and multiplies a by itself (a run-time flag: a per-word select
// between a[i] and b(i), not a branch, so one inlined copy serves both squarings and
// products, and threads of a warp that disagree on it do not diverge).
template <int N, class B>
MPB_HD void mont_mul(uint32_t *r, const uint32_t *a, const B &b, const uint32_t *n,
                      uint32_t ninv, bool square = false) {
  uint32_t t[N + 2];
MPB_UNROLL
  for (int j = 0; j < N + 2; j++) t[j] = 0;
MPB_UNROLL
  for (int i = 0; i < N; i++) {
    const uint32_t bi = square ? a[i] : b(i);
    {  // t += a * bi: low halves into t[j], high halves into t[j+1]
      Chain c;
      t[0] = c.mad_lo_cc(a[0], bi, t[0]);
MPB_UNROLL
      for (int j = 1; j < N; j++) t[j] = c.madc_lo_cc(a[j], bi, t[j]);
      t[N] = c.addc_cc(t[N], 0);
      t[N + 1] = c.addc(t[N + 1], 0);
      Chain d;
      t[1] = d.mad_hi_cc(a[0], bi, t[1]);
MPB_UNROLL
      for (int j = 1; j < N; j++) t[j + 1] = d.madc_hi_cc(a[j], bi, t[j + 1]);
      t[N + 1] = d.addc(t[N + 1], 0);
    }
    mont_reduce_row<N>(t, n, ninv);  // t += q * n, t /= 2^32
  }
  // t < 2n: one branch-free conditional subtraction
  cond_sub_n<N>(r, t, t[N], n);
}

// r[0..2N) = a^2 with carry chains: the cross products a_i*a_j (i < j) once, row by row
// (N(N-1)/2 products), doubled by one add chain, plus the diagonal a_i^2 (N products).
template <int N>
MPB_HD void sqr_chain(uint32_t *t, const uint32_t *a) {
MPB_UNROLL
  for (int k = 0; k < 2 * N; k++) t[k] = 0;
MPB_UNROLL
  for (int i = 0; i < N - 1; i++) {
    // row i: a_i * a[i+1..N) at words 2i+1 ..; t[i+N] is still zero here, and the rows so far
    // sum to less than 2^(32(i+N+1)), so neither chain carries out of word i+N
    const uint32_t ai = a[i];
    Chain c;
    t[2 * i + 1] = c.mad_lo_cc(a[i + 1], ai, t[2 * i + 1]);
MPB_UNROLL
    for (int j = i + 2; j < N; j++) t[i + j] = c.madc_lo_cc(a[j], ai, t[i + j]);
    t[i + N] = c.addc(t[i + N], 0);
    Chain d;
    t[2 * i + 2] = d.mad_hi_cc(a[i + 1], ai, t[2 * i + 2]);
MPB_UNROLL
    for (int j = i + 2; j < N; j++) t[i + j + 1] = d.madc_hi_cc(a[j], ai, t[i + j + 1]);
  }
  {  // double the cross sum (< a^2/2, so no bit leaves word 2N-1); t[0] is zero
    Chain c;
    t[1] = c.add_cc(t[1], t[1]);
MPB_UNROLL
    for (int k = 2; k < 2 * N - 1; k++) t[k] = c.addc_cc(t[k], t[k]);
    t[2 * N - 1] = c.addc(t[2 * N - 1], t[2 * N - 1]);
  }
  {  // add the diagonal a_i^2 at words 2i, 2i+1
    Chain c;
    t[0] = c.mad_lo_cc(a[0], a[0], t[0]);
    t[1] = c.madc_hi_cc(a[0], a[0], t[1]);
MPB_UNROLL
    for (int i = 1; i < N - 1; i++) {
      t[2 * i] = c.madc_lo_cc(a[i], a[i], t[2 * i]);
      t[2 * i + 1] = c.madc_hi_cc(a[i], a[i], t[2 * i + 1]);
    }
    if (N > 1) {
      t[2 * N - 2] = c.madc_lo_cc(a[N - 1], a[N - 1], t[2 * N - 2]);
      t[2 * N - 1] = c.madc_hi(a[N - 1], a[N - 1], t[2 * N - 1]);
    }
  }
}

// r = a^2 / 2^(32N) mod n (dedicated square): sqr_chain (about N^2/2 + N products), then a
// Montgomery reduction of the 2N-word square (N^2 products) on a sliding (N+2)-word window:
// row i brings in word N+i of the square. Same contract as mont_mul; r may alias a.
template <int N>
MPB_HD void mont_sqr_chain(uint32_t *r, const uint32_t *a, const uint32_t *n, uint32_t ninv) {
  uint32_t x[2 * N], t[N + 2];
  sqr_chain<N>(x, a);
MPB_UNROLL
  for (int j = 0; j < N; j++) t[j] = x[j];
  t[N] = t[N + 1] = 0;
MPB_UNROLL
  for (int i = 0; i < N; i++) {
    mont_reduce_row<N>(t, n, ninv);  // t[k] is now word i+1+k of the running sum
    Chain c;
    t[N - 1] = c.add_cc(t[N - 1], x[N + i]);
    t[N] = c.addc_cc(t[N], 0);
    t[N + 1] = c.addc(t[N + 1], 0);
  }
  // (a^2 + q*n) / R < (n^2 + R*n) / R < 2n
  cond_sub_n<N>(r, t, t[N], n);
}

// Delayed-carry product scanning (seed 003) for Montgomery: column k of a*b + q*n is summed
// with the low halves of its 32x32->64 products in one 64-bit accumulator and the high halves
// (which belong to column k+1) in another, and the carries are resolved once per column.
// For k < N the quotient digit q_k is chosen from the column's low word so that the column
// becomes zero; columns N .. 2N-1 are the result. SQUARE: the cross products a_i*a_j (i < j)
// are summed once and the column doubled before the diagonal a_{k/2}^2 is added.
// The accumulators stay below 2^64: a column has at most 2N+1 terms below 2^32 plus a carry
// below (2N+2)*2^32.
template <int N, bool SQUARE, class B>
MPB_HD void mont_comba_dc(uint32_t *r, const uint32_t *a, const B &b, const uint32_t *n,
                           uint32_t ninv) {
  uint32_t bw[N], q[N], out[N];
MPB_UNROLL
  for (int j = 0; j < N; j++) bw[j] = SQUARE ? a[j] : b(j);  // read the operand once
  uint64_t lo = 0;  // column sum (low halves) plus the carry from the column below
MPB_UNROLL
  for (int k = 0; k < 2 * N - 1; k++) {
    uint64_t hi = 0;  // high halves of column k's products: go to column k+1
    if (SQUARE) {
      uint64_t clo = 0, chi = 0;
MPB_UNROLL
      for (int i = 0; i < N; i++) {
        const int j = k - i;
        if (j <= i || j >= N) continue;
        clo += mul_lo(bw[i], bw[j]);
        chi += mul_hi(bw[i], bw[j]);
      }
      lo += 2 * clo;
      hi += 2 * chi;
      if ((k & 1) == 0) {
        lo += mul_lo(bw[k / 2], bw[k / 2]);
        hi += mul_hi(bw[k / 2], bw[k / 2]);
      }
    } else {
MPB_UNROLL
      for (int i = 0; i < N; i++) {
        const int j = k - i;
        if (j < 0 || j >= N) continue;
        lo += mul_lo(a[i], bw[j]);
        hi += mul_hi(a[i], bw[j]);
      }
    }
MPB_UNROLL
    for (int i = 0; i < N; i++) {  // q_i * n_(k-i) for the quotient digits known so far
      const int j = k - i;
      if (i >= k || j < 0 || j >= N) continue;
      lo += mul_lo(q[i], n[j]);
      hi += mul_hi(q[i], n[j]);
    }
    if (k < N) {  // q_k zeroes column k
      q[k] = (uint32_t)lo * ninv;
      lo += mul_lo(q[k], n[0]);
      hi += mul_hi(q[k], n[0]);
    } else {
      out[k - N] = (uint32_t)lo;
    }
    lo = (lo >> 32) + hi;
  }
  out[N - 1] = (uint32_t)lo;
  const uint32_t top = (uint32_t)(lo >> 32);  // (a*b + q*n)/R < 2n: top is 0 or 1
  cond_sub_n<N>(r, out, top, n);
}

// Montgomery square, the default: the CIOS product with itself (one code copy with mont_mul).
template <int N>
MPB_HD void mont_sqr(uint32_t *r, const uint32_t *a, const uint32_t *n, uint32_t ninv) {
  mont_mul<N>(r, a, RegWords{a}, n, ninv);
}

// The Montgomery arithmetic of the per-thread exponentiation loop, chosen at compile time
// (tuning::GPU_POWM_MONT; bench_gpu times all three):
//  kMontCios   one inlined CIOS mont_mul for squarings and products (square = run-time flag);
//  kMontSqr    CIOS mont_mul for products, mont_sqr_chain for squarings (two inlined copies);
//  kMontComba  delayed-carry product scanning for both (mont_comba_dc, two copies).
enum MontVariant { kMontCios = 0, kMontSqr = 1, kMontComba = 2 };

// acc = acc * b (or acc^2 when sqr) / R mod n with the chosen arithmetic. With two copies the
// square/product choice is a branch (divergent where threads of a warp disagree).
template <int V, int N, class B>
MPB_HD void mont_step(uint32_t *acc, const B &b, const uint32_t *n, uint32_t ninv, bool sqr) {
  if (V == kMontCios) {
    mont_mul<N>(acc, acc, b, n, ninv, sqr);
  } else if (V == kMontSqr) {
    if (sqr) mont_sqr_chain<N>(acc, acc, n, ninv);
    else mont_mul<N>(acc, acc, b, n, ninv);
  } else {
    if (sqr) mont_comba_dc<N, true>(acc, acc, b, n, ninv);
    else mont_comba_dc<N, false>(acc, acc, b, n, ninv);
  }
}

// r = x / 2^(32N) mod n for a 2N-word x < n * 2^(32N):
// x = xh*R + xl, so x/R = xh + xl/R; xl/R mod n = mont_mul(xl, 1), and xh < n.
template <int N>
MPB_HD void mont_redc(uint32_t *r, const uint32_t *x, const uint32_t *n, uint32_t ninv) {
  uint32_t lo[N];
  mont_mul<N>(lo, x, OneWord{}, n, ninv);
  add_mod<N>(r, lo, x + N, n);
}

// -n^-1 mod 2^32 for odd n0 (Newton).
MPB_HD uint32_t mont_ninv32(uint32_t n0) {
  uint32_t x = (3 * n0) ^ 2;  // 5 bits
  x *= 2 - n0 * x;            // 10
  x *= 2 - n0 * x;            // 20
  x *= 2 - n0 * x;            // 40
  return (uint32_t)0 - x;
}

} // namespace gpu
} // namespace mpb
