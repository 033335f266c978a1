// cpu/gf2x/mul/mul.cpp: the GF(2)[x] multiplication dispatcher and its scratch size.
//
//   an == bn <= 9                 unrolled base case (mul_basecase_n)
//   max < GF2X kara cut-off       clmul product-scanning schoolbook (mul_clmul)
//   max >= 2 min                  slices of min limbs, each a balanced product
//   else by max: Karatsuba, Toom-3, Toom-4 (cut-offs in mpb::tuning::gf2x_params()).
#include "gf2x/tuning.h"

#include "gf2x/mul/mul_internal.h"

namespace mpb {
namespace gf2x {

// Scratch bound G(n) for any method at operands of at most n limbs, whatever the cut-offs:
// one level of Karatsuba needs 4 ceil(n/2), Toom-3 16 (ceil(n/3) + 1), Toom-4
// 20 (ceil(n/4) + 1), all <= 6n + 64, and their sub-products have at most n/2 + 2 limbs.
static size_t itch_balanced(size_t n) {
  size_t total = 0;
  while (n > 4) {
    total += 6 * n + 64;
    n = n / 2 + 2;
  }
  return total + 48 * n;
}

size_t mul_itch(size_t an, size_t bn) {
  size_t n = an > bn ? an : bn, m = an > bn ? bn : an;
  if (m == 0) return 0;
  if (n >= 2 * m) return 2 * m + itch_balanced(m);
  return itch_balanced(n);
}

void mul(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch) {
  if (an < bn) {
    const limb *t = a; a = b; b = t;
    size_t s = an; an = bn; bn = s;
  }
  if (bn == 0) {
    detail::zero(c, an);
    return;
  }
  if (an == bn && an <= BASECASE_MAX) {
    detail::g_kernels->base[an](c, a, b);
    return;
  }
  const tuning::Gf2xParams &P = tuning::gf2x_params();
  const size_t kara = P.kara > 2 ? (size_t)P.kara : 2;
  if (an < kara || bn < kara) {  // also very unbalanced small x large: product scanning is linear in an
    detail::g_kernels->school(c, a, an, b, bn);
    return;
  }
  if (an >= 2 * bn) {
    // slices of bn limbs of a: c = sum_j (a_j * b) x^(64 j bn)
    limb *t = scratch, *next = scratch + 2 * bn;
    mul(c, a, bn, b, bn, next);
    detail::zero(c + 2 * bn, an - bn);
    for (size_t off = bn; off < an; off += bn) {
      size_t m = an - off < bn ? an - off : bn;
      mul(t, a + off, m, b, bn, next);
      detail::xor_into(c + off, t, m + bn);
    }
    return;
  }
  if (an >= (size_t)P.toom4)
    mul_toom4(c, a, an, b, bn, scratch);
  else if (an >= (size_t)P.toom3)
    mul_toom3(c, a, an, b, bn, scratch);
  else
    mul_karatsuba(c, a, an, b, bn, scratch);
}

} // namespace gf2x
} // namespace mpb
