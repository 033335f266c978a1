// The bad-input contract of the batch API: every error code with the first bad index and the
// bad argument, and NO output written (outputs pre-filled with a canary); the call-info report;
// context settings; one context used from 4 std::threads at once.
#include <catch2/catch.hpp>

#include <thread>

#include <mpbatch/bindings.h>
#include <mpbatch/mpbatch.h>

#include "support/batch_util.h"

using namespace bt;
using mpbt::Z;

namespace {
bool untouched(const Rows &r) {
  for (auto x : r)
    if (x != CANARY) return false;
  return true;
}
} // namespace

TEST_CASE("context settings and call info", "[batch][contract]") {
  Ctx ctx;
  REQUIRE(mpb_ctx_get_threads(ctx.c) >= 1);
  REQUIRE(mpb_ctx_set_threads(ctx.c, 1) == MPB_OK);
  REQUIRE(mpb_ctx_get_threads(ctx.c) == 1);
  REQUIRE(mpb_ctx_set_threads(ctx.c, 0) == MPB_OK);
  REQUIRE(mpb_ctx_set_backend(ctx.c, 99) == MPB_EVAL);
  REQUIRE(mpb_ctx_set_constant_time(ctx.c, 5) == MPB_EVAL);
  REQUIRE(mpb_ctx_set_mulmod_algo(ctx.c, 42, 0) == MPB_EVAL);
  REQUIRE(mpb_ctx_set_threads(nullptr, 1) == MPB_ENULL);
  REQUIRE(mpb_ctx_create(nullptr) == MPB_ENULL);
  REQUIRE(std::string(mpb_backend_name(MPB_BACKEND_CPU)) == "cpu");
  REQUIRE(std::string(mpb_backend_name(MPB_BACKEND_CPU_SCALAR)) == "cpu-scalar");
  REQUIRE(std::string(mpb_backend_name(MPB_BACKEND_CPU_AVX512)) == "cpu-avx512");
  REQUIRE(std::string(mpb_backend_name(MPB_BACKEND_CPU_AVX2)) == "cpu-avx2");
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_CPU_AVX512) == MPB_OK);
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_CPU_AVX2) == MPB_OK);  // the last backend
  REQUIRE(mpb_ctx_set_backend(ctx.c, 8) == MPB_EVAL);
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_AUTO) == MPB_OK);
  REQUIRE(mpb_backend_available(MPB_BACKEND_CPU) == 1);
  REQUIRE(mpb_backend_available(MPB_BACKEND_CPU_SCALAR) == 1);
  // the RSA batch from which the context would use the GPU (0: never)
  {
    REQUIRE(mpb_rsa_gpu_min_batch(nullptr, 32) == 0);
    const bool gpu = mpb_backend_available(MPB_BACKEND_CUDA) == 1;
    REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_AUTO) == MPB_OK);
    if (!gpu) REQUIRE(mpb_rsa_gpu_min_batch(ctx.c, 32) == 0);
    REQUIRE(mpb_rsa_gpu_min_batch(ctx.c, 0) == 0);
    REQUIRE(mpb_rsa_gpu_min_batch(ctx.c, 33) == 0);  // odd width: no half width
    for (int b : {MPB_BACKEND_CPU, MPB_BACKEND_CPU_SCALAR, MPB_BACKEND_CPU_IFMA, MPB_BACKEND_MULTIPARTITE}) {
      REQUIRE(mpb_ctx_set_backend(ctx.c, b) == MPB_OK);
      REQUIRE(mpb_rsa_gpu_min_batch(ctx.c, 32) == 0);
    }
    REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_CUDA) == MPB_OK);
    REQUIRE(mpb_rsa_gpu_min_batch(ctx.c, 32) == (gpu ? 1u : 0u));
    if (gpu) {  // AUTO: a crossover, lower with fewer CPU threads (or never: 0)
      REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_AUTO) == MPB_OK);
      REQUIRE(mpb_ctx_set_threads(ctx.c, 1) == MPB_OK);
      const size_t one = mpb_rsa_gpu_min_batch(ctx.c, 32);
      REQUIRE(mpb_ctx_set_threads(ctx.c, 16) == MPB_OK);
      const size_t sixteen = mpb_rsa_gpu_min_batch(ctx.c, 32);
      CHECK(one >= 1);
      CHECK((sixteen == 0 || sixteen >= one));
      REQUIRE(mpb_ctx_set_threads(ctx.c, 0) == MPB_OK);
    }
    REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_AUTO) == MPB_OK);
  }
  // GPU device selection
  {
    int devs[3] = {0, 2, 1}, got[4] = {-1, -1, -1, -1};
    REQUIRE(mpb_ctx_get_devices(ctx.c, nullptr, 0) == 0);  // default: every device
    REQUIRE(mpb_ctx_set_devices(ctx.c, devs, 3) == MPB_OK);
    REQUIRE(mpb_ctx_get_devices(ctx.c, got, 4) == 3);
    REQUIRE((got[0] == 0 && got[1] == 2 && got[2] == 1 && got[3] == -1));
    REQUIRE(mpb_ctx_set_devices(ctx.c, devs, MPB_MAX_DEVICES + 1) == MPB_ERANGE);
    REQUIRE(mpb_ctx_set_devices(ctx.c, devs, -1) == MPB_ERANGE);
    REQUIRE(mpb_ctx_set_devices(ctx.c, nullptr, 2) == MPB_ENULL);
    int bad[2] = {0, -3};
    REQUIRE(mpb_ctx_set_devices(ctx.c, bad, 2) == MPB_EVAL);
    REQUIRE(mpb_ctx_get_devices(ctx.c, got, 4) == 3);  // unchanged by the failed calls
    REQUIRE(mpb_ctx_set_devices(nullptr, devs, 1) == MPB_ENULL);
    REQUIRE(mpb_ctx_set_devices(ctx.c, nullptr, 0) == MPB_OK);
    REQUIRE(mpb_ctx_get_devices(ctx.c, got, 4) == 0);
  }
  // binding helper: argument checks (its packing is tested from Python, test_batch.py)
  {
    uint64_t row[2];
    uintptr_t obj = 0;
    REQUIRE(mpb_pack_cpython_ints(row, 0, &obj, 1, 0, nullptr) == MPB_ERANGE);
    REQUIRE(mpb_pack_cpython_ints(row, 2, &obj, 1, 2, nullptr) == MPB_EVAL);
    REQUIRE(mpb_pack_cpython_ints(nullptr, 2, &obj, 1, 0, nullptr) == MPB_ENULL);
    REQUIRE(mpb_pack_cpython_ints(row, 2, &obj, 1, 0, nullptr) == MPB_ENULL);  // NULL object
    REQUIRE(mpb_pack_cpython_ints(row, 2, nullptr, 0, 0, nullptr) == MPB_OK);
    int dummy = 0;
    REQUIRE(mpb_unpack_cpython_ints(&dummy, row, 0, 1, &dummy, &dummy, &dummy, nullptr) == MPB_ERANGE);
    REQUIRE(mpb_unpack_cpython_ints(nullptr, row, 2, 1, &dummy, &dummy, &dummy, nullptr) == MPB_ENULL);
    REQUIRE(mpb_unpack_cpython_ints(&dummy, row, 2, 1, nullptr, &dummy, &dummy, nullptr) == MPB_ENULL);
    REQUIRE(mpb_unpack_cpython_ints(&dummy, row, 2, 0, nullptr, nullptr, nullptr, nullptr) == MPB_OK);
  }
  const int gpu = mpb_backend_available(MPB_BACKEND_CUDA);
  REQUIRE((gpu == 0 || gpu == 1));
  mpb_ctx_destroy(nullptr);
  // CUDA forced on a size without a GPU kernel (64-bit products): EUNSUPPORTED, nothing written
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_CUDA) == MPB_OK);
  Rows a{1}, b{2}, r(2, CANARY);
  mpb_call_info info;
  REQUIRE(mpb_batch_mul(ctx.c, r.data(), a.data(), b.data(), 1, 1, &info) == MPB_EUNSUPPORTED);
  REQUIRE(info.status == MPB_EUNSUPPORTED);
  REQUIRE(untouched(r));
  // CUDA forced on a size with a kernel (512-bit powm) but no usable GPU: EDEVICE (or
  // EUNSUPPORTED in a build without CUDA), nothing written
  if (!gpu) {
    Rows base(8, 0), e(8, 0), m(8, 0), pr(8, CANARY);
    base[0] = 3, e[0] = 5, m[0] = 1000003, m[7] = 1;
    int st = mpb_batch_powm(ctx.c, pr.data(), base.data(), e.data(), 8, 1, m.data(), 1, 8, 1, &info);
    REQUIRE((st == MPB_EDEVICE || st == MPB_EUNSUPPORTED));
    REQUIRE(info.status == st);
    REQUIRE(std::string(info.reason).size() > 0);
    REQUIRE(untouched(pr));
  }
  REQUIRE(mpb_ctx_set_backend(ctx.c, MPB_BACKEND_AUTO) == MPB_OK);
  REQUIRE(mpb_batch_mul(ctx.c, r.data(), a.data(), b.data(), 1, 1, &info) == MPB_OK);
  REQUIRE(info.status == MPB_OK);
  REQUIRE(info.bad_index == -1);
  REQUIRE(info.backend == MPB_BACKEND_CPU_SCALAR);
  REQUIRE(info.threads == 1);  // tiny batch: no parallel region
  REQUIRE(std::string(info.reason).size() > 0);
  REQUIRE(r[0] == 2);
}

TEST_CASE("bad input: error code, first bad index, outputs untouched", "[batch][contract]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(401);
  const size_t w = 4, cnt = 10;
  Rows m(w), base(w * cnt), e(w), r(w * cnt, CANARY), mrows(w * cnt);
  rand_odd_modulus(rng, m.data(), w);
  for (size_t i = 0; i < cnt; i++) rand_below(rng, &base[i * w], m.data(), w), std::copy(m.begin(), m.end(), &mrows[i * w]);
  for (auto &x : e) x = rng();
  mpb_call_info info;
  auto powm = [&](const uint64_t *bb, const uint64_t *mm, size_t mr, size_t width, size_t count) {
    return mpb_batch_powm(ctx.c, r.data(), bb, e.data(), w, 1, mm, mr, width, count, &info);
  };
  // NULLs
  REQUIRE(mpb_batch_powm(nullptr, r.data(), base.data(), e.data(), w, 1, m.data(), 1, w, cnt, &info) == MPB_ENULL);
  REQUIRE(info.bad_arg == MPB_ARG_CTX);
  REQUIRE(powm(nullptr, m.data(), 1, w, cnt) == MPB_ENULL);
  REQUIRE(info.bad_arg == MPB_ARG_A);
  REQUIRE(powm(base.data(), nullptr, 1, w, cnt) == MPB_ENULL);
  REQUIRE(info.bad_arg == MPB_ARG_M);
  // shapes / ranges
  REQUIRE(powm(base.data(), m.data(), 1, 0, cnt) == MPB_ERANGE);
  REQUIRE(info.bad_arg == MPB_ARG_WIDTH);
  REQUIRE(powm(base.data(), m.data(), 1, MPB_BATCH_MAX_WIDTH + 1, cnt) == MPB_ERANGE);
  REQUIRE(powm(base.data(), m.data(), 3, w, cnt) == MPB_ESHAPE);
  REQUIRE(info.bad_arg == MPB_ARG_M);
  // base >= modulus at item 6
  Rows bad = base;
  std::copy(m.begin(), m.end(), &bad[6 * w]);
  REQUIRE(powm(bad.data(), m.data(), 1, w, cnt) == MPB_EVAL);
  REQUIRE(info.bad_index == 6);
  REQUIRE(info.bad_arg == MPB_ARG_A);
  // modulus 1 at item 3 of a per-item modulus batch, zero modulus at item 5 (even moduli
  // are valid: 2^s * odd split)
  Rows mb = mrows;
  Rows m3(&mb[3 * w], &mb[4 * w]);
  std::fill(&mb[3 * w], &mb[4 * w], 0);
  mb[3 * w] = 1;
  for (size_t j = 0; j < w; j++) mb[5 * w + j] = 0;
  REQUIRE(powm(base.data(), mb.data(), cnt, w, cnt) == MPB_EVAL);
  REQUIRE(info.bad_index == 3);
  REQUIRE(info.bad_arg == MPB_ARG_M);
  std::copy(m3.begin(), m3.end(), &mb[3 * w]);
  REQUIRE(powm(base.data(), mb.data(), cnt, w, cnt) == MPB_EVAL);
  REQUIRE(info.bad_index == 5);
  REQUIRE(untouched(r));
  // modmul: b >= m at item 9, zero modulus
  Rows b2 = base;
  std::copy(m.begin(), m.end(), &b2[9 * w]);
  REQUIRE(mpb_batch_modmul(ctx.c, r.data(), base.data(), b2.data(), m.data(), 1, w, cnt, &info) == MPB_EVAL);
  REQUIRE(info.bad_index == 9);
  REQUIRE(info.bad_arg == MPB_ARG_B);
  Rows z(w, 0);
  REQUIRE(mpb_batch_modmul(ctx.c, r.data(), base.data(), base.data(), z.data(), 1, w, cnt, &info) == MPB_EVAL);
  REQUIRE(info.bad_arg == MPB_ARG_M);
  REQUIRE(untouched(r));
  // add: NULL b
  REQUIRE(mpb_batch_add(ctx.c, r.data(), nullptr, base.data(), nullptr, w, cnt, &info) == MPB_ENULL);
  REQUIRE(info.bad_arg == MPB_ARG_B);
  REQUIRE(untouched(r));
  // count 0 with NULL pointers is fine
  REQUIRE(mpb_batch_powm(ctx.c, nullptr, nullptr, nullptr, 1, 1, nullptr, 1, 1, 0, &info) == MPB_OK);

  // DH: peer out of [2, p-2], generator >= p, modulus <= 3
  Rows p(w), x(cnt), peers(w * cnt);
  rand_odd_modulus(rng, p.data(), w);
  for (auto &v : x) v = rng();
  for (size_t i = 0; i < cnt; i++) rand_below(rng, &peers[i * w], p.data(), w), peers[i * w] |= 2;
  peers[4 * w] = 1;
  for (size_t j = 1; j < w; j++) peers[4 * w + j] = 0;
  REQUIRE(mpb_batch_dh_shared(ctx.c, r.data(), peers.data(), x.data(), 1, p.data(), w, cnt, &info) == MPB_EVAL);
  REQUIRE(info.bad_index == 4);
  mpz_t zp;
  mpz_init(zp);
  mpbt::to_mpz(zp, p.data(), w);
  mpz_sub_ui(zp, zp, 1);
  auto pm1 = mpbt::limbs_of(zp, w);
  mpz_clear(zp);
  std::copy(pm1.begin(), pm1.end(), &peers[4 * w]);  // p-1 is also rejected
  REQUIRE(mpb_batch_dh_shared(ctx.c, r.data(), peers.data(), x.data(), 1, p.data(), w, cnt, &info) == MPB_EVAL);
  REQUIRE(info.bad_index == 4);
  Rows small{3};
  REQUIRE(mpb_batch_dh_keygen(ctx.c, r.data(), 2, x.data(), 1, small.data(), 1, cnt, &info) == MPB_EVAL);
  REQUIRE(mpb_batch_dh_keygen(ctx.c, r.data(), 1, x.data(), 1, p.data(), w, cnt, &info) == MPB_EVAL);
  REQUIRE(untouched(r));
  // the _bits calls: x_bits in [1, 64 * x_width], every x < 2^x_bits (the first one over named)
  for (size_t i = 0; i < cnt; i++) rand_below(rng, &peers[i * w], p.data(), w), peers[i * w] |= 2;
  Rows x2(2 * cnt, 0);
  for (size_t i = 0; i < cnt; i++) x2[2 * i] = rng() >> 1;  // 63 bits
  REQUIRE(mpb_batch_dh_shared_bits(ctx.c, r.data(), peers.data(), x2.data(), 2, 0, p.data(), w, cnt, &info) ==
          MPB_ERANGE);
  REQUIRE(info.bad_arg == MPB_ARG_E);
  REQUIRE(mpb_batch_dh_keygen_bits(ctx.c, r.data(), 2, x2.data(), 2, 129, p.data(), w, cnt, &info) == MPB_ERANGE);
  REQUIRE(untouched(r));
  x2[2 * 3] |= 1ull << 63;  // item 3: 64 bits
  x2[2 * 5 + 1] = 1;        // item 5: 65 bits
  REQUIRE(mpb_batch_dh_keygen_bits(ctx.c, r.data(), 2, x2.data(), 2, 63, p.data(), w, cnt, &info) == MPB_EVAL);
  REQUIRE((info.bad_index == 3 && info.bad_arg == MPB_ARG_E));
  REQUIRE(mpb_batch_dh_shared_bits(ctx.c, r.data(), peers.data(), x2.data(), 2, 64, p.data(), w, cnt, &info) ==
          MPB_EVAL);
  REQUIRE(info.bad_index == 5);
  REQUIRE(untouched(r));
  REQUIRE(mpb_batch_dh_shared_bits(ctx.c, r.data(), peers.data(), x2.data(), 2, 65, p.data(), w, cnt, &info) ==
          MPB_OK);
  REQUIRE(mpb_batch_dh_keygen_bits(ctx.c, r.data(), 2, x2.data(), 2, 128, p.data(), w, cnt, &info) == MPB_OK);
}

TEST_CASE("bad shapes: exponent width, count * width overflow, the conversions' widths",
          "[batch][contract]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(402);
  const size_t w = 4, cnt = 3;
  Rows m(w), base(w * cnt), e(MPB_BATCH_MAX_WIDTH + 1), r(w * cnt, CANARY);
  rand_odd_modulus(rng, m.data(), w);
  for (size_t i = 0; i < cnt; i++) rand_below(rng, &base[i * w], m.data(), w);
  for (auto &x : e) x = rng();
  mpb_call_info info;
  // the exponent's width: 1..MPB_BATCH_MAX_WIDTH limbs
  for (size_t ew : {(size_t)0, (size_t)MPB_BATCH_MAX_WIDTH + 1}) {
    INFO("exponent width " << ew);
    REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), ew, 1, m.data(), 1, w, cnt, &info) == MPB_ERANGE);
    REQUIRE(info.status == MPB_ERANGE);
    REQUIRE(info.bad_arg == MPB_ARG_WIDTH);
    REQUIRE(std::string(info.reason).find("exponent width") != std::string::npos);
  }
  REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), MPB_BATCH_MAX_WIDTH, 1, m.data(), 1, w, cnt,
                         &info) == MPB_OK);  // the largest exponent width is fine
  r.assign(w * cnt, CANARY);
  // a count whose rows would not fit in the address space: refused before any pointer is read
  const size_t huge = SIZE_MAX / 8 / w + 1;
  REQUIRE(mpb_batch_mul(ctx.c, r.data(), base.data(), base.data(), w, huge, &info) == MPB_ERANGE);
  REQUIRE(info.bad_arg == MPB_ARG_COUNT);
  REQUIRE(mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), 1, 1, m.data(), 1, w, huge, &info) == MPB_ERANGE);
  REQUIRE(info.bad_arg == MPB_ARG_COUNT);
  REQUIRE(untouched(r));
  // the conversions' width: 1..MPB_BATCH_MAX_WIDTH (their counts: test_batch_ops [pack][bad])
  std::vector<uint8_t> bytes(64, 0xab);
  const void *items[1] = {nullptr};
  for (size_t bw : {(size_t)0, (size_t)MPB_BATCH_MAX_WIDTH + 1}) {
    INFO("width " << bw);
    REQUIRE(mpb_pack_be(r.data(), bw, bytes.data(), 8, 1, &info) == MPB_ERANGE);
    REQUIRE(info.bad_arg == MPB_ARG_WIDTH);
    REQUIRE(mpb_unpack_be(bytes.data(), 8, base.data(), bw, 1, &info) == MPB_ERANGE);
    REQUIRE(mpb_pack_mp(r.data(), bw, items, 1, &info) == MPB_ERANGE);
    REQUIRE(mpb_unpack_mp(const_cast<void *const *>(items), base.data(), bw, 1, &info) == MPB_ERANGE);
  }
  REQUIRE(untouched(r));
  REQUIRE(std::string(bytes.begin(), bytes.end()) == std::string(64, (char)0xab));
  // an error code's text, also for codes that do not exist
  REQUIRE(std::string(mpb_strerror(MPB_ERANGE)).size() > 0);
  REQUIRE(std::string(mpb_strerror(12345)) == "unknown error code");
}

TEST_CASE("RSA-CRT bad keys: each check with its key index, outputs untouched", "[batch][contract][rsa]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(402);
  const size_t w = 4, hw = 2, cnt = 6;
  // six keys of 128-bit primes
  Rows n, p, q, dp, dq, qi, c(w * cnt);
  gmp_randstate_t st;
  gmp_randinit_default(st);
  gmp_randseed_ui(st, 402);
  std::vector<std::array<Z, 2>> nd(cnt);
  for (size_t i = 0; i < cnt; i++) {
    Z zp, zq, zn, zd, t1, t2, phi, e, zdp, zdq, zqi;
    mpz_set_ui(e, 65537);
    do {
      mpz_urandomb(zp, st, 128);
      mpz_setbit(zp, 127);
      mpz_nextprime(zp, zp);
      mpz_urandomb(zq, st, 128);
      mpz_setbit(zq, 127);
      mpz_nextprime(zq, zq);
      mpz_sub_ui(t1, zp, 1);
      mpz_sub_ui(t2, zq, 1);
      mpz_lcm(phi, t1, t2);
    } while (mpz_cmp(zp, zq) == 0 || !mpz_invert(zd, e, phi));
    mpz_mul(zn, zp, zq);
    mpz_mod(zdp, zd, t1);
    mpz_mod(zdq, zd, t2);
    mpz_invert(zqi, zq, zp);
    auto app = [](Rows &r, const mpz_t z, size_t ww) {
      auto v = mpbt::limbs_of(z, ww);
      r.insert(r.end(), v.begin(), v.end());
    };
    app(n, zn, w), app(p, zp, hw), app(q, zq, hw), app(dp, zdp, hw), app(dq, zdq, hw), app(qi, zqi, hw);
    rand_below(rng, &c[i * w], &n[i * w], w);
  }
  gmp_randclear(st);
  Rows out(w * cnt, CANARY);
  mpb_call_info info;
  auto call = [&](Rows &nn, Rows &pp, Rows &qq, Rows &dpp, Rows &dqq, Rows &qii, Rows &cc) {
    return mpb_batch_rsa_crt(ctx.c, out.data(), cc.data(), nn.data(), pp.data(), qq.data(), dpp.data(),
                             dqq.data(), qii.data(), w, hw, cnt, cnt, &info);
  };
  REQUIRE(call(n, p, q, dp, dq, qi, c) == MPB_OK);
  REQUIRE(info.backend != MPB_BACKEND_AUTO);
  out.assign(w * cnt, CANARY);
  struct Case {
    int which;
    size_t idx;
    int arg;
  };
  for (Case cs : {Case{0, 2, MPB_ARG_M}, Case{1, 3, MPB_ARG_P}, Case{2, 1, MPB_ARG_Q}, Case{3, 4, MPB_ARG_DP},
                  Case{4, 5, MPB_ARG_DQ}, Case{5, 0, MPB_ARG_QINV}, Case{6, 3, MPB_ARG_A}, Case{7, 2, MPB_ARG_QINV}}) {
    Rows n2 = n, p2 = p, q2 = q, dp2 = dp, dq2 = dq, qi2 = qi, c2 = c;
    size_t i = cs.idx;
    switch (cs.which) {
      case 0: n2[i * w] ^= 2; break;                                  // n != p*q
      case 1: p2[i * hw] &= ~1ull; break;                             // even p
      case 2: q2[i * hw] = 0, q2[i * hw + 1] = 0; break;              // q = 0
      case 3: std::copy(&p[i * hw], &p[i * hw] + hw, &dp2[i * hw]); break;  // dp = p
      case 4: std::copy(&q[i * hw], &q[i * hw] + hw, &dq2[i * hw]); break;  // dq = q
      case 5: std::copy(&p[i * hw], &p[i * hw] + hw, &qi2[i * hw]); break;  // qinv = p
      case 6: std::copy(&n[i * w], &n[i * w] + w, &c2[i * w]); break;       // c = n
      case 7: qi2[i * hw] ^= 4; break;                                 // qinv*q != 1 mod p
    }
    INFO("case " << cs.which);
    REQUIRE(call(n2, p2, q2, dp2, dq2, qi2, c2) == MPB_EVAL);
    REQUIRE(info.bad_index == (int64_t)i);
    REQUIRE(info.bad_arg == cs.arg);
    REQUIRE(untouched(out));
  }
  // the prepared key refuses the same bad keys (key index 0: one key) and writes no key
  for (Case cs : {Case{0, 2, MPB_ARG_M}, Case{1, 3, MPB_ARG_P}, Case{2, 1, MPB_ARG_Q}, Case{3, 4, MPB_ARG_DP},
                  Case{4, 5, MPB_ARG_DQ}, Case{5, 0, MPB_ARG_QINV}, Case{7, 2, MPB_ARG_QINV}}) {
    Rows n2 = n, p2 = p, q2 = q, dp2 = dp, dq2 = dq, qi2 = qi;
    const size_t i = cs.idx;
    switch (cs.which) {
      case 0: n2[i * w] ^= 2; break;
      case 1: p2[i * hw] &= ~1ull; break;
      case 2: q2[i * hw] = 0, q2[i * hw + 1] = 0; break;
      case 3: std::copy(&p[i * hw], &p[i * hw] + hw, &dp2[i * hw]); break;
      case 4: std::copy(&q[i * hw], &q[i * hw] + hw, &dq2[i * hw]); break;
      case 5: std::copy(&p[i * hw], &p[i * hw] + hw, &qi2[i * hw]); break;
      case 7: qi2[i * hw] ^= 4; break;
    }
    INFO("prepared key, case " << cs.which);
    mpb_rsa_key *k = reinterpret_cast<mpb_rsa_key *>(&info);  // a sentinel that must stay
    REQUIRE(mpb_rsa_key_create(ctx.c, &k, &n2[i * w], &p2[i * hw], &q2[i * hw], &dp2[i * hw], &dq2[i * hw],
                               &qi2[i * hw], nullptr, 0, w, hw, &info) == MPB_EVAL);
    REQUIRE(info.bad_index == 0);
    REQUIRE(info.bad_arg == cs.arg);
    REQUIRE(k == reinterpret_cast<mpb_rsa_key *>(&info));
  }
  {
    mpb_rsa_key *k = nullptr;
    const uint64_t e = 65537, e_even = 65536, e_one = 1, e_wrong = 65539, e2[2] = {65537, 0};
    auto create = [&](mpb_rsa_key **kk, const uint64_t *pp, const uint64_t *ee, size_t ew, size_t h) {
      return mpb_rsa_key_create(ctx.c, kk, &n[0], pp, &q[0], &dp[0], &dq[0], &qi[0], ee, ew, w, h, &info);
    };
    REQUIRE(create(nullptr, &p[0], &e, 1, hw) == MPB_ENULL);
    REQUIRE(create(&k, nullptr, &e, 1, hw) == MPB_ENULL);
    REQUIRE(info.bad_arg == MPB_ARG_P);
    REQUIRE(create(&k, &p[0], &e, 1, w + 1) == MPB_ERANGE);
    REQUIRE(create(&k, &p[0], nullptr, 1, hw) == MPB_ENULL);
    REQUIRE(info.bad_arg == MPB_ARG_E);
    REQUIRE(create(&k, &p[0], &e, MPB_BATCH_MAX_WIDTH + 1, hw) == MPB_ERANGE);
    for (const uint64_t *bad_e : {&e_even, &e_one}) {
      REQUIRE(create(&k, &p[0], bad_e, 1, hw) == MPB_EVAL);
      REQUIRE(info.bad_arg == MPB_ARG_E);
    }
    REQUIRE(create(&k, &p[0], &e_wrong, 1, hw) == MPB_EVAL);  // odd, but not the key's
    REQUIRE(info.bad_arg == MPB_ARG_E);
    REQUIRE(k == nullptr);
    REQUIRE(create(&k, &p[0], e2, 2, hw) == MPB_OK);  // e in two limbs (a zero top limb)
    mpb_rsa_key_destroy(k);
    k = nullptr;
    REQUIRE(create(&k, &p[0], &e, 1, hw) == MPB_OK);
    REQUIRE(k != nullptr);
    // c >= n (item 1), NULL rows, a NULL key: errors, nothing written
    Rows c2(c.begin(), c.begin() + 3 * w);
    std::copy(&n[0], &n[0] + w, &c2[w]);
    Rows out3(3 * w, CANARY);
    REQUIRE(mpb_batch_rsa_crt_key(ctx.c, k, out3.data(), c2.data(), 3, &info) == MPB_EVAL);
    REQUIRE(info.bad_index == 1);
    REQUIRE(info.bad_arg == MPB_ARG_A);
    REQUIRE(mpb_batch_rsa_crt_key(ctx.c, k, nullptr, c2.data(), 3, &info) == MPB_ENULL);
    REQUIRE(mpb_batch_rsa_crt_key(ctx.c, k, out3.data(), nullptr, 3, &info) == MPB_ENULL);
    REQUIRE(mpb_batch_rsa_crt_key(ctx.c, nullptr, out3.data(), c2.data(), 3, &info) == MPB_ENULL);
    REQUIRE(mpb_batch_rsa_crt_key(nullptr, k, out3.data(), c2.data(), 3, &info) != MPB_OK);
    REQUIRE(untouched(out3));
    REQUIRE(mpb_batch_rsa_crt_key(ctx.c, k, nullptr, nullptr, 0, &info) == MPB_OK);  // empty batch
    mpb_rsa_key_destroy(k);
    mpb_rsa_key_destroy(nullptr);
  }
  REQUIRE(mpb_batch_rsa_crt(ctx.c, out.data(), c.data(), n.data(), p.data(), q.data(), dp.data(), dq.data(),
                            qi.data(), w, w + 1, cnt, cnt, &info) == MPB_ERANGE);
  REQUIRE(mpb_batch_rsa_crt(ctx.c, out.data(), c.data(), n.data(), p.data(), q.data(), dp.data(), dq.data(),
                            qi.data(), w, hw, 2, cnt, &info) == MPB_ESHAPE);
  REQUIRE(untouched(out));
}

TEST_CASE("one context used from 4 std::threads at once", "[batch][contract][threads]") {
  Ctx ctx;
  auto rng = mpbt::make_rng(403);
  const size_t w = 16, cnt = 40;
  Rows m(w), base(w * cnt), e(w);
  rand_odd_modulus(rng, m.data(), w);
  for (size_t i = 0; i < cnt; i++) rand_below(rng, &base[i * w], m.data(), w);
  for (auto &x : e) x = rng();
  Rows expect(w * cnt);
  Z zb, ze, zm, zr;
  row_to_mpz(ze, e.data(), w);
  row_to_mpz(zm, m.data(), w);
  for (size_t i = 0; i < cnt; i++) {
    row_to_mpz(zb, &base[i * w], w);
    mpz_powm(zr, zb, ze, zm);
    auto v = mpbt::limbs_of(zr, w);
    std::copy(v.begin(), v.end(), &expect[i * w]);
  }
  std::vector<int> ok(4, 0);
  std::vector<std::thread> th;
  for (int t = 0; t < 4; t++)
    th.emplace_back([&, t] {
      int good = 1;
      for (int rep = 0; rep < 5; rep++) {
        Rows r(w * cnt);
        mpb_call_info info;
        if (mpb_batch_powm(ctx.c, r.data(), base.data(), e.data(), w, 1, m.data(), 1, w, cnt, &info) != MPB_OK) good = 0;
        if (r != expect) good = 0;
        if (info.status != MPB_OK) good = 0;
        if (t == 0) mpb_ctx_set_constant_time(ctx.c, rep % 2 ? MPB_CT_ON : MPB_CT_OFF);  // settings change concurrently
      }
      ok[t] = good;
    });
  for (auto &x : th) x.join();
  for (int t = 0; t < 4; t++) REQUIRE(ok[t] == 1);
}
