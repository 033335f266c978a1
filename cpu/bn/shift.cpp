// Digit and bit shifts of mp_int: mp_rshd, mp_lshd, mp_div_2d (with optional remainder),
// mp_div_2, mp_mul_2d, mp_mul_2, mp_mod_2d. They act on the magnitude and keep the sign of a
// (mp_div_2d(-5, 1) = -2 remainder -1). A shift count <= 0 places a in the output (seed
// manual section 5.1), including mp_mod_2d.
#include "bn/bn_ops.h"

using namespace mpb;
using mpn::limb;

namespace {
// c = |a| >> bits with sign of a. c may be a. c must already have alloc >= used(a) - bits/64.
void shr_into(const mp_int *a, size_t bits, mp_int *c) {
  const size_t an = bn::used(a), sd = bits / 64;
  const unsigned sb = (unsigned)(bits % 64);
  const int sign = a->sign;
  size_t old = bn::used(c);
  if (sd >= an) {
    bn::finish(c, 0, old, MP_ZPOS);
    return;
  }
  size_t n = an - sd;
  if (sb) mpn::rshift(c->dp, a->dp + sd, n, sb);  // rp <= ap: fine in place
  else mpn::copy(c->dp, a->dp + sd, n);
  bn::finish(c, n, old, sign);
}

// c = |a| mod 2^bits with sign of a, c may be a; c->alloc >= min(used(a), ceil(bits/64)).
void mod_into(const mp_int *a, size_t bits, mp_int *c) {
  const size_t an = bn::used(a);
  size_t n = (bits + 63) / 64;
  const int sign = a->sign;
  size_t old = bn::used(c);
  if (n > an) {
    n = an;
    if (c != a) mpn::copy(c->dp, a->dp, n);
  } else {
    if (c != a) mpn::copy(c->dp, a->dp, n);
    if (bits % 64) c->dp[n - 1] &= (~(limb)0) >> (64 - bits % 64);
  }
  bn::finish(c, n, old, sign);
}
}  // namespace

extern "C" {

MPB_API void mpb_mp_rshd(mp_int *a, int b) {
  if (!a || b <= 0) return;
  const size_t an = bn::used(a);
  if ((size_t)b >= an) {
    mpb_mp_zero(a);
    return;
  }
  size_t n = an - (size_t)b;
  std::memmove(a->dp, a->dp + b, n * sizeof(mp_digit));
  bn::finish(a, n, an, a->sign);
}

MPB_API int mpb_mp_lshd(mp_int *a, int b) {
  if (!a) return MP_VAL;
  if (b <= 0 || a->used == 0) return MP_OKAY;
  const size_t an = bn::used(a), n = an + (size_t)b;
  int e = bn::ensure(a, n);
  if (e != MP_OKAY) return e;
  std::memmove(a->dp + b, a->dp, an * sizeof(mp_digit));
  std::memset(a->dp, 0, (size_t)b * sizeof(mp_digit));
  a->used = (int)n;
  return MP_OKAY;
}

MPB_API int mpb_mp_div_2d(const mp_int *a, int b, mp_int *c, mp_int *d) {
  if (!a || !c) return MP_VAL;
  if (d == c) return MP_VAL;
  if (b <= 0) {
    // quotient a, remainder 0 (copy before zeroing, in case d is a)
    int e = mpb_mp_copy(a, c);
    if (e != MP_OKAY) return e;
    if (d) mpb_mp_zero(d);
    return MP_OKAY;
  }
  const size_t an = bn::used(a), bits = (size_t)b, sd = bits / 64;
  const size_t qn = sd >= an ? 0 : an - sd;
  size_t rn = (bits + 63) / 64;
  if (rn > an) rn = an;
  // grow both outputs first
  int e = bn::grow(c, (int)qn);
  if (e != MP_OKAY) return e;
  if (d) {
    e = bn::grow(d, (int)rn);
    if (e != MP_OKAY) return e;
  }
  // order so that the output aliasing a is written last
  if (d && d == a) {
    shr_into(a, bits, c);
    mod_into(a, bits, d);
  } else {
    if (d) mod_into(a, bits, d);
    shr_into(a, bits, c);
  }
  return MP_OKAY;
}

MPB_API int mpb_mp_div_2(const mp_int *a, mp_int *b) { return mpb_mp_div_2d(a, 1, b, nullptr); }

MPB_API int mpb_mp_mul_2d(const mp_int *a, int b, mp_int *c) {
  if (!a || !c) return MP_VAL;
  if (b <= 0) return mpb_mp_copy(a, c);
  const size_t an = bn::used(a);
  if (an == 0) {
    mpb_mp_zero(c);
    return MP_OKAY;
  }
  const size_t sd = (size_t)b / 64;
  const unsigned sb = (unsigned)(b % 64);
  const size_t n = an + sd + 1;
  int e = bn::ensure(c, n);
  if (e != MP_OKAY) return e;
  size_t old = bn::used(c);
  const int sign = a->sign;
  // from the top down: rp >= ap is safe in place
  if (sb) c->dp[an + sd] = mpn::lshift(c->dp + sd, a->dp, an, sb);
  else {
    std::memmove(c->dp + sd, a->dp, an * sizeof(mp_digit));
    c->dp[an + sd] = 0;
  }
  if (sd) std::memset(c->dp, 0, sd * sizeof(mp_digit));
  bn::finish(c, n, old, sign);
  return MP_OKAY;
}

MPB_API int mpb_mp_mul_2(const mp_int *a, mp_int *b) { return mpb_mp_mul_2d(a, 1, b); }

MPB_API int mpb_mp_mod_2d(const mp_int *a, int b, mp_int *c) {
  if (!a || !c) return MP_VAL;
  if (b <= 0) return mpb_mp_copy(a, c);
  const size_t an = bn::used(a);
  size_t rn = ((size_t)b + 63) / 64;
  if (rn > an) rn = an;
  int e = bn::grow(c, (int)rn);
  if (e != MP_OKAY) return e;
  mod_into(a, (size_t)b, c);
  return MP_OKAY;
}

}  // extern "C"
