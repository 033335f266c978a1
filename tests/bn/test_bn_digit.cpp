// Single-digit functions (mp_cmp_d, mp_add_d, mp_sub_d, mp_mul_d, mp_div_d, mp_mod_d) and the
// modular wrappers (mp_addmod, mp_submod, mp_mulmod, mp_sqrmod) against GMP.
#include "support/bn_test_common.h"

using namespace bnt;

namespace {
std::vector<mp_digit> hard_digits(std::mt19937_64 &rng) {
  return {0, 1, 2, 3, 10, 0xFFFFFFFFull, 1ull << 32, 1ull << 63, ~0ull, ~0ull - 1, rng(), rng() >> 20,
          rng() | 1};
}
}  // namespace

TEST_CASE("single-digit functions agree with GMP", "[bn][digit]") {
  auto rng = make_rng(301);
  for (size_t n : sizes(12))
    for (int rep = 0; rep < 3; rep++)
      for (mp_digit b : hard_digits(rng)) {
        Z za, want, zb;
        rand_z(rng, za, n);
        if (rep == 1 && n <= 1) mpz_set_ui(za, b);  // |a| == b
        if (rep == 2 && n <= 1) mpz_set_si(za, -(long)(b & 0xFFFF));
        mpz_set_ui(zb, b);
        M a, c;
        setz(&a, za);
        int s = mpz_cmp_ui(za.v, b);
        REQUIRE(mp_cmp_d(&a, b) == (s < 0 ? MP_LT : s > 0 ? MP_GT : MP_EQ));
        mpz_add_ui(want, za, b);
        REQUIRE(mp_add_d(&a, b, &c) == MP_OKAY);
        BN_EQ(&c, want);
        REQUIRE(mp_add_d(&a, b, &a) == MP_OKAY);
        BN_EQ(&a, want);
        setz(&a, za);
        mpz_sub_ui(want, za, b);
        REQUIRE(mp_sub_d(&a, b, &c) == MP_OKAY);
        BN_EQ(&c, want);
        REQUIRE(mp_sub_d(&a, b, &a) == MP_OKAY);
        BN_EQ(&a, want);
        setz(&a, za);
        mpz_mul_ui(want, za, b);
        REQUIRE(mp_mul_d(&a, b, &c) == MP_OKAY);
        BN_EQ(&c, want);
        REQUIRE(mp_mul_d(&a, b, &a) == MP_OKAY);
        BN_EQ(&a, want);
        setz(&a, za);
        if (b == 0) {
          mp_digit r = 5;
          REQUIRE(mp_div_d(&a, 0, &c, &r) == MP_VAL);
          REQUIRE(mp_mod_d(&a, 0, &r) == MP_VAL);
          REQUIRE(r == 5);
          continue;
        }
        Z zr;
        mpz_tdiv_qr(want, zr, za, zb);
        mp_digit r = 0;
        REQUIRE(mp_div_d(&a, b, &c, &r) == MP_OKAY);
        BN_EQ(&c, want);
        REQUIRE(r == mpz_tdiv_ui(za, b));  // |a| mod b
        r = 0;
        REQUIRE(mp_div_d(&a, b, nullptr, &r) == MP_OKAY);
        REQUIRE(r == mpz_tdiv_ui(za, b));
        REQUIRE(mp_div_d(&a, b, &a, nullptr) == MP_OKAY);
        BN_EQ(&a, want);
        setz(&a, za);
        REQUIRE(mp_mod_d(&a, b, &r) == MP_OKAY);
        REQUIRE(r == mpz_fdiv_ui(za, b));  // in [0, b)
      }
  M a;
  mp_digit r;
  REQUIRE(mp_cmp_d(nullptr, 1) == MP_VAL);
  REQUIRE(mp_add_d(nullptr, 1, &a) == MP_VAL);
  REQUIRE(mp_sub_d(&a, 1, nullptr) == MP_VAL);
  REQUIRE(mp_mul_d(&a, 1, nullptr) == MP_VAL);
  REQUIRE(mp_div_d(nullptr, 1, &a, &r) == MP_VAL);
  REQUIRE(mp_mod_d(&a, 1, nullptr) == MP_VAL);
}

TEST_CASE("mp_addmod / mp_submod / mp_mulmod / mp_sqrmod agree with GMP", "[bn][modops]") {
  auto rng = make_rng(302);
  for (size_t n : sizes(40))
    for (size_t m : {size_t(1), n / 2 + 1, n + 1}) {
      Z za, zb, zc, t, want;
      rand_z(rng, za, n);
      rand_z(rng, zb, n);
      rand_z(rng, zc, m, 0);
      if (mpz_sgn(zc.v) == 0) mpz_set_ui(zc, 7);
      M a, b, c, d;
      setz(&a, za);
      setz(&b, zb);
      setz(&c, zc);
      using F4 = int (*)(const mp_int *, const mp_int *, const mp_int *, mp_int *);
      using G = void (*)(mpz_ptr, mpz_srcptr, mpz_srcptr);
      std::pair<F4, G> fs[] = {{mp_addmod, mpz_add}, {mp_submod, mpz_sub}, {mp_mulmod, mpz_mul}};
      for (auto &f : fs) {
        f.second(t, za, zb);
        mpz_mod(want, t, zc);
        REQUIRE(f.first(&a, &b, &c, &d) == MP_OKAY);
        BN_EQ(&d, want);
        REQUIRE(f.first(&a, &b, &c, &a) == MP_OKAY);  // d == a
        BN_EQ(&a, want);
        setz(&a, za);
        REQUIRE(f.first(&a, &b, &c, &c) == MP_OKAY);  // d == c
        BN_EQ(&c, want);
        setz(&c, zc);
        REQUIRE(f.first(&a, &b, &c, &b) == MP_OKAY);  // d == b
        BN_EQ(&b, want);
        setz(&b, zb);
        Z waa;  // a == b
        f.second(t, za, za);
        mpz_mod(waa, t, zc);
        REQUIRE(f.first(&a, &a, &c, &d) == MP_OKAY);
        BN_EQ(&d, waa);
        REQUIRE(f.first(&a, &a, &c, &a) == MP_OKAY);
        BN_EQ(&a, waa);
        setz(&a, za);
      }
      mpz_mul(t, za, za);
      mpz_mod(want, t, zc);
      REQUIRE(mp_sqrmod(&a, &c, &d) == MP_OKAY);
      BN_EQ(&d, want);
      REQUIRE(mp_sqrmod(&a, &c, &a) == MP_OKAY);
      BN_EQ(&a, want);
      setz(&a, za);
      // bad moduli: 0 and negative, output untouched
      M z, neg, out;
      mp_set(&out, 42);
      REQUIRE(mp_neg(&c, &neg) == MP_OKAY);
      REQUIRE(mp_addmod(&a, &b, &z, &out) == MP_VAL);
      REQUIRE(mp_submod(&a, &b, &neg, &out) == MP_VAL);
      REQUIRE(mp_mulmod(&a, &b, &z, &out) == MP_VAL);
      REQUIRE(mp_sqrmod(&a, &neg, &out) == MP_VAL);
      REQUIRE(mp_cmp_d(&out, 42) == MP_EQ);
      REQUIRE(mp_mulmod(&a, &b, nullptr, &out) == MP_VAL);
    }
}

TEST_CASE("digit and modular functions: MP_MEM on allocation failure, no leak", "[bn][digit][alloc]") {
  auto rng = make_rng(303);
  for (int which = 0; which < 8; which++) {
    INFO("which=" << which);
    Z za, zb, zc, zo, want, t;
    rand_z(rng, za, 150);
    rand_z(rng, zb, 150);
    rand_z(rng, zc, 90, 0);
    mpz_set_ui(zo, 5);
    const mp_digit dg = 0xFFFFFFFFFFFFFFF1ull;
    switch (which) {
      case 0: mpz_add_ui(want, za, dg); break;
      case 1: mpz_sub_ui(want, za, dg); break;
      case 2: mpz_mul_ui(want, za, dg); break;
      case 3: mpz_tdiv_q_ui(want, za, dg); break;
      case 4: mpz_add(t, za, zb); mpz_mod(want, t, zc); break;
      case 5: mpz_sub(t, za, zb); mpz_mod(want, t, zc); break;
      case 6: mpz_mul(t, za, zb); mpz_mod(want, t, zc); break;
      default: mpz_mul(t, za, za); mpz_mod(want, t, zc); break;
    }
    mp_int a, b, c, o;
    FailCase fc;
    fc.setup = [&] {
      init_set(&a, za);
      init_set(&b, zb);
      init_set(&c, zc);
      init_set(&o, zo);
    };
    fc.op = [&] {
      switch (which) {
        case 0: return mp_add_d(&a, dg, &o);
        case 1: return mp_sub_d(&a, dg, &o);
        case 2: return mp_mul_d(&a, dg, &o);
        case 3: return mp_div_d(&a, dg, &o, nullptr);
        case 4: return mp_addmod(&a, &b, &c, &o);
        case 5: return mp_submod(&a, &b, &c, &o);
        case 6: return mp_mulmod(&a, &b, &c, &o);
        default: return mp_sqrmod(&a, &c, &o);
      }
    };
    fc.unchanged = [&] { return equal(&a, za) && equal(&b, zb) && equal(&c, zc) && equal(&o, zo); };
    fc.correct = [&] { return equal(&o, want) && well_formed(&o); };
    fc.teardown = [&] { mp_clear(&a); mp_clear(&b); mp_clear(&c); mp_clear(&o); };
    int k = run_alloc_failures(fc);
    CHECK(k >= 1);
  }
}

TEST_CASE("mp_set and mp_set_int (the seed's 32-bit constant: the value masked to 32 bits)", "[bn][digit]") {
  auto rng = make_rng(302);
  const unsigned long values[] = {0ul, 1ul, 0xFFFFFFFFul, 0x80000000ul, (unsigned long)~0ull,
                                  (unsigned long)0x100000005ull, (unsigned long)rng()};
  for (unsigned long v : values) {
    INFO("value " << v);
    M a;
    Z za, want;
    rand_z(rng, za, 5);
    mpz_neg(za.v, za.v);  // over a negative multi-digit value: sign and size reset
    setz(&a, za);
    REQUIRE(mp_set_int(&a, v) == MP_OKAY);
    mpz_set_ui(want.v, v & 0xFFFFFFFFul);
    BN_EQ(&a, want);
    REQUIRE(a.v.used == ((v & 0xFFFFFFFFul) ? 1 : 0));
    setz(&a, za);
    mp_set(&a, (mp_digit)v);
    mpz_set_ui(want.v, v);
    BN_EQ(&a, want);
  }
}
