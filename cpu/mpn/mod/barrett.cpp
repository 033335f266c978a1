// Barrett reduction (HAC 14.42, seed section 5.3.6) with half-precision products:
//   q1 = floor(x / B^(n-1))                   (the top n+1 limbs of x, no work)
//   q3 = floor(q1 * mu / B^(n+1))             only columns >= n-1 of q1*mu are formed
//   r  = (x - q3*m) mod B^(n+1)               only the low n+1 limbs of q3*m are formed
//   while r >= m: r -= m                      (a few times at most)
// mu = floor(B^(2n) / m) is precomputed once per modulus. With the full q1*mu, r < 3m (HAC
// 14.43); the dropped columns below n-1 lose less than (n-1)*B^n, so q3 is at most one less
// again and r < 4m: barrett_reduce_ct does exactly three masked conditional subtractions.
#include "core/cpu_features.h"
#include "mpn/x86_64/redc_row_adx.h"
#include "mpn/mod/barrett.h"

namespace mpb {
namespace mpn {

size_t barrett_ctx_itch(size_t n) { return n + (n + 2) + (n + 2) + pow2_divrem_itch(128 * n, n); }

void barrett_ctx_init(BarrettCtx &ctx, const limb *m, size_t n, limb *storage) {
  MPB_ASSERT(n >= 1 && m[n - 1] != 0);
  limb *mc = storage, *mu = storage + n;
  limb *q = mu + n + 2;  // pow2_divrem_qn(128n, n) = n+2
  limb *sc = q + n + 2;
  copy(mc, m, n);
  pow2_divrem(q, nullptr, 128 * n, mc, n, sc);  // floor(B^(2n) / m)
  copy(mu, q, n + 2);
  ctx.m = mc;
  ctx.n = n;
  ctx.mu = mu;
  ctx.mun = normalized_size(mu, n + 2);
}

size_t barrett_reduce_itch(size_t n) { return (2 * n + 3) + 2 * (n + 1); }

namespace {
// The reduction proper; Row is an addmul_1 (portable, or the MULX/ADX row kernel).
template <bool CT, class Row>
inline void barrett_impl(limb *rp, const limb *xp, const BarrettCtx &ctx, limb *scratch, Row row) {
  const size_t n = ctx.n, mun = ctx.mun;
  const limb *m = ctx.m, *mu = ctx.mu;
  const limb *q1 = xp + (n - 1);  // n+1 limbs
  limb *p = scratch;              // q1*mu: n+1+mun <= 2n+3 limbs
  limb *r2 = p + 2 * n + 3;       // n+1
  limb *r = r2 + n + 1;           // n+1
  zero(p, n + 1 + mun);
  for (size_t j = 0; j < mun; j++) {
    size_t i0 = j + 1 < n ? n - 1 - j : 0;  // skip the columns below n-1
    p[j + n + 1] = row(p + j + i0, q1 + i0, n + 1 - i0, mu[j]);
  }
  const limb *q3 = p + n + 1;  // n+1 limbs suffice: q3 <= x/m < B^(n+1)
  // r2 = q3 * m mod B^(n+1)
  zero(r2, n);
  r2[n] = row(r2, m, n, q3[0]);
  for (size_t i = 1; i <= n; i++) row(r2 + i, m, n + 1 - i, q3[i]);
  sub_n(r, xp, r2, n + 1);
  if (CT) {
    limb *t = r2;  // free again: t = r - m over n+1 limbs, kept when it does not borrow
    for (int k = 0; k < 3; k++) {
      limb bo = sub_n(t, r, m, n);
      t[n] = r[n] - bo;
      limb keep = (limb)0 - (limb)(r[n] >= bo);  // all ones: no borrow out of limb n
      for (size_t i = 0; i <= n; i++) r[i] = (t[i] & keep) | (r[i] & ~keep);
    }
  } else {
    while (r[n] != 0 || cmp(r, m, n) >= 0) r[n] -= sub_n(r, r, m, n);
  }
  copy(rp, r, n);
}
} // namespace

template <bool CT>
static void barrett_dispatch(limb *rp, const limb *xp, const BarrettCtx &ctx, limb *scratch) {
#ifdef MPB_HAVE_ADX_ASM
  if (cpu::has_mulx_adx()) {
    barrett_impl<CT>(rp, xp, ctx, scratch,
                     [](limb *u, const limb *mp, size_t k, limb q) { return addmul_row_adx(u, mp, k, q); });
    return;
  }
#endif
  barrett_impl<CT>(rp, xp, ctx, scratch,
                   [](limb *u, const limb *mp, size_t k, limb q) { return addmul_1(u, mp, k, q); });
}

void barrett_reduce(limb *rp, const limb *xp, const BarrettCtx &ctx, limb *scratch) {
  barrett_dispatch<false>(rp, xp, ctx, scratch);
}
void barrett_reduce_ct(limb *rp, const limb *xp, const BarrettCtx &ctx, limb *scratch) {
  barrett_dispatch<true>(rp, xp, ctx, scratch);
}

} // namespace mpn
} // namespace mpb
