// cpu/mpn/mpn.h: the low-level layer on raw little-endian 64-bit limb arrays (GMP "mpn" style).
//
// Rules for everything declared here:
//  - the caller owns all storage; nothing below the top-level dispatchers allocates;
//  - an algorithm that needs scratch has a partner `<name>_itch(n)` giving its size in limbs;
//  - sizes are counts of limbs (size_t); operands need not be normalized unless stated;
//  - overlap rules are stated per function and asserted in debug builds (MPB_ASSERT).
// The batch backends (OpenMP, IFMA, multipartite) call these directly, without mp_int.
#pragma once
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/limb.h"

#ifndef NDEBUG
#define MPB_ASSERT(x) assert(x)
#else
#define MPB_ASSERT(x) ((void)0)
#endif

namespace mpb {
namespace mpn {

using limb = uint64_t;
using dlimb = mpb::detail::dlimb_t;

// True when [a, a+an) and [b, b+bn) overlap.
inline bool overlap(const limb *a, size_t an, const limb *b, size_t bn) {
  return a < b + bn && b < a + an;
}

// ---- copy / compare (cpu/mpn/basic/cmp.cpp) -------------------------------------------------
inline void copy(limb *rp, const limb *ap, size_t n) {
  if (n && rp != ap) std::memmove(rp, ap, n * sizeof(limb));
}
inline void zero(limb *rp, size_t n) {
  if (n) std::memset(rp, 0, n * sizeof(limb));
}
// Size with leading zero limbs removed (0 for the value zero).
inline size_t normalized_size(const limb *ap, size_t n) {
  while (n > 0 && ap[n - 1] == 0) --n;
  return n;
}
// The same without a branch on the limbs (reads all n): for secret values whose length is then
// declared public (mpb::declassify, cpu/core/ct.h).
inline size_t sec_normalized_size(const limb *ap, size_t n) {
  size_t r = 0;
  for (size_t i = 0; i < n; i++) {
    const size_t mask = (size_t)0 - (size_t)((ap[i] | ((limb)0 - ap[i])) >> 63);  // ap[i] != 0
    r = (r & ~mask) | ((i + 1) & mask);
  }
  return r;
}
// Leading zero bits of x (64 for 0), without a branch, a table or a bit-scan instruction: for
// secret values.
inline unsigned sec_clz(limb x) {
  unsigned z = 0;
  for (unsigned s = 32; s; s >>= 1) {
    const limb t = x >> s, nz = (limb)0 - ((t | ((limb)0 - t)) >> 63);  // t != 0
    x = (t & nz) | (x & ~nz);
    z += s & ~(unsigned)nz;
  }
  return z + 1 - (unsigned)x;  // x is 0 or 1 now
}
// Bit length of the n-limb a (0 for zero), reading all n limbs without a branch on them.
inline size_t sec_bit_length(const limb *ap, size_t n) {
  limb top = 0;
  size_t len = 0;
  for (size_t i = 0; i < n; i++) {
    const limb nz = (limb)0 - ((ap[i] | ((limb)0 - ap[i])) >> 63);
    top = (ap[i] & nz) | (top & ~nz);
    len = (len & ~(size_t)nz) | ((i + 1) & (size_t)nz);
  }
  const size_t any = (size_t)0 - (size_t)((len | ((size_t)0 - len)) >> 63);
  return (64 * len - sec_clz(top)) & any;
}
// -1, 0, 1 comparing two n-limb numbers.
int cmp(const limb *ap, const limb *bp, size_t n);
// Compare numbers of different sizes (both normalized or not).
int cmp2(const limb *ap, size_t an, const limb *bp, size_t bn);

// ---- add / sub (cpu/mpn/basic/add_sub.cpp). rp may equal ap or bp. -------------------------------
limb add_n(limb *rp, const limb *ap, const limb *bp, size_t n);               // returns carry
limb sub_n(limb *rp, const limb *ap, const limb *bp, size_t n);               // returns borrow
limb add(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn);     // an >= bn; rp has an
limb sub(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn);     // an >= bn; rp has an
limb add_1(limb *rp, const limb *ap, size_t n, limb b);
limb sub_1(limb *rp, const limb *ap, size_t n, limb b);
// rp = ap - bp if ap >= bp else bp - ap; returns 1 when the result is negated (ap < bp).
int sub_abs_n(limb *rp, const limb *ap, const limb *bp, size_t n);
// Constant-time: if (cond) rp = ap + bp / ap - bp else rp = ap. Returns the carry/borrow (0 if !cond).
limb cnd_add_n(limb cond, limb *rp, const limb *ap, const limb *bp, size_t n);
limb cnd_sub_n(limb cond, limb *rp, const limb *ap, const limb *bp, size_t n);

// ---- shifts (cpu/mpn/basic/shift.cpp). 1 <= cnt <= 63. rp <= ap for lshift? No: lshift works
// from the top (rp >= ap allowed), rshift from the bottom (rp <= ap allowed). ------------
limb lshift(limb *rp, const limb *ap, size_t n, unsigned cnt);  // returns the bits shifted out
limb rshift(limb *rp, const limb *ap, size_t n, unsigned cnt);  // returns the bits shifted out (in the high bits)

// ---- single-limb products (cpu/mpn/basic/mul_1.cpp). rp may equal ap. ------------------------
limb mul_1(limb *rp, const limb *ap, size_t n, limb b);      // rp = ap*b, returns the high limb
limb addmul_1(limb *rp, const limb *ap, size_t n, limb b);   // rp += ap*b, returns the carry limb
limb submul_1(limb *rp, const limb *ap, size_t n, limb b);   // rp -= ap*b, returns the borrow limb

// ---- multiplication (one algorithm per file; rp never overlaps the inputs) ---------------
// cpu/mpn/mul/mul_basecase.cpp: schoolbook by rows, an >= bn >= 1, rp has an+bn limbs.
void mul_basecase(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn);
// cpu/mpn/mul/sqr_basecase.cpp: schoolbook squaring (off-diagonal products once, doubled), rp has 2n.
void sqr_basecase(limb *rp, const limb *ap, size_t n);
// cpu/mpn/mul/mul_comba.cpp: delayed-carry Comba (seed 003 on 64-bit digits), n x n, 1 <= n.
void mul_comba(limb *rp, const limb *ap, const limb *bp, size_t n);
// cpu/mpn/mul/sqr_comba.cpp: delayed-carry Comba squaring.
void sqr_comba(limb *rp, const limb *ap, size_t n);
// cpu/mpn/mul/mul_karatsuba.cpp / cpu/mpn/mul/sqr_karatsuba.cpp: n x n, recursive, scratch of _itch(n) limbs.
size_t mul_karatsuba_itch(size_t n);
void mul_karatsuba(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch);
size_t sqr_karatsuba_itch(size_t n);
void sqr_karatsuba(limb *rp, const limb *ap, size_t n, limb *scratch);
// cpu/mpn/mul/sqr_karatsuba_ct.cpp: squaring whose branches, loop counts and memory addresses
// depend only on n (Karatsuba from tuning::params().sqr_karatsuba_ct limbs, the small kernels
// below), for powm_ct's Montgomery squarings. rp (2n limbs) overlaps neither ap nor scratch.
size_t sqr_ct_itch(size_t n);
void sqr_ct(limb *rp, const limb *ap, size_t n, limb *scratch);

// cpu/mpn/mul/mullo_basecase.cpp: short product rp = a*b mod B^n (the low n limbs only, rows cut at column n),
// n >= 1; constant time (loops depend only on n). rp overlaps neither input (ap may equal bp).
void mullo_basecase(limb *rp, const limb *ap, const limb *bp, size_t n);

// cpu/mpn/mul/mul.cpp: the dispatchers (thresholds: mpb::tuning::params()).  With MULX+ADX (run-time
// CPUID, cpu/core/cpu_features.h): unrolled assembly kernels for n <= 8 (every an x bn shape up to
// 8 x 8 in mul) and 9..16 (sqr: 9..24, mul_fixed_adx.cpp, generated by cpu/mpn/x86_64/mul_fixed_adx_gen.py), then Karatsuba; portable: delayed-carry
// Comba, schoolbook rows, Karatsuba.  No Toom-3.  The _itch sizes do not depend on the
// thresholds.  mul: an >= bn >= 1, unbalanced operands in bn-limb chunks.
size_t mul_n_itch(size_t n);
void mul_n(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch);
size_t mul_itch(size_t an, size_t bn);
void mul(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn, limb *scratch); // an >= bn >= 1
// cpu/mpn/mul/sqr.cpp
size_t sqr_itch(size_t n);
void sqr(limb *rp, const limb *ap, size_t n, limb *scratch);

// ---- division (cpu/mpn/div/) -------------------------------------------------------------
// qp[0..n) = ap / d, returns the remainder. qp may equal ap. d != 0.
limb divrem_1(limb *qp, const limb *ap, size_t n, limb d);
limb mod_1(const limb *ap, size_t n, limb d);
// Knuth algorithm D. nn >= dn >= 1, dp[dn-1] != 0. qp gets nn-dn+1 limbs, rp gets dn limbs.
// qp may be NULL (remainder only); rp may be NULL (quotient only). No overlap with np/dp.
size_t tdiv_qr_itch(size_t nn, size_t dn);
void tdiv_qr(limb *qp, limb *rp, const limb *np, size_t nn, const limb *dp, size_t dn, limb *scratch);
// cpu/mpn/div/pow2_divrem.cpp: qp = floor(2^k / m) (pow2_divrem_qn(k, mn) limbs) and rp = 2^k mod m
// (mn limbs), either may be NULL; m: mn limbs, mp[mn-1] != 0. No overlap with mp or scratch.
// scratch: pow2_divrem_itch(k, mn) limbs. The one "2^k mod m" of the library (R mod m, R^2 mod m,
// Barrett's mu, the SIMD and CUDA constants).
size_t pow2_divrem_qn(size_t k, size_t mn);
size_t pow2_divrem_itch(size_t k, size_t mn);
void pow2_divrem(limb *qp, limb *rp, size_t k, const limb *mp, size_t mn, limb *scratch);

// ---- gcd and modular inverse (cpu/mpn/gcd/: one algorithm per file, one dispatcher each) --
// The dispatchers, what the library calls (cpu/mpn/gcd/gcd.cpp, cpu/mpn/gcd/invmod.cpp):
//  gcd:        gcd of two n-limb values; rp gets n limbs (zero padded); returns the normalized
//              size of the gcd (gcd(0, 0) = 0, gcd(a, 0) = a). rp may equal ap or bp.
//              -> gcd_lehmer (which falls back to gcd_binary if a pass ever misbehaves).
//  invmod:     variable-time inverse modulo any m > 1 (mn limbs, mp[mn-1] != 0) of a (an limbs,
//              any value); on success rp gets a^-1 mod m (mn limbs) and true is returned; false
//              (rp untouched) when gcd(a, m) != 1. rp may equal ap or mp.
//              -> invmod_lehmer (safety net: invmod_swapped).
//  sec_invmod: constant-time inverse for an odd modulus m > 1 (the modulus and the sizes an, mn
//              are public, a is secret; a need not be reduced). rp always gets mn limbs (a^-1 mod m
//              when invertible); returns 1 when gcd(a, m) == 1 else 0, computed without branches.
//              rp may equal ap or mp. -> sec_invmod_bingcd.
//  jacobi:     the Jacobi symbol (a/b) for an odd b (bn limbs, bp[bn-1] != 0) and any a >= 0
//              (an limbs, an may be 0, a need not be below b): -1, 0 or 1 (0 iff gcd(a, b) != 1).
//              Variable time (public values). -> jacobi_divsteps (past its bound: jacobi_euclid).
size_t gcd_itch(size_t n);
size_t gcd(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch);
size_t jacobi_itch(size_t an, size_t bn);
int jacobi(const limb *ap, size_t an, const limb *bp, size_t bn, limb *scratch);
size_t invmod_itch(size_t an, size_t mn);
bool invmod(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch);
size_t sec_invmod_itch(size_t an, size_t mn);
limb sec_invmod(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch);

// The algorithms (same contracts as their dispatcher unless stated):
// cpu/mpn/gcd/jacobi_divsteps.cpp: positive division steps, 62 per big-number pass; returns 2
// (undecided) when max_passes passes did not reach the end.
size_t jacobi_divsteps_itch(size_t an, size_t bn);
int jacobi_divsteps(const limb *ap, size_t an, const limb *bp, size_t bn, limb *scratch,
                    size_t max_passes);
// cpu/mpn/gcd/jacobi_euclid.cpp: the Euclidean algorithm with reciprocity (one division a step).
size_t jacobi_euclid_itch(size_t an, size_t bn);
int jacobi_euclid(const limb *ap, size_t an, const limb *bp, size_t bn, limb *scratch);
// cpu/mpn/gcd/gcd_lehmer.cpp: Lehmer's double-digit Euclidean algorithm (about 62 bits off both
// values per big-number pass, cpu/mpn/gcd/lehmer_step.h).
size_t gcd_lehmer_itch(size_t n);
size_t gcd_lehmer(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch);
// cpu/mpn/gcd/gcd_binary.cpp: binary (Stein) gcd, whole-limb/multi-bit shifts and shrinking
// sizes (inputs are copied to scratch first).
size_t gcd_binary_itch(size_t n);
size_t gcd_binary(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch);
// cpu/mpn/gcd/invmod_lehmer.cpp: Lehmer's extended Euclidean algorithm, any m > 1 (cofactors kept
// exact and below m, no reduction on the way).
size_t invmod_lehmer_itch(size_t an, size_t mn);
bool invmod_lehmer(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch);
// cpu/mpn/gcd/invmod_swapped.cpp: any modulus m > 1. Odd m: invmod_odd_bingcd. Even m: a' = a mod m
// must be odd; y = m^-1 mod a' (invmod_odd_bingcd with the roles swapped), then t = (m*y - 1) / a'
// (exact) and a^-1 = m - t, since a'*(m - t) = a'*m - m*y + 1 = 1 mod m. The reference and
// safety net of invmod_lehmer.
size_t invmod_swapped_itch(size_t an, size_t mn);
bool invmod_swapped(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch);
// cpu/mpn/gcd/invmod_odd_bingcd.cpp: odd m > 1 only, by the optimized binary gcd (cofactors
// updated once per 31 steps: (f*u + g*v) / 2^31 mod m); falls back to invmod_odd_binary.
size_t invmod_odd_bingcd_itch(size_t an, size_t mn);
bool invmod_odd_bingcd(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch);
// cpu/mpn/gcd/invmod_odd_binary.cpp: odd m > 1 only, by the binary extended gcd; halvings of the
// cofactors up to 63 bits at a time (x + q*m with q = -x/m mod 2^k).
size_t invmod_odd_binary_itch(size_t an, size_t mn);
bool invmod_odd_binary(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch);
// cpu/mpn/gcd/sec_invmod_bingcd.cpp: the constant-time optimized binary gcd (31 masked steps per
// big-number pass, ceil((64*an + bitlen(m) - 1)/31) + 1 passes).
size_t sec_invmod_bingcd_itch(size_t an, size_t mn);
limb sec_invmod_bingcd(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch);

} // namespace mpn
} // namespace mpb
