// mp_mul, mp_sqr: thin wrappers over the mpn dispatchers (mpn::mul / mpn::mul_n / mpn::sqr).
// No allocation when c does not alias an input and the scratch fits on the stack; when c
// aliases an input the product goes to scratch first and is copied. mp_mul(a, a, c) squares.
#include <utility>

#include "bn_ops.h"

using namespace mpb;
using mpn::limb;

namespace {
constexpr size_t STACK_LIMBS = 640;  // 5 KiB: covers 64x64-limb products with aliasing

int sqr_into(const mp_int *a, mp_int *c) {
  size_t n = bn::used(a);
  if (n == 0) { mpb_mp_zero(c); return MP_OKAY; }
  size_t rn = 2 * n;
  if (!bn::size_ok(rn)) return MP_MEM;
  const bool alias = (c == a);
  const size_t itch = mpn::sqr_itch(n);
  ScratchLimbs<STACK_LIMBS> s(itch + (alias ? rn : 0));
  if (!s.ok()) return MP_MEM;
  if (c->alloc < (int)rn) {
    int e = bn::grow(c, (int)rn);
    if (e != MP_OKAY) return e;
  }
  size_t old = bn::used(c);
  if (!alias) {
    mpn::sqr(c->dp, a->dp, n, s.get());
  } else {
    limb *rp = s.get() + itch;
    mpn::sqr(rp, a->dp, n, s.get());
    std::memcpy(c->dp, rp, rn * sizeof(limb));
  }
  bn::finish(c, rn, old, MP_ZPOS);
  return MP_OKAY;
}
}  // namespace

extern "C" {

MPB_API int mpb_mp_mul(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!a || !b || !c) return MP_VAL;
  if (a == b) return sqr_into(a, c);
  size_t an = bn::used(a), bnn = bn::used(b);
  if (an == 0 || bnn == 0) { mpb_mp_zero(c); return MP_OKAY; }
  const int sign = (a->sign != b->sign) ? MP_NEG : MP_ZPOS;
  if (an < bnn) { std::swap(a, b); std::swap(an, bnn); }
  const size_t rn = an + bnn;
  if (!bn::size_ok(rn)) return MP_MEM;
  const bool alias = (c == a || c == b);
  const size_t itch = an == bnn ? mpn::mul_n_itch(an) : mpn::mul_itch(an, bnn);
  ScratchLimbs<STACK_LIMBS> s(itch + (alias ? rn : 0));
  if (!s.ok()) return MP_MEM;
  if (c->alloc < (int)rn) {
    int e = bn::grow(c, (int)rn);
    if (e != MP_OKAY) return e;
  }
  size_t old = bn::used(c);
  limb *rp = alias ? s.get() + itch : c->dp;
  // operand pointers are read after the grow (c may be a or b)
  if (an == bnn) mpn::mul_n(rp, a->dp, b->dp, an, s.get());
  else mpn::mul(rp, a->dp, an, b->dp, bnn, s.get());
  if (alias) std::memcpy(c->dp, rp, rn * sizeof(limb));
  bn::finish(c, rn, old, sign);
  return MP_OKAY;
}

MPB_API int mpb_mp_sqr(const mp_int *a, mp_int *b) {
  if (!a || !b) return MP_VAL;
  return sqr_into(a, b);
}

}  // extern "C"
