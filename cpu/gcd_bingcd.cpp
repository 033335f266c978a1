// cpu/gcd_bingcd.cpp: gcd by the optimized binary gcd (cpu/bingcd_step.h): both values lose their
// trailing zeros (the common power of two is put back at the end), then with b odd, blocks of 31
// binary steps are decided on 64-bit approximations and applied to the full values in one pass,
// until a = 0 and b = gcd. About 1/31 of the big-number passes of cpu/gcd_binary.cpp, to which
// it falls back (from the original inputs) if the values ever outgrow their buffers or the
// iteration bound is exceeded (a safety net: not expected to happen).
#include "bingcd_step.h"
#include "gcd_shift.h"

namespace mpb {
namespace mpn {

size_t gcd_itch(size_t n) {
  size_t own = 2 * (n + 2), fb = gcd_binary_itch(n);
  return own > fb ? own : fb;
}

size_t gcd(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch) {
  using namespace bingcd;
  size_t an = normalized_size(ap, n), bn = normalized_size(bp, n);
  if (an == 0 || bn == 0) return gcd_binary(rp, ap, bp, n, scratch);
  const size_t cap = n + 2;
  limb *A = scratch, *B = scratch + cap;
  copy(A, ap, an);
  copy(B, bp, bn);
  size_t ka = strip_tz(A, an), kb = strip_tz(B, bn);
  size_t k = ka < kb ? ka : kb;
  zero(A + an, cap - an);
  zero(B + bn, cap - bn);
  size_t budget = 2 * ((bitlen(A, an) + bitlen(B, bn)) / K + 2);
  while (an != 0) {
    size_t L = an > bn ? an : bn;
    if (L + 1 > cap || budget-- == 0) return gcd_binary(rp, ap, bp, n, scratch);
    limb abar, bbar;
    approx(A, an, B, bn, abar, bbar);
    Mat m = inner(abar, bbar);
    apply_ab(A, B, L, m, an, bn);
  }
  // g = B << k (fits in n limbs: g divides both inputs)
  size_t kw = k / 64;
  unsigned kbit = (unsigned)(k % 64);
  size_t gn = bn + kw;
  zero(rp, kw);
  if (kbit) {
    limb hi = lshift(rp + kw, B, bn, kbit);
    if (hi) rp[gn++] = hi;
  } else {
    copy(rp + kw, B, bn);
  }
  zero(rp + gn, n - gn);
  return gn;
}

} // namespace mpn
} // namespace mpb
