// cpu/mpn/gcd/gcd_lehmer.cpp: gcd by Lehmer's (double-digit) Euclidean algorithm (cpu/mpn/gcd/lehmer_step.h):
// with A >= B, Euclid's steps are decided on the top 128 bits of A and the bits of B at the same
// position and applied to the full values in one pass (about 62 bits off both values per pass);
// a full division step (A, B) <- (B, A mod B) when B is much shorter than A or no step can be
// decided; plain binary gcd on two words at the end. Sizes shrink as the values do. Falls back
// to cpu/mpn/gcd/gcd_binary.cpp (from the original inputs) if a pass ever gives a negative value or the
// iteration bound is exceeded (a safety net: not expected to happen).
#include "mpn/gcd/lehmer_step.h"

namespace mpb {
namespace mpn {

namespace {

using lehmer::u128;

inline unsigned ctz128(u128 x) {
  limb lo = (limb)x;
  return lo ? (unsigned)__builtin_ctzll(lo) : 64 + (unsigned)__builtin_ctzll((limb)(x >> 64));
}

// gcd of two 128-bit values, not both zero (binary).
u128 gcd128(u128 a, u128 b) {
  if (a == 0) return b;
  if (b == 0) return a;
  unsigned k = ctz128(a | b);
  a >>= ctz128(a);
  do {
    b >>= ctz128(b);
    if (a > b) {
      u128 t = a;
      a = b;
      b = t;
    }
    b -= a;
  } while (b != 0);
  return a << k;
}

} // namespace

size_t gcd_lehmer_itch(size_t n) {
  size_t own = 3 * (n + 1) + tdiv_qr_itch(n, n), fb = gcd_binary_itch(n);
  return own > fb ? own : fb;
}

size_t gcd_lehmer(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch) {
  using namespace lehmer;
  size_t an = normalized_size(ap, n), bn = normalized_size(bp, n);
  if (an == 0 || bn == 0) return gcd_binary(rp, ap, bp, n, scratch);
  limb *A = scratch, *B = A + n + 1, *R = B + n + 1, *ws = R + n + 1;
  if (cmp2(ap, an, bp, bn) < 0) {
    const limb *t = ap;
    ap = bp;
    bp = t;
    size_t tn = an;
    an = bn;
    bn = tn;
  }
  copy(A, ap, an);
  copy(B, bp, bn);
  zero(B + bn, an - bn);
  size_t budget = 64 * n + 8;
  const u128 T = (u128)1 << 65;
  while (bn != 0) {
    if (budget-- == 0) return gcd_binary(rp, ap, bp, n, scratch);
    if (an <= 2) {
      u128 x = ((u128)(an > 1 ? A[1] : 0) << 64) | A[0];
      u128 y = ((u128)(bn > 1 ? B[1] : 0) << 64) | B[0];
      u128 g = gcd128(x, y);
      A[0] = (limb)g;
      A[1] = (limb)(g >> 64);
      an = A[1] ? 2 : 1;
      bn = 0;
      break;
    }
    size_t s = bitlen(A, an) - 128;
    u128 x = bits128(A, an, s), y = bits128(B, bn, s);
    Mat M;
    if (y >= T && inner<false>(x, y, M) != 0) {
      if (!apply_ab(A, B, an, M)) return gcd_binary(rp, ap, bp, n, scratch);
      size_t L = an;
      an = normalized_size(A, L);
      bn = normalized_size(B, L);
      if (an < bn || (an == bn && cmp(A, B, an) < 0)) {
        limb *t = A;
        A = B;
        B = t;
        size_t tn = an;
        an = bn;
        bn = tn;
      }
      continue;
    }
    // division step: (A, B) <- (B, A mod B)
    tdiv_qr(nullptr, R, A, an, B, bn, ws);
    limb *t = A;
    A = B;
    B = R;
    R = t;
    an = bn;
    bn = normalized_size(B, an);
  }
  copy(rp, A, an);
  zero(rp + an, n - an);
  return an;
}

} // namespace mpn
} // namespace mpb
