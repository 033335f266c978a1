// The squaring dispatcher.
#include "mpn.h"
#include <mpbatch/tuning.h>

namespace mpb {
namespace mpn {

size_t sqr_itch(size_t n) { return 0; }

void sqr(limb *rp, const limb *ap, size_t n, limb *scratch) {
  mul_basecase(rp, ap, n, ap, n);
}

} // namespace mpn
} // namespace mpb
