// cpu/batch/gpu_attempt.h: the CUDA backend behind the batch API (cpu/batch/gpu.cpp), tried
// first when the settings say AUTO or CUDA. Each gpu_try_* runs the whole call on the GPU, or
// fails it (CUDA forced), or declines so that the caller continues on the CPU; the result is a
// value, never message text to inspect.
#pragma once
#include <cstddef>

#include "batch/call.h"

namespace mpb {
namespace batch {

struct GpuAttempt {
  enum class Outcome {
    Declined,  // continue on the CPU (`why` says why the GPU was not used)
    Done,      // the call ran on the GPU and is recorded in the Call
    Failed,    // the call must fail with `status` (CUDA forced)
  } outcome = Outcome::Declined;
  int status = MPB_OK;
  bool fell_back = false;  // Declined after the GPU itself failed (AUTO): report `why`
  char why[kReasonLen] = {0};

  bool finished() const { return outcome != Outcome::Declined; }
  // The call's return value when finished().
  int result(Call &call) const;
};

GpuAttempt gpu_try_powm(Call &call, const Settings &s, limb *r, const limb *base, size_t base_stride,
                        const limb *e, size_t ew, size_t e_stride, const limb *m, size_t m_stride,
                        size_t width, size_t count, bool ct);
GpuAttempt gpu_try_rsa(Call &call, const Settings &s, limb *out, const limb *c, const limb *p, const limb *q,
                       const limb *dp, const limb *dq, const limb *qinv, size_t width, size_t hw,
                       size_t key_rows, size_t count);
GpuAttempt gpu_try_mul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, size_t width,
                       size_t count);
// GF(2)[x]; mulmod after the field checks (f shared, f_width limbs).
GpuAttempt gpu_try_gf2x_mul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, size_t width,
                            size_t count);
GpuAttempt gpu_try_gf2x_sqr(Call &call, const Settings &s, limb *r, const limb *a, size_t width, size_t count);
GpuAttempt gpu_try_gf2x_mulmod(Call &call, const Settings &s, limb *r, const limb *a, const limb *b,
                               const limb *f, size_t f_width, size_t count);
// r = a*b mod m (m_rows 1 or count); even moduli only at the widths the GPU takes them
// (gpu::modmul_even_supported; otherwise the CPU, or MPB_EUNSUPPORTED when CUDA is forced).
GpuAttempt gpu_try_modmul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, const limb *m,
                          size_t m_rows, size_t width, size_t count);
// Whether this build has the CUDA backend (false: the cuda layer is its stub).
bool gpu_built();
// Whether a CUDA device is usable now.
bool gpu_usable();
// mpb_rsa_gpu_min_batch (batch.h) for these settings.
size_t rsa_gpu_min_batch(const Settings &s, size_t width);

} // namespace batch
} // namespace mpb
