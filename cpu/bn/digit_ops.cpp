// Single-digit operations: mp_add_d, mp_sub_d, mp_mul_d, mp_div_d, mp_mod_d.
// mp_div_d: c = a / b truncated (sign of a), *d = |a| mod b (a digit cannot be negative).
// mp_mod_d: *c = a mod b in [0, b) (for a < 0 this is b - (|a| mod b) when nonzero).
#include "bn/bn_ops.h"

using namespace mpb;
using mpn::limb;

namespace {
// c = (sign, |a| + b)
int add_mag_d(const mp_int *a, mp_digit b, int sign, mp_int *c) {
  const size_t an = bn::used(a);
  int e = bn::ensure(c, an + 1);
  if (e != MP_OKAY) return e;
  size_t old = bn::used(c);
  c->dp[an] = mpn::add_1(c->dp, a->dp, an, b);
  bn::finish(c, an + 1, old, sign);
  return MP_OKAY;
}
// c = |a| - b with sign `sign` if |a| >= b, else b - |a| with the opposite sign.
int sub_mag_d(const mp_int *a, mp_digit b, int sign, mp_int *c) {
  const size_t an = bn::used(a);
  if (an > 1 || (an == 1 && a->dp[0] >= b)) {
    int e = bn::ensure(c, an);
    if (e != MP_OKAY) return e;
    size_t old = bn::used(c);
    mpn::sub_1(c->dp, a->dp, an, b);
    bn::finish(c, an, old, sign);
    return MP_OKAY;
  }
  mp_digit v = an ? a->dp[0] : 0;
  int e = bn::ensure(c, 1);
  if (e != MP_OKAY) return e;
  size_t old = bn::used(c);
  c->dp[0] = b - v;
  bn::finish(c, 1, old, sign == MP_NEG ? MP_ZPOS : MP_NEG);
  return MP_OKAY;
}
}  // namespace

extern "C" {

MPB_API int mpb_mp_add_d(const mp_int *a, mp_digit b, mp_int *c) {
  if (!a || !c) return MP_VAL;
  if (a->sign == MP_NEG && a->used > 0) return sub_mag_d(a, b, MP_NEG, c);
  return add_mag_d(a, b, MP_ZPOS, c);
}

MPB_API int mpb_mp_sub_d(const mp_int *a, mp_digit b, mp_int *c) {
  if (!a || !c) return MP_VAL;
  if (a->sign == MP_NEG && a->used > 0) return add_mag_d(a, b, MP_NEG, c);
  return sub_mag_d(a, b, MP_ZPOS, c);
}

MPB_API int mpb_mp_mul_d(const mp_int *a, mp_digit b, mp_int *c) {
  if (!a || !c) return MP_VAL;
  const size_t an = bn::used(a);
  if (an == 0 || b == 0) {
    mpb_mp_zero(c);
    return MP_OKAY;
  }
  int e = bn::ensure(c, an + 1);
  if (e != MP_OKAY) return e;
  size_t old = bn::used(c);
  const int sign = a->sign;
  c->dp[an] = mpn::mul_1(c->dp, a->dp, an, b);
  bn::finish(c, an + 1, old, sign);
  return MP_OKAY;
}

MPB_API int mpb_mp_div_d(const mp_int *a, mp_digit b, mp_int *c, mp_digit *d) {
  if (!a || b == 0) return MP_VAL;
  const size_t an = bn::used(a);
  if (!c) {
    if (d) *d = an ? mpn::mod_1(a->dp, an, b) : 0;
    return MP_OKAY;
  }
  int e = bn::ensure(c, an);
  if (e != MP_OKAY) return e;
  size_t old = bn::used(c);
  const int sign = a->sign;
  limb r = an ? mpn::divrem_1(c->dp, a->dp, an, b) : 0;  // qp may equal ap
  bn::finish(c, an, old, sign);
  if (d) *d = r;
  return MP_OKAY;
}

MPB_API int mpb_mp_mod_d(const mp_int *a, mp_digit b, mp_digit *c) {
  if (!a || !c || b == 0) return MP_VAL;
  const size_t an = bn::used(a);
  limb r = an ? mpn::mod_1(a->dp, an, b) : 0;
  if (r && a->sign == MP_NEG) r = b - r;
  *c = r;
  return MP_OKAY;
}

}  // extern "C"
