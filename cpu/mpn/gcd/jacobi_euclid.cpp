// cpu/mpn/gcd/jacobi_euclid.cpp: the Jacobi symbol (a/b), b odd, by the textbook algorithm
// (Cohen, A Course in Computational Algebraic Number Theory, 1.4.10, without the Kronecker
// extension): x = a mod b, y = b; while x != 0: strip the twos of x (each pair of them changes
// nothing, an odd count multiplies by (2/y)), apply reciprocity to the two odd values, swap,
// x = x mod y by division. (a/b) = s if y ends at 1, else 0. One division per Euclidean step:
// slower than jacobi_divsteps, but with a proven end; it is its fallback and an independent
// check of it in the tests. Variable time (public values).
#include <utility>

#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

size_t jacobi_euclid_itch(size_t an, size_t bn) {
  size_t n = an > bn ? an : bn;
  return 3 * (bn + 1) + tdiv_qr_itch(n, bn);
}

int jacobi_euclid(const limb *ap, size_t an, const limb *bp, size_t bn, limb *scratch) {
  MPB_ASSERT(bn >= 1 && bp[bn - 1] != 0 && (bp[0] & 1));
  limb *x = scratch, *y = x + (bn + 1), *t = y + (bn + 1), *ws = t + (bn + 1);
  copy(y, bp, bn);
  size_t yn = bn, xn;
  an = normalized_size(ap, an);
  if (an >= bn) {
    tdiv_qr(nullptr, x, ap, an, bp, bn, ws);
    xn = normalized_size(x, bn);
  } else {
    copy(x, ap, an);
    xn = an;
  }
  unsigned sbit = 0;
  while (xn > 0) {
    // x = 2^k x', x' odd
    size_t zl = 0;
    while (x[zl] == 0) zl++;
    const unsigned zb = (unsigned)__builtin_ctzll(x[zl]);
    if (zl) {
      copy(x, x + zl, xn - zl);
      xn -= zl;
    }
    if (zb) {
      rshift(x, x, xn, zb);
      xn = normalized_size(x, xn);
    }
    if ((zb & 1) && (((y[0] >> 1) ^ (y[0] >> 2)) & 1)) sbit ^= 1;  // (2/y), 64 zl is even
    if ((x[0] & y[0] & 2) != 0) sbit ^= 1;                          // both 3 mod 4
    // (x/y) -> (y/x); then y mod x
    if (yn >= xn) {
      tdiv_qr(nullptr, t, y, yn, x, xn, ws);
      copy(y, x, xn);
      const size_t tn = normalized_size(t, xn);
      yn = xn;
      copy(x, t, tn);
      xn = tn;
    } else {  // y < x (only when x was not reduced below y: never after the first step)
      std::swap(x, y);
      std::swap(xn, yn);
    }
  }
  return (yn == 1 && y[0] == 1) ? (sbit ? -1 : 1) : 0;
}

} // namespace mpn
} // namespace mpb
