// cuda/host/modmul_any_ctx.h: host precomputation of AnyModCtx<N> (cuda/thread/modmul.cuh) for a
// modulus of any parity, m = 2^s * m_o: Montgomery constants of m_o, m_o^-1 mod 2^s and the
// mask 2^s - 1. Plain C++ on the library's mpn layer, shared by the host and the host tests.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "mpn/mpn.h"
#include "cuda/thread/modmul.cuh"
#include "cuda/host/modmul_multipartite_ctx.h"

namespace mpb {
namespace gpu {

// m: w limbs (w <= N/2), nonzero.
template <int N>
void make_any_ctx(AnyModCtx<N> &c, const uint64_t *m, size_t w) {
  constexpr size_t L = N / 2;
  std::memset(&c, 0, sizeof c);
  size_t nl = mpn::normalized_size(m, w);
  size_t s = 0;
  while (m[s / 64] == 0) s += 64;
  s += (size_t)__builtin_ctzll(m[s / 64]);
  // m_o = m >> s, L limbs
  std::vector<uint64_t> mo(L + 1, 0);
  size_t ls = s / 64, bs = s % 64;
  for (size_t i = 0; i + ls < nl; i++) {
    uint64_t lo = m[i + ls] >> bs;
    uint64_t hi = (bs && i + ls + 1 < nl) ? m[i + ls + 1] << (64 - bs) : 0;
    mo[i] = lo | hi;
  }
  size_t mol = mpn::normalized_size(mo.data(), L);
  // odd part: n, R^2 mod m_o, R mod m_o, -m_o^-1 mod 2^32 (R = 2^(32N) = 2^(64L))
  mp::detail::put_words(c.odd.n, mo.data(), N);
  std::vector<uint64_t> r(mol);
  mp::detail::pow2_divmod(nullptr, 0, r.data(), 128 * L, mo.data(), mol);
  mp::detail::put_words(c.odd.r2, r.data(), 2 * (int)mol);
  mp::detail::pow2_divmod(nullptr, 0, r.data(), 64 * L, mo.data(), mol);
  mp::detail::put_words(c.odd.one, r.data(), 2 * (int)mol);
  c.odd.ninv = mont_ninv32(c.odd.n[0]);
  c.odd.slide_w = 0;
  // m_o^-1 mod 2^(64L): x with R = 1 - m_o * x kept mod 2^(64L), limb by limb
  std::vector<uint64_t> x(L, 0), rem(L, 0);
  rem[0] = 1;
  uint64_t inv = mo[0];
  for (int i = 0; i < 6; i++) inv *= 2 - mo[0] * inv;
  for (size_t i = 0; i < L; i++) {
    uint64_t yi = rem[i] * inv;
    x[i] = yi;
    size_t len = L - i < mol ? L - i : mol;
    uint64_t borrow = mpn::submul_1(rem.data() + i, mo.data(), len, yi);
    for (size_t j = i + len; j < L; j++) {  // the borrow reaches the limbs above m_o's length
      uint64_t t = rem[j];
      rem[j] = t - borrow;
      borrow = t < borrow;
    }
  }
  for (int i = 0; i < N; i++) {
    size_t lo = 32 * (size_t)i;
    uint32_t mk = lo + 32 <= s ? 0xFFFFFFFFu : (lo < s ? (uint32_t)((1ull << (s - lo)) - 1) : 0u);
    c.mask[i] = mk;
    c.inv[i] = (uint32_t)(x[i / 2] >> (32 * (i % 2))) & mk;
  }
}

} // namespace gpu
} // namespace mpb
