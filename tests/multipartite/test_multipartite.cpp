// Multipartite modular multiplication (seed 004) against mpz_mul + mpz_mod: every algorithm
// (sequential, Barrett, Montgomery, bipartite, k-part for k = 2..8), thread counts 1, 2, 4,
// sizes from 4 limbs to 16384 bits plus odd sizes, hard operands (0, 1, P-1, all-ones-ish),
// the Montgomery-like factor B^-h, aliasing, and the exponentiation built on it.
#include <catch2/catch.hpp>

#include <mpbatch/mpbatch.h>

#include "support/batch_util.h"
#include "multipartite/multipartite.h"

using namespace bt;
using mpbt::Z;
namespace mp = mpb::multipartite;

static void expect_mulmod(mp::Plan *plan, const Rows &a, const Rows &b, const Rows &m, size_t n) {
  Rows r(n, CANARY), r2(n);
  mp::mul(plan, r.data(), a.data(), b.data());
  Z za, zb, zm, zr, f;
  row_to_mpz(za, a.data(), n);
  row_to_mpz(zb, b.data(), n);
  row_to_mpz(zm, m.data(), n);
  mpz_mul(zr, za, zb);
  if (mp::plan_montgomery_like(plan)) {
    // the factor: B^-h (partite) or B^-n (Montgomery)
    size_t s = mp::plan_algo(plan) == MPB_MM_MONTGOMERY ? n : n / 2;
    mpz_setbit(f, 64 * s);
    REQUIRE(mpz_invert(f, f, zm));
    mpz_mul(zr, zr, f);
  }
  mpz_mod(zr, zr, zm);
  REQUIRE(mpbt::limbs_of(zr, n) == r);
  mp::mulmod_exact(plan, r2.data(), a.data(), b.data());
  mpz_mul(zr, za, zb);
  mpz_mod(zr, zr, zm);
  REQUIRE(mpbt::limbs_of(zr, n) == r2);
  // aliasing r == a
  Rows a2 = a;
  mp::mulmod_exact(plan, a2.data(), a2.data(), b.data());
  REQUIRE(a2 == r2);
}

TEST_CASE("multipartite modular multiplication equals mpz_mul + mpz_mod", "[multipartite]") {
  auto rng = mpbt::make_rng(501);
  const size_t sizes[] = {4, 5, 7, 8, 16, 17, 31, 32, 48, 64, 96, 128, 256};
  for (size_t n : sizes)
    for (int threads : {1, 2, 4})
      for (int algo = MPB_MM_SEQUENTIAL; algo <= MPB_MM_MULTIPARTITE; algo++)
        for (int k : {0, 2, 3, 4, 5, 6, 8}) {
          if (algo != MPB_MM_MULTIPARTITE && k != 0) continue;
          if (k > 0 && (size_t)k > n / 2) continue;
          Rows m(n);
          rand_odd_modulus(rng, m.data(), n);
          mp::Plan *plan = mp::plan_create(m.data(), n, algo, k, threads);
          REQUIRE(plan != nullptr);
          INFO("n=" << n << " threads=" << threads << " algo=" << algo << " k=" << k << " plan k=" << mp::plan_k(plan));
          REQUIRE(mp::plan_algo(plan) == algo);
          for (int rep = 0; rep < 6; rep++) {
            Rows a(n), b(n);
            rand_below(rng, a.data(), m.data(), n);
            rand_below(rng, b.data(), m.data(), n);
            if (rep == 1) std::fill(a.begin(), a.end(), 0);
            if (rep == 2) a.assign(n, 0), a[0] = 1;
            if (rep == 3) {  // a = b = P - 1
              a = m, a[0] -= 1, b = a;
            }
            expect_mulmod(plan, a, b, m, n);
          }
          mp::plan_destroy(plan);
        }
}

TEST_CASE("multipartite with moduli of special shape", "[multipartite]") {
  auto rng = mpbt::make_rng(502);
  for (size_t n : {8, 16, 33})
    for (int shape = 0; shape < 3; shape++) {
      Rows m(n);
      if (shape == 0) m.assign(n, ~0ull);                      // B^n - 1
      if (shape == 1) m.assign(n, 0), m[n - 1] = 1, m[0] = 1;   // B^(n-1) + 1 (smallest top)
      if (shape == 2) m.assign(n, 0), m[n - 1] = 1ull << 63, m[0] = 1;
      for (int algo = MPB_MM_SEQUENTIAL; algo <= MPB_MM_MULTIPARTITE; algo++)
        for (int threads : {1, 2}) {
          mp::Plan *plan = mp::plan_create(m.data(), n, algo, 0, threads);
          REQUIRE(plan);
          for (int rep = 0; rep < 4; rep++) {
            Rows a(n), b(n);
            rand_below(rng, a.data(), m.data(), n);
            rand_below(rng, b.data(), m.data(), n);
            if (rep == 0) a = m, a[0] -= 1, b = a;
            INFO("n=" << n << " shape=" << shape << " algo=" << algo);
            expect_mulmod(plan, a, b, m, n);
          }
          mp::plan_destroy(plan);
        }
    }
}

TEST_CASE("large sizes 4096..16384 bits, k = 2..8, 2 threads", "[multipartite][large]") {
  auto rng = mpbt::make_rng(503);
  for (size_t n : {64, 128, 256})
    for (int algo = MPB_MM_BARRETT; algo <= MPB_MM_MULTIPARTITE; algo++)
      for (int k : {0, 3, 4, 8}) {
        if (algo != MPB_MM_MULTIPARTITE && k) continue;
        Rows m(n), a(n), b(n);
        rand_odd_modulus(rng, m.data(), n);
        rand_below(rng, a.data(), m.data(), n);
        rand_below(rng, b.data(), m.data(), n);
        mp::Plan *plan = mp::plan_create(m.data(), n, algo, k, 2);
        REQUIRE(plan);
        expect_mulmod(plan, a, b, m, n);
        mp::plan_destroy(plan);
      }
}

TEST_CASE("mpb_mulmod_big / mpb_powm_big public API", "[multipartite][api]") {
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  auto rng = mpbt::make_rng(504);
  for (int algo = MPB_MM_AUTO; algo <= MPB_MM_MULTIPARTITE; algo++)
    for (size_t n : {4, 16, 40}) {
      REQUIRE(mpb_ctx_set_mulmod_algo(ctx, algo, 0) == MPB_OK);
      Rows m(n), a(n), b(n), r(n), e(2);
      rand_odd_modulus(rng, m.data(), n);
      rand_below(rng, a.data(), m.data(), n);
      rand_below(rng, b.data(), m.data(), n);
      e[0] = rng(), e[1] = rng() >> 7;
      mpb_call_info info;
      REQUIRE(mpb_mulmod_big(ctx, r.data(), a.data(), b.data(), m.data(), n, &info) == MPB_OK);
      REQUIRE(info.backend == MPB_BACKEND_MULTIPARTITE);
      Z za, zb, zm, zr, ze;
      row_to_mpz(za, a.data(), n);
      row_to_mpz(zb, b.data(), n);
      row_to_mpz(zm, m.data(), n);
      mpz_mul(zr, za, zb);
      mpz_mod(zr, zr, zm);
      REQUIRE(mpbt::limbs_of(zr, n) == r);
      REQUIRE(mpb_powm_big(ctx, r.data(), a.data(), e.data(), 2, m.data(), n, &info) == MPB_OK);
      row_to_mpz(ze, e.data(), 2);
      mpz_powm(zr, za, ze, zm);
      REQUIRE(mpbt::limbs_of(zr, n) == r);
      Rows z0(1, 0);
      REQUIRE(mpb_powm_big(ctx, r.data(), a.data(), z0.data(), 1, m.data(), n, &info) == MPB_OK);
      REQUIRE(r[0] == 1);
      // bad input
      Rows bad = m;
      bad[0] &= ~1ull;
      Rows out(n, CANARY);
      REQUIRE(mpb_mulmod_big(ctx, out.data(), a.data(), b.data(), bad.data(), n, &info) == MPB_EVAL);
      REQUIRE(mpb_mulmod_big(ctx, out.data(), m.data(), b.data(), m.data(), n, &info) == MPB_EVAL);
      REQUIRE(info.bad_arg == MPB_ARG_A);
      for (auto x : out) REQUIRE(x == CANARY);
    }
  mpb_ctx_destroy(ctx);
}
