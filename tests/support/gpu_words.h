// tests/support/gpu_words.h: what the host-run GPU arithmetic tests share: 32-bit word
// vectors <-> GMP, hard/random words, and Montgomery contexts computed with GMP (independent
// of the library's own host precomputation in cuda/host/).
#pragma once
#include <cstring>
#include <random>
#include <vector>

#include "../../cuda/thread/powm.cuh"
#include "oracle.h"

namespace mpbt {

// The low n 32-bit words of |z|.
inline std::vector<uint32_t> words_of(const mpz_t z, size_t n) {
  auto l = limbs_of(z, (n + 1) / 2);
  std::vector<uint32_t> w(n);
  std::memcpy(w.data(), l.data(), n * 4);
  return w;
}
inline void from_words(mpz_t z, const uint32_t *w, size_t n) { mpz_import(z, n, -1, 4, 0, 0, w); }

// Hard or random words (all-ones limbs, zero limbs, bit runs, powers of two ...).
inline void random_words(std::mt19937_64 &rng, uint32_t *w, size_t n) {
  auto l = hard_limbs(rng, (n + 1) / 2);
  std::memcpy(w, l.data(), n * 4);
}

// n, R^2 mod n, R mod n and -n^-1 mod 2^32 for R = 2^(32N).
template <int N>
void make_ctx_gmp(mpb::gpu::ModCtx<N> &m, const mpz_t n) {
  Z R, t;
  mpz_setbit(R, 32 * N);
  auto nw = words_of(n, N);
  std::memcpy(m.n, nw.data(), 4 * N);
  mpz_mul(t, R, R);
  mpz_mod(t, t, n);
  auto r2 = words_of(t, N);
  std::memcpy(m.r2, r2.data(), 4 * N);
  mpz_mod(t, R, n);
  auto one = words_of(t, N);
  std::memcpy(m.one, one.data(), 4 * N);
  m.ninv = mpb::gpu::mont_ninv32(m.n[0]);
}

} // namespace mpbt
