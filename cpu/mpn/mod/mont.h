// cpu/mpn/mod/mont.h: Montgomery arithmetic on raw limb arrays (namespace mpb::mpn), odd moduli.
//
// A Montgomery context is set up ONCE per modulus and then shared, read-only, by any number of
// operations (one per batch item, one per thread): nothing declared here allocates, every
// temporary comes from caller scratch whose size the matching `_itch` function gives.
// Representation: Montgomery residues are n-limb values x*R mod m with R = 2^(64n), kept
// "almost reduced" (any value < R, congruent mod m); mont_from results are fully reduced.
// Unless stated otherwise outputs may not overlap inputs or scratch.
#pragma once
#include "core/asm.h"
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

// ================================ Montgomery =============================================

// A Montgomery context for an odd modulus m of n >= 1 limbs (m[n-1] != 0, m > 1 not required:
// m == 1 works and gives 0 everywhere). All pointers refer into the caller's storage block.
struct MontCtx {
  const limb *m = nullptr;   // the modulus (a copy inside the storage block), n limbs
  size_t n = 0;              // limbs of m
  limb minv = 0;             // -m^-1 mod 2^64
  const limb *r2 = nullptr;  // R^2 mod m, n limbs (to convert into the Montgomery domain)
  const limb *one = nullptr; // R mod m, n limbs (1 in the Montgomery domain)
};

// Limbs of the storage block mont_ctx_init needs: 3n limbs are kept by the context (it must
// outlive every use of ctx), the rest is temporary space used during init only. The set-up is
// constant time in the value of m (no division): m may be secret.
size_t mont_ctx_itch(size_t n);
// cpu/mpn/mod/mont_ctx_init.cpp. Sets up ctx for m (n limbs, m odd, m[n-1] != 0); copies m.
// storage: mont_ctx_itch(n) limbs, must not overlap m.
void mont_ctx_init(MontCtx &ctx, const limb *m, size_t n, limb *storage);

// cpu/mpn/mod/redc.cpp: Montgomery reduction (REDC) of a 2n-limb value, word by word.
// rp[0..n) + 2^(64n)*carry = (tp + q*m) / R for the q that clears the low n limbs; tp[0..2n)
// is destroyed. Returns the carry (0 or 1). rp may equal tp + n. Portable C or an x86-64
// MULX/ADCX/ADOX kernel picked at run time (cpu::has_mulx_adx()).
limb redc_1(limb *rp, limb *tp, const limb *m, size_t n, limb minv);
limb redc_1_portable(limb *rp, limb *tp, const limb *m, size_t n, limb minv);  // rows (reference)
// cpu/mpn/mod/redc_comba.cpp: the same by columns (product scanning, delayed carries), redc_1's
// portable kernel; the same result bit for bit. rp may equal tp or tp + n.
limb redc_comba(limb *rp, limb *tp, const limb *m, size_t n, limb minv);
// cpu/mpn/mod/mont_cols.cpp: the product (or square) and REDC in one pass of columns (product
// scanning, delayed carries): rp[0..n) + carry R = (a b + Q m) / R, bit for bit what redc_comba
// gives for the product; returns the carry (0 or 1) for a, b < R. q: n limbs of scratch that
// overlaps nothing else. rp may equal ap and/or bp. The portable path of mont_sqr_ct / mont_mul_ct.
limb mont_sqr_cols(limb *rp, const limb *ap, const limb *m, size_t n, limb minv, limb *q);
limb mont_mul_cols(limb *rp, const limb *ap, const limb *bp, const limb *m, size_t n, limb minv,
                   limb *q);
#ifdef MPB_HAVE_ADX_ASM
// redc_1 fully unrolled for some n (redc_fixed_adx_has), MULX/ADX (generated at build time by
// cpu/mpn/x86_64/redc_fixed_adx_gen.py); only after cpu::has_mulx_adx(). redc_1 picks it.
bool redc_fixed_adx_has(size_t n);
limb redc_fixed_adx(limb *rp, limb *tp, const limb *m, size_t n, limb minv);
// mont_redc in one kernel (same file, same n): the rows, the add of the parked carries and the
// masked subtraction of m, without the add_n / cnd_sub_n calls. rp may equal tp + n.
void mont_redc_fixed_adx(limb *rp, limb *tp, const limb *m, size_t n, limb minv);
// The kernel that mont_redc_fixed_adx calls for this n (same n).
using MontRedcFn = void (*)(limb *rp, limb *tp, const limb *m, limb minv, size_t n);
MontRedcFn mont_redc_fixed_adx_fn(size_t n);
#endif
// redc_1 followed by a masked (constant-time) subtraction of m when the carry is set: for any
// tp < R^2 (e.g. a product of two almost-reduced values) rp < R and rp == tp/R (mod m).
// For tp < R*m additionally rp < 2m (so mont_canon gives the canonical residue).
void mont_redc(limb *rp, limb *tp, const MontCtx &ctx);

// cpu/mpn/mod/mont_mul.cpp: Montgomery multiplication (a product + REDC; CIOS with MULX/ADX past
// 64 limbs; without MULX/ADX, mont_mul_cols from tuning MONT_MUL_COLS_MIN limbs), rp = a*b/R (mod m), almost
// reduced (rp < R) for any a, b < R. Constant time (no data-dependent branch or index).
// rp may equal ap and/or bp. scratch: mont_mul_itch(n) limbs.
size_t mont_mul_itch(size_t n);
void mont_mul(limb *rp, const limb *ap, const limb *bp, const MontCtx &ctx, limb *scratch);
void mont_mul_portable(limb *rp, const limb *ap, const limb *bp, const MontCtx &ctx, limb *scratch);
// Montgomery squaring: mpn::sqr (triangle + diagonal) + REDC, rp = a^2/R (mod m), rp < R.
// rp may equal ap. scratch: mont_sqr_itch(n) limbs.
size_t mont_sqr_itch(size_t n);
void mont_sqr(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch);
// Same with mpn::sqr_ct (the small kernels, then a Karatsuba without data-dependent branches),
// whose control flow and memory accesses depend only on n (mpn::sqr's Karatsuba branches on the
// data): used by powm_ct. rp may equal ap. scratch: mont_sqr_itch(n) limbs.
void mont_sqr_ct(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch);
// The multiplication counterpart: product + REDC up to the Comba size (MULX/ADX: up to the row
// kernels' 64 limbs), CIOS mont_mul above; rp < R. rp may equal ap and/or bp. scratch: mont_sqr_itch(n) limbs.
void mont_mul_ct(limb *rp, const limb *ap, const limb *bp, const MontCtx &ctx, limb *scratch);
// The fixed-size kernels that mont_sqr_ct and mont_mul_ct reach for ctx.n, resolved once for a
// loop of many calls (powm_ct): sqr(t, a) or mul(t, a, b) makes the 2n-limb product in the
// scratch t, then redc(rp, t, ctx.m, ctx.minv, ctx.n) is mont_redc. A null member: those
// functions take another path at this n (or the CPU lacks MULX/ADX); call them instead. The
// resolution depends on the CPU features and the tuning, so make it where the calls are made.
struct MontCtKernels {
  void (*sqr)(limb *rp, const limb *ap) = nullptr;
  void (*mul)(limb *rp, const limb *ap, const limb *bp) = nullptr;
  void (*redc)(limb *rp, limb *tp, const limb *m, limb minv, size_t n) = nullptr;
  // sqr with a slice of a table selection (kern::sqr_sel_adx_fn); set only with sqr, mul and redc
  void (*sqr_sel)(limb *rp, const limb *ap, const limb *entries) = nullptr;
  // mul with a whole table selection (kern::mul_sel_adx_fn); set only with mul and redc
  void (*mul_sel)(limb *rp, const limb *ap, const limb *bp, const limb *entries, limb *job) = nullptr;
};
MontCtKernels mont_ct_kernels(const MontCtx &ctx);
// Multiplication by product + REDC (mpn::mul_n + redc): rp = a*b/R (mod m), rp < R.
// rp may equal ap and/or bp. scratch: mont_sqr_itch(n) limbs (the same size).
void mont_mul_redc(limb *rp, const limb *ap, const limb *bp, const MontCtx &ctx, limb *scratch);

// Into / out of the Montgomery domain. ap: n limbs, any value < R. rp may equal ap.
// mont_to: rp = a*R mod m (almost reduced, < R). mont_from: rp = a/R mod m, fully reduced.
void mont_to(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch);   // scratch: mont_sqr_itch(n)
void mont_from(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch); // scratch: mont_sqr_itch(n)
// Constant-time full reduction: rp = ap mod m for an n-limb ap < 2m ("subtract m if ap >= m",
// with masks). rp may equal ap. scratch: n limbs.
void mont_canon(limb *rp, const limb *ap, const MontCtx &ctx, limb *scratch);
// x = 2x mod m for x < m, with masks (cpu/mpn/mod/mont_ctx_init.cpp). scratch: n limbs.
void mont_dbl(limb *xp, const MontCtx &ctx, limb *scratch);

// ---- reductions by a secret modulus, constant time in the values (lengths are public) -----
// cpu/mpn/mod/mont_reduce.cpp: rp (n limbs) = c mod m, fully reduced, for c of cn >= 1 limbs.
// rp must not overlap c. scratch: mont_reduce_itch(n) limbs.
size_t mont_reduce_itch(size_t n);
void mont_reduce(limb *rp, const limb *cp, size_t cn, const MontCtx &ctx, limb *scratch);
// rp (n limbs) = 2^e mod m, fully reduced, for an odd m of n limbs (m[n-1] != 0); builds its own
// context. scratch: pow2_mod_itch(n) limbs. (mpn::pow2_divrem is the variable-time division.)
size_t pow2_mod_itch(size_t n);
void pow2_mod(limb *rp, size_t e, const limb *mp, size_t n, limb *scratch);

} // namespace mpn
} // namespace mpb
