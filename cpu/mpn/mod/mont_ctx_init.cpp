// Montgomery reduction REDC (word by word, "redc_1") and the Montgomery context set-up.
//
// redc_1: for i = 0..n-1: q = t[i] * minv mod B; t += q*m*B^i (clears limb i, the carry of
// the row is parked in the cleared limb); finally r = t[n..2n) + (parked carries).
// The x86-64 kernel does each row with MULX and two carry chains (ADCX for the low halves,
// ADOX for the high halves), like an addmul_1, and is picked at run time.
#include "core/cpu_features.h"
#include "mpn/powm/powm.h"
#include "mpn/x86_64/redc_row_adx.h"

namespace mpb {
namespace mpn {

using mpb::detail::binvert_limb;

limb redc_1_portable(limb *rp, limb *tp, const limb *m, size_t n, limb minv) {
  for (size_t i = 0; i < n; i++) {
    limb q = tp[i] * minv;
    limb c = addmul_1(tp + i, m, n, q);  // tp[i] is now 0
    tp[i] = c;
  }
  return add_n(rp, tp + n, tp, n);
}

#if defined(__x86_64__) && defined(__GNUC__)
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
#if defined(__x86_64__) && defined(__GNUC__)
  if (cpu::has_mulx_adx()) return redc_1_adx(rp, tp, m, n, minv);
#endif
  return redc_1_portable(rp, tp, m, n, minv);
}

void mont_redc(limb *rp, limb *tp, const MontCtx &ctx) {
  limb cy = redc_1(rp, tp, ctx.m, ctx.n, ctx.minv);
  cnd_sub_n(cy, rp, rp, ctx.m, ctx.n);
}

size_t mont_ctx_itch(size_t n) { return 3 * n + (2 * n + 1) + tdiv_qr_itch(2 * n + 1, n); }

void mont_ctx_init(MontCtx &ctx, const limb *m, size_t n, limb *storage) {
  MPB_ASSERT(n >= 1 && (m[0] & 1) && m[n - 1] != 0);
  MPB_ASSERT(!overlap(storage, mont_ctx_itch(n), m, n));
  limb *mc = storage, *r2 = storage + n, *one = storage + 2 * n;
  limb *num = storage + 3 * n;       // 2n+1 limbs
  limb *sc = num + 2 * n + 1;
  copy(mc, m, n);
  // R mod m
  zero(num, n);
  num[n] = 1;
  tdiv_qr(nullptr, one, num, n + 1, mc, n, sc);
  // R^2 mod m
  zero(num, 2 * n);
  num[2 * n] = 1;
  tdiv_qr(nullptr, r2, num, 2 * n + 1, mc, n, sc);
  ctx.m = mc;
  ctx.n = n;
  ctx.minv = (limb)0 - binvert_limb(m[0]);
  ctx.r2 = r2;
  ctx.one = one;
}

} // namespace mpn
} // namespace mpb
