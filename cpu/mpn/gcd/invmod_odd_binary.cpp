// cpu/mpn/gcd/invmod_odd_binary.cpp: variable-time modular inverse for an odd modulus by the binary
// extended gcd (Knuth TAOCP vol. 2, 4.5.2 exercise 39; HAC 14.61 specialised to odd m):
//   u = a mod m, v = m, x1 = 1, x2 = 0 with x1*a = u and x2*a = v (mod m) throughout;
//   the larger of u, v loses the smaller, then all its trailing zeros; the matching cofactor
//   is updated mod m. u or v reaching 1 gives the inverse; u == v > 1 means gcd(a, m) > 1.
// Removing k trailing zeros divides the cofactor by 2^k mod m, done up to 63 bits at a time
// as (x + q*m) / 2^c with q = -x * m^-1 mod 2^c (one addmul_1 and one shift per chunk).
// The reference for mpn::invmod_odd_bingcd (cpu/mpn/gcd/invmod_odd_bingcd.cpp), which falls back to it.
#include "core/limb.h"

#include "mpn/gcd/gcd_shift.h"

namespace mpb {
namespace mpn {

namespace {

// x (mn limbs, < m) = x / 2^k mod m. minv = -m^-1 mod 2^64.
void div2k_mod(limb *x, size_t k, const limb *m, size_t mn, limb minv) {
  while (k) {
    unsigned c = k > 63 ? 63u : (unsigned)k;
    limb q = (x[0] * minv) & (((limb)1 << c) - 1);
    limb hi = addmul_1(x, m, mn, q);  // x + q*m < 2^c * m: hi < 2^c
    rshift(x, x, mn, c);
    x[mn - 1] |= hi << (64 - c);
    k -= c;
  }
}

// x = x - y mod m (both < m, mn limbs).
void sub_mod(limb *x, const limb *y, const limb *m, size_t mn) {
  if (sub_n(x, x, y, mn)) add_n(x, x, m, mn);
}

} // namespace

size_t invmod_odd_binary_itch(size_t an, size_t mn) {
  size_t div = an >= mn ? tdiv_qr_itch(an, mn) : 0;
  return 4 * mn + div;
}

bool invmod_odd_binary(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch) {
  MPB_ASSERT(mn >= 1 && mp[mn - 1] != 0 && (mp[0] & 1) && (mn > 1 || mp[0] > 1));
  limb *u = scratch, *v = u + mn, *x1 = v + mn, *x2 = x1 + mn, *ws = x2 + mn;
  size_t aN = normalized_size(ap, an);
  if (aN == 0) return false;
  if (cmp2(ap, aN, mp, mn) < 0) {
    copy(u, ap, aN);
    zero(u + aN, mn - aN);
  } else {
    tdiv_qr(nullptr, u, ap, aN, mp, mn, ws);
  }
  size_t un = normalized_size(u, mn), vn = mn;
  if (un == 0) return false;
  copy(v, mp, mn);
  zero(x1, mn);
  x1[0] = 1;
  zero(x2, mn);
  const limb minv = (limb)0 - mpb::detail::binvert_limb(mp[0]);
  div2k_mod(x1, strip_tz(u, un), mp, mn, minv);
  for (;;) {
    // u and v odd
    if (un == 1 && u[0] == 1) {
      copy(rp, x1, mn);
      return true;
    }
    if (vn == 1 && v[0] == 1) {
      copy(rp, x2, mn);
      return true;
    }
    int c = cmp2(u, un, v, vn);
    if (c == 0) return false;  // gcd = u > 1
    if (c > 0) {
      sub(u, u, un, v, vn);
      un = normalized_size(u, un);
      sub_mod(x1, x2, mp, mn);
      div2k_mod(x1, strip_tz(u, un), mp, mn, minv);
    } else {
      sub(v, v, vn, u, un);
      vn = normalized_size(v, vn);
      sub_mod(x2, x1, mp, mn);
      div2k_mod(x2, strip_tz(v, vn), mp, mn, minv);
    }
  }
}

} // namespace mpn
} // namespace mpb
