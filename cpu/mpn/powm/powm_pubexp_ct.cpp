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

size_t powm_pubexp_ct_itch(size_t n, size_t en) { return powm_itch(n, en); }  // the same table and temporaries

void powm_pubexp_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch) {
  slide_loop::mont_powm<slide_loop::MontOps<mont_sqr_ct, mont_mul_ct>>(rp, bp, ep, en, ctx, scratch);  // e is public
}

} // namespace mpn
} // namespace mpb
