// Products of a limb array by one limb: the portable versions and the run-time choice of
// the MULX/ADX kernels (cpu/mpn/x86_64/mul_1_adx.cpp) when the CPU has BMI2 + ADX.
#include "core/cpu_features.h"
#include "mpn/mul/mul_internal.h"

namespace mpb {
namespace mpn {
namespace kern {

namespace {
// rp = ap * b (+ rp when ADD), returns the high limb.
template <bool ADD>
inline limb mul_row(limb *rp, const limb *ap, size_t n, limb b) {
  limb c = 0;
  for (size_t i = 0; i < n; i++) {
    dlimb p = (dlimb)ap[i] * b + c + (ADD ? rp[i] : 0);  // < 2^128: (2^64-1)^2 + 2(2^64-1)
    rp[i] = (limb)p;
    c = (limb)(p >> 64);
  }
  return c;
}
} // namespace

limb mul_1_portable(limb *rp, const limb *ap, size_t n, limb b) { return mul_row<false>(rp, ap, n, b); }

limb addmul_1_portable(limb *rp, const limb *ap, size_t n, limb b) { return mul_row<true>(rp, ap, n, b); }

limb submul_1_portable(limb *rp, const limb *ap, size_t n, limb b) {
  limb c = 0;
  for (size_t i = 0; i < n; i++) {
    dlimb p = (dlimb)ap[i] * b + c;
    limb lo = (limb)p;
    c = (limb)(p >> 64);
    limb r = rp[i];
    rp[i] = r - lo;
    c += (r < lo);
  }
  return c;
}

} // namespace kern

limb mul_1(limb *rp, const limb *ap, size_t n, limb b) {
#ifdef MPB_HAVE_ADX_ASM
  if (cpu::has_mulx_adx()) return kern::mul_1_adx(rp, ap, n, b);
#endif
  return kern::mul_1_portable(rp, ap, n, b);
}

limb addmul_1(limb *rp, const limb *ap, size_t n, limb b) {
#ifdef MPB_HAVE_ADX_ASM
  if (cpu::has_mulx_adx()) return kern::addmul_1_adx(rp, ap, n, b);
#endif
  return kern::addmul_1_portable(rp, ap, n, b);
}

limb submul_1(limb *rp, const limb *ap, size_t n, limb b) {
#ifdef MPB_HAVE_ADX_ASM
  if (cpu::has_mulx_adx()) return kern::submul_1_adx(rp, ap, n, b);
#endif
  return kern::submul_1_portable(rp, ap, n, b);
}

} // namespace mpn
} // namespace mpb
