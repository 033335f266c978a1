// Karatsuba multiplication, n x n limbs, recursive, with caller-provided scratch.
//
// Split at l = ceil(n/2): a = a0 + a1 X, b = b0 + b1 X, X = 2^(64 l), a1/b1 have h = n - l
// limbs (h = l or l - 1).  Subtractive form:
//     z0 = a0 b0,  z2 = a1 b1,  zm = |a0 - a1| |b0 - b1|
//     a b = z0 + (z0 + z2 - s zm) X + z2 X^2,   s = sign(a0 - a1) * sign(b0 - b1).
// z0 and z2 go straight into rp (they do not overlap), |a0-a1|, |b0-b1| and zm live in the
// scratch, the recursion uses the scratch after them.  Scratch: 4l + itch(l) limbs.
#include "mpn/mul/mul_internal.h"
#include "mpn/tuning.h"

namespace mpb {
namespace mpn {

size_t mul_karatsuba_itch(size_t n) {
  if (n <= 1) return 0;
  size_t l = (n + 1) / 2;
  return 4 * l + mul_karatsuba_itch(l);
}

namespace {
void mul_n_rec(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch) {
  if ((int)n < tuning::params().mul_karatsuba)
    kern::mul_n_small(rp, ap, bp, n);
  else
    mul_karatsuba(rp, ap, bp, n, scratch);
}
} // namespace

void mul_karatsuba(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch) {
  MPB_ASSERT(n >= 1);
  MPB_ASSERT(!overlap(rp, 2 * n, ap, n) && !overlap(rp, 2 * n, bp, n));
  if (n == 1) {
    rp[0] = 0;
    rp[1] = 0;
    rp[1] = addmul_1(rp, ap, 1, bp[0]);
    return;
  }
  const size_t l = (n + 1) / 2, h = n - l;
  limb *da = scratch, *db = scratch + l, *zm = scratch + 2 * l, *next = scratch + 4 * l;

  int sa = karatsuba_abs_diff(da, ap, ap + l, l, h);
  int sb = karatsuba_abs_diff(db, bp, bp + l, l, h);
  mul_n_rec(zm, da, db, l, next);             // zm: 2l limbs
  mul_n_rec(rp, ap, bp, l, next);             // z0 -> rp[0 .. 2l)
  mul_n_rec(rp + 2 * l, ap + l, bp + l, h, next);  // z2 -> rp[2l .. 2n)

  karatsuba_combine(rp, zm, n, l, h, sa == sb);  // (a0 - a1)(b0 - b1) >= 0: subtract it
}

} // namespace mpn
} // namespace mpb
