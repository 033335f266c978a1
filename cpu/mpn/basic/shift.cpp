// Bit shifts of limb arrays by 1..63 bits.
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

limb lshift(limb *rp, const limb *ap, size_t n, unsigned cnt) {
  MPB_ASSERT(cnt >= 1 && cnt < 64 && n >= 1);
  const unsigned tnc = 64 - cnt;
  limb out = ap[n - 1] >> tnc;
  for (size_t i = n - 1; i > 0; i--) rp[i] = (ap[i] << cnt) | (ap[i - 1] >> tnc);
  rp[0] = ap[0] << cnt;
  return out;
}

limb rshift(limb *rp, const limb *ap, size_t n, unsigned cnt) {
  MPB_ASSERT(cnt >= 1 && cnt < 64 && n >= 1);
  const unsigned tnc = 64 - cnt;
  limb out = ap[0] << tnc;
  for (size_t i = 0; i + 1 < n; i++) rp[i] = (ap[i] >> cnt) | (ap[i + 1] << tnc);
  rp[n - 1] = ap[n - 1] >> cnt;
  return out;
}

} // namespace mpn
} // namespace mpb
