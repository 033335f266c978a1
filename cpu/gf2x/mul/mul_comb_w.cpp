// cpu/gf2x/mul/mul_comb_w.cpp: left-to-right comb with windows of w bits (Hankerson et al.
// Alg. 2.36, seed 002's MP_CombLtoRMul_w). Precompute T[u] = u(x) * b(x) for every u of
// degree < w (2^w entries of bn + 1 limbs, in scratch); then for the window position k from
// the top: c[j..] ^= T[w-bit digit k of a_j] for every j, and c *= x^w between positions.
#include "gf2x/mul/mul_internal.h"

namespace mpb {
namespace gf2x {

static unsigned norm_w(unsigned w) { return (w == 1 || w == 2 || w == 4 || w == 8) ? w : 4; }

size_t mul_comb_ltr_w_itch(size_t an, size_t bn, unsigned w) {
  return ((size_t)1 << norm_w(w)) * (bn + 1);
}

void mul_comb_ltr_w(limb *c, const limb *a, size_t an, const limb *b, size_t bn, unsigned w,
                    limb *scratch) {
  w = norm_w(w);
  const size_t stride = bn + 1, nt = (size_t)1 << w;
  limb *T = scratch;
  // T[0] = 0, T[1] = b, T[2u] = T[u] * x, T[2u+1] = T[2u] + b
  detail::zero(T, stride);
  detail::copy(T + stride, b, bn);
  T[stride + bn] = 0;
  for (size_t u = 2; u < nt; ++u) {
    limb *t = T + u * stride;
    const limb *h = T + (u >> 1) * stride;
    limb prev = 0;
    for (size_t i = 0; i < stride; ++i) {
      t[i] = (h[i] << 1) | (prev >> 63);
      prev = h[i];
    }
    if (u & 1) detail::xor_into(t, b, bn);
  }
  const size_t cn = an + bn;
  const limb mask = nt - 1;
  detail::zero(c, cn);
  for (unsigned k = 64 / w; k-- > 0;) {
    for (size_t j = 0; j < an; ++j) {
      limb u = (a[j] >> (w * k)) & mask;
      if (u) detail::xor_into(c + j, T + u * stride, j + stride <= cn ? stride : cn - j);
    }
    if (k != 0) {  // c *= x^w
      for (size_t i = cn - 1; i > 0; --i) c[i] = (c[i] << w) | (c[i - 1] >> (64 - w));
      c[0] <<= w;
    }
  }
}

} // namespace gf2x
} // namespace mpb
