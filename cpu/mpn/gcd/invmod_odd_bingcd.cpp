// cpu/mpn/gcd/invmod_odd_bingcd.cpp: variable-time inverse modulo an odd m by the optimized binary gcd
// (cpu/mpn/gcd/bingcd_step.h): a = y mod m, b = m, u = 1, v = 0 with a = u*y, b = v*y (mod m). Each
// block of 31 binary steps is decided on 64-bit approximations of a and b and applied once:
// (a, b) <- ((f0 a + g0 b) / 2^31, (f1 a + g1 b) / 2^31), and the cofactors get the same
// matrix modulo m, the division by 2^31 done as (f u + g v + q m) / 2^31 with
// q = -(f u + g v) m^-1 mod 2^31. Ends with a = 0 and b = gcd(y, m); b = 1 gives y^-1 = v.
// Falls back to cpu/mpn/gcd/invmod_odd_binary.cpp (from the original inputs) if the values ever outgrow
// their buffers or the iteration bound is exceeded (a safety net: not expected to happen).
#include "core/limb.h"

#include "mpn/gcd/bingcd_step.h"

namespace mpb {
namespace mpn {

namespace {

using bingcd::K;
using bingcd::LOWMASK;

// x (mn+1 limbs, two's complement, in (-m, 2m)) into [0, m).
inline void fix_range(limb *x, const limb *m, size_t mn) {
  while (x[mn] >> 63) x[mn] += add_n(x, x, m, mn);  // negative: + m
  while (x[mn] != 0 || cmp(x, m, mn) >= 0) x[mn] -= sub_n(x, x, m, mn);
}

// ou = (f0 u + g0 v) / 2^K mod m, ov = (f1 u + g1 v) / 2^K mod m (mn+1 limbs each, in [0, m)),
// in one pass over u, v and m.
void lin_mod2(limb *ou, limb *ov, const limb *u, const limb *v, const bingcd::Mat &mt, const limb *m,
              size_t mn, limb minv) {
  __int128 cu = 0, cv = 0;
  limb qu = 0, qv = 0, pu = 0, pv = 0;
  for (size_t i = 0; i < mn; i++) {
    limb x = u[i], y = v[i];
    __int128 tu = cu + bingcd::smul(mt.f0, x) + bingcd::smul(mt.g0, y);
    __int128 tv = cv + bingcd::smul(mt.f1, x) + bingcd::smul(mt.g1, y);
    if (i == 0) {
      qu = ((limb)tu * minv) & LOWMASK;
      qv = ((limb)tv * minv) & LOWMASK;
    }
    tu += (__int128)((unsigned __int128)qu * m[i]);
    tv += (__int128)((unsigned __int128)qv * m[i]);
    limb lu = (limb)tu, lv = (limb)tv;
    cu = tu >> 64;
    cv = tv >> 64;
    if (i) {
      ou[i - 1] = (pu >> K) | (lu << (64 - K));
      ov[i - 1] = (pv >> K) | (lv << (64 - K));
    }
    pu = lu;
    pv = lv;
  }
  ou[mn - 1] = (pu >> K) | ((limb)cu << (64 - K));
  ov[mn - 1] = (pv >> K) | ((limb)cv << (64 - K));
  ou[mn] = (limb)(cu >> K);
  ov[mn] = (limb)(cv >> K);
  fix_range(ou, m, mn);
  fix_range(ov, m, mn);
}

} // namespace

size_t invmod_odd_bingcd_itch(size_t an, size_t mn) {
  size_t div = an >= mn ? tdiv_qr_itch(an, mn) : 0;
  size_t own = 2 * (mn + 2) + 4 * (mn + 1) + div;
  size_t fb = invmod_odd_binary_itch(an, mn);
  return own > fb ? own : fb;
}

bool invmod_odd_bingcd(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch) {
  using namespace bingcd;
  MPB_ASSERT(mn >= 1 && mp[mn - 1] != 0 && (mp[0] & 1) && (mn > 1 || mp[0] > 1));
  const size_t cap = mn + 2;
  limb *A = scratch, *B = A + cap, *u = B + cap, *v = u + mn + 1, *tu = v + mn + 1, *tv = tu + mn + 1;
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
    lin_mod2(tu, tv, u, v, mt, mp, mn, minv);
    limb *t = u;
    u = tu;
    tu = t;
    t = v;
    v = tv;
    tv = t;
  }
  if (nb != 1 || B[0] != 1) return false;
  copy(rp, v, mn);
  return true;
}

} // namespace mpn
} // namespace mpb
