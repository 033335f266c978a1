// cpu/mpn/powm/powm.h: modular exponentiation on raw limb arrays (namespace mpb::mpn), over the
// Montgomery (cpu/mpn/mod/mont.h) and Barrett (cpu/mpn/mod/barrett.h) contexts.
//
// Montgomery (odd moduli) and Barrett (any modulus) contexts that are set up ONCE per modulus
// and then shared, read-only, by any number of exponentiations (one per batch item, one per
// thread): nothing declared here allocates, every temporary comes from caller scratch whose
// size the matching `_itch` function gives.
//
// Typical batch use (OpenMP backend):
//
//   // once per modulus m (n limbs, odd, m[n-1] != 0):
//   std::vector<limb> store(mpn::mont_ctx_itch(n));
//   mpn::MontCtx ctx;
//   mpn::mont_ctx_init(ctx, m, n, store.data());          // ctx points into store
//   // per thread:
//   std::vector<limb> scratch(mpn::powm_itch(n, en_max));
//   // per item (no allocation):
//   mpn::powm(r_i, b_i, e_i, en_i, ctx, scratch.data());      // variable time
//   mpn::powm_ct(r_i, b_i, e_i, en_i, ctx, scratch.data());   // constant time (secret e)
//
// Representation: Montgomery residues are n-limb values x*R mod m with R = 2^(64n). Inside
// the exponentiation they are kept "almost reduced" (any value < R, congruent mod m); the
// public powm/powm_ct/mont_from results are fully reduced into [0, m).
//
// Unless stated otherwise outputs may not overlap inputs or scratch.
#pragma once
#include "mpn/mod/barrett.h"
#include "mpn/mod/mont.h"

namespace mpb {
namespace mpn {

// ============================ the dispatcher (any m) =====================================
// cpu/mpn/powm/powm_any.cpp: rp = b^e mod m for one modulus of any parity, m > 1 (n limbs,
// mp[n-1] != 0), b < m (n limbs), e of en limbs; odd m by Montgomery (powm / powm_ct), even m by
// the 2^s * q split (powm_split / powm_split_ct); ct: the constant-time kernels. The context is
// built in the scratch (powm_any_itch(n, en, ct) limbs). rp may equal bp (not ep).
size_t powm_any_itch(size_t n, size_t en, bool ct);
void powm_any(limb *rp, const limb *bp, const limb *ep, size_t en, const limb *mp, size_t n, bool ct,
              limb *scratch);

// ============================ exponentiation (odd m) =====================================

// Sliding-window width used for an exponent of `ebits` bits (1..7).
unsigned powm_window(size_t ebits);
// Scratch limbs for powm with an exponent of at most en limbs (the table of 2^(w-1) powers,
// w = powm_window(64*en), plus temporaries).
size_t powm_itch(size_t n, size_t en);
// cpu/mpn/powm/powm_mont.cpp: rp = b^e mod m, fully reduced (0 <= rp < m). Variable time.
//   bp: n limbs, any value (b < R; b >= m is fine). ep: en >= 0 limbs (leading zero limbs
//   allowed; e == 0 or en == 0 gives 1 mod m). rp: n limbs, may equal bp (not ep).
//   scratch: powm_itch(n, en) limbs.
void powm(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch);

// Scratch for powm_ct: 32 table entries of n limbs plus temporaries (independent of en).
size_t powm_ct_itch(size_t n);
// cpu/mpn/powm/powm_ct.cpp: constant-time rp = b^e mod m (fully reduced). The exponent is processed as
// exactly 64*en bits in fixed 5-bit windows (pass en >= n limbs, zero-padded, so that only the
// modulus size is revealed); table lookups read every entry with masks; no branch or memory
// index depends on b or e (squarings by mont_sqr_ct, multiplications by mont_mul_ct). Same
// argument rules as powm; scratch: powm_ct_itch(n) limbs.
void powm_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch);
// The same over the low ebits <= 64*en bits of e only: rp = b^(e mod 2^ebits) mod m, for
// exponents whose public length bound is not a multiple of 64 (a DH group's private length,
// e.g. 225 bits): ceil(ebits/5) windows instead of ceil(64*en/5). Reveals ebits, nothing else.
void powm_ct_bits(limb *rp, const limb *bp, const limb *ep, size_t en, size_t ebits, const MontCtx &ctx,
                  limb *scratch);
// cpu/mpn/powm/powm2_ct.cpp: constant-time rp = 2^(e mod 2^ebits) mod m (fully reduced) for a
// secret e (DH keygen with g = 2): one squaring, a reduction below m and a masked doubling per
// exponent bit, no table (~1.3x faster than powm_ct with base 2 for 225-bit exponents).
// Branches and memory addresses depend on n and ebits only. ep: en limbs, ebits <= 64*en.
// rp: n limbs, must not overlap ep. scratch: powm2_ct_itch(n) limbs.
size_t powm2_ct_itch(size_t n);
void powm2_ct(limb *rp, const limb *ep, size_t en, size_t ebits, const MontCtx &ctx, limb *scratch);
// cpu/mpn/powm/powm_pubexp_ct.cpp: rp = b^e mod m (fully reduced) for a PUBLIC exponent and a
// secret base (the check of an RSA result with e): powm's sliding windows, whose branches and
// table indices depend on e only, over mont_sqr_ct / mont_mul_ct, so nothing depends on b.
// Same argument rules as powm; scratch: powm_pubexp_ct_itch(n, en) limbs.
size_t powm_pubexp_ct_itch(size_t n, size_t en);
void powm_pubexp_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const MontCtx &ctx, limb *scratch);

// ================= exponentiation modulo 2^s and the even-modulus split ===================
// Values modulo 2^s (s >= 1) have sn = ceil(s/64) limbs.

// cpu/mpn/powm/powm_2k.cpp: the exponent cut to s+1 bits, e' = (e mod 2^s) + 2^s*[e >= 2^s], which
// gives b^e' = b^e (mod 2^s) for EVERY b (odd b: the group order divides 2^s; even b: b^k = 0
// for all k >= s). rp: pow2_exp_limbs(s) = s/64 + 1 limbs. Branch free (constant time).
size_t pow2_exp_limbs(size_t s);
void pow2_exp_reduce(limb *rp, const limb *ep, size_t en, size_t s);
// cpu/mpn/powm/powm_2k.cpp: rp = b^e mod 2^s, variable time (sliding windows over e', short products,
// no reduction). bp: sn limbs (bits from s up are ignored); ep: en >= 0 limbs (e = 0 gives 1).
// rp: sn limbs, fully reduced, may equal bp (not ep). scratch: powm_2k_itch(s) limbs.
size_t powm_2k_itch(size_t s);
void powm_2k(limb *rp, const limb *bp, const limb *ep, size_t en, size_t s, limb *scratch);
// cpu/mpn/powm/powm_2k_ct.cpp: the same in constant time: fixed 5-bit windows over all
// 64*pow2_exp_limbs(s) bits of e', masked table reads, no branch or index on b or e
// (only s and en are revealed). scratch: powm_2k_ct_itch(s) limbs, wiped.
size_t powm_2k_ct_itch(size_t s);
void powm_2k_ct(limb *rp, const limb *bp, const limb *ep, size_t en, size_t s, limb *scratch);
// cpu/mpn/mod/binvert_2k.cpp: rp = q^-1 mod 2^s (sn limbs) for an odd q of qn >= 1 limbs, Newton
// iteration on short products. rp does not overlap qp. scratch: binvert_2k_itch(s) limbs.
size_t binvert_2k_itch(size_t s);
void binvert_2k(limb *rp, const limb *qp, size_t qn, size_t s, limb *scratch);

// cpu/mpn/powm/powm_split.cpp: an even modulus m = 2^s * q (q odd) of mn limbs (m[mn-1] != 0, m > 1).
// All pointers refer into the caller's storage block (split_ctx_itch(mn) limbs, must outlive
// the context, must not overlap m).
struct SplitCtx {
  size_t mn = 0;              // limbs of m
  size_t s = 0;               // trailing zero bits of m (>= 1)
  size_t sn = 0;              // ceil(s/64)
  const limb *q = nullptr;    // the odd part, qn limbs, normalized
  size_t qn = 0;
  bool q_one = false;         // q == 1 (m is a power of two): no odd part
  MontCtx mc;                 // Montgomery context of q (unset when q_one)
  const limb *qinv = nullptr; // q^-1 mod 2^s, sn limbs
  const limb *rl = nullptr;   // R^(L+1) mod q, R = 2^(64 qn): for split_reduce_base
  size_t L = 0;               // qn-limb chunks covering mn limbs
};
size_t split_ctx_itch(size_t mn);
void split_ctx_init(SplitCtx &ctx, const limb *m, size_t mn, limb *storage);
// rp (qn limbs) = b mod q, fully reduced, for b of mn limbs (any value < 2^(64 mn)); constant
// time (Montgomery reductions of the qn-limb chunks, no division). Not for q_one.
// scratch: split_reduce_base_itch(mn) limbs.
size_t split_reduce_base_itch(size_t mn);
void split_reduce_base(limb *rp, const limb *bp, const SplitCtx &ctx, limb *scratch);
// CRT: rp (mn limbs) = x1 + q*(((x2 - x1) * q^-1) mod 2^s), the x < m with x = x1 (mod q) and
// x = x2 (mod 2^s). x1: qn limbs < q (ignored when q_one); x2: sn limbs < 2^s. Constant time
// (fixed operand lengths: schoolbook and short products, masked top limb). rp overlaps
// neither input nor scratch. scratch: split_crt_itch(mn) limbs.
size_t split_crt_itch(size_t mn);
void split_crt(limb *rp, const limb *x1, const limb *x2, const SplitCtx &ctx, limb *scratch);
// One whole exponentiation rp = b^e mod m (mn limbs, fully reduced) for b < 2^(64 mn):
// powm_2k + split_reduce_base + powm on q + split_crt (powm_split, variable time), or the
// constant-time counterparts (powm_split_ct: powm_2k_ct, powm_ct, scratch wiped). rp may
// equal bp (not ep). scratch: powm_split_itch(mn, en) / powm_split_ct_itch(mn) limbs.
size_t powm_split_itch(size_t mn, size_t en);
void powm_split(limb *rp, const limb *bp, const limb *ep, size_t en, const SplitCtx &ctx, limb *scratch);
size_t powm_split_ct_itch(size_t mn);
void powm_split_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const SplitCtx &ctx, limb *scratch);

// Scratch for powm_barrett with an exponent of at most en limbs.
size_t powm_barrett_itch(size_t n, size_t en);
// cpu/mpn/powm/powm_barrett.cpp: rp = b^e mod m for any m (intended for even m), fully reduced.
// bp: n limbs, must be < m. Otherwise as powm.
void powm_barrett(limb *rp, const limb *bp, const limb *ep, size_t en, const BarrettCtx &ctx,
                  limb *scratch);
// Scratch for powm_barrett_ct (independent of en).
size_t powm_barrett_ct_itch(size_t n);
// cpu/mpn/powm/powm_barrett_ct.cpp: constant-time rp = b^e mod m for any m > 1 (the even-modulus
// counterpart of powm_ct): fixed 5-bit windows over exactly 64*en bits, masked table reads,
// schoolbook products and squares (never Karatsuba), barrett_reduce_ct. bp < m (n limbs).
void powm_barrett_ct(limb *rp, const limb *bp, const limb *ep, size_t en, const BarrettCtx &ctx,
                     limb *scratch);

} // namespace mpn
} // namespace mpb
