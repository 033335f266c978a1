// cpu/mpn/tuning.h: the mpn layer's cut-offs: integer multiplication and squaring (limbs of 64
// bits) and the sliding-window widths of the exponentiations. One line per constant: value |
// where and when it was measured. `build/bench/tune --int` measures the multiplication cut-offs
// again and rewrites their lines; how each value was chosen: docs/TUNING.md.
#pragma once
#include <cstddef>

namespace mpb {
namespace tuning {

constexpr int MUL_COMBA_MAX = 16;  // Comba up to n limbs (portable path; MULX/ADX takes its row kernels) | AMD EPYC Zen 4 2 vCPU, gcc 12.2, 2026-11-21, tune --int x4 (699b06a, af94399)
constexpr int SQR_COMBA_MAX = 24;  // Comba squaring up to n limbs (portable path; MULX/ADX takes its row kernels) | AMD EPYC Zen 4 2 vCPU, gcc 12.2, 2026-11-21, forced sweep 16..80 vs GMP mpn_sqr, tune --int (9d3ffff)
constexpr int MUL_KARATSUBA_CUTOFF = 26;  // Karatsuba from n limbs | AMD EPYC Zen 3 2 vCPU (MULX/ADX row kernels), gcc 12.2, 2026-11-27, interleaved sweep 22..36, min of 35 runs per point; tune --int x3 printed 25..32 (cb69075)
constexpr int SQR_KARATSUBA_CUTOFF = 30;  // Karatsuba squaring from n limbs | AMD EPYC Zen 3 2 vCPU (MULX/ADX row kernels), gcc 12.2, 2026-11-27, interleaved sweep 22..36, min of 35 runs per point; tune --int x3 printed 25..32 (cb69075)
constexpr int SQR_KARATSUBA_CT_CUTOFF = 30;  // constant-time Karatsuba squaring (powm_ct) from n limbs | AMD EPYC Zen 3 2 vCPU (MULX/ADX row kernels), gcc 12.2, 2026-11-27, interleaved sweep 22..36, min of 35 runs per point; tune --int x3 printed 25..32 (cb69075)
constexpr int MONT_MUL_COLS_MIN = 17;  // portable Montgomery multiplication in one pass of columns (mont_cols.cpp) from n limbs; below, the Comba product + column REDC | AMD EPYC Zen 5 2 vCPU, gcc 12.2, 2026-11-29: alone (MPBATCH_CPU_DISABLE=all bench_mul --mont, both forms in one build) the columns are 8-14% faster from 9 limbs (14% slower at 8), but in the exponentiation beside the unrolled squares of <= 16 limbs they lost (ab_libs powm --ct at 768 / 1024 bits 0.95 / 0.94); from 17 limbs they gain there (RSA-3072 +7%, RSA-4096 +1%)
constexpr int MONT_SQR_COLS_MIN = 17;  // portable Montgomery squaring in one pass of columns from n limbs up to the Karatsuba cut-offs (mont_sqr_ct, mont_sqr); below, the unrolled Comba square + column REDC | AMD EPYC Zen 5 2 vCPU, gcc 12.2, 2026-11-29, the same sweep: columns 5-10% faster at 17..29, 5-10% slower at 9..16 (unrolled squares), 3-4% slower than Karatsuba at 30 and 32; at 16 with the products too, RSA-2048 0.98-1.00 (ab_libs)
constexpr int POWM_W1_MAXBITS = 7;  // sliding window 1 bit up to e bits (then 3) | set 2026-11-21 with the table, not measured on its own
constexpr int POWM_W3_MAXBITS = 36;  // window 3 up to e bits | set 2026-11-21 with the table, not measured on its own
constexpr int POWM_W4_MAXBITS = 140;  // window 4 up to e bits | set 2026-11-21 with the table, not measured on its own
constexpr int POWM_W5_MAXBITS = 450;  // window 5 up to e bits | set 2026-11-21 with the table, not measured on its own
constexpr int POWM_W6_MAXBITS = 3529;  // window 6 up to e bits (then 7) | AMD EPYC Zen 4 2 vCPU, gcc 12.2, 2026-11-21, mpn::powm w = 4..8 forced at 1024..4096 bits: 6 and 7 within noise

// Runtime copy of the multiplication cut-offs: the library reads these; the tuner and the tests
// may override them to force an algorithm (reset_params: back to the compiled defaults).
struct Params {
  int mul_comba_max = MUL_COMBA_MAX;
  int sqr_comba_max = SQR_COMBA_MAX;
  int mul_karatsuba = MUL_KARATSUBA_CUTOFF;
  int sqr_karatsuba = SQR_KARATSUBA_CUTOFF;
  int sqr_karatsuba_ct = SQR_KARATSUBA_CT_CUTOFF;
  int mont_mul_cols_min = MONT_MUL_COLS_MIN;
  int mont_sqr_cols_min = MONT_SQR_COLS_MIN;
};
inline Params &params() {
  static Params live;
  return live;
}
inline void reset_params() { params() = Params(); }

} // namespace tuning
} // namespace mpb
