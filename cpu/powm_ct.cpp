// Constant-time Montgomery exponentiation for secret exponents: fixed 5-bit windows over
// exactly 64*en exponent bits (top window first), 32-entry table b^0..b^31, each lookup
// reads all 32 entries and keeps one with masks, every window does 5 squarings and one
// multiplication (also by b^0 = R mod m), and all reductions subtract with masks.
// Squarings: schoolbook sqr_basecase + REDC (mont_sqr_ct), never Karatsuba (data-dependent
// |a0 - a1| branch); multiplications: the CIOS mont_mul.
// Memory addresses and branches depend only on n and en.
#include "memory.h"
#include "mpn_mod.h"

namespace mpb {
namespace mpn {

static constexpr unsigned CT_W = 5;
static constexpr size_t CT_T = (size_t)1 << CT_W;

size_t powm_ct_itch(size_t n) { return CT_T * n + 2 * n + mont_sqr_itch(n); }

// dst = tab[idx] (idx in 0..31) reading every entry.
static void ct_select(limb *dst, const limb *tab, size_t n, limb idx) {
  zero(dst, n);
  for (size_t k = 0; k < CT_T; k++) {
    limb x = (limb)k ^ idx;
    limb mask = (limb)0 - ((x - 1) >> 63);  // all ones iff x == 0 (x < 2^63)
    const limb *e = tab + k * n;
    for (size_t j = 0; j < n; j++) dst[j] |= e[j] & mask;
  }
}

// the CT_W-bit window whose lowest bit is `lo` (bits past the end read as 0); the position
// is public, only the value is secret.
static inline limb window_at(const limb *ep, size_t en, size_t lo) {
  size_t li = lo / 64, sh = lo % 64;
  limb v = ep[li] >> sh;
  if (sh > 64 - CT_W && li + 1 < en) v |= ep[li + 1] << (64 - sh);
  return v & (CT_T - 1);
}

void powm_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  MPB_ASSERT(!overlap(rp, n, ep, en));
  limb *tab = scratch;
  limb *acc = tab + CT_T * n;
  limb *sel = acc + n;
  limb *ms = sel + n;
  copy(tab, ctx.one, n);
  mont_to(tab + n, bp, ctx, ms);
  for (size_t k = 2; k < CT_T; k++) mont_mul(tab + k * n, tab + (k - 1) * n, tab + n, ctx, ms);

  const size_t ebits = 64 * en;
  if (ebits == 0) {
    mont_from(rp, ctx.one, ctx, ms);
    secure_zero(tab, (CT_T * n + 2 * n) * sizeof(limb));
    return;
  }
  size_t nwin = (ebits + CT_W - 1) / CT_W;
  size_t lo = (nwin - 1) * CT_W;
  ct_select(acc, tab, n, window_at(ep, en, lo));
  while (lo > 0) {
    lo -= CT_W;
    for (unsigned s = 0; s < CT_W; s++) mont_sqr_ct(acc, acc, ctx, ms);
    ct_select(sel, tab, n, window_at(ep, en, lo));
    mont_mul(acc, acc, sel, ctx, ms);
  }
  mont_from(rp, acc, ctx, ms);
  secure_zero(tab, (CT_T * n + 2 * n) * sizeof(limb));
}

} // namespace mpn
} // namespace mpb
