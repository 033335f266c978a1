// The multiplication layer (cpu/mul*.cpp, cpu/sqr*.cpp, cpu/mpn_mul_1*.cpp) against GMP:
// every algorithm called directly, the dispatchers around every threshold, unbalanced
// products, hard operands, the MULX/ADX and the portable paths, canary limbs around every
// output and scratch area.
#include <catch2/catch.hpp>

#include <functional>
#include <gmp.h>
#include <vector>

#include "core/cpu_features.h"
#include "mpn/mpn.h"
#include "ref/mpn_ref.h"
#include "mpn/mul/mul_internal.h"
#include "support/oracle.h"
#include "mpn/tuning.h"

using namespace mpbt;
using mpb::mpn::limb;
namespace mpn = mpb::mpn;

namespace {

constexpr limb CANARY = 0xC3A5C3A5DEADBEEFull;
constexpr size_t PAD = 4;

// A buffer with PAD canary limbs on each side.
struct Guarded {
  std::vector<limb> buf;
  size_t n;
  explicit Guarded(size_t n_, limb fill = 0x5555AAAA5555AAAAull) : buf(n_ + 2 * PAD, CANARY), n(n_) {
    for (size_t i = 0; i < n; i++) buf[PAD + i] = fill;
  }
  limb *get() { return buf.data() + PAD; }
  bool intact() const {
    for (size_t i = 0; i < PAD; i++)
      if (buf[i] != CANARY || buf[PAD + n + i] != CANARY) return false;
    return true;
  }
  std::vector<limb> value() const { return std::vector<limb>(buf.begin() + PAD, buf.begin() + PAD + n); }
};

std::vector<limb> gmp_mul(const std::vector<limb> &a, const std::vector<limb> &b) {
  std::vector<limb> r(a.size() + b.size());
  if (a.size() >= b.size())
    mpn_mul((mp_limb_t *)r.data(), (const mp_limb_t *)a.data(), a.size(), (const mp_limb_t *)b.data(), b.size());
  else
    mpn_mul((mp_limb_t *)r.data(), (const mp_limb_t *)b.data(), b.size(), (const mp_limb_t *)a.data(), a.size());
  return r;
}

// Independent check through mpz (not mpn) for a subset, so the oracle itself is cross-checked.
std::vector<limb> mpz_mul_limbs(const std::vector<limb> &a, const std::vector<limb> &b) {
  Z za, zb, zr;
  to_mpz(za, a.data(), a.size());
  to_mpz(zb, b.data(), b.size());
  mpz_mul(zr, za, zb);
  return limbs_of(zr, a.size() + b.size());
}

using MulN = std::function<void(limb *, const limb *, const limb *, size_t)>;
using SqrN = std::function<void(limb *, const limb *, size_t)>;

// rp must be written fully (it is pre-filled with garbage) and nothing outside it.
void check_mul_n(const char *name, const MulN &f, size_t n, std::mt19937_64 &rng, int kind) {
  auto a = hard_limbs(rng, n, kind), b = hard_limbs(rng, n, kind);
  Guarded r(2 * n);
  f(r.get(), a.data(), b.data(), n);
  INFO(name << " n=" << n << " kind=" << kind);
  REQUIRE(r.intact());
  REQUIRE(r.value() == gmp_mul(a, b));
}

void check_sqr(const char *name, const SqrN &f, size_t n, std::mt19937_64 &rng, int kind) {
  auto a = hard_limbs(rng, n, kind);
  Guarded r(2 * n);
  f(r.get(), a.data(), n);
  INFO(name << " n=" << n << " kind=" << kind);
  REQUIRE(r.intact());
  REQUIRE(r.value() == gmp_mul(a, a));
}

// Karatsuba-style functions with scratch: guard the scratch as well.
MulN with_scratch(size_t (*itch)(size_t), void (*f)(limb *, const limb *, const limb *, size_t, limb *)) {
  return [=](limb *rp, const limb *ap, const limb *bp, size_t n) {
    Guarded s(itch(n));
    f(rp, ap, bp, n, s.get());
    REQUIRE(s.intact());
  };
}
SqrN with_scratch_sqr(size_t (*itch)(size_t), void (*f)(limb *, const limb *, size_t, limb *)) {
  return [=](limb *rp, const limb *ap, size_t n) {
    Guarded s(itch(n));
    f(rp, ap, n, s.get());
    REQUIRE(s.intact());
  };
}

// Run body with the run-time kernels and, where those are the MULX/ADX ones, once more with the
// portable C ones (mpbt::kernel_passes; without MULX/ADX the products' run-time kernels are the
// portable ones already).
template <class F> void both_paths(F &&body) {
  for (bool portable : mpbt::kernel_passes()) {
    if (portable && !mpb::cpu::has_mulx_adx()) continue;
    mpb::cpu::force_portable(portable);
    DYNAMIC_SECTION((portable ? "portable" : "run-time kernels")) { body(); }
    mpb::cpu::force_portable(false);
  }
}

struct ParamsGuard {
  ParamsGuard() { mpb::tuning::reset_params(); }
  ~ParamsGuard() { mpb::tuning::reset_params(); }
};

const int kKinds[] = {0, 1, 2};

// check(n, rng, kind) for n = 1..80 and every kind of operand, on both kernel paths, with the
// default thresholds.
template <class F> void each_size_1_to_80(uint64_t seed, F &&check) {
  ParamsGuard pg;
  auto rng = make_rng(seed);
  both_paths([&] {
    for (size_t n = 1; n <= 80; n++)
      for (int kind : kKinds) check(n, rng, kind);
  });
}

} // namespace

TEST_CASE("cpu feature detection is consistent", "[mpn][mul][cpu]") {
  using namespace mpb::cpu;
  uint32_t d = detected();
  REQUIRE(features() == d);
  force_portable(true);
  REQUIRE(features() == 0);
  REQUIRE_FALSE(has_adx());
  REQUIRE_FALSE(mpn::kern::use_adx());
  force_portable(false);
  REQUIRE(features() == d);
  REQUIRE(std::string(describe()).size() > 0);
  INFO("detected: " << describe());
  SUCCEED();
}

TEST_CASE("mul_1 / addmul_1 / submul_1 values and return limbs", "[mpn][mul][mul_1]") {
  auto rng = make_rng(101);
  both_paths([&] {
    for (size_t n = 1; n <= 40; n++)
      for (int kind : kKinds)
        for (int rep = 0; rep < 4; rep++) {
          auto a = hard_limbs(rng, n, kind), r0 = hard_limbs(rng, n, kind), bb = hard_limbs(rng, 1, kind);
          limb b = bb[0];
          Z za, zr, zt;
          to_mpz(za, a.data(), n);
          to_mpz(zr, r0.data(), n);
          INFO("n=" << n << " b=" << b);
          {  // mul_1, separate output and in place
            Guarded r(n);
            limb hi = mpn::mul_1(r.get(), a.data(), n, b);
            mpz_mul_ui(zt, za, 0);
            mpz_set_ui(zt, 0);
            Z zb;
            to_mpz(zb, &b, 1);
            mpz_mul(zt, za, zb);
            auto want = limbs_of(zt, n + 1);
            REQUIRE(r.intact());
            REQUIRE(r.value() == std::vector<limb>(want.begin(), want.begin() + n));
            REQUIRE(hi == want[n]);
            auto ip = a;
            REQUIRE(mpn::mul_1(ip.data(), ip.data(), n, b) == hi);
            REQUIRE(ip == r.value());
          }
          {  // addmul_1
            Guarded r(n);
            std::copy(r0.begin(), r0.end(), r.get());
            limb c = mpn::addmul_1(r.get(), a.data(), n, b);
            Z zb;
            to_mpz(zb, &b, 1);
            mpz_mul(zt, za, zb);
            mpz_add(zt, zt, zr);
            auto want = limbs_of(zt, n + 1);
            REQUIRE(r.intact());
            REQUIRE(r.value() == std::vector<limb>(want.begin(), want.begin() + n));
            REQUIRE(c == want[n]);
          }
          {  // submul_1: r0 - a*b = value - borrow * 2^(64n)
            Guarded r(n);
            std::copy(r0.begin(), r0.end(), r.get());
            limb bw = mpn::submul_1(r.get(), a.data(), n, b);
            Z zb, zv;
            to_mpz(zb, &b, 1);
            mpz_mul(zt, za, zb);
            mpz_sub(zt, zr, zt);  // may be negative
            to_mpz(zv, r.get(), n);
            Z zbw;
            to_mpz(zbw, &bw, 1);
            mpz_mul_2exp(zbw, zbw, 64 * n);
            mpz_sub(zv, zv, zbw);
            REQUIRE(r.intact());
            REQUIRE(mpz_cmp(zv, zt) == 0);
          }
        }
  });
}

TEST_CASE("addmul_1 / submul_1 in place (rp == ap)", "[mpn][mul][mul_1]") {
  auto rng = make_rng(110);
  both_paths([&] {
    for (size_t n = 1; n <= 40; n++)
      for (int kind : kKinds) {
        auto a = hard_limbs(rng, n, kind);
        limb b = hard_limbs(rng, 1, kind)[0];
        Z za, zb, zt;
        to_mpz(za, a.data(), n);
        to_mpz(zb, &b, 1);
        mpz_mul(zt, za, zb);
        mpz_add(zt, zt, za);  // a + a*b
        auto r = a;
        limb c = mpn::addmul_1(r.data(), r.data(), n, b);
        auto want = limbs_of(zt, n + 1);
        INFO("n=" << n);
        REQUIRE(std::vector<limb>(want.begin(), want.begin() + n) == r);
        REQUIRE(c == want[n]);
        // a - a*b = -(a*(b-1)): check r + borrow*2^(64n) == a - a*b
        r = a;
        limb bw = mpn::submul_1(r.data(), r.data(), n, b);
        Z zr, zbw, zexp;
        to_mpz(zr, r.data(), n);
        to_mpz(zbw, &bw, 1);
        mpz_mul_2exp(zbw, zbw, 64 * n);
        mpz_sub(zr, zr, zbw);
        mpz_mul(zexp, za, zb);
        mpz_sub(zexp, za, zexp);
        REQUIRE(mpz_cmp(zr, zexp) == 0);
      }
  });
}

TEST_CASE("ADX and portable single-limb kernels agree limb for limb", "[mpn][mul][mul_1]") {
#ifdef MPB_HAVE_ADX_ASM
  if (!mpb::cpu::has_mulx_adx()) return;
  auto rng = make_rng(102);
  for (size_t n = 1; n <= 70; n++)
    for (int kind : kKinds) {
      auto a = hard_limbs(rng, n, kind), r0 = hard_limbs(rng, n, kind);
      limb b = hard_limbs(rng, 1, kind)[0];
      auto r1 = r0, r2 = r0;
      REQUIRE(mpn::kern::mul_1_adx(r1.data(), a.data(), n, b) == mpn::kern::mul_1_portable(r2.data(), a.data(), n, b));
      REQUIRE(r1 == r2);
      r1 = r0, r2 = r0;
      REQUIRE(mpn::kern::addmul_1_adx(r1.data(), a.data(), n, b) == mpn::kern::addmul_1_portable(r2.data(), a.data(), n, b));
      REQUIRE(r1 == r2);
      r1 = r0, r2 = r0;
      REQUIRE(mpn::kern::submul_1_adx(r1.data(), a.data(), n, b) == mpn::kern::submul_1_portable(r2.data(), a.data(), n, b));
      REQUIRE(r1 == r2);
    }
#endif
}

TEST_CASE("every multiplication algorithm, sizes 1..80", "[mpn][mul][algorithms]") {
  each_size_1_to_80(103, [](size_t n, auto &rng, int kind) {
    check_mul_n("comba", [](limb *r, const limb *a, const limb *b, size_t k) { mpn::mul_comba(r, a, b, k); }, n, rng, kind);
    check_mul_n("comba_loop", [](limb *r, const limb *a, const limb *b, size_t k) { mpn::kern::mul_comba_loop(r, a, b, k); }, n, rng, kind);
    if (n <= mpn::kern::COMBA_FIXED_MAX)
      check_mul_n("comba_fixed", [](limb *r, const limb *a, const limb *b, size_t k) { mpn::kern::mul_comba_fixed(r, a, b, k); }, n, rng, kind);
#ifdef MPB_HAVE_ADX_ASM
    if (n <= mpn::kern::FIXED_ADX_MAX && mpb::cpu::has_mulx_adx())
      check_mul_n("fixed_adx", [](limb *r, const limb *a, const limb *b, size_t k) { mpn::kern::mul_fixed_adx(r, a, b, k); }, n, rng, kind);
    if (n >= mpn::kern::ROWS_ADX_MIN && n <= mpn::kern::ROWS_ADX_MAX && mpb::cpu::has_mulx_adx())
      check_mul_n("rows_adx", [](limb *r, const limb *a, const limb *b, size_t k) { mpn::kern::mul_rows_adx(r, a, b, k); }, n, rng, kind);
#endif
    check_mul_n("comba_plain", [](limb *r, const limb *a, const limb *b, size_t k) { mpb::ref::mul_comba_plain(r, a, b, k); }, n, rng, kind);
    check_mul_n("basecase", [](limb *r, const limb *a, const limb *b, size_t k) { mpn::mul_basecase(r, a, k, b, k); }, n, rng, kind);
    check_mul_n("karatsuba", with_scratch(mpn::mul_karatsuba_itch, mpn::mul_karatsuba), n, rng, kind);
    check_mul_n("mul_n", with_scratch(mpn::mul_n_itch, mpn::mul_n), n, rng, kind);
  });
}

TEST_CASE("every squaring algorithm, sizes 1..80", "[mpn][sqr][algorithms]") {
  each_size_1_to_80(104, [](size_t n, auto &rng, int kind) {
    check_sqr("sqr_comba", [](limb *r, const limb *a, size_t k) { mpn::sqr_comba(r, a, k); }, n, rng, kind);
    check_sqr("sqr_comba_loop", [](limb *r, const limb *a, size_t k) { mpn::kern::sqr_comba_loop(r, a, k); }, n, rng, kind);
    if (n <= mpn::kern::COMBA_FIXED_MAX)
      check_sqr("sqr_comba_fixed", [](limb *r, const limb *a, size_t k) { mpn::kern::sqr_comba_fixed(r, a, k); }, n, rng, kind);
#ifdef MPB_HAVE_ADX_ASM
    if (n <= mpn::kern::FIXED_ADX_MAX && mpb::cpu::has_mulx_adx())
      check_sqr("sqr_fixed_adx", [](limb *r, const limb *a, size_t k) { mpn::kern::sqr_fixed_adx(r, a, k); }, n, rng, kind);
    if (n >= mpn::kern::ROWS_ADX_MIN && n <= mpn::kern::SQR_ROWS_ADX_MAX && mpb::cpu::has_mulx_adx())
      check_sqr("sqr_rows_adx", [](limb *r, const limb *a, size_t k) { mpn::kern::sqr_rows_adx(r, a, k); }, n, rng, kind);
#endif
    check_sqr("sqr_basecase", [](limb *r, const limb *a, size_t k) { mpn::sqr_basecase(r, a, k); }, n, rng, kind);
    check_sqr("sqr_karatsuba", with_scratch_sqr(mpn::sqr_karatsuba_itch, mpn::sqr_karatsuba), n, rng, kind);
    check_sqr("sqr", with_scratch_sqr(mpn::sqr_itch, mpn::sqr), n, rng, kind);
    check_sqr("sqr_ct", with_scratch_sqr(mpn::sqr_ct_itch, mpn::sqr_ct), n, rng, kind);
  });
}

TEST_CASE("sqr_ct (constant-time Karatsuba squaring): every cut-off, odd and even splits, hard operands",
          "[mpn][sqr][ct]") {
  ParamsGuard pg;
  auto rng = make_rng(106);
  auto &p = mpb::tuning::params();
  // 2: Karatsuba all the way down (every split of every size down to 1 limb); the default;
  // 1000: never. The sign of a0 - a1 is exercised both ways by the hard kinds (runs of zeros
  // and of all-ones limbs in either half) and by the explicit a0 < a1 / a0 > a1 / a0 == a1 below.
  for (int cut : {2, 3, 9, mpb::tuning::SQR_KARATSUBA_CT_CUTOFF, 1000}) {
    p.sqr_karatsuba_ct = cut;
    both_paths([&] {
      for (size_t n = 1; n <= 140; n += (n < 70 ? 1 : 13))
        for (int kind : kKinds) {
          INFO("cut-off " << cut);
          check_sqr("sqr_ct", with_scratch_sqr(mpn::sqr_ct_itch, mpn::sqr_ct), n, rng, kind);
        }
      for (size_t n : {2, 3, 33, 34, 47, 64, 65, 128}) {
        const size_t l = (n + 1) / 2, h = n - l;
        for (int shape = 0; shape < 4; shape++) {
          std::vector<limb> a(n);
          for (auto &x : a) x = rng();
          if (shape == 0) std::fill(a.begin(), a.begin() + l, 0);                // a0 = 0 < a1
          if (shape == 1) std::fill(a.begin() + l, a.end(), 0);                  // a1 = 0
          if (shape == 2) std::copy(a.begin() + l, a.end(), a.begin()), std::fill(a.begin() + h, a.begin() + l, 0);  // a0 == a1
          if (shape == 3) std::fill(a.begin(), a.end(), ~(limb)0);              // all ones
          std::vector<limb> r(2 * n), s(mpn::sqr_ct_itch(n));
          mpn::sqr_ct(r.data(), a.data(), n, s.data());
          INFO("cut-off " << cut << " n " << n << " shape " << shape);
          REQUIRE(r == gmp_mul(a, a));
        }
      }
    });
  }
}

TEST_CASE("all-ones operands (maximal carries) at every size", "[mpn][mul][hard]") {
  ParamsGuard pg;
  both_paths([&] {
    for (size_t n = 1; n <= 80; n++) {
      std::vector<limb> a(n, ~(limb)0), b(n, ~(limb)0);
      auto want = gmp_mul(a, b);
      REQUIRE(want == mpz_mul_limbs(a, b));
      std::vector<limb> r(2 * n), s(mpn::mul_n_itch(n) + 1);
      mpn::mul_comba(r.data(), a.data(), b.data(), n);
      REQUIRE(r == want);
      mpb::ref::mul_comba_plain(r.data(), a.data(), b.data(), n);
      REQUIRE(r == want);
      mpn::sqr_comba(r.data(), a.data(), n);
      REQUIRE(r == want);
      mpn::sqr_basecase(r.data(), a.data(), n);
      REQUIRE(r == want);
      mpn::mul_karatsuba(r.data(), a.data(), b.data(), n, s.data());
      REQUIRE(r == want);
      mpn::sqr_karatsuba(r.data(), a.data(), n, s.data());
      REQUIRE(r == want);
      mpn::mul_n(r.data(), a.data(), b.data(), n, s.data());
      REQUIRE(r == want);
      mpn::sqr(r.data(), a.data(), n, s.data());
      REQUIRE(r == want);
    }
  });
}

TEST_CASE("dispatchers around every threshold (T-2 .. T+20), forced thresholds", "[mpn][mul][thresholds]") {
  ParamsGuard pg;
  auto rng = make_rng(105);
  auto &p = mpb::tuning::params();
  const mpb::tuning::Params defaults = p;
  std::vector<int> ts = {defaults.mul_comba_max, defaults.sqr_comba_max, defaults.mul_karatsuba,
                         defaults.sqr_karatsuba, 2 * defaults.mul_karatsuba, 2 * defaults.sqr_karatsuba};
  both_paths([&] {
    for (int t : ts)
      for (int n = std::max(1, t - 2); n <= t + 20; n++)
        for (int kind : kKinds) {
          check_mul_n("mul_n", with_scratch(mpn::mul_n_itch, mpn::mul_n), n, rng, kind);
          check_sqr("sqr", with_scratch_sqr(mpn::sqr_itch, mpn::sqr), n, rng, kind);
        }
  });
  // Forced configurations: Karatsuba all the way down; no Karatsuba; no Comba.
  struct Cfg { int cm, sc, mk, sk; } cfgs[] = {{0, 0, 2, 2}, {4, 4, 2, 2}, {16, 16, 1000, 1000}, {0, 0, 1000, 1000}, {40, 40, 8, 8}};
  for (auto c : cfgs) {
    p.mul_comba_max = c.cm;
    p.sqr_comba_max = c.sc;
    p.mul_karatsuba = c.mk;
    p.sqr_karatsuba = c.sk;
    for (size_t n = 1; n <= 100; n += (n < 40 ? 1 : 7))
      for (int kind : kKinds) {
        INFO("cfg " << c.cm << "," << c.sc << "," << c.mk << "," << c.sk);
        check_mul_n("mul_n", with_scratch(mpn::mul_n_itch, mpn::mul_n), n, rng, kind);
        check_sqr("sqr", with_scratch_sqr(mpn::sqr_itch, mpn::sqr), n, rng, kind);
      }
  }
  p = defaults;
}

TEST_CASE("unbalanced mpn::mul", "[mpn][mul][unbalanced]") {
  ParamsGuard pg;
  auto rng = make_rng(106);
  auto run = [&](size_t an, size_t bn, int kind) {
    auto a = hard_limbs(rng, an, kind), b = hard_limbs(rng, bn, kind);
    Guarded r(an + bn), s(mpn::mul_itch(an, bn));
    mpn::mul(r.get(), a.data(), an, b.data(), bn, s.get());
    INFO("an=" << an << " bn=" << bn << " kind=" << kind);
    REQUIRE(r.intact());
    REQUIRE(s.intact());
    REQUIRE(r.value() == gmp_mul(a, b));
    Guarded r2(an + bn);
    mpn::mul_basecase(r2.get(), a.data(), an, b.data(), bn);
    REQUIRE(r2.intact());
    REQUIRE(r2.value() == r.value());
  };
#ifdef MPB_HAVE_ADX_ASM
  if (mpb::cpu::has_mulx_adx())
    for (size_t an = 1; an <= mpn::kern::FIXED_ADX_MAX; an++)
      for (size_t bn = 1; bn <= an; bn++)
        for (int kind : kKinds) {
          auto a = hard_limbs(rng, an, kind), b = hard_limbs(rng, bn, kind);
          Guarded r(an + bn);
          mpn::kern::mul_fixed_adx_unbal(r.get(), a.data(), an, b.data(), bn);
          INFO("fixed_adx_unbal an=" << an << " bn=" << bn << " kind=" << kind);
          REQUIRE(r.intact());
          REQUIRE(r.value() == gmp_mul(a, b));
          std::vector<limb> ones_a(an, ~(limb)0), ones_b(bn, ~(limb)0);
          mpn::kern::mul_fixed_adx_unbal(r.get(), ones_a.data(), an, ones_b.data(), bn);
          REQUIRE(r.value() == gmp_mul(ones_a, ones_b));
        }
#endif
  both_paths([&] {
    for (size_t an = 1; an <= 70; an++)
      for (size_t bn = 1; bn <= an; bn += (bn < 10 ? 1 : 3)) run(an, bn, (int)((an + bn) % 3));
    const size_t big[][2] = {{200, 28}, {200, 29}, {301, 64}, {257, 100}, {500, 33}, {129, 128}, {1000, 999}, {640, 320}};
    for (auto &sz : big)
      for (int kind : kKinds) run(sz[0], sz[1], kind);
  });
  // Against mpz for a few, independently of mpn_mul.
  for (size_t an : {33, 90, 150})
    for (size_t bn : {30, 31, 33}) {
      if (bn > an) continue;
      auto a = hard_limbs(rng, an), b = hard_limbs(rng, bn);
      std::vector<limb> r(an + bn), s(mpn::mul_itch(an, bn));
      mpn::mul(r.data(), a.data(), an, b.data(), bn, s.data());
      REQUIRE(r == mpz_mul_limbs(a, b));
    }
}

TEST_CASE("large sizes through the dispatchers", "[mpn][mul][large]") {
  ParamsGuard pg;
  auto rng = make_rng(107);
  for (size_t n : {127, 128, 129, 255, 256, 300, 512, 1000}) {
    check_mul_n("mul_n", with_scratch(mpn::mul_n_itch, mpn::mul_n), n, rng, (int)(n % 3));
    check_sqr("sqr", with_scratch_sqr(mpn::sqr_itch, mpn::sqr), n, rng, (int)(n % 3));
  }
}

TEST_CASE("NIST sizes: delayed-carry and plain Comba equal GMP", "[mpn][mul][comba]") {
  auto rng = make_rng(108);
  for (size_t bits : {192, 224, 256, 384, 521}) {
    size_t n = (bits + 63) / 64;
    for (int rep = 0; rep < 200; rep++) {
      auto a = hard_bits(rng, bits), b = hard_bits(rng, bits);
      a.resize(n);
      b.resize(n);
      std::vector<limb> r1(2 * n), r2(2 * n);
      mpn::mul_comba(r1.data(), a.data(), b.data(), n);
      mpb::ref::mul_comba_plain(r2.data(), a.data(), b.data(), n);
      auto want = mpz_mul_limbs(a, b);
      REQUIRE(r1 == want);
      REQUIRE(r2 == want);
      mpn::sqr_comba(r1.data(), a.data(), n);
      REQUIRE(r1 == mpz_mul_limbs(a, a));
    }
  }
}

namespace {
// The operands of a two-input limb operation: the result in the guarded buffer, or aliasing a
// copy of a (alias 1) or of b (alias 2).
struct AliasedOps {
  std::vector<limb> a2, b2;
  limb *rp;
  const limb *ap, *bp;
  AliasedOps(Guarded &g, const std::vector<limb> &a, const std::vector<limb> &b, int alias)
      : a2(a), b2(b), rp(g.get()), ap(a.data()), bp(b.data()) {
    if (alias == 1) rp = a2.data(), ap = a2.data();
    if (alias == 2) rp = b2.data(), bp = b2.data();
  }
};
}  // namespace

TEST_CASE("add_n / sub_n (x86-64 ADC/SBB loops) with aliasing", "[mpn][add]") {
  auto rng = make_rng(109);
  for (size_t n = 1; n <= 70; n++)
    for (int kind : kKinds)
      for (int alias = 0; alias < 3; alias++) {
        auto a = hard_limbs(rng, n, kind), b = hard_limbs(rng, n, kind);
        std::vector<limb> want(n);
        limb wc = mpn_add_n((mp_limb_t *)want.data(), (const mp_limb_t *)a.data(), (const mp_limb_t *)b.data(), n);
        Guarded g(n);
        INFO("n=" << n << " alias=" << alias);
        {
          AliasedOps o(g, a, b, alias);
          REQUIRE(mpn::add_n(o.rp, o.ap, o.bp, n) == wc);
          REQUIRE(std::vector<limb>(o.rp, o.rp + n) == want);
          REQUIRE(g.intact());
        }
        limb wb = mpn_sub_n((mp_limb_t *)want.data(), (const mp_limb_t *)a.data(), (const mp_limb_t *)b.data(), n);
        AliasedOps o(g, a, b, alias);
        REQUIRE(mpn::sub_n(o.rp, o.ap, o.bp, n) == wb);
        REQUIRE(std::vector<limb>(o.rp, o.rp + n) == want);
        REQUIRE(g.intact());
      }
}

TEST_CASE("cnd_add_n / cnd_sub_n (x86-64 masked ADC/SBB chains) against GMP, with aliasing", "[mpn][add]") {
  // cond 0 gives a copy of a and carry 0; any nonzero cond gives mpn_add_n / mpn_sub_n
  auto rng = make_rng(113);
  for (size_t n = 1; n <= 40; n++)
    for (int kind : kKinds)
      for (limb cond : {(limb)0, (limb)1, (limb)2, ~(limb)0})
        for (int alias = 0; alias < 3; alias++)
          for (int sub = 0; sub < 2; sub++) {
            auto a = hard_limbs(rng, n, kind), b = hard_limbs(rng, n, kind);
            std::vector<limb> want = a;
            limb wc = 0;
            if (cond)
              wc = sub ? mpn_sub_n((mp_limb_t *)want.data(), (const mp_limb_t *)a.data(), (const mp_limb_t *)b.data(), n)
                       : mpn_add_n((mp_limb_t *)want.data(), (const mp_limb_t *)a.data(), (const mp_limb_t *)b.data(), n);
            Guarded g(n);
            AliasedOps o(g, a, b, alias);
            INFO("n=" << n << " kind=" << kind << " cond=" << cond << " alias=" << alias << " sub=" << sub);
            const limb c = sub ? mpn::cnd_sub_n(cond, o.rp, o.ap, o.bp, n) : mpn::cnd_add_n(cond, o.rp, o.ap, o.bp, n);
            REQUIRE(c == wc);
            REQUIRE(std::vector<limb>(o.rp, o.rp + n) == want);
            REQUIRE(g.intact());
          }
}
