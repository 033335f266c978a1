// mp_rshd, mp_lshd, mp_div_2d (with remainder), mp_div_2, mp_mul_2d, mp_mul_2, mp_mod_2d
// against GMP's truncating 2-exponent operations (sign of a kept), with aliasing, shift
// counts <= 0, and simulated allocation failure.
#include "support/bn_test_common.h"

using namespace bnt;

TEST_CASE("mp_rshd and mp_lshd agree with GMP", "[bn][shift]") {
  auto rng = make_rng(201);
  for (size_t n : sizes())
    for (int b : {-3, 0, 1, 2, 5, (int)n - 1, (int)n, (int)n + 1, 70}) {
      Z za, want;
      rand_z(rng, za, n);
      M a;
      setz(&a, za);
      mp_rshd(&a, b);
      if (b > 0) mpz_tdiv_q_2exp(want, za, 64 * (mp_bitcnt_t)b);
      else mpz_set(want, za);
      BN_EQ(&a, want);
      setz(&a, za);
      REQUIRE(mp_lshd(&a, b) == MP_OKAY);
      if (b > 0) mpz_mul_2exp(want, za, 64 * (mp_bitcnt_t)b);
      else mpz_set(want, za);
      BN_EQ(&a, want);
    }
  mp_rshd(nullptr, 1);
  REQUIRE(mp_lshd(nullptr, 1) == MP_VAL);
  M a;
  mp_set(&a, 1);
  REQUIRE(mp_lshd(&a, (1 << 24) + 1) == MP_MEM);  // over MAX_DIGITS
  REQUIRE(mp_cmp_d(&a, 1) == MP_EQ);
}

TEST_CASE("mp_div_2d / mp_mod_2d / mp_mul_2d / mp_div_2 / mp_mul_2 agree with GMP", "[bn][shift]") {
  auto rng = make_rng(202);
  for (size_t n : sizes())
    for (int b : {-5, 0, 1, 2, 31, 63, 64, 65, 127, 128, 200, (int)(64 * n) - 1, (int)(64 * n),
                  (int)(64 * n) + 1, 64 * 80 + 7}) {
      Z za, q, r, p, h, d2;
      rand_z(rng, za, n);
      if (b > 0) {
        mpz_tdiv_q_2exp(q, za, (mp_bitcnt_t)b);
        mpz_tdiv_r_2exp(r, za, (mp_bitcnt_t)b);
        mpz_mul_2exp(p, za, (mp_bitcnt_t)b);
      } else {
        mpz_set(q, za);
        mpz_set_ui(r, 0);
        mpz_set(p, za);
      }
      Z m;  // mod_2d: b <= 0 copies a (seed 5.1.5)
      if (b > 0) mpz_set(m, r);
      else mpz_set(m, za);
      M a, c, d;
      setz(&a, za);
      mp_set(&c, 3);
      mp_set(&d, 4);
      REQUIRE(mp_div_2d(&a, b, &c, &d) == MP_OKAY);
      BN_EQ(&c, q);
      BN_EQ(&d, r);
      REQUIRE(mp_div_2d(&a, b, &c, nullptr) == MP_OKAY);
      BN_EQ(&c, q);
      // c == a
      REQUIRE(mp_div_2d(&a, b, &a, &d) == MP_OKAY);
      BN_EQ(&a, q);
      BN_EQ(&d, r);
      setz(&a, za);
      // d == a
      REQUIRE(mp_div_2d(&a, b, &c, &a) == MP_OKAY);
      BN_EQ(&c, q);
      BN_EQ(&a, r);
      setz(&a, za);
      REQUIRE(mp_mul_2d(&a, b, &c) == MP_OKAY);
      BN_EQ(&c, p);
      REQUIRE(mp_mul_2d(&a, b, &a) == MP_OKAY);
      BN_EQ(&a, p);
      setz(&a, za);
      REQUIRE(mp_mod_2d(&a, b, &c) == MP_OKAY);
      BN_EQ(&c, m);
      REQUIRE(mp_mod_2d(&a, b, &a) == MP_OKAY);
      BN_EQ(&a, m);
      setz(&a, za);
      mpz_tdiv_q_2exp(h, za, 1);
      mpz_mul_2exp(d2, za, 1);
      REQUIRE(mp_div_2(&a, &c) == MP_OKAY);
      BN_EQ(&c, h);
      REQUIRE(mp_mul_2(&a, &c) == MP_OKAY);
      BN_EQ(&c, d2);
      REQUIRE(mp_div_2(&a, &a) == MP_OKAY);
      BN_EQ(&a, h);
      setz(&a, za);
      REQUIRE(mp_mul_2(&a, &a) == MP_OKAY);
      BN_EQ(&a, d2);
    }
  // the header's example: div_2d(-5, 1) = -2 remainder -1
  M a, c, d;
  mp_set(&a, 5);
  REQUIRE(mp_neg(&a, &a) == MP_OKAY);
  REQUIRE(mp_div_2d(&a, 1, &c, &d) == MP_OKAY);
  REQUIRE(c.v.sign == MP_NEG);
  REQUIRE(c.v.dp[0] == 2);
  REQUIRE(d.v.sign == MP_NEG);
  REQUIRE(d.v.dp[0] == 1);
  REQUIRE(mp_div_2d(&a, 1, &c, &c) == MP_VAL);
  REQUIRE(mp_div_2d(nullptr, 1, &c, &d) == MP_VAL);
  REQUIRE(mp_div_2d(&a, 1, nullptr, &d) == MP_VAL);
  REQUIRE(mp_mul_2d(&a, 1, nullptr) == MP_VAL);
  REQUIRE(mp_mod_2d(nullptr, 1, &c) == MP_VAL);
  REQUIRE(mp_div_2(&a, nullptr) == MP_VAL);
  REQUIRE(mp_mul_2(nullptr, &c) == MP_VAL);
}

TEST_CASE("shifts: MP_MEM on allocation failure, outputs untouched, no leak", "[bn][shift][alloc]") {
  auto rng = make_rng(203);
  for (size_t n : {size_t(5), size_t(200)})
    for (int which = 0; which < 7; which++) {
      INFO("which=" << which << " n=" << n);
      Z za, zc0, zd0, want, want_r;
      rand_z(rng, za, n);
      mpz_set_si(zc0, -77);
      mpz_set_ui(zd0, 88);
      const int b = 64 * 9 + 13;
      mpz_tdiv_q_2exp(want, za, b);
      mpz_tdiv_r_2exp(want_r, za, b);
      if (which == 1) mpz_mul_2exp(want, za, b);
      if (which == 2) mpz_set(want, want_r);
      if (which == 3) mpz_mul_2exp(want, za, 64 * 300);
      if (which == 5) mpz_mul_2exp(want, za, 1);
      if (which == 6) mpz_tdiv_q_2exp(want, za, 1);
      mp_int a, c, d;
      FailCase fc;
      fc.setup = [&] {
        init_set(&a, za);
        init_set(&c, zc0);
        init_set(&d, zd0);
        REQUIRE(mp_shrink(&c) == MP_OKAY);
        REQUIRE(mp_shrink(&d) == MP_OKAY);
      };
      fc.op = [&] {
        switch (which) {
          case 0: return mp_div_2d(&a, b, &c, &d);
          case 1: return mp_mul_2d(&a, b, &c);
          case 2: return mp_mod_2d(&a, b, &c);
          case 3: return mp_lshd(&a, 300);
          case 5: return mp_mul_2(&a, &c);
          case 6: return mp_div_2(&a, &c);
          default: return mp_div_2d(&a, b, &c, &a);
        }
      };
      fc.unchanged = [&] { return equal(&a, za) && equal(&c, zc0) && equal(&d, zd0); };
      fc.correct = [&] {
        if (which == 3) return equal(&a, want) && well_formed(&a);
        if (which == 0) return equal(&c, want) && equal(&d, want_r) && well_formed(&d);
        if (which == 4) return equal(&c, want) && equal(&a, want_r);
        if (which >= 5) return equal(&c, want) && well_formed(&c) && equal(&a, za);
        return equal(&c, want) && well_formed(&c);
      };
      fc.teardown = [&] { mp_clear(&a); mp_clear(&c); mp_clear(&d); };
      run_alloc_failures(fc);
    }
}
