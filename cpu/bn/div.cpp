// mp_div (truncating: a = c*b + d, sign(d) = sign(a)) and mp_mod (0 <= c < |b|), over the
// Knuth division mpn::tdiv_qr. Quotient and remainder are computed into scratch first, then
// both outputs are grown, then written, so a failure leaves them untouched and any output
// may alias a or b.
#include "bn/bn_ops.h"

using namespace mpb;
using mpn::limb;

namespace {
constexpr size_t STACK_LIMBS = 1024;

// c = quotient (may be NULL), d = remainder (may be NULL). floor_mod: d = a mod |b| in [0, |b|).
int divmod(const mp_int *a, const mp_int *b, mp_int *c, mp_int *d, bool floor_mod) {
  if (!a || !b) return MP_VAL;
  if (c && c == d) return MP_VAL;
  const size_t an = bn::used(a), bnn = bn::used(b);
  if (bnn == 0) return MP_VAL;
  const bool aneg = a->sign == MP_NEG && an > 0;
  const int qsign = (a->sign != b->sign) ? MP_NEG : MP_ZPOS;
  const int rsign = floor_mod ? MP_ZPOS : a->sign;

  if (an < bnn && !(floor_mod && aneg)) {
    // |a| < |b|: q = 0, r = a (floor_mod with a >= 0 too)
    if (d) {
      int e = mpb_mp_copy(a, d);
      if (e != MP_OKAY) return e;
      if (floor_mod) d->sign = MP_ZPOS;
    }
    if (c) mpb_mp_zero(c);
    return MP_OKAY;
  }
  size_t qn, itch;
  if (an < bnn) { qn = 0; itch = 0; }
  else { qn = an - bnn + 1; itch = mpn::tdiv_qr_itch(an, bnn); }
  const size_t rn = bnn;
  ScratchLimbs<STACK_LIMBS> s(itch + qn + rn);
  if (!s.ok()) return MP_MEM;
  limb *qp = s.get() + itch, *rp = qp + qn;
  if (an < bnn) {
    // floor_mod, a < 0, |a| < |b|: r = |b| - |a|
    mpn::sub(rp, b->dp, bnn, a->dp, an);
  } else {
    mpn::tdiv_qr(c ? qp : nullptr, rp, a->dp, an, b->dp, bnn, s.get());
    if (floor_mod && aneg && mpn::normalized_size(rp, rn) != 0)
      mpn::sub_n(rp, b->dp, rp, rn);  // |b| - r
  }
  // grow both outputs before writing either
  if (c) {
    int e = bn::ensure(c, qn);
    if (e != MP_OKAY) return e;
  }
  if (d) {
    int e = bn::ensure(d, rn);
    if (e != MP_OKAY) return e;
  }
  if (c) bn::set_limbs(c, qp, qn, qsign);
  if (d) bn::set_limbs(d, rp, rn, rsign);
  return MP_OKAY;
}
}  // namespace

extern "C" {

MPB_API int mpb_mp_div(const mp_int *a, const mp_int *b, mp_int *c, mp_int *d) {
  return divmod(a, b, c, d, false);
}

MPB_API int mpb_mp_mod(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!c) return MP_VAL;
  return divmod(a, b, nullptr, c, true);
}

}  // extern "C"
