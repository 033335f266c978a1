// The squaring dispatcher (thresholds from mpb::tuning::params()):
//   n <= 8 and the CPU has MULX+ADX    unrolled MULX/ADX kernels (cpu/mul_fixed_adx.cpp)
//   9..24 (<= comba_max), MULX+ADX     unrolled product-scanning asm kernels (same file)
//   n <= sqr_comba_max                 delayed-carry Comba squaring
//   sqr_comba_max < n < sqr_karatsuba  schoolbook squaring (triangle + shift + diagonal)
//   n >= sqr_karatsuba                 Karatsuba squaring
// sqr_itch does not depend on the thresholds.
#include "mul_internal.h"
#include <mpbatch/tuning.h>

namespace mpb {
namespace mpn {

namespace kern {
void sqr_small(limb *rp, const limb *ap, size_t n) {
#ifdef MPB_HAVE_ADX_ASM
  if (n <= SQR_COMBA_ADX_MAX && use_adx()) {
    if (n <= FIXED_ADX_MAX) {
      sqr_fixed_adx(rp, ap, n);
      return;
    }
    if ((int)n <= tuning::params().sqr_comba_max) {
      sqr_comba_adx(rp, ap, n);
      return;
    }
  }
#endif
  if ((int)n <= tuning::params().sqr_comba_max)
    sqr_comba(rp, ap, n);
  else
    sqr_basecase(rp, ap, n);
}
} // namespace kern

size_t sqr_itch(size_t n) { return sqr_karatsuba_itch(n); }

void sqr(limb *rp, const limb *ap, size_t n, limb *scratch) {
  MPB_ASSERT(n >= 1);
  MPB_ASSERT(!overlap(rp, 2 * n, ap, n));
#ifdef MPB_HAVE_ADX_ASM
  if (n <= kern::FIXED_ADX_MAX && kern::use_adx()) {  // fast path for the smallest sizes
    kern::sqr_fixed_adx(rp, ap, n);
    return;
  }
#endif
  if ((int)n < tuning::params().sqr_karatsuba)
    kern::sqr_small(rp, ap, n);
  else
    sqr_karatsuba(rp, ap, n, scratch);
}

} // namespace mpn
} // namespace mpb
