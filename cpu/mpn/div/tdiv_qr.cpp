// Schoolbook division, Knuth TAOCP vol. 2, 4.3.1 algorithm D, on 64-bit limbs.
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

size_t tdiv_qr_itch(size_t nn, size_t dn) { return (nn + 1) + dn; }

void tdiv_qr(limb *qp, limb *rp, const limb *np, size_t nn, const limb *dp, size_t dn,
             limb *scratch) {
  MPB_ASSERT(nn >= dn && dn >= 1 && dp[dn - 1] != 0);
  if (dn == 1) {
    limb *q = qp ? qp : scratch;
    limb r = divrem_1(q, np, nn, dp[0]);
    if (rp) rp[0] = r;
    return;
  }
  // D1: normalize so that the top bit of the divisor is set.
  limb *un = scratch;            // nn + 1 limbs
  limb *vn = scratch + nn + 1;   // dn limbs
  unsigned s = (unsigned)__builtin_clzll(dp[dn - 1]);
  if (s) {
    lshift(vn, dp, dn, s);
    un[nn] = lshift(un, np, nn, s);
  } else {
    copy(vn, dp, dn);
    copy(un, np, nn);
    un[nn] = 0;
  }
  const limb vtop = vn[dn - 1], vnext = vn[dn - 2];
  for (size_t j = nn - dn + 1; j-- > 0;) {
    // D3: estimate q from the top two limbs of the current remainder.
    dlimb num = ((dlimb)un[j + dn] << 64) | un[j + dn - 1];
    dlimb qhat, rhat;
    if (un[j + dn] >= vtop) {
      qhat = ~(limb)0;
      rhat = num - qhat * vtop;
    } else {
      qhat = num / vtop;
      rhat = num - qhat * vtop;
    }
    while ((rhat >> 64) == 0 &&
           qhat * vnext > ((rhat << 64) | un[j + dn - 2])) {
      qhat--;
      rhat += vtop;
    }
    // D4: multiply and subtract.
    limb borrow = submul_1(un + j, vn, dn, (limb)qhat);
    limb top = un[j + dn];
    un[j + dn] = top - borrow;
    if (top < borrow) {
      // D6: add back (rare).
      qhat--;
      un[j + dn] += add_n(un + j, un + j, vn, dn);
    }
    if (qp) qp[j] = (limb)qhat;
  }
  // D8: unnormalize the remainder.
  if (rp) {
    if (s)
      rshift(rp, un, dn, s), rp[dn - 1] |= un[dn] << (64 - s);
    else
      copy(rp, un, dn);
  }
}

} // namespace mpn
} // namespace mpb
