// Montgomery/Barrett reduction and modular exponentiation against GMP (mpz_powm, mpz_powm_sec):
// the mpn layer (cpu/mpn/powm/powm.h) on every size 1..70 limbs, both the ADX and the portable
// kernels (powm, powm_ct, and powm_pubexp_ct: public exponent, constant time in the base), and
// the mp_int entry points mp_exptmod / mp_exptmod_ct with aliasing and bad input.
#include <catch2/catch.hpp>

#include "mpn/tuning.h"
#include "support/forced_thresholds.h"

#include "core/cpu_features.h"
#include "mpn/mod/mont.h"
#include "mpn/mul/mul_internal.h"
#include "mpn/powm/powm.h"
#include "support/oracle.h"

using namespace mpbt;
namespace mpn = mpb::mpn;
using limb = uint64_t;
using V = std::vector<limb>;

namespace {
// an n-limb modulus with top limb != 0; odd or even as asked
V make_mod(std::mt19937_64 &rng, size_t n, bool odd) {
  V m = hard_limbs(rng, n);
  if (m[n - 1] == 0) m[n - 1] = 1 + (rng() >> 1);
  if (odd) m[0] |= 1;
  else m[0] &= ~(limb)1;
  if (n == 1 && m[0] < 2) m[0] = odd ? 3 : 2;
  return m;
}
// an odd n-limb modulus for the bit-for-bit REDC tests: all ones every 7th rep, else make_mod's
V hard_odd_mod(std::mt19937_64 &rng, size_t n, int rep) {
  V m = rep % 7 == 0 ? V(n, ~(limb)0) : make_mod(rng, n, true);
  m[0] |= 1;
  return m;
}
// GMP's m, R = 2^(64 n) and R^-1 mod m, the Montgomery tests' oracle
void mont_oracle(const V &m, Z &zm, Z &zR, Z &zRinv) {
  to_mpz(zm, m.data(), m.size());
  mpz_set_ui(zR, 1);
  mpz_mul_2exp(zR, zR, 64 * m.size());
  REQUIRE(mpz_invert(zRinv, zR, zm) != 0);
}
struct Mont {
  V store;
  mpn::MontCtx ctx;
  explicit Mont(const V &m) : store(mpn::mont_ctx_itch(m.size())) {
    mpn::mont_ctx_init(ctx, m.data(), m.size(), store.data());
  }
};
V zpowm(const V &b, const V &e, const V &m) {
  Z zb, ze, zm, zr;
  to_mpz(zb, b.data(), b.size());
  to_mpz(ze, e.data(), e.size());
  to_mpz(zm, m.data(), m.size());
  mpz_powm(zr, zb, ze, zm);
  return limbs_of(zr, m.size());
}
// interesting exponents for modulus size n
std::vector<V> exponents(std::mt19937_64 &rng, size_t n) {
  std::vector<V> es;
  es.push_back(V{});             // en == 0
  es.push_back(V{0, 0});         // zero with leading zero limbs
  es.push_back(V{1});
  es.push_back(V{2});
  es.push_back(V{3, 0});
  es.push_back(V{65537});        // the usual RSA public exponent
  es.push_back(V(1, ~(limb)0));  // all ones, one limb
  es.push_back(V(n, ~(limb)0));  // all ones, full length
  es.push_back(hard_limbs(rng, 1 + rng() % n));        // shorter or equal
  es.push_back(hard_limbs(rng, n));                    // same length
  es.push_back(hard_limbs(rng, n + 1 + rng() % 3));    // longer than the modulus
  return es;
}
std::vector<V> bases(std::mt19937_64 &rng, const V &m) {
  size_t n = m.size();
  std::vector<V> bs;
  bs.push_back(V(n, 0));
  V one(n, 0);
  one[0] = 1;
  bs.push_back(one);
  V mm1 = m;
  mm1[0] -= 1;  // m odd or even >= 2: m-1 without borrow unless m[0] == 0 (even)
  if (m[0] == 0) { Z z; to_mpz(z, m.data(), n); mpz_sub_ui(z, z, 1); mm1 = limbs_of(z, n); }
  bs.push_back(mm1);
  bs.push_back(hard_limbs(rng, n));  // often >= m
  bs.push_back(V(n, ~(limb)0));      // R - 1 >= m
  return bs;
}
} // namespace

static void check_mont_sizes(bool portable) {
  mpb::cpu::force_portable(portable);
  auto rng = make_rng(portable ? 11 : 12);
  for (size_t n : size_sweep(70)) {
    V m = make_mod(rng, n, true);
    Mont mc(m);
    V sc(mpn::powm_itch(n, n + 4) + mpn::powm_ct_itch(n) + mpn::powm_pubexp_ct_itch(n, n + 4));
    auto es = exponents(rng, n);
    auto bs = bases(rng, m);
    for (size_t ei = 0; ei < es.size(); ei++) {
      const V &e = es[ei];
      for (size_t bi = 0; bi < bs.size(); bi++) {
        // every pair for small n; above, every exponent with a rotating base (keeps it fast)
        if (n > 8 && bi != (ei + n) % bs.size()) continue;
        const V &b = bs[bi];
        V want = zpowm(b, e, m);
        V r(n);
        mpn::powm(r.data(), b.data(), e.data(), e.size(), mc.ctx, sc.data());
        INFO("n=" << n << " en=" << e.size());
        REQUIRE(r == want);
        // constant time: exponent padded to at least n limbs
        V ep = e;
        if (ep.size() < n) ep.resize(n, 0);
        V r2(n);
        mpn::powm_ct(r2.data(), b.data(), ep.data(), ep.size(), mc.ctx, sc.data());
        REQUIRE(r2 == want);
        // the scratch one limb off its 16-byte alignment (the table is realigned inside)
        V sc1(mpn::powm_ct_itch(n) + 1), r4(n);
        mpn::powm_ct(r4.data(), b.data(), ep.data(), ep.size(), mc.ctx, sc1.data() + 1);
        REQUIRE(r4 == want);
        // public exponent, constant time in the base (the RSA result check)
        V r3(n);
        mpn::powm_pubexp_ct(r3.data(), b.data(), e.data(), e.size(), mc.ctx, sc.data());
        REQUIRE(r3 == want);
        V b3 = b;
        mpn::powm_pubexp_ct(b3.data(), b3.data(), e.data(), e.size(), mc.ctx, sc.data());
        REQUIRE(b3 == want);
        // aliasing rp == bp
        V bb = b;
        mpn::powm(bb.data(), bb.data(), e.data(), e.size(), mc.ctx, sc.data());
        REQUIRE(bb == want);
      }
    }
  }
  mpb::cpu::force_portable(false);
}

TEST_CASE("mpn powm / powm_ct / powm_pubexp_ct, odd moduli 1..70 limbs (run-time kernels)", "[powm][mpn]") {
  check_mont_sizes(false);
}
TEST_CASE("mpn powm / powm_ct / powm_pubexp_ct, odd moduli 1..70 limbs (portable kernels)", "[powm][mpn]") {
  if (kernel_passes().size() == 1) {  // no extension in use: the case above ran the portable kernels
    SUCCEED("the run-time kernels are the portable ones here");
    return;
  }
  check_mont_sizes(true);
}

// powm_ct_bits (and powm2_ct, base 2): only the low ebits bits of e count (b^(e mod 2^ebits)), at bounds around the
// window (5) and limb (64) boundaries, for exponents cut to the bound (the DH calls' promise:
// e < 2^ebits) and full ones, all ones and hard bases, both kernel paths, rp == bp.
TEST_CASE("mpn powm_ct_bits and powm2_ct: exponents of a public bit length", "[powm][mpn]") {
  for (bool portable : kernel_passes()) {
    mpb::cpu::force_portable(portable);
    auto rng = make_rng(portable ? 21 : 22);
    for (size_t n : {1, 2, 4, 16, 32, 33}) {
      V m = make_mod(rng, n, true);
      Mont mc(m);
      V sc(mpn::powm_ct_itch(n) + mpn::powm2_ct_itch(n));
      const size_t en = 5;
      V two(n, 0);
      two[0] = 2;
      if (n == 1 && m[0] <= 2) two[0] = 0;  // (a base below m)
      for (size_t ebits : {0, 1, 2, 4, 5, 6, 10, 63, 64, 65, 224, 225, 226, 255, 256, 319, 320}) {
        for (int kind = 0; kind < 3; kind++) {
          V e = kind == 0 ? V(en, ~(limb)0) : hard_limbs(rng, en);
          e.resize(en, 0);
          if (kind < 2)  // cut below the bound (all ones / random); kind 2: bits above it too
            for (size_t k = ebits; k < 64 * en; k++) e[k / 64] &= ~((limb)1 << (k % 64));
          V ecut = e;
          for (size_t k = ebits; k < 64 * en; k++) ecut[k / 64] &= ~((limb)1 << (k % 64));
          for (const V &b : bases(rng, m)) {
            V want = zpowm(b, ecut, m);
            V r(n);
            mpn::powm_ct_bits(r.data(), b.data(), e.data(), en, ebits, mc.ctx, sc.data());
            INFO("portable=" << portable << " n=" << n << " ebits=" << ebits << " kind=" << kind);
            REQUIRE(r == want);
            V bb = b;
            mpn::powm_ct_bits(bb.data(), bb.data(), e.data(), en, ebits, mc.ctx, sc.data());
            REQUIRE(bb == want);
          }
          // powers of two (DH keygen with g = 2) against the same oracle
          V r(n);
          mpn::powm2_ct(r.data(), e.data(), en, ebits, mc.ctx, sc.data());
          INFO("powm2_ct portable=" << portable << " n=" << n << " ebits=" << ebits << " kind=" << kind);
          REQUIRE(r == (two[0] ? zpowm(two, ecut, m) : zpowm(V(n, 0), ecut, m)));
        }
      }
    }
  }
  mpb::cpu::force_portable(false);
}

TEST_CASE("mpn Montgomery primitives: redc_1, mont_mul, mont_sqr vs GMP", "[powm][mpn]") {
  for (bool portable : kernel_passes()) {
    mpb::cpu::force_portable(portable != 0);
    auto rng = make_rng(13 + portable);
    for (size_t n = 1; n <= 70; n++) {
      for (int rep = 0; rep < 3; rep++) {
        V m = make_mod(rng, n, true);
        Mont mc(m);
        Z zm, zR, zRinv;
        mont_oracle(m, zm, zR, zRinv);
        V a = hard_limbs(rng, n), b = hard_limbs(rng, n);  // any values < R
        Z za, zb, zw;
        to_mpz(za, a.data(), n);
        to_mpz(zb, b.data(), n);
        mpz_mul(zw, za, zb);
        mpz_mul(zw, zw, zRinv);
        mpz_mod(zw, zw, zm);
        V sc(mpn::mont_sqr_itch(n) + 2 * n + 2);
        V r(n), r2(n), t(n);
        mpn::mont_mul(r.data(), a.data(), b.data(), mc.ctx, sc.data());
        mpn::mont_mul_redc(r2.data(), a.data(), b.data(), mc.ctx, sc.data());
        // both almost reduced: compare mod m
        Z zr;
        to_mpz(zr, r.data(), n);
        mpz_mod(zr, zr, zm);
        REQUIRE(mpz_cmp(zr, zw) == 0);
        to_mpz(zr, r2.data(), n);
        mpz_mod(zr, zr, zm);
        REQUIRE(mpz_cmp(zr, zw) == 0);
        // the CIOS reference in C, almost reduced too
        mpn::mont_mul_portable(r2.data(), a.data(), b.data(), mc.ctx, sc.data());
        to_mpz(zr, r2.data(), n);
        mpz_mod(zr, zr, zm);
        REQUIRE(mpz_cmp(zr, zw) == 0);
        // mont_mul with the output aliasing either input gives the same limbs
        t = a;
        mpn::mont_mul(t.data(), t.data(), b.data(), mc.ctx, sc.data());
        REQUIRE(t == r);
        t = b;
        mpn::mont_mul(t.data(), a.data(), t.data(), mc.ctx, sc.data());
        REQUIRE(t == r);
        // squaring, aliased
        mpz_mul(zw, za, za);
        mpz_mul(zw, zw, zRinv);
        mpz_mod(zw, zw, zm);
        t = a;
        mpn::mont_sqr(t.data(), t.data(), mc.ctx, sc.data());
        to_mpz(zr, t.data(), n);
        mpz_mod(zr, zr, zm);
        REQUIRE(mpz_cmp(zr, zw) == 0);
        t = a;
        mpn::mont_sqr_ct(t.data(), t.data(), mc.ctx, sc.data());
        to_mpz(zr, t.data(), n);
        mpz_mod(zr, zr, zm);
        REQUIRE(mpz_cmp(zr, zw) == 0);
        // redc_1 on a full 2n-limb value: result + carry*R == (T + qm)/R, == T/R mod m
        V T = hard_limbs(rng, 2 * n), T0 = T, rr(n);
        limb cy = mpn::redc_1(rr.data(), T.data(), m.data(), n, mc.ctx.minv);
        Z zT, zq;
        to_mpz(zT, T0.data(), 2 * n);
        to_mpz(zr, rr.data(), n);
        if (cy) mpz_add(zr, zr, zR);
        mpz_mul(zq, zr, zR);
        mpz_sub(zq, zq, zT);  // must be q*m with 0 <= q < R
        REQUIRE(mpz_sgn(zq.v) >= 0);
        REQUIRE(mpz_divisible_p(zq, zm));
        // mont_to / mont_from round trip gives a mod m
        mpn::mont_to(r.data(), a.data(), mc.ctx, sc.data());
        mpn::mont_from(r.data(), r.data(), mc.ctx, sc.data());
        mpz_mod(zw, za, zm);
        REQUIRE(r == limbs_of(zw, n));
      }
    }
  }
  mpb::cpu::force_portable(false);
}

TEST_CASE("redc_1: the unrolled MULX/ADX kernels equal the portable REDC bit for bit", "[powm][mpn][redc]") {
#ifdef MPB_HAVE_ADX_ASM
  if (!mpb::cpu::has_mulx_adx()) return;
  auto rng = make_rng(17);
  int sizes = 0;
  for (size_t n = 1; n <= 70; n++) {
    if (!mpn::redc_fixed_adx_has(n)) continue;
    sizes++;
    for (int rep = 0; rep < 120; rep++) {
      // hard moduli and values: all-ones limbs, runs, T = all ones (the largest carries)
      const V m = hard_odd_mod(rng, n, rep);
      Mont mc(m);
      V T = rep % 5 == 0 ? V(2 * n, ~(limb)0) : hard_limbs(rng, 2 * n, rep % 3), T2 = T, T3 = T, T4 = T, T5 = T;
      V r1(n), r2(n);
      limb c1 = mpn::redc_fixed_adx(r1.data(), T.data(), m.data(), n, mc.ctx.minv);
      limb c2 = mpn::redc_1_portable(r2.data(), T2.data(), m.data(), n, mc.ctx.minv);
      INFO("n = " << n << ", rep " << rep);
      REQUIRE(c1 == c2);
      REQUIRE(r1 == r2);
      // the whole mont_redc in one kernel (the masked subtraction of m when the sum carried),
      // into a separate rp and in place at tp + n
      V r3(n);
      mpn::mont_redc_fixed_adx(r3.data(), T3.data(), m.data(), n, mc.ctx.minv);
      mpn::cnd_sub_n(c2, r2.data(), r2.data(), m.data(), n);
      REQUIRE(r3 == r2);
      mpn::mont_redc_fixed_adx(T4.data() + n, T4.data(), m.data(), n, mc.ctx.minv);
      REQUIRE(V(T4.begin() + n, T4.end()) == r2);
      // and at tp itself (the block kernels read their parked carries before writing rp)
      mpn::mont_redc_fixed_adx(T5.data(), T5.data(), m.data(), n, mc.ctx.minv);
      REQUIRE(V(T5.begin(), T5.begin() + n) == r2);
    }
  }
  REQUIRE(sizes >= 4);
#endif
}

TEST_CASE("redc_comba: the column REDC equals the row REDC bit for bit, aliased too", "[powm][mpn][redc]") {
  auto rng = make_rng(19);
  for (size_t n = 1; n <= 70; n++) {
    for (int rep = 0; rep < 40; rep++) {
      // hard moduli and values: all-ones limbs, runs, T = all ones (the largest carries), T = 0
      const V m = hard_odd_mod(rng, n, rep);
      Mont mc(m);
      V T = rep % 5 == 0 ? V(2 * n, ~(limb)0) : rep % 11 == 1 ? V(2 * n, 0) : hard_limbs(rng, 2 * n, rep % 3);
      V T2 = T, T3 = T, T4 = T, r1(n), r2(n);
      const limb c1 = mpn::redc_1_portable(r1.data(), T.data(), m.data(), n, mc.ctx.minv);
      const limb c2 = mpn::redc_comba(r2.data(), T2.data(), m.data(), n, mc.ctx.minv);
      INFO("n = " << n << ", rep " << rep);
      REQUIRE(c1 == c2);
      REQUIRE(r1 == r2);
      // in place, at tp + n and at tp
      REQUIRE(mpn::redc_comba(T3.data() + n, T3.data(), m.data(), n, mc.ctx.minv) == c1);
      REQUIRE(V(T3.begin() + n, T3.end()) == r1);
      REQUIRE(mpn::redc_comba(T4.data(), T4.data(), m.data(), n, mc.ctx.minv) == c1);
      REQUIRE(V(T4.begin(), T4.begin() + n) == r1);
    }
  }
}

// mont_cols.cpp: the product (square) and REDC in one pass of columns must give what the
// Comba product (square) followed by redc_comba gives, limb for limb and carry for carry: the
// same quotient digits. Hard operands (all ones up to R - 1, zero, runs), all-ones moduli, every
// size 1..70 (the portable thresholds MONT_MUL_COLS_MIN and MONT_SQR_COLS_MIN, 17, and the
// Karatsuba cut-off, 30, lie inside), the output aliasing an input (both for the square, either
// or both for the product).
TEST_CASE("mont_mul_cols / mont_sqr_cols: the columns pass equals product + redc_comba bit for bit, aliased too",
          "[powm][mpn][redc]") {
  auto rng = make_rng(23);
  for (size_t n = 1; n <= 70; n++) {
    for (int rep = 0; rep < 24; rep++) {
      const V m = hard_odd_mod(rng, n, rep);
      Mont mc(m);
      const limb minv = mc.ctx.minv;
      auto operand = [&](int k) {
        switch ((rep + k) % 6) {
          case 0: return V(n, ~(limb)0);  // R - 1: the largest column sums
          case 1: return V(n, 0);
          default: return hard_limbs(rng, n, (rep + k) % 3);
        }
      };
      const V a = operand(0), b = operand(1);
      INFO("n = " << n << ", rep " << rep);
      // the reference: Comba product, then the column REDC
      V t(2 * n), want(n), q(n);
      mpb::mpn::kern::mul_comba_loop(t.data(), a.data(), b.data(), n);
      const limb cw = mpn::redc_comba(want.data(), t.data(), m.data(), n, minv);
      V r(n);
      REQUIRE(mpn::mont_mul_cols(r.data(), a.data(), b.data(), m.data(), n, minv, q.data()) == cw);
      REQUIRE(r == want);
      V ra = a, rb = b;
      REQUIRE(mpn::mont_mul_cols(ra.data(), ra.data(), b.data(), m.data(), n, minv, q.data()) == cw);
      REQUIRE(ra == want);
      REQUIRE(mpn::mont_mul_cols(rb.data(), a.data(), rb.data(), m.data(), n, minv, q.data()) == cw);
      REQUIRE(rb == want);
      // the square, and the product of a with itself in place (rp == ap == bp)
      mpb::mpn::kern::sqr_comba_loop(t.data(), a.data(), n);
      const limb cs = mpn::redc_comba(want.data(), t.data(), m.data(), n, minv);
      REQUIRE(mpn::mont_sqr_cols(r.data(), a.data(), m.data(), n, minv, q.data()) == cs);
      REQUIRE(r == want);
      ra = a;
      REQUIRE(mpn::mont_sqr_cols(ra.data(), ra.data(), m.data(), n, minv, q.data()) == cs);
      REQUIRE(ra == want);
      ra = a;
      REQUIRE(mpn::mont_mul_cols(ra.data(), ra.data(), ra.data(), m.data(), n, minv, q.data()) == cs);
      REQUIRE(ra == want);
    }
  }
}

// The portable Montgomery product and square on both sides of their columns thresholds, forced
// to every size and to none (tuning::Params), against GMP: each n runs both forms.
TEST_CASE("mont_mul / mont_sqr / mont_sqr_ct (portable kernels) with the columns pass forced on and off",
          "[powm][mpn][thresholds]") {
  mpb::cpu::force_portable(true);
  auto rng = make_rng(29);
  for (int on = 0; on < 2; on++) {
    auto &p = mpb::tuning::params();
    p.mont_mul_cols_min = p.mont_sqr_cols_min = on ? 1 : 1000;
    for (size_t n = 1; n <= 40; n++) {
      V m = n % 5 == 0 ? V(n, ~(limb)0) : make_mod(rng, n, true);
      m[0] |= 1;
      Mont mc(m);
      Z zm, zR, zRinv;
      mont_oracle(m, zm, zR, zRinv);
      const V a = n % 3 == 0 ? V(n, ~(limb)0) : hard_limbs(rng, n), b = hard_limbs(rng, n);
      Z za, zb, zw, zr;
      to_mpz(za, a.data(), n);
      to_mpz(zb, b.data(), n);
      V sc(mpn::mont_sqr_itch(n)), r(n);
      INFO("n = " << n << ", columns " << (on ? "on" : "off"));
      mpz_mul(zw, za, zb);
      mpz_mul(zw, zw, zRinv);
      mpz_mod(zw, zw, zm);
      mpn::mont_mul(r.data(), a.data(), b.data(), mc.ctx, sc.data());
      to_mpz(zr, r.data(), n);
      mpz_mod(zr, zr, zm);
      REQUIRE(mpz_cmp(zr, zw) == 0);
      mpz_mul(zw, za, za);
      mpz_mul(zw, zw, zRinv);
      mpz_mod(zw, zw, zm);
      for (int ct = 0; ct < 2; ct++) {
        r = a;
        if (ct) mpn::mont_sqr_ct(r.data(), r.data(), mc.ctx, sc.data());
        else mpn::mont_sqr(r.data(), r.data(), mc.ctx, sc.data());
        to_mpz(zr, r.data(), n);
        mpz_mod(zr, zr, zm);
        REQUIRE(mpz_cmp(zr, zw) == 0);
      }
      // and a whole constant-time exponentiation
      V e = hard_limbs(rng, n), sp(mpn::powm_ct_itch(n));
      mpn::powm_ct(r.data(), b.data(), e.data(), n, mc.ctx, sp.data());
      REQUIRE(r == zpowm(b, e, m));
    }
  }
  mpb::tuning::reset_params();
  mpb::cpu::force_portable(false);
}

static void check_barrett_sizes(bool portable) {
  mpb::cpu::force_portable(portable);
  auto rng = make_rng(15 + 100 * (portable ? 1 : 0));
  for (size_t n : size_sweep(70)) {
    for (int odd = 0; odd < 2; odd++) {
      V m = make_mod(rng, n, odd != 0);
      if (n > 1 && rng() % 4 == 0) {  // a power of B (mu has n+2 limbs) or B^(n-1) + small
        std::fill(m.begin(), m.end(), 0);
        m[n - 1] = 1;
        if (odd) m[0] = 1;
      }
      V store(mpn::barrett_ctx_itch(n));
      mpn::BarrettCtx bc;
      mpn::barrett_ctx_init(bc, m.data(), n, store.data());
      Z zm;
      to_mpz(zm, m.data(), n);
      V sc(mpn::barrett_reduce_itch(n) + mpn::powm_barrett_itch(n, n + 4) + mpn::powm_barrett_ct_itch(n));
      for (int rep = 0; rep < 8; rep++) {
        V x = rep == 0 ? V(2 * n, ~(limb)0) : hard_limbs(rng, 2 * n), r(n), rc(n);
        Z zx;
        if (rep >= 4) {  // x = q*m + (m-1) with a large q < B^n: the largest remainders
          Z q;
          auto ql = hard_limbs(rng, n);
          to_mpz(q, ql.data(), n);
          mpz_mul(zx, q, zm);
          mpz_add(zx, zx, zm);
          mpz_sub_ui(zx, zx, 1);
          if (mpz_sizeinbase(zx, 2) > 128 * n) mpz_tdiv_r_2exp(zx, zx, 128 * n);
          x = limbs_of(zx, 2 * n);
        }
        mpn::barrett_reduce(r.data(), x.data(), bc, sc.data());
        mpn::barrett_reduce_ct(rc.data(), x.data(), bc, sc.data());
        to_mpz(zx, x.data(), 2 * n);
        mpz_mod(zx, zx, zm);
        REQUIRE(r == limbs_of(zx, n));
        REQUIRE(rc == limbs_of(zx, n));
      }
      auto es = exponents(rng, n);
      auto bs = bases(rng, m);
      for (size_t ei = 0; ei < es.size(); ei++)
        for (size_t bi = 0; bi < bs.size(); bi++) {
          if (n > 8 && bi != (ei + n) % bs.size()) continue;
          const V &e = es[ei];
          V b = bs[bi];
          Z zb;
          to_mpz(zb, b.data(), n);
          mpz_mod(zb, zb, zm);
          b = limbs_of(zb, n);  // powm_barrett wants b < m
          V r(n);
          mpn::powm_barrett(r.data(), b.data(), e.data(), e.size(), bc, sc.data());
          INFO("n=" << n << " odd=" << odd << " en=" << e.size());
          const V want = zpowm(b, e, m);
          REQUIRE(r == want);
          V rc(n);
          mpn::powm_barrett_ct(rc.data(), b.data(), e.data(), e.size(), bc, sc.data());
          REQUIRE(rc == want);
        }
    }
  }
  mpb::cpu::force_portable(false);
}

// the MULX/ADX rows (run-time kernels) and the portable addmul_1, as two cases (they run in
// parallel under CTest; the second is the first again where no extension is in use)
TEST_CASE("mpn Barrett reduction and powm_barrett (and their constant-time forms), even and odd moduli 1..70 limbs "
          "(run-time kernels)", "[powm][mpn][barrett]") {
  check_barrett_sizes(false);
}
TEST_CASE("mpn Barrett reduction and powm_barrett (and their constant-time forms), even and odd moduli 1..70 limbs "
          "(portable kernels)", "[powm][mpn][barrett]") {
  if (kernel_passes().size() == 1) {
    SUCCEED("the run-time kernels are the portable ones here");
    return;
  }
  check_barrett_sizes(true);
}

// ---------------------------------------------------------------------------------------
// mp_int entry points
namespace {
void rand_signed(std::mt19937_64 &rng, mpz_t z, size_t n, bool allow_neg = true) {
  auto l = hard_limbs(rng, n);
  if (n && l[n - 1] == 0) l[n - 1] = 1 + (rng() >> 1);
  to_mpz(z, l.data(), n);
  if (allow_neg && (rng() & 1)) mpz_neg(z, z);
}
void setm(mp_int *a, mpz_srcptr z) { REQUIRE(from_mpz(a, z) == MP_OKAY); }
} // namespace

TEST_CASE("mp_exptmod and mp_exptmod_ct vs mpz_powm / mpz_powm_sec, with aliasing",
          "[powm][mp_int]") {
  auto rng = make_rng(21);
  for (size_t n = 1; n <= 40; n += (n < 12 ? 1 : 7)) {
    for (int rep = 0; rep < 4; rep++) {
      Z za, zb, zc, zr;
      rand_signed(rng, za, 1 + rng() % (2 * n));  // base shorter/longer than c, any sign
      rand_signed(rng, zb, rng() % (n + 2), false);
      rand_signed(rng, zc, n, false);
      if (rep & 1) mpz_setbit(zc, 0);  // odd and even moduli
      else mpz_clrbit(zc, 0);
      if (mpz_cmp_ui(zc.v, 2) < 0) mpz_set_ui(zc, rep & 1 ? 3 : 2);
      mpz_powm(zr, za, zb, zc);
      M a, b, c, d;
      setm(&a, za);
      setm(&b, zb);
      setm(&c, zc);
      REQUIRE(mp_exptmod(&a, &b, &c, &d) == MP_OKAY);
      REQUIRE(equal(&d, zr));
      // the result in place of operand `pos` (d == a, d == b, d == c), computed by f
      M t;
      auto aliased = [&](int (*f)(const mp_int *, const mp_int *, const mp_int *, mp_int *), int pos,
                         const Z &zv) {
        setm(&t, zv);
        const mp_int *ops[3] = {&a, &b, &c};
        ops[pos] = &t;
        REQUIRE(f(ops[0], ops[1], ops[2], &t) == MP_OKAY);
        REQUIRE(equal(&t, zr));
      };
      aliased(mp_exptmod, 0, za);
      aliased(mp_exptmod, 1, zb);
      aliased(mp_exptmod, 2, zc);
      if (mpz_odd_p(zc.v) && mpz_cmp_ui(zc.v, 1) > 0) {
        Z zs;
        mpz_mod(zs, za, zc);  // mpz_powm_sec wants a positive exponent
        if (mpz_sgn(zb.v) > 0) {
          mpz_powm_sec(zs, zs, zb, zc);
          REQUIRE(mpz_cmp(zs, zr) == 0);
        }
        M e;
        REQUIRE(mp_exptmod_ct(&a, &b, &c, &e) == MP_OKAY);
        REQUIRE(equal(&e, zr));
        aliased(mp_exptmod_ct, 0, za);
        aliased(mp_exptmod_ct, 2, zc);
      }
      // negative exponent: the inverse, when it exists
      Z zi, znb;
      mpz_neg(znb, zb);
      if (mpz_sgn(zb.v) != 0) {
        M nb;
        setm(&nb, znb);
        setm(&t, zc);
        int rc = mp_exptmod(&a, &nb, &c, &t);
        if (mpz_invert(zi, za, zc)) {
          REQUIRE(rc == MP_OKAY);
          mpz_powm(zr, zi, zb, zc);
          REQUIRE(equal(&t, zr));
        } else {
          REQUIRE(rc == MP_VAL);
          REQUIRE(equal(&t, zc));  // untouched
        }
      }
    }
  }
}

TEST_CASE("mp_exptmod special cases: c == 1, base 0, exponent 0, powers of two", "[powm][mp_int]") {
  M a, b, c, d;
  mp_set(&c, 1);
  mp_set(&a, 5);
  mp_set(&b, 0);
  REQUIRE(mp_exptmod(&a, &b, &c, &d) == MP_OKAY);
  REQUIRE(mp_iszero(&d));
  mp_set(&c, 10);
  REQUIRE(mp_exptmod(&a, &b, &c, &d) == MP_OKAY);
  REQUIRE(mp_cmp_d(&d, 1) == MP_EQ);
  mp_set(&a, 0);
  REQUIRE(mp_exptmod(&a, &b, &c, &d) == MP_OKAY);  // 0^0 = 1 (as GMP)
  REQUIRE(mp_cmp_d(&d, 1) == MP_EQ);
  mp_set(&b, 7);
  REQUIRE(mp_exptmod(&a, &b, &c, &d) == MP_OKAY);
  REQUIRE(mp_iszero(&d));
  // modulus 2^k (Barrett with mu of n+2 limbs)
  Z zc, za, zb, zr;
  mpz_setbit(zc, 256);
  mpz_set_str(za, "123456789abcdef123456789abcdef", 16);
  mpz_set_str(zb, "fedcba987654321fedcba987654321", 16);
  mpz_powm(zr, za, zb, zc);
  REQUIRE(from_mpz(&a, za) == MP_OKAY);
  REQUIRE(from_mpz(&b, zb) == MP_OKAY);
  REQUIRE(from_mpz(&c, zc) == MP_OKAY);
  REQUIRE(mp_exptmod(&a, &b, &c, &d) == MP_OKAY);
  REQUIRE(equal(&d, zr));
}

TEST_CASE("mp_exptmod / mp_exptmod_ct bad input: MP_VAL, output untouched", "[powm][mp_int]") {
  M a, b, c, d;
  mp_set(&a, 3);
  mp_set(&b, 5);
  mp_set(&d, 77);
  auto untouched = [&] { REQUIRE(mp_cmp_d(&d, 77) == MP_EQ); };
  mp_zero(&c);  // c == 0
  REQUIRE(mp_exptmod(&a, &b, &c, &d) == MP_VAL);
  REQUIRE(mp_exptmod_ct(&a, &b, &c, &d) == MP_VAL);
  untouched();
  mp_set(&c, 7);
  REQUIRE(mp_neg(&c, &c) == MP_OKAY);  // c < 0
  REQUIRE(mp_exptmod(&a, &b, &c, &d) == MP_VAL);
  REQUIRE(mp_exptmod_ct(&a, &b, &c, &d) == MP_VAL);
  untouched();
  mp_set(&c, 8);  // even c for the constant-time version
  REQUIRE(mp_exptmod_ct(&a, &b, &c, &d) == MP_VAL);
  untouched();
  mp_set(&c, 1);  // c == 1 for the constant-time version
  REQUIRE(mp_exptmod_ct(&a, &b, &c, &d) == MP_VAL);
  untouched();
  mp_set(&c, 7);
  REQUIRE(mp_neg(&b, &b) == MP_OKAY);  // negative exponent: ct refuses
  REQUIRE(mp_exptmod_ct(&a, &b, &c, &d) == MP_VAL);
  untouched();
  mp_set(&a, 14);  // not invertible mod 7 with b < 0
  REQUIRE(mp_exptmod(&a, &b, &c, &d) == MP_VAL);
  untouched();
}

TEST_CASE("mpn powm with forced-low multiplication thresholds (Karatsuba at small n)",
          "[powm][mpn][thresholds]") {
  ForcedMulThresholds forced(2, 4);
  auto rng = make_rng(41);
  for (size_t n = 1; n <= 40; n++) {
    V m = make_mod(rng, n, true);
    Mont mc(m);
    V sc(mpn::powm_itch(n, n) + mpn::powm_ct_itch(n));
    V b = hard_limbs(rng, n), e = hard_limbs(rng, n), r(n);
    V want = zpowm(b, e, m);
    mpn::powm(r.data(), b.data(), e.data(), n, mc.ctx, sc.data());
    REQUIRE(r == want);
    mpn::powm_ct(r.data(), b.data(), e.data(), n, mc.ctx, sc.data());
    REQUIRE(r == want);
    V me = make_mod(rng, n, false);
    V st(mpn::barrett_ctx_itch(n));
    mpn::BarrettCtx bc;
    mpn::barrett_ctx_init(bc, me.data(), n, st.data());
    V sb(mpn::powm_barrett_itch(n, n));
    Z zb, zm;
    to_mpz(zb, b.data(), n);
    to_mpz(zm, me.data(), n);
    mpz_mod(zb, zb, zm);
    V bm = limbs_of(zb, n);
    mpn::powm_barrett(r.data(), bm.data(), e.data(), n, bc, sb.data());
    REQUIRE(r == zpowm(bm, e, me));
  }
}

// mont_ct_kernels: the kernels it resolves give mont_sqr_ct's and mont_mul_ct's results bit for
// bit (their outputs are almost reduced, so equal values are not enough), at every n of the
// kernels and around the constant-time Karatsuba cut-off (forced), and it resolves none for the
// portable kernels.
TEST_CASE("mont_ct_kernels equal mont_sqr_ct / mont_mul_ct limb for limb", "[powm][mpn][mont]") {
  auto rng = make_rng(31);
  for (int portable = 0; portable < 2; portable++) {
    mpb::cpu::force_portable(portable != 0);
    for (int cut : {0, 12, 17}) {
      auto &p = mpb::tuning::params();
      if (cut) p.sqr_karatsuba_ct = cut;
      for (size_t n = 1; n <= 66; n++) {
        V m = n % 5 == 0 ? V(n, ~(limb)0) : make_mod(rng, n, true);
        m[0] |= 1;
        Mont mc(m);
        const mpn::MontCtKernels k = mpn::mont_ct_kernels(mc.ctx);
        INFO("n = " << n << " portable " << portable << " cut " << cut);
        if (portable) REQUIRE((!k.sqr && !k.mul && !k.redc));
        if ((k.sqr || k.mul) && !k.redc) FAIL("a product kernel without the REDC");
        for (int trial = 0; trial < 4; trial++) {
          const V a = trial == 0 ? V(n, ~(limb)0) : hard_limbs(rng, n), b = trial == 1 ? V(n, ~(limb)0) : hard_limbs(rng, n);
          V sc(mpn::mont_sqr_itch(n)), want(n), got(n);
          if (k.sqr) {
            mpn::mont_sqr_ct(want.data(), a.data(), mc.ctx, sc.data());
            k.sqr(sc.data(), a.data());
            k.redc(got.data(), sc.data(), mc.ctx.m, mc.ctx.minv, n);
            REQUIRE(got == want);
          }
          if (k.mul) {
            mpn::mont_mul_ct(want.data(), a.data(), b.data(), mc.ctx, sc.data());
            k.mul(sc.data(), a.data(), b.data());
            k.redc(got.data(), sc.data(), mc.ctx.m, mc.ctx.minv, n);
            REQUIRE(got == want);
          }
        }
      }
      mpb::tuning::reset_params();
    }
  }
  mpb::cpu::force_portable(false);
}

#ifdef MPB_HAVE_ADX_ASM
// kern::sqr_sel_adx_fn: its square equals sqr_rows_adx's limb for limb, and its slice ORs exactly
// entry iv (none for iv outside 0 .. SQR_SEL_SLICE-1) into the job's accumulator, leaving iv, the
// entries and the limbs after the job alone; entries and rp on either 8-byte alignment.
TEST_CASE("sqr_sel kernel: the square plus one slice of a masked selection", "[powm][mpn][mont][ct]") {
  namespace kern = mpn::kern;
  if (!kern::use_adx()) {
    WARN("no MULX/ADX on this CPU (or masked): the sqr_sel kernel is not reached");
    return;
  }
  for (size_t n = kern::ROWS_ADX_MIN; n <= kern::SQR_ROWS_ADX_MAX; n++)
    if (n != 16 && n != 24) REQUIRE(kern::sqr_sel_adx_fn(n) == nullptr);
  REQUIRE(kern::sqr_sel_adx_fn(24) != nullptr);
  for (size_t n : {16, 24}) {
  const kern::SqrSelFn fn = kern::sqr_sel_adx_fn(n);
  if (!fn) {
    WARN("the block kernels are compiled out (sanitizer build): no sqr_sel kernel at " << n << " limbs");
    continue;
  }
  const size_t S = kern::SQR_SEL_SLICE, J = 2 + n, guard = 8;
  const limb pat = 0xa5a5a5a5a5a5a5a5ull;
  auto rng = make_rng(77 + n);
  const int64_t ivs[] = {-(int64_t)S, -3, -1, 0, 1, 2, 3, 4, 5, 6, (int64_t)S, (int64_t)S + 1, 31, 0x7fffffff, -0x7fffffffll - 1};
  for (int trial = 0; trial < 40; trial++) {
    V a = trial == 0 ? V(n, ~(limb)0) : trial == 1 ? V(n, 0) : hard_limbs(rng, n);
    if (trial == 2) a = V(n, 0), a[n - 1] = (limb)1 << 63;
    for (size_t eoff : {0, 1})
      for (size_t roff : {0, 1})
        for (int64_t ivv : ivs) {
          V ebuf(1 + S * n), rbuf(1 + 2 * n + J + guard, pat);
          for (auto &x : ebuf) x = trial % 3 == 0 ? ~(limb)0 : rng();
          const limb *entries = ebuf.data() + eoff;
          limb *rp = rbuf.data() + roff, *job = rp + 2 * n, *acc = job + 2;
          const limb iv32 = (uint32_t)ivv;
          job[0] = job[1] = iv32 << 32 | iv32;
          for (size_t j = 0; j < n; j++) acc[j] = trial % 4 == 1 ? 0 : rng() & rng();
          V want_acc(acc, acc + n);
          if (ivv >= 0 && ivv < (int64_t)S)
            for (size_t j = 0; j < n; j++) want_acc[j] |= entries[ivv * n + j];
          V want_sq(2 * n);
          kern::sqr_rows_adx_fn(n)(want_sq.data(), a.data());
          const V ebefore = ebuf;
          fn(rp, a.data(), entries);
          INFO("trial " << trial << " iv " << ivv << " entries +" << eoff << " rp +" << roff);
          REQUIRE(V(rp, rp + 2 * n) == want_sq);
          REQUIRE(job[0] == (iv32 << 32 | iv32));
          REQUIRE(job[1] == job[0]);
          REQUIRE(V(acc, acc + n) == want_acc);
          for (size_t g = 0; g < guard; g++) REQUIRE(rp[2 * n + J + g] == pat);
          if (roff) REQUIRE(rbuf[0] == pat);
          REQUIRE(ebuf == ebefore);
        }
  }
  }
}

// kern::mul_sel_adx_fn: its product equals mul_rows_adx's limb for limb, and it sets the job's
// accumulator to entry iv of the 32 (zero for iv outside 0..31) whatever the accumulator held,
// leaving iv, the entries and the limbs around the job alone; entries, rp and the job on either
// 8-byte alignment.
TEST_CASE("mul_sel kernel: the product plus a whole masked selection", "[powm][mpn][mont][ct]") {
  namespace kern = mpn::kern;
  if (!kern::use_adx()) {
    WARN("no MULX/ADX on this CPU (or masked): the mul_sel kernel is not reached");
    return;
  }
  for (size_t n = kern::ROWS_ADX_MIN; n <= kern::ROWS_ADX_MAX; n++)
    if (n != 32) REQUIRE(kern::mul_sel_adx_fn(n) == nullptr);
  const kern::MulSelFn fn = kern::mul_sel_adx_fn(32);
  REQUIRE(fn != nullptr);
  const size_t n = 32, T = 32, guard = 8;
  const limb pat = 0x5a5a5a5a5a5a5a5aull;
  auto rng = make_rng(79);
  const int64_t ivs[] = {0, 1, 7, 8, 15, 16, 30, 31, 32, 33, -1, -32, 0x7fffffff, -0x7fffffffll - 1};
  for (int trial = 0; trial < 12; trial++) {
    V a = trial == 0 ? V(n, ~(limb)0) : hard_limbs(rng, n), b = trial == 1 ? V(n, ~(limb)0) : hard_limbs(rng, n);
    if (trial == 2) b = V(n, 0);
    for (size_t off : {0, 1})
      for (int64_t ivv : ivs) {
        V ebuf(1 + T * n), rbuf(1 + 2 * n), jbuf(1 + guard + 2 + n + guard, pat);
        for (auto &x : ebuf) x = trial % 3 == 0 ? ~(limb)0 : rng();
        const limb *entries = ebuf.data() + off;
        limb *rp = rbuf.data() + off, *job = jbuf.data() + off + guard, *acc = job + 2;
        const limb iv32 = (uint32_t)ivv;
        job[0] = job[1] = iv32 << 32 | iv32;
        for (size_t j = 0; j < n; j++) acc[j] = rng();  // overwritten, not ORed
        V want_acc(n, 0);
        if (ivv >= 0 && ivv < (int64_t)T) want_acc.assign(entries + ivv * n, entries + ivv * n + n);
        V want(2 * n);
        kern::mul_rows_adx_fn(n)(want.data(), a.data(), b.data());
        const V ebefore = ebuf;
        fn(rp, a.data(), b.data(), entries, job);
        INFO("trial " << trial << " iv " << ivv << " offset " << off);
        REQUIRE(V(rp, rp + 2 * n) == want);
        REQUIRE(job[0] == (iv32 << 32 | iv32));
        REQUIRE(job[1] == job[0]);
        REQUIRE(V(acc, acc + n) == want_acc);
        for (size_t g = 0; g < guard; g++) REQUIRE((job[-1 - (long)g] == pat && acc[n + g] == pat));
        REQUIRE(ebuf == ebefore);
      }
  }
}
#endif

// powm_ct at 16 and 24 limbs, where the squarings carry the selections (MontCtOps::sqr_sel) on
// MULX/ADX CPUs, and at 32, where the products do (MontCtOps::mul_sel): exponents whose 5-bit windows take every value 0..31 in turn, so every entry is
// picked by every slice, including those read twice (the last two slices overlap), against GMP,
// with the portable kernels too, and at public bit lengths whose top window is short
// (powm_ct_bits).
TEST_CASE("mpn powm_ct at 16, 24 and 32 limbs: every window value through every selection slice", "[powm][mpn][ct]") {
  auto rng = make_rng(78);
  for (size_t n : {16, 24, 32})
  for (int portable = 0; portable < 2; portable++) {
    mpb::cpu::force_portable(portable != 0);
    for (int rep = 0; rep < 6; rep++) {
      V m = rep == 0 ? V(n, ~(limb)0) : make_mod(rng, n, true);
      m[0] |= 1;
      Mont mc(m);
      V b = rep == 1 ? V(n, ~(limb)0) : hard_limbs(rng, n);
      // windows from the top: w_j = (j * step + off) mod 32, step odd so that 32 windows take
      // every value once
      const unsigned step = 1 + 2 * (rep % 8), off = (unsigned)rng() % 32;
      for (size_t ebits : {64 * n, 64 * n - 1, 64 * n - 3, 64 * n - 24, (size_t)512}) {
        V e(n, 0);
        const size_t nw = (ebits + 4) / 5;
        for (size_t j = 0; j < nw; j++) {
          const size_t lo = (nw - 1 - j) * 5;
          const limb w = (limb)((j * step + off) % 32);
          for (unsigned bit = 0; bit < 5; bit++)
            if ((w >> bit & 1) && lo + bit < ebits) e[(lo + bit) / 64] |= (limb)1 << ((lo + bit) % 64);
        }
        V sc(mpn::powm_ct_itch(n) + 1), r(n);
        mpn::powm_ct_bits(r.data(), b.data(), e.data(), n, ebits, mc.ctx, sc.data() + rep % 2);
        INFO("n " << n << " portable " << portable << " rep " << rep << " ebits " << ebits);
        REQUIRE(r == zpowm(b, e, m));
      }
    }
  }
  mpb::cpu::force_portable(false);
}
