// cpu/batch/ctx.cpp: the batch context's C API (mpb_ctx_*): its settings are atomics, read
// once at the start of each call (snapshot, cpu/batch/call.cpp), so one context serves several
// threads at once; and which backends this build and machine can run.
#include <new>

#include "batch/call.h"
#include "batch/gpu_attempt.h"
#include "core/cpu_features.h"
#include "simd/powm_lanes.h"

using namespace mpb::batch;

namespace {
// A setting that takes one int in lo..hi (MPB_EVAL outside).
int set_in_range(mpb_ctx *ctx, std::atomic<int> mpb_ctx::*setting, int v, int lo, int hi) {
  if (!ctx) return MPB_ENULL;
  if (v < lo || v > hi) return MPB_EVAL;
  (ctx->*setting).store(v);
  return MPB_OK;
}
} // namespace

extern "C" {

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
  return set_in_range(ctx, &mpb_ctx::backend, backend, MPB_BACKEND_AUTO, MPB_BACKEND_CPU_AVX2);
}

MPB_API int mpb_ctx_get_backend(const mpb_ctx *ctx) { return ctx ? ctx->backend.load() : MPB_BACKEND_AUTO; }

MPB_API int mpb_ctx_set_constant_time(mpb_ctx *ctx, int mode) {
  return set_in_range(ctx, &mpb_ctx::ct, mode, MPB_CT_DEFAULT, MPB_CT_ON);
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
    case MPB_BACKEND_CPU_SCALAR:
    case MPB_BACKEND_MULTIPARTITE: return 1;
    case MPB_BACKEND_CPU_IFMA: return mpb::simd::ifma_available() ? 1 : 0;
    case MPB_BACKEND_CPU_AVX512: return mpb::cpu::has_avx512f() ? 1 : 0;
    case MPB_BACKEND_CPU_AVX2: return mpb::cpu::has_avx2() ? 1 : 0;
    case MPB_BACKEND_CUDA: return mpb::batch::gpu_usable() ? 1 : 0;
    default: return 0;
  }
}

} // extern "C"
