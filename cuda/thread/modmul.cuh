// cuda/thread/modmul.cuh: per-thread modular multiplication r = a*b mod n on N 32-bit words
// (host + device), for the small widths of the batch modmul kernel (one thread per item):
// t = mont_mul(a, b) = a*b/R, r = mont_mul(t, R^2 mod n) = a*b mod n, R = 2^(32N).
// n odd (any size below R: narrower moduli are zero padded), a, b < n.
#pragma once
#include "powm.cuh"

namespace mpb {
namespace gpu {

template <int N>
MPB_GHD void modmul_item(uint32_t *r, const uint32_t *a, const uint32_t *b, const ModCtx<N> &m) {
  uint32_t t[N];
  mont_mul<N>(t, a, RegWords{b}, m.n, m.ninv);
  mont_mul<N>(r, t, RegWords{m.r2}, m.n, m.ninv);
}

} // namespace gpu
} // namespace mpb
