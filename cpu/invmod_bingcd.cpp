// cpu/invmod_bingcd.cpp: variable-time inverse modulo an odd m by the optimized binary gcd
// (cpu/bingcd_step.h): a = y mod m, b = m, u = 1, v = 0 with a = u*y, b = v*y (mod m). Each
// block of 31 binary steps is decided on 64-bit approximations of a and b and applied once:
// (a, b) <- ((f0 a + g0 b) / 2^31, (f1 a + g1 b) / 2^31), and the cofactors get the same
// matrix modulo m, the division by 2^31 done as (f u + g v + q m) / 2^31 with
// q = -(f u + g v) m^-1 mod 2^31. Ends with a = 0 and b = gcd(y, m); b = 1 gives y^-1 = v.
// Falls back to cpu/invmod_binary.cpp (from the original inputs) if the values ever outgrow
// their buffers or the iteration bound is exceeded (a safety net: not expected to happen).
#include <mpbatch/detail/limb.h>

#include "bingcd_step.h"

namespace mpb {
namespace mpn {

namespace {

using bingcd::K;
using bingcd::LOWMASK;

// out (mn+1 limbs) = (f u + g v) / 2^K mod m, in [0, m).
void lin_mod(limb *out, const limb *u, const limb *v, int64_t f, int64_t g, const limb *m, size_t mn,
             limb minv) {
  __int128 c = 0;
  limb q = 0, p = 0;
  for (size_t i = 0; i < mn; i++) {
    __int128 t = c + (__int128)f * (__int128)u[i] + (__int128)g * (__int128)v[i];
    if (i == 0) q = ((limb)t * minv) & LOWMASK;
    t += (__int128)((unsigned __int128)q * m[i]);
    limb l = (limb)t;
    c = t >> 64;
    if (i) out[i - 1] = (p >> K) | (l << (64 - K));
    p = l;
  }
  out[mn - 1] = (p >> K) | ((limb)c << (64 - K));
  out[mn] = (limb)(c >> K);
  while (out[mn] >> 63) out[mn] += add_n(out, out, m, mn);  // negative: + m
  while (out[mn] != 0 || cmp(out, m, mn) >= 0) out[mn] -= sub_n(out, out, m, mn);
}

} // namespace

size_t invmod_odd_itch(size_t an, size_t mn) {
  size_t div = an >= mn ? tdiv_qr_itch(an, mn) : 0;
  size_t own = 2 * (mn + 2) + 2 * mn + 2 * (mn + 1) + div;
  size_t fb = invmod_odd_binary_itch(an, mn);
  return own > fb ? own : fb;
}

bool invmod_odd(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch) {
  using namespace bingcd;
  MPB_ASSERT(mn >= 1 && mp[mn - 1] != 0 && (mp[0] & 1) && (mn > 1 || mp[0] > 1));
  const size_t cap = mn + 2;
  limb *A = scratch, *B = A + cap, *u = B + cap, *v = u + mn, *tu = v + mn, *tv = tu + mn + 1;
  limb *ws = tv + mn + 1;
  size_t aN = normalized_size(ap, an);
  if (aN == 0) return false;
  if (cmp2(ap, aN, mp, mn) < 0) {
    copy(A, ap, aN);
    zero(A + aN, cap - aN);
  } else {
    tdiv_qr(nullptr, A, ap, aN, mp, mn, ws);
    zero(A + mn, cap - mn);
  }
  size_t na = normalized_size(A, mn), nb = mn;
  if (na == 0) return false;
  copy(B, mp, mn);
  zero(B + mn, cap - mn);
  zero(u, mn);
  u[0] = 1;
  zero(v, mn);
  const limb minv = (limb)0 - mpb::detail::binvert_limb(mp[0]);
  size_t budget = 2 * ((bitlen(A, na) + bitlen(B, nb)) / K + 2);
  while (na != 0) {
    size_t L = na > nb ? na : nb;
    if (L + 1 > cap || budget-- == 0) return invmod_odd_binary(rp, ap, an, mp, mn, scratch);
    limb abar, bbar;
    approx(A, na, B, nb, abar, bbar);
    Mat mt = inner(abar, bbar);
    apply_ab(A, B, L, mt, na, nb);
    lin_mod(tu, u, v, mt.f0, mt.g0, mp, mn, minv);
    lin_mod(tv, u, v, mt.f1, mt.g1, mp, mn, minv);
    copy(u, tu, mn);
    copy(v, tv, mn);
  }
  if (nb != 1 || B[0] != 1) return false;
  copy(rp, v, mn);
  return true;
}

} // namespace mpn
} // namespace mpb
