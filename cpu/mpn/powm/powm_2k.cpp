// cpu/mpn/powm/powm_2k.cpp: exponentiation modulo 2^s (variable time): rp = b^e mod 2^s with
// low-half products (mullo_basecase) and no reduction at all, on the sliding-window loop of
// cpu/mpn/powm/powm_slide_loop.h.
// The exponent is first cut to s+1 bits (pow2_exp_reduce): for odd b the group (Z/2^s)^* has
// exponent dividing 2^s, and for even b every power b^k with k >= s is 0 mod 2^s, so
// e' = (e mod 2^s) + 2^s*[e >= 2^s] gives the same power for every b (2^s >= s).
#include "mpn/powm/powm_slide_loop.h"

namespace mpb {
namespace mpn {

size_t pow2_exp_limbs(size_t s) { return s / 64 + 1; }

void pow2_exp_reduce(limb *rp, const limb *ep, size_t en, size_t s) {
  const size_t sl = s / 64;
  const unsigned sb = (unsigned)(s % 64);
  for (size_t i = 0; i <= sl; i++) rp[i] = i < en ? ep[i] : 0;
  limb hi = sl < en ? ep[sl] >> sb : 0;  // the bits from s up, ORed together
  for (size_t i = sl + 1; i < en; i++) hi |= ep[i];
  rp[sl] &= ((limb)1 << sb) - 1;
  const limb nz = (hi | ((limb)0 - hi)) >> 63;  // hi != 0, without a branch
  rp[sl] |= nz << sb;
}

size_t powm_2k_itch(size_t s) {
  const size_t sn = (s + 63) / 64, ec = pow2_exp_limbs(s);
  return ec + slide_loop::table_limbs(sn, 64 * ec) + 2 * sn;
}

namespace {
struct LowOps {  // products modulo 2^(64 sn): the low half only
  size_t sn;
  limb *t;  // sn
  void sqr(limb *r, const limb *a) { mul(r, a, a); }
  void mul(limb *r, const limb *a, const limb *b) {
    mullo_basecase(t, a, b, sn);
    copy(r, t, sn);
  }
};
} // namespace

void powm_2k(limb *rp, const limb *bp, const limb *ep, size_t en, size_t s, limb *scratch) {
  MPB_ASSERT(s >= 1);
  const size_t sn = (s + 63) / 64, ec = pow2_exp_limbs(s);
  const limb topmask = (s % 64) ? ((limb)1 << (s % 64)) - 1 : ~(limb)0;
  limb *e2 = scratch;
  pow2_exp_reduce(e2, ep, en, s);
  const size_t een = normalized_size(e2, ec);
  if (een == 0) {
    zero(rp, sn);
    rp[0] = 1;
    return;
  }
  const size_t ebits = slide_loop::bits(e2, een);
  limb *tab = e2 + ec;
  limb *acc = tab + slide_loop::table_limbs(sn, ebits);
  LowOps op{sn, acc + sn};
  copy(tab, bp, sn);
  slide_loop::run(acc, tab, sn, e2, ebits, op);
  copy(rp, acc, sn);
  rp[sn - 1] &= topmask;
}

} // namespace mpn
} // namespace mpb
