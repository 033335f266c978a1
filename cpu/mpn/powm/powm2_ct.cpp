// Constant-time powers of two: rp = 2^e mod m for a secret e (a DH public key g^x with g = 2,
// the generator of every RFC 7919 / RFC 3526 group). Left to right over the low ebits bits of e,
// in the Montgomery domain: per bit one squaring (mont_sqr_ct), the result brought below m
// (mont_canon) and doubled mod m when the bit is set (an add of x masked by the bit, then a
// masked subtraction of m): about 1.06 squarings per exponent bit, with no table and no
// multiplications, where powm_ct spends ~1.2 squarings' worth per bit plus 30 table products
// and a 32-entry masked lookup per window. The bit only ever forms masks: branches and memory
// addresses depend on n and ebits only.
#include "core/memory.h"
#include "mpn/powm/powm.h"

namespace mpb {
namespace mpn {

size_t powm2_ct_itch(size_t n) { return 2 * n + mont_sqr_itch(n); }

void powm2_ct(limb *rp, const limb *ep, size_t en, size_t ebits, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  MPB_ASSERT(ebits <= 64 * en && !overlap(rp, n, ep, en));
  limb *acc = scratch, *t = acc + n, *ms = t + n;
  copy(acc, ctx.one, n);  // 1 (R mod m, < m)
  for (size_t i = ebits; i-- > 0;) {
    mont_sqr_ct(acc, acc, ctx, ms);  // acc < m  ->  acc^2 / R < 2m
    mont_canon(acc, acc, ctx, t);    // < m
    const limb bit = (ep[i / 64] >> (i % 64)) & 1;
    const limb hi = cnd_add_n(bit, acc, acc, acc, n);   // 2 acc or acc: hi * 2^(64n) + acc
    const limb bw = sub_n(t, acc, ctx.m, n);            // acc - m (mod 2^(64n))
    const limb mask = (limb)0 - (hi | (bw ^ 1));        // all ones when the value is >= m
    for (size_t j = 0; j < n; j++) acc[j] = (t[j] & mask) | (acc[j] & ~mask);
  }
  mont_from(rp, acc, ctx, ms);
  secure_zero(scratch, 2 * n * sizeof(limb));
}

} // namespace mpn
} // namespace mpb
