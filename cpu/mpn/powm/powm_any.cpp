// cpu/mpn/powm/powm_any.cpp: the exponentiation dispatcher for one modulus of any parity (contract
// in cpu/mpn/powm/powm.h): an odd modulus by Montgomery (powm / powm_ct), an even one split as
// m = 2^s * q (powm_split / powm_split_ct: Montgomery on q, short products mod 2^s, CRT), the
// context built inside the caller's scratch.
#include <algorithm>

#include "mpn/powm/powm.h"

namespace mpb {
namespace mpn {

size_t powm_any_itch(size_t n, size_t en, bool ct) {
  const size_t ctx = std::max(split_ctx_itch(n), mont_ctx_itch(n));
  const size_t work = ct ? std::max(powm_split_ct_itch(n), powm_ct_itch(n))
                         : std::max(powm_split_itch(n, en), powm_itch(n, en));
  return ctx + work;
}

void powm_any(limb *rp, const limb *bp, const limb *ep, size_t en, const limb *mp, size_t n, bool ct,
              limb *scratch) {
  limb *work = scratch + std::max(split_ctx_itch(n), mont_ctx_itch(n));
  if (mp[0] & 1) {
    MontCtx mc;
    mont_ctx_init(mc, mp, n, scratch);
    if (ct) powm_ct(rp, bp, ep, en, mc, work);
    else powm(rp, bp, ep, en, mc, work);
  } else {
    SplitCtx sc;
    split_ctx_init(sc, mp, n, scratch);
    if (ct) powm_split_ct(rp, bp, ep, en, sc, work);
    else powm_split(rp, bp, ep, en, sc, work);
  }
}

} // namespace mpn
} // namespace mpb
