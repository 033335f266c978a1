// cpu/gf2x/tuning.h: the GF(2)[x] multiplication cut-offs (limbs of 64 bits). One line per
// constant: value | where and when it was measured (bench_gf2x --params sweeps, docs/TUNING.md).
#pragma once
#include <cstddef>

namespace mpb {
namespace tuning {

constexpr int GF2X_MUL_KARA_CUTOFF = 48;  // Karatsuba from n limbs (below: VPCLMUL product scanning) | AMD EPYC Zen 4 2 vCPU VPCLMULQDQ, gcc 12.2, 2026-11-21, bench_gf2x --only mpb_mul --params sweep
constexpr int GF2X_MUL_TOOM3_CUTOFF = 250;  // Toom-3 from n limbs | AMD EPYC Zen 4 2 vCPU VPCLMULQDQ, gcc 12.2, 2026-11-21, bench_gf2x --only mpb_mul --params sweep
constexpr int GF2X_MUL_TOOM4_CUTOFF = 400;  // Toom-4 from n limbs | AMD EPYC Zen 4 2 vCPU VPCLMULQDQ, gcc 12.2, 2026-11-21, bench_gf2x --only mpb_mul --params sweep
static_assert(GF2X_MUL_KARA_CUTOFF >= 2 && GF2X_MUL_TOOM3_CUTOFF >= 3 && GF2X_MUL_TOOM4_CUTOFF >= 4,
              "gf2x cut-offs below the algorithms' minimum sizes");

// Runtime copy of the cut-offs: the library reads these; the tuner and the tests may override
// them to force an algorithm (reset_gf2x_params: back to the compiled defaults).
struct Gf2xParams {
  int kara = GF2X_MUL_KARA_CUTOFF, toom3 = GF2X_MUL_TOOM3_CUTOFF, toom4 = GF2X_MUL_TOOM4_CUTOFF;
};
inline Gf2xParams &gf2x_params() {
  static Gf2xParams live;
  return live;
}
inline void reset_gf2x_params() { gf2x_params() = Gf2xParams(); }

} // namespace tuning
} // namespace mpb
