// Batch GF(2)[x]: mul, sqr, mulmod by the NIST/SECG reduction polynomials of
// ../shared/vectors/gf2m-fields.txt and by random f, and inv (a * a^-1 = 1 mod f; non-invertible
// items rejected with their index and the output untouched), against a bit-serial reference.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include <mpbatch/mpbatch.h>

#include "support/batch_util.h"

using namespace bt;

namespace {
// c = a*b (bit-serial reference), a, b of n limbs, c 2n limbs
Rows ref_mul(const uint64_t *a, const uint64_t *b, size_t n) {
  Rows c(2 * n, 0);
  for (size_t i = 0; i < 64 * n; i++)
    if ((a[i / 64] >> (i % 64)) & 1)
      for (size_t j = 0; j < n; j++) {
        uint64_t v = b[j];
        size_t sh = i % 64, o = i / 64 + j;
        c[o] ^= v << sh;
        if (sh) c[o + 1] ^= v >> (64 - sh);
      }
  return c;
}
int deg(const Rows &p) {
  for (size_t i = 64 * p.size(); i-- > 0;)
    if ((p[i / 64] >> (i % 64)) & 1) return (int)i;
  return -1;
}
// p mod f in place (p any size), result padded to fn limbs
Rows ref_mod(Rows p, const Rows &f) {
  int df = deg(f);
  for (int d = deg(p); d >= df; d = deg(p)) {
    size_t sh = d - df;
    for (size_t j = 0; j < f.size(); j++) {
      size_t o = sh / 64 + j, s = sh % 64;
      if (o < p.size()) p[o] ^= f[j] << s;
      if (s && o + 1 < p.size()) p[o + 1] ^= f[j] >> (64 - s);
    }
  }
  p.resize(f.size());
  return p;
}
Rows random_below(std::mt19937_64 &rng, const Rows &f) {
  Rows a(f.size());
  for (auto &x : a) x = rng();
  int df = deg(f);
  for (size_t i = df; i < 64 * a.size(); i++) a[i / 64] &= ~(1ull << (i % 64));
  return a;
}
std::vector<Rows> fields() {
  std::vector<Rows> out;
  std::ifstream in(mpbt::vectors_dir() + "/gf2m-fields.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    std::string name, m, exps;
    std::getline(ss, name, '|');
    std::getline(ss, m, '|');
    std::getline(ss, exps, '|');
    int mm = std::stoi(m);
    Rows f((mm + 64) / 64, 0);
    std::stringstream es(exps);
    std::string tok;
    while (std::getline(es, tok, ',')) {
      int e = std::stoi(tok);
      f[e / 64] |= 1ull << (e % 64);
    }
    out.push_back(f);
  }
  return out;
}
} // namespace

TEST_CASE("batch gf2x mul and sqr match the bit-serial reference", "[batch][gf2x]") {
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  auto rng = mpbt::make_rng(601);
  for (size_t w : {1, 2, 3, 4, 8, 9, 16, 33})
    for (size_t cnt : {0, 1, 7, 8, 9, 100}) {
      Rows a(w * cnt + 1), b(w * cnt + 1), r(2 * w * cnt + 1), s(2 * w * cnt + 1);
      for (size_t i = 0; i < cnt; i++) {
        auto x = mpbt::hard_limbs(rng, w), y = mpbt::hard_limbs(rng, w);
        std::copy(x.begin(), x.end(), &a[i * w]);
        std::copy(y.begin(), y.end(), &b[i * w]);
      }
      REQUIRE(mpb_batch_gf2x_mul(ctx, r.data(), a.data(), b.data(), w, cnt, nullptr) == MPB_OK);
      REQUIRE(mpb_batch_gf2x_sqr(ctx, s.data(), a.data(), w, cnt, nullptr) == MPB_OK);
      for (size_t i = 0; i < cnt; i++) {
        REQUIRE(ref_mul(&a[i * w], &b[i * w], w) == Rows(r.begin() + 2 * i * w, r.begin() + 2 * (i + 1) * w));
        REQUIRE(ref_mul(&a[i * w], &a[i * w], w) == Rows(s.begin() + 2 * i * w, s.begin() + 2 * (i + 1) * w));
      }
    }
  mpb_ctx_destroy(ctx);
}

TEST_CASE("batch gf2x mulmod and inv over the NIST/SECG fields and random f", "[batch][gf2x]") {
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  auto rng = mpbt::make_rng(602);
  auto fs = fields();
  REQUIRE(fs.size() == 9);
  // plus x^64 + x^4 + x^3 + x + 1 (irreducible) and x^1 + 1 style tiny f = x^2 + x + 1
  fs.push_back(Rows{0x1b, 1});
  fs.push_back(Rows{0x7});
  for (auto &f : fs) {
    size_t w = f.size(), cnt = 37;
    Rows a, b;
    for (size_t i = 0; i < cnt; i++) {
      Rows x = random_below(rng, f), y = random_below(rng, f);
      if (i == 3) std::fill(x.begin(), x.end(), 0), x[0] = 1;
      a.insert(a.end(), x.begin(), x.end());
      b.insert(b.end(), y.begin(), y.end());
    }
    Rows r(w * cnt), inv(w * cnt);
    mpb_call_info info;
    INFO("deg f = " << deg(f));
    REQUIRE(mpb_batch_gf2x_mulmod(ctx, r.data(), a.data(), b.data(), f.data(), w, cnt, &info) == MPB_OK);
    for (size_t i = 0; i < cnt; i++)
      REQUIRE(ref_mod(ref_mul(&a[i * w], &b[i * w], w), f) == Rows(r.begin() + i * w, r.begin() + (i + 1) * w));
    // replace any zero rows (they are not invertible)
    for (size_t i = 0; i < cnt; i++)
      if (std::all_of(a.begin() + i * w, a.begin() + (i + 1) * w, [](uint64_t v) { return v == 0; })) a[i * w] = 1;
    // inv: a zero element must be rejected with its index, r untouched
    Rows a0 = a;
    std::fill(a0.begin() + 5 * w, a0.begin() + 6 * w, 0);
    Rows canary(w * cnt, CANARY);
    REQUIRE(mpb_batch_gf2x_inv(ctx, canary.data(), a0.data(), f.data(), w, cnt, &info) == MPB_ENOTINV);
    REQUIRE(info.bad_index == 5);
    for (auto x : canary) REQUIRE(x == CANARY);
    REQUIRE(mpb_batch_gf2x_inv(ctx, inv.data(), a.data(), f.data(), w, cnt, &info) == MPB_OK);
    Rows one(w, 0);
    one[0] = 1;
    for (size_t i = 0; i < cnt; i++)
      REQUIRE(ref_mod(ref_mul(&a[i * w], &inv[i * w], w), f) == one);
    // deg a >= deg f rejected
    Rows big = a;
    big[w * 2 + w - 1] |= f[w - 1];
    REQUIRE(mpb_batch_gf2x_mulmod(ctx, r.data(), big.data(), b.data(), f.data(), w, cnt, &info) == MPB_EVAL);
    REQUIRE(info.bad_index == 2);
  }
  // reducible f: x^2 + 1 = (x+1)^2, a = x + 1 not invertible
  Rows f{0x5}, a{0x3}, r{CANARY};
  mpb_call_info info;
  REQUIRE(mpb_batch_gf2x_inv(ctx, r.data(), a.data(), f.data(), 1, 1, &info) == MPB_ENOTINV);
  REQUIRE(r[0] == CANARY);
  mpb_ctx_destroy(ctx);
}

// The three reduction paths of the batch mulmod (cpu/batch/gf2x.cpp: the word-level sparse fold
// for trinomials / pentanomials with k[0] + 64 <= m, Barrett with mu = x^2m / f for any other f of
// degree >= 2, the generic division for degree 1) against the bit-serial reference: random dense f
// at every width 1..9 and wider, f with zero top limbs inside a wider row, degrees at multiples
// of 64, sparse f whose middle term is too high for the fold, all-ones operands, r aliasing a
// and b, and enough items to use every thread.
TEST_CASE("batch gf2x mulmod: sparse, Barrett and generic reduction, aliasing, wide rows", "[batch][gf2x]") {
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  auto rng = mpbt::make_rng(603);
  auto poly = [](size_t w, std::initializer_list<int> exps) {
    Rows f(w, 0);
    for (int e : exps) f[e / 64] |= 1ull << (e % 64);
    return f;
  };
  std::vector<Rows> fs = {
      poly(1, {1, 0}),                   // x + 1: degree 1
      poly(2, {64, 63, 0}),              // trinomial, middle term too high for the fold: Barrett
      poly(3, {128, 127, 1, 0}),         // degree a multiple of 64, dense top
      poly(4, {233, 200, 0}),            // trinomial k = 200 > m - 64: Barrett
      poly(4, {233, 169, 0}),            // k = m - 64: the fold
      poly(5, {283, 12, 7, 5, 0}),       // B-283 inside a 5-limb row
      poly(8, {283, 12, 7, 5, 0}),       // the same f in an 8-limb row (3 zero limbs on top)
      poly(12, {700, 699, 698, 697, 0}), // pentanomial k too high: Barrett
  };
  for (size_t w : {1, 2, 3, 4, 5, 7, 9, 16, 33}) {  // random dense f, full width and one limb short
    Rows f(w);
    for (auto &x : f) x = rng();
    f[w - 1] |= 1ull << 63, f[0] |= 1;
    fs.push_back(f);
    if (w > 1) {
      Rows g(w);
      for (auto &x : g) x = rng();
      g[w - 1] = 0, g[w - 2] |= 1ull << 17;
      fs.push_back(g);
    }
  }
  for (auto &f : fs) {
    const size_t w = f.size(), cnt = 203;
    Rows a, b;
    for (size_t i = 0; i < cnt; i++) {
      Rows x = random_below(rng, f), y = random_below(rng, f);
      if (i % 5 == 1) {  // all ones below deg f
        const int m = deg(f);
        std::fill(x.begin(), x.end(), 0);
        for (int k = 0; k < m; k++) x[k / 64] |= 1ull << (k % 64);
      }
      if (i == 2) std::fill(y.begin(), y.end(), 0);
      a.insert(a.end(), x.begin(), x.end());
      b.insert(b.end(), y.begin(), y.end());
    }
    Rows want(w * cnt);
    for (size_t i = 0; i < cnt; i++) {
      Rows p = ref_mod(ref_mul(&a[i * w], &b[i * w], w), f);
      std::copy(p.begin(), p.end(), want.begin() + i * w);
    }
    INFO("width " << w << " deg f " << deg(f));
    Rows r(w * cnt, CANARY);
    mpb_call_info info;
    REQUIRE(mpb_batch_gf2x_mulmod(ctx, r.data(), a.data(), b.data(), f.data(), w, cnt, &info) == MPB_OK);
    CHECK(r == want);
    Rows ra = a, rb = b;  // r = a, r = b
    REQUIRE(mpb_batch_gf2x_mulmod(ctx, ra.data(), ra.data(), b.data(), f.data(), w, cnt, nullptr) == MPB_OK);
    REQUIRE(mpb_batch_gf2x_mulmod(ctx, rb.data(), a.data(), rb.data(), f.data(), w, cnt, nullptr) == MPB_OK);
    CHECK(ra == want);
    CHECK(rb == want);
  }
  mpb_ctx_destroy(ctx);
}
