// cpu/mpn/gcd/bingcd_step.h: the word-level core of the "optimized binary gcd" (T. Pornin, Optimized
// Binary GCD for Modular Inversion, IACR ePrint 2020/972), shared by cpu/mpn/gcd/invmod_odd_bingcd.cpp (the reference
// behind cpu/mpn/gcd/invmod_swapped.cpp) and the constant-time cpu/mpn/gcd/sec_invmod_bingcd.cpp.
//
// a, b (b odd) are replaced by (f0*a + g0*b) / 2^K, (f1*a + g1*b) / 2^K where the 2x2 matrix is
// what K steps of the binary gcd (if a odd: if a < b swap; a -= b; then a /= 2) do to two
// 64-bit approximations: the low K bits of each value (exact, so the parity decisions and the
// divisibility by 2^K are exact) and its top 64-K bits at the position of the larger value's top
// bit (so the a < b decisions are right except near ties, where a value may come out negative
// and is negated with its matrix row). One big-number pass per K steps instead of per step.
#pragma once
#include <cstdint>

#include "mpn/mpn.h"

namespace mpb {
namespace mpn {
namespace bingcd {

constexpr unsigned K = 31;
constexpr limb LOWMASK = ((limb)1 << K) - 1;

struct Mat {
  int64_t f0, g0, f1, g1;
};

// f * x exactly (signed times unsigned, |f| < 2^63): one 64x64 -> 128 product and a masked
// correction (no branch).
inline __int128 smul(int64_t f, limb x) {
  unsigned __int128 p = (unsigned __int128)(limb)f * x;
  p -= (unsigned __int128)(x & (limb)(f >> 63)) << 64;
  return (__int128)p;
}

inline size_t bitlen(const limb *a, size_t an) {
  return an ? 64 * an - (size_t)__builtin_clzll(a[an - 1]) : 0;
}

// 64 bits of a (an limbs) from bit position pos.
inline limb bits_at(const limb *a, size_t an, size_t pos) {
  size_t w = pos / 64;
  unsigned s = (unsigned)(pos % 64);
  limb lo = w < an ? a[w] : 0;
  if (!s) return lo;
  limb hi = w + 1 < an ? a[w + 1] : 0;
  return (lo >> s) | (hi << (64 - s));
}

// The approximations of a and b (normalized sizes; exact when both fit in one limb).
inline void approx(const limb *a, size_t an, const limb *b, size_t bn, limb &abar, limb &bbar) {
  size_t la = bitlen(a, an), lb = bitlen(b, bn), n = la > lb ? la : lb;
  if (n <= 64) {
    abar = an ? a[0] : 0;
    bbar = bn ? b[0] : 0;
    return;
  }
  abar = (bits_at(a, an, n - 64) & ~LOWMASK) | ((an ? a[0] : 0) & LOWMASK);
  bbar = (bits_at(b, bn, n - 64) & ~LOWMASK) | (b[0] & LOWMASK);
}

// K binary steps on the approximations (b odd). Runs of zero bits are skipped at once.
inline Mat inner(limb a, limb b) {
  int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
  unsigned j = 0;
  while (j < K) {
    unsigned z = a ? (unsigned)__builtin_ctzll(a) : K;
    if (z > K - j) z = K - j;
    a >>= z;
    f1 = (int64_t)((uint64_t)f1 << z);
    g1 = (int64_t)((uint64_t)g1 << z);
    j += z;
    if (j == K) break;
    if (a < b) {
      limb t = a;
      a = b;
      b = t;
      int64_t s = f0;
      f0 = f1;
      f1 = s;
      s = g0;
      g0 = g1;
      g1 = s;
    }
    a -= b;
    f0 -= f1;
    g0 -= g1;
    a >>= 1;
    f1 *= 2;
    g1 *= 2;
    j++;
  }
  return {f0, g0, f1, g1};
}

// Two's complement negation of x (n limbs).
inline void neg(limb *x, size_t n) {
  limb c = 1;
  for (size_t i = 0; i < n; i++) {
    limb t = ~x[i] + c;
    c = (c && t == 0) ? 1 : 0;
    x[i] = t;
  }
}

// a, b: L limbs each (zero above their sizes), room for L + 1. New values (f0 a + g0 b) >> K and
// (f1 a + g1 b) >> K (exact divisions), negated when negative (with the matrix row), sizes
// updated (normalized).
inline void apply_ab(limb *a, limb *b, size_t L, Mat &m, size_t &an, size_t &bn) {
  __int128 ca = 0, cb = 0;
  limb pa = 0, pb = 0;
  for (size_t i = 0; i < L; i++) {
    limb x = a[i], y = b[i];
    __int128 ta = ca + smul(m.f0, x) + smul(m.g0, y);
    __int128 tb = cb + smul(m.f1, x) + smul(m.g1, y);
    limb la = (limb)ta, lb = (limb)tb;
    ca = ta >> 64;
    cb = tb >> 64;
    if (i) {
      a[i - 1] = (pa >> K) | (la << (64 - K));
      b[i - 1] = (pb >> K) | (lb << (64 - K));
    }
    pa = la;
    pb = lb;
  }
  a[L - 1] = (pa >> K) | ((limb)ca << (64 - K));
  b[L - 1] = (pb >> K) | ((limb)cb << (64 - K));
  a[L] = (limb)(ca >> K);
  b[L] = (limb)(cb >> K);
  if (a[L] >> 63) {
    neg(a, L + 1);
    m.f0 = -m.f0;
    m.g0 = -m.g0;
  }
  if (b[L] >> 63) {
    neg(b, L + 1);
    m.f1 = -m.f1;
    m.g1 = -m.g1;
  }
  an = normalized_size(a, L + 1);
  bn = normalized_size(b, L + 1);
}

} // namespace bingcd
} // namespace mpn
} // namespace mpb
