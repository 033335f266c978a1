// tests/gf2x/test_gf2x_mul.cpp: every GF(2)[x] multiplication method of cpu/gf2x/mul/gf2x_mul.h against an
// independent bit-serial reference (ref_mul below, sharing no code with the library), on all
// carry-less paths (portable, PCLMUL, VPCLMUL when the CPU has them), sizes 1..40, unbalanced
// sizes, around every cut-off (forced through mpb::tuning::gf2x_params()), hard inputs, canaries
// around outputs and scratch.
#include <catch2/catch.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "gf2x/tuning.h"

#include "gf2x/mul/gf2x_mul.h"
#include "support/oracle.h"

namespace g = mpb::gf2x;
using limb = uint64_t;
using Vec = std::vector<limb>;

namespace {

// ---- independent reference: for every set bit i of a, c ^= b * x^i (plain shift-xor) ----
Vec ref_mul(const Vec &a, const Vec &b) {
  Vec c(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size() * 64; ++i) {
    if (!((a[i / 64] >> (i % 64)) & 1)) continue;
    size_t w = i / 64;
    unsigned s = i % 64;
    for (size_t j = 0; j < b.size(); ++j) {
      c[w + j] ^= b[j] << s;
      if (s) c[w + j + 1] ^= b[j] >> (64 - s);
    }
  }
  return c;
}

const limb CANARY = 0xdeadbeefcafe1234ULL;
constexpr size_t GUARD = 4;

// A buffer of n limbs with GUARD canary limbs on each side.
struct Guarded {
  Vec v;
  size_t n;
  explicit Guarded(size_t n_) : v(n_ + 2 * GUARD, CANARY), n(n_) {}
  limb *p() { return v.data() + GUARD; }
  bool intact() const {
    for (size_t i = 0; i < GUARD; ++i)
      if (v[i] != CANARY || v[GUARD + n + i] != CANARY) return false;
    return true;
  }
  Vec out() const { return Vec(v.begin() + GUARD, v.begin() + GUARD + n); }
};

Vec rand_vec(std::mt19937_64 &rng, size_t n, int kind = 0) { return mpbt::hard_limbs(rng, n, kind); }

using Method = std::function<void(limb *, const limb *, size_t, const limb *, size_t, limb *)>;
struct Named {
  const char *name;
  Method f;
  std::function<size_t(size_t, size_t)> itch;
  bool balanced_small_only;  // basecase_n: an == bn <= 9 only
};

std::vector<Named> methods() {
  std::vector<Named> m;
  m.push_back({"shift_add", [](limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *) {
                 g::mul_shift_add(c, a, an, b, bn);
               }, [](size_t, size_t) { return size_t(0); }, false});
  m.push_back({"comb_rtl", [](limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *s) {
                 g::mul_comb_rtl(c, a, an, b, bn, s);
               }, g::mul_comb_itch, false});
  m.push_back({"comb_ltr", [](limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *s) {
                 g::mul_comb_ltr(c, a, an, b, bn, s);
               }, g::mul_comb_itch, false});
  for (unsigned w : {1u, 2u, 4u, 8u}) {
    static const char *names[] = {"", "comb_w1", "comb_w2", "", "comb_w4", "", "", "", "comb_w8"};
    m.push_back({names[w], [w](limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *s) {
                   g::mul_comb_ltr_w(c, a, an, b, bn, w, s);
                 }, [w](size_t an, size_t bn) { return g::mul_comb_ltr_w_itch(an, bn, w); }, false});
  }
  m.push_back({"karatsuba", g::mul_karatsuba, g::mul_karatsuba_itch, false});
  m.push_back({"toom3", g::mul_toom3, g::mul_toom3_itch, false});
  m.push_back({"toom4", g::mul_toom4, g::mul_toom4_itch, false});
  m.push_back({"clmul", [](limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *) {
                 g::mul_clmul(c, a, an, b, bn);
               }, [](size_t, size_t) { return size_t(0); }, false});
  m.push_back({"basecase_n", [](limb *c, const limb *a, size_t an, const limb *b, size_t, limb *) {
                 g::mul_basecase_n(c, a, b, an);
               }, [](size_t, size_t) { return size_t(0); }, true});
  m.push_back({"mul", g::mul, g::mul_itch, false});
  return m;
}

// Runs f on (a, b) with canaries around c and scratch, compares with the reference.
bool check_one(const Named &m, const Vec &a, const Vec &b, std::string *why) {
  Guarded c(a.size() + b.size());
  size_t it = m.itch(a.size(), b.size());
  Guarded s(it);
  for (size_t i = 0; i < c.n; ++i) c.p()[i] = 0x5555aaaa5555aaaaULL;  // must be overwritten
  m.f(c.p(), a.data(), a.size(), b.data(), b.size(), s.p());
  Vec want = ref_mul(a, b);
  bool ok = c.intact() && s.intact() && c.out() == want;
  if (!ok && why) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s an=%zu bn=%zu: %s", m.name, a.size(), b.size(),
                  !c.intact() ? "output canary" : !s.intact() ? "scratch canary" : "wrong product");
    *why = buf;
  }
  return ok;
}

std::vector<g::ClmulPath> paths() {
  std::vector<g::ClmulPath> p;
  for (auto x : {g::ClmulPath::Portable, g::ClmulPath::Pclmul, g::ClmulPath::Vpclmul})
    if (g::cpu_has_clmul_path(x)) p.push_back(x);
  return p;
}
const char *path_name(g::ClmulPath p) {
  switch (p) {
    case g::ClmulPath::Portable: return "portable";
    case g::ClmulPath::Pclmul: return "pclmul";
    case g::ClmulPath::Vpclmul: return "vpclmul";
    default: return "auto";
  }
}

struct PathGuard {  // restores the default path and cut-offs
  ~PathGuard() {
    g::set_clmul_path(g::ClmulPath::Auto);
    mpb::tuning::reset_gf2x_params();
  }
};

void set_cutoffs(int kara, int t3, int t4) {
  auto &P = mpb::tuning::gf2x_params();
  P.kara = kara;
  P.toom3 = t3;
  P.toom4 = t4;
}

} // namespace

TEST_CASE("reference: known products", "[gf2x][ref]") {
  // (1+x)(1+x+x^2) = 1+x^3; (x^63)(x^63) = x^126; (1+x)^2 = 1+x^2
  CHECK(ref_mul({3}, {7}) == Vec{9, 0});
  CHECK(ref_mul({1ULL << 63}, {1ULL << 63}) == Vec{0, 1ULL << 62});
  CHECK(ref_mul({3}, {3}) == Vec{5, 0});
  // x^64 * x^64 = x^128 over two limbs each
  CHECK(ref_mul({0, 1}, {0, 1}) == Vec{0, 0, 1, 0});
  // all-ones(64) * (1+x) = 1 + x^64
  CHECK(ref_mul({~0ULL}, {3}) == Vec{1, 1});
}

TEST_CASE("1x1 carry-less product on every path", "[gf2x][clmul]") {
  PathGuard pg;
  auto rng = mpbt::make_rng(11);
  for (auto p : paths()) {
    REQUIRE(g::set_clmul_path(p));
    INFO("path " << path_name(p));
    for (int t = 0; t < 2000; ++t) {
      Vec a = rand_vec(rng, 1), b = rand_vec(rng, 1);
      limb lo, hi;
      g::mul_1x1(&lo, &hi, a[0], b[0]);
      Vec want = ref_mul(a, b);
      REQUIRE(lo == want[0]);
      REQUIRE(hi == want[1]);
    }
  }
}

TEST_CASE("every method, sizes 1..40, balanced and unbalanced, every path", "[gf2x][methods]") {
  PathGuard pg;
  auto rng = mpbt::make_rng(12);
  auto ms = methods();
  // cut-off configurations: defaults, and low ones that make the recursion deep
  const int cfg[][3] = {{mpb::tuning::GF2X_MUL_KARA_CUTOFF, mpb::tuning::GF2X_MUL_TOOM3_CUTOFF,
                         mpb::tuning::GF2X_MUL_TOOM4_CUTOFF},
                        {2, 1000000, 1000000},
                        {2, 3, 1000000},
                        {2, 3, 4},
                        {5, 9, 13}};
  for (auto p : paths()) {
    REQUIRE(g::set_clmul_path(p));
    for (auto &cf : cfg) {
      set_cutoffs(cf[0], cf[1], cf[2]);
      for (size_t an = 1; an <= 40; ++an) {
        size_t bns[3] = {an, 1 + rng() % 40, 1 + rng() % an};
        for (size_t bn : bns) {
          Vec a = rand_vec(rng, an), b = rand_vec(rng, bn);
          for (auto &m : ms) {
            if (m.balanced_small_only && (an != bn || an > g::BASECASE_MAX)) continue;
            std::string why;
            bool ok = check_one(m, a, b, &why);
            INFO(path_name(p) << " cutoffs " << cf[0] << "/" << cf[1] << "/" << cf[2] << " " << why);
            REQUIRE(ok);
          }
        }
      }
    }
  }
}

TEST_CASE("hard inputs: zero, one, single bits, all-ones, top bit", "[gf2x][hard]") {
  PathGuard pg;
  auto ms = methods();
  std::vector<std::function<Vec(size_t)>> gens = {
      [](size_t n) { return Vec(n, 0); },
      [](size_t n) { Vec v(n, 0); v[0] = 1; return v; },
      [](size_t n) { return Vec(n, ~0ULL); },
      [](size_t n) { Vec v(n, 0); v[n - 1] = 1ULL << 63; return v; },
      [](size_t n) { Vec v(n, 0); v[n / 2] = 1ULL << (n % 64); return v; },
      [](size_t n) { Vec v(n, 0x8000000000000001ULL); return v; },
  };
  for (auto p : paths()) {
    REQUIRE(g::set_clmul_path(p));
    for (int cfgi = 0; cfgi < 2; ++cfgi) {
      if (cfgi) set_cutoffs(2, 3, 4);
      else mpb::tuning::reset_gf2x_params();
      for (size_t an : {1, 2, 3, 5, 8, 9, 10, 17, 33, 40})
        for (size_t bn : {1, 4, 9, 10, 31, 40})
          for (auto &ga : gens)
            for (auto &gb : gens) {
              Vec a = ga(an), b = gb(bn);
              for (auto &m : ms) {
                if (m.balanced_small_only && (an != bn || an > g::BASECASE_MAX)) continue;
                std::string why;
                bool ok = check_one(m, a, b, &why);
                INFO(path_name(p) << " " << why);
                REQUIRE(ok);
              }
            }
    }
  }
}

TEST_CASE("around every cut-off, algorithms forced through the runtime params", "[gf2x][cutoff]") {
  PathGuard pg;
  auto rng = mpbt::make_rng(13);
  const Named disp = {"mul", g::mul, g::mul_itch, false};
  const int K = mpb::tuning::GF2X_MUL_KARA_CUTOFF, T3 = mpb::tuning::GF2X_MUL_TOOM3_CUTOFF,
            T4 = mpb::tuning::GF2X_MUL_TOOM4_CUTOFF;
  struct Sweep { int T; int kara, t3, t4; const char *what; };
  const Sweep sweeps[] = {
      {K, K, 1 << 30, 1 << 30, "karatsuba only"},
      {K, K, T3, T4, "default ladder at kara"},
      {T3, K, T3, 1 << 30, "toom3 from T3"},
      {T3, K, T3, T4, "default ladder at toom3"},
      {T4, K, 1 << 30, T4, "toom4 from T4 over karatsuba"},
      {T4, K, T3, T4, "default ladder at toom4"},
  };
  for (auto p : paths()) {
    REQUIRE(g::set_clmul_path(p));
    for (auto &sw : sweeps) {
      set_cutoffs(sw.kara, sw.t3, sw.t4);
      for (int n = sw.T - 2; n <= sw.T + 20; ++n) {
        if (n < 1) continue;
        // balanced, slightly unbalanced, and 2:1 / 3:1 (slicing)
        size_t shapes[][2] = {{(size_t)n, (size_t)n},
                              {(size_t)n, (size_t)n - (size_t)(rng() % (n / 2 + 1))},
                              {(size_t)n, (size_t)(n / 2 > 0 ? n / 2 : 1)},
                              {(size_t)n, (size_t)(n / 3 > 0 ? n / 3 : 1)}};
        for (auto &sh : shapes) {
          if (sh[1] == 0) sh[1] = 1;
          Vec a = rand_vec(rng, sh[0]), b = rand_vec(rng, sh[1]);
          std::string why;
          bool ok = check_one(disp, a, b, &why) && check_one(disp, b, a, &why);
          INFO(path_name(p) << " " << sw.what << " " << why);
          REQUIRE(ok);
        }
      }
    }
  }
}

TEST_CASE("large and very unbalanced sizes through the dispatcher", "[gf2x][large]") {
  PathGuard pg;
  auto rng = mpbt::make_rng(14);
  const Named disp = {"mul", g::mul, g::mul_itch, false};
  const Named t4 = {"toom4", g::mul_toom4, g::mul_toom4_itch, false};
  const Named t3 = {"toom3", g::mul_toom3, g::mul_toom3_itch, false};
  const Named ka = {"karatsuba", g::mul_karatsuba, g::mul_karatsuba_itch, false};
  size_t shapes[][2] = {{1000, 1000}, {1500, 1499}, {1237, 700}, {2000, 3}, {999, 100},
                        {640, 9}, {333, 10}, {2100, 2100}};
  for (auto &sh : shapes) {
    Vec a = rand_vec(rng, sh[0]), b = rand_vec(rng, sh[1]);
    for (const Named *m : {&disp, &t4, &t3, &ka}) {
      std::string why;
      bool ok = check_one(*m, a, b, &why);
      INFO(why);
      REQUIRE(ok);
    }
  }
}

TEST_CASE("squaring, in place too, every path", "[gf2x][sqr]") {
  PathGuard pg;
  auto rng = mpbt::make_rng(15);
  for (auto p : paths()) {
    REQUIRE(g::set_clmul_path(p));
    for (size_t n = 1; n <= 40; ++n) {
      Vec a = rand_vec(rng, n);
      Vec want = ref_mul(a, a);
      Guarded c(2 * n);
      g::sqr(c.p(), a.data(), n);
      REQUIRE(c.intact());
      REQUIRE(c.out() == want);
      Vec inplace(2 * n, 0);
      std::copy(a.begin(), a.end(), inplace.begin());
      g::sqr(inplace.data(), inplace.data(), n);
      REQUIRE(inplace == want);
    }
  }
}

TEST_CASE("exact divisions by 1+x, x+x^4, x^2+x^4", "[gf2x][divexact]") {
  auto rng = mpbt::make_rng(16);
  for (size_t n = 1; n <= 30; ++n) {
    Vec q = rand_vec(rng, n);
    q.push_back(0);  // room: the products fit in n+1 limbs
    Vec d1 = ref_mul(q, {3}), d2 = ref_mul(q, {0x12}), d3 = ref_mul(q, {0x14});
    d1.resize(n + 1); d2.resize(n + 1); d3.resize(n + 1);
    g::divexact_1px(d1.data(), n + 1);
    g::divexact_xpx4(d2.data(), n + 1);
    g::divexact_x2px4(d3.data(), n + 1);
    CHECK(d1 == q);
    CHECK(d2 == q);
    CHECK(d3 == q);
  }
}

TEST_CASE("dispatcher: zero-length operand gives zero", "[gf2x][edge]") {
  Vec a = {1, 2, 3};
  Vec c(3, 77);
  g::mul(c.data(), a.data(), 3, nullptr, 0, nullptr);
  CHECK(c == Vec(3, 0));
  CHECK(g::mul_itch(3, 0) == 0);
}
