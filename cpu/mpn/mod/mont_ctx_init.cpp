// cpu/mpn/mod/mont_ctx_init.cpp: the Montgomery context of an odd modulus (MontCtx): a copy of m,
// -m^-1 mod 2^64, R mod m and R^2 mod m (R = 2^(64n)), set up once per modulus and shared
// read-only by every exponentiation. Constant time in the value of m (RSA primes are secret):
// R mod m by 64 masked doublings of 2^(64(n-1)) (< m), R^2 mod m as the Montgomery form of
// 2^(64n), by squarings (sqr_basecase + REDC) and masked doublings over the bits of the public
// 64n. No division (the divisor's value would steer Knuth's quotient corrections).
#include "mpn/mod/mont.h"

namespace mpb {
namespace mpn {

size_t mont_ctx_itch(size_t n) { return 3 * n + n + mont_sqr_itch(n); }

void mont_dbl(limb *xp, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  const limb hi = lshift(xp, xp, n, 1);             // 2x = hi * 2^(64n) + x
  const limb bw = sub_n(scratch, xp, ctx.m, n);     // 2x - m (mod 2^(64n))
  const limb mask = (limb)0 - (hi | (bw ^ 1));      // all ones when 2x >= m
  for (size_t i = 0; i < n; i++) xp[i] = (scratch[i] & mask) | (xp[i] & ~mask);
}

void mont_ctx_init(MontCtx &ctx, const limb *m, size_t n, limb *storage) {
  MPB_ASSERT(n >= 1 && (m[0] & 1) && m[n - 1] != 0);
  MPB_ASSERT(!overlap(storage, mont_ctx_itch(n), m, n));
  limb *mc = storage, *r2 = storage + n, *one = storage + 2 * n;
  limb *t = storage + 3 * n, *ws = t + n;
  copy(mc, m, n);
  ctx.m = mc;
  ctx.n = n;
  ctx.minv = (limb)0 - mpb::detail::binvert_limb(m[0]);
  ctx.r2 = r2;
  ctx.one = one;
  // R mod m: 2^(64(n-1)) <= m (m has n limbs; equal only for m == 1), made < m, doubled 64 times
  zero(one, n);
  one[n - 1] = 1;
  mont_canon(one, one, ctx, t);
  for (int i = 0; i < 64; i++) mont_dbl(one, ctx, t);
  // R^2 mod m = the Montgomery form of 2^(64n): from the form of 1, square for every bit of
  // 64n and double for its one bits (the bits of 64n are public)
  copy(r2, one, n);
  const size_t e = 64 * n;
  for (int b = 63 - __builtin_clzll((unsigned long long)e); b >= 0; b--) {
    mont_sqr_ct(r2, r2, ctx, ws);  // < 2m for an input < m
    mont_canon(r2, r2, ctx, t);
    if ((e >> b) & 1) mont_dbl(r2, ctx, t);
  }
}

} // namespace mpn
} // namespace mpb
