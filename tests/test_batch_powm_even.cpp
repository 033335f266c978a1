// mpb_batch_powm with even moduli (Barrett per item: cpu/powm_barrett.cpp, and the
// constant-time cpu/powm_barrett_ct.cpp) against mpz_powm: shared and per-item moduli,
// mixed odd/even batches, CT off and on, 1 and 2 threads, every backend request, hard
// moduli (2, 2^k, 2^k * odd, all ones with the low bit cleared), hard bases and exponents,
// and bad input (m = 0, m = 1, base >= m) leaving the outputs untouched.
#include <catch2/catch.hpp>

#include <mpbatch/mpbatch.h>

#include "batch_util.h"

using namespace bt;
using mpbt::Z;

namespace {

struct Ctx {
  mpb_ctx *c = nullptr;
  Ctx() { REQUIRE(mpb_ctx_create(&c) == MPB_OK); }
  ~Ctx() { mpb_ctx_destroy(c); }
};

// A modulus of w limbs of kind k: 0 random even, 1 = 2^j (j random), 2 = 2^j * odd,
// 3 = all ones with the low bit cleared, 4 = 2, 5 = random odd, 6 = narrower (top limb zero).
void make_modulus(std::mt19937_64 &rng, uint64_t *m, size_t w, int kind) {
  for (size_t i = 0; i < w; i++) m[i] = 0;
  switch (kind) {
    case 0: {
      auto v = mpbt::hard_limbs(rng, w);
      for (size_t i = 0; i < w; i++) m[i] = v[i];
      if (m[w - 1] == 0) m[w - 1] = rng() | 1;
      m[0] &= ~1ull;
      if (w == 1 && m[0] < 4) m[0] = 4;
      break;
    }
    case 1: {
      size_t j = 1 + rng() % (64 * w - 1);
      m[j / 64] = 1ull << (j % 64);
      break;
    }
    case 2: {
      size_t sh = 1 + rng() % (w == 1 ? 40 : 64 * (w - 1));
      Z z, o;
      auto v = mpbt::hard_limbs(rng, w);
      mpbt::to_mpz(o, v.data(), w);
      mpz_setbit(o, 0);
      mpz_tdiv_r_2exp(o, o, 64 * w - sh);  // odd part small enough for the shift
      mpz_setbit(o, 0);
      mpz_mul_2exp(z, o, sh);
      if (mpz_cmp_ui(z.v, 2) < 0) mpz_set_ui(z, 2);
      mpz_to_row(m, z, w);
      break;
    }
    case 3:
      for (size_t i = 0; i < w; i++) m[i] = ~0ull;
      m[0] = ~1ull;
      break;
    case 4: m[0] = 2; break;
    case 5: rand_odd_modulus(rng, m, w); break;
    default: {  // narrower even modulus: top limb zero (w > 1)
      make_modulus(rng, m, w, 0);
      if (w > 1) {
        m[w - 1] = 0;
        m[w - 2] |= 1ull << 63;
      }
      break;
    }
  }
}

// base of kind k below m: 0 random, 1 = 0, 2 = 1, 3 = m-1, 4 = a power of two below m
void make_base(std::mt19937_64 &rng, uint64_t *b, const uint64_t *m, size_t w, int kind) {
  Z zm, zb;
  mpbt::to_mpz(zm, m, w);
  switch (kind) {
    case 1: mpz_set_ui(zb, 0); break;
    case 2: mpz_set_ui(zb, 1); break;
    case 3: mpz_sub_ui(zb, zm, 1); break;
    case 4: {
      size_t bits = mpz_sizeinbase(zm, 2);
      mpz_set_ui(zb, 0);
      mpz_setbit(zb, bits > 1 ? rng() % (bits - 1) : 0);
      break;
    }
    default: rand_below(rng, b, m, w); return;
  }
  mpz_mod(zb, zb, zm);
  mpz_to_row(b, zb, w);
}

// exponent row of kind k: 0 random, 1 = 0, 2 = 1, 3 = all ones
void make_exp(std::mt19937_64 &rng, uint64_t *e, size_t ew, int kind) {
  auto v = mpbt::hard_limbs(rng, ew);
  for (size_t i = 0; i < ew; i++) e[i] = kind == 0 ? v[i] : kind == 3 ? ~0ull : 0;
  if (kind == 2) e[0] = 1;
}

// One call: moduli of the given kinds (mkinds cycles over the rows), checked item by item.
void run(mpb_ctx *c, std::mt19937_64 &rng, size_t w, size_t ew, size_t cnt, bool shared_m, bool shared_e,
         const std::vector<int> &mkinds, int expect_backend = -1) {
  size_t mrows = shared_m ? 1 : cnt, erows = shared_e ? 1 : cnt;
  Rows m(w * mrows), base(w * cnt), e(ew * erows), r(w * cnt, CANARY);
  for (size_t j = 0; j < mrows; j++) make_modulus(rng, &m[j * w], w, mkinds[j % mkinds.size()]);
  for (size_t j = 0; j < erows; j++) make_exp(rng, &e[j * ew], ew, j < 4 ? (int)j : 0);
  for (size_t i = 0; i < cnt; i++) make_base(rng, &base[i * w], &m[(shared_m ? 0 : i) * w], w, (int)(i % 7 < 5 ? i % 7 : 0));
  mpb_call_info info;
  INFO("w=" << w << " ew=" << ew << " count=" << cnt << " shared_m=" << shared_m << " shared_e=" << shared_e);
  REQUIRE(mpb_batch_powm(c, r.data(), base.data(), e.data(), ew, erows, m.data(), mrows, w, cnt, &info) == MPB_OK);
  INFO("backend " << info.backend << " reason " << info.reason);
  if (expect_backend >= 0) REQUIRE(info.backend == expect_backend);
  Z zb, ze, zm, zr;
  for (size_t i = 0; i < cnt; i++) {
    row_to_mpz(zb, &base[i * w], w);
    row_to_mpz(ze, &e[(shared_e ? 0 : i) * ew], ew);
    row_to_mpz(zm, &m[(shared_m ? 0 : i) * w], w);
    mpz_powm(zr, zb, ze, zm);
    INFO("item " << i);
    REQUIRE(mpbt::limbs_of(zr, w) == Rows(r.begin() + i * w, r.begin() + (i + 1) * w));
  }
}

} // namespace

TEST_CASE("batch powm with even moduli: shared and per-item, every kind, CT off and on, threads",
          "[batch][powm][even]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(701);
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_CPU) == MPB_OK);
  for (int threads : {1, 2})
    for (int ct = 0; ct < 2; ct++) {
      REQUIRE(mpb_ctx_set_threads(ctx.c, threads) == MPB_OK);
      REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
      for (size_t w : {1, 2, 3, 4, 8, 16, 17, 32}) {
        size_t ew = w <= 4 ? w : 2;
        size_t cnt = w <= 8 ? 40 : 9;
        for (int kind = 0; kind <= 6; kind++) {
          if (kind == 5) continue;  // odd: below
          run(ctx.c, rng, w, ew, cnt, true, kind % 2 == 0, {kind}, MPB_BACKEND_CPU);
        }
        run(ctx.c, rng, w, ew, cnt, false, false, {0, 1, 2, 3, 4, 6}, MPB_BACKEND_CPU);
        run(ctx.c, rng, w, ew, cnt, false, true, {0, 1, 2, 3, 4, 6}, MPB_BACKEND_CPU);
      }
    }
}

TEST_CASE("batch powm with mixed odd and even per-item moduli (every backend request)", "[batch][powm][even]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(702);
  for (int backend : {MPB_BACKEND_AUTO, MPB_BACKEND_CPU, MPB_BACKEND_CPU_IFMA, MPB_BACKEND_MULTIPARTITE}) {
    if (!mpb_backend_available(backend)) continue;
    REQUIRE(mpb_ctx_set_backend(ctx.c, backend) == MPB_OK);
    for (int ct = 0; ct < 2; ct++) {
      REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
      for (size_t w : {1, 4, 8, 16}) {
        run(ctx.c, rng, w, 2, 100, false, false, {5, 0, 5, 1, 2, 5, 3, 4, 6}, -1);
        run(ctx.c, rng, w, 1, 17, false, true, {0, 5}, -1);
        // a shared even modulus with a backend that needs odd ones: served by the scalar path
        run(ctx.c, rng, w, 1, 9, true, false, {0}, backend == MPB_BACKEND_AUTO ? -1 : MPB_BACKEND_CPU);
        // all odd: unchanged paths
        run(ctx.c, rng, w, 1, 9, false, false, {5}, -1);
      }
    }
  }
}

TEST_CASE("batch powm with even moduli: bad input leaves the outputs untouched", "[batch][powm][even]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(703);
  const size_t w = 3, cnt = 8;
  Rows m(w * cnt), base(w * cnt), e(w), r(w * cnt, CANARY);
  for (size_t i = 0; i < cnt; i++) {
    make_modulus(rng, &m[i * w], w, (int)(i % 5));
    rand_below(rng, &base[i * w], &m[i * w], w);
  }
  for (auto &x : e) x = rng();
  mpb_call_info info;
  auto untouched = [&] {
    for (auto x : r)
      if (x != CANARY) return false;
    return true;
  };
  for (int ct = 0; ct < 2; ct++) {
    REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
    // modulus 1 at item 4 (per item) and as the shared modulus
    Rows mb = m;
    for (size_t j = 0; j < w; j++) mb[4 * w + j] = 0;
    mb[4 * w] = 1;
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), w, 1, mb.data(), cnt, w, cnt, &info) == MPB_EVAL);
    REQUIRE(info.bad_index == 4);
    REQUIRE(info.bad_arg == MPB_ARG_M);
    Rows zero_b(w * cnt, 0);
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), zero_b.data(), e.data(), w, 1, &mb[4 * w], 1, w, cnt, &info) == MPB_EVAL);
    REQUIRE(info.bad_arg == MPB_ARG_M);
    // zero modulus at item 2
    mb = m;
    for (size_t j = 0; j < w; j++) mb[2 * w + j] = 0;
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), w, 1, mb.data(), cnt, w, cnt, &info) == MPB_EVAL);
    REQUIRE(info.bad_index == 2);
    // base == m (even) at item 5
    Rows bb = base;
    std::copy(&m[5 * w], &m[6 * w], &bb[5 * w]);
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), bb.data(), e.data(), w, 1, m.data(), cnt, w, cnt, &info) == MPB_EVAL);
    REQUIRE(info.bad_index == 5);
    REQUIRE(info.bad_arg == MPB_ARG_A);
    REQUIRE(untouched());
  }
  // and the good call works (2 is the smallest valid even modulus)
  Rows m2(w, 0), b2(w, 0), r2(w, CANARY);
  m2[0] = 2;
  b2[0] = 1;
  REQUIRE(mpb_batch_powm(ctx.c, r2.data(), b2.data(), e.data(), w, 1, m2.data(), 1, w, 1, &info) == MPB_OK);
  REQUIRE(r2 == Rows({1, 0, 0}));
}
