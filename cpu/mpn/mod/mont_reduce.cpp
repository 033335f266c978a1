// cpu/mpn/mod/mont_reduce.cpp: r = c mod m for a c of any length, in constant time in the values
// of c and m (only the lengths steer it): Horner over the n-limb chunks of c from the top,
// acc = (acc * 2^(64n) + chunk) mod m as REDC of the 2n-limb concatenation (acc, chunk) < m R,
// then times R^2 by one Montgomery multiplication, then one masked subtraction. Used where the
// divisor is secret (RSA: c mod p, m2 mod p, the key check qinv*q mod p).
#include "mpn/mod/mont.h"

namespace mpb {
namespace mpn {

size_t mont_reduce_itch(size_t n) {
  const size_t w = mont_mul_itch(n);
  return 2 * n + (w > n ? w : n);
}

void mont_reduce(limb *rp, const limb *cp, size_t cn, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  MPB_ASSERT(cn >= 1);
  limb *t = scratch, *ws = t + 2 * n;
  zero(rp, n);
  for (size_t j = (cn + n - 1) / n; j-- > 0;) {
    const size_t lo = j * n, len = cn - lo < n ? cn - lo : n;
    copy(t, cp + lo, len);
    zero(t + len, n - len);
    copy(t + n, rp, n);                // acc * R + chunk < m R
    mont_redc(rp, t, ctx);             // (acc R + chunk) / R mod m, < 2m
    mont_mul(rp, rp, ctx.r2, ctx, ws); // * R: acc R + chunk (mod m), < 2m
    mont_canon(rp, rp, ctx, ws);
  }
}

size_t pow2_mod_itch(size_t n) { return mont_ctx_itch(n) + mont_sqr_itch(n); }

void pow2_mod(limb *rp, size_t e, const limb *mp, size_t n, limb *scratch) {
  MontCtx ctx;
  mont_ctx_init(ctx, mp, n, scratch);
  limb *ws = scratch + mont_ctx_itch(n);
  // the Montgomery form of 2^e, as for R^2 in mont_ctx_init, then out of the domain
  copy(rp, ctx.one, n);
  if (e > 0) {
    for (int b = 63 - __builtin_clzll((unsigned long long)e); b >= 0; b--) {
      mont_sqr_ct(rp, rp, ctx, ws);
      mont_canon(rp, rp, ctx, ws);
      if ((e >> b) & 1) mont_dbl(rp, ctx, ws);
    }
  }
  mont_from(rp, rp, ctx, ws);
}

} // namespace mpn
} // namespace mpb
