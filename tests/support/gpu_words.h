// tests/support/gpu_words.h: what the host-run GPU arithmetic tests share: 32-bit word
// vectors <-> GMP, hard/random words, and Montgomery contexts computed with GMP (independent
// of the library's own host precomputation in cuda/host/).
#pragma once
#include <cstring>
#include <random>
#include <vector>

#include "cuda/thread/powm.cuh"
#include "support/oracle.h"

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

// An exponent of 1..max_words words: special 0: zero, 1: one, 2: all ones, else random words.
inline std::vector<uint32_t> some_exponent(std::mt19937_64 &rng, int max_words, int special) {
  std::vector<uint32_t> ew(1 + (size_t)(rng() % max_words));
  random_words(rng, ew.data(), ew.size());
  if (special == 0 || special == 1) std::fill(ew.begin(), ew.end(), 0u);
  if (special == 1) ew[0] = 1;
  if (special == 2) std::fill(ew.begin(), ew.end(), 0xFFFFFFFFu);
  return ew;
}

// Exponents that stress the sliding-window plan: kind 0..9 = 0, 1, 2, 3, all ones, a single
// high bit, a single bit anywhere, long zero runs between short one runs, 2^k - 1 with a
// short k, random; ewords may exceed the significant words (leading zero words).
inline void hard_exponent(std::mt19937_64 &rng, std::vector<uint32_t> &ew, int kind) {
  const int ewords = (int)ew.size();
  std::fill(ew.begin(), ew.end(), 0u);
  switch (kind % 10) {
    case 0: break;
    case 1: ew[0] = 1; break;
    case 2: ew[0] = 2; break;
    case 3: ew[0] = 3; break;
    case 4: std::fill(ew.begin(), ew.end(), 0xFFFFFFFFu); break;
    case 5: ew[ewords - 1] = 0x80000000u; break;
    case 6: { int b = (int)(rng() % (32 * ewords)); ew[b / 32] = 1u << (b % 32); break; }
    case 7:
      for (int b = 0; b < 32 * ewords; b += 1 + (int)(rng() % 60)) {
        int run = 1 + (int)(rng() % 3);
        for (int j = 0; j < run && b + j < 32 * ewords; j++) ew[(b + j) / 32] |= 1u << ((b + j) % 32);
        b += run;
      }
      break;
    case 8: { int k = 1 + (int)(rng() % (32 * ewords)); for (int b = 0; b < k; b++) ew[b / 32] |= 1u << (b % 32); break; }
    default: random_words(rng, ew.data(), ewords); break;
  }
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
  m.slide_w = 0;  // sliding windows by the exponent's length
}

// A random RSA key with two distinct primes of exactly 32*N bits, e = 65537.
struct GmpRsaKey {
  Z p, q, n, d, dp, dq, qinv;
};
template <int N>
void random_rsa_key(std::mt19937_64 &rng, GmpRsaKey &k) {
  Z e, t, lambda;
  mpz_set_ui(e, 65537);
  auto rand_prime = [&](mpz_t z) {
    std::vector<uint32_t> w(N);
    random_words(rng, w.data(), N);
    from_words(z, w.data(), N);
    mpz_setbit(z, 32 * N - 1);
    mpz_nextprime(z, z);
    if (mpz_sizeinbase(z, 2) != 32u * N) {  // wrapped past 2^(32N): start lower
      mpz_set_ui(z, 0);
      mpz_setbit(z, 32 * N - 1);
      mpz_nextprime(z, z);
    }
  };
  do {
    rand_prime(k.p);
    do rand_prime(k.q); while (mpz_cmp(k.p, k.q) == 0);
    mpz_mul(k.n, k.p, k.q);
    mpz_sub_ui(t, k.p, 1);
    mpz_sub_ui(lambda, k.q, 1);
    mpz_lcm(lambda, lambda, t);
  } while (mpz_invert(k.d, e, lambda) == 0);
  mpz_sub_ui(t, k.p, 1);
  mpz_mod(k.dp, k.d, t);
  mpz_sub_ui(t, k.q, 1);
  mpz_mod(k.dq, k.d, t);
  mpz_invert(k.qinv, k.q, k.p);
}

// The kernels' CRT constants for a key (computed with GMP).
template <int N>
void make_rsactx_gmp(mpb::gpu::RsaCtx<N> &c, const GmpRsaKey &k) {
  make_ctx_gmp<N>(c.p, k.p);
  make_ctx_gmp<N>(c.q, k.q);
  auto dp = words_of(k.dp, N), dq = words_of(k.dq, N), qw = words_of(k.q, N);
  std::memcpy(c.dp, dp.data(), 4 * N);
  std::memcpy(c.dq, dq.data(), 4 * N);
  std::memcpy(c.qw, qw.data(), 4 * N);
  Z t;
  mpz_mul_2exp(t, k.qinv, 32 * N);
  mpz_mod(t, t, k.p);
  auto qm = words_of(t, N);
  std::memcpy(c.qinv_m, qm.data(), 4 * N);
}

} // namespace mpbt
