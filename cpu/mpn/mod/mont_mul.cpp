// Montgomery multiplication.
//  - mont_mul: a product, then REDC: with MULX/ADX up to 64 limbs the generated row kernels,
//    without them the product and REDC in one pass of columns (cpu/mpn/mod/mont_cols.cpp) from
//    tuning MONT_MUL_COLS_MIN limbs on, the Comba product and the column REDC
//    (cpu/mpn/mod/redc_comba.cpp) below. With
//    MULX/ADX past 64 limbs, fused CIOS (coarsely integrated operand scanning, Koc-Acar-Kaliski
//    1996): for each limb b[i]: t += a*b[i]; q = t[0]*minv; t += q*m; t >>= 64, the running t
//    in a sliding window of the scratch block, both rows with MULX + ADCX/ADOX
//    (cpu/mpn/x86_64/redc_row_adx.h). mont_mul_portable is CIOS in C, kept as a reference.
//  - mont_sqr / mont_mul_redc: a full product by mpn::sqr / mpn::mul_n, then REDC (without
//    MULX/ADX, from MONT_SQR_COLS_MIN limbs to the Karatsuba cut-off, the squaring's columns
//    pass instead; the same for mont_sqr_ct). The
//    squaring computes only the triangle of cross products (n^2/2) + the diagonal, so a
//    Montgomery squaring costs about 1.5 n^2 limb products against 2 n^2 for CIOS.
#include "core/cpu_features.h"
#include "mpn/x86_64/redc_row_adx.h"
#include "mpn/mod/mont.h"
#include "mpn/mul/mul_internal.h"
#include "mpn/tuning.h"

namespace mpb {
namespace mpn {

size_t mont_mul_itch(size_t n) { return 2 * n + 2; }

size_t mont_sqr_itch(size_t n) {
  size_t a = sqr_itch(n), b = mul_n_itch(n);
  size_t s = 2 * n + (a > b ? a : b);
  return s > 2 * n + 2 ? s : 2 * n + 2;
}

// t (window of n+1 limbs, t[n] the top) accumulates; after row i the window moves up one limb.
void mont_mul_portable(limb *rp, const limb *ap, const limb *bp, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  const limb *m = ctx.m;
  zero(scratch, n + 1);
  for (size_t i = 0; i < n; i++) {
    limb *t = scratch + i;
    limb c = addmul_1(t, ap, n, bp[i]);
    limb s = t[n] + c;
    limb top = s < c;
    limb q = t[0] * ctx.minv;
    c = addmul_1(t, m, n, q);
    t[n] = s + c;
    top += t[n] < c;
    t[n + 1] = top;  // t[0] is 0 now: the window moves to t + 1
  }
  limb *t = scratch + n;  // n+1 limbs, value < R + m
  cnd_sub_n(t[n], rp, t, m, n);
}

#ifdef MPB_HAVE_ADX_ASM
__attribute__((target("bmi2,adx"))) static void mont_mul_adx(limb *rp, const limb *ap,
                                                             const limb *bp, const MontCtx &ctx,
                                                             limb *scratch) {
  const size_t n = ctx.n;
  const limb *m = ctx.m;
  zero(scratch, n + 1);
  for (size_t i = 0; i < n; i++) {
    limb *t = scratch + i;
    limb c = addmul_row_adx(t, ap, n, bp[i]);
    limb s = t[n] + c;
    limb top = s < c;
    limb q = t[0] * ctx.minv;
    c = addmul_row_adx(t, m, n, q);
    t[n] = s + c;
    top += t[n] < c;
    t[n + 1] = top;
  }
  limb *t = scratch + n;
  cnd_sub_n(t[n], rp, t, m, n);
}
#endif

// Without MULX/ADX: from tuning MONT_MUL_COLS_MIN limbs on, the product and the REDC in one
// pass of columns (cpu/mpn/mod/mont_cols.cpp); below, the unrolled Comba product, then the column
// REDC (cpu/mpn/mod/redc_comba.cpp). All are product scanning with delayed carries and constant
// time, and beat CIOS (mont_mul_portable) at every size (AMD Zen 5, 2026-11-29,
// `MPBATCH_CPU_DISABLE=all bench_mul --mont`, ns: 8 limbs 107 -> 73, 16: 412 -> 322, 32: 1,515 ->
// 1,281, 64: 5,806 -> 5,071 with the Comba product and column REDC; the columns pass then: 16:
// 309 -> 274-282, 32: 1,090 -> 966-971, 64: 4,135-4,223 -> 3,581-3,589). An unrolled 16-limb
// product is not used: run between the squarings of an exponentiation it was 1.7x slower than
// alone (RSA-2048 1,308 -> 1,396/s with the loop), and a fully unrolled 16-limb columns pass was
// 1.6x slower than the loop even alone. Below 17 limbs the columns pass, though faster alone
// from 9 limbs on, made the exponentiation slower beside the unrolled Comba squares (tuning.h).
constexpr size_t MONT_COMBA_FIXED_MAX = 8;  // the unrolled Comba product below the columns pass

static void mont_mul_comba(limb *rp, const limb *ap, const limb *bp, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  if ((int)n >= tuning::params().mont_mul_cols_min) {
    const limb cy = mont_mul_cols(rp, ap, bp, ctx.m, n, ctx.minv, scratch);  // q: n of the 2n + 2
    cnd_sub_n(cy, rp, rp, ctx.m, n);
    return;
  }
  limb *t = scratch;  // 2n of the 2n + 2
  if (n <= MONT_COMBA_FIXED_MAX)
    kern::mul_comba_fixed(t, ap, bp, n);
  else
    kern::mul_comba_loop(t, ap, bp, n);
  mont_redc(rp, t, ctx);
}

// The portable squaring's columns pass (mont_cols.cpp) between tuning MONT_SQR_COLS_MIN and the
// Karatsuba cut-off KCUT: there the pass beats the Comba square + column REDC (unrolled squares
// up to 16 limbs beat it below), and Karatsuba beats it above. False with MULX/ADX.
static bool sqr_by_cols(size_t n, int kcut) {
  return !kern::use_adx() && (int)n >= tuning::params().mont_sqr_cols_min && (int)n < kcut;
}
static void mont_sqr_cols_redc(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch) {
  const limb cy = mont_sqr_cols(rp, ap, ctx.m, ctx.n, ctx.minv, scratch);
  cnd_sub_n(cy, rp, rp, ctx.m, ctx.n);
}

void mont_mul(limb *rp, const limb *ap, const limb *bp, const MontCtx &ctx, limb *scratch) {
#ifdef MPB_HAVE_ADX_ASM
  if (cpu::has_mulx_adx()) {
    // Where the generated row product and REDC kernels exist, they beat CIOS (AMD Zen 5,
    // 2026-11-29, `bench_mul --mont`, ns: 8 limbs 58.4 -> 51.7, 16: 202 -> 171, 32: 727 -> 655,
    // 64: 2,830 -> 2,712); both are constant time, and the contract (rp < R) is the same.
    if (kern::use_adx() && ctx.n <= kern::ROWS_ADX_MAX && redc_fixed_adx_has(ctx.n)) {
      kern::mul_n_small(scratch, ap, bp, ctx.n);  // 2n limbs of the 2n + 2
      mont_redc(rp, scratch, ctx);
      return;
    }
    mont_mul_adx(rp, ap, bp, ctx, scratch);
    return;
  }
#endif
  mont_mul_comba(rp, ap, bp, ctx, scratch);
}

void mont_sqr(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  if (sqr_by_cols(n, tuning::params().sqr_karatsuba)) return mont_sqr_cols_redc(rp, ap, ctx, scratch);
  limb *t = scratch;  // 2n
  sqr(t, ap, n, scratch + 2 * n);
  mont_redc(rp, t, ctx);
}

void mont_sqr_ct(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch) {
  if (sqr_by_cols(ctx.n, tuning::params().sqr_karatsuba_ct)) return mont_sqr_cols_redc(rp, ap, ctx, scratch);
  limb *t = scratch;  // 2n
  sqr_ct(t, ap, ctx.n, scratch + 2 * ctx.n);  // chosen by n only
  mont_redc(rp, t, ctx);
}

// The same choices as mont_sqr_ct (sqr_by_cols is false with MULX/ADX; sqr_ct takes
// kern::sqr_small below the constant-time Karatsuba cut-off, which is sqr_rows_adx from
// ROWS_ADX_MIN to SQR_ROWS_ADX_MAX limbs), mont_mul_ct (mul_n_small: mul_rows_adx from
// ROWS_ADX_MIN to ROWS_ADX_MAX) and mont_redc (mont_redc_fixed_adx where it exists). The n <= 8
// kernels stay behind their switch (null here).
MontCtKernels mont_ct_kernels(const MontCtx &ctx) {
  MontCtKernels k;
#ifdef MPB_HAVE_ADX_ASM
  const size_t n = ctx.n;
  if (kern::use_adx() && redc_fixed_adx_has(n) && n >= kern::ROWS_ADX_MIN) {
    k.redc = mont_redc_fixed_adx_fn(n);
    if (n <= kern::ROWS_ADX_MAX) k.mul = kern::mul_rows_adx_fn(n);
    if (n <= kern::SQR_ROWS_ADX_MAX && (int)n < tuning::params().sqr_karatsuba_ct) k.sqr = kern::sqr_rows_adx_fn(n);
    if (k.sqr && k.mul) k.sqr_sel = kern::sqr_sel_adx_fn(n);
    if (k.mul) k.mul_sel = kern::mul_sel_adx_fn(n);
  }
#else
  (void)ctx;
#endif
  return k;
}

void mont_mul_ct(limb *rp, const limb *ap, const limb *bp, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  // With MULX/ADX the row product (up to 64 limbs) + REDC beats CIOS: 24 limbs 1405 -> ~1300
  // TSC cycles on a Zen 3 (2026-11-27); mul_n_small then never takes Karatsuba either.
#ifdef MPB_HAVE_ADX_ASM
  if (kern::use_adx() && n <= kern::ROWS_ADX_MAX) {
    limb *t = scratch;  // 2n
    kern::mul_n_small(t, ap, bp, n);
    mont_redc(rp, t, ctx);
    return;
  }
#endif
  mont_mul(rp, ap, bp, ctx, scratch);  // Comba + column REDC, or CIOS with MULX/ADX past 64 limbs
}

void mont_mul_redc(limb *rp, const limb *ap, const limb *bp, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  limb *t = scratch;
  mul_n(t, ap, bp, n, scratch + 2 * n);
  mont_redc(rp, t, ctx);
}

void mont_to(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch) {
  mont_mul(rp, ap, ctx.r2, ctx, scratch);
}

void mont_canon(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch) {
  limb borrow = sub_n(scratch, ap, ctx.m, ctx.n);  // ap >= m  <=>  no borrow
  cnd_sub_n(borrow ^ 1, rp, ap, ctx.m, ctx.n);
}

void mont_from(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  limb *t = scratch;  // 2n
  copy(t, ap, n);
  zero(t + n, n);
  limb cy = redc_1(rp, t, ctx.m, n, ctx.minv);  // (a + q m)/R <= m: no carry
  (void)cy;
  MPB_ASSERT(cy == 0);
  mont_canon(rp, rp, ctx, t);
}

} // namespace mpn
} // namespace mpb
