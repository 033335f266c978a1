// cpu/bn/bn_internal.h: helpers shared by the mp_int implementation files (cpu/bn/*.cpp).
#pragma once
#include <mpbatch/bn.h>

#include "core/memory.h"
#include "mpn/mpn.h"

namespace mpb {
namespace bn {

// Largest digit count an mp_int may reach (2^24 digits = 2^30 bits); beyond it -> MP_MEM.
constexpr int MAX_DIGITS = 1 << 24;

// Ensure a->alloc >= size, keeping the value. MP_OKAY or MP_MEM (a unchanged on failure).
int grow(mp_int *a, int size);
// Drop leading zero digits; zero gets sign MP_ZPOS.
inline void clamp(mp_int *a) {
  while (a->used > 0 && a->dp[a->used - 1] == 0) --a->used;
  if (a->used == 0) a->sign = MP_ZPOS;
}
inline mpn::limb *dp(mp_int *a) { return a->dp; }
inline size_t used(const mp_int *a) { return (size_t)a->used; }

// A temporary mp_int that clears itself; check ok() (init succeeded) before use.
class Temp {
 public:
  Temp() { ok_ = mpb_mp_init(&v_) == MP_OKAY; }
  explicit Temp(int size) { ok_ = mpb_mp_init_size(&v_, size < 1 ? 1 : size) == MP_OKAY; }
  ~Temp() { if (ok_) mpb_mp_clear(&v_); }
  Temp(const Temp &) = delete;
  Temp &operator=(const Temp &) = delete;
  bool ok() const { return ok_; }
  mp_int *operator&() { return &v_; }
  mp_int *get() { return &v_; }
 private:
  mp_int v_;
  bool ok_;
};

} // namespace bn
} // namespace mpb
