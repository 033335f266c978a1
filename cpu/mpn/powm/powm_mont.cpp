// cpu/mpn/powm/powm_mont.cpp: left-to-right sliding-window exponentiation in the Montgomery domain
// (odd moduli), on the shared loop of cpu/mpn/powm/powm_slide_loop.h, and the window width rule
// (powm_window) of every sliding-window exponentiation. Squarings: mpn::sqr + REDC;
// multiplications by table entries: mpn::mul_n + REDC. Values stay almost reduced (< R) until
// the final conversion.
#include "mpn/powm/powm_slide_loop.h"
#include "mpn/tuning.h"

namespace mpb {
namespace mpn {

unsigned powm_window(size_t ebits) {
  namespace t = mpb::tuning;
  if (ebits <= (size_t)t::POWM_W1_MAXBITS) return 1;
  if (ebits <= (size_t)t::POWM_W3_MAXBITS) return 3;
  if (ebits <= (size_t)t::POWM_W4_MAXBITS) return 4;
  if (ebits <= (size_t)t::POWM_W5_MAXBITS) return 5;
  if (ebits <= (size_t)t::POWM_W6_MAXBITS) return 6;
  return 7;
}

size_t powm_itch(size_t n, size_t en) { return slide_loop::table_limbs(n, 64 * en) + n + mont_sqr_itch(n); }

void powm(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch) {
  slide_loop::mont_powm<slide_loop::MontOps<mont_sqr, mont_mul_redc>>(rp, bp, ep, en, ctx, scratch);
}

} // namespace mpn
} // namespace mpb
