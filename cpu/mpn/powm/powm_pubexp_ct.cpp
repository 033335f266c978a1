// cpu/mpn/powm/powm_pubexp_ct.cpp: rp = b^e mod m for a PUBLIC exponent and a secret base, e.g.
// the check of an RSA private-key result with the public exponent (the result may be a secret
// plaintext). The sliding-window loop of powm_slide_loop.h, whose branches and table indices
// depend only on e, over the constant-time Montgomery products (mont_sqr_ct, mont_mul_ct) and
// conversions: no branch or memory index depends on b. For e = 65537 that is 16 squarings and
// one product, where powm_ct's fixed windows over 64 bits cost 64 squarings, 13 products and a
// 32-entry table.
#include "mpn/powm/powm_slide_loop.h"

namespace mpb {
namespace mpn {

size_t powm_pubexp_ct_itch(size_t n, size_t en) {
  return slide_loop::table_limbs(n, 64 * en) + n + mont_sqr_itch(n);
}

namespace {
struct MontCtPubOps {
  const MontCtx &ctx;
  limb *ms;  // mont_sqr_itch(n)
  void sqr(limb *r, const limb *a) { mont_sqr_ct(r, a, ctx, ms); }
  void mul(limb *r, const limb *a, const limb *b) { mont_mul_ct(r, a, b, ctx, ms); }
};
} // namespace

void powm_pubexp_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  MPB_ASSERT(!overlap(rp, n, ep, en));
  en = normalized_size(ep, en);  // e is public
  if (en == 0) {                 // b^0 = 1 (0 when m == 1)
    mont_from(rp, ctx.one, ctx, scratch);
    return;
  }
  const size_t ebits = slide_loop::bits(ep, en);
  limb *tab = scratch;
  limb *acc = tab + slide_loop::table_limbs(n, ebits);
  MontCtPubOps op{ctx, acc + n};
  mont_to(tab, bp, ctx, op.ms);  // b R mod m
  slide_loop::run(acc, tab, n, ep, ebits, op);
  mont_from(rp, acc, ctx, op.ms);
}

} // namespace mpn
} // namespace mpb
