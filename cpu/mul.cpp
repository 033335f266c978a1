// The multiplication dispatchers.  Thresholds come from the runtime struct
// mpb::tuning::params() (defaults in include/mpbatch/tuning.h), so tests and the tuner can
// force an algorithm:
//   n <= 8 and the CPU has MULX+ADX    unrolled MULX/ADX kernels (cpu/mul_fixed_adx.cpp)
//   9..16 (<= comba_max), MULX+ADX     unrolled product-scanning asm kernels (same file)
//   n <= mul_comba_max                 delayed-carry Comba (unrolled for n <= 16)
//   mul_comba_max < n < mul_karatsuba  schoolbook rows (MULX/ADX addmul_1)
//   n >= mul_karatsuba                 Karatsuba (recursing through this same choice)
// There is no Toom-3: on the development machine it did not beat Karatsuba below 8192 bits
// (see the report in bench/results), so mul_toom3 is unused.
//
// The _itch functions do not depend on the runtime thresholds: they give the Karatsuba bound
// (about 4n limbs), which covers every choice.
#include "mul_internal.h"
#include <mpbatch/tuning.h>

#include <algorithm>

namespace mpb {
namespace mpn {

namespace kern {
void mul_n_small(limb *rp, const limb *ap, const limb *bp, size_t n) {
#ifdef MPB_HAVE_ADX_ASM
  if (n <= COMBA_ADX_MAX && use_adx()) {
    if (n <= FIXED_ADX_MAX) {
      mul_fixed_adx(rp, ap, bp, n);
      return;
    }
    if ((int)n <= tuning::params().mul_comba_max) {
      mul_comba_adx(rp, ap, bp, n);
      return;
    }
  }
#endif
  if ((int)n <= tuning::params().mul_comba_max)
    mul_comba(rp, ap, bp, n);
  else
    mul_basecase(rp, ap, n, bp, n);
}
} // namespace kern

size_t mul_n_itch(size_t n) { return mul_karatsuba_itch(n); }

void mul_n(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch) {
  MPB_ASSERT(n >= 1);
  MPB_ASSERT(!overlap(rp, 2 * n, ap, n) && !overlap(rp, 2 * n, bp, n));
#ifdef MPB_HAVE_ADX_ASM
  if (n <= kern::FIXED_ADX_MAX && kern::use_adx()) {  // fast path for the smallest sizes
    kern::mul_fixed_adx(rp, ap, bp, n);
    return;
  }
#endif
  if ((int)n < tuning::params().mul_karatsuba)
    kern::mul_n_small(rp, ap, bp, n);
  else
    mul_karatsuba(rp, ap, bp, n, scratch);
}

size_t mul_itch(size_t an, size_t bn) {
  MPB_ASSERT(an >= bn && bn >= 1);
  if (an == bn) return mul_n_itch(bn);
  size_t need = 2 * bn + mul_n_itch(bn);
  size_t rem = an % bn;
  if (rem) need = std::max(need, 2 * bn + mul_itch(bn, rem));
  return need;
}

void mul(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn, limb *scratch) {
  MPB_ASSERT(an >= bn && bn >= 1);
  MPB_ASSERT(!overlap(rp, an + bn, ap, an) && !overlap(rp, an + bn, bp, bn));
#ifdef MPB_HAVE_ADX_ASM
  if (an <= kern::FIXED_ADX_MAX && kern::use_adx()) {  // every shape up to 8 x 8: unrolled
    kern::mul_fixed_adx_unbal(rp, ap, an, bp, bn);
    return;
  }
#endif
  if (an == bn) {
    mul_n(rp, ap, bp, bn, scratch);
    return;
  }
  if ((int)bn < tuning::params().mul_karatsuba) {
    mul_basecase(rp, ap, an, bp, bn);
    return;
  }
  // Unbalanced: a in bn-limb chunks, each chunk times b by mul_n, accumulated into rp.
  limb *tp = scratch, *next = scratch + 2 * bn;
  mul_n(rp, ap, bp, bn, scratch);
  size_t i = bn;
  for (; i + bn <= an; i += bn) {
    mul_n(tp, ap + i, bp, bn, next);
    limb cy = add_n(rp + i, rp + i, tp, bn);
    copy(rp + i + bn, tp + bn, bn);
    add_1(rp + i + bn, rp + i + bn, bn, cy);  // cannot carry out
  }
  size_t rem = an - i;
  if (rem) {
    mul(tp, bp, bn, ap + i, rem, next);       // bn + rem limbs
    limb cy = add_n(rp + i, rp + i, tp, bn);
    copy(rp + i + bn, tp + bn, rem);
    add_1(rp + i + bn, rp + i + bn, rem, cy);
  }
}

} // namespace mpn
} // namespace mpb
