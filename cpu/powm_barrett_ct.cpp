// Constant-time Barrett exponentiation for secret exponents and any modulus m > 1 (used for
// even moduli, where Montgomery does not apply). The structure of powm_ct (cpu/powm_ct.cpp):
// fixed 5-bit windows over exactly 64*en exponent bits (top window first), a 32-entry table
// b^0..b^31, each lookup reads all 32 entries and keeps one with masks, every window does 5
// squarings and one multiplication (also by b^0 = 1). Products: schoolbook sqr_basecase /
// mul_basecase (never Karatsuba: data-dependent |a0 - a1| branch); reductions:
// barrett_reduce_ct (three masked final subtractions). Memory addresses and branches depend
// only on n and en.
#include "memory.h"
#include "mpn_mod.h"

namespace mpb {
namespace mpn {

static constexpr unsigned BCT_W = 5;
static constexpr size_t BCT_T = (size_t)1 << BCT_W;

size_t powm_barrett_ct_itch(size_t n) { return BCT_T * n + 2 * n + 2 * n + barrett_reduce_itch(n); }

// dst = tab[idx] (idx in 0..31) reading every entry.
static void bct_select(limb *dst, const limb *tab, size_t n, limb idx) {
  zero(dst, n);
  for (size_t k = 0; k < BCT_T; k++) {
    limb x = (limb)k ^ idx;
    limb mask = (limb)0 - ((x - 1) >> 63);  // all ones iff x == 0 (x < 2^63)
    const limb *e = tab + k * n;
    for (size_t j = 0; j < n; j++) dst[j] |= e[j] & mask;
  }
}

// the BCT_W-bit window whose lowest bit is `lo` (bits past the end read as 0)
static inline limb bct_window(const limb *ep, size_t en, size_t lo) {
  size_t li = lo / 64, sh = lo % 64;
  limb v = ep[li] >> sh;
  if (sh > 64 - BCT_W && li + 1 < en) v |= ep[li + 1] << (64 - sh);
  return v & (BCT_T - 1);
}

void powm_barrett_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const BarrettCtx &ctx,
                     limb *scratch) {
  const size_t n = ctx.n;
  MPB_ASSERT(!overlap(rp, n, ep, en));
  limb *tab = scratch;
  limb *acc = tab + BCT_T * n;
  limb *sel = acc + n;
  limb *t = sel + n;    // 2n: the product
  limb *rs = t + 2 * n; // reduction scratch
  auto mul = [&](limb *r, const limb *a, const limb *b) {
    if (a == b) sqr_basecase(t, a, n);
    else mul_basecase(t, a, n, b, n);
    barrett_reduce_ct(r, t, ctx, rs);
  };
  zero(tab, n);
  tab[0] = 1;  // m > 1
  copy(tab + n, bp, n);
  for (size_t k = 2; k < BCT_T; k++) mul(tab + k * n, tab + (k - 1) * n, tab + n);

  const size_t ebits = 64 * en;
  if (ebits == 0) {
    copy(rp, tab, n);
    secure_zero(tab, (BCT_T * n + 4 * n) * sizeof(limb));
    return;
  }
  size_t nwin = (ebits + BCT_W - 1) / BCT_W;
  size_t lo = (nwin - 1) * BCT_W;
  bct_select(acc, tab, n, bct_window(ep, en, lo));
  while (lo > 0) {
    lo -= BCT_W;
    for (unsigned s = 0; s < BCT_W; s++) mul(acc, acc, acc);
    bct_select(sel, tab, n, bct_window(ep, en, lo));
    mul(acc, acc, sel);
  }
  copy(rp, acc, n);
  secure_zero(tab, (BCT_T * n + 4 * n) * sizeof(limb));
}

} // namespace mpn
} // namespace mpb
