// cpu/mpn/gcd/gcd_binary.cpp: binary gcd (Stein; Knuth TAOCP vol. 2, 4.5.2 algorithm B) on limb
// arrays. The common power of two is taken out first; then the larger of the two odd values is
// replaced by the difference with all its trailing zeros removed in one multi-bit shift. The
// sizes shrink as the values do. O(bits * n) limb operations. The reference for mpn::gcd
// (cpu/mpn/gcd/gcd_lehmer.cpp), which falls back to it.
#include "mpn/gcd/gcd_shift.h"

namespace mpb {
namespace mpn {

size_t gcd_binary_itch(size_t n) { return 2 * n; }

size_t gcd_binary(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch) {
  limb *u = scratch, *v = scratch + n;
  size_t un = normalized_size(ap, n), vn = normalized_size(bp, n);
  if (un == 0 || vn == 0) {
    const limb *src = un ? ap : bp;
    size_t sn = un ? un : vn;
    copy(rp, src, sn);
    zero(rp + sn, n - sn);
    return sn;
  }
  copy(u, ap, un);
  copy(v, bp, vn);
  size_t ku = strip_tz(u, un), kv = strip_tz(v, vn);
  size_t k = ku < kv ? ku : kv;
  for (;;) {
    int c = cmp2(u, un, v, vn);
    if (c == 0) break;
    if (c > 0) {
      sub(u, u, un, v, vn);
      un = normalized_size(u, un);
      strip_tz(u, un);
    } else {
      sub(v, v, vn, u, un);
      vn = normalized_size(v, vn);
      strip_tz(v, vn);
    }
  }
  // g = u << k (fits in n limbs: g divides both inputs)
  size_t kw = k / 64;
  unsigned kb = (unsigned)(k % 64);
  size_t gn = un + kw;
  zero(rp, kw);
  if (kb) {
    limb hi = lshift(rp + kw, u, un, kb);
    if (hi) rp[gn++] = hi;
  } else {
    copy(rp + kw, u, un);
  }
  zero(rp + gn, n - gn);
  return gn;
}

} // namespace mpn
} // namespace mpb
