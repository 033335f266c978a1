// Division of a limb array by a single limb.
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

limb divrem_1(limb *qp, const limb *ap, size_t n, limb d) {
  MPB_ASSERT(d != 0);
  limb r = 0;
  for (size_t i = n; i-- > 0;) {
    dlimb num = ((dlimb)r << 64) | ap[i];
    limb q = (limb)(num / d);
    r = (limb)(num - (dlimb)q * d);
    qp[i] = q;
  }
  return r;
}

limb mod_1(const limb *ap, size_t n, limb d) {
  MPB_ASSERT(d != 0);
  limb r = 0;
  for (size_t i = n; i-- > 0;) r = (limb)((((dlimb)r << 64) | ap[i]) % d);
  return r;
}

} // namespace mpn
} // namespace mpb
