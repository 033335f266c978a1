// tests/support/forced_thresholds.h: force the integer multiplication cut-offs for one scope
// (cpu/mpn/tuning.h's runtime copy), so that Comba / Karatsuba run at sizes where they
// otherwise would not; the compiled defaults come back when the scope ends.
#pragma once
#include "mpn/tuning.h"

namespace mpbt {

struct ForcedMulThresholds {
  // Comba up to `comba_max` limbs, Karatsuba from `karatsuba` limbs (mul and sqr alike).
  ForcedMulThresholds(int comba_max, int karatsuba) {
    auto &p = mpb::tuning::params();
    p.mul_comba_max = p.sqr_comba_max = comba_max;
    p.mul_karatsuba = p.sqr_karatsuba = karatsuba;
  }
  ~ForcedMulThresholds() { mpb::tuning::reset_params(); }
  ForcedMulThresholds(const ForcedMulThresholds &) = delete;
  ForcedMulThresholds &operator=(const ForcedMulThresholds &) = delete;
};

} // namespace mpbt
