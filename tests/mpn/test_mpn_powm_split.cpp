// The even-modulus split m = 2^s * q (cpu/mpn/powm/powm_2k.cpp, cpu/mpn/powm/powm_2k_ct.cpp, cpu/mpn/mod/binvert_2k.cpp,
// cpu/mpn/powm/powm_split.cpp, cpu/mpn/mul/mullo_basecase.cpp) against GMP: short products, the exponent cut, b^e mod
// 2^s (variable and constant time) for s around limb boundaries, q^-1 mod 2^s, the base
// reduction mod q, the CRT recombination, whole exponentiations for hard moduli (2^k, 2^k * q
// with q of one or many limbs, q all-ones limbs, s = 1, huge s with a tiny q), both the ADX
// and the portable kernels, aliasing; and mp_exptmod with even moduli.
#include <catch2/catch.hpp>

#include "core/cpu_features.h"
#include "mpn/powm/powm.h"
#include "support/oracle.h"

using namespace mpbt;
namespace mpn = mpb::mpn;
using limb = uint64_t;
using V = std::vector<limb>;

namespace {

V zlimbs(const mpz_t z, size_t n) { return limbs_of(z, n); }
void set_pow2(mpz_t z, size_t s) {
  mpz_set_ui(z, 0);
  mpz_setbit(z, s);
}

// exponents: empty, 0, 1, 2, all ones (short and long), runs, random of several lengths
std::vector<V> exps(std::mt19937_64 &rng, size_t n) {
  std::vector<V> es{V{}, V{0, 0}, V{1}, V{2}, V{3, 0}, V(1, ~(limb)0), V(n + 1, ~(limb)0)};
  es.push_back(hard_limbs(rng, 1 + rng() % (n + 1), 2));  // long runs of 0s and 1s
  es.push_back(hard_limbs(rng, n));
  es.push_back(hard_limbs(rng, n + 2));
  return es;
}

// the s values tried for exponentiation modulo 2^s
const size_t kS[] = {1, 2, 3, 4, 5, 31, 62, 63, 64, 65, 66, 127, 128, 129, 191, 192, 193, 255, 256, 511, 1023, 1024, 1025, 2048};

// an even modulus 2^s * q, q odd (qbits bits, 0 => q = 1), hard q kinds
V even_mod(std::mt19937_64 &rng, size_t s, size_t qbits, int kind) {
  Z q, m;
  if (qbits == 0) mpz_set_ui(q, 1);
  else if (kind == 1) {  // all-ones limbs
    set_pow2(q, qbits);
    mpz_sub_ui(q, q, 1);
  } else {
    V v = hard_bits(rng, qbits);
    to_mpz(q, v.data(), v.size());
    mpz_setbit(q, 0);
    if (mpz_cmp_ui(q.v, 1) == 0 && qbits > 1) mpz_setbit(q, qbits - 1);
  }
  mpz_mul_2exp(m, q, s);
  return zlimbs(m, mpz_size(m.v));
}

} // namespace

TEST_CASE("mullo_basecase vs GMP", "[powm][split][mpn]") {
  for (bool portable : kernel_passes()) {
    mpb::cpu::force_portable(portable != 0);
    auto rng = make_rng(501 + portable);
    for (size_t n = 1; n <= 40; n++)
      for (int rep = 0; rep < 4; rep++) {
        V a = hard_limbs(rng, n), b = hard_limbs(rng, n), r(n);
        mpn::mullo_basecase(r.data(), a.data(), b.data(), n);
        Z za, zb, zp;
        to_mpz(za, a.data(), n);
        to_mpz(zb, b.data(), n);
        mpz_mul(zp, za, zb);
        REQUIRE(r == zlimbs(zp, n));
        mpn::mullo_basecase(r.data(), a.data(), a.data(), n);  // square (ap == bp)
        mpz_mul(zp, za, za);
        REQUIRE(r == zlimbs(zp, n));
      }
  }
  mpb::cpu::force_portable(false);
}

TEST_CASE("pow2_exp_reduce keeps b^e mod 2^s for every b", "[powm][split][mpn]") {
  auto rng = make_rng(502);
  for (size_t s : {1, 2, 3, 5, 63, 64, 65, 128, 200})
    for (const V &e : exps(rng, 4)) {
      const size_t ec = mpn::pow2_exp_limbs(s);
      V e2(ec);
      mpn::pow2_exp_reduce(e2.data(), e.data(), e.size(), s);
      Z ze, ze2, lim, mod;
      to_mpz(ze, e.data(), e.size());
      to_mpz(ze2, e2.data(), ec);
      set_pow2(lim, s);
      set_pow2(mod, s);
      if (mpz_cmp(ze, lim) < 0) {
        REQUIRE(mpz_cmp(ze, ze2) == 0);
      } else {
        Z low;
        mpz_fdiv_r_2exp(low, ze, s);
        mpz_add(low, low, lim);
        REQUIRE(mpz_cmp(low, ze2) == 0);
      }
      for (unsigned long b : {0ul, 1ul, 2ul, 3ul, 6ul, 12345ul, 1ul << 40}) {  // same power
        Z zb, w1, w2;
        mpz_set_ui(zb, b);
        mpz_powm(w1, zb, ze, mod);
        mpz_powm(w2, zb, ze2, mod);
        REQUIRE(mpz_cmp(w1, w2) == 0);
      }
    }
}

TEST_CASE("powm_2k / powm_2k_ct vs GMP mpz_powm mod 2^s", "[powm][split][mpn]") {
  for (bool portable : kernel_passes()) {
    mpb::cpu::force_portable(portable != 0);
    auto rng = make_rng(503 + portable);
    for (size_t s : kS) {
      const size_t sn = (s + 63) / 64;
      V sc(std::max(mpn::powm_2k_itch(s), mpn::powm_2k_ct_itch(s)));
      Z zm;
      set_pow2(zm, s);
      std::vector<V> bs{V(sn, 0), V(sn, 0), V(sn, ~(limb)0), hard_limbs(rng, sn), hard_limbs(rng, sn, 2)};
      bs[1][0] = 1;
      V even = hard_limbs(rng, sn);
      even[0] &= ~(limb)7;  // divisible by 8
      bs.push_back(even);
      V p2(sn, 0);  // a power of two
      size_t bit = rng() % (64 * sn);
      p2[bit / 64] = (limb)1 << (bit % 64);
      bs.push_back(p2);
      V three(sn, 0);
      three[0] = 3;
      bs.push_back(three);
      for (const V &e : exps(rng, sn))
        for (const V &b : bs) {
          Z zb, ze, want;
          to_mpz(zb, b.data(), sn);
          to_mpz(ze, e.data(), e.size());
          mpz_powm(want, zb, ze, zm);
          V w = zlimbs(want, sn), r(sn), r2(sn);
          INFO("s " << s << " portable " << portable << " e " << to_hex(ze) << " b " << to_hex(zb));
          mpn::powm_2k(r.data(), b.data(), e.data(), e.size(), s, sc.data());
          REQUIRE(r == w);
          mpn::powm_2k_ct(r2.data(), b.data(), e.data(), e.size(), s, sc.data());
          REQUIRE(r2 == w);
          V bb = b;  // rp == bp
          mpn::powm_2k(bb.data(), bb.data(), e.data(), e.size(), s, sc.data());
          REQUIRE(bb == w);
          bb = b;
          mpn::powm_2k_ct(bb.data(), bb.data(), e.data(), e.size(), s, sc.data());
          REQUIRE(bb == w);
        }
    }
  }
  mpb::cpu::force_portable(false);
}

TEST_CASE("binvert_2k: q^-1 mod 2^s vs GMP mpz_invert", "[powm][split][mpn]") {
  auto rng = make_rng(504);
  for (size_t s : kS)
    for (size_t qn : {1, 2, 3, 7, 20, 40}) {
      V q = hard_limbs(rng, qn);
      q[0] |= 1;
      if (rng() % 3 == 0) std::fill(q.begin(), q.end(), ~(limb)0);
      if (rng() % 5 == 0) { std::fill(q.begin(), q.end(), 0); q[0] = 1; }
      const size_t sn = (s + 63) / 64;
      V r(sn), sc(mpn::binvert_2k_itch(s));
      mpn::binvert_2k(r.data(), q.data(), qn, s, sc.data());
      Z zq, zm, want;
      to_mpz(zq, q.data(), qn);
      set_pow2(zm, s);
      REQUIRE(mpz_invert(want, zq, zm) != 0);
      INFO("s " << s << " qn " << qn);
      REQUIRE(r == zlimbs(want, sn));
    }
}

namespace {
struct Split {
  V store;
  mpn::SplitCtx ctx;
  explicit Split(const V &m) : store(mpn::split_ctx_itch(m.size())) {
    mpn::split_ctx_init(ctx, m.data(), m.size(), store.data());
  }
};
// (s, bits of q) pairs: powers of two around limb boundaries, one-limb and many-limb q,
// s = 1, s around 64, huge s with a tiny q
const std::pair<size_t, size_t> kSplit[] = {
    {1, 0},    {2, 0},    {63, 0},   {64, 0},    {65, 0},   {127, 0},  {128, 0},  {129, 0},   {1023, 0},
    {1024, 0}, {2048, 0}, {1, 2},    {1, 64},    {1, 63},   {1, 1023}, {1, 1024}, {2, 3},     {3, 200},
    {63, 1},   {63, 64},  {64, 64},  {64, 100},  {65, 64},  {65, 5},   {5, 2000}, {2000, 2},  {1500, 64},
    {100, 900}, {640, 640}, {129, 127}, {1, 4096}};
} // namespace

TEST_CASE("split context, base reduction and CRT vs GMP", "[powm][split][mpn]") {
  auto rng = make_rng(505);
  for (auto [s, qbits] : kSplit)
    for (int kind = 0; kind < 2; kind++) {
      V m = even_mod(rng, s, qbits, kind);
      const size_t mn = m.size();
      Split sp(m);
      Z zm, zq, z2;
      to_mpz(zm, m.data(), mn);
      mpz_fdiv_q_2exp(zq, zm, s);
      set_pow2(z2, s);
      INFO("s " << s << " qbits " << qbits << " kind " << kind);
      REQUIRE(sp.ctx.s == s);
      REQUIRE(sp.ctx.qn == std::max<size_t>(1, mpz_size(zq.v)));
      REQUIRE(sp.ctx.q_one == (mpz_cmp_ui(zq.v, 1) == 0));
      V sc(mpn::split_reduce_base_itch(mn) + mpn::split_crt_itch(mn));
      for (int rep = 0; rep < 6; rep++) {
        Z zb, x1, x2, want;
        if (rep == 0) mpz_set_ui(zb, 0);
        else if (rep == 1) mpz_sub_ui(zb, zm, 1);
        else {
          V b = hard_limbs(rng, mn);
          to_mpz(zb, b.data(), mn);
          if (rep == 2) mpz_mod(zb, zb, zm);  // else any value < 2^(64 mn)
        }
        V b = zlimbs(zb, mn);
        if (!sp.ctx.q_one) {
          V rq(sp.ctx.qn);
          mpn::split_reduce_base(rq.data(), b.data(), sp.ctx, sc.data());
          mpz_mod(x1, zb, zq);
          REQUIRE(rq == zlimbs(x1, sp.ctx.qn));
        }
        // CRT of random residues
        V r1 = hard_limbs(rng, mn), r2 = hard_limbs(rng, mn);
        to_mpz(x1, r1.data(), mn);
        to_mpz(x2, r2.data(), mn);
        mpz_mod(x1, x1, zq);
        mpz_mod(x2, x2, z2);
        V v1 = zlimbs(x1, sp.ctx.qn), v2 = zlimbs(x2, sp.ctx.sn), r(mn);
        mpn::split_crt(r.data(), v1.data(), v2.data(), sp.ctx, sc.data());
        Z zr, t;
        to_mpz(zr, r.data(), mn);
        REQUIRE(mpz_cmp(zr, zm) < 0);
        mpz_mod(t, zr, zq);
        REQUIRE(mpz_cmp(t, x1) == 0);
        mpz_mod(t, zr, z2);
        REQUIRE(mpz_cmp(t, x2) == 0);
      }
    }
}

TEST_CASE("powm_split / powm_split_ct vs GMP mpz_powm", "[powm][split][mpn]") {
  for (bool portable : kernel_passes()) {
    mpb::cpu::force_portable(portable != 0);
    auto rng = make_rng(506 + portable);
    for (auto [s, qbits] : kSplit)
      for (int kind = 0; kind < 2; kind++) {
        if (kind == 1 && qbits == 0) continue;
        V m = even_mod(rng, s, qbits, kind);
        const size_t mn = m.size();
        Split sp(m);
        Z zm;
        to_mpz(zm, m.data(), mn);
        auto es = exps(rng, mn);
        V sc(std::max(mpn::powm_split_itch(mn, mn + 2), mpn::powm_split_ct_itch(mn)));
        for (size_t ei = 0; ei < es.size(); ei++) {
          const V &e = es[ei];
          for (int bi = 0; bi < 6; bi++) {
            if (mn > 8 && bi != (int)(ei % 6)) continue;  // big moduli: one base per exponent
            Z zb;
            switch (bi) {
              case 0: mpz_set_ui(zb, 0); break;
              case 1: mpz_set_ui(zb, 1); break;
              case 2: mpz_sub_ui(zb, zm, 1); break;
              case 3: mpz_set_ui(zb, 0); mpz_setbit(zb, rng() % (64 * mn)); mpz_mod(zb, zb, zm); break;
              case 4: { V b = hard_limbs(rng, mn); to_mpz(zb, b.data(), mn); mpz_mod(zb, zb, zm); mpz_clrbit(zb, 0); break; }
              default: { V b = hard_limbs(rng, mn); to_mpz(zb, b.data(), mn); mpz_mod(zb, zb, zm); }
            }
            Z ze, want;
            to_mpz(ze, e.data(), e.size());
            mpz_powm(want, zb, ze, zm);
            V w = zlimbs(want, mn), b = zlimbs(zb, mn), r(mn);
            INFO("s " << s << " qbits " << qbits << " kind " << kind << " portable " << portable << " base " << bi
                      << " e " << to_hex(ze));
            mpn::powm_split(r.data(), b.data(), e.data(), e.size(), sp.ctx, sc.data());
            REQUIRE(r == w);
            V ep = e;  // ct: exponent padded to at least the modulus length
            if (ep.size() < mn) ep.resize(mn, 0);
            mpn::powm_split_ct(r.data(), b.data(), ep.data(), ep.size(), sp.ctx, sc.data());
            REQUIRE(r == w);
            V bb = b;  // rp == bp
            mpn::powm_split(bb.data(), bb.data(), e.data(), e.size(), sp.ctx, sc.data());
            REQUIRE(bb == w);
            bb = b;
            mpn::powm_split_ct(bb.data(), bb.data(), ep.data(), ep.size(), sp.ctx, sc.data());
            REQUIRE(bb == w);
          }
        }
      }
  }
  mpb::cpu::force_portable(false);
}

TEST_CASE("mp_exptmod with even moduli 2^s * q (the split) vs GMP, aliasing, negative base", "[powm][split][mp_int]") {
  auto rng = make_rng(507);
  for (auto [s, qbits] : kSplit)
    for (int kind = 0; kind < 2; kind++) {
      V mv = even_mod(rng, s, qbits, kind);
      Z zc;
      to_mpz(zc, mv.data(), mv.size());
      for (int rep = 0; rep < 3; rep++) {
        Z za, zb, zr;
        V av = hard_limbs(rng, 1 + rng() % (mv.size() + 2));  // shorter or longer than c
        to_mpz(za, av.data(), av.size());
        if (rep == 1) mpz_neg(za, za);
        V bv = hard_limbs(rng, rng() % (mv.size() + 2));
        to_mpz(zb, bv.data(), bv.size());
        mpz_powm(zr, za, zb, zc);
        M a, b, c, d;
        REQUIRE(from_mpz(&a, za) == MP_OKAY);
        REQUIRE(from_mpz(&b, zb) == MP_OKAY);
        REQUIRE(from_mpz(&c, zc) == MP_OKAY);
        INFO("s " << s << " qbits " << qbits << " kind " << kind << " rep " << rep);
        REQUIRE(mp_exptmod(&a, &b, &c, &d) == MP_OKAY);
        REQUIRE(equal(&d, zr));
        REQUIRE(mp_exptmod(&a, &b, &c, &a) == MP_OKAY);  // d == a
        REQUIRE(equal(&a, zr));
        REQUIRE(mp_exptmod(&d, &b, &c, &c) == MP_OKAY);  // d == c (base already reduced: same power)
        Z zr2;
        mpz_powm(zr2, zr, zb, zc);
        REQUIRE(equal(&c, zr2));
      }
    }
}
