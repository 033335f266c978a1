// Karatsuba squaring: a^2 = z0 + (z0 + z2 - zm) X + z2 X^2 with z0 = a0^2, z2 = a1^2,
// zm = (a0 - a1)^2 (always subtracted).  Same split and scratch layout as mul_karatsuba
// (|a0 - a1| in l limbs, zm in 2l, recursion after): 3l + itch(l) limbs; we reserve 4l to
// share the bound with the multiplication.
#include "mpn/mul/mul_internal.h"
#include "mpn/tuning.h"

namespace mpb {
namespace mpn {

size_t sqr_karatsuba_itch(size_t n) { return mul_karatsuba_itch(n); }  // the same layout and recursion

namespace {
void sqr_rec(limb *rp, const limb *ap, size_t n, limb *scratch) {
  if ((int)n < tuning::params().sqr_karatsuba)
    kern::sqr_small(rp, ap, n);
  else
    sqr_karatsuba(rp, ap, n, scratch);
}
} // namespace

void sqr_karatsuba(limb *rp, const limb *ap, size_t n, limb *scratch) {
  MPB_ASSERT(n >= 1);
  MPB_ASSERT(!overlap(rp, 2 * n, ap, n));
  if (n == 1) return sqr_limb(rp, ap[0]);
  const size_t l = (n + 1) / 2, h = n - l;
  limb *da = scratch, *zm = scratch + 2 * l, *next = scratch + 4 * l;

  karatsuba_abs_diff(da, ap, ap + l, l, h);
  sqr_rec(zm, da, l, next);
  sqr_rec(rp, ap, l, next);
  sqr_rec(rp + 2 * l, ap + l, h, next);

  karatsuba_combine(rp, zm, n, l, h, true);  // (a0 - a1)^2 >= 0: subtract it
}

} // namespace mpn
} // namespace mpb
