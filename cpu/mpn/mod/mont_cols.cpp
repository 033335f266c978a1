// cpu/mpn/mod/mont_cols.cpp: Montgomery squaring and multiplication in one pass of columns
// (product scanning, "FIPS": finely integrated product scanning, Koc-Acar-Kaliski 1996), the
// portable kernels of mont_sqr_ct / mont_mul_ct / mont_mul wherever no MULX/ADX kernel runs
// (x86-64 CPUs without ADX, aarch64, the MemorySanitizer build).
//
// Column k of a*b + Q*m (Q = sum q_i B^i, chosen so that the low n limbs vanish) is
// sum_{i+j=k} a_i b_j + sum_{i+j=k} q_i m_j. Both sums go into mul_comba.cpp's delayed-carry
// accumulators (seed 003): the low halves of the products into one 128-bit accumulator L, the
// high halves into another, H, the carry resolved once per column. For k < n, low(L) before the
// term q_k m_0 gives q_k = low(L) * minv, and that term clears the column's low word. Columns
// n..2n-1 are the result, and what is left is its carry (0 or 1: (a b + Q m) / R < R + m for
// a, b < R). For the square, column k's cross products a_i a_(k-i), i < k - i, are summed once
// and doubled (sqr_comba.cpp), then the diagonal a_(k/2)^2 is added.
//
// Against the product (or square) followed by the column REDC (redc_comba.cpp) this saves the
// 2n-limb intermediate's stores and loads and one carry resolution per column, and the calls.
// The quotient digits are the same (q_k is fixed by a b mod B^(k+1)), so the result is bit for
// bit the same as mont_redc's after the product; the tests hold the two to it. Every loop bound
// depends on n only (constant time).
#include "core/unroll.h"
#include "mpn/mod/mont.h"
#include "mpn/mul/mul_internal.h"

namespace mpb {
namespace mpn {
namespace {

using kern::comba_mac;

// Column k's terms of a*b (SQR: of a^2) into L, H (both zero on entry, except the carry in L).
template <bool SQR>
__attribute__((always_inline)) inline void column_ab(dlimb &L, dlimb &H, const limb *ap,
                                                     const limb *bp, size_t n, size_t k) {
  const size_t lo = k < n ? 0 : k - n + 1;
  if (SQR) {
    dlimb Lx = 0, Hx = 0;
    MPB_UNROLL(4) for (size_t i = lo; 2 * i < k; i++) comba_mac(Lx, Hx, ap[i], ap[k - i]);
    L += Lx + Lx;  // Lx, Hx < n 2^64: doubled, they stay far below 2^128
    H += Hx + Hx;
    if (k % 2 == 0) comba_mac(L, H, ap[k / 2], ap[k / 2]);
  } else {
    const size_t hi = k < n ? k : n - 1;
    MPB_UNROLL(4) for (size_t i = lo; i <= hi; i++) comba_mac(L, H, ap[i], bp[k - i]);
  }
}

// rp[0..n) + carry R = (a b + Q m) / R; q: n limbs of scratch (the quotient digits).
template <bool SQR>
limb mont_comba(limb *rp, const limb *ap, const limb *bp, const limb *m, size_t n, limb minv,
                limb *q) {
  dlimb carry = 0;
  for (size_t k = 0; k < n; k++) {
    dlimb L = carry, H = 0;
    column_ab<SQR>(L, H, ap, bp, n, k);
    MPB_UNROLL(4) for (size_t i = 0; i < k; i++) comba_mac(L, H, q[i], m[k - i]);
    const limb qk = (limb)L * minv;
    comba_mac(L, H, qk, m[0]);  // the column's low word is now 0
    q[k] = qk;
    carry = (L >> 64) + H;
  }
  // Column k >= n writes rp[k - n] after its reads; no later column reads a_(k-n) or b_(k-n)
  // (they read indices >= k - n + 1), so rp may equal ap or bp.
  for (size_t k = n; k < 2 * n - 1; k++) {
    dlimb L = carry, H = 0;
    column_ab<SQR>(L, H, ap, bp, n, k);
    MPB_UNROLL(4) for (size_t i = k - n + 1; i < n; i++) comba_mac(L, H, q[i], m[k - i]);
    rp[k - n] = (limb)L;
    carry = (L >> 64) + H;
  }
  rp[n - 1] = (limb)carry;
  return (limb)(carry >> 64);
}

} // namespace

limb mont_sqr_cols(limb *rp, const limb *ap, const limb *m, size_t n, limb minv, limb *q) {
  MPB_ASSERT(n >= 1);
  return mont_comba<true>(rp, ap, ap, m, n, minv, q);
}

limb mont_mul_cols(limb *rp, const limb *ap, const limb *bp, const limb *m, size_t n, limb minv,
                    limb *q) {
  MPB_ASSERT(n >= 1);
  return mont_comba<false>(rp, ap, bp, m, n, minv, q);
}

} // namespace mpn
} // namespace mpb
