// cpu/gf2x/mul/mul_karatsuba.cpp: Karatsuba over GF(2)[x] (no signs, no carries).
// With an >= bn, h = ceil(an/2), a = a0 + X a1, b = b0 + X b1 (X = x^(64h)):
//   a*b = a0 b0 + X ((a0+a1)(b0+b1) + a0 b0 + a1 b1) + X^2 a1 b1.
// When bn <= h (b1 = 0): a*b = a0 b + X a1 b (two products). Products go through the
// dispatcher `mul`, which uses the base cases below the Karatsuba cut-off.
#include "gf2x/mul/mul_internal.h"

namespace mpb {
namespace gf2x {

size_t mul_karatsuba_itch(size_t an, size_t bn) { return mul_itch(an > bn ? an : bn, an > bn ? an : bn); }

void mul_karatsuba(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch) {
  if (an < bn) {
    const limb *t = a; a = b; b = t;
    size_t s = an; an = bn; bn = s;
  }
  if (an < 2) {
    mul(c, a, an, b, bn, scratch);
    return;
  }
  const size_t h = (an + 1) / 2, a1n = an - h;
  if (bn <= h) {
    // c = a0 b + X a1 b
    limb *t = scratch;  // a1 b: a1n + bn limbs
    mul(c, a, h, b, bn, t + a1n + bn);
    detail::zero(c + h + bn, an - h);
    mul(t, a + h, a1n, b, bn, t + a1n + bn);
    detail::xor_into(c + h, t, a1n + bn);
    return;
  }
  const size_t b1n = bn - h;
  limb *sa = scratch, *sb = sa + h, *m = sb + h, *next = m + 2 * h;
  detail::copy(sa, a, h);
  detail::xor_into(sa, a + h, a1n);
  detail::copy(sb, b, h);
  detail::xor_into(sb, b + h, b1n);
  mul(m, sa, h, sb, h, next);                  // (a0+a1)(b0+b1), 2h limbs
  mul(c, a, h, b, h, next);                    // a0 b0 -> c[0, 2h)
  mul(c + 2 * h, a + h, a1n, b + h, b1n, next);  // a1 b1 -> c[2h, an+bn)
  const size_t hi_n = a1n + b1n;
  // middle = m + a0 b0 + a1 b1, added at offset h
  detail::xor_into(m, c, 2 * h);
  detail::xor_into(m, c + 2 * h, hi_n);
  const size_t mid_n = an + bn - h < 2 * h ? an + bn - h : 2 * h;
  detail::xor_into(c + h, m, mid_n);
}

} // namespace gf2x
} // namespace mpb
