// The constant-time Montgomery set-up and reductions by a (secret) modulus, against GMP:
// mont_ctx_init (R mod m and R^2 mod m by masked doublings and Montgomery squarings, no
// division), mont_reduce (c mod m for c of any length) and pow2_mod (2^e mod m), for odd moduli
// of 1..40 limbs with hard limb patterns (m = 1 and 3, all ones, 2^(64(n-1)) + 1, bit runs) and
// inputs of every length around the chunk size, all ones and zero included. Nothing is written
// past the documented sizes.
#include <catch2/catch.hpp>

#include <vector>

#include "mpn/mod/mont.h"
#include "support/oracle.h"

using namespace mpbt;
using mpb::mpn::limb;
namespace mpn = mpb::mpn;

namespace {
std::vector<limb> odd_modulus(std::mt19937_64 &rng, size_t n, int trial) {
  std::vector<limb> m = hard_limbs(rng, n);
  if (trial == 0) m.assign(n, ~(limb)0);                          // all ones
  if (trial == 1) { m.assign(n, 0); m[n - 1] = 1; m[0] |= 1; }    // 2^(64(n-1)) + 1 (1 for n = 1)
  if (trial == 2 && n == 1) m[0] = 3;
  if (trial == 3) m.assign(n, (limb)0x5555555555555555);         // alternating bits
  m[0] |= 1;
  if (m[n - 1] == 0) m[n - 1] = 1;
  return m;
}
} // namespace

TEST_CASE("mont_ctx_init: R mod m and R^2 mod m without division vs GMP", "[mpn][mont][ct]") {
  auto rng = make_rng(0x3a0c7);
  for (size_t n = 1; n <= 40; n++)
    for (int trial = 0; trial < 7; trial++) {
      std::vector<limb> m = odd_modulus(rng, n, trial);
      std::vector<limb> store(mpn::mont_ctx_itch(n) + 1, 0x5a5a);
      store.back() = 0xfeed;
      mpn::MontCtx ctx;
      mpn::mont_ctx_init(ctx, m.data(), n, store.data());
      REQUIRE(store.back() == 0xfeed);
      Z zm, zr, z2;
      to_mpz(zm, m.data(), n);
      mpz_set_ui(zr, 1);
      mpz_mul_2exp(zr, zr, 64 * n);
      mpz_mul(z2, zr, zr);
      mpz_mod(zr, zr, zm);
      mpz_mod(z2, z2, zm);
      INFO("n " << n << " trial " << trial);
      REQUIRE(std::vector<limb>(ctx.one, ctx.one + n) == limbs_of(zr, n));
      REQUIRE(std::vector<limb>(ctx.r2, ctx.r2 + n) == limbs_of(z2, n));
    }
  // m == 1: everything is 0
  limb one = 1;
  std::vector<limb> store(mpn::mont_ctx_itch(1));
  mpn::MontCtx ctx;
  mpn::mont_ctx_init(ctx, &one, 1, store.data());
  REQUIRE(ctx.one[0] == 0);
  REQUIRE(ctx.r2[0] == 0);
}

TEST_CASE("mont_reduce: c mod m for c of any length vs GMP", "[mpn][mont][ct]") {
  auto rng = make_rng(0x3a0c8);
  size_t checks = 0;
  for (size_t n = 1; n <= 24; n++)
    for (int trial = 0; trial < 5; trial++) {
      std::vector<limb> m = odd_modulus(rng, n, trial);
      std::vector<limb> store(mpn::mont_ctx_itch(n));
      mpn::MontCtx ctx;
      mpn::mont_ctx_init(ctx, m.data(), n, store.data());
      Z zm, zc, zr;
      to_mpz(zm, m.data(), n);
      for (size_t cn : {(size_t)1, n - (n > 1), n, n + 1, 2 * n - 1, 2 * n, 2 * n + 1, 3 * n + 2}) {
        if (cn == 0) continue;
        for (int kind = 0; kind < 4; kind++) {
          std::vector<limb> c = hard_limbs(rng, cn);
          if (kind == 1) c.assign(cn, ~(limb)0);
          if (kind == 2) c.assign(cn, 0);
          if (kind == 3) c = std::vector<limb>(m.begin(), m.begin() + std::min(cn, n));  // c == m (or a prefix)
          c.resize(cn, 0);
          std::vector<limb> r(n + 1, 0xabcd), ws(mpn::mont_reduce_itch(n));
          mpn::mont_reduce(r.data(), c.data(), cn, ctx, ws.data());
          to_mpz(zc, c.data(), cn);
          mpz_mod(zr, zc, zm);
          INFO("n " << n << " trial " << trial << " cn " << cn << " kind " << kind);
          REQUIRE(std::vector<limb>(r.begin(), r.begin() + n) == limbs_of(zr, n));
          REQUIRE(r[n] == 0xabcd);
          checks++;
        }
      }
    }
  REQUIRE(checks > 2000);
}

TEST_CASE("pow2_mod: 2^e mod m vs GMP", "[mpn][mont][ct]") {
  auto rng = make_rng(0x3a0c9);
  for (size_t n = 1; n <= 20; n++)
    for (int trial = 0; trial < 4; trial++) {
      std::vector<limb> m = odd_modulus(rng, n, trial);
      Z zm, zp;
      to_mpz(zm, m.data(), n);
      for (size_t e = 0; e <= 64 * (2 * n + 3); e += (e < 130 ? 1 : 13)) {
        std::vector<limb> r(n + 1, 0x77), ws(mpn::pow2_mod_itch(n));
        mpn::pow2_mod(r.data(), e, m.data(), n, ws.data());
        mpz_set_ui(zp, 1);
        mpz_mul_2exp(zp, zp, e);
        mpz_mod(zp, zp, zm);
        INFO("n " << n << " trial " << trial << " e " << e);
        REQUIRE(std::vector<limb>(r.begin(), r.begin() + n) == limbs_of(zp, n));
        REQUIRE(r[n] == 0x77);
      }
    }
}

TEST_CASE("sec_clz / sec_bit_length / sec_normalized_size (branch-free) vs the plain ones", "[mpn][ct]") {
  CHECK(mpn::sec_clz(0) == 64);
  for (unsigned b = 0; b < 64; b++) {
    const limb x = (limb)1 << b;
    CHECK(mpn::sec_clz(x) == 63 - b);
    CHECK(mpn::sec_clz(x | (x - 1)) == 63 - b);        // a run of ones below the top bit
    CHECK(mpn::sec_clz(x | 1) == 63 - b);
  }
  std::mt19937_64 rng(7);
  for (int t = 0; t < 2000; t++) {
    const limb x = rng() >> (rng() % 64);
    REQUIRE(mpn::sec_clz(x) == (x ? (unsigned)__builtin_clzll(x) : 64u));
  }
  for (size_t n = 0; n <= 9; n++) {
    for (int trial = 0; trial < 40; trial++) {
      std::vector<limb> a = n ? hard_limbs(rng, n) : std::vector<limb>();
      for (size_t i = 0; i < n; i++)  // zero leading limbs, sometimes all of them
        if ((size_t)trial % (n + 1) <= i) a[i] = 0;
      const size_t sz = mpn::normalized_size(a.data(), n);
      const size_t bits = sz ? 64 * sz - (size_t)__builtin_clzll(a[sz - 1]) : 0;
      REQUIRE(mpn::sec_normalized_size(a.data(), n) == sz);
      REQUIRE(mpn::sec_bit_length(a.data(), n) == bits);
    }
  }
}
