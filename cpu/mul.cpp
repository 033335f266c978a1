// The multiplication dispatcher: picks the algorithm by operand size (thresholds in
// include/mpbatch/tuning.h).
#include "mpn.h"
#include <mpbatch/tuning.h>

namespace mpb {
namespace mpn {

size_t mul_n_itch(size_t n) { return 0; }

void mul_n(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch) {
  mul_basecase(rp, ap, n, bp, n);
}

size_t mul_itch(size_t an, size_t bn) { return 0; }

void mul(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn, limb *scratch) {
  MPB_ASSERT(an >= bn && bn >= 1);
  mul_basecase(rp, ap, an, bp, bn);
}

} // namespace mpn
} // namespace mpb
