// mp_gcd: the gcd of the magnitudes by mpn::gcd (Lehmer's double-digit Euclid,
// cpu/mpn/gcd/gcd_lehmer.cpp) on zero-padded private copies; c is written only at the end.
#include "bn/bn_internal.h"
#include "bn/bn_ops.h"

using namespace mpb;
using mpn::limb;

extern "C" MPB_API int mpb_mp_gcd(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!a || !b || !c) return MP_VAL;
  if (a->used == 0) return mpb_mp_abs(b, c);
  if (b->used == 0) return mpb_mp_abs(a, c);
  size_t un = (size_t)a->used, vn = (size_t)b->used;
  size_t n = un > vn ? un : vn;
  ScratchLimbs<512> s(3 * n + mpn::gcd_itch(n));
  if (!s.ok()) return MP_MEM;
  limb *u = s.get(), *v = u + n, *g = v + n, *ws = g + n;
  mpn::copy(u, a->dp, un);
  mpn::zero(u + un, n - un);
  mpn::copy(v, b->dp, vn);
  mpn::zero(v + vn, n - vn);
  size_t gn = mpn::gcd(g, u, v, n, ws);
  int e = bn::ensure(c, gn);
  if (e != MP_OKAY) return e;
  size_t old = (size_t)c->used;
  mpn::copy(c->dp, g, gn);
  bn::finish(c, gn, old > gn ? old : gn, MP_ZPOS);
  return MP_OKAY;
}
