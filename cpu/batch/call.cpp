// cpu/batch/call.cpp: the per-call plumbing of the batch API (cpu/batch/call.h): the settings
// snapshot, the report (Call -> mpb_call_info), the common start of every call (begin_call),
// and the per-call memory blocks.
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "batch/call.h"
#include "batch/validate.h"

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
    info_->backend = MPB_BACKEND_CPU_SCALAR;
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

bool begin_call(Call &call, const mpb_ctx *ctx, const CallShape &shape, Settings &s, int *status,
                std::initializer_list<PtrArg> ptrs) {
  const size_t width = shape.width, count = shape.count;
  if ((*status = check_shape(call, ctx, width, count, shape.row_mult))) return true;
  const size_t w2 = shape.extra_width;
  if (shape.extra == CallShape::Extra::ExponentWidth && !width_ok(w2))
    return *status = call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "exponent width out of range 1..1024 limbs"), true;
  if (shape.extra == CallShape::Extra::HalfWidth && (w2 < 1 || w2 > width))
    return *status = call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "half_width must be in 1..width"), true;
  s = snapshot(ctx);
  if ((*status = check_backend(call, s, shape.has_gpu))) return true;
  if (shape.early_arg != MPB_ARG_NONE && (*status = check_ptr(call, shape.early_ptr, shape.early_arg))) return true;
  if (count > 0) return (*status = check_ptrs(call, ptrs)) != MPB_OK;
  call.set_ct(shape.ct == CallShape::Ct::WhenOn ? s.ct == MPB_CT_ON
              : shape.ct == CallShape::Ct::UnlessOff ? s.ct != MPB_CT_OFF : false);
  call.choose(MPB_BACKEND_CPU_SCALAR, 1, "empty batch");
  *status = call.finish(MPB_OK);
  return true;
}

bool begin_conversion(Call &call, size_t width, size_t count, int *status, size_t row_bytes) {
  if (!width_ok(width))
    return *status = call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..1024 limbs"), true;
  if (count > (SIZE_MAX / 8) / width)
    return *status = call.fail(MPB_ERANGE, MPB_ARG_COUNT, -1, "count * width overflows"), true;
  if (row_bytes && count > SIZE_MAX / row_bytes)
    return *status = call.fail(MPB_ERANGE, MPB_ARG_COUNT, -1, "count * nbytes overflows"), true;
  if (count > 0) return false;
  call.choose(MPB_BACKEND_CPU_SCALAR, 1, "empty batch");
  *status = call.finish(MPB_OK);
  return true;
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

SecretBlock::SecretBlock(size_t limbs, bool secret) : limbs_(limbs), secret_(secret) {
  if (limbs) p_ = static_cast<limb *>(mem_alloc(limbs * sizeof(limb)));
}

SecretBlock::~SecretBlock() {
  if (p_) {
    if (secret_) secure_zero(p_, limbs_ * sizeof(limb));
    mem_free(p_, limbs_ * sizeof(limb));
  }
}

} // namespace batch
} // namespace mpb

extern "C" {

MPB_API void mpb_call_info_init(mpb_call_info *info) {
  if (!info) return;
  std::memset(info, 0, sizeof *info);
  info->bad_index = -1;
  info->backend = MPB_BACKEND_AUTO;
}

MPB_API const char *mpb_backend_name(int backend) {
  switch (backend) {
    case MPB_BACKEND_AUTO: return "auto";
    case MPB_BACKEND_CPU: return "cpu";
    case MPB_BACKEND_CPU_IFMA: return "cpu-ifma";
    case MPB_BACKEND_MULTIPARTITE: return "multipartite";
    case MPB_BACKEND_CUDA: return "cuda";
    case MPB_BACKEND_CPU_SCALAR: return "cpu-scalar";
    case MPB_BACKEND_CPU_AVX512: return "cpu-avx512";
    case MPB_BACKEND_CPU_AVX2: return "cpu-avx2";
    default: return "unknown";
  }
}

} // extern "C"
