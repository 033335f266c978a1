// cpu/mpn/mod/mont_ctx_init.cpp: the Montgomery context of an odd modulus (MontCtx): a copy of m,
// -m^-1 mod 2^64, R mod m and R^2 mod m (R = 2^(64n), by mpn::pow2_divrem), set up once per
// modulus and shared read-only by every exponentiation.
#include "mpn/mod/mont.h"

namespace mpb {
namespace mpn {

size_t mont_ctx_itch(size_t n) { return 3 * n + pow2_divrem_itch(128 * n, n); }

void mont_ctx_init(MontCtx &ctx, const limb *m, size_t n, limb *storage) {
  MPB_ASSERT(n >= 1 && (m[0] & 1) && m[n - 1] != 0);
  MPB_ASSERT(!overlap(storage, mont_ctx_itch(n), m, n));
  limb *mc = storage, *r2 = storage + n, *one = storage + 2 * n;
  limb *sc = storage + 3 * n;
  copy(mc, m, n);
  pow2_divrem(nullptr, one, 64 * n, mc, n, sc);   // R mod m
  pow2_divrem(nullptr, r2, 128 * n, mc, n, sc);   // R^2 mod m
  ctx.m = mc;
  ctx.n = n;
  ctx.minv = (limb)0 - mpb::detail::binvert_limb(m[0]);
  ctx.r2 = r2;
  ctx.one = one;
}

} // namespace mpn
} // namespace mpb
