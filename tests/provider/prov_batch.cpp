// The mpbatch provider batches: concurrent threads, ASYNC jobs driven by one thread through
// their wait fds, and a paused job whose wait ctx is freed before it is resumed.
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <poll.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <openssl/async.h>
#include <openssl/rsa.h>

#include "prov_util.h"

using namespace pt;

namespace {

std::string key_pem(int bits) {
  Json j = read_json(vectors_dir() + "/wycheproof/rsa_pkcs1_" + std::to_string(bits) +
                     "_sig_gen_test.json");
  return j["testGroups"][0]["privateKeyPem"].s();
}

Bytes sha256(const std::string &s) {
  Bytes d(32);
  unsigned int len = 0;
  EVP_Digest(s.data(), s.size(), d.data(), &len, EVP_sha256(), nullptr);
  return d;
}

bool verify_default(const Lib &lib, EVP_PKEY *k, const Bytes &dg, const Bytes &sig) {
  PCtx c(EVP_PKEY_CTX_new_from_pkey(lib.ctx, k, "provider=default"));
  bool ok = EVP_PKEY_verify_init(c.get()) == 1 && EVP_PKEY_CTX_set_signature_md(c.get(), EVP_sha256()) == 1 &&
            EVP_PKEY_verify(c.get(), sig.data(), sig.size(), dg.data(), dg.size()) == 1;
  ERR_clear_error();
  return ok;
}

// One signing job: its context is made (and the key exported to mpbatch) before the job starts.
struct SignJob {
  EVP_PKEY_CTX *ctx = nullptr;
  Bytes dg, sig;
  int ret = -1;
  ASYNC_JOB *job = nullptr;
  ASYNC_WAIT_CTX *wctx = nullptr;
  bool finished = false;
  bool skip = false; // left out of drive()
};

int sign_job_fn(void *arg) {
  SignJob *j = *(SignJob **)arg;
  size_t len = j->sig.size();
  j->ret = EVP_PKEY_sign(j->ctx, j->sig.data(), &len, j->dg.data(), j->dg.size());
  return j->ret;
}

void prepare(const Lib &lib, EVP_PKEY *k, SignJob &j, const std::string &msg) {
  j.ctx = EVP_PKEY_CTX_new_from_pkey(lib.ctx, k, "provider=mpbatch");
  REQUIRE(j.ctx);
  REQUIRE(EVP_PKEY_sign_init(j.ctx) == 1);
  REQUIRE(EVP_PKEY_CTX_set_signature_md(j.ctx, EVP_sha256()) == 1);
  j.dg = sha256(msg);
  j.sig.assign(EVP_PKEY_get_size(k), 0);
  j.wctx = ASYNC_WAIT_CTX_new();
  REQUIRE(j.wctx);
}

// starts or resumes j's job once; true when it finished
bool step(SignJob &j) {
  int ret = 0;
  SignJob *p = &j;
  int r = ASYNC_start_job(&j.job, j.wctx, &ret, sign_job_fn, &p, sizeof p);
  REQUIRE(r != ASYNC_ERR);
  REQUIRE(r != ASYNC_NO_JOBS);
  if (r == ASYNC_FINISH) j.finished = true;
  return j.finished;
}

// the wait fds of the paused jobs, polled until one is readable; resumes those
void drive(std::vector<SignJob> &jobs) {
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<size_t> owner;
    for (size_t i = 0; i < jobs.size(); i++) {
      if (jobs[i].finished || jobs[i].skip) continue;
      size_t n = 0;
      REQUIRE(ASYNC_WAIT_CTX_get_all_fds(jobs[i].wctx, nullptr, &n) == 1);
      std::vector<OSSL_ASYNC_FD> f(n);
      REQUIRE(ASYNC_WAIT_CTX_get_all_fds(jobs[i].wctx, f.data(), &n) == 1);
      REQUIRE(n == 1); // the provider's fd
      fds.push_back({f[0], POLLIN, 0});
      owner.push_back(i);
    }
    if (fds.empty()) return;
    int r = poll(fds.data(), fds.size(), 10000);
    REQUIRE(r > 0); // the batch signals within the flush delay, never a 10 s timeout
    for (size_t i = 0; i < fds.size(); i++)
      if (fds[i].revents & POLLIN) step(jobs[owner[i]]);
  }
}

void release(SignJob &j) {
  EVP_PKEY_CTX_free(j.ctx);
  ASYNC_WAIT_CTX_free(j.wctx);
  j.ctx = nullptr;
  j.wctx = nullptr;
}

} // namespace

TEST_CASE("concurrent threads signing with one key are batched, all signatures correct", "[provider][batch]") {
  Lib lib;
  Pkey k = load_private_pem(lib, key_pem(2048));
  REQUIRE(k);
  const int threads = 8, per_thread = 12;
  std::atomic<int> good{0}, bad{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; t++) {
    ts.emplace_back([&, t] {
      for (int i = 0; i < per_thread; i++) {
        Bytes dg = sha256("thread " + std::to_string(t) + " item " + std::to_string(i));
        PCtx c(EVP_PKEY_CTX_new_from_pkey(lib.ctx, k.get(), "provider=mpbatch"));
        Bytes sig(256);
        size_t len = sig.size();
        bool ok = c && EVP_PKEY_sign_init(c.get()) == 1 &&
                  EVP_PKEY_CTX_set_signature_md(c.get(), EVP_sha256()) == 1 &&
                  EVP_PKEY_sign(c.get(), sig.data(), &len, dg.data(), dg.size()) == 1 && len == 256 &&
                  verify_default(lib, k.get(), dg, sig);
        (ok ? good : bad)++;
      }
    });
  }
  for (auto &t : ts) t.join();
  CHECK(bad == 0);
  CHECK(good == threads * per_thread);
  INFO(lib.param_string("mpbatch-stats"));
  CHECK(lib.stat("items") == (unsigned long long)(threads * per_thread));
  CHECK(lib.stat("batches") < lib.stat("items")); // some batch held more than one item
  CHECK(lib.stat("max") > 1);
}

TEST_CASE("a lone call runs at once (no flush delay)", "[provider][batch]") {
  Lib lib("flush_delay_us = 5000000\n"); // 5 s: a lone blocking call must not wait for it
  Pkey k = load_private_pem(lib, key_pem(2048));
  Bytes dg = sha256("alone");
  PCtx c(EVP_PKEY_CTX_new_from_pkey(lib.ctx, k.get(), "provider=mpbatch"));
  REQUIRE(EVP_PKEY_sign_init(c.get()) == 1);
  REQUIRE(EVP_PKEY_CTX_set_signature_md(c.get(), EVP_sha256()) == 1);
  Bytes sig(256);
  size_t len = sig.size();
  auto t0 = std::chrono::steady_clock::now();
  REQUIRE(EVP_PKEY_sign(c.get(), sig.data(), &len, dg.data(), dg.size()) == 1);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(s < 2.0);
  CHECK(verify_default(lib, k.get(), dg, sig));
}

TEST_CASE("ASYNC jobs driven from one thread through their wait fds are batched", "[provider][batch][async]") {
  // batch_size 8: the eight jobs fill one batch, which runs at once; the long flush delay only
  // matters if a job were left behind
  Lib lib("batch_size = 8\nflush_delay_us = 200000\n");
  Pkey k = load_private_pem(lib, key_pem(2048));
  REQUIRE(k);
  std::vector<SignJob> jobs(8);
  for (size_t i = 0; i < jobs.size(); i++) prepare(lib, k.get(), jobs[i], "job " + std::to_string(i));
  for (auto &j : jobs) CHECK_FALSE(step(j)); // each pauses in the provider
  drive(jobs);
  for (auto &j : jobs) {
    CHECK(j.ret == 1);
    CHECK(verify_default(lib, k.get(), j.dg, j.sig));
    release(j);
  }
  INFO(lib.param_string("mpbatch-stats"));
  CHECK(lib.stat("items") == 8);
  CHECK(lib.stat("async") == 8);
  CHECK(lib.stat("max") == 8);
  CHECK(lib.stat("batches") == 1);
  // a second round with fewer jobs than the batch: the flush delay runs them
  Lib lib2("batch_size = 64\nflush_delay_us = 20000\n");
  Pkey k2 = load_private_pem(lib2, key_pem(2048));
  std::vector<SignJob> few(5);
  for (size_t i = 0; i < few.size(); i++) prepare(lib2, k2.get(), few[i], "few " + std::to_string(i));
  for (auto &j : few) CHECK_FALSE(step(j));
  drive(few);
  for (auto &j : few) {
    CHECK(j.ret == 1);
    CHECK(verify_default(lib2, k2.get(), j.dg, j.sig));
    release(j);
  }
  INFO(lib2.param_string("mpbatch-stats"));
  CHECK(lib2.stat("items") == 5);
  CHECK(lib2.stat("max") > 1);
  ASYNC_cleanup_thread();
}

// OpenSSL cannot resume a job whose wait ctx was freed (ASYNC_pause_job touches the old ctx) and
// has no call that frees a paused job: such a job stays OpenSSL's (kept reachable here so that
// LeakSanitizer does not count it). The provider's side must neither crash nor leak: the fd
// cleanup drops the request, the batch that computes it frees it, nothing is written to freed
// memory, and other requests in the same batch get their results.
static std::vector<ASYNC_JOB *> &g_orphans = *new std::vector<ASYNC_JOB *>; // never destroyed

TEST_CASE("a paused job whose wait ctx is freed: no crash, no leak", "[provider][batch][async]") {
  Lib lib("batch_size = 64\nflush_delay_us = 30000\n");
  Pkey k = load_private_pem(lib, key_pem(2048));
  REQUIRE(k);
  auto wait_items = [&](unsigned long long n) {
    for (int i = 0; i < 1000 && lib.stat("items") < n; i++)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return lib.stat("items");
  };
  SECTION("freed before its batch ran") {
    SignJob j;
    prepare(lib, k.get(), j, "abandoned early");
    REQUIRE_FALSE(step(j));
    ASYNC_WAIT_CTX_free(j.wctx); // the provider's fd cleanup runs; the request is dropped
    j.wctx = nullptr;
    CHECK(wait_items(1) == 1); // the batch ran and freed the dropped request
    g_orphans.push_back(j.job);
    release(j);
  }
  SECTION("freed after its batch ran, before it was collected") {
    SignJob j;
    prepare(lib, k.get(), j, "abandoned late");
    REQUIRE_FALSE(step(j));
    size_t n = 1;
    OSSL_ASYNC_FD fd;
    REQUIRE(ASYNC_WAIT_CTX_get_all_fds(j.wctx, &fd, &n) == 1);
    pollfd pfd{fd, POLLIN, 0};
    REQUIRE(poll(&pfd, 1, 10000) == 1); // computed and signalled
    ASYNC_WAIT_CTX_free(j.wctx);        // the cleanup frees the finished request
    j.wctx = nullptr;
    g_orphans.push_back(j.job);
    release(j);
  }
  SECTION("abandoned and live jobs in one batch: the live ones get their results") {
    std::vector<SignJob> jobs(4);
    for (size_t i = 0; i < jobs.size(); i++) prepare(lib, k.get(), jobs[i], "mixed " + std::to_string(i));
    for (auto &j : jobs) REQUIRE_FALSE(step(j));
    for (size_t i : {1, 3}) {
      ASYNC_WAIT_CTX_free(jobs[i].wctx);
      jobs[i].wctx = nullptr;
      jobs[i].skip = true;
      g_orphans.push_back(jobs[i].job);
    }
    drive(jobs);
    for (size_t i : {0, 2}) {
      CHECK(jobs[i].ret == 1);
      CHECK(verify_default(lib, k.get(), jobs[i].dg, jobs[i].sig));
    }
    CHECK(lib.stat("items") == 4);
    CHECK(lib.stat("max") == 4);
    for (auto &j : jobs) release(j);
  }
  SECTION("the provider unloads while an abandoned request is still queued") {
    SignJob j;
    prepare(lib, k.get(), j, "queued at unload");
    REQUIRE_FALSE(step(j));
    ASYNC_WAIT_CTX_free(j.wctx);
    j.wctx = nullptr;
    g_orphans.push_back(j.job);
    release(j); // the Lib's destructor unloads the provider within the 30 ms flush delay
  }
}

TEST_CASE("the module stays mapped after the provider is unloaded (NODELETE)", "[provider][batch]") {
  // Batches from several threads (and, after its delay, from the flush thread) leave OpenMP
  // workers that may still be running libgomp code when the provider is unloaded; mpbatch.so
  // is linked -z nodelete so that neither it nor libgomp is unmapped under them.
  const std::string path = module_dir() + "/mpbatch.so";
  {
    Lib lib("flush_delay_us = 100\n");
    Pkey k = load_private_pem(lib, key_pem(2048));
    REQUIRE(k);
    std::vector<std::thread> ts;
    std::atomic<int> bad{0};
    for (int t = 0; t < 4; t++)
      ts.emplace_back([&, t] {
        Bytes dg = sha256("unload " + std::to_string(t));
        PCtx c(EVP_PKEY_CTX_new_from_pkey(lib.ctx, k.get(), "provider=mpbatch"));
        Bytes sig(256);
        size_t len = sig.size();
        if (!(c && EVP_PKEY_sign_init(c.get()) == 1 &&
              EVP_PKEY_CTX_set_signature_md(c.get(), EVP_sha256()) == 1 &&
              EVP_PKEY_sign(c.get(), sig.data(), &len, dg.data(), dg.size()) == 1))
          bad++;
      });
    for (auto &t : ts) t.join();
    CHECK(bad == 0);
  } // the Lib's destructor unloads the provider and frees its library context
  void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  CHECK(h != nullptr); // still loaded
  if (h) dlclose(h);
}
