// Exponentiation modulo 2^s (variable time): rp = b^e mod 2^s with low-half products
// (mullo_basecase) and no reduction at all, sliding windows as in powm (cpu/mpn/powm/powm_mont.cpp).
// The exponent is first cut to s+1 bits (pow2_exp_reduce): for odd b the group (Z/2^s)^* has
// exponent dividing 2^s, and for even b every power b^k with k >= s is 0 mod 2^s, so
// e' = (e mod 2^s) + 2^s*[e >= 2^s] gives the same power for every b (2^s >= s).
#include "mpn/powm/powm.h"

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
  const unsigned w = powm_window(64 * ec);
  return ec + ((size_t)1 << (w - 1)) * sn + 2 * sn;
}

static inline unsigned ebit(const limb *ep, size_t i) { return (unsigned)(ep[i / 64] >> (i % 64)) & 1; }

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
  const size_t ebits = 64 * een - (size_t)__builtin_clzll(e2[een - 1]);
  const unsigned w = powm_window(ebits);
  const size_t tsize = (size_t)1 << (w - 1);
  limb *tab = e2 + ec;
  limb *acc = tab + tsize * sn;
  limb *t = acc + sn;
  copy(tab, bp, sn);  // odd powers b, b^3, b^5, ...
  if (tsize > 1) {
    mullo_basecase(t, bp, bp, sn);
    for (size_t k = 1; k < tsize; k++) mullo_basecase(tab + k * sn, tab + (k - 1) * sn, t, sn);
  }
  long pos = (long)ebits - 1;
  bool first = true;
  while (pos >= 0) {
    if (!ebit(e2, (size_t)pos)) {
      mullo_basecase(t, acc, acc, sn);
      copy(acc, t, sn);
      pos--;
      continue;
    }
    long lo = pos - (long)w + 1;
    if (lo < 0) lo = 0;
    while (!ebit(e2, (size_t)lo)) lo++;
    unsigned val = 0;
    for (long k = pos; k >= lo; k--) {
      val = (val << 1) | ebit(e2, (size_t)k);
      if (!first) {
        mullo_basecase(t, acc, acc, sn);
        copy(acc, t, sn);
      }
    }
    if (first) {
      copy(acc, tab + (val >> 1) * sn, sn);
    } else {
      mullo_basecase(t, acc, tab + (val >> 1) * sn, sn);
      copy(acc, t, sn);
    }
    first = false;
    pos = lo - 1;
  }
  copy(rp, acc, sn);
  rp[sn - 1] &= topmask;
}

} // namespace mpn
} // namespace mpb
