// The 28 binary base points of std-curves/{nist,secg}/curves.json (J08nY/std-curves) satisfy
// y^2 + xy = x^3 + a x^2 + b in GF(2)[z]/f, evaluated with mpbatch's field arithmetic (every
// multiplication method, fast and generic reduction, inversion and division cross-checks) and
// with the bit-serial reference. The JSON is scanned by hand (no JSON dependency).
#include <fstream>
#include <functional>
#include <sstream>

#include "support/gf2x_test_util.h"

using namespace gf2xt;
using gf2ref::Poly;

namespace {

struct BinaryCurve {
  std::string name;
  std::vector<uint64_t> exps;
  std::string a, b, x, y;  // "0x..." hex
};

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The string value of the next "key": "value" at or after pos; pos moves past it.
std::string next_string(const std::string &s, size_t &pos, const std::string &key, size_t limit) {
  std::string pat = "\"" + key + "\"";
  size_t k = s.find(pat, pos);
  REQUIRE(k != std::string::npos);
  REQUIRE(k < limit);
  size_t q1 = s.find('"', s.find(':', k + pat.size()) + 1);
  size_t q2 = s.find('"', q1 + 1);
  pos = q2 + 1;
  return s.substr(q1 + 1, q2 - q1 - 1);
}

std::vector<BinaryCurve> read_curves(const std::string &path) {
  std::string s = slurp(path);
  std::vector<BinaryCurve> out;
  size_t pos = 0;
  const std::string bin = "\"type\": \"Binary\"";
  while ((pos = s.find(bin, pos)) != std::string::npos) {
    BinaryCurve c;
    // the curve's name: the last "name" before its field
    size_t np = s.rfind("\"name\"", pos);
    REQUIRE(np != std::string::npos);
    size_t tmp = np;
    c.name = next_string(s, tmp, "name", pos);
    // the end of this curve: the next "type" (next curve's field) or the end of the file
    size_t limit = s.find("\"type\"", pos + bin.size());
    if (limit == std::string::npos) limit = s.size();
    // field.poly: [{"power": N, "coeff": "0x01"}, ...]
    size_t p0 = s.find("\"poly\"", pos), p1 = s.find(']', p0);
    REQUIRE(p0 < limit);
    size_t q = p0;
    while (true) {
      size_t pw = s.find("\"power\"", q);
      if (pw == std::string::npos || pw > p1) break;
      size_t colon = s.find(':', pw);
      uint64_t power = std::stoull(s.substr(colon + 1, 16));
      size_t cpos = colon;
      std::string coeff = next_string(s, cpos, "coeff", p1);
      if (gf2ref::from_hex(coeff) == Poly{1}) c.exps.push_back(power);
      else REQUIRE(gf2ref::from_hex(coeff).empty());
      q = cpos;
    }
    size_t r = p1;
    size_t ap = s.find("\"a\"", r);
    REQUIRE(ap < limit);
    c.a = next_string(s, ap, "raw", limit);
    size_t bp = s.find("\"b\"", ap);
    c.b = next_string(s, bp, "raw", limit);
    size_t gp = s.find("\"generator\"", bp);
    REQUIRE(gp < limit);
    size_t xp = s.find("\"x\"", gp);
    c.x = next_string(s, xp, "raw", limit);
    size_t yp = s.find("\"y\"", xp);
    c.y = next_string(s, yp, "raw", limit);
    out.push_back(c);
    pos += bin.size();
  }
  return out;
}

std::vector<BinaryCurve> all_curves() {
  auto v = read_curves(mpbt::vectors_dir() + "/std-curves/nist/curves.json");
  auto w = read_curves(mpbt::vectors_dir() + "/std-curves/secg/curves.json");
  REQUIRE(v.size() == 10);
  REQUIRE(w.size() == 18);
  v.insert(v.end(), w.begin(), w.end());
  return v;
}

using MulFn = std::function<int(mpb_gf2x *, const mpb_gf2x *, const mpb_gf2x *)>;

}  // namespace

TEST_CASE("std-curves: every binary base point is on its curve (mpbatch field arithmetic)",
          "[gf2x][field][curves][vectors]") {
  auto curves = all_curves();
  REQUIRE(curves.size() == 28);
  for (const auto &c : curves) {
    INFO(c.name);
    mpb_gf2m_field *F = nullptr;
    REQUIRE(mpb_gf2m_field_new_exponents(&F, c.exps.data(), c.exps.size()) == MPB_OK);
    P a, b, x, y;
    REQUIRE(mpb_gf2x_set_hex(&a, c.a.c_str()) == MPB_OK);
    REQUIRE(mpb_gf2x_set_hex(&b, c.b.c_str()) == MPB_OK);
    REQUIRE(mpb_gf2x_set_hex(&x, c.x.c_str()) == MPB_OK);
    REQUIRE(mpb_gf2x_set_hex(&y, c.y.c_str()) == MPB_OK);
    // lhs = y^2 + xy, rhs = x^3 + a x^2 + b
    P y2, xy, lhs, x2, x3, ax2, t, rhs;
    REQUIRE(mpb_gf2m_sqr(F, &y2, &y) == MPB_OK);
    REQUIRE(mpb_gf2m_mul(F, &xy, &x, &y) == MPB_OK);
    REQUIRE(mpb_gf2m_add(F, &lhs, &y2, &xy) == MPB_OK);
    REQUIRE(mpb_gf2m_sqr(F, &x2, &x) == MPB_OK);
    REQUIRE(mpb_gf2m_mul(F, &x3, &x2, &x) == MPB_OK);
    REQUIRE(mpb_gf2m_mul(F, &ax2, &a, &x2) == MPB_OK);
    REQUIRE(mpb_gf2m_add(F, &t, &x3, &ax2) == MPB_OK);
    REQUIRE(mpb_gf2m_add(F, &rhs, &t, &b) == MPB_OK);
    int eq = 0;
    REQUIRE(mpb_gf2x_equal(&lhs, &rhs, &eq) == MPB_OK);
    REQUIRE(eq == 1);
    // a point off the curve (x, y + 1) fails the equation (y^2 + xy changes by 1 + x != 0)
    {
      P one(Poly{1}), y1, l2, a1, a2;
      REQUIRE(mpb_gf2m_add(F, &y1, &y, &one) == MPB_OK);
      REQUIRE(mpb_gf2m_sqr(F, &a1, &y1) == MPB_OK);
      REQUIRE(mpb_gf2m_mul(F, &a2, &x, &y1) == MPB_OK);
      REQUIRE(mpb_gf2m_add(F, &l2, &a1, &a2) == MPB_OK);
      REQUIRE(mpb_gf2x_equal(&l2, &rhs, &eq) == MPB_OK);
      REQUIRE(eq == 0);
    }
    // exponentiation: y^2 = y^(2) via exp, x^3 via exp
    uint64_t two = 2, three = 3;
    P e2, e3;
    REQUIRE(mpb_gf2m_exp(F, &e2, &y, &two, 1) == MPB_OK);
    REQUIRE(mpb_gf2x_equal(&e2, &y2, &eq) == MPB_OK);
    REQUIRE(eq == 1);
    REQUIRE(mpb_gf2m_exp(F, &e3, &x, &three, 1) == MPB_OK);
    REQUIRE(mpb_gf2x_equal(&e3, &x3, &eq) == MPB_OK);
    REQUIRE(eq == 1);
    // the same products with every raw multiplication method, reduced by the fast and the
    // generic path
    std::vector<std::pair<const char *, MulFn>> ms = {
        {"comb_rtl", mpb_gf2x_mul_comb_rtl},
        {"comb_ltr", mpb_gf2x_mul_comb_ltr},
        {"comb_w2", [](mpb_gf2x *r, const mpb_gf2x *p, const mpb_gf2x *q) { return mpb_gf2x_mul_comb_ltr_w(r, p, q, 2); }},
        {"comb_w4", [](mpb_gf2x *r, const mpb_gf2x *p, const mpb_gf2x *q) { return mpb_gf2x_mul_comb_ltr_w(r, p, q, 4); }},
        {"comb_w8", [](mpb_gf2x *r, const mpb_gf2x *p, const mpb_gf2x *q) { return mpb_gf2x_mul_comb_ltr_w(r, p, q, 8); }},
        {"karatsuba", mpb_gf2x_mul_karatsuba},
        {"toom3", mpb_gf2x_mul_toom3},
        {"toom4", mpb_gf2x_mul_toom4},
        {"clmul", mpb_gf2x_mul_clmul},
        {"mul", mpb_gf2x_mul},
    };
    P fpoly;
    REQUIRE(mpb_gf2m_field_modulus(F, &fpoly) == MPB_OK);
    for (auto &m : ms) {
      INFO(m.first);
      P raw, red, red2;
      int st = m.second(&raw, &x, &y);
      if (st == MPB_EUNSUPPORTED) continue;
      REQUIRE(st == MPB_OK);
      REQUIRE(mpb_gf2m_reduce(F, &red, &raw) == MPB_OK);
      REQUIRE(mpb_gf2m_reduce_generic(F, &red2, &raw) == MPB_OK);
      REQUIRE(mpb_gf2x_equal(&red, &xy, &eq) == MPB_OK);
      REQUIRE(eq == 1);
      REQUIRE(mpb_gf2x_equal(&red2, &xy, &eq) == MPB_OK);
      REQUIRE(eq == 1);
    }
    P sa;
    REQUIRE(mpb_gf2x_mul_shift_add(&sa, &x, &y, &fpoly) == MPB_OK);
    REQUIRE(mpb_gf2x_equal(&sa, &xy, &eq) == MPB_OK);
    REQUIRE(eq == 1);
    P ys, ysr;
    REQUIRE(mpb_gf2x_sqr(&ys, &y) == MPB_OK);
    REQUIRE(mpb_gf2m_reduce(F, &ysr, &ys) == MPB_OK);
    REQUIRE(mpb_gf2x_equal(&ysr, &y2, &eq) == MPB_OK);
    REQUIRE(eq == 1);
    // inversion and division: x * x^-1 = 1, (y / x) * x = y, y / x = y * x^-1
    P xi, prod, q, qx, yxi;
    REQUIRE(mpb_gf2m_inv(F, &xi, &x) == MPB_OK);
    REQUIRE(mpb_gf2m_mul(F, &prod, &x, &xi) == MPB_OK);
    REQUIRE(mpb_gf2x_is_one(&prod, &eq) == MPB_OK);
    REQUIRE(eq == 1);
    REQUIRE(mpb_gf2m_div(F, &q, &y, &x) == MPB_OK);
    REQUIRE(mpb_gf2m_mul(F, &qx, &q, &x) == MPB_OK);
    REQUIRE(mpb_gf2x_equal(&qx, &y, &eq) == MPB_OK);
    REQUIRE(eq == 1);
    REQUIRE(mpb_gf2m_mul(F, &yxi, &y, &xi) == MPB_OK);
    REQUIRE(mpb_gf2x_equal(&yxi, &q, &eq) == MPB_OK);
    REQUIRE(eq == 1);
    // the curve equation divided by x^2: (y/x)^2 + (y/x) = x + a + b/x^2
    {
      P lam2, l, bx2, s1, s2;
      REQUIRE(mpb_gf2m_sqr(F, &lam2, &q) == MPB_OK);
      REQUIRE(mpb_gf2m_add(F, &l, &lam2, &q) == MPB_OK);
      REQUIRE(mpb_gf2m_div(F, &bx2, &b, &x2) == MPB_OK);
      REQUIRE(mpb_gf2m_add(F, &s1, &x, &a) == MPB_OK);
      REQUIRE(mpb_gf2m_add(F, &s2, &s1, &bx2) == MPB_OK);
      REQUIRE(mpb_gf2x_equal(&l, &s2, &eq) == MPB_OK);
      REQUIRE(eq == 1);
    }
    mpb_gf2m_field_free(F);
  }
}

TEST_CASE("std-curves: every binary base point is on its curve (bit-serial reference)",
          "[gf2x][curves][vectors][ref]") {
  // independent of the library: the parsed values are checked with gf2ref alone
  for (const auto &c : all_curves()) {
    INFO(c.name);
    std::vector<long> ex(c.exps.begin(), c.exps.end());
    Poly f = gf2ref::from_exponents(ex);
    Poly a = gf2ref::from_hex(c.a), b = gf2ref::from_hex(c.b), x = gf2ref::from_hex(c.x),
         y = gf2ref::from_hex(c.y);
    REQUIRE(gf2ref::degree(x) < gf2ref::degree(f));
    REQUIRE(gf2ref::degree(y) < gf2ref::degree(f));
    Poly lhs = gf2ref::add(gf2ref::mulmod(y, y, f), gf2ref::mulmod(x, y, f));
    Poly x2 = gf2ref::mulmod(x, x, f);
    Poly rhs = gf2ref::add(gf2ref::add(gf2ref::mulmod(x2, x, f), gf2ref::mulmod(a, x2, f)), gf2ref::mod(b, f));
    REQUIRE(lhs == rhs);
  }
}
