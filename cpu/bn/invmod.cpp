// mp_invmod: c = a^-1 mod b, 0 <= c < b, by mpn::invmod (Lehmer's extended Euclid,
// cpu/mpn/gcd/invmod_lehmer.cpp; odd and even b alike) on x = a mod b. MP_VAL when b <= 0 or
// gcd(a, b) != 1 (c untouched). For b == 1 the inverse is 0.
#include "bn/bn_internal.h"
#include "bn/bn_ops.h"

using namespace mpb;
using mpn::limb;

extern "C" MPB_API int mpb_mp_invmod(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!a || !b || !c) return MP_VAL;
  if (b->used == 0 || b->sign == MP_NEG) return MP_VAL;
  if (mpb_mp_cmp_d(b, 1) == MP_EQ) {
    mpb_mp_zero(c);
    return MP_OKAY;
  }
  bn::Temp x;
  if (!x.ok()) return MP_MEM;
  int e = mpb_mp_mod(a, b, &x);  // 0 <= x < b
  if (e != MP_OKAY) return e;
  if (x.get()->used == 0) return MP_VAL;
  size_t mn = (size_t)b->used, xn = (size_t)x.get()->used;
  ScratchLimbs<512> s(mn + mpn::invmod_itch(xn, mn));
  if (!s.ok()) return MP_MEM;
  limb *r = s.get(), *ws = r + mn;
  if (!mpn::invmod(r, x.get()->dp, xn, b->dp, mn, ws)) return MP_VAL;
  e = bn::ensure(c, mn);  // b is not read after this (c may be b)
  if (e != MP_OKAY) return e;
  size_t old = (size_t)c->used;
  mpn::copy(c->dp, r, mn);
  bn::finish(c, mn, old > mn ? old : mn, MP_ZPOS);
  return MP_OKAY;
}
