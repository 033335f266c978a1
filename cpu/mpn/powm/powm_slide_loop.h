// cpu/mpn/powm/powm_slide_loop.h: the variable-time left-to-right sliding-window exponentiation
// loop shared by powm (Montgomery, odd moduli: cpu/mpn/powm/powm_mont.cpp), powm_barrett
// (Barrett, any modulus: cpu/mpn/powm/powm_barrett.cpp) and powm_2k (modulo 2^s, short
// products: cpu/mpn/powm/powm_2k.cpp). Its constant-time counterpart is powm_ct_loop.h.
//
// A table of the odd powers b, b^3, ..., b^(2^w - 1) (w = powm_window(bits of e)); every window
// starts and ends on a set bit and is at most w bits wide, zero bits between windows cost one
// squaring each; the first window is copied from the table instead of multiplied.
#pragma once
#include "mpn/powm/powm.h"

namespace mpb {
namespace mpn {
namespace slide_loop {

// bit i of the exponent
inline unsigned ebit(const limb *ep, size_t i) { return (unsigned)(ep[i / 64] >> (i % 64)) & 1; }

// Significant bits of the normalized en-limb exponent (en >= 1, ep[en-1] != 0).
inline size_t bits(const limb *ep, size_t en) { return 64 * en - (size_t)__builtin_clzll(ep[en - 1]); }

// Table limbs for an exponent of `ebits` bits (plus the n-limb accumulator the loop needs).
inline size_t table_limbs(size_t n, size_t ebits) { return ((size_t)1 << (powm_window(ebits) - 1)) * n; }

// acc (n limbs) = b^e in the Ops' domain, e of `ebits` significant bits (ebits >= 1). tab:
// table_limbs(n, ebits) limbs whose first entry the caller has set to b (in the domain); the
// other odd powers are built here. Ops: sqr(r, a) = a^2 and mul(r, a, b) = a*b in the domain,
// r may equal a.
template <class Ops>
void run(limb *acc, limb *tab, size_t n, const limb *ep, size_t ebits, Ops &op) {
  const unsigned w = powm_window(ebits);
  const size_t tsize = (size_t)1 << (w - 1);
  if (tsize > 1) {
    op.sqr(acc, tab);  // b^2
    for (size_t k = 1; k < tsize; k++) op.mul(tab + k * n, tab + (k - 1) * n, acc);
  }
  // the window [lo, pos] (pos on a set bit) trimmed to end on a set bit; its value in *val
  auto window = [&](long pos, unsigned *val) {
    long lo = pos - (long)w + 1;
    if (lo < 0) lo = 0;
    while (!ebit(ep, (size_t)lo)) lo++;
    *val = 0;
    for (long k = pos; k >= lo; k--) *val = (*val << 1) | ebit(ep, (size_t)k);
    return lo;
  };
  unsigned val;
  long pos = window((long)ebits - 1, &val) - 1;  // the first window: copied from the table
  copy(acc, tab + (val >> 1) * n, n);
  while (pos >= 0) {
    if (!ebit(ep, (size_t)pos)) {
      op.sqr(acc, acc);
      pos--;
      continue;
    }
    const long lo = window(pos, &val);
    for (long k = pos; k >= lo; k--) op.sqr(acc, acc);
    op.mul(acc, acc, tab + (val >> 1) * n);
    pos = lo - 1;
  }
}

// The loop's Ops in the Montgomery domain of ctx: squarings by Sqr, products by Mul, on
// mont_sqr_itch(n) limbs of scratch ms.
template <void (*Sqr)(limb *, const limb *, const MontCtx &, limb *),
          void (*Mul)(limb *, const limb *, const limb *, const MontCtx &, limb *)>
struct MontOps {
  const MontCtx &ctx;
  limb *ms;
  void sqr(limb *r, const limb *a) { Sqr(r, a, ctx, ms); }
  void mul(limb *r, const limb *a, const limb *b) { Mul(r, a, b, ctx, ms); }
};

// rp = b^e mod m (fully reduced) in the Montgomery domain of ctx, the whole exponentiation: the
// en == 0 case, the table in the scratch (table_limbs + n + mont_sqr_itch(n) limbs), into and out
// of the domain. Ops: a MontOps (powm: the fastest products; powm_pubexp_ct: the constant-time
// ones). rp may equal bp (not ep).
template <class Ops>
void mont_powm(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch) {
  const size_t n = ctx.n;
  MPB_ASSERT(!overlap(rp, n, ep, en));
  en = normalized_size(ep, en);
  if (en == 0) {  // b^0 = 1 (0 when m == 1)
    mont_from(rp, ctx.one, ctx, scratch);
    return;
  }
  const size_t ebits = bits(ep, en);
  limb *tab = scratch;
  limb *acc = tab + table_limbs(n, ebits);
  Ops op{ctx, acc + n};
  mont_to(tab, bp, ctx, op.ms);  // b R mod m
  run(acc, tab, n, ep, ebits, op);
  mont_from(rp, acc, ctx, op.ms);
}

} // namespace slide_loop
} // namespace mpn
} // namespace mpb
