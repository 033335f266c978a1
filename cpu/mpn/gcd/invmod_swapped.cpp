// cpu/mpn/gcd/invmod_swapped.cpp: modular inverse for any modulus m > 1 over the optimized binary gcd (the
// reference for, and safety net of, cpu/mpn/gcd/invmod_lehmer.cpp). Odd m goes to mpn::invmod_odd_bingcd
// (cpu/mpn/gcd/invmod_odd_bingcd.cpp). For even m the roles are swapped: a' = a mod m must be
// odd (else 2 divides gcd(a, m)); a' = 1 is its own inverse; otherwise y = m^-1 mod a' (an
// inverse modulo the odd number a' by mpn::invmod_odd_bingcd, which exists exactly when gcd(a, m) = 1), so m*y = 1 + a'*t
// with 0 < t < m, t = (m*y - 1) / a' exactly, and a'*(m - t) = a'*m - m*y + 1 = 1 (mod m):
// a^-1 mod m = m - t. Cost: one inverse modulo a', one mn x mn product, one division.
#include <algorithm>

#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

size_t invmod_swapped_itch(size_t an, size_t mn) {
  size_t even_ws = std::max({an >= mn ? tdiv_qr_itch(an, mn) : (size_t)0, invmod_odd_bingcd_itch(mn, mn),
                             mul_n_itch(mn), tdiv_qr_itch(2 * mn, mn)});
  size_t even = mn + mn + 2 * mn + (2 * mn + 1) + even_ws;
  return std::max(invmod_odd_bingcd_itch(an, mn), even);
}

bool invmod_swapped(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch) {
  MPB_ASSERT(mn >= 1 && mp[mn - 1] != 0 && (mn > 1 || mp[0] > 1));
  if (mp[0] & 1) return invmod_odd_bingcd(rp, ap, an, mp, mn, scratch);
  limb *ar = scratch, *y = ar + mn, *P = y + mn, *t = P + 2 * mn, *ws = t + 2 * mn + 1;
  // a' = a mod m
  size_t aN = normalized_size(ap, an);
  if (aN < mn || cmp2(ap, aN, mp, mn) < 0) {
    copy(ar, ap, aN);
    zero(ar + aN, mn - aN);
  } else {
    tdiv_qr(nullptr, ar, ap, aN, mp, mn, ws);
  }
  size_t arn = normalized_size(ar, mn);
  if (arn == 0 || (ar[0] & 1) == 0) return false;
  if (arn == 1 && ar[0] == 1) {
    zero(rp, mn);
    rp[0] = 1;
    return true;
  }
  // y = m^-1 mod a' (a' odd > 1)
  if (!invmod_odd_bingcd(y, mp, mn, ar, arn, ws)) return false;
  zero(y + arn, mn - arn);
  // t = (m*y - 1) / a'
  mul_n(P, mp, y, mn, ws);
  sub_1(P, P, 2 * mn, 1);
  size_t pn = normalized_size(P, 2 * mn);
  tdiv_qr(t, nullptr, P, pn, ar, arn, ws);
  size_t tn = normalized_size(t, pn - arn + 1);
  MPB_ASSERT(tn <= mn);
  zero(t + tn, mn - tn);
  sub_n(rp, mp, t, mn);
  return true;
}

} // namespace mpn
} // namespace mpb
