// Schoolbook multiplication by rows (portable version).
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

void mul_basecase(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn) {
  MPB_ASSERT(an >= bn && bn >= 1);
  MPB_ASSERT(!overlap(rp, an + bn, ap, an) && !overlap(rp, an + bn, bp, bn));
  rp[an] = mul_1(rp, ap, an, bp[0]);
  for (size_t j = 1; j < bn; j++) rp[an + j] = addmul_1(rp + j, ap, an, bp[j]);
}

} // namespace mpn
} // namespace mpb
