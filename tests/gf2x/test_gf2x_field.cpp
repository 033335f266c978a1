// GF(2^m) field arithmetic (mpb_gf2m_*) against the bit-serial reference: the 9 NIST/SECG
// fields of ../shared/vectors/gf2m-fields.txt, fields at 1..40 limbs, fast (trinomial /
// pentanomial) reduction against the generic path, the irreducibility test against trial
// division and the reference Rabin test, algebraic identities, and bad input.
#include <fstream>
#include <sstream>

#include "support/gf2x_test_util.h"

using namespace gf2xt;
using gf2ref::Poly;

namespace {

struct FieldLine {
  std::string name;
  long m;
  std::vector<long> exps;
  std::string kind, hex;
};

std::string strip(const std::string &s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<FieldLine> read_fields() {
  std::string path = mpbt::vectors_dir() + "/gf2m-fields.txt";
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<FieldLine> out;
  std::string line;
  while (std::getline(in, line)) {
    if (strip(line).empty() || strip(line)[0] == '#') continue;
    std::vector<std::string> parts;
    std::stringstream ss(line);
    std::string p;
    while (std::getline(ss, p, '|')) parts.push_back(strip(p));
    REQUIRE(parts.size() == 6);
    FieldLine f;
    f.name = parts[0];
    f.m = std::stol(parts[1]);
    std::stringstream es(parts[2]);
    while (std::getline(es, p, ',')) f.exps.push_back(std::stol(p));
    f.kind = parts[3];
    f.hex = parts[4];
    out.push_back(f);
  }
  return out;
}

struct Field {
  mpb_gf2m_field *F = nullptr;
  Field() = default;
  explicit Field(const Poly &f) {
    P pf(f);
    REQUIRE(mpb_gf2m_field_new(&F, &pf) == MPB_OK);
  }
  ~Field() { mpb_gf2m_field_free(F); }
  Field(const Field &) = delete;
  Field &operator=(const Field &) = delete;
};

std::vector<uint64_t> pow2_exponent(long k) {  // 2^k as limbs
  std::vector<uint64_t> e(k / 64 + 1, 0);
  e[k / 64] = (uint64_t)1 << (k % 64);
  return e;
}

// Every field operation against the reference on random operands of this field.
void check_field(const mpb_gf2m_field *F, const Poly &rf, std::mt19937_64 &rng, int rounds, bool heavy_ref) {
  const long m = gf2ref::degree(rf);
  const size_t mn = (size_t)((m + 63) / 64);
  int kind = -1;
  REQUIRE(mpb_gf2m_field_kind(F, &kind) == MPB_OK);
  uint64_t mm = 0;
  REQUIRE(mpb_gf2m_field_degree(F, &mm) == MPB_OK);
  REQUIRE((long)mm == m);
  P fm;
  REQUIRE(mpb_gf2m_field_modulus(F, &fm) == MPB_OK);
  REQUIRE(fm.poly() == rf);
  for (int t = 0; t < rounds; t++) {
    INFO("m=" << m << " round " << t);
    // reduction: fast path == generic path == reference, inputs up to twice the size and more
    size_t in = 1 + rng() % (2 * mn + 3);
    Poly rx = operand(rng, in, (int)(rng() % 5));
    P x(rx), r1, r2;
    REQUIRE(mpb_gf2m_reduce(F, &r1, &x) == MPB_OK);
    REQUIRE(mpb_gf2m_reduce_generic(F, &r2, &x) == MPB_OK);
    Poly red = gf2ref::mod(rx, rf);
    REQUIRE(r1.poly() == red);
    REQUIRE(r2.poly() == red);
    REQUIRE(mpb_gf2m_reduce(F, &x, &x) == MPB_OK);  // in place
    REQUIRE(x.poly() == red);
    // operands: reduced ones mostly, sometimes unreduced (the field functions reduce first)
    Poly ra = operand(rng, t % 4 == 3 ? 2 * mn : mn, (int)(rng() % 5));
    Poly rb = operand(rng, mn, (int)(rng() % 5));
    ra = t % 4 == 3 ? ra : gf2ref::mod(ra, rf);
    rb = gf2ref::mod(rb, rf);
    P a(ra), b(rb), r;
    Poly ab = gf2ref::mulmod(ra, rb, rf);
    REQUIRE(mpb_gf2m_mul(F, &r, &a, &b) == MPB_OK);
    REQUIRE(r.poly() == ab);
    {
      P a2(ra);
      REQUIRE(mpb_gf2m_mul(F, &a2, &a2, &b) == MPB_OK);
      REQUIRE(a2.poly() == ab);
      P b2(rb);
      REQUIRE(mpb_gf2m_mul(F, &b2, &a, &b2) == MPB_OK);
      REQUIRE(b2.poly() == ab);
    }
    Poly aa = gf2ref::mulmod(ra, ra, rf);
    REQUIRE(mpb_gf2m_sqr(F, &r, &a) == MPB_OK);
    REQUIRE(r.poly() == aa);
    {
      P a2(ra);
      REQUIRE(mpb_gf2m_sqr(F, &a2, &a2) == MPB_OK);
      REQUIRE(a2.poly() == aa);
      P a3(ra);
      REQUIRE(mpb_gf2m_mul(F, &a3, &a3, &a3) == MPB_OK);
      REQUIRE(a3.poly() == aa);
    }
    REQUIRE(mpb_gf2m_add(F, &r, &a, &b) == MPB_OK);
    REQUIRE(r.poly() == gf2ref::mod(gf2ref::add(ra, rb), rf));
    // distributivity a*(b+c) = ab + ac in the field
    {
      Poly rc = gf2ref::mod(operand(rng, mn, 0), rf);
      P c(rc), bc, l, ac, rr;
      REQUIRE(mpb_gf2m_add(F, &bc, &b, &c) == MPB_OK);
      REQUIRE(mpb_gf2m_mul(F, &l, &a, &bc) == MPB_OK);
      REQUIRE(mpb_gf2m_mul(F, &ac, &a, &c) == MPB_OK);
      P abp;
      REQUIRE(mpb_gf2m_mul(F, &abp, &a, &b) == MPB_OK);
      REQUIRE(mpb_gf2m_add(F, &rr, &abp, &ac) == MPB_OK);
      REQUIRE(l.poly() == rr.poly());
    }
    Poly ared = gf2ref::mod(ra, rf);
    if (!ared.empty()) {
      // inverse: a * a^-1 = 1, equals the reference's extended Euclid
      P inv;
      REQUIRE(mpb_gf2m_inv(F, &inv, &a) == MPB_OK);
      REQUIRE(gf2ref::mulmod(inv.poly(), ared, rf) == Poly{1});
      if (heavy_ref) {
        Poly ri;
        REQUIRE(gf2ref::inverse(ared, rf, ri));
        REQUIRE(inv.poly() == ri);
      }
      P a2(ra);
      REQUIRE(mpb_gf2m_inv(F, &a2, &a2) == MPB_OK);
      REQUIRE(a2.poly() == inv.poly());
      // division b / a by the binary algorithm: (b/a) * a = b, and b/a = b * a^-1
      P q;
      REQUIRE(mpb_gf2m_div(F, &q, &b, &a) == MPB_OK);
      REQUIRE(gf2ref::mulmod(q.poly(), ared, rf) == rb);
      REQUIRE(q.poly() == gf2ref::mulmod(rb, inv.poly(), rf));
      P b2(rb), a3(ra);
      REQUIRE(mpb_gf2m_div(F, &b2, &b2, &a) == MPB_OK);
      REQUIRE(b2.poly() == q.poly());
      REQUIRE(mpb_gf2m_div(F, &a3, &b, &a3) == MPB_OK);
      REQUIRE(a3.poly() == q.poly());
      // 1 / a = a^-1
      P one(Poly{1});
      REQUIRE(mpb_gf2m_div(F, &q, &one, &a) == MPB_OK);
      REQUIRE(q.poly() == inv.poly());
      // a^(2^m) = a, a^(2^m - 1) = 1
      auto e = pow2_exponent(m);
      REQUIRE(mpb_gf2m_exp(F, &r, &a, e.data(), e.size()) == MPB_OK);
      REQUIRE(r.poly() == ared);
      // 2^m - 1
      std::vector<uint64_t> e1(e.size(), 0);
      for (long i = 0; i < m; i++) e1[i / 64] |= (uint64_t)1 << (i % 64);
      REQUIRE(mpb_gf2m_exp(F, &r, &a, e1.data(), e1.size()) == MPB_OK);
      REQUIRE(r.poly() == Poly{1});
    } else {
      P inv(Poly{1, 1}), q(Poly{1, 1});
      auto si = inv.snapshot(), sq = q.snapshot();
      REQUIRE(mpb_gf2m_inv(F, &inv, &a) == MPB_ENOTINV);
      REQUIRE(mpb_gf2m_div(F, &q, &b, &a) == MPB_ENOTINV);
      REQUIRE(inv.snapshot() == si);
      REQUIRE(q.snapshot() == sq);
    }
    // exponentiation with small exponents against the reference (right-to-left there)
    std::vector<uint64_t> e{rng() % (m <= 640 ? 1000 : 40)};
    if (t % 3 == 0 && m <= 300) e = {rng() >> 20};
    Poly pe = gf2ref::powmod(ra, e, rf);
    REQUIRE(mpb_gf2m_exp(F, &r, &a, e.data(), e.size()) == MPB_OK);
    REQUIRE(r.poly() == pe);
    P a4(ra);
    REQUIRE(mpb_gf2m_exp(F, &a4, &a4, e.data(), e.size()) == MPB_OK);  // in place
    REQUIRE(a4.poly() == pe);
    REQUIRE(mpb_gf2m_exp(F, &r, &a, nullptr, 0) == MPB_OK);  // a^0 = 1 (also 0^0)
    REQUIRE(r.poly() == Poly{1});
  }
}

}  // namespace

TEST_CASE("gf2m: the 9 NIST/SECG fields of gf2m-fields.txt", "[gf2x][field][vectors]") {
  auto fields = read_fields();
  REQUIRE(fields.size() == 9);
  auto rng = mpbt::make_rng(0x6f2b01);
  for (const auto &fl : fields) {
    INFO(fl.name);
    Poly rf = gf2ref::from_exponents(fl.exps);
    REQUIRE(gf2ref::degree(rf) == fl.m);
    REQUIRE(gf2ref::from_hex(fl.hex) == rf);
    // from the exponents and from the hex string
    std::vector<uint64_t> ex(fl.exps.begin(), fl.exps.end());
    mpb_gf2m_field *F1 = nullptr, *F2 = nullptr;
    REQUIRE(mpb_gf2m_field_new_exponents(&F1, ex.data(), ex.size()) == MPB_OK);
    P pf;
    REQUIRE(mpb_gf2x_set_hex(&pf, fl.hex.c_str()) == MPB_OK);
    REQUIRE(pf.poly() == rf);
    REQUIRE(mpb_gf2m_field_new(&F2, &pf) == MPB_OK);
    int yes = 0;
    REQUIRE(mpb_gf2x_is_irreducible(&pf, &yes) == MPB_OK);
    REQUIRE(yes == 1);
    int kind = -1;
    REQUIRE(mpb_gf2m_field_kind(F1, &kind) == MPB_OK);
    REQUIRE(kind == (fl.kind == "trinomial" ? MPB_GF2M_TRINOMIAL : MPB_GF2M_PENTANOMIAL));
    uint64_t m = 0;
    REQUIRE(mpb_gf2m_field_degree(F2, &m) == MPB_OK);
    REQUIRE((long)m == fl.m);
    check_field(F1, rf, rng, 24, true);
    // the two objects agree
    for (int t = 0; t < 5; t++) {
      Poly ra = operand(rng, (size_t)(fl.m / 64 + 1), 0), rb = operand(rng, 2, 0);
      P a(ra), b(rb), r1, r2;
      REQUIRE(mpb_gf2m_mul(F1, &r1, &a, &b) == MPB_OK);
      REQUIRE(mpb_gf2m_mul(F2, &r2, &a, &b) == MPB_OK);
      REQUIRE(r1.poly() == r2.poly());
    }
    // the reversed polynomial x^m f(1/x) is irreducible too; as a trinomial/pentanomial its
    // high middle term (> m - 64) forces the generic reduction path
    {
      std::vector<long> rev;
      for (long e : fl.exps) rev.push_back(fl.m - e);
      Poly rr = gf2ref::from_exponents(rev);
      Field G(rr);
      check_field(G.F, rr, rng, 6, false);
    }
    // a reducible neighbour: f * (x + 1) (degree m + 1) and f with the constant term dropped
    {
      P g(gf2ref::mul(rf, Poly{1, 1})), h(gf2ref::add(rf, Poly{1}));
      mpb_gf2m_field *bad = reinterpret_cast<mpb_gf2m_field *>(0x1);
      REQUIRE(mpb_gf2m_field_new(&bad, &g) == MPB_EVAL);
      REQUIRE(mpb_gf2m_field_new(&bad, &h) == MPB_EVAL);
      REQUIRE(bad == reinterpret_cast<mpb_gf2m_field *>(0x1));
      REQUIRE(mpb_gf2x_is_irreducible(&g, &yes) == MPB_OK);
      REQUIRE(yes == 0);
    }
    mpb_gf2m_field_free(F1);
    mpb_gf2m_field_free(F2);
  }
}

TEST_CASE("gf2m: the reference Rabin test accepts the 9 fields", "[gf2x][field][vectors][ref]") {
  // independent confirmation that the file's polynomials are irreducible (bit-serial, slow)
  for (const auto &fl : read_fields()) {
    INFO(fl.name);
    REQUIRE(gf2ref::irreducible_rabin(gf2ref::from_exponents(fl.exps)));
  }
}

TEST_CASE("gf2m: irreducibility test agrees with trial division for every f of degree <= 11",
          "[gf2x][field][irreducible]") {
  int count[12] = {0};
  for (long m = 1; m <= 11; m++)
    for (uint32_t low = 0; low < (1u << m); low++) {
      Poly f;
      for (long i = 0; i < m; i++) f.push_back((uint8_t)((low >> i) & 1));
      f.push_back(1);
      bool ref = gf2ref::irreducible_trial(f);
      P pf(f);
      int yes = -1;
      REQUIRE(mpb_gf2x_is_irreducible(&pf, &yes) == MPB_OK);
      INFO("f=" << gf2ref::to_bin(f));
      REQUIRE(yes == (ref ? 1 : 0));
      mpb_gf2m_field *F = nullptr;
      int st = mpb_gf2m_field_new(&F, &pf);
      REQUIRE(st == (ref ? MPB_OK : MPB_EVAL));
      if (ref) {
        count[m]++;
        // the whole field for small m: every nonzero element has an inverse (brute force)
        if (m <= 6) {
          for (uint32_t v = 1; v < (1u << m); v++) {
            Poly a = gf2ref::from_limbs(std::vector<uint64_t>{v}.data(), 1);
            Poly ib;
            REQUIRE(gf2ref::inverse_brute(a, f, ib));
            P pa(a), r, q;
            REQUIRE(mpb_gf2m_inv(F, &r, &pa) == MPB_OK);
            REQUIRE(r.poly() == ib);
            P one(Poly{1});
            REQUIRE(mpb_gf2m_div(F, &q, &one, &pa) == MPB_OK);
            REQUIRE(q.poly() == ib);
          }
        }
        mpb_gf2m_field_free(F);
      }
    }
  // the number of irreducible polynomials of degree m over GF(2) (OEIS A001037)
  const int expected[12] = {0, 2, 1, 2, 3, 6, 9, 18, 30, 56, 99, 186};
  for (int m = 1; m <= 11; m++) REQUIRE(count[m] == expected[m]);
}

TEST_CASE("gf2m: random dense fields (generic reduction) confirmed by the reference Rabin test",
          "[gf2x][field]") {
  auto rng = mpbt::make_rng(0x6f2b02);
  for (long m : {2L, 3L, 5L, 17L, 63L, 64L, 65L, 96L, 127L, 128L, 129L, 191L}) {
    INFO("m=" << m);
    for (int tries = 0;; tries++) {
      REQUIRE(tries < 20000);
      Poly f = gf2ref::random_poly(rng, m);
      f.resize(m + 1, 0);
      f[m] = 1;
      f[0] = 1;
      P pf(f);
      int yes = 0;
      REQUIRE(mpb_gf2x_is_irreducible(&pf, &yes) == MPB_OK);
      if (tries < 3 || yes) REQUIRE((yes == 1) == gf2ref::irreducible_rabin(f));
      if (!yes) continue;
      Field F(f);
      check_field(F.F, f, rng, 6, true);
      break;
    }
  }
}

TEST_CASE("gf2m: trinomial fields at 1..40 limbs (fast path vs generic vs reference)", "[gf2x][field]") {
  auto rng = mpbt::make_rng(0x6f2b03);
  // Known irreducible trinomials x^m + x^k + 1 (from the Mersenne-exponent tables) must be accepted
  for (auto mk : {std::pair<long, long>{127, 1}, {521, 32}, {607, 105}, {1279, 216}, {2281, 715}}) {
    P pf(gf2ref::from_exponents({mk.first, mk.second, 0}));
    int yes = 0;
    REQUIRE(mpb_gf2x_is_irreducible(&pf, &yes) == MPB_OK);
    INFO("m=" << mk.first);
    REQUIRE(yes == 1);
  }
  // For n = 1..40 limbs: the irreducible trinomial x^m + x^k + 1 with the largest odd
  // m <= 64n - 1 and then the smallest k (k <= m - 64 for n > 1: the fast path). Found by a
  // search with mpb_gf2x_is_irreducible and confirmed independently with NTL 11
  // (IterIrredTest, offline, 2026-11-21); the test checks that the library accepts them.
  static const long table[40][2] = {
      {63, 1}, {127, 1}, {191, 9}, {255, 52}, {319, 36}, {383, 90}, {447, 73}, {511, 10}, {575, 146}, {639, 16}, {697, 267}, {767, 168}, {831, 49}, {895, 12}, {959, 143}, {1023, 7}, {1087, 112}, {1151, 90}, {1215, 302}, {1279, 216}, {1343, 348}, {1407, 47}, {1471, 25}, {1535, 404}, {1599, 643}, {1663, 99}, {1721, 300}, {1791, 190}, {1855, 39}, {1919, 105}, {1983, 113}, {2047, 3}, {2111, 249}, {2175, 128}, {2239, 120}, {2303, 80}, {2367, 610}, {2431, 303}, {2495, 497}, {2559, 23}};
  for (size_t n = 1; n <= 40; n++) {
    Poly found = gf2ref::from_exponents({table[n - 1][0], table[n - 1][1], 0});
    REQUIRE((size_t)((table[n - 1][0] + 63) / 64) == n);
    {
      P pf(found);
      int yes = 0;
      REQUIRE(mpb_gf2x_is_irreducible(&pf, &yes) == MPB_OK);
      REQUIRE(yes == 1);
      // the other trinomials of small degrees: the library's verdict equals the reference's
      if (table[n - 1][0] <= 200) {
        for (long k = 1; k < table[n - 1][1] + 3; k++) {
          Poly rg = gf2ref::from_exponents({table[n - 1][0], k, 0});
          P g(rg);
          REQUIRE(mpb_gf2x_is_irreducible(&g, &yes) == MPB_OK);
          REQUIRE((yes == 1) == gf2ref::irreducible_rabin(rg));
        }
      }
    }
    INFO("n=" << n << " f=x^" << gf2ref::degree(found));
    REQUIRE(!found.empty());
    if (gf2ref::degree(found) <= 200) REQUIRE(gf2ref::irreducible_rabin(found));
    Field F(found);
    int kind = -1;
    REQUIRE(mpb_gf2m_field_kind(F.F, &kind) == MPB_OK);
    REQUIRE(kind == (gf2ref::degree(found) >= 2 ? MPB_GF2M_TRINOMIAL : MPB_GF2M_GENERIC));
    check_field(F.F, found, rng, n <= 10 ? 8 : 3, n <= 20);
  }
}

TEST_CASE("gf2m: bad input", "[gf2x][field][bad]") {
  mpb_gf2m_field *F = nullptr;
  REQUIRE(mpb_gf2m_field_new_exponents(&F, std::vector<uint64_t>{163, 7, 6, 3, 0}.data(), 5) == MPB_OK);
  P a(Poly{1, 1}), zero, r(Poly{1, 0, 1});
  const auto snap = r.snapshot();
  mpb_gf2m_field *G = reinterpret_cast<mpb_gf2m_field *>(0x1);
  // modulus: zero, constant, reducible, NULL
  P one(Poly{1}), x2(Poly{0, 0, 1}), x4p1(Poly{1, 0, 0, 0, 1});
  REQUIRE(mpb_gf2m_field_new(&G, &zero) == MPB_EVAL);
  REQUIRE(mpb_gf2m_field_new(&G, &one) == MPB_EVAL);
  REQUIRE(mpb_gf2m_field_new(&G, &x2) == MPB_EVAL);
  REQUIRE(mpb_gf2m_field_new(&G, &x4p1) == MPB_EVAL);
  REQUIRE(mpb_gf2m_field_new(&G, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2m_field_new(nullptr, &a) == MPB_ENULL);
  uint64_t dup[] = {5, 2, 2, 0};
  REQUIRE(mpb_gf2m_field_new_exponents(&G, dup, 4) == MPB_EVAL);
  uint64_t red[] = {8, 0};  // x^8 + 1 = (x+1)^8
  REQUIRE(mpb_gf2m_field_new_exponents(&G, red, 2) == MPB_EVAL);
  uint64_t huge[] = {(uint64_t)MPB_GF2X_MAX_LIMBS * 64, 1, 0};
  REQUIRE(mpb_gf2m_field_new_exponents(&G, huge, 3) == MPB_ERANGE);
  REQUIRE(mpb_gf2m_field_new_exponents(&G, nullptr, 3) == MPB_ENULL);
  REQUIRE(mpb_gf2m_field_new_exponents(&G, dup, 0) == MPB_EVAL);
  REQUIRE(G == reinterpret_cast<mpb_gf2m_field *>(0x1));
  int yes = 7;
  REQUIRE(mpb_gf2x_is_irreducible(&one, &yes) == MPB_EVAL);
  REQUIRE(mpb_gf2x_is_irreducible(&zero, &yes) == MPB_EVAL);
  REQUIRE(mpb_gf2x_is_irreducible(&a, nullptr) == MPB_ENULL);
  REQUIRE(yes == 7);
  // inversion / division of zero and of multiples of f
  P fpoly;
  REQUIRE(mpb_gf2m_field_modulus(F, &fpoly) == MPB_OK);
  P fx;
  REQUIRE(mpb_gf2x_lshift(&fx, &fpoly, 5) == MPB_OK);  // x^5 f = 0 in the field
  REQUIRE(mpb_gf2m_inv(F, &r, &zero) == MPB_ENOTINV);
  REQUIRE(mpb_gf2m_inv(F, &r, &fpoly) == MPB_ENOTINV);
  REQUIRE(mpb_gf2m_inv(F, &r, &fx) == MPB_ENOTINV);
  REQUIRE(mpb_gf2m_div(F, &r, &a, &zero) == MPB_ENOTINV);
  REQUIRE(mpb_gf2m_div(F, &r, &a, &fx) == MPB_ENOTINV);
  REQUIRE(r.snapshot() == snap);
  // NULL everywhere
  REQUIRE(mpb_gf2m_mul(nullptr, &r, &a, &a) == MPB_ENULL);
  REQUIRE(mpb_gf2m_mul(F, nullptr, &a, &a) == MPB_ENULL);
  REQUIRE(mpb_gf2m_mul(F, &r, nullptr, &a) == MPB_ENULL);
  REQUIRE(mpb_gf2m_sqr(F, &r, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2m_add(F, &r, &a, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2m_inv(nullptr, &r, &a) == MPB_ENULL);
  REQUIRE(mpb_gf2m_div(F, &r, nullptr, &a) == MPB_ENULL);
  REQUIRE(mpb_gf2m_reduce(F, &r, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2m_reduce_generic(nullptr, &r, &a) == MPB_ENULL);
  REQUIRE(mpb_gf2m_exp(F, &r, &a, nullptr, 2) == MPB_ENULL);
  REQUIRE(mpb_gf2m_exp(F, &r, nullptr, nullptr, 0) == MPB_ENULL);
  REQUIRE(mpb_gf2m_field_degree(F, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2m_field_kind(nullptr, &yes) == MPB_ENULL);
  REQUIRE(mpb_gf2m_field_modulus(F, nullptr) == MPB_ENULL);
  REQUIRE(mpb_gf2m_field_free(nullptr) == MPB_OK);
  REQUIRE(r.snapshot() == snap);
  // allocation failure: MPB_EMEM and nothing written (field creation, and operations on
  // operands large enough to need heap scratch)
  {
    P big(gf2ref::monomial(64 * 300)), r2(Poly{1, 1});
    auto snap2 = r2.snapshot();
    mpb_gf2m_field *H = reinterpret_cast<mpb_gf2m_field *>(0x1);
    uint64_t ex[] = {233, 74, 0};
    mpb_set_allocator(fail_malloc, fail_realloc, fail_free);
    int st_new = -100, st_mul = -100, st_inv = -100, st_div = -100, st_red = -100;
    for (int budget = 0; budget < 3; budget++) {
      g_budget = budget;
      int st = mpb_gf2m_field_new_exponents(&H, ex, 3);
      if (st != MPB_OK && st_new == -100) st_new = st;
      if (st == MPB_OK) {
        g_budget = -1;
        mpb_gf2m_field_free(H);
        H = reinterpret_cast<mpb_gf2m_field *>(0x1);
        break;
      }
    }
    g_budget = 0;
    st_mul = mpb_gf2m_mul(F, &r2, &big, &big);
    st_inv = mpb_gf2m_inv(F, &r2, &big);
    st_div = mpb_gf2m_div(F, &r2, &big, &a);
    st_red = mpb_gf2m_reduce(F, &r2, &big);
    g_budget = -1;
    mpb_set_allocator(nullptr, nullptr, nullptr);
    REQUIRE(st_new == MPB_EMEM);
    REQUIRE(H == reinterpret_cast<mpb_gf2m_field *>(0x1));
    REQUIRE(st_mul == MPB_EMEM);
    REQUIRE(st_inv == MPB_EMEM);
    REQUIRE(st_div == MPB_EMEM);
    REQUIRE(st_red == MPB_EMEM);
    REQUIRE(r2.snapshot() == snap2);
  }
  // an output with room keeps its storage (no reallocation)
  {
    P out;
    REQUIRE(mpb_gf2x_init_size(&out.v, 50) == MPB_OK);
    uint64_t *before = out.v.limbs;
    P x(gf2ref::from_exponents({300, 5, 1})), y(gf2ref::from_exponents({200, 7}));
    REQUIRE(mpb_gf2m_mul(F, &out, &x, &y) == MPB_OK);
    REQUIRE(mpb_gf2x_mul(&out, &x, &y) == MPB_OK);
    REQUIRE(mpb_gf2m_inv(F, &out, &out) == MPB_OK);
    REQUIRE(mpb_gf2m_div(F, &out, &x, &out) == MPB_OK);
    REQUIRE(out.v.limbs == before);
    REQUIRE(out.v.alloc == 50);
  }
  // out of range operand
  mpb_gf2x big{a.v.limbs, MPB_GF2X_MAX_LIMBS + 1, MPB_GF2X_MAX_LIMBS + 1};
  REQUIRE(mpb_gf2m_mul(F, &r, &big, &a) == MPB_ERANGE);
  REQUIRE(mpb_gf2m_inv(F, &r, &big) == MPB_ERANGE);
  REQUIRE(r.snapshot() == snap);
  mpb_gf2m_field_free(F);
}
