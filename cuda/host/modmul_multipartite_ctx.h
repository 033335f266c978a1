// cuda/host/modmul_multipartite_ctx.h: host precomputation of the item contexts of the multipartite block
// kernel (cuda/block/modmul_multipartite.cuh): scaled modulus P' = d*P, mu = -P'^-1 mod beta^h,
// nu = floor(beta^(n+t_nu)/P'), C = beta^(2h) mod P', P and the one-word estimate constants.
// Plain C++ on the library's mpn layer (no CUDA), so the host tests build the very same contexts.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "mpn/mpn.h"
#include "cuda/block/modmul_multipartite.cuh"

namespace mpb {
namespace gpu {
namespace mp {

// 32-bit words of the modulus m (w limbs): its normalized size.
inline int modulus_words(const uint64_t *m, size_t w) {
  size_t nl = mpn::normalized_size(m, w);
  if (nl == 0) return 0;
  return (int)(2 * nl - ((m[nl - 1] >> 32) == 0 ? 1 : 0));
}

// k actually used for an n-word modulus when `k` is asked for: parts of at least 4 words, and
// k >= 2 (with k = 1 there is no high group: nothing would reduce the top of the product).
inline int effective_k(int n, int k) {
  int kmax = n / 4 > 2 ? n / 4 : 2;
  if (k > kmax) k = kmax;
  return k < 2 ? 2 : k;
}

// Context words for moduli of at most nmax words.
inline size_t ctx_stride(int nmax, int k) { return (size_t)ctx_words(nmax, k < 2 ? 2 : k); }

namespace detail {
// q = floor(2^bit / D), r = 2^bit mod D (D: dl limbs, normalized); q gets ql limbs (truncated).
inline void pow2_divmod(uint64_t *q, size_t ql, uint64_t *r, size_t bit, const uint64_t *D, size_t dl) {
  const size_t qn = mpn::pow2_divrem_qn(bit, dl);
  std::vector<uint64_t> qq(qn), rr(dl), scr(mpn::pow2_divrem_itch(bit, dl));
  mpn::pow2_divrem(qq.data(), rr.data(), bit, D, dl, scr.data());
  if (q) {
    std::memset(q, 0, ql * 8);
    std::memcpy(q, qq.data(), 8 * (qn < ql ? qn : ql));
  }
  if (r) std::memcpy(r, rr.data(), dl * 8);
}
inline void put_words(uint32_t *dst, const uint64_t *src, int words) {
  for (int i = 0; i < words; i++) dst[i] = (uint32_t)(src[i / 2] >> (32 * (i % 2)));
}
} // namespace detail

// Fills ctx (ctx_stride words) for modulus m (w limbs, odd, at least 8 words). Returns false
// when the modulus is too small for the block kernel.
inline bool make_ctx(uint32_t *ctx, const uint64_t *m, size_t w, int k_req) {
  const int n = modulus_words(m, w);
  if (n < 8 || (m[0] & 1) == 0) return false;
  const size_t nl = mpn::normalized_size(m, w);
  const int k = effective_k(n, k_req);
  Geo g;
  g.init(n, k);
  const int h = g.h, t_nu = g.t_nu();
  // d = largest odd number with d*P < beta^n (P >= beta^(n-1), so d < 2^32)
  const size_t numl = ((size_t)n + 1) / 2;
  std::vector<uint64_t> num(numl, ~(uint64_t)0), q(numl - nl + 1), scr(mpn::tdiv_qr_itch(numl, nl) + 8);
  if (n % 2) num[numl - 1] = 0xFFFFFFFFull;
  mpn::tdiv_qr(q.data(), nullptr, num.data(), numl, m, nl, scr.data());
  uint64_t d = q[0];
  if ((d & 1) == 0) d -= 1;
  std::vector<uint64_t> pp(numl + 1, 0);
  pp[nl] = mpn::mul_1(pp.data(), m, nl, d);
  const size_t ppl = mpn::normalized_size(pp.data(), numl + 1);
  // mu = -P'^-1 mod 2^(64*hl)
  const size_t hl = ((size_t)h + 1) / 2;
  std::vector<uint64_t> mu(hl), R(hl, ~(uint64_t)0);
  uint64_t inv = pp[0];  // Newton: inverse of P'[0] mod 2^64
  for (int i = 0; i < 6; i++) inv *= 2 - pp[0] * inv;
  for (size_t i = 0; i < hl; i++) {
    uint64_t yi = R[i] * inv;
    mu[i] = yi;
    size_t len = hl - i < ppl ? hl - i : ppl;
    mpn::submul_1(R.data() + i, pp.data(), len, yi);
  }
  // nu = floor(beta^(n + t_nu) / P'), t_nu + 2 words
  std::vector<uint64_t> nu(((size_t)t_nu + 2 + 1) / 2 + 1, 0), C(ppl, 0);
  detail::pow2_divmod(nu.data(), nu.size(), nullptr, 32 * ((size_t)n + t_nu), pp.data(), ppl);
  detail::pow2_divmod(nullptr, 0, C.data(), 64 * (size_t)h, pp.data(), ppl);
  // the one-word estimate for the last reduction mod P
  size_t bits = 64 * nl - (size_t)__builtin_clzll(m[nl - 1]);
  size_t sh = bits - 32;
  uint64_t top = (m[sh / 64] >> (sh % 64));
  if (sh % 64 > 32 && sh / 64 + 1 < nl) top |= m[sh / 64 + 1] << (64 - sh % 64);
  std::memset(ctx, 0, ctx_words(n, k) * 4);
  ctx[0] = (uint32_t)n;
  ctx[1] = (uint32_t)k;
  ctx[2] = (uint32_t)d;
  ctx[3] = (uint32_t)t_nu;
  ctx[4] = (uint32_t)sh;
  ctx[5] = (uint32_t)top;
  ctx[6] = (uint32_t)n;
  uint32_t *p = ctx + kHdr;
  detail::put_words(p, pp.data(), n);
  p += n;
  detail::put_words(p, mu.data(), h);
  p += h;
  detail::put_words(p, nu.data(), t_nu + 2);
  p += t_nu + 2;
  detail::put_words(p, C.data(), n);
  p += n;
  detail::put_words(p, m, n);
  return true;
}

} // namespace mp
} // namespace gpu
} // namespace mpb
