// Constant-time squaring for the Montgomery squarings of powm_ct: Karatsuba whose branches,
// loop counts and memory addresses depend only on n (sqr_karatsuba branches on the sign of
// a0 - a1 and stops its carry loops early, so powm_ct could not use it before).
//   a = a1 X + a0 (X = B^l, l = ceil(n/2), h = n - l):
//   a^2 = z2 X^2 + (z0 + z2 - zm) X + z0,  z0 = a0^2, z2 = a1^2, zm = |a0 - a1|^2.
// |a0 - a1| is a0 - a1 negated under the mask of its borrow; every carry runs to the end of its
// number. Below params().sqr_karatsuba_ct the squares go to kern::sqr_small (chosen by n only).
#include "mpn/mul/mul_internal.h"
#include "mpn/tuning.h"

namespace mpb {
namespace mpn {

size_t sqr_ct_itch(size_t n) { return sqr_karatsuba_itch(n); }  // the same split: 4l per level

namespace {
// rp[0..n) = ap[0..n) + c, the carry through all n limbs; returns the carry out.
limb add_1_ct(limb *rp, const limb *ap, size_t n, limb c) {
  for (size_t i = 0; i < n; i++) c = detail::addc(ap[i], 0, c, &rp[i]);
  return c;
}
limb sub_1_ct(limb *rp, const limb *ap, size_t n, limb b) {
  for (size_t i = 0; i < n; i++) b = detail::subb(ap[i], 0, b, &rp[i]);
  return b;
}
// rp = -rp (two's complement) when mask is all ones, rp unchanged when 0.
void cnd_neg_ct(limb *rp, size_t n, limb mask) {
  limb c = mask & 1;
  for (size_t i = 0; i < n; i++) c = detail::addc(rp[i] ^ mask, 0, c, &rp[i]);
}
} // namespace

void sqr_ct(limb *rp, const limb *ap, size_t n, limb *scratch) {
  MPB_ASSERT(n >= 1);
  MPB_ASSERT(!overlap(rp, 2 * n, ap, n));
  if ((int)n < tuning::params().sqr_karatsuba_ct || n < 2) {
    kern::sqr_small(rp, ap, n);
    return;
  }
  const size_t l = (n + 1) / 2, h = n - l;
  limb *da = scratch, *zm = scratch + 2 * l, *next = scratch + 4 * l;
  // da = |a0 - a1| (a1 has h <= l limbs)
  limb bw = sub_n(da, ap, ap + l, h);
  bw = sub_1_ct(da + h, ap + h, l - h, bw);
  cnd_neg_ct(da, l, (limb)0 - bw);
  sqr_ct(zm, da, l, next);
  sqr_ct(rp, ap, l, next);
  sqr_ct(rp + 2 * l, ap + l, h, next);
  // zm = z0 + z2 - zm (2l limbs + top), then rp[l..) += it
  limb b1 = sub_n(zm, rp, zm, 2 * l);
  limb c1 = add_n(zm, zm, rp + 2 * l, 2 * h);
  c1 = add_1_ct(zm + 2 * h, zm + 2 * h, 2 * l - 2 * h, c1);
  limb top = c1 - b1;  // z0 + z2 - zm = 2 a0 a1 >= 0: 0 or 1 above the 2l limbs
  limb cy = add_n(rp + l, rp + l, zm, 2 * l);
  add_1_ct(rp + 3 * l, rp + 3 * l, 2 * n - 3 * l, top + cy);  // nothing left over: a^2 < B^2n
}

} // namespace mpn
} // namespace mpb
