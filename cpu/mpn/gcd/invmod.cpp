// cpu/mpn/gcd/invmod.cpp: the modular inverse dispatchers (contracts in cpu/mpn/mpn.h):
// variable time by Lehmer's extended Euclid for any modulus (its safety net is invmod_swapped),
// constant time by the masked optimized binary gcd for odd moduli.
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

size_t invmod_itch(size_t an, size_t mn) { return invmod_lehmer_itch(an, mn); }

bool invmod(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch) {
  return invmod_lehmer(rp, ap, an, mp, mn, scratch);
}

size_t sec_invmod_itch(size_t an, size_t mn) { return sec_invmod_bingcd_itch(an, mn); }

limb sec_invmod(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch) {
  return sec_invmod_bingcd(rp, ap, an, mp, mn, scratch);
}

} // namespace mpn
} // namespace mpb
