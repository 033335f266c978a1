// mpb_batch_powm with even moduli (split m = 2^s * q on the CPU: the odd part through the
// odd-modulus engine for a shared modulus, per item otherwise; odd items of a mixed batch stay
// on Montgomery) against GMP item by item: shared and per-item moduli, hard moduli (2, 2^k,
// 2^k * odd, all ones but the low bit, top limbs zero), hard bases and exponents, constant
// time on and off, 1 and 2 threads, every backend setting, and the contract (m = 0 or 1,
// base >= m: MPB_EVAL naming the item, outputs untouched; forced CUDA at a width without a
// GPU kernel: MPB_EUNSUPPORTED). The GPU Barrett kernels: tests/cuda/on_host/test_on_host_barrett.cpp, tests/cuda/.
#include <catch2/catch.hpp>

#include <cstring>

#include <mpbatch/mpbatch.h>
#include "batch/tuning.h"

#include "support/batch_util.h"

using namespace bt;
using mpbt::Z;

namespace {


// An even modulus of w limbs of one of several hard kinds (always > 1).
void even_modulus(std::mt19937_64 &rng, uint64_t *m, size_t w, int kind) {
  std::fill(m, m + w, 0);
  switch (kind % 6) {
    case 0: m[0] = 2; break;                                           // 2
    case 1: m[(w * 64 - 1) / 64] = 1ull << ((w * 64 - 1) % 64); break; // 2^(64w-1)
    case 2: {                                                          // 2^k * small odd
      size_t k = rng() % (64 * w - 8);
      m[k / 64] = 0x35ull << (k % 64);
      if (k % 64 > 58 && k / 64 + 1 < w) m[k / 64 + 1] = 0x35ull >> (64 - k % 64);
      break;
    }
    case 3:                                                            // all ones but bit 0
      for (size_t i = 0; i < w; i++) m[i] = ~0ull;
      m[0] &= ~1ull;
      break;
    case 4: {                                                          // random, top limbs zero
      size_t used = 1 + rng() % w;
      auto v = mpbt::hard_limbs(rng, used);
      for (size_t i = 0; i < used; i++) m[i] = v[i];
      if (m[used - 1] == 0) m[used - 1] = rng() | 1;
      m[0] &= ~1ull;
      if (used == 1 && m[0] < 2) m[0] = 2;
      break;
    }
    default: {                                                         // random full width
      rand_odd_modulus(rng, m, w);
      m[0] ^= 1;
      if (w == 1 && m[0] < 2) m[0] = 2;
    }
  }
}

// hard bases below m: 0, 1, m-1, even, a power of two, random
void hard_base(std::mt19937_64 &rng, uint64_t *b, const uint64_t *m, size_t w, size_t i) {
  Z zm, zb;
  row_to_mpz(zm, m, w);
  const size_t mbits = mpz_sizeinbase(zm, 2);
  switch (i % 6) {
    case 0: mpz_set_ui(zb, 0); break;
    case 1: mpz_set_ui(zb, 1); break;
    case 2: mpz_sub_ui(zb, zm, 1); break;
    case 3: mpz_set_ui(zb, 0); mpz_setbit(zb, rng() % mbits); mpz_mod(zb, zb, zm); break;
    case 4: rand_below(rng, b, m, w); row_to_mpz(zb, b, w); mpz_clrbit(zb, 0); break;
    default: rand_below(rng, b, m, w); return;
  }
  mpz_to_row(b, zb, w);
}

// hard exponents: 0, 1, 2, all ones, long runs, random
void hard_exp(std::mt19937_64 &rng, uint64_t *e, size_t ew, size_t i) {
  std::fill(e, e + ew, 0);
  switch (i % 6) {
    case 0: break;
    case 1: e[0] = 1; break;
    case 2: e[0] = 2; break;
    case 3: std::fill(e, e + ew, ~0ull); break;
    case 4: { auto v = mpbt::hard_limbs(rng, ew, 2); std::copy(v.begin(), v.end(), e); break; }
    default: { auto v = mpbt::hard_limbs(rng, ew); std::copy(v.begin(), v.end(), e); }
  }
}

void check_rows(const Rows &r, const Rows &base, const Rows &e, size_t ew, size_t e_rows, const Rows &m,
                size_t m_rows, size_t w, size_t cnt) {
  Z zb, ze, zm, want;
  for (size_t i = 0; i < cnt; i++) {
    row_to_mpz(zb, &base[i * w], w);
    row_to_mpz(ze, &e[(e_rows == 1 ? 0 : i) * ew], ew);
    row_to_mpz(zm, &m[(m_rows == 1 ? 0 : i) * w], w);
    mpz_powm(want, zb, ze, zm);
    INFO("item " << i << " m " << mpbt::to_hex(zm.v) << " e " << mpbt::to_hex(ze.v));
    REQUIRE(mpbt::limbs_of(want, w) == Rows(r.begin() + i * w, r.begin() + (i + 1) * w));
  }
}

} // namespace

TEST_CASE("batch powm with even moduli matches GMP (shared, per item, mixed parity)", "[batch][powm][even]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(4242);
  for (size_t w : {1, 2, 3, 8, 16, 33})
    for (int ct : {0, 1})
      for (int threads : {1, 2}) {
        REQUIRE(mpb_ctx_set_threads(ctx.c, threads) == MPB_OK);
        REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
        const size_t cnt = w >= 16 ? 14 : 40, ew = w + (size_t)(rng() % 2);
        for (int kind = 0; kind < 6; kind++) {
          // shared even modulus, exponent per item
          Rows m(w), base(w * cnt), e(ew * cnt), r(w * cnt, CANARY);
          even_modulus(rng, m.data(), w, kind);
          for (size_t i = 0; i < cnt; i++) {
            hard_base(rng, &base[i * w], m.data(), w, i);
            hard_exp(rng, &e[i * ew], ew, i);
          }
          mpb_call_info info;
          INFO("w " << w << " ct " << ct << " threads " << threads << " kind " << kind);
          REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), ew, cnt, m.data(), 1, w, cnt, &info) ==
                  MPB_OK);
          // the odd part q of a shared modulus may run on the 8-lane kernels
          REQUIRE((info.backend == MPB_BACKEND_CPU_SCALAR || info.backend == MPB_BACKEND_CPU_IFMA ||
                   info.backend == MPB_BACKEND_CPU_AVX512 || info.backend == MPB_BACKEND_CPU_AVX2));
          REQUIRE(info.constant_time == ct);
          REQUIRE(std::strstr(info.reason, "even") != nullptr);
          check_rows(r, base, e, ew, cnt, m, 1, w, cnt);
          // aliasing: r == base
          Rows rb = base;
          REQUIRE(mpb_batch_powm(ctx.c, rb.data(), rb.data(), e.data(), ew, cnt, m.data(), 1, w, cnt, nullptr) ==
                  MPB_OK);
          REQUIRE(rb == r);
        }
        // per-item moduli, parity mixed (odd items on Montgomery), one shared exponent
        Rows m(w * cnt), base(w * cnt), e(ew), r(w * cnt, CANARY);
        for (size_t i = 0; i < cnt; i++) {
          if (i % 3 == 1) rand_odd_modulus(rng, &m[i * w], w);
          else even_modulus(rng, &m[i * w], w, (int)i);
          hard_base(rng, &base[i * w], &m[i * w], w, i);
        }
        hard_exp(rng, e.data(), ew, 5);  // random
        REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), ew, 1, m.data(), cnt, w, cnt, nullptr) ==
                MPB_OK);
        check_rows(r, base, e, ew, 1, m, cnt, w, cnt);
      }
}

TEST_CASE("batch powm with even moduli: every backend setting, and the contract", "[batch][powm][even]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(4343);
  const size_t w = 4, cnt = 24;
  Rows m(w * cnt), base(w * cnt), e(w * cnt), r(w * cnt, CANARY);
  for (size_t i = 0; i < cnt; i++) {
    even_modulus(rng, &m[i * w], w, (int)i);
    hard_base(rng, &base[i * w], &m[i * w], w, i);
    hard_exp(rng, &e[i * w], w, i);
  }
  // the Montgomery-only engines hand the batch to the scalar path
  for (int b : {MPB_BACKEND_CPU_SCALAR, MPB_BACKEND_CPU_IFMA, MPB_BACKEND_CPU_AVX512, MPB_BACKEND_CPU_AVX2, MPB_BACKEND_MULTIPARTITE}) {
    if (mpbt::emulated_rerun_skips(b)) continue;
    if (!mpb_backend_available(b)) continue;
    REQUIRE(mpb_ctx_set_backend(ctx.c, b) == MPB_OK);
    mpb_call_info info;
    std::fill(r.begin(), r.end(), CANARY);
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), w, cnt, m.data(), cnt, w, cnt, &info) == MPB_OK);
    INFO("backend " << b << " reason " << info.reason);
    REQUIRE(info.backend == MPB_BACKEND_CPU_SCALAR);
    check_rows(r, base, e, w, cnt, m, cnt, w, cnt);
  }
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_AUTO) == MPB_OK);
  // forced CUDA: 256-bit moduli have no GPU kernel (MPB_EUNSUPPORTED); the Barrett kernels'
  // sizes need a device (tests/cuda/); either way nothing is written
  if (mpb_ctx_set_backend(ctx.c, MPB_BACKEND_CUDA) == MPB_OK) {
    std::fill(r.begin(), r.end(), CANARY);
    mpb_call_info info;
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), w, cnt, m.data(), cnt, w, cnt, &info) ==
            MPB_EUNSUPPORTED);
    REQUIRE(std::all_of(r.begin(), r.end(), [](uint64_t x) { return x == CANARY; }));
    REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_AUTO) == MPB_OK);
  }
  // m = 1 at item 7, m = 0 at item 9, base >= m at item 4: MPB_EVAL naming the first, untouched
  std::fill(r.begin(), r.end(), CANARY);
  Rows bad = m;
  std::fill(&bad[7 * w], &bad[8 * w], 0);
  bad[7 * w] = 1;
  std::fill(&bad[9 * w], &bad[10 * w], 0);
  mpb_call_info info;
  REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), w, cnt, bad.data(), cnt, w, cnt, &info) == MPB_EVAL);
  REQUIRE(info.bad_index == 7);
  REQUIRE(info.bad_arg == MPB_ARG_M);
  Rows b2 = base;
  std::copy(&m[4 * w], &m[5 * w], &b2[4 * w]);
  REQUIRE(mpb_batch_powm(ctx.c, r.data(), b2.data(), e.data(), w, cnt, m.data(), cnt, w, cnt, &info) == MPB_EVAL);
  REQUIRE(info.bad_index == 4);
  REQUIRE(info.bad_arg == MPB_ARG_A);
  REQUIRE(std::all_of(r.begin(), r.end(), [](uint64_t x) { return x == CANARY; }));
}

namespace {

// m = 2^s * q in a w-limb row (q odd of qbits bits, 0: q = 1; kind 1: q = 2^qbits - 1,
// all-ones limbs). Returns false when it does not fit in w limbs.
bool split_modulus(std::mt19937_64 &rng, uint64_t *m, size_t w, size_t s, size_t qbits, int kind) {
  Z q, zm;
  if (qbits == 0) mpz_set_ui(q, 1);
  else if (kind == 1) {
    mpz_set_ui(q, 0);
    mpz_setbit(q, qbits);
    mpz_sub_ui(q, q, 1);
  } else {
    auto v = mpbt::hard_bits(rng, qbits);
    row_to_mpz(q, v.data(), v.size());
    mpz_setbit(q, 0);
  }
  mpz_mul_2exp(zm, q, s);
  if (mpz_sizeinbase(zm, 2) > 64 * w) return false;
  mpz_to_row(m, zm, w);
  return true;
}

// (s, bits of q): 2, 4, 2^k around limb boundaries; s = 1 with q of 1 and many limbs; s around
// 64 with one-limb q; huge s with a tiny q; q of many limbs
const std::pair<size_t, size_t> kSplitMods[] = {
    {1, 0},     {2, 0},    {63, 0},   {64, 0},   {65, 0},   {127, 0},  {128, 0}, {129, 0},  {1023, 0},
    {1024, 0},  {2048, 0}, {1, 2},    {1, 64},   {1, 1023}, {1, 2047}, {2, 3},   {63, 64},  {64, 64},
    {65, 64},   {64, 128}, {5, 64},   {2000, 3}, {1500, 60}, {3, 1000}, {129, 700}, {200, 200}};

} // namespace

TEST_CASE("batch powm, shared even modulus 2^s * q: hard moduli, ct on/off, 1-3 threads, aliasing",
          "[batch][powm][even][split]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(4444);
  for (auto [s, qbits] : kSplitMods)
    for (int kind = 0; kind < 2; kind++) {
      if (kind == 1 && qbits == 0) continue;
      const size_t need = (s + std::max<size_t>(qbits, 1) + 63) / 64;
      const size_t w = need + rng() % 2;  // sometimes a zero top limb
      Rows m(w);
      REQUIRE(split_modulus(rng, m.data(), w, s, qbits, kind));
      const size_t cnt = 19, ew = 1 + rng() % (w + 1);
      Rows base(w * cnt), e(ew * cnt);
      for (size_t i = 0; i < cnt; i++) {
        hard_base(rng, &base[i * w], m.data(), w, i);
        hard_exp(rng, &e[i * ew], ew, i + i / 6);
      }
      for (int ct : {0, 1})
        for (int threads : {1, 2, 3}) {
          REQUIRE(mpb_ctx_set_threads(ctx.c, threads) == MPB_OK);
          REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
          INFO("s " << s << " qbits " << qbits << " kind " << kind << " w " << w << " ew " << ew << " ct " << ct
                    << " threads " << threads);
          Rows r(w * cnt, CANARY);
          mpb_call_info info;
          REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), ew, cnt, m.data(), 1, w, cnt, &info) ==
                  MPB_OK);
          INFO("reason " << info.reason);
          REQUIRE(std::strstr(info.reason, "even") != nullptr);
          REQUIRE(info.constant_time == ct);
          if (qbits == 0) REQUIRE(info.backend == MPB_BACKEND_CPU_SCALAR);
          check_rows(r, base, e, ew, cnt, m, 1, w, cnt);
          Rows rb = base;  // r == base
          REQUIRE(mpb_batch_powm(ctx.c, rb.data(), rb.data(), e.data(), ew, cnt, m.data(), 1, w, cnt, nullptr) ==
                  MPB_OK);
          REQUIRE(rb == r);
          if (threads == 2) {  // one exponent for every item
            Rows r1(w * cnt, CANARY);
            REQUIRE(mpb_batch_powm(ctx.c, r1.data(), base.data(), &e[3 * ew], ew, 1, m.data(), 1, w, cnt,
                                   nullptr) == MPB_OK);
            Rows e1(e.begin() + 3 * ew, e.begin() + 4 * ew);
            check_rows(r1, base, e1, ew, 1, m, 1, w, cnt);
          }
        }
    }
}

TEST_CASE("batch powm, shared even modulus: forced backends run the odd part there", "[batch][powm][even][split]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(4545);
  const size_t w = 6, cnt = 13, ew = 6;
  for (auto [s, qbits] : {std::pair<size_t, size_t>{1, 300}, {70, 200}, {64, 64}, {300, 0}, {5, 3}})
    for (int b : {MPB_BACKEND_CPU_SCALAR, MPB_BACKEND_CPU_IFMA, MPB_BACKEND_CPU_AVX512, MPB_BACKEND_CPU_AVX2, MPB_BACKEND_MULTIPARTITE})
      for (int ct : {0, 1}) {
        if (!mpb_backend_available(b)) continue;
        if (mpbt::emulated_rerun_skips(b)) continue;
        REQUIRE(mpb_ctx_set_backend(ctx.c, b) == MPB_OK);
        REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
        Rows m(w), base(w * cnt), e(ew * cnt), r(w * cnt, CANARY);
        REQUIRE(split_modulus(rng, m.data(), w, s, qbits, 0));
        for (size_t i = 0; i < cnt; i++) {
          hard_base(rng, &base[i * w], m.data(), w, i);
          hard_exp(rng, &e[i * ew], ew, i);
        }
        mpb_call_info info;
        REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), ew, cnt, m.data(), 1, w, cnt, &info) == MPB_OK);
        INFO("backend " << b << " s " << s << " qbits " << qbits << " reason " << info.reason);
        check_rows(r, base, e, ew, cnt, m, 1, w, cnt);
        // multipartite is variable time: a constant-time call runs the odd part on the CPU
        REQUIRE(info.backend == (qbits == 0 || (ct && b == MPB_BACKEND_MULTIPARTITE) ? MPB_BACKEND_CPU_SCALAR : b));
        REQUIRE(info.constant_time == ct);
      }
}

TEST_CASE("batch powm, shared even modulus with AUTO: every split of the odd part's groups", "[batch][powm][even][split]") {
  // The odd part's tasks carry the 2^s part and the CRT around them (pre/post over each task's
  // items): groups of 8, 5 or 2 items, a last group of 0..size-1, the rest scalar (the split
  // fixed by cpu/batch/cost_model.h's test hook; the cost model would pick one by the machine).
  Ctx ctx(MPB_BACKEND_AUTO, 2);
  auto rng = mpbt::make_rng(4646);
  const size_t w = 6, ew = 3;
  Rows m(w);
  REQUIRE(split_modulus(rng, m.data(), w, 70, 200, 0));
  for (long size : {8, 5, 2})
    for (long last = 0; last < size; last++) {
      SplitOverride fix(last, size);
      const size_t cnt = (size_t)(2 * size - 1);
      Rows base(w * cnt), e(ew * cnt), r(w * cnt, CANARY);
      for (size_t i = 0; i < cnt; i++) {
        hard_base(rng, &base[i * w], m.data(), w, i);
        hard_exp(rng, &e[i * ew], ew, i);
      }
      for (int ct : {0, 1}) {
        REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
        mpb_call_info info;
        REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), ew, cnt, m.data(), 1, w, cnt, &info) == MPB_OK);
        INFO("size " << size << " last " << last << " ct " << ct << " reason " << info.reason);
        check_rows(r, base, e, ew, cnt, m, 1, w, cnt);
      }
    }
}

TEST_CASE("batch powm, even and odd moduli per item: hard moduli, ct on/off, threads", "[batch][powm][even][split]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(4646);
  for (size_t w : {1, 2, 3, 17, 33})
    for (int ct : {0, 1})
      for (int threads : {1, 2}) {
        REQUIRE(mpb_ctx_set_threads(ctx.c, threads) == MPB_OK);
        REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
        const size_t cnt = w > 16 ? 12 : 40, ew = w;
        Rows m(w * cnt), base(w * cnt), e(ew * cnt), r(w * cnt, CANARY);
        size_t j = 0;
        for (size_t i = 0; i < cnt; i++) {
          uint64_t *mi = &m[i * w];
          if (i % 4 == 3) {
            rand_odd_modulus(rng, mi, w);
          } else {  // the next hard (s, q) that fits in w limbs
            bool ok = false;
            for (size_t tries = 0; tries < 64 && !ok; tries++, j++) {
              auto [s, qbits] = kSplitMods[j % (sizeof kSplitMods / sizeof kSplitMods[0])];
              ok = split_modulus(rng, mi, w, s, qbits, (int)(j / 7) % 2);
            }
            REQUIRE(ok);
          }
          hard_base(rng, &base[i * w], mi, w, i);
          hard_exp(rng, &e[i * ew], ew, i + i / 6);
        }
        INFO("w " << w << " ct " << ct << " threads " << threads);
        mpb_call_info info;
        REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), ew, cnt, m.data(), cnt, w, cnt, &info) ==
                MPB_OK);
        INFO("reason " << info.reason);
        REQUIRE(info.backend == MPB_BACKEND_CPU_SCALAR);
        REQUIRE(std::strstr(info.reason, "split") != nullptr);
        check_rows(r, base, e, ew, cnt, m, cnt, w, cnt);
        Rows rb = base;
        REQUIRE(mpb_batch_powm(ctx.c, rb.data(), rb.data(), e.data(), ew, cnt, m.data(), cnt, w, cnt, nullptr) ==
                MPB_OK);
        REQUIRE(rb == r);
      }
}

TEST_CASE("batch powm, shared even modulus: more items than one chunk (tuning::BATCH_EVEN_SPLIT_CHUNK)",
          "[batch][powm][even][split]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(4747);
  const size_t cnt = (size_t)mpb::tuning::BATCH_EVEN_SPLIT_CHUNK + 13;
  for (size_t w : {1, 2})
    for (int ct : {0, 1}) {
      REQUIRE(mpb_ctx_set_threads(ctx.c, 2) == MPB_OK);
      REQUIRE(mpb_ctx_set_constant_time(ctx.c, ct ? MPB_CT_ON : MPB_CT_OFF) == MPB_OK);
      Rows m(w), base(w * cnt), e(w * cnt), r(w * cnt, CANARY);
      REQUIRE(split_modulus(rng, m.data(), w, w == 1 ? 7 : 65, w == 1 ? 50 : 60, 0));
      for (size_t i = 0; i < cnt; i++) {
        hard_base(rng, &base[i * w], m.data(), w, i);
        hard_exp(rng, &e[i * w], w, i + i / 6);
      }
      INFO("w " << w << " ct " << ct);
      REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), w, cnt, m.data(), 1, w, cnt, nullptr) == MPB_OK);
      check_rows(r, base, e, w, cnt, m, 1, w, cnt);
      Rows rb = base;
      REQUIRE(mpb_batch_powm(ctx.c, rb.data(), rb.data(), e.data(), w, cnt, m.data(), 1, w, cnt, nullptr) == MPB_OK);
      REQUIRE(rb == r);
    }
}
