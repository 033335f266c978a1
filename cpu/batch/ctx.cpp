// cpu/batch/ctx.cpp: the batch context (settings read atomically, so one context serves
// several threads at once), the per-call report (mpb_call_info), the per-thread scratch block
// and the cost model that decides how many threads a call uses.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "batch/tuning.h"

#include "batch/batch_internal.h"
#include "core/cpu_features.h"
#ifdef MPB_HAVE_CUDA
#include "cuda/host/gpu_backend.h"
#endif

namespace mpb {
namespace batch {

int max_threads() {
  int t = omp_get_max_threads();
  return t < 1 ? 1 : t;
}

Settings snapshot(const mpb_ctx *ctx) {
  Settings s;
  int t = ctx->threads.load(std::memory_order_relaxed);
  s.threads = t <= 0 ? max_threads() : t;
  s.backend = ctx->backend.load(std::memory_order_relaxed);
  s.ct = ctx->ct.load(std::memory_order_relaxed);
  s.mm_algo = ctx->mm_algo.load(std::memory_order_relaxed);
  s.mm_k = ctx->mm_k.load(std::memory_order_relaxed);
  s.ndev = ctx->ndev.load(std::memory_order_acquire);
  for (int i = 0; i < s.ndev; i++) s.dev[i] = ctx->dev[i].load(std::memory_order_relaxed);
  return s;
}

static double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Call::Call(mpb_call_info *info) : info_(info), t0_(now_s()) {}

int Call::fail(int status, int arg, int64_t index, const char *why) {
  if (info_) {
    mpb_call_info_init(info_);
    info_->status = status;
    info_->bad_arg = arg;
    info_->bad_index = index;
    info_->backend = MPB_BACKEND_CPU;
    info_->threads = 0;
    std::snprintf(info_->reason, sizeof info_->reason, "%s", why ? why : "");
    info_->seconds = now_s() - t0_;
  }
  return status;
}

void Call::choose(int backend, int threads, const char *why) {
  backend_ = backend;
  threads_ = threads;
  std::snprintf(why_, sizeof why_, "%s", why ? why : "");
}

int Call::finish(int status) {
  if (info_) {
    mpb_call_info_init(info_);
    info_->status = status;
    info_->backend = backend_;
    info_->threads = threads_;
    info_->constant_time = ct_ ? 1 : 0;
    info_->simd_items = simd_;
    std::memcpy(info_->reason, why_, sizeof info_->reason);
    info_->reason[sizeof info_->reason - 1] = 0;
    if (status != MPB_OK && status == MPB_EMEM)
      std::snprintf(info_->reason, sizeof info_->reason, "out of memory for the scratch block");
    info_->seconds = now_s() - t0_;
  }
  return status;
}

ThreadScratch::ThreadScratch(int threads, size_t per_thread, bool secret) : secret_(secret) {
  stride_ = (per_thread + 7) & ~size_t(7);  // 64-byte multiples between threads
  stride_ += 8;                             // and one spare line against false sharing
  bytes_ = (size_t)threads * stride_ * sizeof(limb) + 64;
  void *p = mem_alloc(bytes_);
  if (p) {
    uintptr_t u = (reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t(63);
    base_ = reinterpret_cast<limb *>(u);
    raw_ = p;
  } else {
    bytes_ = 1;  // not ok
  }
}

ThreadScratch::~ThreadScratch() {
  if (raw_) {
    if (secret_) secure_zero(raw_, bytes_);
    mem_free(raw_, bytes_);
  }
}

double work_mul(size_t n) { return (double)n * (double)n; }
double work_powm(size_t n, size_t ebits) {
  // ~ebits squarings + ebits/5 multiplications, each one n^2 product + n^2 for REDC
  return 2.4 * (double)ebits * (double)n * (double)n;
}

int threads_for(const Settings &s, size_t count, double work_per_item) {
  int t = s.threads;
  if ((size_t)t > count) t = (int)(count ? count : 1);
  if (t > 1 && (double)count * work_per_item < tuning::BATCH_PARALLEL_MIN_WORK) t = 1;
  return t < 1 ? 1 : t;
}

namespace {
// Estimated wall time, in scalar-item units, of `groups` tasks of cost c then `scalar` tasks of
// cost 1 handed to the least loaded of T threads.
double split_time(size_t groups, size_t scalar, double c, int T) {
  if (T < 1) T = 1;
  const size_t tasks = groups + scalar;
  if (tasks > (size_t)64 * (size_t)T) return ((double)groups * c + (double)scalar) / T + c;  // balanced
  std::vector<double> load((size_t)T, 0.0);
  for (size_t t = 0; t < tasks; t++) {
    auto it = std::min_element(load.begin(), load.end());
    *it += t < groups ? c : 1.0;
  }
  return *std::max_element(load.begin(), load.end());
}
} // namespace

IfmaSplit ifma_split(const Settings &s, size_t count, size_t limbs, double work_per_item, bool forced) {
  IfmaSplit r;
  const size_t full = count / 8, rem = count % 8;
  if (forced) {
    r.use = true, r.full = full, r.partial = rem > 0;
    return r;
  }
  const double c = 8.0 * tuning::batch_ifma_lane_cost(limbs);
  auto time_of = [&](size_t groups, size_t scalar) {
    const int T = threads_for(s, groups + scalar, work_per_item * (groups ? 8.0 : 1.0));
    return split_time(groups, scalar, c, T);
  };
  // more groups only when clearly faster (tuning::BATCH_IFMA_MARGIN)
  double best = time_of(0, count);  // all scalar
  if (full > 0) {
    const double t = time_of(full, rem);
    if (t < tuning::BATCH_IFMA_MARGIN * best) best = t, r.use = true, r.full = full;
  }
  if (rem > 0 && time_of(full + 1, 0) < tuning::BATCH_IFMA_MARGIN * best) r.use = true, r.full = full, r.partial = true;
  return r;
}

int grain_for(double work_per_item) {
  double g = tuning::BATCH_GRAIN_WORK / (work_per_item > 1.0 ? work_per_item : 1.0);
  return g < 1.0 ? 1 : g > 65536.0 ? 65536 : (int)g;
}

} // namespace batch
} // namespace mpb

using namespace mpb::batch;

extern "C" {

MPB_API void mpb_call_info_init(mpb_call_info *info) {
  if (!info) return;
  std::memset(info, 0, sizeof *info);
  info->bad_index = -1;
  info->backend = MPB_BACKEND_AUTO;
}

MPB_API int mpb_ctx_create(mpb_ctx **out) {
  if (!out) return MPB_ENULL;
  void *p = mpb::mem_alloc(sizeof(mpb_ctx));
  if (!p) return MPB_EMEM;
  *out = new (p) mpb_ctx();
  return MPB_OK;
}

MPB_API void mpb_ctx_destroy(mpb_ctx *ctx) {
  if (!ctx) return;
  ctx->~mpb_ctx();
  mpb::mem_free(ctx, sizeof(mpb_ctx));
}

MPB_API int mpb_ctx_set_threads(mpb_ctx *ctx, int threads) {
  if (!ctx) return MPB_ENULL;
  if (threads > 4096) return MPB_ERANGE;
  ctx->threads.store(threads <= 0 ? 0 : threads);
  return MPB_OK;
}

MPB_API int mpb_ctx_get_threads(const mpb_ctx *ctx) {
  if (!ctx) return 1;
  return snapshot(ctx).threads;
}

MPB_API int mpb_ctx_set_backend(mpb_ctx *ctx, int backend) {
  if (!ctx) return MPB_ENULL;
  if (backend < MPB_BACKEND_AUTO || backend > MPB_BACKEND_CUDA) return MPB_EVAL;
  ctx->backend.store(backend);
  return MPB_OK;
}

MPB_API int mpb_ctx_get_backend(const mpb_ctx *ctx) { return ctx ? ctx->backend.load() : MPB_BACKEND_AUTO; }

MPB_API int mpb_ctx_set_constant_time(mpb_ctx *ctx, int mode) {
  if (!ctx) return MPB_ENULL;
  if (mode < MPB_CT_DEFAULT || mode > MPB_CT_ON) return MPB_EVAL;
  ctx->ct.store(mode);
  return MPB_OK;
}

MPB_API int mpb_ctx_get_constant_time(const mpb_ctx *ctx) { return ctx ? ctx->ct.load() : MPB_CT_DEFAULT; }

MPB_API int mpb_ctx_set_mulmod_algo(mpb_ctx *ctx, int algo, int k) {
  if (!ctx) return MPB_ENULL;
  if (algo < MPB_MM_AUTO || algo > MPB_MM_MULTIPARTITE) return MPB_EVAL;
  if (k < 0 || k > 16) return MPB_EVAL;
  ctx->mm_algo.store(algo);
  ctx->mm_k.store(k);
  return MPB_OK;
}

MPB_API int mpb_ctx_set_devices(mpb_ctx *ctx, const int *devices, int n) {
  if (!ctx) return MPB_ENULL;
  if (n < 0 || n > MPB_MAX_DEVICES) return MPB_ERANGE;
  if (n > 0 && !devices) return MPB_ENULL;
  for (int i = 0; i < n; i++)
    if (devices[i] < 0) return MPB_EVAL;
  ctx->ndev.store(0, std::memory_order_release);  // calls starting now use all devices
  for (int i = 0; i < n; i++) ctx->dev[i].store(devices[i], std::memory_order_relaxed);
  ctx->ndev.store(n, std::memory_order_release);
  return MPB_OK;
}

MPB_API int mpb_ctx_get_devices(const mpb_ctx *ctx, int *devices, int cap) {
  if (!ctx) return MPB_ENULL;
  int n = ctx->ndev.load(std::memory_order_acquire);
  for (int i = 0; devices && i < n && i < cap; i++) devices[i] = ctx->dev[i].load(std::memory_order_relaxed);
  return n;
}

MPB_API int mpb_backend_available(int backend) {
  switch (backend) {
    case MPB_BACKEND_AUTO:
    case MPB_BACKEND_CPU:
    case MPB_BACKEND_MULTIPARTITE: return 1;
    case MPB_BACKEND_CPU_IFMA: return mpb::cpu::has_avx512ifma() ? 1 : 0;
#ifdef MPB_HAVE_CUDA
    case MPB_BACKEND_CUDA: return mpb::gpu::device_count(nullptr, 0) > 0 ? 1 : 0;
#endif
    default: return 0;
  }
}

MPB_API const char *mpb_backend_name(int backend) {
  switch (backend) {
    case MPB_BACKEND_AUTO: return "auto";
    case MPB_BACKEND_CPU: return "cpu";
    case MPB_BACKEND_CPU_IFMA: return "cpu-ifma";
    case MPB_BACKEND_MULTIPARTITE: return "multipartite";
    case MPB_BACKEND_CUDA: return "cuda";
    default: return "unknown";
  }
}

} // extern "C"
