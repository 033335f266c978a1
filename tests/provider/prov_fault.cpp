// One failing item in a batch of good ones, through the test copy of the module with fault
// injection (mpbatch_faults.so, provider/test_faults.h: an input whose lowest limb is
// "mpbfault" fails inside the library). No real input can do this: the provider checks every
// input before it queues it, so only a fault or a refusal inside the library makes one item of a
// batch fail, and then the provider runs the batch's items one by one. Checked here: the
// failing job gets an error and its output buffer stays as it was; every other job of the same
// batch gets its result, compared with the default provider's.
#include <catch2/catch.hpp>

#include <poll.h>

#include <cstdlib>
#include <cstring>
#include <functional>

#include <openssl/async.h>
#include <openssl/bn.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include "prov_util.h"

using namespace pt;

namespace {

const char *const MARK = "mpbfault"; // MPBP_TEST_FAULT_MARK, big-endian: an input's last 8 bytes
const char *const BATCH_CONF = "batch_size = 8\nflush_delay_us = 200000\n"; // 8 jobs: one full batch

std::string key_pem(int bits) {
  Json j = read_json(vectors_dir() + "/wycheproof/rsa_pkcs1_" + std::to_string(bits) +
                     "_sig_gen_test.json");
  return j["testGroups"][0]["privateKeyPem"].s();
}

// The jobs, each started as an ASYNC job, then resumed when its wait fd is readable, until all
// finish. Each must pause at its start (its request queued in the provider), so that all of
// them share a batch.
struct Jobs {
  std::vector<std::function<int()>> fn;
  std::vector<int> ret;

  static int trampoline(void *arg) {
    auto *f = *(std::function<int()> **)arg;
    return (*f)();
  }
  void run() {
    const size_t n = fn.size();
    std::vector<ASYNC_JOB *> job(n, nullptr);
    std::vector<ASYNC_WAIT_CTX *> wait(n);
    std::vector<int> done(n, 0);
    ret.assign(n, -1);
    for (auto &w : wait) REQUIRE((w = ASYNC_WAIT_CTX_new()) != nullptr);
    auto step = [&](size_t i) {
      std::function<int()> *f = &fn[i];
      int r = ASYNC_start_job(&job[i], wait[i], &ret[i], trampoline, &f, sizeof f);
      REQUIRE((r == ASYNC_PAUSE || r == ASYNC_FINISH));
      done[i] = r == ASYNC_FINISH;
    };
    for (size_t i = 0; i < n; i++) {
      step(i);
      REQUIRE_FALSE(done[i]);
    }
    for (;;) {
      std::vector<pollfd> fds;
      std::vector<size_t> owner;
      for (size_t i = 0; i < n; i++) {
        if (done[i]) continue;
        OSSL_ASYNC_FD fd;
        size_t nfd = 1;
        REQUIRE(ASYNC_WAIT_CTX_get_all_fds(wait[i], &fd, &nfd) == 1);
        REQUIRE(nfd == 1); // the provider's fd
        fds.push_back({fd, POLLIN, 0});
        owner.push_back(i);
      }
      if (fds.empty()) break;
      REQUIRE(poll(fds.data(), fds.size(), 10000) > 0); // within the flush delay, not 10 s
      for (size_t k = 0; k < fds.size(); k++)
        if (fds[k].revents & POLLIN) step(owner[k]);
    }
    for (auto w : wait) ASYNC_WAIT_CTX_free(w);
  }
};

// Runs the jobs: the one at `bad` must fail and leave its output as it was (0xcc bytes), every
// other one succeed with its wanted output. The errors queued, with their text.
std::string run_one_bad(Jobs &jobs, const std::vector<Bytes> &got, const std::vector<Bytes> &want, size_t bad) {
  ERR_clear_error();
  jobs.run();
  const std::string err = errors_with_data();
  INFO(err);
  for (size_t i = 0; i < jobs.ret.size(); i++) {
    INFO("job " << i);
    if (i == bad) {
      CHECK(jobs.ret[i] != 1);
      CHECK(got[i] == Bytes(got[i].size(), 0xcc)); // nothing of it released
    } else {
      CHECK(jobs.ret[i] == 1);
      CHECK(got[i] == want[i]);
    }
  }
  return err;
}

Bytes random_bytes(size_t n) {
  Bytes b(n);
  REQUIRE(RAND_bytes(b.data(), (int)n) == 1);
  return b;
}

// raw (no padding) decryption of in through c (raw_decrypt_ctx): EVP_PKEY_decrypt's value
int decrypt_raw(EVP_PKEY_CTX *c, const Bytes &in, Bytes &out) {
  size_t len = out.size();
  int r = EVP_PKEY_decrypt(c, out.data(), &len, in.data(), in.size());
  if (r == 1) out.resize(len);
  return r;
}

PCtx raw_decrypt_ctx(const Lib &lib, EVP_PKEY *k, const char *propq) {
  PCtx c(EVP_PKEY_CTX_new_from_pkey(lib.ctx, k, propq));
  REQUIRE(c);
  REQUIRE(EVP_PKEY_decrypt_init(c.get()) == 1);
  REQUIRE(EVP_PKEY_CTX_set_rsa_padding(c.get(), RSA_NO_PADDING) == 1);
  return c;
}

} // namespace

TEST_CASE("RSA: a faulty item fails alone, the other items of its batch are released", "[provider][fault]") {
  // prepared: the library's check fails the batch call, and the provider runs its items one by
  // one; unprepared: the key without the library's prepared form, where the provider checks the
  // results with e itself (rsa_fault_check) and a marked item's result has a bit flipped
  for (bool unprepared : {false, true}) {
    INFO((unprepared ? "unprepared key" : "prepared key"));
    Lib lib(BATCH_CONF, false, MPBP_FAULTS_MODULE);
    Pkey k = load_private_pem(lib, key_pem(2048));
    REQUIRE(k);
    const size_t n = 8, bad = 5;
    std::vector<Bytes> c(n), want(n), got(n, Bytes(256, 0xcc));
    PCtx def = raw_decrypt_ctx(lib, k.get(), "provider=default");
    for (size_t i = 0; i < n; i++) {
      c[i] = random_bytes(256);
      c[i][0] = 0x01; // below n (the key's top byte is at least 0x80)
      if (i == bad) std::memcpy(c[i].data() + 248, MARK, 8);
      want[i].assign(256, 0);
      REQUIRE(decrypt_raw(def.get(), c[i], want[i]) == 1);
    }
    // the key set up in the module (the first context exports it): with or without its prepared form
    if (unprepared) setenv("MPBP_TEST_UNPREPARED", "1", 1);
    std::vector<PCtx> ctx;
    for (size_t i = 0; i < n; i++) ctx.push_back(raw_decrypt_ctx(lib, k.get(), "provider=mpbatch"));
    unsetenv("MPBP_TEST_UNPREPARED");
    Jobs jobs;
    for (size_t i = 0; i < n; i++)
      jobs.fn.push_back([&, i] { return decrypt_raw(ctx[i].get(), c[i], got[i]); });
    const std::string err = run_one_bad(jobs, got, want, bad);
    INFO(err);
    CHECK(err.find("fault") != std::string::npos);
    INFO(lib.param_string("mpbatch-stats"));
    CHECK(lib.stat("items") == n);
    CHECK(lib.stat("batches") == 1); // all eight in one batch
    CHECK(lib.stat("max") == n);
    // the unmarked inputs alone: one batch, all released
    ERR_clear_error();
    Jobs again;
    for (size_t i = 0; i < n; i++) {
      if (i == bad) continue;
      got[i].assign(256, 0xcc);
      again.fn.push_back([&, i] { return decrypt_raw(ctx[i].get(), c[i], got[i]); });
    }
    again.run();
    for (size_t i = 0, j = 0; i < n; i++) {
      if (i == bad) continue;
      CHECK(again.ret[j++] == 1);
      CHECK(got[i] == want[i]);
    }
  }
  ASYNC_cleanup_thread();
}

TEST_CASE("DH: an item the library refuses fails alone, the other derives of its batch succeed", "[provider][fault]") {
  Lib lib(BATCH_CONF, false, MPBP_FAULTS_MODULE);
  const char *group = "ffdhe2048";
  auto keygen = [&](const char *propq) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib.ctx, "DH", propq);
    EVP_PKEY *k = nullptr;
    if (c != nullptr && EVP_PKEY_keygen_init(c) > 0 && EVP_PKEY_CTX_set_group_name(c, group) > 0)
      (void)EVP_PKEY_generate(c, &k);
    EVP_PKEY_CTX_free(c);
    return Pkey(k);
  };
  Pkey own = keygen("provider=default");
  REQUIRE(own);
  // a peer value that the provider's check accepts (in [2, p-2], of order q = (p-1)/2), ending
  // in the mark
  BIGNUM *p = nullptr;
  REQUIRE(EVP_PKEY_get_bn_param(own.get(), OSSL_PKEY_PARAM_FFC_P, &p) == 1);
  BIGNUM *q = BN_dup(p), *y = BN_new(), *t = BN_new();
  BN_CTX *bc = BN_CTX_new();
  REQUIRE((q && y && t && bc));
  REQUIRE(BN_rshift1(q, q) == 1);
  uint64_t mark = 0;
  for (int i = 0; i < 8; i++) mark = mark << 8 | (unsigned char)MARK[i];
  for (int tries = 0;; tries++) {
    REQUIRE(tries < 200);
    REQUIRE(BN_rand(y, 1900, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1);
    REQUIRE(BN_lshift(y, y, 64) == 1);
    REQUIRE(BN_add_word(y, mark) == 1);
    REQUIRE(BN_mod_exp(t, y, q, p, bc) == 1);
    if (BN_is_one(t)) break;
  }
  const size_t n = 8, bad = 2;
  std::vector<Pkey> peer(n);
  for (size_t i = 0; i < n; i++) {
    if (i != bad) {
      peer[i] = keygen("provider=default");
      continue;
    }
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = nullptr;
    EVP_PKEY *pk = nullptr;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lib.ctx, "DH", "provider=default");
    if (bld && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) &&
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PUB_KEY, y) && (params = OSSL_PARAM_BLD_to_param(bld)) &&
        c && EVP_PKEY_fromdata_init(c) > 0)
      (void)EVP_PKEY_fromdata(c, &pk, EVP_PKEY_PUBLIC_KEY, params);
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    peer[i].reset(pk);
  }
  BN_free(p), BN_free(q), BN_free(y), BN_free(t), BN_CTX_free(bc);
  auto derive_ctx = [&](const char *propq, EVP_PKEY *pk) {
    PCtx c(EVP_PKEY_CTX_new_from_pkey(lib.ctx, own.get(), propq));
    REQUIRE(c);
    REQUIRE(EVP_PKEY_derive_init(c.get()) == 1);
    REQUIRE(EVP_PKEY_CTX_set_dh_pad(c.get(), 1) == 1);
    REQUIRE(EVP_PKEY_derive_set_peer(c.get(), pk) == 1);
    return c;
  };
  std::vector<Bytes> want(n, Bytes(256)), got(n, Bytes(256, 0xcc));
  std::vector<PCtx> ctx;
  for (size_t i = 0; i < n; i++) {
    REQUIRE(peer[i]);
    PCtx d = derive_ctx("provider=default", peer[i].get());
    size_t len = 256;
    REQUIRE(EVP_PKEY_derive(d.get(), want[i].data(), &len) == 1);
    REQUIRE(len == 256);
    ctx.push_back(derive_ctx("provider=mpbatch", peer[i].get()));
  }
  Jobs jobs;
  for (size_t i = 0; i < n; i++)
    jobs.fn.push_back([&, i] {
      size_t len = got[i].size();
      return EVP_PKEY_derive(ctx[i].get(), got[i].data(), &len) == 1 && len == 256 ? 1 : 0;
    });
  const std::string err = run_one_bad(jobs, got, want, bad);
  INFO(err);
  CHECK(err.find("ffdhe2048 derive") != std::string::npos); // the failing batch group, named
  INFO(lib.param_string("mpbatch-stats"));
  CHECK(lib.stat("items") == n);
  CHECK(lib.stat("batches") == 1);
  CHECK(lib.stat("max") == n);
  ASYNC_cleanup_thread();
}
