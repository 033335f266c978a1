// mp_gcd, mp_lcm, mp_invmod, mp_n_root against GMP (mpz_gcd, mpz_lcm, mpz_invert, mpz_root):
// signed and zero operands, odd and even moduli, aliasing, bad input with untouched outputs.
#include <catch2/catch.hpp>

#include "support/oracle.h"

using namespace mpbt;

namespace {
void rnd(std::mt19937_64 &rng, mpz_t z, size_t n, bool neg_ok = true) {
  auto l = hard_limbs(rng, n);
  if (n && l[n - 1] == 0 && (rng() & 3)) l[n - 1] = 1 + (rng() >> 1);
  to_mpz(z, l.data(), n);
  if (neg_ok && (rng() & 1)) mpz_neg(z, z);
}
void setm(mp_int *a, mpz_srcptr z) { REQUIRE(from_mpz(a, z) == MP_OKAY); }
const size_t SIZES[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 27, 28, 29, 33, 40, 64};
} // namespace

TEST_CASE("mp_gcd and mp_lcm vs GMP: zero, negative, common factors, aliasing", "[numtheory]") {
  auto rng = make_rng(31);
  for (size_t an : SIZES)
    for (size_t bn : SIZES) {
      Z za, zb, zg, zl, zf;
      rnd(rng, za, an);
      rnd(rng, zb, bn);
      if (rng() & 1) {  // plant a common factor (including powers of two)
        rnd(rng, zf, 1 + rng() % 3, false);
        mpz_mul_2exp(zf, zf, rng() % 130);
        mpz_mul(za, za, zf);
        mpz_mul(zb, zb, zf);
      }
      mpz_gcd(zg, za, zb);
      mpz_lcm(zl, za, zb);
      M a, b, c;
      setm(&a, za);
      setm(&b, zb);
      REQUIRE(mp_gcd(&a, &b, &c) == MP_OKAY);
      REQUIRE(equal(&c, zg));
      REQUIRE(mp_lcm(&a, &b, &c) == MP_OKAY);
      REQUIRE(equal(&c, zl));
      M t;
      setm(&t, za);
      REQUIRE(mp_gcd(&t, &b, &t) == MP_OKAY);
      REQUIRE(equal(&t, zg));
      setm(&t, zb);
      REQUIRE(mp_gcd(&a, &t, &t) == MP_OKAY);
      REQUIRE(equal(&t, zg));
      setm(&t, za);
      REQUIRE(mp_lcm(&t, &b, &t) == MP_OKAY);
      REQUIRE(equal(&t, zl));
      setm(&t, zb);
      REQUIRE(mp_lcm(&a, &t, &t) == MP_OKAY);
      REQUIRE(equal(&t, zl));
      REQUIRE(mp_gcd(&a, &a, &c) == MP_OKAY);
      mpz_abs(zg, za);
      REQUIRE(equal(&c, zg));
    }
}

TEST_CASE("mp_invmod vs mpz_invert: odd and even moduli, negative a, aliasing, MP_VAL", "[numtheory]") {
  auto rng = make_rng(32);
  int inv = 0, noinv = 0;
  for (size_t bn : SIZES) {
    if (bn == 0) continue;
    for (int rep = 0; rep < 12; rep++) {
      Z za, zb, zr;
      rnd(rng, zb, bn, false);
      if (rep & 1) mpz_setbit(zb, 0);
      else mpz_clrbit(zb, 0);
      if (mpz_sgn(zb.v) == 0) mpz_set_ui(zb, 2);
      rnd(rng, za, 1 + rng() % (bn + 2));
      if (rep % 4 == 0) mpz_setbit(za, 0);  // makes even moduli invertible more often
      M a, b, c;
      setm(&a, za);
      setm(&b, zb);
      mp_set(&c, 99);
      int rc = mp_invmod(&a, &b, &c);
      bool exists = mpz_invert(zr, za, zb) != 0;
      if (mpz_cmp_ui(zb.v, 1) == 0) {  // everything is invertible mod 1: the inverse is 0
        REQUIRE(rc == MP_OKAY);
        REQUIRE(mp_iszero(&c));
        continue;
      }
      if (exists) {
        inv++;
        REQUIRE(rc == MP_OKAY);
        REQUIRE(equal(&c, zr));
        M t;
        setm(&t, za);
        REQUIRE(mp_invmod(&t, &b, &t) == MP_OKAY);
        REQUIRE(equal(&t, zr));
        setm(&t, zb);
        REQUIRE(mp_invmod(&a, &t, &t) == MP_OKAY);
        REQUIRE(equal(&t, zr));
      } else {
        noinv++;
        REQUIRE(rc == MP_VAL);
        REQUIRE(mp_cmp_d(&c, 99) == MP_EQ);
      }
    }
  }
  REQUIRE(inv > 20);
  REQUIRE(noinv > 5);
  // b <= 0, a == 0
  M a, b, c;
  mp_set(&a, 3);
  mp_set(&c, 99);
  mp_zero(&b);
  REQUIRE(mp_invmod(&a, &b, &c) == MP_VAL);
  mp_set(&b, 7);
  REQUIRE(mp_neg(&b, &b) == MP_OKAY);
  REQUIRE(mp_invmod(&a, &b, &c) == MP_VAL);
  mp_set(&b, 7);
  mp_zero(&a);
  REQUIRE(mp_invmod(&a, &b, &c) == MP_VAL);
  mp_set(&a, 14);
  REQUIRE(mp_invmod(&a, &b, &c) == MP_VAL);
  REQUIRE(mp_cmp_d(&c, 99) == MP_EQ);
}

TEST_CASE("mp_n_root vs mpz_root: exactness c^b <= |a| < (c+1)^b, signs, b = 1..10", "[numtheory]") {
  auto rng = make_rng(33);
  for (unsigned long b = 1; b <= 10; b++)
    for (size_t an : SIZES)
      for (int rep = 0; rep < 3; rep++) {
        Z za, zr, zp, zq;
        rnd(rng, za, an, (b & 1) != 0);
        if (rep == 2 && an > 0) {  // exact powers and their neighbours
          rnd(rng, zr, 1 + an / b, false);
          mpz_pow_ui(za, zr, b);
          if ((rng() & 1) && mpz_sgn(za.v) > 0) mpz_sub_ui(za, za, 1);
          if ((b & 1) && (rng() & 1)) mpz_neg(za, za);
        }
        mpz_root(zr, za, b);  // truncates toward zero
        M a, c;
        setm(&a, za);
        INFO("b=" << b << " a=" << to_hex(za));
        REQUIRE(mp_n_root(&a, b, &c) == MP_OKAY);
        REQUIRE(equal(&c, zr));
        // exactness on magnitudes
        mpz_abs(zp, zr);
        mpz_pow_ui(zq, zp, b);
        Z zabs;
        mpz_abs(zabs, za);
        REQUIRE(mpz_cmp(zq, zabs) <= 0);
        mpz_add_ui(zp, zp, 1);
        mpz_pow_ui(zq, zp, b);
        REQUIRE(mpz_cmp(zabs, zq) < 0);
        REQUIRE(mp_n_root(&a, b, &a) == MP_OKAY);  // aliasing
        REQUIRE(equal(&a, zr));
      }
  // large b: root 1 (or -1), and bad input
  M a, c;
  mp_set(&a, 1000);
  REQUIRE(mp_n_root(&a, 64, &c) == MP_OKAY);
  REQUIRE(mp_cmp_d(&c, 1) == MP_EQ);
  REQUIRE(mp_n_root(&a, ~(mp_digit)0, &c) == MP_OKAY);
  REQUIRE(mp_cmp_d(&c, 1) == MP_EQ);
  mp_set(&c, 5);
  REQUIRE(mp_n_root(&a, 0, &c) == MP_VAL);
  REQUIRE(mp_cmp_d(&c, 5) == MP_EQ);
  REQUIRE(mp_neg(&a, &a) == MP_OKAY);
  REQUIRE(mp_n_root(&a, 2, &c) == MP_VAL);
  REQUIRE(mp_n_root(&a, 4, &c) == MP_VAL);
  REQUIRE(mp_cmp_d(&c, 5) == MP_EQ);
  REQUIRE(mp_n_root(&a, 3, &c) == MP_OKAY);  // cbrt(-1000) = -10
  REQUIRE(c.v.sign == MP_NEG);
  REQUIRE(c.v.used == 1);
  REQUIRE(c.v.dp[0] == 10);
}

// mp_gcd / mp_invmod run mpn::gcd / mpn::invmod (Lehmer, cpu/mpn/gcd/gcd_lehmer.cpp,
// cpu/mpn/gcd/invmod_lehmer.cpp): sizes up to 70 limbs, uneven, consecutive Fibonacci numbers, m and
// m - 1, a common factor, signs, even and odd moduli.
TEST_CASE("mp_gcd / mp_invmod (Lehmer) vs GMP: up to 70 limbs, Fibonacci, m-1, common factors", "[numtheory][lehmer]") {
  auto rng = make_rng(35);
  int inv = 0, noinv = 0, even = 0;
  for (int t = 0; t < 1500; t++) {
    size_t n = 1 + rng() % 70;
    Z za, zb, zr, zg;
    switch (t % 5) {
      case 0: rnd(rng, za, n); rnd(rng, zb, 1 + rng() % n); break;
      case 1: {  // consecutive Fibonacci numbers
        mpz_set_ui(za, 1);
        mpz_set_ui(zb, 1);
        while (mpz_sizeinbase(za.v, 2) < 64 * n - rng() % 64) {
          mpz_add(zb, zb, za);
          mpz_swap(za.v, zb.v);
        }
        if (rng() & 1) mpz_swap(za.v, zb.v);
        break;
      }
      case 2: rnd(rng, zb, n, false); mpz_sub_ui(za, zb, 1); break;  // a = m - 1
      case 3: {  // common factor
        Z g;
        rnd(rng, g, 1 + rng() % (n / 2 + 1), false);
        rnd(rng, za, n);
        rnd(rng, zb, 1 + rng() % n);
        mpz_mul(za, za, g);
        mpz_mul(zb, zb, g);
        break;
      }
      default: rnd(rng, za, n); rnd(rng, zb, n); mpz_add_ui(zb, za, 1 + rng() % 1000); break;
    }
    M a, b, c;
    setm(&a, za);
    setm(&b, zb);
    REQUIRE(mp_gcd(&a, &b, &c) == MP_OKAY);
    mpz_gcd(zg, za, zb);
    REQUIRE(equal(&c, zg));
    mpz_abs(zb, zb);
    if (mpz_cmp_ui(zb.v, 1) <= 0) continue;
    setm(&b, zb);
    mp_set(&c, 99);
    int rc = mp_invmod(&a, &b, &c);
    even += mpz_even_p(zb.v) ? 1 : 0;
    if (mpz_invert(zr, za, zb)) {
      inv++;
      REQUIRE(rc == MP_OKAY);
      REQUIRE(equal(&c, zr));
      REQUIRE(mp_invmod(&a, &b, &b) == MP_OKAY);  // c aliases the modulus
      REQUIRE(equal(&b, zr));
    } else {
      noinv++;
      REQUIRE(rc == MP_VAL);
      REQUIRE(mp_cmp_d(&c, 99) == MP_EQ);
    }
  }
  INFO("invertible " << inv << ", not " << noinv << ", even moduli " << even);
  CHECK(inv > 500);
  CHECK(noinv > 100);
  CHECK(even > 200);
}
