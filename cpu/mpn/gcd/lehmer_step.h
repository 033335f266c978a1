// cpu/mpn/gcd/lehmer_step.h: the word-level core of the Lehmer (double-digit) Euclidean algorithm, shared
// by cpu/mpn/gcd/gcd_lehmer.cpp and cpu/mpn/gcd/invmod_lehmer.cpp (variable time only).
//
// A >= B > 0. x = A >> s, y = B >> s are the top 128 bits of A (s = bitlen(A) - 128) and the
// bits of B at the same position. Euclid's steps r_{j+2} = r_j - q r_{j+1} are run on (x, y)
// while the new remainder stays >= 2^65, tracking the cofactors r_j = +-(p x - q y) as unsigned
// magnitudes: after k steps (k even) r_k = p0 x - q0 y, r_{k+1} = q1 y - p1 x (signs swapped
// for k odd). Since (x; y) = [[q1, q0], [p1, p0]] (r_k; r_{k+1}) with nonnegative entries and
// r_{k+1} >= 2^65, every entry is < 2^128 / 2^65 = 2^63, and applied to the full values,
// A' = +-(p0 A - q0 B) = r_k 2^s + e with |e| < 2^63 2^s < r_k 2^s, so A' > 0, and likewise
// B' > 0: the matrix is a valid reduction of (A, B) (it may only leave A' < B', a swap).
// Each pass removes about 62 bits from both values for 4 products per limb.
// When A fits in 128 bits, the same steps are run on the exact values (down to 0), stopping
// only before a cofactor would reach 2^63.
#pragma once
#include <cstdint>

#include "core/asm.h"
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {
namespace lehmer {

using u128 = unsigned __int128;

struct Mat {
  limb p0, q0, p1, q1;
  unsigned odd;  // parity of the number of steps
};

inline size_t bitlen(const limb *a, size_t an) {
  return an ? 64 * an - (size_t)__builtin_clzll(a[an - 1]) : 0;
}

inline unsigned clz128(u128 x) {
  limb hi = (limb)(x >> 64);
  return hi ? (unsigned)__builtin_clzll(hi) : 64 + (unsigned)__builtin_clzll((limb)x);
}

// 128 bits of a (an limbs, zero above) from bit position pos.
inline u128 bits128(const limb *a, size_t an, size_t pos) {
  size_t w = pos / 64;
  unsigned sh = (unsigned)(pos % 64);
  limb l0 = w < an ? a[w] : 0, l1 = w + 1 < an ? a[w + 1] : 0;
  if (!sh) return ((u128)l1 << 64) | l0;
  limb l2 = w + 2 < an ? a[w + 2] : 0;
  limb lo = (l0 >> sh) | (l1 << (64 - sh)), hi = (l1 >> sh) | (l2 << (64 - sh));
  return ((u128)hi << 64) | lo;
}

// (hi:lo) / d for hi < d: one hardware division on x86-64.
inline limb div_2by1(limb hi, limb lo, limb d) {
#ifdef MPB_HAVE_ADX_ASM
  limb q, r;
  __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d));
  (void)r;
  return q;
#else
  return (limb)((((u128)hi << 64) | lo) / d);
#endif
}

// floor(r / b) and r mod b for r >= 4b, b > 0, when the quotient is < 2^63 (returns false
// without touching r otherwise; possible only for b < 2^65). The quotient is estimated from
// b's top 64 bits (low by at most 2) and corrected.
inline bool div_big(u128 &r, u128 b, limb &q) {
  unsigned sb = 128 - clz128(b);
  limb qq;
  if (sb <= 64) {
    limb hi = (limb)(r >> 64), bl = (limb)b;
    if (hi >= bl) return false;
    qq = div_2by1(hi, (limb)r, bl);
  } else {
    unsigned sh = sb - 64;
    limb bt = (limb)(b >> sh);
    u128 at = r >> sh;
    if (bt == ~(limb)0) qq = (limb)(at >> 64);
    else {
      if ((limb)(at >> 64) > bt) return false;
      qq = div_2by1((limb)(at >> 64), (limb)at, bt + 1);
    }
  }
  if (qq >> 62) return false;
  r -= (u128)qq * b;
  while (r >= b) {
    r -= b;
    qq++;
  }
  q = qq;
  return true;
}

// Euclid's steps on x >= y (see the top). EXACT = false: (x, y) are the top bits, y >= 2^65,
// steps are kept while the remainder is >= 2^65. EXACT = true: x, y are the values, steps down
// to y = 0 while the cofactors stay < 2^63. x, y get the last remainder pair. Returns the step
// count (0: no step possible; the caller then does a full division step). Quotients 1..3
// (about 68% of the steps) are found without branches.
template <bool EXACT>
inline unsigned inner(u128 &x, u128 &y, Mat &M) {
  const u128 T = (u128)1 << 65;
  limb p0 = 1, q0 = 0, p1 = 0, q1 = 1;
  unsigned k = 0;
  u128 a = x, b = y;
  while (EXACT ? b != 0 : true) {
    u128 r = a - b;
    limb q = 1;
    limb c = r >= b;
    r = c ? r - b : r;
    q += c;
    c = r >= b;
    r = c ? r - b : r;
    q += c;
    if (__builtin_expect(r >= b, 0)) {
      limb qq;
      if (!div_big(r, b, qq)) break;
      q += qq;
    }
    if (!EXACT) {
      if (r < T) break;
    } else {
      u128 np = (u128)q * p1 + p0, nq = (u128)q * q1 + q0;
      if ((limb)((np | nq) >> 63) != 0) break;
    }
    limb np = p0 + q * p1, nq = q0 + q * q1;
    p0 = p1;
    q0 = q1;
    p1 = np;
    q1 = nq;
    a = b;
    b = r;
    k++;
  }
  M = {p0, q0, p1, q1, k & 1u};
  x = a;
  y = b;
  return k;
}

// In place on L limbs: (A, B) <- (+-(p0 A - q0 B), -+(p1 A - q1 B)), the signs making both
// nonnegative (see the top). Returns false if a result came out negative or did not fit
// (impossible for a matrix from inner(); the callers then fall back to their reference).
template <bool ODD>
inline bool apply_ab_t(limb *A, limb *B, size_t L, const Mat &M) {
  __int128 ca = 0, cb = 0;
  for (size_t i = 0; i < L; i++) {
    limb x = A[i], y = B[i];
    __int128 pa = (__int128)((u128)M.p0 * x), qa = (__int128)((u128)M.q0 * y);
    __int128 pb = (__int128)((u128)M.p1 * x), qb = (__int128)((u128)M.q1 * y);
    __int128 ta = ODD ? ca + qa - pa : ca + pa - qa;
    __int128 tb = ODD ? cb + pb - qb : cb + qb - pb;
    A[i] = (limb)ta;
    B[i] = (limb)tb;
    ca = ta >> 64;
    cb = tb >> 64;
  }
  return ca == 0 && cb == 0;
}

inline bool apply_ab(limb *A, limb *B, size_t L, const Mat &M) {
  return M.odd ? apply_ab_t<true>(A, B, L, M) : apply_ab_t<false>(A, B, L, M);
}

// Cofactor magnitudes (see cpu/mpn/gcd/invmod_lehmer.cpp), in place on n limbs, U0[n] and U1[n] get the
// carries: (U0, U1) <- (p0 U0 + q0 U1, p1 U0 + q1 U1). Entries < 2^63 keep each column sum
// below 2^128.
inline void apply_u(limb *U0, limb *U1, size_t n, const Mat &M) {
  u128 c0 = 0, c1 = 0;
  for (size_t i = 0; i < n; i++) {
    limb x = U0[i], y = U1[i];
    u128 t0 = (u128)M.p0 * x + (u128)M.q0 * y + c0;
    u128 t1 = (u128)M.p1 * x + (u128)M.q1 * y + c1;
    U0[i] = (limb)t0;
    U1[i] = (limb)t1;
    c0 = t0 >> 64;
    c1 = t1 >> 64;
  }
  U0[n] = (limb)c0;
  U1[n] = (limb)c1;
}

} // namespace lehmer
} // namespace mpn
} // namespace mpb
