// Constant-time Montgomery exponentiation for secret exponents: fixed 5-bit windows over
// exactly 64*en exponent bits, or the low ebits bits (powm_ct_bits) (top window first), 32-entry table b^0..b^31, each lookup
// reads all 32 entries and keeps one with masks, every window does 5 squarings and one
// multiplication (also by b^0 = R mod m), and all reductions subtract with masks.
// Squarings and multiplications: the below-Karatsuba product kernels + REDC (mont_sqr_ct,
// mont_mul_ct), never Karatsuba (data-dependent |a0 - a1| branch).
// Memory addresses and branches depend only on n and en (ebits).
#include "mpn/mul/mul_internal.h"
#include "mpn/powm/powm_ct_loop.h"

namespace mpb {
namespace mpn {

namespace {
size_t ops_itch(size_t n) { return std::max(mont_sqr_itch(n), 2 * n + 2 + n); }

// Montgomery domain; squarings by mont_sqr_ct (schoolbook + REDC, or its constant-time
// Karatsuba), products by mont_mul_ct: their kernels called directly where mont_ct_kernels
// resolves them (their dispatch, ~6 calls deep, was ~2.5% of a scalar RSA-2048 item on the Zen
// 5 VM, 2026-11-30).
struct MontCtOps {
  const MontCtx &ctx;
  limb *ms;
  const MontCtKernels k = mont_ct_kernels(ctx);
  void one(limb *x) { copy(x, ctx.one, ctx.n); }
  void to(limb *x, const limb *b) { mont_to(x, b, ctx, ms); }
  void mul(limb *r, const limb *a, const limb *b) {
    if (!k.mul) return mont_mul_ct(r, a, b, ctx, ms);
    k.mul(ms, a, b);
    k.redc(r, ms, ctx.m, ctx.minv, ctx.n);
  }
  void sqr(limb *r, const limb *a) {
    if (!k.sqr) return mont_sqr_ct(r, a, ctx, ms);
    k.sqr(ms, a);
    k.redc(r, ms, ctx.m, ctx.minv, ctx.n);
  }
  void from(limb *r, const limb *x) { mont_from(r, x, ctx, ms); }
#ifdef MPB_HAVE_ADX_ASM
  // The squarings carry the selections (ct_loop::sel_in_sqr): kern::sqr_sel_adx_fn's kernel
  // writes the square to ms and takes its job at ms + 2n. ~5% of a 16-limb exponentiation on the
  // Zen 5 VM went to the selections between the kernels (2026-11-30).
  static constexpr size_t SEL_SLICE = kern::SQR_SEL_SLICE;
  limb *sel_job() { return k.sqr_sel ? ms + 2 * ctx.n : nullptr; }
  void sqr_sel(limb *r, const limb *a, const limb *entries) {
    k.sqr_sel(ms, a, entries);
    k.redc(r, ms, ctx.m, ctx.minv, ctx.n);
  }
  // Where the square is the constant-time Karatsuba (32 limbs), the product carries the next
  // window's selection instead (ct_loop::sel_in_mul): kern::mul_sel_adx_fn's kernel, its two
  // jobs after the Ops' scratch.
  limb *sel_jobs() { return k.mul_sel ? ms + ops_itch(ctx.n) : nullptr; }
  void mul_sel(limb *r, const limb *a, const limb *b, const limb *tab, limb *job) {
    k.mul_sel(ms, a, b, tab, job);
    k.redc(r, ms, ctx.m, ctx.minv, ctx.n);
  }
#endif
};
} // namespace

// the Ops' scratch: mont_sqr_itch (or the kernels' 2n-limb product and sqr_sel's job after it),
// then mul_sel's two jobs
size_t powm_ct_itch(size_t n) { return ct_loop::itch(n) + ops_itch(n) + 2 * (2 + n); }

void powm_ct_bits(limb *rp, const limb *bp, const limb *ep, size_t en, size_t ebits, const MontCtx &ctx,
                  limb *scratch) {
  MPB_ASSERT(!overlap(rp, ctx.n, ep, en) && ebits <= 64 * en);
  MontCtOps op{ctx, scratch + ct_loop::itch(ctx.n)};
  ct_loop::run(rp, bp, ep, en, ebits, ctx.n, op, scratch);
}

void powm_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch) {
  powm_ct_bits(rp, bp, ep, en, 64 * en, ctx, scratch);
}

} // namespace mpn
} // namespace mpb
