// Batch RSA-CRT against the Wycheproof RSA-2048 decryption keys and ciphertexts (m = c^d mod n,
// and the CRT result equals it) and against random GMP-generated keys of 512..4096 bits
// (one key for the batch and one key per item, p > q and p < q, unequal prime sizes,
// constant time on/off, scalar and IFMA backends, counts 0, 1, 7, 8, 9, 1000).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <mpbatch/mpbatch.h>

#include "support/batch_util.h"

using namespace bt;
using mpbt::Z;

namespace {

struct Key {
  std::string n, d, p, q, dp, dq, qi;
  std::vector<std::string> cts;
};

std::string next_string_value(const std::string &s, size_t pos) {
  size_t c = s.find(':', pos);
  size_t a = s.find('"', c);
  size_t b = s.find('"', a + 1);
  return s.substr(a + 1, b - a - 1);
}

std::vector<Key> read_wycheproof(const std::string &path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string s = ss.str();
  std::vector<Key> keys;
  const char *names[] = {"\"modulus\"", "\"privateExponent\"", "\"prime1\"", "\"prime2\"",
                         "\"exponent1\"", "\"exponent2\"", "\"coefficient\"", "\"ct\""};
  size_t pos = 0;
  while (true) {
    size_t best = std::string::npos;
    int which = -1;
    for (int i = 0; i < 8; i++) {
      size_t q = s.find(names[i], pos);
      if (q < best) best = q, which = i;
    }
    if (which < 0) break;
    std::string v = next_string_value(s, best);
    switch (which) {
      case 0: keys.push_back(Key()); keys.back().n = v; break;
      case 1: keys.back().d = v; break;
      case 2: keys.back().p = v; break;
      case 3: keys.back().q = v; break;
      case 4: keys.back().dp = v; break;
      case 5: keys.back().dq = v; break;
      case 6: keys.back().qi = v; break;
      case 7: keys.back().cts.push_back(v); break;
    }
    pos = best + 1;
  }
  return keys;
}

void set_hex_or_zero(mpz_t z, const std::string &h) {
  if (h.empty()) mpz_set_ui(z, 0);
  else mpz_set_str(z, h.c_str(), 16);
}

// A key as rows: n/width, halves/hw.
struct KeyRows {
  size_t w, hw;
  Rows n, p, q, dp, dq, qi;
  Z zn, zd;
};

void fill_key(KeyRows &k, const mpz_t n, const mpz_t d, const mpz_t p, const mpz_t q) {
  Z dp, dq, qi, t;
  mpz_sub_ui(t, p, 1);
  mpz_mod(dp, d, t);
  mpz_sub_ui(t, q, 1);
  mpz_mod(dq, d, t);
  REQUIRE(mpz_invert(qi, q, p) != 0);
  auto app = [](Rows &r, const mpz_t z, size_t w) {
    auto v = mpbt::limbs_of(z, w);
    r.insert(r.end(), v.begin(), v.end());
  };
  app(k.n, n, k.w);
  app(k.p, p, k.hw);
  app(k.q, q, k.hw);
  app(k.dp, dp, k.hw);
  app(k.dq, dq, k.hw);
  app(k.qi, qi, k.hw);
}

void random_key(std::mt19937_64 &rng, size_t pbits, size_t qbits, mpz_t n, mpz_t d, mpz_t p, mpz_t q) {
  gmp_randstate_t st;
  gmp_randinit_default(st);
  gmp_randseed_ui(st, (unsigned long)rng());
  Z e, phi, t1, t2, g;
  mpz_set_ui(e, 65537);
  while (true) {
    mpz_urandomb(p, st, pbits);
    mpz_setbit(p, pbits - 1);
    mpz_nextprime(p, p);
    mpz_urandomb(q, st, qbits);
    mpz_setbit(q, qbits - 1);
    mpz_nextprime(q, q);
    if (mpz_cmp(p, q) == 0) continue;
    mpz_sub_ui(t1, p, 1);
    mpz_sub_ui(t2, q, 1);
    mpz_lcm(phi, t1, t2);
    if (mpz_invert(d, e, phi) == 0) continue;
    break;
  }
  mpz_mul(n, p, q);
  gmp_randclear(st);
}

} // namespace

TEST_CASE("RSA-CRT batch reproduces the Wycheproof RSA-2048 keys (m = c^d mod n)", "[batch][rsa][wycheproof]") {
  auto keys = read_wycheproof(mpbt::vectors_dir() + "/wycheproof/rsa_pkcs1_2048_test.json");
  REQUIRE(keys.size() == 33);
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  const size_t w = 32, hw = 16;
  size_t total = 0, rejected = 0;
  // everything in one batch with one key per item, and per key in batches with one key
  KeyRows all{w, hw, {}, {}, {}, {}, {}, {}, {}, {}};
  Rows allc, allexp;
  for (auto &k : keys) {
    Z n, d, p, q, dp, dq, qi;
    set_hex_or_zero(n, k.n);
    set_hex_or_zero(d, k.d);
    set_hex_or_zero(p, k.p);
    set_hex_or_zero(q, k.q);
    set_hex_or_zero(dp, k.dp);
    set_hex_or_zero(dq, k.dq);
    set_hex_or_zero(qi, k.qi);
    KeyRows kr{w, hw, {}, {}, {}, {}, {}, {}, {}, {}};
    fill_key(kr, n, d, p, q);
    // the file's own CRT values equal what fill_key derived
    REQUIRE(mpbt::limbs_of(dp, hw) == kr.dp);
    REQUIRE(mpbt::limbs_of(dq, hw) == kr.dq);
    REQUIRE(mpbt::limbs_of(qi, hw) == kr.qi);
    Rows c, expect;
    std::vector<bool> too_big;
    for (auto &h : k.cts) {
      Z zc, zm;
      set_hex_or_zero(zc, h);
      if (mpz_sizeinbase(zc, 2) > 64 * w || mpz_cmp(zc, n) >= 0) {
        // ct >= n: the batch must reject it with its index, outputs untouched
        Rows c1 = mpbt::limbs_of(zc, w), out(w, CANARY);
        if (mpz_sizeinbase(zc, 2) <= 64 * w) {
          mpb_call_info info;
          REQUIRE(mpb_batch_rsa_crt(ctx, out.data(), c1.data(), kr.n.data(), kr.p.data(), kr.q.data(),
                                    kr.dp.data(), kr.dq.data(), kr.qi.data(), w, hw, 1, 1, &info) == MPB_EVAL);
          REQUIRE(info.bad_index == 0);
          REQUIRE(info.bad_arg == MPB_ARG_A);
          for (auto x : out) REQUIRE(x == CANARY);
        }
        rejected++;
        continue;
      }
      mpz_powm(zm, zc, d, n);
      auto cv = mpbt::limbs_of(zc, w), mv = mpbt::limbs_of(zm, w);
      c.insert(c.end(), cv.begin(), cv.end());
      expect.insert(expect.end(), mv.begin(), mv.end());
      allc.insert(allc.end(), cv.begin(), cv.end());
      allexp.insert(allexp.end(), mv.begin(), mv.end());
      fill_key(all, n, d, p, q);
    }
    size_t cnt = c.size() / w;
    total += cnt;
    Rows out(w * cnt + 1);
    mpb_call_info info;
    REQUIRE(mpb_batch_rsa_crt(ctx, out.data(), c.data(), kr.n.data(), kr.p.data(), kr.q.data(),
                              kr.dp.data(), kr.dq.data(), kr.qi.data(), w, hw, 1, cnt, &info) == MPB_OK);
    REQUIRE(info.constant_time == 1);
    REQUIRE(Rows(out.begin(), out.begin() + w * cnt) == expect);
  }
  REQUIRE(total + rejected == 67);
  size_t cnt = allc.size() / w;
  for (int backend : {MPB_BACKEND_AUTO, MPB_BACKEND_CPU_SCALAR, MPB_BACKEND_CPU_IFMA, MPB_BACKEND_CPU_AVX512, MPB_BACKEND_CPU_AVX2}) {
    if (mpbt::emulated_rerun_skips(backend)) continue;
    if (!mpb_backend_available(backend)) continue;
    REQUIRE(mpb_ctx_set_backend(ctx, backend) == MPB_OK);
    Rows out(w * cnt);
    mpb_call_info info;
    REQUIRE(mpb_batch_rsa_crt(ctx, out.data(), allc.data(), all.n.data(), all.p.data(), all.q.data(),
                              all.dp.data(), all.dq.data(), all.qi.data(), w, hw, cnt, cnt, &info) == MPB_OK);
    INFO(info.reason);
    REQUIRE(out == allexp);
  }
  mpb_ctx_destroy(ctx);
}

static void rsa_random_case(mpb_ctx *ctx, std::mt19937_64 &rng, size_t pbits, size_t qbits, size_t cnt,
                            bool per_item, int backend, int ct) {
  size_t hw = (std::max(pbits, qbits) + 63) / 64;
  size_t w = (pbits + qbits + 63) / 64;
  size_t nkeys = per_item ? std::max<size_t>(cnt, 1) : 1;
  KeyRows kr{w, hw, {}, {}, {}, {}, {}, {}, {}, {}};
  std::vector<std::array<Z, 2>> nd(nkeys);
  for (size_t k = 0; k < nkeys; k++) {
    Z p, q;
    if (k == 0 || per_item) random_key(rng, pbits, qbits, nd[k][0], nd[k][1], p, q);
    if (k > 0 && !per_item) break;
    fill_key(kr, nd[k][0], nd[k][1], p, q);
  }
  Rows c(w * cnt + 1), out(w * cnt + 1, CANARY);
  for (size_t i = 0; i < cnt; i++) rand_below(rng, &c[i * w], &kr.n[(per_item ? i : 0) * w], w);
  REQUIRE(mpb_ctx_set_backend(ctx, backend) == MPB_OK);
  REQUIRE(mpb_ctx_set_constant_time(ctx, ct) == MPB_OK);
  mpb_call_info info;
  INFO("p " << pbits << " q " << qbits << " count " << cnt << " per_item " << per_item << " backend " << backend << " ct " << ct);
  REQUIRE(mpb_batch_rsa_crt(ctx, out.data(), c.data(), kr.n.data(), kr.p.data(), kr.q.data(), kr.dp.data(),
                            kr.dq.data(), kr.qi.data(), w, hw, per_item ? cnt : 1, cnt, &info) == MPB_OK);
  INFO(info.reason);
  REQUIRE(info.constant_time == (ct == MPB_CT_OFF ? 0 : 1));
  if (!per_item) {  // the same key prepared once, without and with e: the same results and backend
    const uint64_t e = 65537;
    for (size_t ew : {0, 1}) {
      mpb_rsa_key *key = nullptr;
      REQUIRE(mpb_rsa_key_create(ctx, &key, kr.n.data(), kr.p.data(), kr.q.data(), kr.dp.data(), kr.dq.data(),
                                 kr.qi.data(), ew ? &e : nullptr, ew, w, hw, nullptr) == MPB_OK);
      Rows out2(w * cnt + 1, CANARY);
      mpb_call_info info2;
      REQUIRE(mpb_batch_rsa_crt_key(ctx, key, out2.data(), c.data(), cnt, &info2) == MPB_OK);
      INFO(info2.reason << " e_width " << ew);
      REQUIRE(info2.backend == info.backend);
      REQUIRE(info2.constant_time == info.constant_time);
      REQUIRE(out2 == out);
      mpb_rsa_key_destroy(key);
    }
  }
  Z zc, zm;
  for (size_t i = 0; i < cnt; i++) {
    size_t k = per_item ? i : 0;
    row_to_mpz(zc, &c[i * w], w);
    mpz_powm(zm, zc, nd[k][1], nd[k][0]);
    REQUIRE(mpbt::limbs_of(zm, w) == Rows(out.begin() + i * w, out.begin() + (i + 1) * w));
  }
}

TEST_CASE("RSA-CRT batch with random keys matches mpz_powm(c, d, n)", "[batch][rsa]") {
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  auto rng = mpbt::make_rng(201);
  for (int backend : {MPB_BACKEND_CPU_SCALAR, MPB_BACKEND_CPU_IFMA, MPB_BACKEND_CPU_AVX512, MPB_BACKEND_CPU_AVX2, MPB_BACKEND_AUTO}) {
    if (mpbt::emulated_rerun_skips(backend)) continue;
    if (!mpb_backend_available(backend)) continue;
    for (int ct : {MPB_CT_DEFAULT, MPB_CT_OFF}) {
      // a group's halves are packed from lane 0: 1..4 items (and 9..12) in one 8-lane run, 5..8
      // in two; on AVX2 (runs of 4) 1 or 2 items in one, 3 or 4 in two, 5 or 6 in three
      for (size_t cnt : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13}) {
        rsa_random_case(ctx, rng, 512, 512, cnt, false, backend, ct);
        rsa_random_case(ctx, rng, 256, 256, cnt, true, backend, ct);
      }
      rsa_random_case(ctx, rng, 1024, 1024, 17, false, backend, ct);
      rsa_random_case(ctx, rng, 300, 200, 9, false, backend, ct);   // unequal sizes, p > q
      rsa_random_case(ctx, rng, 200, 330, 9, true, backend, ct);    // q longer than p
      rsa_random_case(ctx, rng, 64, 64, 9, true, backend, ct);      // 1-limb halves
      rsa_random_case(ctx, rng, 100, 60, 8, false, backend, ct);    // width 3, hw 2
    }
  }
  rsa_random_case(ctx, rng, 256, 256, 1000, false, MPB_BACKEND_AUTO, MPB_CT_DEFAULT);
  rsa_random_case(ctx, rng, 1024, 1020, 13, false, MPB_BACKEND_AUTO, MPB_CT_DEFAULT);  // p's digit count > q's
  rsa_random_case(ctx, rng, 1536, 1536, 9, false, MPB_BACKEND_AUTO, MPB_CT_DEFAULT);
  rsa_random_case(ctx, rng, 2048, 2048, 3, false, MPB_BACKEND_AUTO, MPB_CT_DEFAULT);
  mpb_ctx_destroy(ctx);
}

TEST_CASE("RSA-CRT with AUTO: every split of a batch between full groups, a partial group and scalar items",
          "[batch][rsa][split]") {
  // The cost model picks these shapes by the machine's lane costs and threads; here each one is
  // fixed and run: groups of 8, 6 or 3 items (fewer than 8 spread the runs over threads), a last
  // group of 0..size-1 items (its halves packed from lane 0: the q halves share runs with the p
  // halves) with the other leftover items on the scalar kernels, one key for the batch (prepared
  // with and without e) and one key per item, constant time and not.
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  REQUIRE(mpb_ctx_set_threads(ctx, 2) == MPB_OK);
  auto rng = mpbt::make_rng(203);
  for (long size : {8, 6, 3})
    for (long last = 0; last < size; last++) {
      SplitOverride fix(last, size);
      const size_t cnt = (size_t)(size + size - 1);  // one full group, then size - 1 left over
      for (int ct : {MPB_CT_DEFAULT, MPB_CT_OFF}) {
        rsa_random_case(ctx, rng, 512, 512, cnt, false, MPB_BACKEND_AUTO, ct);
        rsa_random_case(ctx, rng, 256, 250, cnt, true, MPB_BACKEND_AUTO, ct);
      }
      rsa_random_case(ctx, rng, 512, 512, (size_t)(last + 2 * size), false, MPB_BACKEND_AUTO, MPB_CT_DEFAULT);
    }
  rsa_random_case(ctx, rng, 1024, 1024, 7, false, MPB_BACKEND_AUTO, MPB_CT_DEFAULT);  // cost model's own choice
  mpb_ctx_destroy(ctx);
}

TEST_CASE("a prepared RSA key shared by 4 threads at once", "[batch][rsa][threads]") {
  auto rng = mpbt::make_rng(77);
  Z n, d, p, q;
  random_key(rng, 1024, 1024, n, d, p, q);
  const size_t w = 32, hw = 16, cnt = 21;
  KeyRows kr{w, hw, {}, {}, {}, {}, {}, {}, {}, {}};
  fill_key(kr, n, d, p, q);
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  REQUIRE(mpb_ctx_set_threads(ctx, 1) == MPB_OK);
  mpb_rsa_key *key = nullptr;
  const uint64_t e = 65537;
  REQUIRE(mpb_rsa_key_create(ctx, &key, kr.n.data(), kr.p.data(), kr.q.data(), kr.dp.data(), kr.dq.data(),
                             kr.qi.data(), &e, 1, w, hw, nullptr) == MPB_OK);
  std::vector<Rows> c(4, Rows(w * cnt)), out(4, Rows(w * cnt));
  for (auto &ci : c)
    for (size_t i = 0; i < cnt; i++) rand_below(rng, &ci[i * w], kr.n.data(), w);
  std::vector<std::thread> th;
  std::vector<int> st(4, -1);
  for (int t = 0; t < 4; t++)
    th.emplace_back([&, t] { st[t] = mpb_batch_rsa_crt_key(ctx, key, out[t].data(), c[t].data(), cnt, nullptr); });
  for (auto &x : th) x.join();
  Z zc, zm;
  for (int t = 0; t < 4; t++) {
    REQUIRE(st[t] == MPB_OK);
    for (size_t i = 0; i < cnt; i++) {
      row_to_mpz(zc, &c[t][i * w], w);
      mpz_powm(zm, zc, d, n);
      REQUIRE(mpbt::limbs_of(zm, w) == Rows(out[t].begin() + i * w, out[t].begin() + (i + 1) * w));
    }
  }
  mpb_rsa_key_destroy(key);
  mpb_ctx_destroy(ctx);
}

namespace mpb {
namespace batch {
namespace testing {
void rsa_key_fault(mpb_rsa_key *key, bool q_half);  // cpu/batch/rsa_crt.cpp
}
}
}

TEST_CASE("a prepared RSA key with e releases no faulty result", "[batch][rsa][fault]") {
  auto rng = mpbt::make_rng(91);
  Z n, d, p, q;
  random_key(rng, 512, 512, n, d, p, q);
  const size_t w = 16, hw = 8;
  KeyRows kr{w, hw, {}, {}, {}, {}, {}, {}, {}, {}};
  fill_key(kr, n, d, p, q);
  mpb_ctx *ctx;
  REQUIRE(mpb_ctx_create(&ctx) == MPB_OK);
  const uint64_t e = 65537;
  for (int backend : {MPB_BACKEND_AUTO, MPB_BACKEND_CPU_SCALAR, MPB_BACKEND_CPU_IFMA, MPB_BACKEND_CPU_AVX512, MPB_BACKEND_CPU_AVX2}) {
    if (mpbt::emulated_rerun_skips(backend)) continue;
    if (!mpb_backend_available(backend)) continue;
    REQUIRE(mpb_ctx_set_backend(ctx, backend) == MPB_OK);
    for (size_t cnt : {1, 5, 8, 11}) for (bool q_half : {false, true}) {
      mpb_rsa_key *key = nullptr;
      REQUIRE(mpb_rsa_key_create(ctx, &key, kr.n.data(), kr.p.data(), kr.q.data(), kr.dp.data(), kr.dq.data(),
                                 kr.qi.data(), &e, 1, w, hw, nullptr) == MPB_OK);
      mpb::batch::testing::rsa_key_fault(key, q_half);  // a fault in one half from now on
      Rows c(w * cnt), out(w * cnt, CANARY);
      for (size_t i = 0; i < cnt; i++) rand_below(rng, &c[i * w], kr.n.data(), w);
      mpb_call_info info;
      INFO("backend " << backend << " count " << cnt << " q half " << q_half);
      REQUIRE(mpb_batch_rsa_crt_key(ctx, key, out.data(), c.data(), cnt, &info) == MPB_EFAULT);
      REQUIRE(info.bad_index == 0);
      REQUIRE(info.bad_arg == MPB_ARG_R);
      REQUIRE(out == Rows(w * cnt, 0));  // every row zeroed, none released
      mpb_rsa_key_destroy(key);
    }
  }
  mpb_ctx_destroy(ctx);
}
