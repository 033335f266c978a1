// Delayed-carry Comba multiplication (seed 003, carried from 32-bit to 64-bit digits).
//
// Column k of the product is the sum of a_i * b_j over i + j = k.  Instead of pushing every
// 128-bit product through a three-word carry chain (classic Comba, tests/ref/mul_comba_plain.cpp),
// the low halves of the products are summed into one 128-bit accumulator L and the high
// halves into another, H.  Each add is "add + adc 0" into its own accumulator, so the two
// chains are independent; the carries are resolved once per column:
//     L += carry_in;  r[k] = low64(L);  carry_out = high64(L) + H.
// Both accumulators stay below n * 2^64, far inside 128 bits for every n we use.
//
// mul_comba_fixed: fully unrolled code (template on n) for 1..16 limbs, which covers the NIST
// prime sizes 192/224/256/384/521 bits = 3/4/4/6/9 limbs.  mul_comba_loop: the same
// algorithm with run-time bounds, for any n.
#include "core/unroll.h"
#include "mpn/mul/mul_internal.h"

#include <array>
#include <utility>

namespace mpb {
namespace mpn {
namespace kern {
namespace {

template <size_t N>
__attribute__((always_inline)) inline void comba_mul_n(limb *__restrict rp, const limb *__restrict ap,
                                                       const limb *__restrict bp) {
  limb a[N], b[N];
  MPB_UNROLL(64) for (size_t i = 0; i < N; i++) {
    a[i] = ap[i];
    b[i] = bp[i];
  }
  dlimb carry = 0;
  MPB_UNROLL(64) for (size_t k = 0; k < 2 * N - 1; k++) {
    dlimb L = carry, H = 0;
    const size_t lo = k < N ? 0 : k - N + 1;
    const size_t hi = k < N ? k : N - 1;
    MPB_UNROLL(64) for (size_t i = lo; i <= hi; i++) {
      dlimb p = (dlimb)a[i] * b[k - i];
      L += (limb)p;
      H += (limb)(p >> 64);
    }
    rp[k] = (limb)L;
    carry = (L >> 64) + H;
  }
  rp[2 * N - 1] = (limb)carry;
}

template <size_t N>
__attribute__((noinline)) void comba_mul_fixed(limb *rp, const limb *ap, const limb *bp) {
  comba_mul_n<N>(rp, ap, bp);
}

using FixedFn = void (*)(limb *, const limb *, const limb *);
template <size_t... I>
constexpr auto make_table(std::index_sequence<I...>) {
  return std::array<FixedFn, sizeof...(I)>{&comba_mul_fixed<I + 1>...};
}

const auto kFixed = make_table(std::make_index_sequence<COMBA_FIXED_MAX>{});
}

void mul_comba_fixed(limb *rp, const limb *ap, const limb *bp, size_t n) {
  MPB_ASSERT(n >= 1 && n <= COMBA_FIXED_MAX);
  kFixed[n - 1](rp, ap, bp);
}

void mul_comba_loop(limb *rp, const limb *ap, const limb *bp, size_t n) {
  MPB_ASSERT(n >= 1);
  dlimb carry = 0;
  for (size_t k = 0; k + 1 < 2 * n; k++) {
    dlimb L = carry, H = 0;
    const size_t lo = k < n ? 0 : k - n + 1;
    const size_t hi = k < n ? k : n - 1;
    const limb *bq = bp + k;
    for (size_t i = lo; i <= hi; i++) {
      dlimb p = (dlimb)ap[i] * bq[-(ptrdiff_t)i];
      L += (limb)p;
      H += (limb)(p >> 64);
    }
    rp[k] = (limb)L;
    carry = (L >> 64) + H;
  }
  rp[2 * n - 1] = (limb)carry;
}

} // namespace kern

void mul_comba(limb *rp, const limb *ap, const limb *bp, size_t n) {
  MPB_ASSERT(n >= 1);
  MPB_ASSERT(!overlap(rp, 2 * n, ap, n) && !overlap(rp, 2 * n, bp, n));
  if (n <= kern::COMBA_FIXED_MAX)
    kern::mul_comba_fixed(rp, ap, bp, n);
  else
    kern::mul_comba_loop(rp, ap, bp, n);
}

} // namespace mpn
} // namespace mpb
