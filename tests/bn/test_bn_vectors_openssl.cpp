// Every stanza of OpenSSL's BN test files (../shared/vectors/openssl-bn/) through the mp_int API.
// Values are parsed with GMP (independent of mpbatch's radix code) and loaded with from_mpz.
// ModSqrt stanzas are not applicable: the seed API has no modular square root.
#include <catch2/catch.hpp>

#include <functional>

#include "support/oracle.h"

using namespace mpbt;

namespace {

struct Loaded {
  M m;
  Loaded() = default;
  Loaded(const Stanza &s, const char *key) { set(s, key); }
  void set(const Stanza &s, const char *key) {
    auto it = s.find(key);
    if (it == s.end()) throw std::runtime_error(std::string("stanza lacks key ") + key);
    Z z;
    set_hex(z, it->second);
    REQUIRE(from_mpz(&m, z) == MP_OKAY);
  }
};


void check_eq(const mp_int *got, const Stanza &s, const char *key, const char *what, size_t idx) {
  Z want;
  set_hex(want, s.at(key));
  INFO(what << " stanza #" << idx << " " << key << ": want " << to_hex(want) << " got " << to_hex(got));
  CHECK(equal(got, want));
}

// Runs fn on every stanza of `file` whose type key is `type`; returns how many ran.
size_t for_each(const std::string &file, const char *type,
                const std::function<void(const Stanza &, size_t)> &fn) {
  auto stanzas = read_stanzas(vectors_dir() + "/" + file);
  size_t n = 0;
  for (size_t i = 0; i < stanzas.size(); i++)
    if (stanzas[i].count(type)) fn(stanzas[i], i), n++;
  return n;
}

} // namespace

TEST_CASE("OpenSSL bnsum.txt: Sum", "[vectors][openssl]") {
  size_t n = for_each("openssl-bn/bnsum.txt", "sum", [](const Stanza &s, size_t i) {
    Loaded a(s, "a"), b(s, "b");
    M r;
    REQUIRE(mp_add(&a.m, &b.m, &r) == MP_OKAY);
    check_eq(&r, s, "sum", "Sum a+b", i);
    REQUIRE(mp_add(&b.m, &a.m, &r) == MP_OKAY);
    check_eq(&r, s, "sum", "Sum b+a", i);
    // Sum - A = B and Sum - B = A
    Loaded sum(s, "sum");
    REQUIRE(mp_sub(&sum.m, &a.m, &r) == MP_OKAY);
    check_eq(&r, s, "b", "Sum-A", i);
    REQUIRE(mp_sub(&sum.m, &b.m, &r) == MP_OKAY);
    check_eq(&r, s, "a", "Sum-B", i);
    // aliasing: a = a + b
    REQUIRE(mp_add(&a.m, &b.m, &a.m) == MP_OKAY);
    check_eq(&a.m, s, "sum", "Sum aliased", i);
  });
  CHECK(n == 654);
}

TEST_CASE("OpenSSL bnmul.txt: Square, Product, Quotient", "[vectors][openssl]") {
  size_t sq = for_each("openssl-bn/bnmul.txt", "square", [](const Stanza &s, size_t i) {
    Loaded a(s, "a");
    M r;
    REQUIRE(mp_sqr(&a.m, &r) == MP_OKAY);
    check_eq(&r, s, "square", "Square", i);
    REQUIRE(mp_mul(&a.m, &a.m, &r) == MP_OKAY);
    check_eq(&r, s, "square", "Square via mul", i);
  });
  size_t pr = for_each("openssl-bn/bnmul.txt", "product", [](const Stanza &s, size_t i) {
    Loaded a(s, "a"), b(s, "b");
    M r;
    REQUIRE(mp_mul(&a.m, &b.m, &r) == MP_OKAY);
    check_eq(&r, s, "product", "Product", i);
    REQUIRE(mp_mul(&b.m, &a.m, &b.m) == MP_OKAY);
    check_eq(&b.m, s, "product", "Product aliased", i);
  });
  size_t qu = for_each("openssl-bn/bnmul.txt", "quotient", [](const Stanza &s, size_t i) {
    Loaded a(s, "a"), b(s, "b");
    M q, r;
    REQUIRE(mp_div(&a.m, &b.m, &q, &r) == MP_OKAY);
    check_eq(&q, s, "quotient", "Quotient", i);
    check_eq(&r, s, "remainder", "Remainder", i);
    // quotient only / remainder only
    M q2, r2;
    REQUIRE(mp_div(&a.m, &b.m, &q2, nullptr) == MP_OKAY);
    check_eq(&q2, s, "quotient", "Quotient only", i);
    REQUIRE(mp_div(&a.m, &b.m, nullptr, &r2) == MP_OKAY);
    check_eq(&r2, s, "remainder", "Remainder only", i);
  });
  CHECK(sq == 102);
  CHECK(pr == 150);
  CHECK(qu == 351);
}

TEST_CASE("OpenSSL bnshift.txt: LShift1, LShift, RShift", "[vectors][openssl]") {
  size_t l1 = for_each("openssl-bn/bnshift.txt", "lshift1", [](const Stanza &s, size_t i) {
    Loaded a(s, "a");
    M r;
    REQUIRE(mp_mul_2(&a.m, &r) == MP_OKAY);
    check_eq(&r, s, "lshift1", "LShift1", i);
    REQUIRE(mp_mul_2d(&a.m, 1, &r) == MP_OKAY);
    check_eq(&r, s, "lshift1", "LShift1 via mul_2d", i);
  });
  size_t l = for_each("openssl-bn/bnshift.txt", "lshift", [](const Stanza &s, size_t i) {
    Loaded a(s, "a");
    int n = (int)std::stol(s.at("n"), nullptr, 16);
    M r;
    REQUIRE(mp_mul_2d(&a.m, n, &r) == MP_OKAY);
    check_eq(&r, s, "lshift", "LShift", i);
  });
  size_t rs = for_each("openssl-bn/bnshift.txt", "rshift", [](const Stanza &s, size_t i) {
    Loaded a(s, "a");
    int n = (int)std::stol(s.at("n"), nullptr, 16);
    M r;
    REQUIRE(mp_div_2d(&a.m, n, &r, nullptr) == MP_OKAY);
    check_eq(&r, s, "rshift", "RShift", i);
    if (n == 1) {
      REQUIRE(mp_div_2(&a.m, &r) == MP_OKAY);
      check_eq(&r, s, "rshift", "RShift via div_2", i);
    }
  });
  CHECK(l1 == 401);
  CHECK(l == 200);
  CHECK(rs == 101);
}

TEST_CASE("OpenSSL bnmod.txt: ModMul, ModExp (+ ModSqr extra)", "[vectors][openssl]") {
  size_t mm = for_each("openssl-bn/bnmod.txt", "modmul", [](const Stanza &s, size_t i) {
    Loaded a(s, "a"), b(s, "b"), m(s, "m");
    M r;
    REQUIRE(mp_mulmod(&a.m, &b.m, &m.m, &r) == MP_OKAY);
    check_eq(&r, s, "modmul", "ModMul", i);
  });
  size_t me = for_each("openssl-bn/bnmod.txt", "modexp", [](const Stanza &s, size_t i) {
    Loaded a(s, "a"), e(s, "e"), m(s, "m");
    M r;
    REQUIRE(mp_exptmod(&a.m, &e.m, &m.m, &r) == MP_OKAY);
    check_eq(&r, s, "modexp", "ModExp", i);
    if (mp_isodd(&m.m) && mp_cmp_d(&m.m, 1) == MP_GT && e.m.v.sign == MP_ZPOS) {
      M rc;
      REQUIRE(mp_exptmod_ct(&a.m, &e.m, &m.m, &rc) == MP_OKAY);
      check_eq(&rc, s, "modexp", "ModExp constant-time", i);
    }
  });
  size_t ms = for_each("openssl-bn-extra/bnmod-modsqr.txt", "modsqr", [](const Stanza &s, size_t i) {
    Loaded a(s, "a"), m(s, "m");
    M r;
    REQUIRE(mp_sqrmod(&a.m, &m.m, &r) == MP_OKAY);
    check_eq(&r, s, "modsqr", "ModSqr", i);
  });
  CHECK(mm == 400);
  CHECK(me == 101);
  CHECK(ms == 1);
}

TEST_CASE("OpenSSL bnexp.txt: Exp (no modulus, by repeated squaring with mp_sqr/mp_mul)", "[vectors][openssl]") {
  size_t n = for_each("openssl-bn/bnexp.txt", "exp", [](const Stanza &s, size_t i) {
    Loaded a(s, "a"), e(s, "e");
    M r;
    mp_set(&r, 1);
    for (int bit = mp_count_bits(&e.m) - 1; bit >= 0; bit--) {
      REQUIRE(mp_sqr(&r, &r) == MP_OKAY);
      if ((e.m.v.dp[bit / 64] >> (bit % 64)) & 1) REQUIRE(mp_mul(&r, &a.m, &r) == MP_OKAY);
    }
    check_eq(&r, s, "exp", "Exp", i);
  });
  CHECK(n == 5);
}

TEST_CASE("OpenSSL bngcd.txt: GCD", "[vectors][openssl]") {
  size_t n = for_each("openssl-bn/bngcd.txt", "gcd", [](const Stanza &s, size_t i) {
    Loaded a(s, "a"), b(s, "b");
    M r;
    REQUIRE(mp_gcd(&a.m, &b.m, &r) == MP_OKAY);
    check_eq(&r, s, "gcd", "GCD", i);
  });
  CHECK(n == 4327);
}
