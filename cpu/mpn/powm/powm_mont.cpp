// Left-to-right sliding-window exponentiation in the Montgomery domain (odd moduli).
// Table of the odd powers b^1, b^3, ..., b^(2^w - 1); every window starts and ends on a set
// bit, zero bits between windows cost one squaring each. Squarings: mpn::sqr + REDC;
// multiplications by table entries: mpn::mul_n + REDC. Values stay almost reduced (< R)
// until the final conversion.
#include "mpn/powm/powm.h"
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

size_t powm_itch(size_t n, size_t en) {
  unsigned w = powm_window(64 * en);
  return ((size_t)1 << (w - 1)) * n + n + mont_sqr_itch(n);
}

// bit i of the exponent
static inline unsigned ebit(const limb *ep, size_t i) { return (unsigned)(ep[i / 64] >> (i % 64)) & 1; }

void powm(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  MPB_ASSERT(!overlap(rp, n, ep, en));
  en = normalized_size(ep, en);
  limb *tab = scratch;
  if (en == 0) {  // b^0 = 1 (0 when m == 1)
    mont_from(rp, ctx.one, ctx, scratch);
    return;
  }
  const size_t ebits = 64 * en - (size_t)__builtin_clzll(ep[en - 1]);
  const unsigned w = powm_window(ebits);
  const size_t tsize = (size_t)1 << (w - 1);
  limb *acc = tab + tsize * n;
  limb *ms = acc + n;  // mont_sqr_itch(n)

  // tab[k] = b^(2k+1) R mod m
  mont_to(tab, bp, ctx, ms);
  if (tsize > 1) {
    mont_sqr(acc, tab, ctx, ms);  // b^2
    for (size_t k = 1; k < tsize; k++) mont_mul_redc(tab + k * n, tab + (k - 1) * n, acc, ctx, ms);
  }

  // first window: the top w bits (or fewer), trimmed to end on a set bit
  size_t i = ebits - 1;  // the highest bit still to process (signed loop below)
  long pos = (long)i;
  {
    long lo = pos - (long)w + 1;
    if (lo < 0) lo = 0;
    while (!ebit(ep, (size_t)lo)) lo++;
    unsigned val = 0;
    for (long k = pos; k >= lo; k--) val = (val << 1) | ebit(ep, (size_t)k);
    copy(acc, tab + (val >> 1) * n, n);
    pos = lo - 1;
  }
  while (pos >= 0) {
    if (!ebit(ep, (size_t)pos)) {
      mont_sqr(acc, acc, ctx, ms);
      pos--;
      continue;
    }
    long lo = pos - (long)w + 1;
    if (lo < 0) lo = 0;
    while (!ebit(ep, (size_t)lo)) lo++;
    unsigned val = 0;
    for (long k = pos; k >= lo; k--) {
      val = (val << 1) | ebit(ep, (size_t)k);
      mont_sqr(acc, acc, ctx, ms);
    }
    mont_mul_redc(acc, acc, tab + (val >> 1) * n, ctx, ms);
    pos = lo - 1;
  }
  mont_from(rp, acc, ctx, ms);
}

} // namespace mpn
} // namespace mpb
