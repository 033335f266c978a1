// cpu/gf2x/tuning.h: the GF(2)[x] multiplication cut-offs.
// Each constant says where and when it was measured; `build/bench/tune` measures them again.
#pragma once
#include <cstddef>

namespace mpb {
namespace tuning {

/* ---- GF(2)[x] multiplication (limbs of 64 bits) ----------------------------------------
 * Machine: AMD EPYC (Zen 4, 2 vCPU, VPCLMULQDQ), gcc 12.2 -O3, 2026-11-21, VPCLMUL path.
 * Command: bench_gf2x --only mpb_mul --min-time 0.0005 --reps 40 --params K,T3,T4 --sizes ...
 * (sweeps of each cut-off, min of 12..40 runs; the box was shared, so crossovers are +-20%).
 * The product-scanning VPCLMUL schoolbook beats Karatsuba up to ~48 limbs; Toom-3 and
 * Toom-4 are within a few % of each other from 250 to 600 limbs, Toom-4 wins above. */
constexpr int GF2X_MUL_KARA_CUTOFF = 48;   /* Karatsuba at n >= this (below: unrolled/clmul base cases) */
constexpr int GF2X_MUL_TOOM3_CUTOFF = 250; /* Toom-3 at n >= this */
constexpr int GF2X_MUL_TOOM4_CUTOFF = 400; /* Toom-4 at n >= this */
static_assert(GF2X_MUL_KARA_CUTOFF >= 2 && GF2X_MUL_TOOM3_CUTOFF >= 3 && GF2X_MUL_TOOM4_CUTOFF >= 4,
              "gf2x cut-offs below the algorithms' minimum sizes");


/* Runtime copy of the cut-offs above (cpu/gf2x/tuning.cpp): the library reads these; the
 * tuner and the tests may override them to force an algorithm. */
struct Gf2xParams {
  int kara = GF2X_MUL_KARA_CUTOFF;
  int toom3 = GF2X_MUL_TOOM3_CUTOFF;
  int toom4 = GF2X_MUL_TOOM4_CUTOFF;
};
Gf2xParams &gf2x_params();     /* the live values */
void reset_gf2x_params();      /* back to the compiled defaults */

} // namespace tuning
} // namespace mpb
