// mp_cmp, mp_cmp_mag, mp_neg, mp_abs, mp_add, mp_sub, mp_mul, mp_sqr, mp_div, mp_mod against
// GMP: sizes 0..70 limbs and the multiplication thresholds +-2, hard operands, all sign
// combinations, every aliasing pattern, bad input, and simulated allocation failure.
#include "support/bn_test_common.h"
#include "support/forced_thresholds.h"

using namespace bnt;

namespace {
using BinOp = int (*)(const mp_int *, const mp_int *, mp_int *);
using GmpBin = void (*)(mpz_ptr, mpz_srcptr, mpz_srcptr);

void gmp_sqr(mpz_ptr r, mpz_srcptr a, mpz_srcptr) { mpz_mul(r, a, a); }
void gmp_mod(mpz_ptr r, mpz_srcptr a, mpz_srcptr b) { mpz_mod(r, a, b); }
int bn_sqr2(const mp_int *a, const mp_int *, mp_int *c) { return mp_sqr(a, c); }

// c = op(a, b) with c distinct, c == a, c == b; and op(x, x) with c distinct and c == x.
void check_binop(BinOp op, GmpBin g, mpz_srcptr za, mpz_srcptr zb, bool needs_nonzero_b = false) {
  Z want, want_aa;
  g(want, za, zb);
  M a, b, c;
  setz(&a, za);
  setz(&b, zb);
  mp_set(&c, 77);
  REQUIRE(op(&a, &b, &c) == MP_OKAY);
  BN_EQ(&c, want);
  BN_EQ(&a, za);
  BN_EQ(&b, zb);
  // c == a
  REQUIRE(op(&a, &b, &a) == MP_OKAY);
  BN_EQ(&a, want);
  setz(&a, za);
  // c == b
  REQUIRE(op(&a, &b, &b) == MP_OKAY);
  BN_EQ(&b, want);
  // a == b
  if (needs_nonzero_b && mpz_sgn(za) == 0) return;
  g(want_aa, za, za);
  REQUIRE(op(&a, &a, &c) == MP_OKAY);
  BN_EQ(&c, want_aa);
  BN_EQ(&a, za);
  REQUIRE(op(&a, &a, &a) == MP_OKAY);
  BN_EQ(&a, want_aa);
}
}  // namespace

TEST_CASE("mp_cmp, mp_cmp_mag, mp_neg, mp_abs agree with GMP", "[bn][arith]") {
  auto rng = make_rng(101);
  for (size_t n : sizes(12))
    for (int rep = 0; rep < 4; rep++) {
      Z za, zb, t;
      rand_z(rng, za, n);
      rand_z(rng, zb, rng() % 2 ? n : rng() % (n + 2));
      if (rep == 3) mpz_set(zb, za);
      if (rep == 2) mpz_neg(zb, za);
      M a, b, c;
      setz(&a, za);
      setz(&b, zb);
      int s = mpz_cmp(za, zb);
      REQUIRE(mp_cmp(&a, &b) == (s < 0 ? MP_LT : s > 0 ? MP_GT : MP_EQ));
      s = mpz_cmpabs(za, zb);
      REQUIRE(mp_cmp_mag(&a, &b) == (s < 0 ? MP_LT : s > 0 ? MP_GT : MP_EQ));
      REQUIRE(mp_cmp(&a, &a) == MP_EQ);
      mpz_neg(t, za);
      REQUIRE(mp_neg(&a, &c) == MP_OKAY);
      BN_EQ(&c, t);
      REQUIRE(mp_neg(&c, &c) == MP_OKAY);
      BN_EQ(&c, za);
      mpz_abs(t, za);
      REQUIRE(mp_abs(&a, &c) == MP_OKAY);
      BN_EQ(&c, t);
      REQUIRE(mp_abs(&a, &a) == MP_OKAY);
      BN_EQ(&a, t);
    }
  M z;
  M one;
  mp_set(&one, 1);
  REQUIRE(mp_neg(&z, &z) == MP_OKAY);
  REQUIRE(z.v.sign == MP_ZPOS);
  REQUIRE(mp_cmp(&z, &one) == MP_LT);
  REQUIRE(mp_cmp(nullptr, &one) == MP_VAL);
  REQUIRE(mp_cmp_mag(&one, nullptr) == MP_VAL);
  REQUIRE(mp_neg(nullptr, &z) == MP_VAL);
  REQUIRE(mp_abs(&z, nullptr) == MP_VAL);
}

TEST_CASE("mp_add and mp_sub agree with GMP (sizes, signs, aliasing)", "[bn][arith]") {
  auto rng = make_rng(102);
  for (size_t n : sizes())
    for (size_t m : {size_t(0), size_t(1), n / 2, n, n + 1})
      for (int sa = 0; sa < 2; sa++)
        for (int sb = 0; sb < 2; sb++) {
          Z za, zb;
          rand_z(rng, za, n, sa);
          rand_z(rng, zb, m, sb);
          if (rng() % 5 == 0) mpz_set(zb, za);  // equal magnitudes -> cancellation
          if (rng() % 5 == 0) mpz_neg(zb, za);
          check_binop(mp_add, mpz_add, za, zb);
          check_binop(mp_sub, mpz_sub, za, zb);
        }
  M a;
  REQUIRE(mp_add(nullptr, &a, &a) == MP_VAL);
  REQUIRE(mp_sub(&a, &a, nullptr) == MP_VAL);
}

TEST_CASE("mp_mul and mp_sqr agree with GMP (sizes around thresholds, aliasing)", "[bn][arith]") {
  auto rng = make_rng(103);
  for (size_t n : sizes()) {
    for (size_t m : {size_t(0), size_t(1), size_t(2), n / 3, n / 2, n - (n > 0), n}) {
      Z za, zb;
      rand_z(rng, za, n);
      rand_z(rng, zb, m);
      check_binop(mp_mul, mpz_mul, za, zb);
      check_binop(mp_mul, mpz_mul, zb, za);
    }
    Z za;
    rand_z(rng, za, n);
    check_binop(bn_sqr2, gmp_sqr, za, za);
    // squares of all-ones / powers of two
    mpz_set_ui(za, 0);
    if (n) {
      mpz_setbit(za, 64 * n);
      mpz_sub_ui(za, za, 1);
      check_binop(bn_sqr2, gmp_sqr, za, za);
      check_binop(mp_mul, mpz_mul, za, za);
      mpz_set_ui(za, 0);
      mpz_setbit(za, 64 * n - 1);
      mpz_neg(za, za);
      check_binop(bn_sqr2, gmp_sqr, za, za);
    }
  }
  M a;
  REQUIRE(mp_mul(&a, nullptr, &a) == MP_VAL);
  REQUIRE(mp_sqr(&a, nullptr) == MP_VAL);
}

TEST_CASE("mp_div and mp_mod agree with GMP (tdiv / non-negative mod)", "[bn][arith]") {
  auto rng = make_rng(104);
  for (size_t n : sizes())
    for (size_t m : {size_t(1), size_t(2), n / 2 + 1, n, n + 1, n + 3})
      for (int sa = 0; sa < 2; sa++)
        for (int sb = 0; sb < 2; sb++) {
          Z za, zb, zq, zr, zm;
          rand_z(rng, za, n, sa);
          rand_z(rng, zb, m, sb);
          if (mpz_sgn(zb.v) == 0) mpz_set_si(zb, sb ? -1 : 1);
          if (rng() % 6 == 0) {  // exact multiple, or a multiple minus 1
            mpz_mul(za, za, zb);
            if (rng() & 1) mpz_sub_ui(za, za, 1);
          }
          mpz_tdiv_qr(zq, zr, za, zb);
          mpz_mod(zm, za, zb);
          M a, b, q, r, c;
          setz(&a, za);
          setz(&b, zb);
          REQUIRE(mp_div(&a, &b, &q, &r) == MP_OKAY);
          BN_EQ(&q, zq);
          BN_EQ(&r, zr);
          REQUIRE(mp_div(&a, &b, &q, nullptr) == MP_OKAY);
          BN_EQ(&q, zq);
          REQUIRE(mp_div(&a, &b, nullptr, &r) == MP_OKAY);
          BN_EQ(&r, zr);
          REQUIRE(mp_mod(&a, &b, &c) == MP_OKAY);
          BN_EQ(&c, zm);
          // aliasing: quotient into a, remainder into b, and the reverse
          REQUIRE(mp_div(&a, &b, &a, &b) == MP_OKAY);
          BN_EQ(&a, zq);
          BN_EQ(&b, zr);
          setz(&a, za);
          setz(&b, zb);
          REQUIRE(mp_div(&a, &b, &b, &a) == MP_OKAY);
          BN_EQ(&b, zq);
          BN_EQ(&a, zr);
          setz(&a, za);
          setz(&b, zb);
          REQUIRE(mp_mod(&a, &b, &a) == MP_OKAY);
          BN_EQ(&a, zm);
          setz(&a, za);
          REQUIRE(mp_mod(&a, &b, &b) == MP_OKAY);
          BN_EQ(&b, zm);
          setz(&b, zb);
          // a == b
          REQUIRE(mp_div(&b, &b, &q, &r) == MP_OKAY);
          REQUIRE(mp_cmp_d(&q, 1) == MP_EQ);
          REQUIRE(mp_iszero(&r));
        }
  // division by zero, NULL
  M a, z, q, r;
  mp_set(&a, 5);
  mp_set(&q, 9);
  mp_set(&r, 9);
  REQUIRE(mp_div(&a, &z, &q, &r) == MP_VAL);
  REQUIRE(mp_mod(&a, &z, &r) == MP_VAL);
  REQUIRE(mp_cmp_d(&q, 9) == MP_EQ);
  REQUIRE(mp_cmp_d(&r, 9) == MP_EQ);
  REQUIRE(mp_div(nullptr, &a, &q, &r) == MP_VAL);
  REQUIRE(mp_mod(&a, &a, nullptr) == MP_VAL);
  REQUIRE(mp_div(&a, &a, &q, &q) == MP_VAL);  // quotient and remainder in one object
  REQUIRE(mp_div(&a, &a, nullptr, nullptr) == MP_OKAY);
}

TEST_CASE("mp_add/sub/mul/sqr/div/mod: MP_MEM on allocation failure, output untouched, no leak",
          "[bn][arith][alloc]") {
  auto rng = make_rng(105);
  using Op = std::function<int(mp_int *, mp_int *, mp_int *)>;
  struct Named { const char *name; Op op; GmpBin g; };
  std::vector<Named> ops = {
      {"add", [](mp_int *a, mp_int *b, mp_int *c) { return mp_add(a, b, c); }, mpz_add},
      {"sub", [](mp_int *a, mp_int *b, mp_int *c) { return mp_sub(a, b, c); }, mpz_sub},
      {"mul", [](mp_int *a, mp_int *b, mp_int *c) { return mp_mul(a, b, c); }, mpz_mul},
      {"sqr", [](mp_int *a, mp_int *, mp_int *c) { return mp_sqr(a, c); }, gmp_sqr},
      {"div", [](mp_int *a, mp_int *b, mp_int *c) { return mp_div(a, b, c, nullptr); }, mpz_tdiv_q},
      {"mod", [](mp_int *a, mp_int *b, mp_int *c) { return mp_mod(a, b, c); }, gmp_mod},
  };
  for (auto &nop : ops)
    for (size_t n : {size_t(3), size_t(40), size_t(300), size_t(1100)})
      for (int alias = 0; alias < 3; alias++) {  // 0: c distinct, 1: c == a, 2: c == b
        INFO(nop.name << " n=" << n << " alias=" << alias);
        Z za, zb, zc0, want;
        rand_z(rng, za, n);
        rand_z(rng, zb, n / 2 + 1);
        mpz_set_ui(zc0, 12345);
        nop.g(want, za, zb);
        mp_int a, b, c;
        FailCase fc;
        fc.setup = [&] {
          init_set(&a, za);
          init_set(&b, zb);
          init_set(&c, zc0);
        };
        mp_int *out = alias == 0 ? &c : alias == 1 ? &a : &b;
        fc.op = [&] { return nop.op(&a, &b, out); };
        fc.unchanged = [&] { return equal(&a, za) && equal(&b, zb) && equal(&c, zc0); };
        fc.correct = [&] { return equal(out, want) && well_formed(out); };
        fc.teardown = [&] { mp_clear(&a); mp_clear(&b); mp_clear(&c); };
        int k = run_alloc_failures(fc);
        if (n >= 300 && alias == 0) CHECK(k >= 1);  // big operands must have grown c
      }
}

TEST_CASE("mp_mul / mp_sqr fast path: output with room and stale digits, every small size",
          "[bn][arith][mul]") {
  auto rng = make_rng(106);
  for (size_t n = 1; n <= 20; n++)
    for (int rep = 0; rep < 20; rep++) {
      Z za, zb, zc, want;
      rand_z(rng, za, n);
      rand_z(rng, zb, n);
      rand_z(rng, zc, 45);  // c holds a longer value: its high digits must be cleared
      M a, b, c;
      setz(&a, za);
      setz(&b, zb);
      setz(&c, zc);
      mpz_mul(want, za, zb);
      REQUIRE(mp_mul(&a, &b, &c) == MP_OKAY);
      BN_EQ(&c, want);
      for (int i = c.v.used; i < c.v.alloc; i++) REQUIRE(c.v.dp[i] == 0);
      setz(&c, zc);
      mpz_mul(want, za, za);
      REQUIRE(mp_sqr(&a, &c) == MP_OKAY);
      BN_EQ(&c, want);
      for (int i = c.v.used; i < c.v.alloc; i++) REQUIRE(c.v.dp[i] == 0);
      // and again into the now exactly-sized output (no growth, fast path again)
      mpz_mul(want, za, zb);
      REQUIRE(mp_mul(&a, &b, &c) == MP_OKAY);
      BN_EQ(&c, want);
    }
}

TEST_CASE("mp_mul / mp_sqr / mp_mod with thresholds forced low (Karatsuba scratch at small sizes)",
          "[bn][arith][mul]") {
  ForcedMulThresholds forced(1, 2);
  auto rng = make_rng(107);
  for (size_t n = 0; n <= 40; n++)
    for (size_t m : {size_t(1), n / 2, n}) {
      Z za, zb;
      rand_z(rng, za, n);
      rand_z(rng, zb, m);
      check_binop(mp_mul, mpz_mul, za, zb);
      check_binop(bn_sqr2, gmp_sqr, za, za);
      if (mpz_sgn(zb.v)) check_binop(mp_mod, gmp_mod, za, zb, true);
    }
}

TEST_CASE("cleared mp_int as input and output; size limits", "[bn][arith]") {
  mp_int z;  // cleared: dp == NULL, used == alloc == 0
  REQUIRE(mp_init(&z) == MP_OKAY);
  mp_clear(&z);
  M a, c;
  mp_set(&a, 5);
  REQUIRE(mp_add(&z, &a, &c) == MP_OKAY);
  REQUIRE(mp_cmp_d(&c, 5) == MP_EQ);
  REQUIRE(mp_mul(&a, &z, &c) == MP_OKAY);
  REQUIRE(mp_iszero(&c.v));
  REQUIRE(mp_div(&z, &a, &c, nullptr) == MP_OKAY);
  REQUIRE(mp_iszero(&c.v));
  REQUIRE(mp_sub(&z, &a, &z) == MP_OKAY);  // output with no storage grows
  REQUIRE(z.sign == MP_NEG);
  REQUIRE(z.dp[0] == 5);
  mp_clear(&z);
  // results over MAX_DIGITS are refused with MP_MEM, output untouched
  REQUIRE(mp_mul_2d(&a, 2147483647, &c) == MP_MEM);
  REQUIRE(mp_lshd(&a, 2147483647) == MP_MEM);
  REQUIRE(mp_cmp_d(&a, 5) == MP_EQ);
  // a value of exactly MAX_DIGITS/2 + 1 digits squared is too big
  M big;
  REQUIRE(mp_mul_2d(&a, 64 * ((1 << 23) + 1), &big) == MP_OKAY);
  mp_set(&c, 9);
  REQUIRE(mp_sqr(&big, &c) == MP_MEM);
  REQUIRE(mp_mul(&big, &big, &c) == MP_MEM);
  REQUIRE(mp_cmp_d(&c, 9) == MP_EQ);
}

TEST_CASE("mp_mul / mp_sqr do not allocate when the output has room and no operand aliases it",
          "[bn][arith][mul][alloc]") {
  auto rng = make_rng(108);
  for (size_t n = 1; n <= 70; n++) {
    Z za, zb, want;
    rand_z(rng, za, n);
    rand_z(rng, zb, n);
    M a, b, c;
    setz(&a, za);
    setz(&b, zb);
    REQUIRE(mp_grow(&c.v, (int)(2 * n)) == MP_OKAY);
    CountingAllocator hook;
    REQUIRE(mp_mul(&a, &b, &c) == MP_OKAY);
    REQUIRE(mp_sqr(&a, &c) == MP_OKAY);
    // scratch above the stack buffers may come from the heap for larger sizes; up to 64
    // limbs (4096 bits) nothing may be allocated
    INFO("n = " << n << " allocations " << stats().calls);
    if (n <= 64) REQUIRE(stats().calls == 0);
    mpz_mul(want, za, za);
    BN_EQ(&c, want);
  }
}
