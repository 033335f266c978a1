// cpu/mpn/powm/powm_barrett.cpp: sliding-window exponentiation with Barrett reduction (any
// modulus), on the shared loop of cpu/mpn/powm/powm_slide_loop.h: products by mpn::sqr /
// mpn::mul_n into a 2n-limb buffer, then barrett_reduce.
#include "mpn/powm/powm_slide_loop.h"

namespace mpb {
namespace mpn {

namespace {
size_t prod_itch(size_t n) {
  size_t a = sqr_itch(n), b = mul_n_itch(n);
  return a > b ? a : b;
}

struct BarrettOps {
  const BarrettCtx &ctx;
  limb *t;   // 2n
  limb *sc;  // max(prod_itch, barrett_reduce_itch)
  void sqr(limb *r, const limb *a) {
    mpn::sqr(t, a, ctx.n, sc);
    barrett_reduce(r, t, ctx, sc);
  }
  void mul(limb *r, const limb *a, const limb *b) {
    mul_n(t, a, b, ctx.n, sc);
    barrett_reduce(r, t, ctx, sc);
  }
};
} // namespace

size_t powm_barrett_itch(size_t n, size_t en) {
  size_t pi = prod_itch(n), ri = barrett_reduce_itch(n);
  return slide_loop::table_limbs(n, 64 * en) + n + 2 * n + (pi > ri ? pi : ri);
}

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
  const size_t ebits = slide_loop::bits(ep, en);
  limb *tab = scratch;
  limb *acc = tab + slide_loop::table_limbs(n, ebits);
  BarrettOps op{ctx, acc + n, acc + 3 * n};
  copy(tab, bp, n);
  slide_loop::run(acc, tab, n, ep, ebits, op);
  copy(rp, acc, n);
}

} // namespace mpn
} // namespace mpb
