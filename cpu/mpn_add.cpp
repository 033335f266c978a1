// Addition and subtraction of limb arrays, with carry/borrow out.
#include "mpn.h"

namespace mpb {
namespace mpn {
using detail::addc;
using detail::subb;

limb add_n(limb *rp, const limb *ap, const limb *bp, size_t n) {
  limb c = 0;
  for (size_t i = 0; i < n; i++) c = addc(ap[i], bp[i], c, &rp[i]);
  return c;
}

limb sub_n(limb *rp, const limb *ap, const limb *bp, size_t n) {
  limb b = 0;
  for (size_t i = 0; i < n; i++) b = subb(ap[i], bp[i], b, &rp[i]);
  return b;
}

limb add_1(limb *rp, const limb *ap, size_t n, limb b) {
  size_t i = 0;
  for (; i < n && b; i++) b = addc(ap[i], b, 0, &rp[i]);
  if (rp != ap)
    for (; i < n; i++) rp[i] = ap[i];
  return b;
}

limb sub_1(limb *rp, const limb *ap, size_t n, limb b) {
  size_t i = 0;
  for (; i < n && b; i++) b = subb(ap[i], b, 0, &rp[i]);
  if (rp != ap)
    for (; i < n; i++) rp[i] = ap[i];
  return b;
}

limb add(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn) {
  MPB_ASSERT(an >= bn);
  limb c = add_n(rp, ap, bp, bn);
  return add_1(rp + bn, ap + bn, an - bn, c);
}

limb sub(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn) {
  MPB_ASSERT(an >= bn);
  limb b = sub_n(rp, ap, bp, bn);
  return sub_1(rp + bn, ap + bn, an - bn, b);
}

int sub_abs_n(limb *rp, const limb *ap, const limb *bp, size_t n) {
  if (cmp(ap, bp, n) >= 0) {
    sub_n(rp, ap, bp, n);
    return 0;
  }
  sub_n(rp, bp, ap, n);
  return 1;
}

limb cnd_add_n(limb cond, limb *rp, const limb *ap, const limb *bp, size_t n) {
  limb mask = (limb)0 - (limb)(cond != 0);
  limb c = 0;
  for (size_t i = 0; i < n; i++) c = addc(ap[i], bp[i] & mask, c, &rp[i]);
  return c;
}

limb cnd_sub_n(limb cond, limb *rp, const limb *ap, const limb *bp, size_t n) {
  limb mask = (limb)0 - (limb)(cond != 0);
  limb b = 0;
  for (size_t i = 0; i < n; i++) b = subb(ap[i], bp[i] & mask, b, &rp[i]);
  return b;
}

} // namespace mpn
} // namespace mpb
