// cpu/bn/bn_ops.h: small private helpers for the mp_int arithmetic files (bn_add, bn_mul, bn_div,
// bn_shift, bn_digit, bn_modops, bn_radix, bn_binary). Header-only, inline.
#pragma once
#include <cstring>

#include "bn/bn_internal.h"

namespace mpb {
namespace bn {

// |a| as limbs (a may be a cleared mp_int with dp == NULL and used == 0).
inline const mpn::limb *cdp(const mp_int *a) { return a->dp; }

// The digits [0, n) of c have been written (c->alloc >= n). Clear the stale digits between
// n and the old used count (digits above used are kept zero), set used and sign, clamp.
inline void finish(mp_int *c, size_t n, size_t old_used, int sign) {
  if (old_used > n) std::memset(c->dp + n, 0, (old_used - n) * sizeof(mp_digit));
  while (n > 0 && c->dp[n - 1] == 0) --n;
  c->used = (int)n;
  c->sign = n ? sign : MP_ZPOS;
}

// Set c from the limb array [p, p+n) (p must not overlap c->dp unless p == c->dp).
// c->alloc >= n must already hold (grow first).
inline void set_limbs(mp_int *c, const mpn::limb *p, size_t n, int sign) {
  size_t old = (size_t)c->used;
  if (n) mpn::copy(c->dp, p, n);
  finish(c, n, old, sign);
}

// A size in limbs that may become an mp_int: MP_OKAY or MP_MEM when over MAX_DIGITS.
inline bool size_ok(size_t n) { return n <= (size_t)MAX_DIGITS; }

// Grow c to n digits (n checked against MAX_DIGITS). MP_OKAY / MP_MEM.
inline int ensure(mp_int *c, size_t n) {
  if (!size_ok(n)) return MP_MEM;
  return grow(c, (int)n);
}

}  // namespace bn
}  // namespace mpb
