// cpu/gf2x/mul/gf2x_mul.h: GF(2)[x] multiplication on raw limb arrays (the "mpn" layer of gf2x).
//
// Representation: little-endian arrays of 64-bit limbs; bit i of the array (bit i%64 of
// limb i/64) is the coefficient of x^i. Operands need not be normalized (high zero limbs
// are allowed and simply multiply as zeros).
//
// Rules for every multiplication below (unless stated otherwise):
//  - c = a * b, c has exactly an + bn limbs, all of them written;
//  - an >= 1 and bn >= 1 (the dispatcher `mul` also accepts 0: then c is zeroed);
//  - an and bn may be in either order (an < bn is fine);
//  - c must not overlap a or b (a and b may be the same array);
//  - caller storage only: an algorithm that needs scratch takes `scratch` of at least
//    `<name>_itch(an, bn)` limbs; nothing here allocates.
// One algorithm per file: cpu/gf2x/mul/mul_<name>.cpp, sqr.cpp; the dispatcher mul.cpp.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mpb {
namespace gf2x {

using limb = uint64_t;

// ---- reference-grade quadratic methods (seed 002) --------------------------------------
// cpu/gf2x/mul/mul_shift_add.cpp: bit-by-bit shift-and-add (the seed's MP_ShiftAndAddMul without
// the reduction). O(64 an bn). Needs no scratch beyond a stack limb.
void mul_shift_add(limb *c, const limb *a, size_t an, const limb *b, size_t bn);

// cpu/gf2x/mul/mul_comb.cpp: right-to-left comb (Hankerson et al. Alg. 2.33) and left-to-right
// comb (Alg. 2.34). Scratch: mul_comb_itch(an, bn) limbs (a shifted copy of b).
size_t mul_comb_itch(size_t an, size_t bn);
void mul_comb_rtl(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch);
void mul_comb_ltr(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch);

// cpu/gf2x/mul/mul_comb_w.cpp: left-to-right comb with windows of w bits (Alg. 2.36),
// w in {1, 2, 4, 8} (other values: treated as 4). The table of the 2^w products u(x)*b(x)
// lives in scratch: mul_comb_ltr_w_itch(an, bn, w) = 2^w * (bn + 1) limbs.
size_t mul_comb_ltr_w_itch(size_t an, size_t bn, unsigned w);
void mul_comb_ltr_w(limb *c, const limb *a, size_t an, const limb *b, size_t bn, unsigned w,
                    limb *scratch);

// ---- carry-less base cases (cpu/gf2x/mul/mul_clmul.cpp) -----------------------------------
// 64x64 -> 128 carry-less product: lo/hi limbs. Uses PCLMULQDQ when the CPU has it (and the
// selected path allows), else a windowed software multiply.
void mul_1x1(limb *lo, limb *hi, limb a, limb b);
// Schoolbook product on the hardware carry-less multiplier (any an, bn >= 1); portable
// fallback: windowed software 64x64 products. No scratch.
void mul_clmul(limb *c, const limb *a, size_t an, const limb *b, size_t bn);
// Unrolled n x n base cases, 1 <= n <= 9: c (2n limbs) = a (n limbs) * b (n limbs).
constexpr size_t BASECASE_MAX = 9;
void mul_basecase_n(limb *c, const limb *a, const limb *b, size_t n);

// Which carry-less kernel set the library uses. `Auto` = the best the CPU supports
// (VPCLMULQDQ/AVX-512 > PCLMULQDQ > portable). Tests force each path in turn.
enum class ClmulPath { Auto = 0, Portable = 1, Pclmul = 2, Vpclmul = 3 };
// Select a path; returns false (and changes nothing) when the CPU lacks it. Not thread-safe:
// call before starting threads (tests, benchmarks).
bool set_clmul_path(ClmulPath p);
ClmulPath clmul_path();             // the path in use now (never Auto)
bool cpu_has_clmul_path(ClmulPath p);

// ---- squaring (cpu/gf2x/mul/sqr.cpp) -------------------------------------------------------
// c (2n limbs) = a^2 (n >= 1) by bit spreading (PCLMUL, BMI2 PDEP or a byte table).
// c may equal a (in-place squaring) but must not otherwise overlap it.
void sqr(limb *c, const limb *a, size_t n);

// ---- sub-quadratic methods --------------------------------------------------------------
// Each splits the operands and multiplies the pieces with the dispatcher `mul` (which falls
// to the base cases below the cut-offs of mpb::tuning::params()). Sizes below an algorithm's
// minimum (Karatsuba n < 2, Toom-3 n < 3, Toom-4 n < 4 limbs) go straight to `mul`.
// Unbalanced operands (max >= 2 min) are cut into min-sized slices by the dispatcher; the
// algorithms themselves accept any sizes (missing pieces of the shorter operand are zero).
// Scratch: the `_itch` sizes below (they cover the whole recursion).

// cpu/gf2x/mul/mul_karatsuba.cpp: Karatsuba, 2 pieces, 3 products.
size_t mul_karatsuba_itch(size_t an, size_t bn);
void mul_karatsuba(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch);

// cpu/gf2x/mul/mul_toom3.cpp: Toom-3 (Bodrato), points 0, 1, x, 1+x, inf; 5 products.
size_t mul_toom3_itch(size_t an, size_t bn);
void mul_toom3(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch);

// cpu/gf2x/mul/mul_toom4.cpp: Toom-4, points 0, 1, x, 1+x, 1/x, 1/(1+x), inf; 7 products.
size_t mul_toom4_itch(size_t an, size_t bn);
void mul_toom4(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch);

// Exact divisions used by the Toom interpolations (in place, n limbs; the divisor must
// divide p exactly, else the result is meaningless). cpu/gf2x/mul/mul_toom3.cpp.
void divexact_1px(limb *p, size_t n);       // p /= (1 + x)
void divexact_xpx4(limb *p, size_t n);      // p /= (x + x^4)
void divexact_x2px4(limb *p, size_t n);     // p /= (x^2 + x^4)

// ---- the dispatcher (cpu/gf2x/mul/mul.cpp) --------------------------------------------------
// c = a * b for any an, bn >= 0 (0 gives c = 0 on an+bn limbs). Picks the fastest method by
// size: unrolled 1..9-limb base cases, the clmul schoolbook, then Karatsuba / Toom-3 /
// Toom-4 by the cut-offs in mpb::tuning::params() (cpu/gf2x/tuning.h); unbalanced
// sizes by slicing. scratch: at least mul_itch(an, bn) limbs (valid for any cut-off values).
size_t mul_itch(size_t an, size_t bn);
void mul(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch);

} // namespace gf2x
} // namespace mpb
