// Classic Comba multiplication (the seed-003 "prototype"), kept as the comparison baseline
// for the delayed-carry version in cpu/mpn/mul/mul_comba.cpp.
//
// Column by column, every 128-bit product (u, v) goes through the three-word carry chain
//     r0 += v;  r1 += u + carry;  r2 += carry;
// and the column is emitted as r0, shifting (r0, r1, r2) <- (r1, r2, 0).  Written in
// portable C with the same loop structure (and the same unrolling for small n) as the
// delayed-carry version, so that the comparison measures the carry handling only.
#include "mpn/mul/mul_internal.h"
#include "ref/mpn_ref.h"

namespace mpb {
namespace ref {
using namespace mpn;
namespace {

using mpb::detail::addc;

#define MPB_UNROLL _Pragma("GCC unroll 64")

__attribute__((always_inline)) inline void mac3(limb &r0, limb &r1, limb &r2, limb a, limb b) {
  limb lo, hi = mpb::detail::mul_wide(a, b, &lo);
  limb c = addc(r0, lo, 0, &r0);
  c = addc(r1, hi, c, &r1);
  r2 += c;
}

template <size_t N>
__attribute__((noinline)) void plain_fixed(limb *__restrict rp, const limb *__restrict ap,
                                           const limb *__restrict bp) {
  limb a[N], b[N];
  MPB_UNROLL for (size_t i = 0; i < N; i++) {
    a[i] = ap[i];
    b[i] = bp[i];
  }
  limb r0 = 0, r1 = 0, r2 = 0;
  MPB_UNROLL for (size_t k = 0; k < 2 * N - 1; k++) {
    const size_t lo = k < N ? 0 : k - N + 1;
    const size_t hi = k < N ? k : N - 1;
    MPB_UNROLL for (size_t i = lo; i <= hi; i++) mac3(r0, r1, r2, a[i], b[k - i]);
    rp[k] = r0;
    r0 = r1;
    r1 = r2;
    r2 = 0;
  }
  rp[2 * N - 1] = r0;
}

void plain_loop(limb *rp, const limb *ap, const limb *bp, size_t n) {
  limb r0 = 0, r1 = 0, r2 = 0;
  for (size_t k = 0; k + 1 < 2 * n; k++) {
    const size_t lo = k < n ? 0 : k - n + 1;
    const size_t hi = k < n ? k : n - 1;
    for (size_t i = lo; i <= hi; i++) mac3(r0, r1, r2, ap[i], bp[k - i]);
    rp[k] = r0;
    r0 = r1;
    r1 = r2;
    r2 = 0;
  }
  rp[2 * n - 1] = r0;
}

} // namespace

void mul_comba_plain(limb *rp, const limb *ap, const limb *bp, size_t n) {
  MPB_ASSERT(n >= 1);
  MPB_ASSERT(!overlap(rp, 2 * n, ap, n) && !overlap(rp, 2 * n, bp, n));
  switch (n) {
    case 1: plain_fixed<1>(rp, ap, bp); return;
    case 2: plain_fixed<2>(rp, ap, bp); return;
    case 3: plain_fixed<3>(rp, ap, bp); return;
    case 4: plain_fixed<4>(rp, ap, bp); return;
    case 5: plain_fixed<5>(rp, ap, bp); return;
    case 6: plain_fixed<6>(rp, ap, bp); return;
    case 7: plain_fixed<7>(rp, ap, bp); return;
    case 8: plain_fixed<8>(rp, ap, bp); return;
    case 9: plain_fixed<9>(rp, ap, bp); return;
    default: plain_loop(rp, ap, bp, n); return;
  }
}

} // namespace ref
} // namespace mpb
