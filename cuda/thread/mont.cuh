// cuda/thread/mont.cuh: per-thread multiple-precision arithmetic on N 32-bit words
// (host + device). One GPU thread owns one item; every loop is unrolled over the
// compile-time N, so operands live in registers.
//
//  - mul_comba_dc<N>:  delayed-carry Comba (seed 003): per column, the low and the high halves
//                      of the 32x32->64 products are summed in two 64-bit accumulators and the
//                      carries are resolved once per column;
//  - mul_chain<N>:     operand scanning with hardware carry chains (mad.lo.cc / madc.hi.cc);
//  - mont_mul<N>:      Montgomery multiplication (CIOS, carry chains), r = a*b/R mod n with
//                      R = 2^(32N), for an odd n < R; inputs < n give an output < n;
//  - mont_redc<N>:     r = x/R mod n for a 2N-word x < n*R.
// The second operand of mont_mul is read through a functor b(i) -> word i, so it can come
// from registers, from memory, or from a constant-time table scan (cuda/thread/powm.cuh).
#pragma once
#include "chain.cuh"

namespace mpb {
namespace gpu {

// Second-operand providers ------------------------------------------------------------------
struct RegWords {  // words held by the caller (registers after unrolling)
  const uint32_t *p;
  MPB_GHD uint32_t operator()(int i) const { return p[i]; }
};
struct OneWord {   // the value 1 (used by from-Montgomery conversion)
  MPB_GHD uint32_t operator()(int i) const { return i == 0 ? 1u : 0u; }
};

// Small helpers ---------------------------------------------------------------------------
template <int N>
MPB_GHD void copy_words(uint32_t *r, const uint32_t *a) {
MPB_UNROLL
  for (int i = 0; i < N; i++) r[i] = a[i];
}

// r = a - n if a >= n else a, branch-free. a has N words plus a top word `top` (0 or 1).
template <int N>
MPB_GHD void cond_sub_n(uint32_t *r, const uint32_t *a, uint32_t top, const uint32_t *n) {
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
MPB_GHD void add_mod(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *n) {
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
MPB_GHD void sub_mod(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *n) {
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
MPB_GHD void mul_comba_dc(uint32_t *r, const uint32_t *a, const uint32_t *b) {
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
MPB_GHD void mul_chain(uint32_t *r, const uint32_t *a, const uint32_t *b) {
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
// r = a * b / 2^(32N) mod n. n odd, ninv = -n^-1 mod 2^32, a, b < n. r may alias a.
// square = true ignores b and multiplies a by itself (a run-time flag, uniform across a warp,
// so that one inlined copy serves both squarings and products).
template <int N, class B>
MPB_GHD void mont_mul(uint32_t *r, const uint32_t *a, const B &b, const uint32_t *n,
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
    {  // t += q * n with q making t[0] zero, then t /= 2^32
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
  }
  // t < 2n: one branch-free conditional subtraction
  cond_sub_n<N>(r, t, t[N], n);
}

template <int N>
MPB_GHD void mont_sqr(uint32_t *r, const uint32_t *a, const uint32_t *n, uint32_t ninv) {
  mont_mul<N>(r, a, RegWords{a}, n, ninv);
}

// r = x / 2^(32N) mod n for a 2N-word x < n * 2^(32N):
// x = xh*R + xl, so x/R = xh + xl/R; xl/R mod n = mont_mul(xl, 1), and xh < n.
template <int N>
MPB_GHD void mont_redc(uint32_t *r, const uint32_t *x, const uint32_t *n, uint32_t ninv) {
  uint32_t lo[N];
  mont_mul<N>(lo, x, OneWord{}, n, ninv);
  add_mod<N>(r, lo, x + N, n);
}

// -n^-1 mod 2^32 for odd n0 (Newton).
MPB_GHD uint32_t mont_ninv32(uint32_t n0) {
  uint32_t x = (3 * n0) ^ 2;  // 5 bits
  x *= 2 - n0 * x;            // 10
  x *= 2 - n0 * x;            // 20
  x *= 2 - n0 * x;            // 40
  return (uint32_t)0 - x;
}

} // namespace gpu
} // namespace mpb
