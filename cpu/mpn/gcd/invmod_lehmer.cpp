// cpu/mpn/gcd/invmod_lehmer.cpp: variable-time inverse modulo any m > 1 by Lehmer's extended Euclidean
// algorithm (cpu/mpn/gcd/lehmer_step.h). A = m, B = a mod m; one column of cofactors is kept as exact
// nonnegative integers with A = s U0 a, B = -s U1 a (mod m), s = +-1 (initially U0 = 0, U1 = 1,
// s = -1). Every Euclid matrix has the alternating sign pattern of cpu/mpn/gcd/lehmer_step.h, so the
// magnitudes transform without signs, (U0, U1) <- (p0 U0 + q0 U1, p1 U0 + q1 U1), and s flips
// with the parity of the step count (and on a swap of A and B). U0 B + U1 A = m holds
// throughout (a determinant +-1 transformation of both pairs), so the cofactors never exceed m:
// no modular reduction on the way. At the end B = 0, A = gcd(a, m); for A = 1 the inverse is
// U0 (s = 1) or m - U0 (s = -1). Division steps (B much shorter than A, or no step decidable):
// (A, B, U0, U1) <- (B, A mod B, U1, U0 + Q U1). Falls back to cpu/mpn/gcd/invmod_swapped.cpp (the
// swapped-roles inverse over the optimized binary gcd) if a pass ever gives a negative value,
// a cofactor outgrows m or the iteration bound is exceeded (a safety net: not expected).
#include <algorithm>

#include "mpn/gcd/lehmer_step.h"

namespace mpb {
namespace mpn {

namespace {
// Limbs of one value buffer, one cofactor buffer.
inline size_t vcap(size_t mn) { return mn + 1; }
inline size_t ucap(size_t mn) { return mn + 2; }
} // namespace

size_t invmod_lehmer_itch(size_t an, size_t mn) {
  size_t ws = std::max({an >= mn ? tdiv_qr_itch(an, mn) : (size_t)0, tdiv_qr_itch(mn, mn)});
  size_t own = 3 * vcap(mn) + 3 * ucap(mn) + (mn + 1) + (2 * mn + 2) + ws;
  return std::max(own, invmod_swapped_itch(an, mn));
}

bool invmod_lehmer(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch) {
  using namespace lehmer;
  MPB_ASSERT(mn >= 1 && mp[mn - 1] != 0 && (mn > 1 || mp[0] > 1));
  limb *A = scratch, *B = A + vcap(mn), *R = B + vcap(mn);
  limb *U0 = R + vcap(mn), *U1 = U0 + ucap(mn), *Ut = U1 + ucap(mn);
  limb *Q = Ut + ucap(mn), *P = Q + mn + 1, *ws = P + 2 * mn + 2;
  // B = a mod m
  size_t aN = normalized_size(ap, an), bn;
  if (cmp2(ap, aN, mp, mn) < 0) {
    copy(B, ap, aN);
    zero(B + aN, mn - aN);
  } else {
    tdiv_qr(nullptr, B, ap, aN, mp, mn, ws);
  }
  bn = normalized_size(B, mn);
  if (bn == 0) return false;
  copy(A, mp, mn);
  size_t an_ = mn;
  zero(U0, 3 * ucap(mn));
  U1[0] = 1;
  size_t un = 1;  // U0, U1 are zero from limb un on
  int s = -1;
  size_t budget = 64 * mn + 8;
  const u128 T = (u128)1 << 65;
  while (bn != 0) {
    if (budget-- == 0) return invmod_swapped(rp, ap, an, mp, mn, scratch);
    Mat M;
    unsigned steps;
    if (an_ <= 2) {
      u128 x = ((u128)(an_ > 1 ? A[1] : 0) << 64) | A[0];
      u128 y = ((u128)(bn > 1 ? B[1] : 0) << 64) | B[0];
      steps = inner<true>(x, y, M);
      if (steps) {
        A[0] = (limb)x;
        A[1] = (limb)(x >> 64);
        B[0] = (limb)y;
        B[1] = (limb)(y >> 64);
        an_ = normalized_size(A, 2);
        bn = normalized_size(B, 2);
      }
    } else {
      size_t sh = bitlen(A, an_) - 128;
      u128 x = bits128(A, an_, sh), y = bits128(B, bn, sh);
      steps = (y >= T) ? inner<false>(x, y, M) : 0;
      if (steps) {
        if (!apply_ab(A, B, an_, M)) return invmod_swapped(rp, ap, an, mp, mn, scratch);
        size_t L = an_;
        an_ = normalized_size(A, L);
        bn = normalized_size(B, L);
      }
    }
    if (steps) {
      apply_u(U0, U1, un, M);
      if (U0[un] | U1[un]) un++;
      if (un > mn) return invmod_swapped(rp, ap, an, mp, mn, scratch);
      if (M.odd) s = -s;
      if (an_ < bn || (an_ == bn && cmp(A, B, an_) < 0)) {
        std::swap(A, B);
        std::swap(an_, bn);
        std::swap(U0, U1);
        s = -s;
      }
      continue;
    }
    // division step: (A, B, U0, U1) <- (B, A mod B, U1, U0 + Q U1)
    tdiv_qr(Q, R, A, an_, B, bn, ws);
    size_t qn = normalized_size(Q, an_ - bn + 1);
    size_t u0n = normalized_size(U0, un), u1n = normalized_size(U1, un), tn;
    zero(Ut, ucap(mn));
    if (u1n == 0) {
      copy(Ut, U0, u0n);
      tn = u0n;
    } else {
      if (qn >= u1n) mul_basecase(P, Q, qn, U1, u1n);  // rare: no need for a fast product
      else mul_basecase(P, U1, u1n, Q, qn);
      size_t pn = normalized_size(P, qn + u1n);
      if (pn > mn) return invmod_swapped(rp, ap, an, mp, mn, scratch);
      limb c = pn >= u0n ? add(Ut, P, pn, U0, u0n) : add(Ut, U0, u0n, P, pn);
      tn = std::max(pn, u0n);
      Ut[tn] = c;
      tn = normalized_size(Ut, tn + 1);
    }
    if (tn > mn) return invmod_swapped(rp, ap, an, mp, mn, scratch);
    limb *t = U0;
    U0 = U1;
    U1 = Ut;
    Ut = t;
    un = std::max(u1n, tn);
    s = -s;
    t = A;
    A = B;
    B = R;
    R = t;
    an_ = bn;
    bn = normalized_size(B, an_);
    zero(B + bn, vcap(mn) - bn);
  }
  if (an_ != 1 || A[0] != 1) return false;
  size_t u0n = normalized_size(U0, un);
  if (s > 0) {
    copy(rp, U0, u0n);
    zero(rp + u0n, mn - u0n);
  } else {
    sub(rp, mp, mn, U0, u0n);
  }
  return true;
}

} // namespace mpn
} // namespace mpb
