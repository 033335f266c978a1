// cpu/mpn/mod/redc.cpp: Montgomery reduction REDC, word by word ("redc_1"), and mont_redc.
//
// redc_1: for i = 0..n-1: q = t[i] * minv mod B; t += q*m*B^i (clears limb i, the carry of
// the row is parked in the cleared limb); finally r = t[n..2n) + (parked carries). Without
// MULX/ADX it takes the column form (cpu/mpn/mod/redc_comba.cpp); redc_1_portable, the row form
// in C, stays as the reference the tests hold both to.
// The x86-64 kernel does each row with MULX and two carry chains (ADCX for the low halves,
// ADOX for the high halves), like an addmul_1, and is picked at run time; for the sizes the
// generated fully unrolled kernels cover (cpu/mpn/x86_64/redc_fixed_adx_gen.py) those instead.
#include "core/cpu_features.h"
#include "mpn/mod/mont.h"
#include "mpn/x86_64/redc_row_adx.h"

namespace mpb {
namespace mpn {

limb redc_1_portable(limb *rp, limb *tp, const limb *m, size_t n, limb minv) {
  for (size_t i = 0; i < n; i++) {
    limb q = tp[i] * minv;
    limb c = addmul_1(tp + i, m, n, q);  // tp[i] is now 0
    tp[i] = c;
  }
  return add_n(rp, tp + n, tp, n);
}

#ifdef MPB_HAVE_ADX_ASM
__attribute__((target("bmi2,adx"))) static limb redc_1_adx(limb *rp, limb *tp, const limb *m,
                                                           size_t n, limb minv) {
  for (size_t i = 0; i < n; i++) {
    limb q = tp[i] * minv;
    tp[i] = addmul_row_adx(tp + i, m, n, q);
  }
  return add_n(rp, tp + n, tp, n);
}
#endif

limb redc_1(limb *rp, limb *tp, const limb *m, size_t n, limb minv) {
#ifdef MPB_HAVE_ADX_ASM
  if (cpu::has_mulx_adx())
    return redc_fixed_adx_has(n) ? redc_fixed_adx(rp, tp, m, n, minv) : redc_1_adx(rp, tp, m, n, minv);
#endif
  return redc_comba(rp, tp, m, n, minv);
}

void mont_redc(limb *rp, limb *tp, const MontCtx &ctx) {
#ifdef MPB_HAVE_ADX_ASM
  if (cpu::has_mulx_adx() && redc_fixed_adx_has(ctx.n))
    return mont_redc_fixed_adx(rp, tp, ctx.m, ctx.n, ctx.minv);
#endif
  limb cy = redc_1(rp, tp, ctx.m, ctx.n, ctx.minv);
  cnd_sub_n(cy, rp, rp, ctx.m, ctx.n);
}

} // namespace mpn
} // namespace mpb
