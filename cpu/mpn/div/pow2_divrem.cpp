// cpu/mpn/div/pow2_divrem.cpp: quotient and remainder of a power of two by m, the one helper for
// every "2^k mod m" and "floor(2^k / m)" the library computes once per modulus: Montgomery's
// R mod m and R^2 mod m, Barrett's mu, the lane engines' R^2, and the CUDA backend's constants.
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

size_t pow2_divrem_qn(size_t k, size_t mn) {
  const size_t nn = k / 64 + 1;
  return nn >= mn ? nn - mn + 1 : 1;
}

size_t pow2_divrem_itch(size_t k, size_t mn) {
  const size_t nn = k / 64 + 1;
  return nn + (nn >= mn ? tdiv_qr_itch(nn, mn) : 0);
}

void pow2_divrem(limb *qp, limb *rp, size_t k, const limb *mp, size_t mn, limb *scratch) {
  MPB_ASSERT(mn >= 1 && mp[mn - 1] != 0);
  const size_t nn = k / 64 + 1;
  limb *num = scratch;
  zero(num, nn);
  num[nn - 1] = (limb)1 << (k % 64);
  if (nn < mn) {  // 2^k < m
    if (qp) qp[0] = 0;
    if (rp) {
      copy(rp, num, nn);
      zero(rp + nn, mn - nn);
    }
    return;
  }
  tdiv_qr(qp, rp, num, nn, mp, mn, scratch + nn);
}

} // namespace mpn
} // namespace mpb
