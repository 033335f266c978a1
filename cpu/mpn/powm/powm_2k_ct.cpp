// Constant-time exponentiation modulo 2^s: rp = b^e mod 2^s for a secret b and e. The
// exponent is cut to s+1 bits without branches (pow2_exp_reduce, cpu/mpn/powm/powm_2k.cpp), then the
// fixed-window loop of powm_ct (cpu/mpn/powm/powm_ct_loop.h: fixed 5-bit windows over those
// s+1 bits, every table entry read with masks) runs with low-half products
// (mullo_basecase, whose control flow depends only on the size). Branches and memory
// addresses depend only on s and en.
#include "core/memory.h"
#include "mpn/powm/powm_ct_loop.h"

namespace mpb {
namespace mpn {

size_t powm_2k_ct_itch(size_t s) {
  const size_t sn = (s + 63) / 64;
  return pow2_exp_limbs(s) + sn + ct_loop::itch(sn);
}

namespace {
struct LowOps {
  size_t n;
  limb topmask;
  limb *t;  // n limbs
  void one(limb *x) {
    zero(x, n);
    x[0] = 1;
  }
  void to(limb *x, const limb *b) { copy(x, b, n); }
  void mul(limb *r, const limb *a, const limb *b) {
    mullo_basecase(t, a, b, n);
    copy(r, t, n);
  }
  void sqr(limb *r, const limb *a) {
    mullo_basecase(t, a, a, n);
    copy(r, t, n);
  }
  void from(limb *r, const limb *x) {
    copy(r, x, n);
    r[n - 1] &= topmask;
  }
};
} // namespace

void powm_2k_ct(limb *rp, const limb *bp, const limb *ep, size_t en, size_t s, limb *scratch) {
  MPB_ASSERT(s >= 1);
  const size_t sn = (s + 63) / 64, ec = pow2_exp_limbs(s);
  limb *e2 = scratch, *t = e2 + ec, *loop = t + sn;
  pow2_exp_reduce(e2, ep, en, s);
  LowOps op{sn, (s % 64) ? ((limb)1 << (s % 64)) - 1 : ~(limb)0, t};
  ct_loop::run(rp, bp, e2, ec, s + 1, sn, op, loop);
  secure_zero(scratch, (ec + sn) * sizeof(limb));
}

} // namespace mpn
} // namespace mpb
