// cpu/gf2x/mul/mul_shift_add.cpp: bit-serial shift-and-add (seed 002's MP_ShiftAndAddMul, here
// without the reduction): for every set bit j of a, c ^= b * x^j. O(64 an bn) limb operations.
#include "gf2x/mul/mul_internal.h"

namespace mpb {
namespace gf2x {

void mul_shift_add(limb *c, const limb *a, size_t an, const limb *b, size_t bn) {
  detail::zero(c, an + bn);
  for (size_t i = 0; i < an; ++i) {
    limb w = a[i];
    for (unsigned j = 0; j < 64; ++j) {
      if (!(w >> j & 1)) continue;
      // c[i..i+bn] ^= b << j
      detail::xor_shl(c + i, bn + 1, b, bn, j);
    }
  }
}

} // namespace gf2x
} // namespace mpb
