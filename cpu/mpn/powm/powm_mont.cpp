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

namespace {
struct MontOps {
  const MontCtx &ctx;
  limb *ms;  // mont_sqr_itch(n)
  void sqr(limb *r, const limb *a) { mont_sqr(r, a, ctx, ms); }
  void mul(limb *r, const limb *a, const limb *b) { mont_mul_redc(r, a, b, ctx, ms); }
};
} // namespace

void powm(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  MPB_ASSERT(!overlap(rp, n, ep, en));
  en = normalized_size(ep, en);
  if (en == 0) {  // b^0 = 1 (0 when m == 1)
    mont_from(rp, ctx.one, ctx, scratch);
    return;
  }
  const size_t ebits = slide_loop::bits(ep, en);
  limb *tab = scratch;
  limb *acc = tab + slide_loop::table_limbs(n, ebits);
  MontOps op{ctx, acc + n};
  mont_to(tab, bp, ctx, op.ms);  // b R mod m
  slide_loop::run(acc, tab, n, ep, ebits, op);
  mont_from(rp, acc, ctx, op.ms);
}

} // namespace mpn
} // namespace mpb
