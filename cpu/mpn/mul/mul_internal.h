// cpu/mpn/mul/mul_internal.h: internal kernels of the multiplication layer (not part of mpn.h's
// public contract): the portable and the MULX/ADX variants of the single-limb products,
// the fixed-size Comba kernels and the Karatsuba recursion entry points.
#pragma once
#include "core/asm.h"
#include "core/cpu_features.h"
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {
namespace kern {

// Portable C (unsigned __int128) versions; same contracts as mpn::mul_1 etc.
limb mul_1_portable(limb *rp, const limb *ap, size_t n, limb b);
limb addmul_1_portable(limb *rp, const limb *ap, size_t n, limb b);
limb submul_1_portable(limb *rp, const limb *ap, size_t n, limb b);

#ifdef MPB_HAVE_ADX_ASM
// x86-64 MULX/ADCX/ADOX versions (cpu/mpn/x86_64/mul_1_adx.cpp). Only call them when
// cpu::has_mulx_adx() is true.
limb mul_1_adx(limb *rp, const limb *ap, size_t n, limb b);
limb addmul_1_adx(limb *rp, const limb *ap, size_t n, limb b);
limb submul_1_adx(limb *rp, const limb *ap, size_t n, limb b);
// Fully unrolled MULX/ADX n x n kernels (mul_fixed_adx.cpp, generated at build time by
// cpu/mpn/x86_64/mul_fixed_adx_gen.py), 1 <= n <= 8.
constexpr size_t FIXED_ADX_MAX = 8;
void mul_fixed_adx(limb *rp, const limb *ap, const limb *bp, size_t n);
// an x bn for 1 <= bn <= an <= 8 (same file).
void mul_fixed_adx_unbal(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn);
void sqr_fixed_adx(limb *rp, const limb *ap, size_t n);
// Row kernels with the partial product in memory (same file): ROWS_ADX_MIN <= n <= ROWS_ADX_MAX
// (squaring: up to SQR_ROWS_ADX_MAX). Below Karatsuba they replace both the Comba and the
// schoolbook rows on MULX/ADX machines (the tuning's Comba limits then apply to the portable
// path only).
constexpr size_t ROWS_ADX_MIN = 9, ROWS_ADX_MAX = 64, SQR_ROWS_ADX_MAX = 32;
void mul_rows_adx(limb *rp, const limb *ap, const limb *bp, size_t n);
void sqr_rows_adx(limb *rp, const limb *ap, size_t n);
// The kernel that mul_rows_adx / sqr_rows_adx call for this n (same limits), for callers that
// make many calls at one n (mont_ct_kernels).
using MulRowsFn = void (*)(limb *rp, const limb *ap, const limb *bp);
using SqrRowsFn = void (*)(limb *rp, const limb *ap);
MulRowsFn mul_rows_adx_fn(size_t n);
SqrRowsFn sqr_rows_adx_fn(size_t n);
// The square of sqr_rows_adx_fn(n) carrying one slice of a constant-time table selection
// (powm_ct's loop, cpu/mpn/powm/powm_ct_loop.h), or null where there is none (n other than 16
// and 24, or 16 with the block kernels compiled out). rp[0 .. 2n) = a^2 as sqr_rows_adx; then,
// with the job at rp + 2n (2 + n limbs: iv as four equal 32-bit words, then an n-limb
// accumulator), accumulator |= entries[k] & (k == iv ? ~0 : 0) for the SQR_SEL_SLICE n-limb
// entries k = 0 .. SQR_SEL_SLICE-1 at `entries`, read with SSE2 among the square's rows. Every
// entry is read and the control flow and addresses do not depend on iv.
constexpr size_t SQR_SEL_SLICE = 7;
using SqrSelFn = void (*)(limb *rp, const limb *ap, const limb *entries);
SqrSelFn sqr_sel_adx_fn(size_t n);
// The product of mul_rows_adx_fn(n) carrying a whole selection from a 32-entry table, or null
// where there is none (n other than 32). rp[0 .. 2n) = a * b as mul_rows_adx; then, with the job
// at `job` (2 + n limbs: iv as four equal 32-bit words, then an n-limb accumulator), accumulator
// = entries[iv] (zero for iv outside 0..31), the n-limb entries read with SSE2 one per row of the
// product. job and rp must not overlap. Every entry is read and the control flow and addresses
// do not depend on iv.
using MulSelFn = void (*)(limb *rp, const limb *ap, const limb *bp, const limb *entries, limb *job);
MulSelFn mul_sel_adx_fn(size_t n);
#endif

// True when the MULX/ADX kernels are in use (compiled in, supported, not forced off).
inline bool use_adx() {
#ifdef MPB_HAVE_ADX_ASM
  return cpu::has_mulx_adx();
#else
  return false;
#endif
}

// One product into a column's delayed-carry accumulators (seed 003): its low half into L, its
// high half into H; the column's carry is resolved once, after all its products.
__attribute__((always_inline)) inline void comba_mac(dlimb &L, dlimb &H, limb a, limb b) {
  const dlimb p = (dlimb)a * b;
  L += (limb)p;
  H += (limb)(p >> 64);
}

// Fully unrolled delayed-carry Comba kernels exist for 1 <= n <= COMBA_FIXED_MAX.
constexpr size_t COMBA_FIXED_MAX = 16;
void mul_comba_fixed(limb *rp, const limb *ap, const limb *bp, size_t n);  // n <= COMBA_FIXED_MAX
void sqr_comba_fixed(limb *rp, const limb *ap, size_t n);                  // n <= COMBA_FIXED_MAX
// The generic-loop delayed-carry Comba (any n >= 1), also used by the tests directly.
void mul_comba_loop(limb *rp, const limb *ap, const limb *bp, size_t n);
void sqr_comba_loop(limb *rp, const limb *ap, size_t n);

// Below-Karatsuba dispatch for the recursion (comba or basecase by the runtime params).
void mul_n_small(limb *rp, const limb *ap, const limb *bp, size_t n);
void sqr_small(limb *rp, const limb *ap, size_t n);

} // namespace kern
// rp[0..2) = a^2 (one limb).
inline void sqr_limb(limb *rp, limb a) {
  limb lo, hi = detail::mul_wide(a, a, &lo);
  rp[0] = lo;
  rp[1] = hi;
}

// Karatsuba's |x - y| for x of l limbs and y of h <= l limbs (the halves of an operand);
// returns 1 when x < y.
inline int karatsuba_abs_diff(limb *rp, const limb *xp, const limb *yp, size_t l, size_t h) {
  if (h < l) {
    // x - y is negative only if x's top (l - h) limbs are zero and x_low < y
    if (normalized_size(xp + h, l - h) == 0 && cmp(xp, yp, h) < 0) {
      sub_n(rp, yp, xp, h);
      zero(rp + h, l - h);
      return 1;
    }
    limb bw = sub_n(rp, xp, yp, h);
    sub_1(rp + h, xp + h, l - h, bw);
    return 0;
  }
  return sub_abs_n(rp, xp, yp, l);
}

// Karatsuba's recombination for an n-limb product split at l (h = n - l): rp holds z0 (2l
// limbs) and z2 (2h limbs), zm (2l limbs, overwritten) the product of the halves' differences;
// adds t = z0 + z2 - zm (zm_subtracted) or z0 + z2 + zm at rp + l.
inline void karatsuba_combine(limb *rp, limb *zm, size_t n, size_t l, size_t h, bool zm_subtracted) {
  long top = zm_subtracted ? -(long)sub_n(zm, rp, zm, 2 * l)   // z0 - zm
                           : (long)add_n(zm, zm, rp, 2 * l);   // z0 + zm
  top += (long)add(zm, zm, 2 * l, rp + 2 * l, 2 * h);          // + z2
  limb cy = add_n(rp + l, rp + l, zm, 2 * l);                  // rp[l ..) += t
  MPB_ASSERT(top + (long)cy >= 0);
  if (2 * n > 3 * l) add_1(rp + 3 * l, rp + 3 * l, 2 * n - 3 * l, (limb)(top + (long)cy));
}

} // namespace mpn
} // namespace mpb
