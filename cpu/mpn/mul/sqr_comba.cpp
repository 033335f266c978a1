// Delayed-carry Comba squaring.  Column k of a^2 is 2 * sum_{i<j, i+j=k} a_i a_j plus a_{k/2}^2
// when k is even.  The off-diagonal products are summed once into the two 128-bit
// accumulators (low halves in L, high halves in H, see cpu/mpn/mul/mul_comba.cpp), both are doubled
// (they stay below n * 2^65), the diagonal square is added, and the carries are resolved once
// per column.
#include "core/unroll.h"
#include "mpn/mul/mul_internal.h"

#include <array>
#include <utility>

namespace mpb {
namespace mpn {
namespace kern {
namespace {

template <size_t N>
__attribute__((noinline)) void comba_sqr_fixed(limb *__restrict rp, const limb *__restrict ap) {
  limb a[N];
  MPB_UNROLL(64) for (size_t i = 0; i < N; i++) a[i] = ap[i];
  dlimb carry = 0;
  MPB_UNROLL(64) for (size_t k = 0; k < 2 * N - 1; k++) {
    dlimb L = 0, H = 0;
    const size_t lo = k < N ? 0 : k - N + 1;
    MPB_UNROLL(64) for (size_t i = lo; 2 * i < k; i++) {
      dlimb p = (dlimb)a[i] * a[k - i];
      L += (limb)p;
      H += (limb)(p >> 64);
    }
    L += L;
    H += H;
    if (k % 2 == 0) {
      dlimb d = (dlimb)a[k / 2] * a[k / 2];
      L += (limb)d;
      H += (limb)(d >> 64);
    }
    L += carry;
    rp[k] = (limb)L;
    carry = (L >> 64) + H;
  }
  rp[2 * N - 1] = (limb)carry;
}

using FixedFn = void (*)(limb *, const limb *);
template <size_t... I>
constexpr auto make_table(std::index_sequence<I...>) {
  return std::array<FixedFn, sizeof...(I)>{&comba_sqr_fixed<I + 1>...};
}
const auto kFixed = make_table(std::make_index_sequence<COMBA_FIXED_MAX>{});

} // namespace

void sqr_comba_fixed(limb *rp, const limb *ap, size_t n) {
  MPB_ASSERT(n >= 1 && n <= COMBA_FIXED_MAX);
  kFixed[n - 1](rp, ap);
}

void sqr_comba_loop(limb *rp, const limb *ap, size_t n) {
  MPB_ASSERT(n >= 1);
  dlimb carry = 0;
  for (size_t k = 0; k + 1 < 2 * n; k++) {
    dlimb L = 0, H = 0;
    const size_t lo = k < n ? 0 : k - n + 1;
    for (size_t i = lo; 2 * i < k; i++) {
      dlimb p = (dlimb)ap[i] * ap[k - i];
      L += (limb)p;
      H += (limb)(p >> 64);
    }
    L += L;
    H += H;
    if (k % 2 == 0) {
      dlimb d = (dlimb)ap[k / 2] * ap[k / 2];
      L += (limb)d;
      H += (limb)(d >> 64);
    }
    L += carry;
    rp[k] = (limb)L;
    carry = (L >> 64) + H;
  }
  rp[2 * n - 1] = (limb)carry;
}

} // namespace kern

void sqr_comba(limb *rp, const limb *ap, size_t n) {
  MPB_ASSERT(n >= 1);
  MPB_ASSERT(!overlap(rp, 2 * n, ap, n));
  if (n <= kern::COMBA_FIXED_MAX)
    kern::sqr_comba_fixed(rp, ap, n);
  else
    kern::sqr_comba_loop(rp, ap, n);
}

} // namespace mpn
} // namespace mpb
