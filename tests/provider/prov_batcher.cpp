// The provider's batcher on its own (provider/batcher.c compiled into this test), with a fake
// group whose run function adds one to every limb and records its batch sizes.
#include <catch2/catch.hpp>

#include <poll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <mpbatch/batch.h>

#include <openssl/async.h>

#include "batcher.h"

namespace {

struct Fake {
  std::mutex mu;
  std::vector<size_t> batches;
  int sleep_ms = 0;
  bool fail_odd = false;     // item_status = MPB_EVAL for odd inputs
  int whole_status = MPB_OK; // the run's return value
  int backend = MPB_BACKEND_CPU; // the backend it reports (the counters count MPB_BACKEND_CUDA's items)
  bool backend_preset = false;   // a run found *backend already set (the batcher passes AUTO)
};

int fake_run(const void *key, mpb_ctx *, const uint64_t *in, uint64_t *out, int *st, size_t count, int *backend) {
  Fake *f = (Fake *)const_cast<void *>(key);
  {
    std::lock_guard<std::mutex> g(f->mu);
    f->batches.push_back(count);
    if (*backend != MPB_BACKEND_AUTO) f->backend_preset = true;
  }
  *backend = f->backend;
  if (f->sleep_ms) std::this_thread::sleep_for(std::chrono::milliseconds(f->sleep_ms));
  for (size_t i = 0; i < count; i++) {
    out[2 * i] = in[2 * i] + 1;
    out[2 * i + 1] = in[2 * i + 1] + 1;
    if (f->fail_odd && (in[2 * i] & 1)) st[i] = MPB_EVAL;
  }
  return f->whole_status;
}

struct Ctx {
  mpb_ctx *ctx = nullptr;
  Ctx() { REQUIRE(mpb_ctx_create(&ctx) == MPB_OK); }
  ~Ctx() { mpb_ctx_destroy(ctx); }
};

mpbp_group group_of(Fake &f, const char *name = "fake") {
  mpbp_group g;
  g.run = fake_run;
  g.key = &f;
  g.in_limbs = 2;
  g.out_limbs = 2;
  g.name = name;
  g.run_items = 0; // MPBP_LANE_GROUP
  return g;
}

} // namespace

TEST_CASE("batcher: a lone call runs at once, alone", "[provider][batcher]") {
  Ctx c;
  mpbp_batcher *b = mpbp_batcher_new(16, 10000000, 0, c.ctx);
  REQUIRE(b);
  Fake f;
  mpbp_group g = group_of(f);
  uint64_t in[2] = {41, 7}, out[2] = {0, 0};
  auto t0 = std::chrono::steady_clock::now();
  REQUIRE(mpbp_batch_submit(b, &g, in, out) == MPB_OK);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  CHECK(out[0] == 42);
  CHECK(out[1] == 8);
  REQUIRE(f.batches.size() == 1);
  CHECK(f.batches[0] == 1);
  mpbp_batch_stats s;
  REQUIRE(mpbp_batcher_stats(b, "fake", &s) == 0);
  CHECK(s.batches == 1);
  CHECK(s.items == 1);
  CHECK(mpbp_batcher_stats(b, "nothing", &s) == -1);
  mpbp_batcher_free(b);
}

TEST_CASE("batcher: concurrent blocking callers are group-committed", "[provider][batcher]") {
  Ctx c;
  mpbp_batcher *b = mpbp_batcher_new(4, 200, 0, c.ctx);
  Fake f;
  f.sleep_ms = 20;
  mpbp_group g = group_of(f);
  const int threads = 12;
  std::atomic<int> good{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; t++)
    ts.emplace_back([&, t] {
      uint64_t in[2] = {(uint64_t)t * 10, 5}, out[2] = {0, 0};
      if (mpbp_batch_submit(b, &g, in, out) == MPB_OK && out[0] == in[0] + 1 && out[1] == 6) good++;
    });
  for (auto &t : ts) t.join();
  CHECK(good == threads);
  size_t total = 0, largest = 0;
  for (size_t n : f.batches) {
    total += n;
    largest = std::max(largest, n);
    CHECK(n <= 4); // never more than batch_size
  }
  CHECK(total == (size_t)threads);
  CHECK(largest > 1);
  CHECK(f.batches.size() < (size_t)threads);
  char buf[256];
  size_t need = mpbp_batcher_stats_string(b, buf, sizeof buf);
  CHECK(need == strlen(buf));
  CHECK(std::string(buf).find("fake: batches=") == 0);
  mpbp_batcher_free(b);
}

TEST_CASE("batcher: per-item and whole-batch errors reach their callers", "[provider][batcher]") {
  Ctx c;
  mpbp_batcher *b = mpbp_batcher_new(8, 200, 0, c.ctx);
  Fake f;
  f.sleep_ms = 10;
  f.fail_odd = true;
  mpbp_group g = group_of(f);
  std::vector<int> status(8, 99);
  std::vector<std::thread> ts;
  for (int t = 0; t < 8; t++)
    ts.emplace_back([&, t] {
      uint64_t in[2] = {(uint64_t)t, 0}, out[2] = {0, 0};
      status[t] = mpbp_batch_submit(b, &g, in, out);
    });
  for (auto &t : ts) t.join();
  for (int t = 0; t < 8; t++) CHECK(status[t] == ((t & 1) ? MPB_EVAL : MPB_OK));
  Fake f2;
  f2.whole_status = MPB_EDEVICE;
  mpbp_group g2 = group_of(f2, "fails");
  uint64_t in[2] = {2, 2}, out[2] = {0, 0};
  CHECK(mpbp_batch_submit(b, &g2, in, out) == MPB_EDEVICE);
  CHECK(out[0] == 0); // nothing written on error
  CHECK(mpbp_batch_submit(nullptr, &g2, in, out) == MPB_ENULL);
  mpbp_batcher_free(b);
}

TEST_CASE("batcher: groups with different keys never share a batch; GPU items counted per group",
          "[provider][batcher]") {
  Ctx c;
  mpbp_batcher *b = mpbp_batcher_new(16, 200, 0, c.ctx);
  Fake fa, fb;
  fa.sleep_ms = fb.sleep_ms = 10;
  fb.backend = MPB_BACKEND_CUDA; // B's batches "ran on a GPU"
  mpbp_group ga = group_of(fa, "A"), gb = group_of(fb, "B");
  std::vector<std::thread> ts;
  std::atomic<int> good{0};
  for (int t = 0; t < 10; t++)
    ts.emplace_back([&, t] {
      uint64_t in[2] = {(uint64_t)t, 1}, out[2] = {0, 0};
      if (mpbp_batch_submit(b, (t & 1) ? &gb : &ga, in, out) == MPB_OK && out[0] == (uint64_t)t + 1) good++;
    });
  for (auto &t : ts) t.join();
  CHECK(good == 10);
  mpbp_batch_stats sa, sb, all;
  REQUIRE(mpbp_batcher_stats(b, "A", &sa) == 0);
  REQUIRE(mpbp_batcher_stats(b, "B", &sb) == 0);
  REQUIRE(mpbp_batcher_stats(b, nullptr, &all) == 0);
  CHECK(sa.items == 5);
  CHECK(sb.items == 5);
  CHECK(all.items == 10);
  CHECK(sa.gpu_items == 0);
  CHECK(sb.gpu_items == 5);
  CHECK(all.gpu_items == 5);
  CHECK_FALSE(fa.backend_preset);
  CHECK_FALSE(fb.backend_preset);
  char buf[256];
  REQUIRE(mpbp_batcher_stats_string(b, buf, sizeof buf) < sizeof buf);
  const std::string str(buf);
  CHECK(str.find("gpu=5") != std::string::npos);
  CHECK(str.find("gpu=0") != std::string::npos);
  mpbp_batcher_free(b);
}

namespace {
struct AsyncArg {
  mpbp_batcher *b;
  const mpbp_group *g;
  uint64_t in[2], out[2];
  int status;
};
int async_submit(void *p) {
  AsyncArg *a = *(AsyncArg **)p;
  a->status = mpbp_batch_submit(a->b, a->g, a->in, a->out);
  return 1;
}
// one ASYNC job through the batcher: pauses, then is resumed when its wait fd fires
// busy: the caller spins (CPU busy) instead of sleeping in poll while the job is paused, as a
// loaded server's event loop works on other connections meanwhile.
bool async_once(mpbp_batcher *b, const mpbp_group *g, uint64_t v, bool busy = false) {
  AsyncArg a{b, g, {v, 0}, {0, 0}, -1};
  AsyncArg *p = &a;
  ASYNC_WAIT_CTX *w = ASYNC_WAIT_CTX_new();
  ASYNC_JOB *job = nullptr;
  int ret = 0;
  bool ok = ASYNC_start_job(&job, w, &ret, async_submit, &p, sizeof p) == ASYNC_PAUSE;
  size_t n = 1;
  OSSL_ASYNC_FD fd = -1;
  ok = ok && ASYNC_WAIT_CTX_get_all_fds(w, &fd, &n) == 1 && n == 1;
  pollfd pfd{fd, POLLIN, 0};
  if (busy) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    volatile uint64_t spin = 0;
    while (ok && poll(&pfd, 1, 0) == 0 && std::chrono::steady_clock::now() < until)
      for (int i = 0; i < 1000; i++) spin = spin + 1;
  }
  ok = ok && poll(&pfd, 1, 5000) == 1;
  ok = ok && ASYNC_start_job(&job, w, &ret, async_submit, &p, sizeof p) == ASYNC_FINISH;
  ASYNC_WAIT_CTX_free(w);
  return ok && a.status == MPB_OK && a.out[0] == v + 1;
}
} // namespace

TEST_CASE("batcher: ASYNC requests complete through their wait fd, also in a child of fork", "[provider][batcher][async]") {
  Ctx c;
  mpbp_batcher *b = mpbp_batcher_new(8, 1000, 0, c.ctx);
  Fake f;
  mpbp_group g = group_of(f);
  CHECK(async_once(b, &g, 5));
  mpbp_batch_stats s;
  REQUIRE(mpbp_batcher_stats(b, "fake", &s) == 0);
  CHECK(s.async_items == 1);
  // a child of fork has no flush thread until it needs one
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    uint64_t in[2] = {1, 1}, out[2] = {0, 0};
    bool ok = mpbp_batch_submit(b, &g, in, out) == MPB_OK && out[0] == 2;
    ok = ok && async_once(b, &g, 9);
    mpbp_batcher_free(b);
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(async_once(b, &g, 11)); // the parent's thread still runs
  mpbp_batcher_free(b);
  ASYNC_cleanup_thread();
}

namespace {
// n paused ASYNC jobs (values v0, v0+1, ...) submitted now; wait_all resumes each once its fd
// fires and checks its result
struct Jobs {
  std::vector<AsyncArg> args;
  std::vector<AsyncArg *> ptrs;
  std::vector<ASYNC_WAIT_CTX *> w;
  std::vector<ASYNC_JOB *> job;
  Jobs(mpbp_batcher *b, const mpbp_group *g, size_t n, uint64_t v0) : args(n), ptrs(n), w(n), job(n, nullptr) {
    for (size_t i = 0; i < n; i++) {
      args[i] = AsyncArg{b, g, {v0 + i, 0}, {0, 0}, -1};
      ptrs[i] = &args[i];
      w[i] = ASYNC_WAIT_CTX_new();
      int ret = 0;
      REQUIRE(ASYNC_start_job(&job[i], w[i], &ret, async_submit, &ptrs[i], sizeof ptrs[i]) == ASYNC_PAUSE);
    }
  }
  void wait_all() {
    for (size_t i = 0; i < args.size(); i++) {
      size_t n = 1;
      OSSL_ASYNC_FD fd = -1;
      REQUIRE(ASYNC_WAIT_CTX_get_all_fds(w[i], &fd, &n) == 1);
      pollfd pfd{fd, POLLIN, 0};
      REQUIRE(poll(&pfd, 1, 5000) == 1);
      int ret = 0;
      REQUIRE(ASYNC_start_job(&job[i], w[i], &ret, async_submit, &ptrs[i], sizeof ptrs[i]) == ASYNC_FINISH);
      CHECK(args[i].status == MPB_OK);
      CHECK(args[i].out[0] == args[i].in[0] + 1);
      ASYNC_WAIT_CTX_free(w[i]);
    }
  }
};
} // namespace

namespace {
// One ASYNC job (value v0, v0 + 10, ...) now and one after each of the gaps (ms); then waits
// for all of them and checks their results.
void spaced_jobs(mpbp_batcher *b, const mpbp_group *g, uint64_t v0, std::vector<int> gaps_ms) {
  std::vector<std::unique_ptr<Jobs>> js;
  js.emplace_back(new Jobs(b, g, 1, v0));
  for (int ms : gaps_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    js.emplace_back(new Jobs(b, g, 1, v0 + 10 * js.size()));
  }
  for (auto &j : js) j->wait_all();
}
} // namespace

namespace {
// A batcher with a 300 ms delay: n ASYNC requests at once (one batch made by the delay), then n
// more; the milliseconds from the second n's submission to their results.
long second_batch_ms(mpb_ctx *ctx, const mpbp_group *g, size_t n, uint64_t v0) {
  mpbp_batcher *b = mpbp_batcher_new(16, 300000, 0, ctx);
  Jobs first(b, g, n, v0);
  first.wait_all();
  const auto t0 = std::chrono::steady_clock::now();
  Jobs second(b, g, n, v0 + 10);
  second.wait_all();
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  mpbp_batcher_free(b);
  return (long)ms;
}
} // namespace

// OpenSSL has no call that frees a paused job whose wait ctx was freed: such jobs are kept
// reachable here, as in prov_batch, so that LeakSanitizer does not count them.
static std::vector<ASYNC_JOB *> &g_orphans = *new std::vector<ASYNC_JOB *>; // never destroyed

TEST_CASE("batcher: hundreds of paused jobs, some of them abandoned, each gets its own result",
          "[provider][batcher][async]") {
  // More jobs in flight than the live table's first sizes (it grows at 128 and 256), resumed in
  // another order than they were made, while others' wait ctxs are freed before or after their
  // batch ran (OpenSSL cannot resume those: their ASYNC_JOBs stay unresumed, in g_orphans).
  Ctx c;
  Fake f;
  mpbp_group g = group_of(f);
  mpbp_batcher *b = mpbp_batcher_new(16, 200000, 0, c.ctx); // 200 ms: every batch is full but the last
  const size_t n = 300;
  Jobs j(b, &g, n, 10000);
  for (size_t i = 0; i < n; i += 7) { // abandoned while queued (or while its batch runs)
    ASYNC_WAIT_CTX_free(j.w[i]);
    j.w[i] = nullptr;
    g_orphans.push_back(j.job[i]);
  }
  size_t collected = 0;
  for (size_t k = 0; k < n; k++) {
    const size_t i = (k * 37) % n; // 37 and 300 are coprime: every job once
    if (!j.w[i]) continue;
    size_t nfd = 1;
    OSSL_ASYNC_FD fd = -1;
    REQUIRE(ASYNC_WAIT_CTX_get_all_fds(j.w[i], &fd, &nfd) == 1);
    pollfd pfd{fd, POLLIN, 0};
    REQUIRE(poll(&pfd, 1, 5000) == 1);
    if (k % 11 == 5) { // abandoned after its batch ran, before it was collected
      ASYNC_WAIT_CTX_free(j.w[i]);
      j.w[i] = nullptr;
      g_orphans.push_back(j.job[i]);
      continue;
    }
    int ret = 0;
    REQUIRE(ASYNC_start_job(&j.job[i], j.w[i], &ret, async_submit, &j.ptrs[i], sizeof j.ptrs[i]) == ASYNC_FINISH);
    CHECK(j.args[i].status == MPB_OK);
    CHECK(j.args[i].out[0] == j.args[i].in[0] + 1);
    ASYNC_WAIT_CTX_free(j.w[i]);
    j.w[i] = nullptr;
    collected++;
  }
  CHECK(collected > n / 2);
  size_t items = 0;
  for (size_t s : f.batches) items += s;
  CHECK(items == n); // abandoned requests were computed too (and freed by their batch)
  mpbp_batcher_free(b);
  ASYNC_cleanup_thread();
}

TEST_CASE("batcher: a batch flushed by the delay takes whole lane groups", "[provider][batcher][async]") {
  Ctx c;
  Fake f;
  mpbp_group g = group_of(f);
  SECTION("one request waited max_wait while more came, 9 queued: a group of 8 runs, the 9th waits") {
    // delay and max_wait 300 ms: all nine are queued within ~20 ms, so only the first has waited
    // it out when the first is due
    mpbp_batcher *b = mpbp_batcher_new(16, 300000, 300000, c.ctx);
    Jobs first(b, &g, 1, 100);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Jobs rest(b, &g, 8, 200);
    first.wait_all();
    rest.wait_all();
    CHECK(f.batches == std::vector<size_t>{8, 1});
    mpbp_batcher_free(b);
  }
  SECTION("requests closer together than the delay keep the batch open for each other") {
    // delay 200 ms, max_wait 2 s: three requests 80 ms apart (160 ms from first to last) are one
    // batch, 200 ms after the last (the first waited 360 ms)
    mpbp_batcher *b = mpbp_batcher_new(16, 200000, 2000000, c.ctx);
    CHECK(mpbp_batcher_max_wait_us(b) == 2000000);
    spaced_jobs(b, &g, 500, {80, 80});
    CHECK(f.batches == std::vector<size_t>{3});
    mpbp_batcher_free(b);
  }
  SECTION("...but never longer than max_wait after the oldest") {
    // delay 200 ms, max_wait 300 ms: requests at 0, 100 and 200 ms; at 300 ms the first has
    // waited max_wait (the last only 100 ms): all three run; a fourth at 450 ms runs alone
    mpbp_batcher *b = mpbp_batcher_new(16, 200000, 300000, c.ctx);
    spaced_jobs(b, &g, 600, {100, 100, 250});
    CHECK(f.batches == std::vector<size_t>{3, 1});
    mpbp_batcher_free(b);
  }
  SECTION("max_wait never below the delay; 0 means the default") {
    mpbp_batcher *b = mpbp_batcher_new(16, 5000, 100, c.ctx);
    CHECK(mpbp_batcher_max_wait_us(b) == 5000);
    mpbp_batcher_free(b);
    b = mpbp_batcher_new(16, 200, 0, c.ctx);
    CHECK(mpbp_batcher_max_wait_us(b) == MPBP_MAX_WAIT_US_DEFAULT);
    mpbp_batcher_free(b);
  }
  SECTION("a batch of a few made by the delay: the next runs as soon as as many are queued") {
    // delay 300 ms: two requests wait it out together; the next two then run at once
    CHECK(second_batch_ms(c.ctx, &g, 2, 700) < 150);
    CHECK(f.batches == std::vector<size_t>{2, 2});
  }
  SECTION("...but not a larger batch (more than EARLY_MAX): the next waits the delay again") {
    CHECK(second_batch_ms(c.ctx, &g, 5, 720) >= 250);
    CHECK(f.batches == std::vector<size_t>{5, 5});
  }
  SECTION("fewer than a group queued: all of them run together when the first is due") {
    mpbp_batcher *b = mpbp_batcher_new(16, 2000, 0, c.ctx);
    Jobs j(b, &g, 5, 300);
    j.wait_all();
    CHECK(f.batches == std::vector<size_t>{5});
    mpbp_batcher_free(b);
  }
  SECTION("a full batch runs without waiting for the delay") {
    mpbp_batcher *b = mpbp_batcher_new(8, 10000000, 0, c.ctx);  // 10 s: a timer flush would time out the poll
    Jobs j(b, &g, 8, 400);
    j.wait_all();
    CHECK(f.batches == std::vector<size_t>{8});
    mpbp_batcher_free(b);
  }
  ASYNC_cleanup_thread();
}

TEST_CASE("batcher: a lone ASYNC job goes solo (runs at once) after lone flushes; a probe that finds company ends it",
          "[provider][batcher][async]") {
  Ctx c;
  Fake f;
  mpbp_group g = group_of(f);
  mpbp_batcher *b = mpbp_batcher_new(8, 2000, 0, c.ctx);
  // four requests that each wait the delay and are flushed alone (SOLO_AFTER in batcher.c)
  for (uint64_t v = 0; v < 4; v++) REQUIRE(async_once(b, &g, 10 + v));
  // solo: the next 63 finish without pausing (SOLO_PROBE - 1), the 64th pauses as a probe
  for (uint64_t v = 0; v < 63; v++) {
    AsyncArg a{b, &g, {100 + v, 0}, {0, 0}, -1};
    AsyncArg *p = &a;
    ASYNC_WAIT_CTX *w = ASYNC_WAIT_CTX_new();
    ASYNC_JOB *job = nullptr;
    int ret = 0;
    REQUIRE(ASYNC_start_job(&job, w, &ret, async_submit, &p, sizeof p) == ASYNC_FINISH);
    CHECK(a.status == MPB_OK);
    CHECK(a.out[0] == 101 + v);
    ASYNC_WAIT_CTX_free(w);
  }
  {
    Jobs probe(b, &g, 1, 500);  // pauses (REQUIREd by Jobs)
    Jobs other(b, &g, 1, 600);  // finds the probe queued: company, so it pauses too
    probe.wait_all();
    other.wait_all();
  }
  // out of solo mode: a lone request waits its delay again
  REQUIRE(async_once(b, &g, 700));
  std::vector<size_t> want{1, 1, 1, 1};
  for (int i = 0; i < 63; i++) want.push_back(1);
  want.push_back(2);
  want.push_back(1);
  CHECK(f.batches == want);
  mpbp_batch_stats st;
  REQUIRE(mpbp_batcher_stats(b, "fake", &st) == 0);
  CHECK(st.items == 4 + 63 + 2 + 1);
  CHECK(st.async_items == 4 + 2 + 1);  // the solo runs did not pause
  mpbp_batcher_free(b);
  ASYNC_cleanup_thread();
}

TEST_CASE("batcher: lone flushes while the process is busy do not make it solo", "[provider][batcher][async]") {
  // A loaded server's requests may come further apart than the delay, so each is flushed alone;
  // but the process works meanwhile, so the wait costs nothing and the batcher must keep
  // queueing (batches grow as the flush thread runs them), not run each request inline.
  Ctx c;
  Fake f;
  mpbp_group g = group_of(f);
  mpbp_batcher *b = mpbp_batcher_new(8, 2000, 0, c.ctx);
  for (uint64_t v = 0; v < 8; v++) REQUIRE(async_once(b, &g, 10 + v, true));
  // not solo: an idle-waiting request still pauses (async_once REQUIREs the pause), and only
  // four idle lone flushes in a row (SOLO_AFTER) make the batcher solo. (The busy requests'
  // threads spin; where the machine took the CPU from one of them for most of its wait (ctest
  // -j2 on 2 cores), that flush counts as idle, and the fourth idle request already runs solo.)
  for (uint64_t v = 0; v < 3; v++) REQUIRE(async_once(b, &g, 30 + v));
  size_t paused_idle = 3;
  for (uint64_t v = 33; v < 35; v++) {
    AsyncArg a{b, &g, {v, 0}, {0, 0}, -1};
    AsyncArg *p = &a;
    ASYNC_WAIT_CTX *w = ASYNC_WAIT_CTX_new();
    ASYNC_JOB *job = nullptr;
    int ret = 0;
    const int r = ASYNC_start_job(&job, w, &ret, async_submit, &p, sizeof p);
    if (v == 34) CHECK(r == ASYNC_FINISH);  // solo now, at the latest
    if (r == ASYNC_PAUSE) {
      paused_idle++;
      size_t n = 1;
      OSSL_ASYNC_FD fd = -1;
      REQUIRE(ASYNC_WAIT_CTX_get_all_fds(w, &fd, &n) == 1);
      pollfd pfd{fd, POLLIN, 0};
      REQUIRE(poll(&pfd, 1, 5000) == 1);
      REQUIRE(ASYNC_start_job(&job, w, &ret, async_submit, &p, sizeof p) == ASYNC_FINISH);
    }
    CHECK(a.status == MPB_OK);
    CHECK(a.out[0] == v + 1);
    ASYNC_WAIT_CTX_free(w);
    if (r == ASYNC_FINISH) break;
  }
  mpbp_batch_stats st;
  REQUIRE(mpbp_batcher_stats(b, "fake", &st) == 0);
  CHECK(st.async_items == 8 + paused_idle);
  mpbp_batcher_free(b);
  ASYNC_cleanup_thread();
}

#ifdef __linux__
namespace {
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
// Keeps the calling thread busy (running, as a server with more work than its core) for ms of
// wall time; returns the share of it that the thread actually ran (its CPU clock).
double spin_ms(int ms) {
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = thread_cpu_ms();
  const auto until = t0 + std::chrono::milliseconds(ms);
  volatile uint64_t spin = 0;
  while (std::chrono::steady_clock::now() < until)
    for (int i = 0; i < 1000; i++) spin = spin + 1;
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return wall > 0 ? (thread_cpu_ms() - c0) / wall : 0.0;
}
// A spinning thread's batches are judged busy only when it got its core. Where the machine took
// most of it (other processes on every core: a parallel build beside the tests), the test's
// premise does not hold: such a scenario runs again on a fresh batcher, up to kAttempts times,
// and its batch shapes are checked on the first run where the thread got its core (the results
// and latencies on every run). If it never did, the shapes go unchecked, with a warning.
constexpr double kGotItsCore = 0.9;
constexpr int kAttempts = 3;
// run(): one run of the scenario on a fresh batcher, returning the least share of its wall time
// the spinning thread ran; check_shapes(): its batch shapes, for the last run.
template <class Scenario, class Shapes>
void with_core(Scenario run, Shapes check_shapes) {
  double best = 0.0;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const double least = run();
    if (least >= kGotItsCore) {
      check_shapes();
      return;
    }
    best = std::max(best, least);
  }
  WARN("the spinning thread ran at most " << best << " of its wall time in " << kAttempts
       << " runs (CPU contention): the busy batch shapes were not checked");
}
mpbp_batcher *busy_batcher(mpb_ctx *ctx) {  // delay 10 ms; busy: 400 ms / 800 ms
  mpbp_batcher *b = mpbp_batcher_new(16, 10000, 0, ctx);
  mpbp_batcher_set_busy_wait(b, 400000, 800000);
  return b;
}
double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

// Timing-sensitive (a busy thread must get most of its core): run alone (RUN_SERIAL, the [busy]
// tag in tests/provider/CMakeLists.txt), with margins of 10x the delay.
TEST_CASE("batcher: busy extension: a busy thread's requests wait for company, an idle one's do not",
          "[provider][batcher][async][busy]") {
  Ctx c;
  Fake f;
  mpbp_group g = group_of(f);
  // delay 10 ms (max_wait raised to it); busy: 400 ms after the newest, 800 ms after the oldest
  mpbp_batcher *b = mpbp_batcher_new(16, 10000, 0, c.ctx);
  CHECK(mpbp_batcher_busy_delay_us(b) == 0); // off in a new batcher
  mpbp_batcher_set_busy_wait(b, 400000, 100);
  CHECK(mpbp_batcher_busy_delay_us(b) == 400000);
  CHECK(mpbp_batcher_busy_max_wait_us(b) == 400000); // never below the busy delay
  mpbp_batcher_set_busy_wait(b, 400000, 800000);
  CHECK(mpbp_batcher_busy_max_wait_us(b) == 800000);
  mpbp_batch_stats st;
  SECTION("busy between requests 40 ms apart (4x the delay): one batch, run once the thread idles") {
    // two at once (company is likely), then one after each 40 ms of work
    std::unique_ptr<Fake> fr;
    mpbp_batcher *br = nullptr;
    std::vector<size_t> first; // the batches when the first three requests were done
    std::string stats1;        // and the counters then
    auto run = [&] {
      if (br) mpbp_batcher_free(br);
      fr.reset(new Fake);
      br = busy_batcher(c.ctx);
      mpbp_group gr = group_of(*fr);
      std::vector<std::unique_ptr<Jobs>> js;
      const auto t0 = std::chrono::steady_clock::now();
      double share = 1.0;
      js.emplace_back(new Jobs(br, &gr, 2, 100));
      for (int i = 0; i < 2; i++) {
        share = std::min(share, spin_ms(40));
        js.emplace_back(new Jobs(br, &gr, 1, 200 + 10 * i));
      }
      const double queued = ms_since(t0);
      for (auto &j : js) j->wait_all(); // idle in poll: the batch runs within a delay or two
      CHECK(ms_since(t0) - queued < 200.0);
      first = fr->batches;
      REQUIRE(mpbp_batcher_stats(br, "fake", &st) == 0);
      char buf[256];
      mpbp_batcher_stats_string(br, buf, sizeof buf);
      stats1 = buf;
      // the last batch held 4: a lone busy request now waits for company too
      std::vector<std::unique_ptr<Jobs>> more;
      more.emplace_back(new Jobs(br, &gr, 1, 300));
      share = std::min(share, spin_ms(40));
      more.emplace_back(new Jobs(br, &gr, 1, 310));
      for (auto &j : more) j->wait_all();
      return share;
    };
    with_core(run, [&] {
      CHECK(first == std::vector<size_t>{4});
      CHECK(st.extended == 1);
      CHECK(stats1.find(" ext=1") != std::string::npos);
      CHECK(fr->batches == std::vector<size_t>{4, 2});
    });
    mpbp_batcher_free(br);
  }
  SECTION("idle (asleep) between requests: each runs alone after the delay") {
    Jobs two(b, &g, 2, 150);
    two.wait_all();
    spaced_jobs(b, &g, 200, {40, 40});
    CHECK(f.batches == std::vector<size_t>{2, 1, 1, 1});
    REQUIRE(mpbp_batcher_stats(b, "fake", &st) == 0);
    CHECK(st.extended == 0);
  }
  SECTION("one busy thread with requests in two groups: both wait for company") {
    // the flush thread looks at the thread for both groups in one pass: the second keeps the
    // first's judgement
    std::unique_ptr<Fake> f1, f2;
    mpbp_batcher *br = nullptr;
    auto run = [&] {
      if (br) mpbp_batcher_free(br);
      f1.reset(new Fake);
      f2.reset(new Fake);
      br = busy_batcher(c.ctx);
      mpbp_group g1 = group_of(*f1), g2 = group_of(*f2, "fake2");
      std::vector<std::unique_ptr<Jobs>> js;
      js.emplace_back(new Jobs(br, &g1, 2, 500));
      js.emplace_back(new Jobs(br, &g2, 2, 600));
      const double share = spin_ms(40);
      js.emplace_back(new Jobs(br, &g1, 1, 700));
      js.emplace_back(new Jobs(br, &g2, 1, 800));
      for (auto &j : js) j->wait_all();
      return share;
    };
    with_core(run, [&] {
      CHECK(f1->batches == std::vector<size_t>{3});
      CHECK(f2->batches == std::vector<size_t>{3});
    });
    mpbp_batcher_free(br);
  }
  SECTION("a full batch still runs at once") {
    Jobs j(b, &g, 16, 300);
    j.wait_all();
    CHECK(f.batches == std::vector<size_t>{16});
  }
  SECTION("busy_delay <= the delay turns it off") {
    mpbp_batcher_set_busy_wait(b, 10000, 800000);
    CHECK(mpbp_batcher_busy_delay_us(b) == 0);
    CHECK(mpbp_batcher_busy_max_wait_us(b) == 0);
    std::vector<std::unique_ptr<Jobs>> js;
    js.emplace_back(new Jobs(b, &g, 2, 400));
    spin_ms(40);
    js.emplace_back(new Jobs(b, &g, 1, 410));
    for (auto &j : js) j->wait_all();
    CHECK(f.batches == std::vector<size_t>{2, 1});
  }
  mpbp_batcher_free(b);
  ASYNC_cleanup_thread();
}

TEST_CASE("batcher: busy extension: not for a thread that spins for its only request",
          "[provider][batcher][async][busy]") {
  // A thread that polls its job's fd in a busy loop looks like a loaded server, but no company
  // comes: with one request queued and the last batch of one, the batch runs after the delay.
  Ctx c;
  Fake f;
  mpbp_group g = group_of(f);
  mpbp_batcher *b = mpbp_batcher_new(16, 5000, 0, c.ctx);
  mpbp_batcher_set_busy_wait(b, 300000, 600000);
  for (uint64_t v = 0; v < 3; v++) {
    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE(async_once(b, &g, 10 * v, true));
    CHECK(ms_since(t0) < 150.0);
  }
  CHECK(f.batches == std::vector<size_t>{1, 1, 1});
  mpbp_batch_stats st;
  REQUIRE(mpbp_batcher_stats(b, "fake", &st) == 0);
  CHECK(st.extended == 0);
  mpbp_batcher_free(b);
  ASYNC_cleanup_thread();
}
#endif

#ifdef __linux__
namespace {
// Runs fn on a thread pinned to one CPU of this process's affinity (the idle flush's AUTO case:
// a server thread on its own core); false when no thread could be pinned.
template <class Fn>
bool on_pinned_thread(Fn fn) {
  cpu_set_t all;
  CPU_ZERO(&all);
  if (sched_getaffinity(0, sizeof all, &all) != 0) return false;
  int cpu = -1;
  for (int i = 0; i < CPU_SETSIZE && cpu < 0; i++)
    if (CPU_ISSET(i, &all)) cpu = i;
  if (cpu < 0) return false;
  bool pinned = false;
  std::thread t([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pinned = pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
    if (pinned) fn();
    ASYNC_cleanup_thread();
  });
  t.join();
  return pinned;
}
} // namespace

namespace {
// A context and a fake group, for the tests below.
struct FakeGroup {
  Ctx c;
  Fake f;
  mpbp_group g = group_of(f);
  // After the batches: the items they held in all and the largest; every one ran at an idle
  // moment (checked).
  std::pair<size_t, size_t> idle_batches(mpbp_batcher *b) {
    size_t items = 0, largest = 0;
    for (size_t n : f.batches) {
      items += n;
      largest = std::max(largest, n);
    }
    mpbp_batch_stats st;
    REQUIRE(mpbp_batcher_stats(b, "fake", &st) == 0);
    CHECK(st.idle == st.batches);
    return {items, largest};
  }
};
// The milliseconds n ASYNC jobs (values v0, v0 + 1, ...) took from submission to their results,
// submitted and collected on a thread pinned to one CPU.
double pinned_jobs_ms(mpbp_batcher *b, const mpbp_group *g, size_t n, uint64_t v0) {
  double ms = -1;
  REQUIRE(on_pinned_thread([&] {
    const auto t0 = std::chrono::steady_clock::now();
    Jobs jobs(b, g, n, v0);
    jobs.wait_all();
    ms = ms_since(t0);
  }));
  return ms;
}
// A closed loop on a thread pinned to one CPU, as a server's connections: `clients` ASYNC jobs
// paused at a time, each one that completes checked and replaced by a new one at once, until
// `total` have completed.
void pinned_closed_loop(mpbp_batcher *b, const mpbp_group *g, size_t clients, size_t total) {
  REQUIRE(on_pinned_thread([&] {
    std::vector<AsyncArg> args(clients);
    std::vector<AsyncArg *> ptrs(clients);
    std::vector<ASYNC_WAIT_CTX *> w(clients);
    std::vector<ASYNC_JOB *> job(clients, nullptr);
    std::vector<char> paused(clients, 0);
    uint64_t v = 1000;
    size_t started = 0, done = 0;
    auto start = [&](size_t i) {
      args[i] = AsyncArg{b, g, {v, 0}, {0, 0}, -1};
      v += 2;
      ptrs[i] = &args[i];
      int ret = 0;
      REQUIRE(ASYNC_start_job(&job[i], w[i], &ret, async_submit, &ptrs[i], sizeof ptrs[i]) == ASYNC_PAUSE);
      paused[i] = 1;
      started++;
    };
    for (size_t i = 0; i < clients; i++) {
      w[i] = ASYNC_WAIT_CTX_new();
      start(i);
    }
    while (done < total) {
      std::vector<pollfd> pf;
      std::vector<size_t> slot;
      for (size_t i = 0; i < clients; i++) {
        if (!paused[i]) continue;
        size_t n = 1;
        OSSL_ASYNC_FD fd = -1;
        REQUIRE(ASYNC_WAIT_CTX_get_all_fds(w[i], &fd, &n) == 1);
        pf.push_back(pollfd{fd, POLLIN, 0});
        slot.push_back(i);
      }
      REQUIRE(poll(pf.data(), pf.size(), 10000) > 0);
      for (size_t k = 0; k < pf.size(); k++) {
        if (!(pf[k].revents & POLLIN)) continue;
        const size_t i = slot[k];
        int ret = 0;
        REQUIRE(ASYNC_start_job(&job[i], w[i], &ret, async_submit, &ptrs[i], sizeof ptrs[i]) == ASYNC_FINISH);
        CHECK(args[i].status == MPB_OK);
        CHECK(args[i].out[0] == args[i].in[0] + 1);
        paused[i] = 0;
        done++;
        if (started < total) start(i);
      }
    }
    for (ASYNC_WAIT_CTX *x : w) ASYNC_WAIT_CTX_free(x);
  }));
}
// A batcher (max_wait_us the default) with idle flush set to mode before its first request.
mpbp_batcher *idle_batcher(mpb_ctx *ctx, size_t batch_size, unsigned delay_us, int mode) {
  mpbp_batcher *b = mpbp_batcher_new(batch_size, delay_us, 0, ctx);
  REQUIRE(b);
  mpbp_batcher_set_idle_flush(b, mode);
  return b;
}
} // namespace

// A thread pinned to one CPU blocks in poll() once its jobs are paused: its CPU idles, the idle
// thread notices, and the batch runs then instead of after the (here 20 s) delay. Margins: a
// SCHED_IDLE thread still gets a slice every ~0.5 s beside a CPU hog (ctest -j), so 10 s.
TEST_CASE_METHOD(FakeGroup, "batcher: idle flush: a pinned thread's batch runs when its CPU idles, not after the delay",
          "[provider][batcher][async][idle]") {
  mpbp_batcher *b = idle_batcher(c.ctx, 16, 20000000, MPBP_IDLE_FLUSH_AUTO);
  CHECK(mpbp_batcher_idle_flush(b) == MPBP_IDLE_FLUSH_AUTO);
  double ms1 = -1, ms2 = -1;
  int child_status = -1;
  REQUIRE(on_pinned_thread([&] {
    auto t0 = std::chrono::steady_clock::now();
    Jobs three(b, &g, 3, 100);
    three.wait_all();
    ms1 = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    Jobs five(b, &g, 5, 200);
    five.wait_all();
    ms2 = ms_since(t0);
    // a child of fork (pinned too: it is a copy of this thread) decides again and makes its own
    // idle thread
    pid_t pid = fork();
    if (pid == 0) {
      const auto c0 = std::chrono::steady_clock::now();
      Jobs two(b, &g, 2, 300);
      two.wait_all();
      const bool ok = ms_since(c0) < 10000.0 && mpbp_batcher_idle_flush_active(b) == 1;
      _exit(ok ? 0 : 1);
    }
    if (pid > 0) waitpid(pid, &child_status, 0);
  }));
  CHECK(mpbp_batcher_idle_flush_active(b) == 1);
  CHECK(ms1 < 10000.0);
  CHECK(ms2 < 10000.0);
  // the three, then the five, ran at idle moments, usually as one batch each (a moment between
  // two submissions, e.g. the thread waiting for a page, may split them: never more)
  size_t items = 0;
  for (size_t n : f.batches) items += n;
  CHECK(items == 8);
  CHECK(f.batches.size() >= 2);
  mpbp_batch_stats st;
  REQUIRE(mpbp_batcher_stats(b, "fake", &st) == 0);
  CHECK(st.idle >= 2);
  CHECK(st.idle == st.batches);
  char buf[256];
  mpbp_batcher_stats_string(b, buf, sizeof buf);
  CHECK(std::string(buf).find(" idle=" + std::to_string(st.idle)) != std::string::npos);
  CHECK(WIFEXITED(child_status));
  CHECK(WEXITSTATUS(child_status) == 0);
  mpbp_batcher_free(b);
}

// batch_size 4, 40 requests from one pinned thread: full batches wait for the idle moment too
// (the flush thread is woken for a first request only), and a moment that finds at least
// 4 x batch_size queued takes two batch sizes.
TEST_CASE_METHOD(FakeGroup, "batcher: idle flush: many full batches queued run at idle moments, two batch sizes at most each",
                 "[provider][batcher][async][idle]") {
  mpbp_batcher *b = idle_batcher(c.ctx, 4, 20000000, MPBP_IDLE_FLUSH_ON);
  CHECK(pinned_jobs_ms(b, &g, 40, 1000) < 10000.0);
  const auto [items, largest] = idle_batches(b);
  CHECK(items == 40);
  CHECK(largest <= 8);
  mpbp_batcher_free(b);
}

// Clients in a closed loop (batch_size the population, a 20 s delay: every batch runs at an idle
// moment). Each idle moment finds all of them queued. Of 8, with two items per lane group, it
// takes half, so that the two halves take turns; with a group of 8 (the fake's, the default) all
// of them. A population of 64 (SPREAD_MAX) is left whole.
TEST_CASE_METHOD(FakeGroup, "batcher: idle flush: a small population's batch takes half of it, in whole lane groups",
                 "[provider][batcher][async][idle]") {
  size_t clients = 8, largest_expected = 0;
  SECTION("two items per group: at most 4") {
    g.run_items = 2;
    largest_expected = 4;
  }
  SECTION("eight items per group: 8, all of them") { largest_expected = 8; }
  SECTION("64 clients, two items per group: 64, all of them") {
    g.run_items = 2;
    clients = largest_expected = 64;
  }
  mpbp_batcher *b = idle_batcher(c.ctx, clients, 20000000, MPBP_IDLE_FLUSH_ON);
  pinned_closed_loop(b, &g, clients, 10 * clients);
  const auto [items, largest] = idle_batches(b);
  CHECK(items == 10 * clients);
  CHECK(largest == largest_expected);
  mpbp_batcher_free(b);
}

TEST_CASE_METHOD(FakeGroup, "batcher: idle flush: off, or AUTO on an unpinned thread, waits for the delay",
          "[provider][batcher][async][idle]") {
  SECTION("off, pinned") {
    mpbp_batcher *b = idle_batcher(c.ctx, 16, 300000, MPBP_IDLE_FLUSH_OFF);
    CHECK(pinned_jobs_ms(b, &g, 2, 10) >= 250.0);
    CHECK(mpbp_batcher_idle_flush_active(b) == 0);
    mpbp_batch_stats st;
    REQUIRE(mpbp_batcher_stats(b, "fake", &st) == 0);
    CHECK(st.idle == 0);
    mpbp_batcher_free(b);
  }
  SECTION("AUTO, a thread that may run on several CPUs") {
    cpu_set_t all;
    CPU_ZERO(&all);
    REQUIRE(sched_getaffinity(0, sizeof all, &all) == 0);
    if (CPU_COUNT(&all) < 2) {
      WARN("one CPU only: AUTO is on for every thread here; not checked");
      return;
    }
    mpbp_batcher *b = idle_batcher(c.ctx, 16, 300000, MPBP_IDLE_FLUSH_AUTO);
    std::thread t([&] {
      const auto t0 = std::chrono::steady_clock::now();
      Jobs two(b, &g, 2, 20);
      two.wait_all();
      CHECK(ms_since(t0) >= 250.0);
      ASYNC_cleanup_thread();
    });
    t.join();
    CHECK(mpbp_batcher_idle_flush_active(b) == 0);
    // decided once: a later setting changes nothing
    mpbp_batcher_set_idle_flush(b, MPBP_IDLE_FLUSH_ON);
    CHECK(mpbp_batcher_idle_flush(b) == MPBP_IDLE_FLUSH_AUTO);
    mpbp_batcher_free(b);
  }
}

// AUTO watches the CPU of the thread that made the first ASYNC request; once another thread
// submits (a server with a thread per CPU), it is off for good and the delay decides.
TEST_CASE_METHOD(FakeGroup, "batcher: idle flush: AUTO turns off when a second thread submits", "[provider][batcher][async][idle]") {
  mpbp_batcher *b = idle_batcher(c.ctx, 16, 3000000, MPBP_IDLE_FLUSH_AUTO); // delay 3 s
  const double first = pinned_jobs_ms(b, &g, 1, 10); // (each call on a thread of its own)
  CHECK(mpbp_batcher_idle_flush_active(b) == 1);
  const double second = pinned_jobs_ms(b, &g, 1, 20);
  CHECK(mpbp_batcher_idle_flush_active(b) == 0);
  CHECK(first < 2000.0);   // the idle moment (a SCHED_IDLE thread beside a CPU hog: < ~0.5 s)
  CHECK(second >= 2500.0); // the delay
  mpbp_batch_stats st;
  REQUIRE(mpbp_batcher_stats(b, "fake", &st) == 0);
  CHECK(st.idle == 1);
  CHECK(f.batches == std::vector<size_t>{1, 1});
  mpbp_batcher_free(b);
}

// A pinned thread that spins while its job is paused never lets its CPU idle: the idle thread
// gets no moment, and the usual rules (here the 50 ms delay) still run its batch.
TEST_CASE_METHOD(FakeGroup, "batcher: idle flush: a thread that never idles still gets its results by the delay",
          "[provider][batcher][async][idle]") {
  mpbp_batcher *b = idle_batcher(c.ctx, 16, 50000, MPBP_IDLE_FLUSH_ON);
  bool ok = false;
  double ms = -1;
  REQUIRE(on_pinned_thread([&] {
    const auto t0 = std::chrono::steady_clock::now();
    ok = async_once(b, &g, 7, true) && async_once(b, &g, 9, true);
    ms = ms_since(t0);
  }));
  CHECK(ok);
  CHECK(ms < 5000.0);
  CHECK(mpbp_batcher_idle_flush_active(b) == 1);
  CHECK(f.batches == std::vector<size_t>{1, 1});
  mpbp_batcher_free(b);
}
#endif
