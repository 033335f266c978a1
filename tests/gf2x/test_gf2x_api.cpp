// The public GF(2)[x] API (include/mpbatch/gf2x.h) against the bit-serial reference
// (tests/ref/gf2x_ref.*): life cycle, queries, shifts, strings, addition, every multiplication
// method at 1..40 limbs with hard operands and aliasing, division / gcd / inversion, and bad
// input (NULL, malformed, out of range, allocation failure: a clear code and nothing written).
#include <functional>

#include "support/gf2x_test_util.h"

using namespace gf2xt;
using gf2ref::Poly;

namespace {

using MulFn = std::function<int(mpb_gf2x *, const mpb_gf2x *, const mpb_gf2x *)>;
struct Method {
  const char *name;
  MulFn fn;
};

std::vector<Method> methods() {
  return {
      {"comb_rtl", mpb_gf2x_mul_comb_rtl},
      {"comb_ltr", mpb_gf2x_mul_comb_ltr},
      {"comb_ltr_w2", [](mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) { return mpb_gf2x_mul_comb_ltr_w(r, a, b, 2); }},
      {"comb_ltr_w4", [](mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) { return mpb_gf2x_mul_comb_ltr_w(r, a, b, 4); }},
      {"comb_ltr_w8", [](mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) { return mpb_gf2x_mul_comb_ltr_w(r, a, b, 8); }},
      {"karatsuba", mpb_gf2x_mul_karatsuba},
      {"toom3", mpb_gf2x_mul_toom3},
      {"toom4", mpb_gf2x_mul_toom4},
      {"clmul", mpb_gf2x_mul_clmul},
      {"mul", mpb_gf2x_mul},
  };
}

bool have_clmul() {
  P a(Poly{1}), r;
  return mpb_gf2x_mul_clmul(&r, &a, &a) == MPB_OK;
}

}  // namespace

TEST_CASE("gf2x life cycle, copy, queries", "[gf2x][api]") {
  auto rng = mpbt::make_rng(0x6f2a01);
  mpb_gf2x a;
  REQUIRE(mpb_gf2x_init(&a) == MPB_OK);
  REQUIRE(a.size == 0);
  REQUIRE(a.alloc == 0);
  int64_t d = 7;
  REQUIRE(mpb_gf2x_degree(&a, &d) == MPB_OK);
  REQUIRE(d == -1);
  int yes = -1;
  REQUIRE(mpb_gf2x_is_zero(&a, &yes) == MPB_OK);
  REQUIRE(yes == 1);
  REQUIRE(mpb_gf2x_is_one(&a, &yes) == MPB_OK);
  REQUIRE(yes == 0);
  REQUIRE(mpb_gf2x_set_one(&a) == MPB_OK);
  REQUIRE(mpb_gf2x_is_one(&a, &yes) == MPB_OK);
  REQUIRE(yes == 1);
  REQUIRE(mpb_gf2x_degree(&a, &d) == MPB_OK);
  REQUIRE(d == 0);
  REQUIRE(mpb_gf2x_free(&a) == MPB_OK);
  REQUIRE(a.limbs == nullptr);

  mpb_gf2x z;
  REQUIRE(mpb_gf2x_init_size(&z, 5) == MPB_OK);
  REQUIRE(z.alloc == 5);
  REQUIRE(z.size == 0);
  // set_zero keeps the allocation; on a NULL polynomial it is an error
  const uint64_t three[3] = {~0ull, 1, 0x8000000000000000ull};
  REQUIRE(mpb_gf2x_set_limbs(&z, three, 3) == MPB_OK);
  REQUIRE(mpb_gf2x_degree(&z, &d) == MPB_OK);
  REQUIRE(d == 191);
  uint64_t *kept = z.limbs;
  REQUIRE(mpb_gf2x_set_zero(&z) == MPB_OK);
  REQUIRE(z.size == 0);
  REQUIRE(z.alloc == 5);
  REQUIRE(z.limbs == kept);
  REQUIRE(mpb_gf2x_is_zero(&z, &yes) == MPB_OK);
  REQUIRE(yes == 1);
  REQUIRE(mpb_gf2x_degree(&z, &d) == MPB_OK);
  REQUIRE(d == -1);
  REQUIRE(mpb_gf2x_set_zero(nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2x_free(&z) == MPB_OK);

  for (size_t n = 1; n <= 40; n++)
    for (int kind = 0; kind < 5; kind++) {
      Poly ra = operand(rng, n, kind);
      std::vector<uint64_t> raw(n + 2, 0);  // not normalized: two high zero limbs
      auto l = gf2ref::to_limbs(ra);
      std::copy(l.begin(), l.end(), raw.begin());
      P pa;
      REQUIRE(mpb_gf2x_set_limbs(&pa, raw.data(), raw.size()) == MPB_OK);
      REQUIRE(pa.poly() == ra);
      REQUIRE(pa.v.size == l.size());
      REQUIRE(mpb_gf2x_degree(&pa, &d) == MPB_OK);
      REQUIRE(d == gf2ref::degree(ra));
      mpb_gf2x c;
      REQUIRE(mpb_gf2x_init_copy(&c, &pa) == MPB_OK);
      int eq = 0, cmp = 9;
      REQUIRE(mpb_gf2x_equal(&c, &pa, &eq) == MPB_OK);
      REQUIRE(eq == 1);
      REQUIRE(mpb_gf2x_cmp(&c, &pa, &cmp) == MPB_OK);
      REQUIRE(cmp == 0);
      // flip the top coefficient: compare follows the integer order of the bit strings
      if (d >= 0) {
        Poly rb = ra;
        rb[d] = 0;
        gf2ref::trim(rb);
        P pb(rb);
        REQUIRE(mpb_gf2x_cmp(&pb, &pa, &cmp) == MPB_OK);
        REQUIRE(cmp == -1);
        REQUIRE(mpb_gf2x_cmp(&pa, &pb, &cmp) == MPB_OK);
        REQUIRE(cmp == 1);
        REQUIRE(mpb_gf2x_equal(&pa, &pb, &eq) == MPB_OK);
        REQUIRE(eq == 0);
      }
      // coefficients
      for (int t = 0; t < 8; t++) {
        uint64_t i = rng() % (64 * n + 10);
        int bit = -1;
        REQUIRE(mpb_gf2x_get_bit(&pa, i, &bit) == MPB_OK);
        REQUIRE(bit == (i < ra.size() ? ra[i] : 0));
      }
      // a non-normalized struct is read as its normalized value; trim normalizes it
      P pu;
      REQUIRE(mpb_gf2x_init_size(&pu.v, n + 2) == MPB_OK);
      std::copy(raw.begin(), raw.end(), pu.v.limbs);
      pu.v.size = n + 2;
      REQUIRE(mpb_gf2x_equal(&pu, &pa, &eq) == MPB_OK);
      REQUIRE(eq == 1);
      REQUIRE(mpb_gf2x_trim(&pu) == MPB_OK);
      REQUIRE(pu.v.size == l.size());
      REQUIRE(mpb_gf2x_copy(&c, &c) == MPB_OK);  // self copy
      REQUIRE(gf2ref::from_limbs(c.limbs, c.size) == ra);
      REQUIRE(mpb_gf2x_free(&c) == MPB_OK);
    }
  // set_bit builds a polynomial coefficient by coefficient
  P s;
  Poly rs;
  for (int t = 0; t < 50; t++) {
    uint64_t i = rng() % 3000;
    REQUIRE(mpb_gf2x_set_bit(&s, i) == MPB_OK);
    if (rs.size() <= i) rs.resize(i + 1, 0);
    rs[i] = 1;
  }
  REQUIRE(s.poly() == rs);
  // swap
  P x(Poly{1, 1}), y(Poly{0, 0, 1});
  REQUIRE(mpb_gf2x_swap(&x, &y) == MPB_OK);
  REQUIRE(x.poly() == Poly({0, 0, 1}));
  REQUIRE(y.poly() == Poly({1, 1}));
}

TEST_CASE("gf2x shifts against the reference", "[gf2x][api]") {
  each_operand(0x6f2a02, [](const Poly &ra, P &pa, std::mt19937_64 &rng) {
    for (uint64_t sh : {0ull, 1ull, 63ull, 64ull, 65ull, 127ull, 128ull, (unsigned long long)(rng() % 3000)}) {
      Poly expl = ra.empty() ? Poly{} : gf2ref::mul(ra, gf2ref::monomial((long)sh));
      Poly expr = ra.size() > sh ? Poly(ra.begin() + (long)sh, ra.end()) : Poly{};
      P r;
      REQUIRE(mpb_gf2x_lshift(&r, &pa, sh) == MPB_OK);
      REQUIRE(r.poly() == expl);
      REQUIRE(mpb_gf2x_rshift(&r, &pa, sh) == MPB_OK);
      REQUIRE(r.poly() == expr);
      // aliasing
      P q(ra);
      REQUIRE(mpb_gf2x_lshift(&q, &q, sh) == MPB_OK);
      REQUIRE(q.poly() == expl);
      REQUIRE(mpb_gf2x_rshift(&q, &q, sh) == MPB_OK);
      REQUIRE(q.poly() == ra);
      size_t limbs = sh % 50;
      REQUIRE(mpb_gf2x_lshift_limbs(&r, &pa, limbs) == MPB_OK);
      REQUIRE(r.poly() == (ra.empty() ? Poly{} : gf2ref::mul(ra, gf2ref::monomial(64 * (long)limbs))));
      REQUIRE(mpb_gf2x_rshift_limbs(&r, &r, limbs) == MPB_OK);
      REQUIRE(r.poly() == ra);
      REQUIRE(mpb_gf2x_rshift_limbs(&r, &pa, limbs) == MPB_OK);
      REQUIRE(r.poly() == (ra.size() > 64 * limbs ? Poly(ra.begin() + 64 * (long)limbs, ra.end()) : Poly{}));
    }
  });
}

TEST_CASE("gf2x hex and binary strings", "[gf2x][api][io]") {
  each_operand(0x6f2a03, [](const Poly &ra, P &pa, std::mt19937_64 &) {
    size_t hs = 0, bs = 0;
    REQUIRE(mpb_gf2x_hex_size(&pa, &hs) == MPB_OK);
    REQUIRE(mpb_gf2x_bin_size(&pa, &bs) == MPB_OK);
    std::string hex = gf2ref::to_hex(ra), bin = gf2ref::to_bin(ra);
    REQUIRE(hs == hex.size() + 1);
    REQUIRE(bs == bin.size() + 1);
    std::vector<char> buf(bs + 8, 'Z');
    REQUIRE(mpb_gf2x_get_hex(&pa, buf.data(), hs) == MPB_OK);
    REQUIRE(std::string(buf.data()) == hex);
    REQUIRE(mpb_gf2x_get_bin(&pa, buf.data(), bs) == MPB_OK);
    REQUIRE(std::string(buf.data()) == bin);
    // too small a buffer: MPB_ERANGE, nothing written
    std::fill(buf.begin(), buf.end(), 'Z');
    REQUIRE(mpb_gf2x_get_hex(&pa, buf.data(), hs - 1) == MPB_ERANGE);
    REQUIRE(buf[0] == 'Z');
    // parse back, with prefixes, upper case and leading zeros
    P r;
    REQUIRE(mpb_gf2x_set_hex(&r, hex.c_str()) == MPB_OK);
    REQUIRE(r.poly() == ra);
    std::string up = "0X000";
    for (char c : hex) up.push_back((char)toupper(c));
    REQUIRE(mpb_gf2x_set_hex(&r, up.c_str()) == MPB_OK);
    REQUIRE(r.poly() == ra);
    REQUIRE(mpb_gf2x_set_bin(&r, bin.c_str()) == MPB_OK);
    REQUIRE(r.poly() == ra);
    REQUIRE(mpb_gf2x_set_bin(&r, ("0b00" + bin).c_str()) == MPB_OK);
    REQUIRE(r.poly() == ra);
    REQUIRE(gf2ref::from_hex(hex) == ra);
  });
  // malformed strings: MPB_EVAL, output untouched
  P r(Poly{1, 0, 1});
  auto snap = r.snapshot();
  for (const char *bad : {"", "0x", "0xg", "12 34", "-1", "+1", "0x0x1", "1_0", " 1", "1 ", "0X"}) {
    INFO(bad);
    REQUIRE(mpb_gf2x_set_hex(&r, bad) == MPB_EVAL);
    REQUIRE(r.snapshot() == snap);
  }
  for (const char *bad : {"", "0b", "2", "0x1", "10a", "1 0", "0b0b1"}) {
    INFO(bad);
    REQUIRE(mpb_gf2x_set_bin(&r, bad) == MPB_EVAL);
    REQUIRE(r.snapshot() == snap);
  }
  REQUIRE(mpb_gf2x_set_hex(&r, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2x_set_hex(nullptr, "1") == MPB_ENULL);
  REQUIRE(r.snapshot() == snap);
  REQUIRE(mpb_gf2x_set_hex(&r, "0") == MPB_OK);
  REQUIRE(r.v.size == 0);
  REQUIRE(mpb_gf2x_set_bin(&r, "0000") == MPB_OK);
  REQUIRE(r.v.size == 0);
  char zb[2];
  REQUIRE(mpb_gf2x_get_hex(&r, zb, 2) == MPB_OK);
  REQUIRE(std::string(zb) == "0");
}

TEST_CASE("gf2x addition against the reference, with aliasing", "[gf2x][api]") {
  auto rng = mpbt::make_rng(0x6f2a04);
  for (size_t n = 1; n <= 40; n++)
    for (int ka = 0; ka < 5; ka++) {
      size_t bn = 1 + rng() % 40;
      Poly ra = operand(rng, n, ka), rb = operand(rng, bn, (int)(rng() % 5));
      Poly exp = gf2ref::add(ra, rb);
      P a(ra), b(rb), r;
      REQUIRE(mpb_gf2x_add(&r, &a, &b) == MPB_OK);
      REQUIRE(r.poly() == exp);
      REQUIRE(mpb_gf2x_add(&a, &a, &b) == MPB_OK);
      REQUIRE(a.poly() == exp);
      REQUIRE(mpb_gf2x_add(&b, &a, &b) == MPB_OK);  // b = (a+b) + b = a
      REQUIRE(b.poly() == ra);
      REQUIRE(mpb_gf2x_add(&a, &a, &a) == MPB_OK);
      REQUIRE(a.v.size == 0);
    }
}

TEST_CASE("gf2x every multiplication method against the reference, 1..40 limbs", "[gf2x][api][mul]") {
  auto rng = mpbt::make_rng(0x6f2a05);
  const bool clmul = have_clmul();
  const auto ms = methods();
  for (size_t n = 1; n <= 40; n++) {
    // balanced with all kind pairs, plus a few unbalanced shapes
    std::vector<std::tuple<size_t, int, size_t, int>> shapes;
    for (int ka = 0; ka < 5; ka++) shapes.emplace_back(n, ka, n, (ka + 1 + (int)(rng() % 4)) % 5);
    shapes.emplace_back(n, 0, n, 0);
    shapes.emplace_back(n, 1, n, 1);
    shapes.emplace_back(n, 3, n, 3);
    for (int t = 0; t < 3; t++) shapes.emplace_back(n, (int)(rng() % 4), 1 + rng() % 40, (int)(rng() % 4));
    for (auto &[an, ka, bn, kb] : shapes) {
      Poly ra = operand(rng, an, ka), rb = operand(rng, bn, kb);
      Poly exp = gf2ref::mul(ra, rb);
      P a(ra), b(rb);
      for (const auto &m : ms) {
        if (!clmul && std::string(m.name) == "clmul") continue;
        INFO(m.name << " an=" << an << " bn=" << bn << " kinds " << ka << "," << kb);
        P r(Poly{1, 1, 0, 1});  // some previous value
        REQUIRE(m.fn(&r, &a, &b) == MPB_OK);
        REQUIRE(r.poly() == exp);
        REQUIRE(m.fn(&r, &b, &a) == MPB_OK);  // commutes
        REQUIRE(r.poly() == exp);
        P a2(ra), b2(rb);
        REQUIRE(m.fn(&a2, &a2, &b) == MPB_OK);  // r aliases a
        REQUIRE(a2.poly() == exp);
        REQUIRE(m.fn(&b2, &a, &b2) == MPB_OK);  // r aliases b
        REQUIRE(b2.poly() == exp);
      }
      // squaring: every method with a == b == r, and mpb_gf2x_sqr
      Poly sq = gf2ref::mul(ra, ra);
      for (const auto &m : ms) {
        if (!clmul && std::string(m.name) == "clmul") continue;
        INFO(m.name << " square an=" << an);
        P s(ra);
        REQUIRE(m.fn(&s, &s, &s) == MPB_OK);
        REQUIRE(s.poly() == sq);
      }
      P s(ra), r2;
      REQUIRE(mpb_gf2x_sqr(&r2, &s) == MPB_OK);
      REQUIRE(r2.poly() == sq);
      REQUIRE(mpb_gf2x_sqr(&s, &s) == MPB_OK);
      REQUIRE(s.poly() == sq);
    }
  }
}

TEST_CASE("gf2x larger sizes through the sub-quadratic methods", "[gf2x][api][mul]") {
  // 1..40 limbs stays below the Toom cut-offs of the dispatcher; also cross 200/600 limbs once
  // (all methods must agree with each other; the reference checks one of them)
  auto rng = mpbt::make_rng(0x6f2a06);
  const bool clmul = have_clmul();
  for (size_t n : {64, 199, 200, 201, 257, 600, 650}) {
    Poly ra = operand(rng, n, 0), rb = operand(rng, n - n / 3, 3);
    P a(ra), b(rb), ref;
    REQUIRE(mpb_gf2x_mul_comb_rtl(&ref, &a, &b) == MPB_OK);
    if (n <= 257) REQUIRE(ref.poly() == gf2ref::mul(ra, rb));
    for (const auto &m : methods()) {
      if (!clmul && std::string(m.name) == "clmul") continue;
      INFO(m.name << " n=" << n);
      P r;
      REQUIRE(m.fn(&r, &a, &b) == MPB_OK);
      int eq = 0;
      REQUIRE(mpb_gf2x_equal(&r, &ref, &eq) == MPB_OK);
      REQUIRE(eq == 1);
    }
  }
}

TEST_CASE("gf2x algebra: distributivity and associativity", "[gf2x][api][mul]") {
  auto rng = mpbt::make_rng(0x6f2a07);
  for (size_t n = 1; n <= 40; n++) {
    Poly ra = operand(rng, n, 0), rb = operand(rng, 1 + rng() % 40, (int)(rng() % 5)),
         rc = operand(rng, 1 + rng() % 40, (int)(rng() % 5));
    P a(ra), b(rb), c(rc), bc, l, ab, ac, rr;
    REQUIRE(mpb_gf2x_add(&bc, &b, &c) == MPB_OK);
    REQUIRE(mpb_gf2x_mul(&l, &a, &bc) == MPB_OK);
    REQUIRE(mpb_gf2x_mul_karatsuba(&ab, &a, &b) == MPB_OK);
    REQUIRE(mpb_gf2x_mul_toom3(&ac, &a, &c) == MPB_OK);
    REQUIRE(mpb_gf2x_add(&rr, &ab, &ac) == MPB_OK);
    int eq = 0;
    REQUIRE(mpb_gf2x_equal(&l, &rr, &eq) == MPB_OK);
    REQUIRE(eq == 1);
    // (ab)c = a(bc)
    P abc1, bcp, abc2;
    REQUIRE(mpb_gf2x_mul_toom4(&abc1, &ab, &c) == MPB_OK);
    REQUIRE(mpb_gf2x_mul_comb_ltr(&bcp, &b, &c) == MPB_OK);
    REQUIRE(mpb_gf2x_mul_comb_ltr_w(&abc2, &a, &bcp, 4) == MPB_OK);
    REQUIRE(mpb_gf2x_equal(&abc1, &abc2, &eq) == MPB_OK);
    REQUIRE(eq == 1);
  }
}

TEST_CASE("gf2x shift-and-add multiplication mod f against the reference", "[gf2x][api][mul]") {
  auto rng = mpbt::make_rng(0x6f2a08);
  for (size_t n = 1; n <= 40; n++) {
    // any f of degree >= 1 (reducible is fine here): random, trinomial-like, x, x+1
    std::vector<Poly> fs = {operand(rng, n, 3), gf2ref::from_exponents({(long)(64 * n - 1), 3, 0})};
    if (n == 1) {
      fs.push_back(Poly{0, 1});
      fs.push_back(Poly{1, 1});
    }
    for (const Poly &rf : fs) {
      for (int t = 0; t < 3; t++) {
        Poly ra = operand(rng, 1 + rng() % (2 * n), (int)(rng() % 5));
        Poly rb = operand(rng, 1 + rng() % (2 * n), (int)(rng() % 5));
        Poly exp = gf2ref::mulmod(ra, rb, rf);
        P a(ra), b(rb), f(rf), r;
        REQUIRE(mpb_gf2x_mul_shift_add(&r, &a, &b, &f) == MPB_OK);
        REQUIRE(r.poly() == exp);
        REQUIRE(mpb_gf2x_mul_shift_add(&a, &a, &a, &f) == MPB_OK);  // aliasing
        REQUIRE(a.poly() == gf2ref::mulmod(ra, ra, rf));
        REQUIRE(mpb_gf2x_mul_shift_add(&f, &b, &b, &f) == MPB_OK);  // r aliases f
        REQUIRE(f.poly() == gf2ref::mulmod(rb, rb, rf));
      }
    }
  }
}

TEST_CASE("gf2x divrem, mod, gcd and invmod against the reference", "[gf2x][api][div]") {
  auto rng = mpbt::make_rng(0x6f2a09);
  for (size_t n = 1; n <= 40; n++)
    for (int kb = 0; kb < 4; kb++) {
      Poly rb = operand(rng, 1 + rng() % n, kb);
      Poly ra = operand(rng, 1 + rng() % 40, (int)(rng() % 5));
      if (rb.empty()) rb = Poly{1};
      Poly q, rem;
      gf2ref::divmod(ra, rb, q, rem);
      P a(ra), b(rb), pq, pr;
      REQUIRE(mpb_gf2x_divrem(&pq, &pr, &a, &b) == MPB_OK);
      REQUIRE(pq.poly() == q);
      REQUIRE(pr.poly() == rem);
      P m;
      REQUIRE(mpb_gf2x_mod(&m, &a, &b) == MPB_OK);
      REQUIRE(m.poly() == rem);
      P a2(ra);
      REQUIRE(mpb_gf2x_divrem(&a2, nullptr, &a2, &b) == MPB_OK);  // quotient in place
      REQUIRE(a2.poly() == q);
      P b2(rb);
      REQUIRE(mpb_gf2x_mod(&b2, &a, &b2) == MPB_OK);  // remainder into the divisor
      REQUIRE(b2.poly() == rem);
      // gcd
      Poly g = gf2ref::gcd(ra, rb);
      P pg;
      REQUIRE(mpb_gf2x_gcd(&pg, &a, &b) == MPB_OK);
      REQUIRE(pg.poly() == g);
      // invmod (f = b when deg b >= 1)
      if (gf2ref::degree(rb) >= 1) {
        P inv(Poly{1, 1, 1});
        auto snap = inv.snapshot();
        int st = mpb_gf2x_invmod(&inv, &a, &b);
        Poly ri;
        bool ok = gf2ref::inverse(ra, rb, ri);
        if (ok) {
          REQUIRE(st == MPB_OK);
          REQUIRE(inv.poly() == ri);
          REQUIRE(gf2ref::mulmod(ri, ra, rb) == Poly{1});
        } else {
          REQUIRE(st == MPB_ENOTINV);
          REQUIRE(inv.snapshot() == snap);
        }
      }
    }
  // small moduli: the extended Euclid matches exhaustive search
  for (long m = 1; m <= 10; m++)
    for (int t = 0; t < 10; t++) {
      Poly rf = gf2ref::random_poly(rng, m);
      rf.resize(m + 1, 0);
      rf[m] = 1;
      Poly ra = gf2ref::random_poly(rng, m + 3);
      Poly rb, re;
      bool ok = gf2ref::inverse_brute(ra, rf, rb);
      REQUIRE(ok == gf2ref::inverse(ra, rf, re));
      P a(ra), f(rf), r;
      int st = mpb_gf2x_invmod(&r, &a, &f);
      REQUIRE(st == (ok ? MPB_OK : MPB_ENOTINV));
      if (ok) {
        REQUIRE(r.poly() == rb);
        REQUIRE(re == rb);
      }
    }
}

TEST_CASE("gf2x bad input: clear codes, nothing written", "[gf2x][api][bad]") {
  P a(Poly{1, 0, 1, 1}), b(Poly{0, 1, 1}), r(Poly{1, 1});
  const auto snap = r.snapshot();
  // NULL
  REQUIRE(mpb_gf2x_init(nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2x_free(nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2x_copy(nullptr, &a) == MPB_ENULL);
  REQUIRE(mpb_gf2x_copy(&r, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2x_add(&r, nullptr, &b) == MPB_ENULL);
  REQUIRE(mpb_gf2x_add(&r, &a, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2x_mul(nullptr, &a, &b) == MPB_ENULL);
  for (const auto &m : methods()) {
    INFO(m.name);
    REQUIRE(m.fn(&r, nullptr, &b) == MPB_ENULL);
    REQUIRE(m.fn(&r, &a, nullptr) == MPB_ENULL);
    REQUIRE(m.fn(nullptr, &a, &b) == MPB_ENULL);
  }
  REQUIRE(mpb_gf2x_sqr(&r, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2x_mul_shift_add(&r, &a, &b, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2x_init_limbs(&r.v, nullptr, 3) == MPB_ENULL);
  REQUIRE(mpb_gf2x_set_limbs(&r, nullptr, 3) == MPB_ENULL);
  int64_t d = 42;
  REQUIRE(mpb_gf2x_degree(nullptr, &d) == MPB_ENULL);
  REQUIRE(mpb_gf2x_degree(&a, nullptr) == MPB_ENULL);
  int eq = 42;
  REQUIRE(mpb_gf2x_equal(&a, nullptr, &eq) == MPB_ENULL);
  REQUIRE(mpb_gf2x_equal(&a, &b, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2x_cmp(nullptr, &b, &eq) == MPB_ENULL);
  REQUIRE(mpb_gf2x_is_zero(nullptr, &eq) == MPB_ENULL);
  REQUIRE(mpb_gf2x_is_one(&a, nullptr) == MPB_ENULL);
  REQUIRE(eq == 42);
  REQUIRE(d == 42);
  REQUIRE(mpb_gf2x_divrem(nullptr, nullptr, &a, &b) == MPB_ENULL);
  REQUIRE(mpb_gf2x_gcd(&r, &a, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2x_invmod(&r, nullptr, &b) == MPB_ENULL);
  REQUIRE(r.snapshot() == snap);
  // unsupported window widths
  for (unsigned w : {0u, 1u, 3u, 5u, 6u, 7u, 9u, 16u, 64u}) {
    INFO("w=" << w);
    REQUIRE(mpb_gf2x_mul_comb_ltr_w(&r, &a, &b, w) == MPB_EVAL);
    REQUIRE(r.snapshot() == snap);
  }
  // division by zero, modulus of degree < 1
  P zero, one(Poly{1});
  REQUIRE(mpb_gf2x_divrem(&r, nullptr, &a, &zero) == MPB_EVAL);
  REQUIRE(mpb_gf2x_mod(&r, &a, &zero) == MPB_EVAL);
  REQUIRE(mpb_gf2x_divrem(&r, &r, &a, &b) == MPB_EVAL);  // q and r the same object
  REQUIRE(mpb_gf2x_mul_shift_add(&r, &a, &b, &zero) == MPB_EVAL);
  REQUIRE(mpb_gf2x_mul_shift_add(&r, &a, &b, &one) == MPB_EVAL);
  REQUIRE(mpb_gf2x_invmod(&r, &a, &one) == MPB_EVAL);
  REQUIRE(mpb_gf2x_invmod(&r, &a, &zero) == MPB_EVAL);
  // not invertible: 0, and a common factor
  REQUIRE(mpb_gf2x_invmod(&r, &zero, &b) == MPB_ENOTINV);
  P xx(Poly{0, 1}), f2(Poly{0, 1, 1});  // gcd(x, x^2 + x) = x
  REQUIRE(mpb_gf2x_invmod(&r, &xx, &f2) == MPB_ENOTINV);
  REQUIRE(r.snapshot() == snap);
  // inconsistent structs
  mpb_gf2x bad{nullptr, 3, 3};
  REQUIRE(mpb_gf2x_add(&r, &bad, &a) == MPB_EVAL);
  mpb_gf2x bad2{a.v.limbs, a.v.alloc + 1, a.v.alloc};
  REQUIRE(mpb_gf2x_mul(&r, &bad2, &a) == MPB_EVAL);
  REQUIRE(mpb_gf2x_mul(&bad2, &a, &a) == MPB_EVAL);
  REQUIRE(r.snapshot() == snap);
  // size overflow (nothing is allocated or read for these)
  mpb_gf2x big{a.v.limbs, MPB_GF2X_MAX_LIMBS + 1, MPB_GF2X_MAX_LIMBS + 1};
  REQUIRE(mpb_gf2x_add(&r, &big, &a) == MPB_ERANGE);
  REQUIRE(mpb_gf2x_mul(&r, &a, &big) == MPB_ERANGE);
  REQUIRE(mpb_gf2x_copy(&r, &big) == MPB_ERANGE);
  mpb_gf2x fresh;
  REQUIRE(mpb_gf2x_init_size(&fresh, MPB_GF2X_MAX_LIMBS + 1) == MPB_ERANGE);
  REQUIRE(mpb_gf2x_init_size(&fresh, SIZE_MAX) == MPB_ERANGE);
  REQUIRE(mpb_gf2x_lshift(&r, &a, (uint64_t)MPB_GF2X_MAX_LIMBS * 64) == MPB_ERANGE);
  REQUIRE(mpb_gf2x_lshift(&r, &a, UINT64_MAX) == MPB_ERANGE);
  REQUIRE(mpb_gf2x_lshift_limbs(&r, &a, MPB_GF2X_MAX_LIMBS) == MPB_ERANGE);
  REQUIRE(mpb_gf2x_lshift_limbs(&r, &a, SIZE_MAX) == MPB_ERANGE);
  REQUIRE(mpb_gf2x_set_bit(&r, (uint64_t)MPB_GF2X_MAX_LIMBS * 64) == MPB_ERANGE);
  REQUIRE(r.snapshot() == snap);
  // allocation failure: MPB_EMEM, output untouched (r is too small to hold the results)
  {
    P x(gf2ref::monomial(5000)), y(gf2ref::monomial(7000));
    mpb_set_allocator(fail_malloc, fail_realloc, fail_free);
    g_budget = 0;
    int st_mul = mpb_gf2x_mul(&r, &x, &y);
    int st_kara = mpb_gf2x_mul_karatsuba(&r, &x, &y);
    int st_add = mpb_gf2x_add(&r, &x, &y);
    int st_shift = mpb_gf2x_lshift(&r, &x, 100);
    int st_hex = mpb_gf2x_set_hex(&r, "123456789abcdef0123456789abcdef");
    int st_mod = mpb_gf2x_mod(&r, &y, &x);
    mpb_gf2x fresh2;
    int st_init = mpb_gf2x_init_limbs(&fresh2, y.v.limbs, y.v.size);
    g_budget = -1;
    mpb_set_allocator(nullptr, nullptr, nullptr);
    REQUIRE(st_mul == MPB_EMEM);
    REQUIRE(st_kara == MPB_EMEM);
    REQUIRE(st_add == MPB_EMEM);
    REQUIRE(st_shift == MPB_EMEM);
    REQUIRE(st_hex == MPB_EMEM);
    REQUIRE(st_mod == MPB_EMEM);
    REQUIRE(st_init == MPB_EMEM);
    REQUIRE(r.snapshot() == snap);
  }
}
