// cpu/batch/gpu.cpp: the CUDA backend behind the batch API (backends AUTO and CUDA).
// Each gpu_try_* either runs the whole call on the GPU (returns true, *status set) or
// declines (returns false, `why` says why) so that the caller continues on the CPU:
//  - CUDA forced: an unsupported size gives MPB_EUNSUPPORTED, no usable device MPB_EDEVICE;
//  - AUTO: the GPU is used when it is built in, a device is usable, a kernel exists for the
//    size and the batch is large enough (tuning.h: GPU_MIN_*; for exponentiations in
//    proportion to the CPU threads the CPU path would use); a GPU error falls back
//    to the CPU with the reason reported.
// The kernels compute exactly what the CPU computes; tests/cuda/ compares them on a device.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "batch/tuning.h"
#include "cuda/tuning.h"

#include "batch/batch_internal.h"

#ifdef MPB_HAVE_CUDA
#include "cuda/host/gpu_backend.h"
#endif

namespace mpb {
namespace batch {

#ifdef MPB_HAVE_CUDA
namespace {

// Devices usable by this process, probed once (a function-local static: thread-safe; the CUDA
// runtime cannot gain devices later).
int usable_devices(char *why, size_t len) {
  struct Probe {
    int count;
    char reason[112];
  };
  static const Probe probe = [] {
    Probe p{};
    p.count = gpu::device_count(p.reason, sizeof p.reason);
    return p;
  }();
  if (probe.count == 0 && why) std::snprintf(why, len, "%s", probe.reason);
  return probe.count;
}

// Common decision: true when the GPU should be tried. On false, *status is set when the
// call must fail (CUDA forced), else the caller continues on the CPU with `why`.
bool gpu_decide(const Settings &s, size_t count, size_t min_batch, bool kernel_exists,
                const char *what, int *status, char *why, size_t len) {
  *status = MPB_OK;
  const bool forced = s.backend == MPB_BACKEND_CUDA;
  if (!forced && s.backend != MPB_BACKEND_AUTO) return false;
  char dev_why[112] = {0};
  if (!kernel_exists) {
    std::snprintf(why, len, "%s: no GPU kernel for this size", forced ? "cuda" : "auto");
    if (forced) *status = MPB_EUNSUPPORTED;
    return false;
  }
  if (!forced && count < min_batch) {
    std::snprintf(why, len, "auto: %zu items < GPU minimum %zu for %s", count, min_batch, what);
    return false;
  }
  if (usable_devices(dev_why, sizeof dev_why) == 0) {
    std::snprintf(why, len, "%s: no usable GPU (%s)", forced ? "cuda" : "auto", dev_why);
    if (forced) *status = MPB_EDEVICE;
    return false;
  }
  return true;
}

// After a GPU attempt: true when the call is finished (success, or a failure of forced CUDA).
bool gpu_done(Call &call, const Settings &s, int st, const char *err, const char *what,
              int *status, char *why, size_t len) {
  if (st == MPB_OK) {
    char buf[112];
    std::snprintf(buf, sizeof buf, "%s: %s on the GPU", s.backend == MPB_BACKEND_CUDA ? "cuda" : "auto", what);
    call.choose(MPB_BACKEND_CUDA, 0, buf);
    *status = MPB_OK;
    return true;
  }
  if (s.backend == MPB_BACKEND_CUDA) {
    *status = st;
    std::snprintf(why, len, "cuda: %s", err);
    return true;
  }
  std::snprintf(why, len, "auto: GPU failed (%s), CPU fallback", err);
  return false;
}

} // namespace
#endif

bool gpu_try_powm(Call &call, const Settings &s, limb *r, const limb *base, size_t base_stride,
                  const limb *e, size_t ew, size_t e_stride, const limb *m, size_t m_stride,
                  size_t width, size_t count, bool ct, int *status, char *why, size_t len) {
  *status = MPB_OK;
#ifdef MPB_HAVE_CUDA
  const size_t min_batch = std::max(tuning::GPU_MIN_BATCH_EXP, tuning::GPU_MIN_ITEMS_PER_CPU_THREAD_POWM * (size_t)s.threads);
  if (!gpu_decide(s, count, min_batch, gpu::powm_width_supported(width), "powm", status, why, len))
    return *status != MPB_OK;
  // the kernels take one base row per item: expand a shared base (DH keygen)
  std::vector<limb> expanded;
  if (base_stride == 0) {
    try {
      expanded.resize(count * width);
    } catch (...) {
      *status = MPB_EMEM;
      return true;
    }
    for (size_t i = 0; i < count; i++) std::memcpy(&expanded[i * width], base, width * sizeof(limb));
    base = expanded.data();
  }
  gpu::Options o;
  o.devices = s.ndev ? s.dev : nullptr;
  o.ndevices = s.ndev;
  o.constant_time = ct;
  char err[160] = {0};
  call.set_ct(ct);
  int st = gpu::powm(r, base, e, ew, e_stride == 0 ? 1 : count, m, m_stride == 0 ? 1 : count, width, count, o,
                     err, sizeof err);
  return gpu_done(call, s, st, err, "powm", status, why, len);
#else
  (void)call, (void)r, (void)base, (void)base_stride, (void)e, (void)ew, (void)e_stride, (void)m,
      (void)m_stride, (void)width, (void)count, (void)ct;
  std::snprintf(why, len, "%s", "built without CUDA");
  if (s.backend == MPB_BACKEND_CUDA) *status = MPB_EUNSUPPORTED;
  return *status != MPB_OK;
#endif
}

bool gpu_try_rsa(Call &call, const Settings &s, limb *out, const limb *c, const limb *p, const limb *q,
                 const limb *dp, const limb *dq, const limb *qinv, size_t width, size_t hw, size_t key_rows,
                 size_t count, int *status, char *why, size_t len) {
  *status = MPB_OK;
#ifdef MPB_HAVE_CUDA
  bool kernel = width == 2 * hw && gpu::rsa_half_width_supported(hw);
  const size_t min_batch = std::max(tuning::GPU_MIN_BATCH_EXP, tuning::GPU_MIN_ITEMS_PER_CPU_THREAD_RSA * (size_t)s.threads);
  if (!gpu_decide(s, count, min_batch, kernel, "RSA-CRT", status, why, len))
    return *status != MPB_OK;
  gpu::Options o;
  o.devices = s.ndev ? s.dev : nullptr;
  o.ndevices = s.ndev;
  o.constant_time = true;  // the GPU RSA kernel is always constant time
  char err[160] = {0};
  call.set_ct(true);
  int st = gpu::rsa_crt(out, c, p, q, dp, dq, qinv, width, hw, key_rows, count, o, err, sizeof err);
  return gpu_done(call, s, st, err, "RSA-CRT", status, why, len);
#else
  (void)call, (void)out, (void)c, (void)p, (void)q, (void)dp, (void)dq, (void)qinv, (void)width, (void)hw,
      (void)key_rows, (void)count;
  std::snprintf(why, len, "%s", "built without CUDA");
  if (s.backend == MPB_BACKEND_CUDA) *status = MPB_EUNSUPPORTED;
  return *status != MPB_OK;
#endif
}

bool gpu_try_mul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, size_t width,
                 size_t count, int *status, char *why, size_t len) {
  *status = MPB_OK;
#ifdef MPB_HAVE_CUDA
  if (!gpu_decide(s, count, tuning::GPU_MIN_BATCH_MUL, gpu::mul_width_supported(width), "mul", status, why, len))
    return *status != MPB_OK;
  gpu::Options o;
  o.devices = s.ndev ? s.dev : nullptr;
  o.ndevices = s.ndev;
  char err[160] = {0};
  int st = gpu::mul(r, a, b, width, count, tuning::GPU_MUL_DELAYED_CARRY, o, err, sizeof err);
  return gpu_done(call, s, st, err, "mul", status, why, len);
#else
  (void)call, (void)r, (void)a, (void)b, (void)width, (void)count;
  std::snprintf(why, len, "%s", "built without CUDA");
  if (s.backend == MPB_BACKEND_CUDA) *status = MPB_EUNSUPPORTED;
  return *status != MPB_OK;
#endif
}

// GF(2)[x] products, squares and products mod one shared f (cuda/host/gpu_gf2x.cu). Inversion
// stays on the CPU (extended Euclid: data-dependent iteration counts, a poor fit for one
// thread per item).
namespace {
enum class Gf2xOp { Mul, Sqr, Mulmod };
bool gpu_try_gf2x(Gf2xOp op, Call &call, const Settings &s, limb *r, const limb *a, const limb *b,
                  const limb *f, size_t width, size_t count, int *status, char *why, size_t len) {
  *status = MPB_OK;
#ifdef MPB_HAVE_CUDA
  const char *what = op == Gf2xOp::Mul ? "gf2x_mul" : op == Gf2xOp::Sqr ? "gf2x_sqr" : "gf2x_mulmod";
  const size_t min_batch = op == Gf2xOp::Mul   ? tuning::GPU_MIN_BATCH_GF2X_MUL
                           : op == Gf2xOp::Sqr ? tuning::GPU_MIN_BATCH_GF2X_SQR
                                               : tuning::GPU_MIN_BATCH_GF2X_MULMOD;
  const bool kernel = op == Gf2xOp::Mulmod ? gpu::gf2x_mulmod_width_supported(width) : gpu::gf2x_width_supported(width);
  if (!gpu_decide(s, count, min_batch, kernel, what, status, why, len)) return *status != MPB_OK;
  gpu::Options o;
  o.devices = s.ndev ? s.dev : nullptr;
  o.ndevices = s.ndev;
  char err[160] = {0};
  int st = op == Gf2xOp::Mul   ? gpu::gf2x_mul(r, a, b, width, count, o, err, sizeof err)
           : op == Gf2xOp::Sqr ? gpu::gf2x_sqr(r, a, width, count, o, err, sizeof err)
                               : gpu::gf2x_mulmod(r, a, b, f, width, count, o, err, sizeof err);
  return gpu_done(call, s, st, err, what, status, why, len);
#else
  (void)op, (void)call, (void)r, (void)a, (void)b, (void)f, (void)width, (void)count;
  std::snprintf(why, len, "%s", "built without CUDA");
  if (s.backend == MPB_BACKEND_CUDA) *status = MPB_EUNSUPPORTED;
  return *status != MPB_OK;
#endif
}
} // namespace

bool gpu_try_gf2x_mul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, size_t width,
                      size_t count, int *status, char *why, size_t len) {
  return gpu_try_gf2x(Gf2xOp::Mul, call, s, r, a, b, nullptr, width, count, status, why, len);
}
bool gpu_try_gf2x_sqr(Call &call, const Settings &s, limb *r, const limb *a, size_t width, size_t count,
                      int *status, char *why, size_t len) {
  return gpu_try_gf2x(Gf2xOp::Sqr, call, s, r, a, nullptr, nullptr, width, count, status, why, len);
}
bool gpu_try_gf2x_mulmod(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, const limb *f,
                         size_t f_width, size_t count, int *status, char *why, size_t len) {
  return gpu_try_gf2x(Gf2xOp::Mulmod, call, s, r, a, b, f, f_width, count, status, why, len);
}

bool gpu_try_modmul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, const limb *m,
                    size_t m_rows, size_t width, size_t count, int *status, char *why, size_t len) {
  *status = MPB_OK;
#ifdef MPB_HAVE_CUDA
  // even moduli: only the narrow one-thread kernel takes them; else the CPU under AUTO
  bool odd = true;
  for (size_t i = 0; i < m_rows && odd; i++) odd = (m[i * width] & 1) != 0;
  const int kind = gpu::modmul_kernel_for(width);
  if (!odd && !gpu::modmul_even_supported(width) &&
      (s.backend == MPB_BACKEND_CUDA || s.backend == MPB_BACKEND_AUTO)) {
    std::snprintf(why, len, "%s: even modulus, no GPU kernel for it at this width",
                  s.backend == MPB_BACKEND_CUDA ? "cuda" : "auto");
    if (s.backend == MPB_BACKEND_CUDA) *status = MPB_EUNSUPPORTED;
    return *status != MPB_OK;
  }
  const size_t min_batch = kind == 2 ? tuning::GPU_MIN_BATCH_MODMUL_BLOCK : tuning::GPU_MIN_BATCH_MODMUL;
  if (!gpu_decide(s, count, min_batch, kind != 0, "modmul", status, why, len)) return *status != MPB_OK;
  gpu::Options o;
  o.devices = s.ndev ? s.dev : nullptr;
  o.ndevices = s.ndev;
  char err[160] = {0};
  int st = gpu::modmul(r, a, b, m, m_rows, width, count, o, err, sizeof err);
  return gpu_done(call, s, st, err, kind == 2 ? "modmul (multipartite block kernel)" : "modmul", status, why, len);
#else
  (void)call, (void)r, (void)a, (void)b, (void)m, (void)m_rows, (void)width, (void)count;
  std::snprintf(why, len, "%s", "built without CUDA");
  if (s.backend == MPB_BACKEND_CUDA) *status = MPB_EUNSUPPORTED;
  return *status != MPB_OK;
#endif
}

} // namespace batch
} // namespace mpb
