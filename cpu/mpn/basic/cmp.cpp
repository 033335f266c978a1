// Comparison of limb arrays.
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

int cmp(const limb *ap, const limb *bp, size_t n) {
  while (n-- > 0) {
    if (ap[n] != bp[n]) return ap[n] > bp[n] ? 1 : -1;
  }
  return 0;
}

int cmp2(const limb *ap, size_t an, const limb *bp, size_t bn) {
  an = normalized_size(ap, an);
  bn = normalized_size(bp, bn);
  if (an != bn) return an > bn ? 1 : -1;
  return cmp(ap, bp, an);
}

} // namespace mpn
} // namespace mpb
