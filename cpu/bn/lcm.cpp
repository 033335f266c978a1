// mp_lcm: lcm(|a|, |b|) = (|a| / gcd(a, b)) * |b|; 0 when a or b is 0.
#include "bn/bn_internal.h"

using namespace mpb;

extern "C" MPB_API int mpb_mp_lcm(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!a || !b || !c) return MP_VAL;
  if (a->used == 0 || b->used == 0) {
    mpb_mp_zero(c);
    return MP_OKAY;
  }
  bn::Temp g, q;
  if (!g.ok() || !q.ok()) return MP_MEM;
  int e = mpb_mp_gcd(a, b, &g);
  if (e == MP_OKAY) e = mpb_mp_div(a, &g, &q, nullptr);  // exact
  if (e == MP_OKAY) e = mpb_mp_mul(&q, b, &q);
  if (e == MP_OKAY) e = mpb_mp_abs(&q, c);
  return e;
}
