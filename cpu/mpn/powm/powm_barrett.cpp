// Sliding-window exponentiation with Barrett reduction (any modulus; used for even ones).
// Same window logic as powm (cpu/mpn/powm/powm_mont.cpp); products by mpn::sqr / mpn::mul_n into a
// 2n-limb buffer, then barrett_reduce.
#include "mpn/powm/powm.h"

namespace mpb {
namespace mpn {

static size_t prod_itch(size_t n) {
  size_t a = sqr_itch(n), b = mul_n_itch(n);
  return a > b ? a : b;
}

size_t powm_barrett_itch(size_t n, size_t en) {
  unsigned w = powm_window(64 * en);
  size_t pi = prod_itch(n), ri = barrett_reduce_itch(n);
  return ((size_t)1 << (w - 1)) * n + n + 2 * n + (pi > ri ? pi : ri);
}

static inline unsigned ebit(const limb *ep, size_t i) { return (unsigned)(ep[i / 64] >> (i % 64)) & 1; }

namespace {
struct BarrettOps {
  const BarrettCtx &ctx;
  limb *t;   // 2n
  limb *sc;
  void sqr_(limb *a) {
    sqr(t, a, ctx.n, sc);
    barrett_reduce(a, t, ctx, sc);
  }
  void mul_(limb *r, const limb *a, const limb *b) {
    mul_n(t, a, b, ctx.n, sc);
    barrett_reduce(r, t, ctx, sc);
  }
};
} // namespace

void powm_barrett(limb *rp, const limb *bp, const limb *ep, size_t en, const BarrettCtx &ctx,
                  limb *scratch) {
  const size_t n = ctx.n;
  MPB_ASSERT(!overlap(rp, n, ep, en));
  MPB_ASSERT(cmp(bp, ctx.m, n) < 0);
  en = normalized_size(ep, en);
  if (en == 0) {
    zero(rp, n);
    rp[0] = (n == 1 && ctx.m[0] == 1) ? 0 : 1;
    return;
  }
  const size_t ebits = 64 * en - (size_t)__builtin_clzll(ep[en - 1]);
  const unsigned w = powm_window(ebits);
  const size_t tsize = (size_t)1 << (w - 1);
  limb *tab = scratch;
  limb *acc = tab + tsize * n;
  BarrettOps op{ctx, acc + n, acc + 3 * n};

  copy(tab, bp, n);
  if (tsize > 1) {
    op.mul_(acc, bp, bp);
    for (size_t k = 1; k < tsize; k++) op.mul_(tab + k * n, tab + (k - 1) * n, acc);
  }
  long pos = (long)ebits - 1;
  bool first = true;
  while (pos >= 0) {
    if (!ebit(ep, (size_t)pos)) {
      op.sqr_(acc);
      pos--;
      continue;
    }
    long lo = pos - (long)w + 1;
    if (lo < 0) lo = 0;
    while (!ebit(ep, (size_t)lo)) lo++;
    unsigned val = 0;
    for (long k = pos; k >= lo; k--) {
      val = (val << 1) | ebit(ep, (size_t)k);
      if (!first) op.sqr_(acc);
    }
    if (first) copy(acc, tab + (val >> 1) * n, n);
    else op.mul_(acc, acc, tab + (val >> 1) * n);
    first = false;
    pos = lo - 1;
  }
  copy(rp, acc, n);
}

} // namespace mpn
} // namespace mpb
