// Smoke test of the build: life cycle, status strings, and the basic mpn layer against GMP.
#include <catch2/catch.hpp>

#include "support/oracle.h"
#include "mpn/mpn.h"

using namespace mpbt;

TEST_CASE("status strings and version", "[smoke]") {
  REQUIRE(mpb_abi_version() == MPB_ABI_VERSION);
  REQUIRE(std::string(mpb_strerror(MPB_EVAL)) == "invalid input value");
  REQUIRE(std::string(mp_error_to_string(MP_MEM)) == "Out of heap");
}

TEST_CASE("mp_int life cycle", "[smoke]") {
  mp_int a, b;
  REQUIRE(mp_init(&a) == MP_OKAY);
  mp_set(&a, 12345);
  REQUIRE(mp_init_copy(&b, &a) == MP_OKAY);
  REQUIRE(b.used == 1);
  REQUIRE(b.dp[0] == 12345);
  mp_clear(&a);
  mp_clear(&b);
}

TEST_CASE("mpn basecase multiplication and Knuth division agree with GMP", "[smoke][mpn]") {
  auto rng = make_rng(1);
  for (size_t an = 1; an <= 12; an++)
    for (size_t bn = 1; bn <= an; bn++) {
      auto a = hard_limbs(rng, an), b = hard_limbs(rng, bn);
      std::vector<uint64_t> r(an + bn);
      mpb::mpn::mul_basecase(r.data(), a.data(), an, b.data(), bn);
      Z za, zb, zr;
      to_mpz(za, a.data(), an);
      to_mpz(zb, b.data(), bn);
      mpz_mul(zr, za, zb);
      REQUIRE(r == limbs_of(zr, an + bn));
      b[bn - 1] |= 1;  // nonzero top limb
      to_mpz(zb, b.data(), bn);
      std::vector<uint64_t> q(an - bn + 1), rem(bn), scratch(mpb::mpn::tdiv_qr_itch(an, bn));
      mpb::mpn::tdiv_qr(q.data(), rem.data(), a.data(), an, b.data(), bn, scratch.data());
      Z zq, zm;
      mpz_tdiv_qr(zq, zm, za, zb);
      REQUIRE(q == limbs_of(zq, an - bn + 1));
      REQUIRE(rem == limbs_of(zm, bn));
    }
}
