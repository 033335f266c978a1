// The Jacobi symbol: mpn::jacobi_divsteps, mpn::jacobi_euclid, the dispatcher and mp_jacobi
// against GMP's mpz_jacobi: every small pair, hard limbs (0, 1, all-ones, powers of two, long
// runs), a > b and a of other lengths, common factors, b = 1, negative a, the RFC 7919 / 3526
// groups of ../shared/vectors/dh-groups.txt (2 and 4 are squares mod p, p - 1 is not, the
// generator's powers are), the divsteps' "undecided" answer with a tiny pass bound, aliasing
// and bad input (even or non-positive n: MP_VAL, *c untouched).
#include <catch2/catch.hpp>

#include <fstream>

#include "mpn/mpn.h"
#include "support/oracle.h"

using namespace mpbt;
using mpb::mpn::limb;

namespace {
// every algorithm on (a, b), b odd; checks each against mpz_jacobi
void check_all(const std::vector<limb> &a, const std::vector<limb> &b) {
  Z za, zb;
  to_mpz(za, a.data(), a.size());
  to_mpz(zb, b.data(), b.size());
  const int want = mpz_jacobi(za, zb);
  size_t an = a.size(), bn = mpb::mpn::normalized_size(b.data(), b.size());
  std::vector<limb> s(mpb::mpn::jacobi_itch(an, bn) + 8);
  const int ds = mpb::mpn::jacobi_divsteps(a.data(), an, b.data(), bn, s.data(), ~(size_t)0 >> 1);
  const int eu = mpb::mpn::jacobi_euclid(a.data(), an, b.data(), bn, s.data());
  const int di = mpb::mpn::jacobi(a.data(), an, b.data(), bn, s.data());
  INFO("a = " << to_hex(za) << ", b = " << to_hex(zb));
  REQUIRE(ds == want);
  REQUIRE(eu == want);
  REQUIRE(di == want);
  // a tiny bound: either the right answer or "undecided"
  const int t = mpb::mpn::jacobi_divsteps(a.data(), an, b.data(), bn, s.data(), 1);
  REQUIRE((t == want || t == 2));
}

std::vector<limb> odd(std::vector<limb> b) {
  b[0] |= 1;
  if (b.back() == 0) b.back() = 1;
  return b;
}
} // namespace

TEST_CASE("mpn jacobi: every a < 300 and odd b < 300", "[jacobi][mpn]") {
  for (limb b = 1; b < 300; b += 2)
    for (limb a = 0; a < 300; a++) check_all({a}, {b});
}

TEST_CASE("mpn jacobi vs mpz_jacobi: hard limbs, lengths around the 62-step passes, a > b, common factors",
          "[jacobi][mpn]") {
  auto rng = make_rng(77);
  for (size_t bn : size_sweep(48)) {
    for (int rep = 0; rep < 6; rep++) {
      auto b = odd(hard_limbs(rng, bn, rep % 3));
      for (size_t an : {(size_t)0, (size_t)1, bn > 1 ? bn - 1 : 1, bn, bn + 1, 2 * bn + 3}) {
        auto a = hard_limbs(rng, an, rep % 3);
        check_all(a, b);
      }
      // a = b, a = b - 1, a = b + 1, a = 2^k
      std::vector<limb> a = b;
      check_all(a, b);
      a[0] -= 1;  // b is odd: no borrow
      check_all(a, b);
      a[0] += 2;
      if (a[0] >= 2) check_all(a, b);
      std::vector<limb> p(bn, 0);
      p[rng() % bn] = (limb)1 << (rng() % 64);
      check_all(p, b);
      // a common factor: a = b * k mod (something), here a = b * small
      Z zb, zk, za;
      to_mpz(zb, b.data(), b.size());
      mpz_set_ui(zk, 3 + 2 * (rng() % 100));
      mpz_mul(za, zb, zk);
      check_all(limbs_of(za, bn + 1), b);
      if (mpz_cmp_ui(zb.v, 9) > 0) {  // gcd(a, b) = 3 when 3 | b
        mpz_mul_ui(zb, zb, 3);
        mpz_mul_ui(za, zk, 9);
        check_all(limbs_of(za, 1), limbs_of(zb, bn + 1));
      }
    }
  }
  // b = 1: (a/1) = 1 for every a
  check_all(hard_limbs(rng, 5), {1});
  check_all({}, {1});
  // all-ones b, all-ones a
  check_all(std::vector<limb>(17, ~(limb)0), std::vector<limb>(17, ~(limb)0));
  check_all(std::vector<limb>(16, ~(limb)0), std::vector<limb>(17, ~(limb)0));
}

TEST_CASE("mpn jacobi over the RFC 7919 / RFC 3526 groups (../shared/vectors/dh-groups.txt)", "[jacobi][mpn]") {
  std::ifstream f(vectors_dir() + "/dh-groups.txt");
  REQUIRE(f.good());
  std::string line;
  int groups = 0;
  auto rng = make_rng(78);
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string hex = line.substr(line.find('=') + 1);
    hex.erase(0, hex.find_first_not_of(' '));
    Z p, x, g, q;
    REQUIRE(mpz_set_str(p, hex.c_str(), 16) == 0);
    size_t w = (mpz_sizeinbase(p, 2) + 63) / 64;
    auto pl = limbs_of(p, w);
    std::vector<limb> s(mpb::mpn::jacobi_itch(w, w));
    auto jac = [&](mpz_srcptr z) {
      auto zl = limbs_of(z, w);
      return mpb::mpn::jacobi(zl.data(), w, pl.data(), w, s.data());
    };
    mpz_set_ui(x, 2);
    REQUIRE(jac(x) == 1);  // p = 7 mod 8
    mpz_set_ui(x, 4);
    REQUIRE(jac(x) == 1);
    mpz_sub_ui(x, p, 1);
    REQUIRE(jac(x) == -1);  // p = 3 mod 4
    for (int i = 0; i < 8; i++) {  // 2^k mod p: squares; 2^k * (p-1) mod p: not
      mpz_set_ui(g, 2);
      mpz_set_ui(q, rng() % 100000 + 1);
      mpz_powm(x, g, q, p);
      REQUIRE(jac(x) == 1);
      mpz_sub(x, p, x);
      REQUIRE(jac(x) == -1);
      auto r = hard_limbs(rng, w);
      Z zr;
      to_mpz(zr, r.data(), w);
      mpz_mod(zr, zr, p);
      REQUIRE(jac(zr) == mpz_jacobi(zr, p));
    }
    groups++;
  }
  REQUIRE(groups == 10);
}

TEST_CASE("mp_jacobi vs mpz_jacobi: signs, zero, aliasing, bad n", "[jacobi][mp_int]") {
  auto rng = make_rng(79);
  for (size_t an : {0, 1, 2, 5, 16, 33})
    for (size_t nn : {1, 2, 3, 16, 32}) {
      for (int rep = 0; rep < 4; rep++) {
        Z za, zn;
        auto al = hard_limbs(rng, an);
        auto nl = odd(hard_limbs(rng, nn));
        to_mpz(za, al.data(), an);
        to_mpz(zn, nl.data(), nn);
        if (rep & 1) mpz_neg(za, za);
        M a, n;
        REQUIRE(from_mpz(&a, za) == MP_OKAY);
        REQUIRE(from_mpz(&n, zn) == MP_OKAY);
        int c = 7;
        REQUIRE(mp_jacobi(&a, &n, &c) == MP_OKAY);
        REQUIRE(c == mpz_jacobi(za, zn));
        REQUIRE(mp_jacobi(&n, &n, &c) == MP_OKAY);  // aliasing: (n/n) = 0 unless n = 1
        REQUIRE(c == mpz_jacobi(zn, zn));
      }
    }
  M a, n;
  mp_set(&a, 5);
  int c = 7;
  mp_set(&n, 8);
  REQUIRE(mp_jacobi(&a, &n, &c) == MP_VAL);
  mp_set(&n, 0);
  REQUIRE(mp_jacobi(&a, &n, &c) == MP_VAL);
  mp_set(&n, 7);
  REQUIRE(mp_neg(&n, &n) == MP_OKAY);
  REQUIRE(mp_jacobi(&a, &n, &c) == MP_VAL);
  REQUIRE(c == 7);
  REQUIRE(mp_jacobi(nullptr, &n, &c) == MP_VAL);
}
