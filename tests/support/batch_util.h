// tests/support/batch_util.h: helpers shared by the batch API tests (random rows, GMP per item).
#pragma once
#include <catch2/catch.hpp>
#include <gmp.h>

#include <cstdint>
#include <random>
#include <vector>

#include <mpbatch/batch.h>

#include "batch/cost_model.h"
#include "support/oracle.h"

namespace bt {

using Rows = std::vector<uint64_t>;

inline void row_to_mpz(mpz_t z, const uint64_t *r, size_t w) { mpbt::to_mpz(z, r, w); }
inline void mpz_to_row(uint64_t *r, const mpz_t z, size_t w) {
  auto v = mpbt::limbs_of(z, w);
  std::copy(v.begin(), v.end(), r);
}
// random odd modulus of exactly w limbs (top limb nonzero), from the hard generator
inline void rand_odd_modulus(std::mt19937_64 &rng, uint64_t *m, size_t w) {
  auto v = mpbt::hard_limbs(rng, w);
  for (size_t i = 0; i < w; i++) m[i] = v[i];
  if (m[w - 1] == 0) m[w - 1] = rng() | 1;
  if (w == 1 && m[0] < 3) m[0] = 3;
  m[0] |= 1;
}
// random value < m (w limbs)
inline void rand_below(std::mt19937_64 &rng, uint64_t *a, const uint64_t *m, size_t w) {
  auto v = mpbt::hard_limbs(rng, w);
  mpbt::Z x, mm;
  mpbt::to_mpz(x, v.data(), w);
  mpbt::to_mpz(mm, m, w);
  mpz_mod(x, x, mm);
  mpz_to_row(a, x, w);
}
// AUTO's lane split fixed for the scope (cpu/batch/cost_model.h's test hook): count / size
// full groups of `size` items, a last group of min(last, count % size) items, the rest scalar.
struct SplitOverride {
  SplitOverride(long last, long size) {
    mpb::batch::testing::split_size_override.store(size);
    mpb::batch::testing::split_override.store(last);
  }
  ~SplitOverride() {
    mpb::batch::testing::split_override.store(-1);
    mpb::batch::testing::split_size_override.store(8);
  }
  SplitOverride(const SplitOverride &) = delete;
  SplitOverride &operator=(const SplitOverride &) = delete;
};
// A batch context for the duration of a test (optionally with a backend set).
struct Ctx {
  mpb_ctx *c = nullptr;
  Ctx() { REQUIRE(mpb_ctx_create(&c) == MPB_OK); }
  explicit Ctx(int backend) : Ctx() { REQUIRE(mpb_ctx_set_backend(c, backend) == MPB_OK); }
  Ctx(int backend, int threads) : Ctx(backend) { REQUIRE(mpb_ctx_set_threads(c, threads) == MPB_OK); }
  Ctx(const Ctx &) = delete;
  Ctx &operator=(const Ctx &) = delete;
  ~Ctx() { mpb_ctx_destroy(c); }
};
constexpr uint64_t CANARY = 0xA5A5C3C3DEADBEEFull;

} // namespace bt
