// Constant-time exponentiation with Barrett reduction, for secret exponents and any modulus
// (the batch API uses it for even moduli; odd ones take powm_ct): the fixed-window loop of
// cpu/mpn/powm/powm_ct_loop.h in the plain domain, products by mul_basecase and squares by
// sqr_basecase (schoolbook, no data-dependent branch: never Karatsuba), reductions by
// barrett_reduce_ct. Branches and memory indices depend only on n and en.
#include "mpn/powm/powm_ct_loop.h"

namespace mpb {
namespace mpn {

size_t powm_barrett_ct_itch(size_t n) { return ct_loop::itch(n) + 2 * n + barrett_reduce_itch(n); }

namespace {
struct BarrettCtOps {
  const BarrettCtx &ctx;
  limb *t;   // 2n: the unreduced product
  limb *sc;  // barrett_reduce_itch
  void one(limb *x) {
    zero(x, ctx.n);
    x[0] = (ctx.n == 1 && ctx.m[0] == 1) ? 0 : 1;  // 1 mod m (the modulus is public)
  }
  void to(limb *x, const limb *b) { copy(x, b, ctx.n); }  // b < m already
  void mul(limb *r, const limb *a, const limb *b) {
    mul_basecase(t, a, ctx.n, b, ctx.n);
    barrett_reduce_ct(r, t, ctx, sc);
  }
  void sqr(limb *r, const limb *a) {
    sqr_basecase(t, a, ctx.n);
    barrett_reduce_ct(r, t, ctx, sc);
  }
  void from(limb *r, const limb *x) { copy(r, x, ctx.n); }
};
} // namespace

void powm_barrett_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const BarrettCtx &ctx,
                     limb *scratch) {
  const size_t n = ctx.n;
  MPB_ASSERT(!overlap(rp, n, ep, en));
  limb *t = scratch + ct_loop::itch(n);
  BarrettCtOps op{ctx, t, t + 2 * n};
  ct_loop::run(rp, bp, ep, en, 64 * en, n, op, scratch);
}

} // namespace mpn
} // namespace mpb
