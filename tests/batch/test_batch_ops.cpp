// Batch integer and modular operations against GMP item by item: add, sub, mul, sqr, modmul
// (shared and per-item modulus), powm (shared / per-item modulus and exponent, CT on/off,
// every backend this CPU has), pack/unpack. Widths 1..256 limbs, counts 0, 1, 7, 8, 9, 1000.
#include <catch2/catch.hpp>

#include <algorithm>

#include <mpbatch/mpbatch.h>

#include "batch/tuning.h"
#include "core/cpu_features.h"
#include "simd/powm_lanes.h"
#include "support/batch_util.h"

using namespace bt;
using mpbt::Z;

static const size_t kWidths[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
static const size_t kCounts[] = {0, 1, 7, 8, 9, 1000};

// f(w, cnt) for every width and count; batches of 1000 items only below wide limbs.
template <class F> static void each_shape(size_t wide, F &&f) {
  for (size_t w : kWidths)
    for (size_t cnt : kCounts)
      if (w < wide || cnt != 1000) f(w, cnt);
}


TEST_CASE("batch add/sub/mul/sqr match GMP", "[batch][arith]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(101);
  each_shape(128, [&](size_t w, size_t cnt) {
    Rows a(w * cnt + 1), b(w * cnt + 1), r(2 * w * cnt + 1), cy(cnt + 1);
    for (size_t i = 0; i < cnt; i++) {
      auto x = mpbt::hard_limbs(rng, w), y = mpbt::hard_limbs(rng, w);
      std::copy(x.begin(), x.end(), a.begin() + i * w);
      std::copy(y.begin(), y.end(), b.begin() + i * w);
    }
    mpb_call_info info;
    Z za, zb, zr, mod;
    mpz_setbit(mod, 64 * w);
    // add
    REQUIRE(mpb_batch_add(ctx.c, r.data(), cy.data(), a.data(), b.data(), w, cnt, &info) == MPB_OK);
    REQUIRE(info.status == MPB_OK);
    for (size_t i = 0; i < cnt; i++) {
      row_to_mpz(za, &a[i * w], w);
      row_to_mpz(zb, &b[i * w], w);
      mpz_add(zr, za, zb);
      uint64_t c = mpz_cmp(zr, mod) >= 0;
      mpz_mod(zr, zr, mod);
      REQUIRE(mpbt::limbs_of(zr, w) == Rows(r.begin() + i * w, r.begin() + (i + 1) * w));
      REQUIRE(cy[i] == c);
    }
    // sub
    REQUIRE(mpb_batch_sub(ctx.c, r.data(), cy.data(), a.data(), b.data(), w, cnt, nullptr) == MPB_OK);
    for (size_t i = 0; i < cnt; i++) {
      row_to_mpz(za, &a[i * w], w);
      row_to_mpz(zb, &b[i * w], w);
      mpz_sub(zr, za, zb);
      uint64_t c = mpz_sgn(zr.v) < 0;
      mpz_mod(zr, zr, mod);
      REQUIRE(mpbt::limbs_of(zr, w) == Rows(r.begin() + i * w, r.begin() + (i + 1) * w));
      REQUIRE(cy[i] == c);
    }
    // mul, sqr
    REQUIRE(mpb_batch_mul(ctx.c, r.data(), a.data(), b.data(), w, cnt, nullptr) == MPB_OK);
    for (size_t i = 0; i < cnt; i++) {
      row_to_mpz(za, &a[i * w], w);
      row_to_mpz(zb, &b[i * w], w);
      mpz_mul(zr, za, zb);
      REQUIRE(mpbt::limbs_of(zr, 2 * w) == Rows(r.begin() + 2 * i * w, r.begin() + 2 * (i + 1) * w));
    }
    REQUIRE(mpb_batch_sqr(ctx.c, r.data(), a.data(), w, cnt, nullptr) == MPB_OK);
    for (size_t i = 0; i < cnt; i++) {
      row_to_mpz(za, &a[i * w], w);
      mpz_mul(zr, za, za);
      REQUIRE(mpbt::limbs_of(zr, 2 * w) == Rows(r.begin() + 2 * i * w, r.begin() + 2 * (i + 1) * w));
    }
  });
}

TEST_CASE("batch modmul matches GMP (shared and per-item modulus, any parity)", "[batch][modmul]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(102);
  each_shape(64, [&](size_t w, size_t cnt) {
    for (int shared = 0; shared < 2; shared++) {
      size_t mrows = shared ? 1 : cnt;
      if (mrows == 0) mrows = 1;
      Rows m(w * mrows), a(w * cnt + 1), b(w * cnt + 1), r(w * cnt + 1);
      for (size_t j = 0; j < mrows; j++) {
        rand_odd_modulus(rng, &m[j * w], w);
        if (j % 3 == 1) m[j * w] &= ~1ull;  // even moduli too
        if (m[j * w] == 0 && w == 1) m[j * w] = 2;
        if (j % 4 == 2 && w > 1) m[j * w + w - 1] = 0, m[j * w + w - 2] |= 1ull << 63;  // leading zero limb
      }
      for (size_t i = 0; i < cnt; i++) {
        const uint64_t *mi = &m[(shared ? 0 : i) * w];
        rand_below(rng, &a[i * w], mi, w);
        rand_below(rng, &b[i * w], mi, w);
      }
      INFO("w=" << w << " count=" << cnt << " shared=" << shared);
      REQUIRE(mpb_batch_modmul(ctx.c, r.data(), a.data(), b.data(), m.data(), shared ? 1 : cnt, w, cnt, nullptr) == MPB_OK);
      Z za, zb, zm, zr;
      for (size_t i = 0; i < cnt; i++) {
        row_to_mpz(za, &a[i * w], w);
        row_to_mpz(zb, &b[i * w], w);
        row_to_mpz(zm, &m[(shared ? 0 : i) * w], w);
        mpz_mul(zr, za, zb);
        mpz_mod(zr, zr, zm);
        REQUIRE(mpbt::limbs_of(zr, w) == Rows(r.begin() + i * w, r.begin() + (i + 1) * w));
      }
    }
  });
}

static void check_powm(mpb_ctx *c, std::mt19937_64 &rng, size_t w, size_t ew, size_t cnt, bool shared_m,
                       bool shared_e, int backend_expect) {
  size_t mrows = shared_m ? 1 : cnt, erows = shared_e ? 1 : cnt;
  if (!mrows) mrows = 1;
  if (!erows) erows = 1;
  Rows m(w * mrows), base(w * cnt + 1), e(ew * erows), r(w * cnt + 1);
  for (size_t j = 0; j < mrows; j++) {
    rand_odd_modulus(rng, &m[j * w], w);
    if (j % 5 == 3 && w > 1) m[j * w + w - 1] = 0, m[j * w + w - 2] |= 1ull << 63;
  }
  for (size_t j = 0; j < erows; j++) {
    auto v = mpbt::hard_limbs(rng, ew);
    std::copy(v.begin(), v.end(), e.begin() + j * ew);
  }
  for (size_t i = 0; i < cnt; i++) rand_below(rng, &base[i * w], &m[(shared_m ? 0 : i) * w], w);
  mpb_call_info info;
  INFO("w=" << w << " ew=" << ew << " count=" << cnt << " shared_m=" << shared_m << " shared_e=" << shared_e);
  REQUIRE(mpb_batch_powm(c, r.data(), base.data(), e.data(), ew, shared_e ? 1 : cnt, m.data(),
                         shared_m ? 1 : cnt, w, cnt, &info) == MPB_OK);
  INFO("backend " << info.backend << " reason " << info.reason);
  if (backend_expect >= 0 && cnt > 0) REQUIRE(info.backend == backend_expect);
  Z zb, ze, zm, zr;
  for (size_t i = 0; i < cnt; i++) {
    row_to_mpz(zb, &base[i * w], w);
    row_to_mpz(ze, &e[(shared_e ? 0 : i) * ew], ew);
    row_to_mpz(zm, &m[(shared_m ? 0 : i) * w], w);
    mpz_powm(zr, zb, ze, zm);
    REQUIRE(mpbt::limbs_of(zr, w) == Rows(r.begin() + i * w, r.begin() + (i + 1) * w));
  }
}

TEST_CASE("batch powm matches mpz_powm (scalar backend, CT off and on)", "[batch][powm]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(103);
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_CPU_SCALAR) == MPB_OK);
  for (int ct = 0; ct < 2; ct++) {
    REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
    for (size_t w : kWidths)
      for (size_t cnt : kCounts) {
        size_t ew = w <= 8 ? w : (w <= 32 ? 2 : 1);
        if (cnt == 1000 && w > 16) continue;
        if (w >= 128 && cnt > 9) continue;
        check_powm(ctx.c, rng, w, ew, cnt, true, cnt % 2 == 0, MPB_BACKEND_CPU_SCALAR);
        if (w <= 64 && cnt <= 9) check_powm(ctx.c, rng, w, ew, cnt, false, false, MPB_BACKEND_CPU_SCALAR);
      }
  }
}

TEST_CASE("batch powm on the IFMA, AVX-512F and AVX2 backends and AUTO", "[batch][powm][ifma]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(104);
  if (mpb_backend_available(MPB_BACKEND_CPU_IFMA)) {
    REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_CPU_IFMA) == MPB_OK);
    for (int ct = 0; ct < 2; ct++) {
      REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
      for (size_t w : {1, 2, 4, 8, 16, 32})
        for (size_t cnt : {1, 7, 8, 9, 17, 100}) {
          check_powm(ctx.c, rng, w, w <= 8 ? w : 2, cnt, true, false, MPB_BACKEND_CPU_IFMA);
          check_powm(ctx.c, rng, w, w <= 8 ? w : 2, cnt, false, true, MPB_BACKEND_CPU_IFMA);
        }
    }
    REQUIRE(mpb_ctx_set_constant_time(ctx.c, MPB_CT_DEFAULT) == MPB_OK);
    check_powm(ctx.c, rng, 257, 1, 3, true, true, MPB_BACKEND_CPU_SCALAR);  // beyond the lanes: scalar
  } else {
    REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_CPU_IFMA) == MPB_OK);
    Rows m{7}, b{3}, e{5}, r{0};
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), b.data(), e.data(), 1, 1, m.data(), 1, 1, 1, nullptr) == MPB_EUNSUPPORTED);
  }
  // the AVX-512F 8-lane engine (no IFMA) and the AVX2 one (two 4-lane runs per group; no
  // AVX-512), AUTO's lanes on such CPUs, forced (counts 1..4: the AVX2 group's second run skipped)
  for (int backend : {MPB_BACKEND_CPU_AVX512, MPB_BACKEND_CPU_AVX2}) {
    if (mpbt::emulated_rerun_skips(backend)) continue;
    INFO("backend " << mpb_backend_name(backend));
    if (mpb_backend_available(backend)) {
      REQUIRE(mpb_ctx_set_backend(ctx.c, backend) == MPB_OK);
      for (int ct = 0; ct < 2; ct++) {
        REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
        for (size_t w : {1, 2, 4, 8, 16, 32})
          for (size_t cnt : {1, 4, 5, 7, 8, 9, 17}) {
            check_powm(ctx.c, rng, w, w <= 8 ? w : 2, cnt, true, false, backend);
            check_powm(ctx.c, rng, w, w <= 8 ? w : 2, cnt, false, true, backend);
          }
      }
      REQUIRE(mpb_ctx_set_constant_time(ctx.c, MPB_CT_DEFAULT) == MPB_OK);
      // wider than the 8-lane kernels' 256 limbs: the forced engine gives way to the scalar path
      check_powm(ctx.c, rng, 257, 1, 3, true, true, MPB_BACKEND_CPU_SCALAR);
    } else {  // not on this CPU (or masked): forcing it is refused, the output untouched
      REQUIRE(mpb_ctx_set_backend(ctx.c, backend) == MPB_OK);
      Rows m{7}, b{3}, e{5}, r{0};
      REQUIRE(mpb_batch_powm(ctx.c, r.data(), b.data(), e.data(), 1, 1, m.data(), 1, 1, 1, nullptr) == MPB_EUNSUPPORTED);
      REQUIRE(r[0] == 0);
    }
  }
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_AUTO) == MPB_OK);
  for (size_t w : {1, 8, 16, 32, 64, 128})
    for (size_t cnt : {1, 9, 64}) check_powm(ctx.c, rng, w, w >= 64 ? 1 : 2, cnt, true, false, -1);
}

TEST_CASE("batch powm via the multipartite backend", "[batch][powm][multipartite]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(105);
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_MULTIPARTITE) == MPB_OK);
  for (int algo = MPB_MM_SEQUENTIAL; algo <= MPB_MM_MULTIPARTITE; algo++) {
    REQUIRE(mpb_ctx_set_mulmod_algo(ctx.c, algo, 0) == MPB_OK);
    for (size_t w : {4, 8, 17, 64})
      for (size_t cnt : {1, 2, 3}) {
        check_powm(ctx.c, rng, w, 1, cnt, true, false, MPB_BACKEND_MULTIPARTITE);
        check_powm(ctx.c, rng, w, 1, cnt, false, false, MPB_BACKEND_MULTIPARTITE);
      }
  }
}

TEST_CASE("constant-time powm and DH never run on the (variable-time) multipartite backend",
          "[batch][powm][dh][multipartite][ct]") {
  // AUTO picks multipartite for fewer items than threads with a huge shared modulus; a
  // constant-time call (powm with MPB_CT_ON, DH by default) must stay on the constant-time CPU
  // path, forced multipartite included, and report constant_time = 1. Before: multipartite,
  // which branches on every exponent bit, with constant_time still 1.
  const size_t w = 256;  // 16384 bits: the AUTO multipartite threshold (cpu/batch/tuning.h)
  auto rng = mpbt::make_rng(107);
  Rows m(w), base(w), e(1), r(w, CANARY);
  rand_odd_modulus(rng, m.data(), w);
  rand_below(rng, base.data(), m.data(), w);
  e[0] = rng() | 1;
  Z zb, ze, zm, want;
  row_to_mpz(zb, base.data(), w);
  row_to_mpz(ze, e.data(), 1);
  row_to_mpz(zm, m.data(), w);
  for (int backend : {MPB_BACKEND_AUTO, MPB_BACKEND_MULTIPARTITE}) {
    if (mpbt::emulated_rerun_skips(backend)) continue;
    Ctx ctx(backend, 2);
    mpb_call_info info;
    // not constant time: AUTO goes multipartite (the rule this test guards against for secrets)
    REQUIRE(mpb_ctx_set_constant_time(ctx.c, MPB_CT_OFF) == MPB_OK);
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), 1, 1, m.data(), 1, w, 1, &info) == MPB_OK);
    REQUIRE(info.backend == MPB_BACKEND_MULTIPARTITE);
    REQUIRE(info.constant_time == 0);
    // constant time
    REQUIRE(mpb_ctx_set_constant_time(ctx.c, MPB_CT_ON) == MPB_OK);
    std::fill(r.begin(), r.end(), CANARY);
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), 1, 1, m.data(), 1, w, 1, &info) == MPB_OK);
    INFO("backend " << backend << ": " << info.reason);
    REQUIRE(info.backend != MPB_BACKEND_MULTIPARTITE);
    REQUIRE(info.constant_time == 1);
    mpz_powm(want, zb, ze, zm);
    REQUIRE(mpbt::limbs_of(want, w) == r);
    // DH (constant time unless MPB_CT_OFF)
    REQUIRE(mpb_ctx_set_constant_time(ctx.c, MPB_CT_DEFAULT) == MPB_OK);
    std::fill(r.begin(), r.end(), CANARY);
    REQUIRE(mpb_batch_dh_keygen(ctx.c, r.data(), 2, e.data(), 1, m.data(), w, 1, &info) == MPB_OK);
    REQUIRE(info.backend != MPB_BACKEND_MULTIPARTITE);
    REQUIRE(info.constant_time == 1);
    Z two;
    mpz_set_ui(two, 2);
    mpz_powm(want, two, ze, zm);
    REQUIRE(mpbt::limbs_of(want, w) == r);
    REQUIRE(mpb_batch_dh_shared(ctx.c, r.data(), base.data(), e.data(), 1, m.data(), w, 1, &info) == MPB_OK);
    REQUIRE(info.backend != MPB_BACKEND_MULTIPARTITE);
    REQUIRE(info.constant_time == 1);
    mpz_powm(want, zb, ze, zm);
    REQUIRE(mpbt::limbs_of(want, w) == r);
  }
}

TEST_CASE("pack / unpack big-endian bytes and mp_int", "[batch][pack]") {
  auto rng = mpbt::make_rng(106);
  for (size_t w : {1, 2, 5, 32})
    for (size_t nbytes : {1, 7, 8, 9, 40, 300})
      for (size_t cnt : {0, 1, 9}) {
        std::vector<uint8_t> bytes(nbytes * cnt + 1), back(nbytes * cnt + 1);
        for (auto &x : bytes) x = (uint8_t)rng();
        // clear the bytes that do not fit
        for (size_t i = 0; i < cnt; i++)
          for (size_t j = 0; j + w * 8 < nbytes; j++) bytes[i * nbytes + j] = 0;
        Rows rows(w * cnt + 1);
        REQUIRE(mpb_pack_be(rows.data(), w, bytes.data(), nbytes, cnt, nullptr) == MPB_OK);
        Z z, zz;
        for (size_t i = 0; i < cnt; i++) {
          mpz_import(z, nbytes, 1, 1, 1, 0, &bytes[i * nbytes]);
          row_to_mpz(zz, &rows[i * w], w);
          REQUIRE(mpz_cmp(z, zz) == 0);
        }
        REQUIRE(mpb_unpack_be(back.data(), nbytes, rows.data(), w, cnt, nullptr) == MPB_OK);
        for (size_t i = 0; i < nbytes * cnt; i++) REQUIRE(back[i] == bytes[i]);
        // mp_int round trip
        std::vector<mpbt::M> ms(cnt);
        std::vector<void *> ptrs(cnt + 1);
        for (size_t i = 0; i < cnt; i++) ptrs[i] = &ms[i];
        REQUIRE(mpb_unpack_mp(ptrs.data(), rows.data(), w, cnt, nullptr) == MPB_OK);
        Rows rows2(w * cnt + 1);
        REQUIRE(mpb_pack_mp(rows2.data(), w, (const void *const *)ptrs.data(), cnt, nullptr) == MPB_OK);
        REQUIRE(std::equal(rows.begin(), rows.begin() + w * cnt, rows2.begin()));
        for (size_t i = 0; i < cnt; i++) {
          row_to_mpz(zz, &rows[i * w], w);
          REQUIRE(mpbt::equal(&ms[i], zz));
        }
      }
  // values that do not fit
  std::vector<uint8_t> big(17, 0);
  big[0] = 1;
  Rows rows(2, CANARY);
  mpb_call_info info;
  REQUIRE(mpb_pack_be(rows.data(), 2, big.data(), 17, 1, &info) == MPB_ERANGE);
  REQUIRE(info.bad_index == 0);
  REQUIRE(rows[0] == CANARY);
  Rows v{0, 0x100};
  std::vector<uint8_t> out(9, 0x5a);
  REQUIRE(mpb_unpack_be(out.data(), 9, v.data(), 2, 1, &info) == MPB_ERANGE);
  REQUIRE(out[0] == 0x5a);
}

TEST_CASE("pack / unpack: count * width and count * nbytes that overflow are MPB_ERANGE, nothing written",
          "[batch][pack][bad]") {
  Rows rows(4, CANARY);
  std::vector<uint8_t> bytes(64, 0x5a);
  std::vector<void *> items(4, nullptr);
  mpb_call_info info;
  auto erange = [&](int st) {
    REQUIRE(st == MPB_ERANGE);
    REQUIRE(info.bad_arg == MPB_ARG_COUNT);
    REQUIRE(rows == Rows(4, CANARY));
    REQUIRE(bytes == std::vector<uint8_t>(64, 0x5a));
  };
  const size_t huge = SIZE_MAX, half = SIZE_MAX / 2 + 1;
  erange(mpb_pack_be(rows.data(), 1, bytes.data(), 8, huge, &info));        // count * width
  erange(mpb_pack_be(rows.data(), 4, bytes.data(), 8, SIZE_MAX / 16, &info));
  erange(mpb_pack_be(rows.data(), 1, bytes.data(), half, 3, &info));        // count * nbytes
  erange(mpb_unpack_be(bytes.data(), 8, rows.data(), 1, huge, &info));
  erange(mpb_unpack_be(bytes.data(), half, rows.data(), 1, 3, &info));
  erange(mpb_pack_mp(rows.data(), 4, (const void *const *)items.data(), SIZE_MAX / 16, &info));
  erange(mpb_unpack_mp(items.data(), rows.data(), 4, SIZE_MAX / 16, &info));
}

TEST_CASE("AUTO powm: partial IFMA groups (unused lanes) and the simd_items report", "[batch][powm][ifma]") {
  if (!mpb_backend_available(MPB_BACKEND_CPU_IFMA)) return;
  // One thread: whole groups go to IFMA; 2 items stay scalar when a group of 8 lanes costs more
  // than 2 scalar items (cpu/batch/tuning.h's lane cost, measured per machine) and go to one
  // partial group when it clearly costs less (BATCH_IFMA_MARGIN); 3..7 leftover items may go
  // either way.
  Ctx ctx(MPB_BACKEND_AUTO, 1);
  auto rng = mpbt::make_rng(107);
  for (size_t w : {1, 4, 16, 33})
    for (size_t cnt : {2, 3, 5, 7, 8, 11, 19}) {
      for (int shared_m = 0; shared_m < 2; shared_m++) {
        size_t mrows = shared_m ? 1 : cnt;
        Rows m(w * mrows), base(w * cnt), e(2), r(w * cnt);
        for (size_t j = 0; j < mrows; j++) rand_odd_modulus(rng, &m[j * w], w);
        for (size_t i = 0; i < cnt; i++) rand_below(rng, &base[i * w], &m[(shared_m ? 0 : i) * w], w);
        e[0] = rng(), e[1] = rng();
        mpb_call_info info;
        REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), 2, 1, m.data(), mrows, w, cnt, &info) == MPB_OK);
        INFO("w=" << w << " cnt=" << cnt << " " << info.reason);
        const size_t rem = cnt % 8;
        const double group = 8.0 * mpb::tuning::batch_ifma_lane_cost(w);  // in scalar items
        if (cnt < 3 && group > 2.0) REQUIRE(info.backend == MPB_BACKEND_CPU_SCALAR);
        if (cnt < 3 && group < mpb::tuning::BATCH_IFMA_MARGIN * 2.0) REQUIRE(info.backend == MPB_BACKEND_CPU_IFMA);
        if (cnt >= 8) REQUIRE(info.backend == MPB_BACKEND_CPU_IFMA);
        if (info.backend == MPB_BACKEND_CPU_IFMA)  // the full groups, and the rest in a partial group or not
          REQUIRE(((size_t)info.simd_items == cnt || (size_t)info.simd_items == cnt - rem));
        else
          REQUIRE(info.simd_items == 0);
        Z zb, ze, zm, zr;
        row_to_mpz(ze, e.data(), 2);
        for (size_t i = 0; i < cnt; i++) {
          row_to_mpz(zb, &base[i * w], w);
          row_to_mpz(zm, &m[(shared_m ? 0 : i) * w], w);
          mpz_powm(zr, zb, ze, zm);
          REQUIRE(mpbt::limbs_of(zr, w) == Rows(r.begin() + i * w, r.begin() + (i + 1) * w));
        }
      }
    }
}

// The scalar path's speed in the units the lane costs are measured in: 1 with MULX/ADX, the
// portable kernels' measured fraction without (cpu/batch/tuning.h BATCH_SCALAR_PORTABLE_SPEED).
static double scalar_speed(size_t limbs) {
  return mpb::cpu::has_mulx_adx() ? 1.0 : mpb::tuning::batch_scalar_portable_speed(limbs);
}

TEST_CASE("AUTO's engines on an AVX-512F CPU without IFMA: one AVX2 run for up to 4 exponentiations",
          "[batch][cost]") {
  // The choice itself, on any machine (the lane costs are cpu/batch/tuning.h's constants; the
  // engines run in the tests above where the CPU has them).
  using mpb::batch::LaneIsa;
  LaneIsa isas[2];
  CHECK(mpb::batch::auto_lane_isas(LaneIsa::Avx512f, true, 3, isas) == 2);
  CHECK((isas[0] == LaneIsa::Avx512f && isas[1] == LaneIsa::Avx2));
  CHECK(mpb::batch::auto_lane_isas(LaneIsa::Avx512f, true, 4, isas) == 2);
  CHECK(mpb::batch::auto_lane_isas(LaneIsa::Avx512f, true, 5, isas) == 1);
  CHECK(isas[0] == LaneIsa::Avx512f);
  CHECK(mpb::batch::auto_lane_isas(LaneIsa::Avx512f, false, 3, isas) == 1);
  CHECK(mpb::batch::auto_lane_isas(LaneIsa::Ifma, true, 3, isas) == 1);
  CHECK(isas[0] == LaneIsa::Ifma);
  CHECK(mpb::batch::auto_lane_isas(LaneIsa::Avx2, true, 3, isas) == 1);
  CHECK(isas[0] == LaneIsa::Avx2);

  mpb::batch::Settings s{};
  s.threads = 1, s.backend = MPB_BACKEND_AUTO, s.ct = MPB_CT_ON;
  const LaneIsa both[2] = {LaneIsa::Avx512f, LaneIsa::Avx2};
  for (size_t limbs : {16, 32, 48, 64})
    for (int halves = 0; halves < 2; halves++)
      for (size_t cnt = 1; cnt <= 4; cnt++) {
        const size_t exps = cnt * (halves ? 2 : 1);
        if (exps > 4) continue;
        const double work = mpb::batch::work_powm(limbs, 64 * limbs);
        const auto ls = mpb::batch::best_lane_split(s, cnt, limbs, work, true, both, 2, halves != 0);
        INFO("limbs " << limbs << " items " << cnt << (halves ? " (RSA halves)" : ""));
        // one 4-lane run against the exponentiations one by one and against an 8-lane run (lane
        // costs in scalar exponentiations; without MULX/ADX the portable scalar path is slower)
        const double f = scalar_speed(limbs);
        const double run2 = 4.0 * mpb::batch::lane_cost(LaneIsa::Avx2, limbs, true) * f;
        const double run512 = 8.0 * mpb::batch::lane_cost(LaneIsa::Avx512f, limbs, true) * f;
        const double scalar = (double)exps;
        if (run2 < mpb::tuning::BATCH_IFMA_MARGIN * std::min(scalar, run512)) {
          CHECK(ls.split.use);
          CHECK(ls.isa == LaneIsa::Avx2);
          CHECK(ls.split.full * ls.split.size + ls.split.last == cnt);
        } else if (run2 > scalar && run512 > scalar) {
          CHECK(!ls.split.use);
        }
      }
  // the single-engine choice is unchanged: best_lane_split over one engine is ifma_split
  for (size_t cnt : {1, 3, 8, 19}) {
    const double work = mpb::batch::work_powm(16, 1024);
    const auto one = mpb::batch::best_lane_split(s, cnt, 16, work, true, both, 1);
    const auto sp = mpb::batch::ifma_split(s, cnt, 16, work, false, true, LaneIsa::Avx512f);
    CHECK((one.isa == LaneIsa::Avx512f && one.split.use == sp.use && one.split.full == sp.full &&
           one.split.last == sp.last && one.split.size == sp.size));
  }
}

TEST_CASE("AUTO on the IFMA engine's few-lane path: pairs of exponentiations against 8-lane runs and scalar items",
          "[batch][cost]") {
  // The choice itself, on any machine, one thread (every cost adds up): a group of j items costs
  // ceil(j * per / 2) pairs (cpu/batch/tuning.h BATCH_IFMA_PAIR_COST) while it has at most
  // simd::ifma_single_max_exps(limbs) exponentiations, else one 8-lane run per 8 lanes (the lane
  // costs); the rest of the items are scalar. AUTO takes lanes only when some split beats all
  // scalar by the margin, and then one within the margin of the cheapest.
  using mpb::batch::LaneIsa;
  mpb::batch::Settings s{};
  s.threads = 1, s.backend = MPB_BACKEND_AUTO;
  for (int ct = 0; ct < 2; ct++)
    for (size_t limbs : {16, 24, 32, 48, 64})
      for (int halves = 0; halves < 2; halves++)
        for (size_t cnt = 1; cnt <= 5; cnt++) {
          s.ct = ct ? MPB_CT_ON : MPB_CT_OFF;
          const size_t per = halves ? 2 : 1, few = mpb::simd::ifma_single_max_exps(limbs);
          REQUIRE(few >= 2);
          const double pair = mpb::tuning::batch_ifma_pair_cost(limbs, ct != 0) * scalar_speed(limbs);
          REQUIRE(pair > 0.0);
          const double lane = mpb::tuning::batch_ifma_lane_cost(limbs, ct != 0) * scalar_speed(limbs);
          auto costg = [&](size_t j) {  // a group of j items, in scalar items
            const size_t e = j * per;
            return e <= few ? (double)((e + 1) / 2) * pair / (double)per
                            : (double)((e + 7) / 8 * 8) * lane / (double)per;
          };
          // the model's shapes: groups of g items (8, and with halves 4: whole 8-lane runs), as
          // many as fit, the rest scalar or the first j of it in a last group
          double best = (double)cnt;
          for (size_t g : {size_t(8), size_t(8 / per)}) {
            const size_t full = cnt / g, rem = cnt % g;
            const double base = (double)full * costg(g);
            if (full) best = std::min(best, base + (double)rem);
            for (size_t j = 1; j <= rem; j++) best = std::min(best, base + costg(j) + (double)(rem - j));
          }
          const double work = mpb::batch::work_powm(limbs, 64 * limbs);
          const auto sp = mpb::batch::ifma_split(s, cnt, limbs, work, false, ct != 0, LaneIsa::Ifma, halves != 0);
          const size_t in_groups = sp.full * sp.size + sp.last;
          const double chosen = (double)sp.full * costg(sp.size) + (sp.last ? costg(sp.last) : 0.0) +
                                (double)(cnt - in_groups);
          INFO("limbs " << limbs << " items " << cnt << (halves ? " (RSA halves)" : "") << " ct " << ct
                        << " best " << best << " chosen " << chosen << " pair " << pair << " lane " << lane);
          if (best < mpb::tuning::BATCH_IFMA_MARGIN * (double)cnt - 1e-9) {
            REQUIRE(sp.use);
            CHECK(in_groups <= cnt);
            CHECK(chosen <= best / mpb::tuning::BATCH_IFMA_MARGIN + 1e-9);
          } else if (best > (double)cnt) {
            CHECK(!sp.use);
          }
        }
  // a lone RSA-2048/3072/4096 item or 2048-bit exponentiation goes to the lanes
  s.ct = MPB_CT_ON;
  for (size_t limbs : {16, 24, 32, 48, 64}) {
    const double work = mpb::batch::work_powm(limbs, 64 * limbs);
    CHECK(mpb::batch::ifma_split(s, 1, limbs, work, false, true, LaneIsa::Ifma, true).use);
  }
  CHECK(mpb::batch::ifma_split(s, 1, 32, mpb::batch::work_powm(32, 2048), false, true, LaneIsa::Ifma, false).use);
}

TEST_CASE("AUTO powm: every split between full groups, a partial group and scalar items", "[batch][powm][split]") {
  // The cost model picks these shapes by the machine's lane costs and threads
  // (cpu/batch/cost_model.h); here each one is fixed: groups of 8, 5 or 4 items, a last group
  // of 0..size-1 items, the other leftover items on the scalar kernels, after 1 or 2 full
  // groups; shared and per-item moduli, CT on and off.
  if (!mpb_backend_available(MPB_BACKEND_CPU_IFMA) && !mpb_backend_available(MPB_BACKEND_CPU_AVX512) &&
      !mpb_backend_available(MPB_BACKEND_CPU_AVX2))
    return;  // no lanes: AUTO never splits
  auto rng = mpbt::make_rng(109);
  for (long size : {8, 5, 4})
    for (long last = 0; last < size; last++) {
      SplitOverride fix(last, size);
      for (int ct : {MPB_CT_DEFAULT, MPB_CT_OFF}) {
        Ctx ctx(MPB_BACKEND_AUTO, 2);
        REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct) == MPB_OK);
        for (size_t cnt : {(size_t)(2 * size - 1), (size_t)(3 * size - 1)}) {
          check_powm(ctx.c, rng, 8, 3, cnt, true, false, -1);
          check_powm(ctx.c, rng, 5, 2, cnt, false, true, -1);
        }
      }
    }
}

TEST_CASE("AUTO and CPU (the best CPU path) powm: the IFMA / scalar split counts the threads; CPU_SCALAR stays scalar",
          "[batch][powm][ifma]") {
  if (!mpb_backend_available(MPB_BACKEND_CPU_IFMA)) return;
  // Two threads, 1024-bit exponentiations (enough work for both): 2..4 items take ceil(cnt / 2)
  // scalar rounds; they stay scalar when one group of 8 lanes on one thread costs more
  // (cpu/batch/tuning.h's lane cost at 16 limbs, measured per machine) and go to one partial
  // group when it clearly costs less (BATCH_IFMA_MARGIN); 8 and 16 items fill whole groups.
  const int backend = GENERATE(MPB_BACKEND_AUTO, MPB_BACKEND_CPU, MPB_BACKEND_CPU_SCALAR);
  const bool scalar = backend == MPB_BACKEND_CPU_SCALAR;
  Ctx ctx(backend, 2);
  auto rng = mpbt::make_rng(108);
  const size_t w = 16;
  for (size_t cnt : {2, 3, 4, 8, 16}) {
    Rows m(w), base(w * cnt), e(w * cnt), r(w * cnt);
    rand_odd_modulus(rng, m.data(), w);
    for (size_t i = 0; i < cnt; i++) rand_below(rng, &base[i * w], m.data(), w);
    for (auto &x : e) x = rng();
    mpb_call_info info;
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), w, cnt, m.data(), 1, w, cnt, &info) == MPB_OK);
    INFO("cnt=" << cnt << " " << info.reason);
    const double group = 8.0 * mpb::tuning::batch_ifma_lane_cost(w), rounds = (double)((cnt + 1) / 2);
    // (up to ifma_single_max_exps(w) exponentiations also run as pairs on the IFMA engine's
    // few-lane path, which AUTO may put beside scalar items on the other thread: that choice
    // is checked in "AUTO on the IFMA engine's few-lane path" below, here only the results)
    const bool few = cnt > 1 && cnt <= 4 && mpb::simd::ifma_single_max_exps(w) > 0;
    if (scalar) {
      CHECK(info.backend == MPB_BACKEND_CPU_SCALAR);
      CHECK(info.simd_items == 0);
    } else if (few) {
      CHECK((size_t)info.simd_items <= cnt);
    } else if (cnt <= 4 && group > rounds) {
      CHECK(info.backend == MPB_BACKEND_CPU_SCALAR);
      CHECK(info.simd_items == 0);
    } else if (cnt >= 8 || group < mpb::tuning::BATCH_IFMA_MARGIN * rounds) {
      CHECK(info.backend == MPB_BACKEND_CPU_IFMA);
      CHECK((size_t)info.simd_items == cnt);
    }
    Z zb, ze, zm, zr;
    row_to_mpz(zm, m.data(), w);
    for (size_t i = 0; i < cnt; i++) {
      row_to_mpz(zb, &base[i * w], w);
      row_to_mpz(ze, &e[i * w], w);
      mpz_powm(zr, zb, ze, zm);
      REQUIRE(mpbt::limbs_of(zr, w) == Rows(r.begin() + i * w, r.begin() + (i + 1) * w));
    }
  }
}
