// cpu/batch/gpu.cpp: the CUDA backend behind the batch API (backends AUTO and CUDA). Each
// gpu_try_* runs the whole call on the GPU, or fails it, or declines so that the caller
// continues on the CPU (cpu/batch/gpu_attempt.h):
//  - CUDA forced: an unsupported size gives MPB_EUNSUPPORTED, no usable device MPB_EDEVICE;
//  - AUTO: the GPU is used when it is built in, a device is usable, a kernel exists for the
//    size and the batch is large enough for the GPU to beat the context's CPU threads
//    (cpu/batch/tuning.h: the GPU_FIT_* model measured on an H200); a GPU error falls back to
//    the CPU with the reason reported.
// In a build without CUDA the backend is its stub (cuda/host/gpu_stub.cpp): every attempt
// declines with "built without CUDA". The kernels compute exactly what the CPU computes;
// tests/cuda/on_device compares them on a device.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "batch/gpu_attempt.h"
#include "batch/tuning.h"
#include "cuda/host/gpu_backend.h"
#include "cuda/tuning.h"

namespace mpb {
namespace batch {

namespace {

// Devices usable by this process, probed once (a function-local static: thread-safe; the CUDA
// runtime cannot gain devices later). why: the reason when there is none.
int usable_devices(const char **why) {
  struct Probe {
    int count;
    char reason[kReasonLen];
  };
  static const Probe probe = [] {
    Probe p{};
    p.count = gpu::device_count(p.reason, sizeof p.reason);
    return p;
  }();
  if (why) *why = probe.reason;
  return probe.count;
}

GpuAttempt declined(const char *why) {
  GpuAttempt g;
  std::snprintf(g.why, sizeof g.why, "%s", why);
  return g;
}

GpuAttempt failed(int status, const char *why) {
  GpuAttempt g;
  g.outcome = GpuAttempt::Outcome::Failed;
  g.status = status;
  std::snprintf(g.why, sizeof g.why, "%s", why);
  return g;
}

// The common decision: *go when the GPU should be tried; else the attempt is over, Declined
// with the reason or Failed (CUDA forced).
GpuAttempt decide(const Settings &s, size_t count, size_t min_batch, bool kernel_exists, const char *what,
                  bool *go) {
  *go = false;
  const bool forced = s.backend == MPB_BACKEND_CUDA;
  const char *mode = forced ? "cuda" : "auto";
  if (!forced && s.backend != MPB_BACKEND_AUTO) return GpuAttempt{};
  if (!gpu::built()) return declined("built without CUDA");
  GpuAttempt g;
  if (!kernel_exists) {
    std::snprintf(g.why, sizeof g.why, "%s: no GPU kernel for this size", mode);
    return forced ? failed(MPB_EUNSUPPORTED, g.why) : g;
  }
  if (!forced && min_batch == (size_t)-1) {
    std::snprintf(g.why, sizeof g.why, "auto: %d CPU threads out-run the GPU on %s at any batch", s.threads, what);
    return g;
  }
  if (!forced && count < min_batch) {
    std::snprintf(g.why, sizeof g.why, "auto: %zu items < GPU minimum %zu for %s on %d CPU threads", count, min_batch,
                  what, s.threads);
    return g;
  }
  const char *dev_why = "";
  if (usable_devices(&dev_why) == 0) {
    std::snprintf(g.why, sizeof g.why, "%s: no usable GPU (%.80s)", mode, dev_why);
    return forced ? failed(MPB_EDEVICE, g.why) : g;
  }
  *go = true;
  return g;
}

// After a GPU run: Done, Failed (forced CUDA), or Declined with fell_back (AUTO recomputes on
// the CPU).
GpuAttempt outcome(Call &call, const Settings &s, int st, const char *err, const char *what) {
  GpuAttempt g;
  const bool forced = s.backend == MPB_BACKEND_CUDA;
  if (st == MPB_OK) {
    char buf[kReasonLen];
    std::snprintf(buf, sizeof buf, "%s: %s on the GPU", forced ? "cuda" : "auto", what);
    call.choose(MPB_BACKEND_CUDA, 0, buf);
    g.outcome = GpuAttempt::Outcome::Done;
    return g;
  }
  if (forced) {
    std::snprintf(g.why, sizeof g.why, "cuda: %s", err);
    return failed(st, g.why);
  }
  g.fell_back = true;
  std::snprintf(g.why, sizeof g.why, "auto: GPU failed (%s), CPU fallback", err);
  return g;
}

gpu::Options options(const Settings &s) {
  gpu::Options o;
  o.devices = s.ndev ? s.dev : nullptr;
  o.ndevices = s.ndev;
  return o;
}

} // namespace

int GpuAttempt::result(Call &call) const {
  return outcome == Outcome::Done ? call.finish(MPB_OK) : call.fail(status, MPB_ARG_CTX, -1, why);
}

bool gpu_built() { return gpu::built(); }
bool gpu_usable() { return gpu::built() && usable_devices(nullptr) > 0; }

size_t rsa_gpu_min_batch(const Settings &s, size_t width) {
  if (s.backend != MPB_BACKEND_AUTO && s.backend != MPB_BACKEND_CUDA) return 0;
  if (width == 0 || width % 2 || !gpu::built() || !gpu::rsa_half_width_supported(width / 2)) return 0;
  if (usable_devices(nullptr) == 0) return 0;
  if (s.backend == MPB_BACKEND_CUDA) return 1;
  const size_t b = tuning::gpu_min_batch(tuning::gpu_fit(tuning::GPU_FIT_RSA, width), s.threads);
  return b == (size_t)-1 ? 0 : b;
}

GpuAttempt gpu_try_powm(Call &call, const Settings &s, limb *r, const limb *base, size_t base_stride,
                        const limb *e, size_t ew, size_t e_stride, const limb *m, size_t m_stride,
                        size_t width, size_t count, bool ct) {
  bool odd = true;  // one even modulus: the (slower) Barrett kernels' fit
  for (size_t i = 0; i < (m_stride == 0 ? 1 : count) && odd; i++) odd = (m[i * m_stride] & 1) != 0;
  const size_t min_batch = tuning::gpu_min_batch(
      tuning::gpu_fit(!odd ? tuning::GPU_FIT_POWM_EVEN : ct ? tuning::GPU_FIT_POWM_CT : tuning::GPU_FIT_POWM, width),
      s.threads);
  bool go;
  GpuAttempt g = decide(s, count, min_batch, gpu::powm_width_supported(width), "powm", &go);
  if (!go) return g;
  // the kernels take one base row per item: expand a shared base (DH keygen)
  std::vector<limb> expanded;
  if (base_stride == 0) {
    try {
      expanded.resize(count * width);
    } catch (...) {
      return failed(MPB_EMEM, "out of memory for the GPU's base rows");
    }
    for (size_t i = 0; i < count; i++) std::memcpy(&expanded[i * width], base, width * sizeof(limb));
    base = expanded.data();
  }
  gpu::Options o = options(s);
  o.constant_time = ct;
  char err[160] = {0};
  call.set_ct(ct);
  const int st = gpu::powm(r, base, e, ew, e_stride == 0 ? 1 : count, m, m_stride == 0 ? 1 : count, width, count,
                           o, err, sizeof err);
  return outcome(call, s, st, err, "powm");
}

GpuAttempt gpu_try_rsa(Call &call, const Settings &s, limb *out, const limb *c, const limb *p, const limb *q,
                       const limb *dp, const limb *dq, const limb *qinv, size_t width, size_t hw,
                       size_t key_rows, size_t count) {
  const bool kernel = width == 2 * hw && gpu::rsa_half_width_supported(hw);
  const size_t min_batch = tuning::gpu_min_batch(tuning::gpu_fit(tuning::GPU_FIT_RSA, width), s.threads);
  bool go;
  GpuAttempt g = decide(s, count, min_batch, kernel, "RSA-CRT", &go);
  if (!go) return g;
  gpu::Options o = options(s);
  o.constant_time = true;  // the GPU RSA kernel is always constant time
  char err[160] = {0};
  call.set_ct(true);
  const int st = gpu::rsa_crt(out, c, p, q, dp, dq, qinv, width, hw, key_rows, count, o, err, sizeof err);
  return outcome(call, s, st, err, "RSA-CRT");
}

GpuAttempt gpu_try_mul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, size_t width,
                       size_t count) {
  bool go;
  GpuAttempt g = decide(s, count, tuning::gpu_min_batch(tuning::gpu_fit(tuning::GPU_FIT_MUL, width), s.threads),
                        gpu::mul_width_supported(width), "mul", &go);
  if (!go) return g;
  char err[160] = {0};
  const int st = gpu::mul(r, a, b, width, count, tuning::GPU_MUL_DELAYED_CARRY, options(s), err, sizeof err);
  return outcome(call, s, st, err, "mul");
}

// GF(2)[x] products, squares and products mod one shared f (cuda/host/gpu_gf2x.cu). Inversion
// stays on the CPU (extended Euclid: data-dependent iteration counts, a poor fit for one
// thread per item).
namespace {
enum class Gf2xOp { Mul, Sqr, Mulmod };
GpuAttempt gpu_try_gf2x(Gf2xOp op, Call &call, const Settings &s, limb *r, const limb *a, const limb *b,
                        const limb *f, size_t width, size_t count) {
  const char *what = op == Gf2xOp::Mul ? "gf2x_mul" : op == Gf2xOp::Sqr ? "gf2x_sqr" : "gf2x_mulmod";
  const size_t min_batch = tuning::gpu_min_batch(
      op == Gf2xOp::Mul   ? tuning::gpu_fit(tuning::GPU_FIT_GF2X_MUL, width)
      : op == Gf2xOp::Sqr ? tuning::gpu_fit(tuning::GPU_FIT_GF2X_SQR, width)
                          : tuning::gpu_fit(tuning::GPU_FIT_GF2X_MULMOD, width),
      s.threads);
  const bool kernel =
      op == Gf2xOp::Mulmod ? gpu::gf2x_mulmod_width_supported(width) : gpu::gf2x_width_supported(width);
  bool go;
  GpuAttempt g = decide(s, count, min_batch, kernel, what, &go);
  if (!go) return g;
  const gpu::Options o = options(s);
  char err[160] = {0};
  const int st = op == Gf2xOp::Mul   ? gpu::gf2x_mul(r, a, b, width, count, o, err, sizeof err)
                 : op == Gf2xOp::Sqr ? gpu::gf2x_sqr(r, a, width, count, o, err, sizeof err)
                                     : gpu::gf2x_mulmod(r, a, b, f, width, count, o, err, sizeof err);
  return outcome(call, s, st, err, what);
}
} // namespace

GpuAttempt gpu_try_gf2x_mul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, size_t width,
                            size_t count) {
  return gpu_try_gf2x(Gf2xOp::Mul, call, s, r, a, b, nullptr, width, count);
}
GpuAttempt gpu_try_gf2x_sqr(Call &call, const Settings &s, limb *r, const limb *a, size_t width, size_t count) {
  return gpu_try_gf2x(Gf2xOp::Sqr, call, s, r, a, nullptr, nullptr, width, count);
}
GpuAttempt gpu_try_gf2x_mulmod(Call &call, const Settings &s, limb *r, const limb *a, const limb *b,
                               const limb *f, size_t f_width, size_t count) {
  return gpu_try_gf2x(Gf2xOp::Mulmod, call, s, r, a, b, f, f_width, count);
}

GpuAttempt gpu_try_modmul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, const limb *m,
                          size_t m_rows, size_t width, size_t count) {
  // even moduli: only the narrow one-thread kernel takes them; else the CPU under AUTO
  bool odd = true;
  for (size_t i = 0; i < m_rows && odd; i++) odd = (m[i * width] & 1) != 0;
  const bool forced = s.backend == MPB_BACKEND_CUDA;
  if (!odd && gpu::built() && !gpu::modmul_even_supported(width) && (forced || s.backend == MPB_BACKEND_AUTO)) {
    char why[kReasonLen];
    std::snprintf(why, sizeof why, "%s: even modulus, no GPU kernel for it at this width", forced ? "cuda" : "auto");
    return forced ? failed(MPB_EUNSUPPORTED, why) : declined(why);
  }
  const int kind = gpu::modmul_kernel_for(width);
  const size_t min_batch = tuning::gpu_min_batch(tuning::gpu_fit(tuning::GPU_FIT_MODMUL, width), s.threads);
  bool go;
  GpuAttempt g = decide(s, count, min_batch, kind != 0, "modmul", &go);
  if (!go) return g;
  char err[160] = {0};
  const int st = gpu::modmul(r, a, b, m, m_rows, width, count, options(s), err, sizeof err);
  return outcome(call, s, st, err, kind == 2 ? "modmul (multipartite block kernel)" : "modmul");
}

} // namespace batch
} // namespace mpb
