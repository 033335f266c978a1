// cuda/host/barrett_ctx.h: host precomputation of the Barrett constants of the GPU's
// exponentiation for any modulus (cuda/thread/barrett.cuh) with the library's mpn layer. Plain
// C++ (no CUDA types): gpu_backend.cu uses it, tests/cuda/on_host/test_on_host_barrett.cpp checks it against GMP.
#pragma once
#include <algorithm>
#include <cstring>
#include <vector>

#include "mpn/mpn.h"
#include "cuda/thread/barrett.cuh"

namespace mpb {
namespace gpu {

// Barrett constants of a modulus m > 1 of N/2 limbs (cuda/thread/barrett.cuh): k = leading
// zero bits of m in 32N bits, m' = m << k, mu' = floor((2^(64N) - 1) / m') - 2^(32N), 2^k and
// 2^(32N-1-k).
template <int N>
void make_barrett_ctx(BarrettModCtx<N> &c, const uint64_t *m) {
  constexpr size_t w = N / 2;
  const size_t mn = mpn::normalized_size(m, w);
  const unsigned bits = (unsigned)__builtin_clzll(m[mn - 1]);
  const size_t k = 64 * (w - mn) + bits;
  uint64_t mp[w] = {0}, num[2 * w], q[w + 1], t[w];
  if (bits) mpn::lshift(mp + (w - mn), m, mn, bits);
  else std::memcpy(mp + (w - mn), m, mn * 8);
  std::fill(num, num + 2 * w, ~0ull);
  std::vector<uint64_t> scratch(mpn::tdiv_qr_itch(2 * w, w));
  mpn::tdiv_qr(q, t, num, 2 * w, mp, w, scratch.data());  // q = 2^(64w) + mu' (q[w] == 1)
  std::memcpy(c.m, mp, sizeof c.m);
  std::memcpy(c.mu, q, sizeof c.mu);
  std::fill(t, t + w, 0);
  t[k / 64] = 1ull << (k % 64);
  std::memcpy(c.p2k, t, sizeof c.p2k);
  std::fill(t, t + w, 0);
  const size_t kr = 64 * w - 1 - k;
  t[kr / 64] = 1ull << (kr % 64);
  std::memcpy(c.p2r, t, sizeof c.p2r);
}

} // namespace gpu
} // namespace mpb
