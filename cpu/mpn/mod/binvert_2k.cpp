// Inverse of an odd q modulo 2^s by Newton (Hensel) iteration on whole limbs:
// x <- x*(2 - q*x) doubles the number of correct limbs. With t = q*x = 1 + B^k*u (mod B^2k)
// the new high limbs are -(x*u) mod B^(k2-k), the low k limbs stay. Short products only.
// The modulus is public: no constant-time requirement (it is branch free anyway).
#include "mpn/powm/powm.h"

namespace mpb {
namespace mpn {

size_t binvert_2k_itch(size_t s) { return 3 * ((s + 63) / 64); }

void binvert_2k(limb *rp, const limb *qp, size_t qn, size_t s, limb *scratch) {
  MPB_ASSERT(s >= 1 && qn >= 1 && (qp[0] & 1));
  const size_t sn = (s + 63) / 64;
  MPB_ASSERT(!overlap(rp, sn, qp, qn));
  limb *qpad = scratch, *t = qpad + sn, *v = t + sn;
  for (size_t i = 0; i < sn; i++) qpad[i] = i < qn ? qp[i] : 0;
  rp[0] = mpb::detail::binvert_limb(qp[0]);
  for (size_t k = 1; k < sn;) {
    const size_t k2 = 2 * k < sn ? 2 * k : sn, h = k2 - k;
    zero(rp + k, h);
    mullo_basecase(t, qpad, rp, k2);  // = 1 + B^k * t[k..k2)
    mullo_basecase(v, rp, t + k, h);
    zero(t, h);
    sub_n(rp + k, t, v, h);
    k = k2;
  }
  if (s % 64) rp[sn - 1] &= ((limb)1 << (s % 64)) - 1;
}

} // namespace mpn
} // namespace mpb
