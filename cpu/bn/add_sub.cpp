// mp_add, mp_sub: signed addition and subtraction over the mpn magnitude routines.
// c may alias a and/or b; c is grown before anything is written.
#include <utility>

#include "bn/bn_ops.h"

using namespace mpb;
using mpn::limb;

namespace {
// c = a + (bsign, |b|)
int add_signed(const mp_int *a, const mp_int *b, int bsign, mp_int *c) {
  size_t an = bn::used(a), bnn = bn::used(b);
  int asign = a->sign;
  if (asign == bsign) {
    const mp_int *x = a, *y = b;
    if (an < bnn) { x = b; y = a; std::swap(an, bnn); }
    int e = bn::ensure(c, an + 1);
    if (e != MP_OKAY) return e;
    size_t old = bn::used(c);
    limb cy = mpn::add(c->dp, x->dp, an, y->dp, bnn);  // pointers read after the grow
    c->dp[an] = cy;
    bn::finish(c, an + 1, old, asign);
    return MP_OKAY;
  }
  // different signs: subtract the smaller magnitude from the larger
  int cmp;
  if (an != bnn) cmp = an > bnn ? 1 : -1;
  else cmp = mpn::cmp(a->dp, b->dp, an);
  if (cmp == 0) {
    mpb_mp_zero(c);
    return MP_OKAY;
  }
  const mp_int *x = a, *y = b;
  int sign = asign;
  if (cmp < 0) { x = b; y = a; std::swap(an, bnn); sign = bsign; }
  int e = bn::ensure(c, an);
  if (e != MP_OKAY) return e;
  size_t old = bn::used(c);
  mpn::sub(c->dp, x->dp, an, y->dp, bnn);
  bn::finish(c, an, old, sign);
  return MP_OKAY;
}
}  // namespace

extern "C" {

MPB_API int mpb_mp_add(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!a || !b || !c) return MP_VAL;
  return add_signed(a, b, b->sign, c);
}

MPB_API int mpb_mp_sub(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!a || !b || !c) return MP_VAL;
  return add_signed(a, b, b->sign == MP_NEG ? MP_ZPOS : MP_NEG, c);
}

}  // extern "C"
