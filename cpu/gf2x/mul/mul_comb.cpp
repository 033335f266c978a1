// cpu/gf2x/mul/mul_comb.cpp: the comb methods of Hankerson, Menezes, Vanstone ("Guide to
// Elliptic Curve Cryptography", Alg. 2.33 and 2.34), as in seed 002, on any an x bn.
//  - right-to-left: for bit k = 0..63: for every limb a_j with bit k set, c[j..] ^= B, where
//    B = b * x^k is kept shifted in scratch (bn + 1 limbs);
//  - left-to-right: for bit k = 63..0: for every a_j with bit k set, c[j..] ^= b; then c *= x.
#include "gf2x/mul/mul_internal.h"

namespace mpb {
namespace gf2x {

size_t mul_comb_itch(size_t an, size_t bn) { return bn + 1; }

void mul_comb_rtl(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch) {
  limb *B = scratch;  // b * x^k, bn + 1 limbs
  detail::copy(B, b, bn);
  B[bn] = 0;
  detail::zero(c, an + bn);
  for (unsigned k = 0; k < 64; ++k) {
    for (size_t j = 0; j < an; ++j)
      if (a[j] >> k & 1) detail::xor_into(c + j, B, bn + 1);
    if (k != 63) {  // B *= x
      for (size_t i = bn; i > 0; --i) B[i] = (B[i] << 1) | (B[i - 1] >> 63);
      B[0] <<= 1;
    }
  }
}

void mul_comb_ltr(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch) {
  (void)scratch;
  size_t cn = an + bn;
  detail::zero(c, cn);
  for (unsigned k = 64; k-- > 0;) {
    for (size_t j = 0; j < an; ++j)
      if (a[j] >> k & 1) detail::xor_into(c + j, b, bn);
    if (k != 0) {  // c *= x (the top bit never overflows: deg c < 64 cn - 1 until the end)
      for (size_t i = cn - 1; i > 0; --i) c[i] = (c[i] << 1) | (c[i - 1] >> 63);
      c[0] <<= 1;
    }
  }
}

} // namespace gf2x
} // namespace mpb
