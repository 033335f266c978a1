// cpu/mpn/mod/mont_reduce.cpp: r = c mod m for a c of any length, in constant time in the values
// of c and m (only the lengths steer it): the top 2n limbs first (one REDC, any value < R^2,
// then times R^2 by one Montgomery multiplication), then Horner over the n-limb chunks below,
// acc = (acc * 2^(64n) + chunk) mod m as REDC of the 2n-limb concatenation (acc, chunk) < m R,
// then times R^2, each step ending with a masked subtraction (mont_canon). A c of 2n limbs
// (RSA's c mod p) takes one step. Used where the
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
  // The top two n-limb chunks (all of c when cn <= 2n) first, as one value V < R^2: REDC takes
  // any V < R^2 to V/R mod m (< R), and times R^2 by one Montgomery multiplication gives V mod m.
  size_t j = (cn + n - 1) / n;  // chunks
  j = j > 2 ? j - 2 : 0;        // the lowest chunk of V
  const size_t len = cn - j * n;
  copy(t, cp + j * n, len);
  zero(t + len, 2 * n - len);
  mont_redc(rp, t, ctx);              // V / R mod m, < R
  mont_mul(rp, rp, ctx.r2, ctx, ws);  // V mod m, < R
  mont_canon(rp, rp, ctx, ws);
  while (j-- > 0) {  // the chunks below, from the top: acc = (acc R + chunk) mod m
    copy(t, cp + j * n, n);
    copy(t + n, rp, n);                 // acc * R + chunk < m R
    mont_redc(rp, t, ctx);              // (acc R + chunk) / R mod m, < 2m
    mont_mul(rp, rp, ctx.r2, ctx, ws);  // * R: acc R + chunk (mod m), < 2m
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
