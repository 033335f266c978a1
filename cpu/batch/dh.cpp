// cpu/batch/dh.cpp: finite-field Diffie-Hellman batches over one group p:
//   keygen  r_i = g^x_i mod p,   shared  r_i = peer_i^x_i mod p.
// Both run on the exponentiation engine's powm (cpu/batch/powm.cpp: shared modulus, Montgomery
// constants once, IFMA groups of 8 where available, the GPU for large batches), constant time
// unless the context says MPB_CT_OFF.
#include <vector>

#include "batch/exp_engine.h"
#include "batch/validate.h"

using namespace mpb;
using namespace mpb::batch;

namespace {

// The common start and checks; true when the call is over (*status to return).
bool dh_begin(Call &call, mpb_ctx *ctx, uint64_t *r, const uint64_t *x, size_t x_width, const uint64_t *p,
              size_t width, size_t count, Settings &s, int *status) {
  if (begin_call(call, ctx, CallShape(width, count).gpu().exponent(x_width), s, status,
                 {{r, MPB_ARG_R}, {x, MPB_ARG_E}, {p, MPB_ARG_M}}))
    return true;
  int st;
  if ((st = check_modulus(call, p, 1, width, true, MPB_ARG_M))) return *status = st, true;
  if (mpn::normalized_size(p, width) == 1 && p[0] <= 3)
    return *status = call.fail(MPB_EVAL, MPB_ARG_M, 0, "DH modulus must be > 3"), true;
  return false;
}

// r_i = base_i^x_i mod p on the engine (base_stride 0: one base for every item).
int dh_run(Call &call, const Settings &s, uint64_t *r, const limb *base, size_t base_stride, const uint64_t *x,
           size_t x_width, const uint64_t *p, size_t width, size_t count) {
  PowmJob job;
  job.r = r, job.base = base, job.base_stride = base_stride;
  job.e = x, job.ew = x_width, job.e_stride = x_width;
  job.m = describe_moduli(p, 1, width);
  job.width = width, job.count = count;
  job.ct = s.ct != MPB_CT_OFF;
  return run_powm(call, s, job);
}

} // namespace

extern "C" {

MPB_API int mpb_batch_dh_keygen(mpb_ctx *ctx, uint64_t *r, uint64_t g, const uint64_t *x,
                                size_t x_width, const uint64_t *p, size_t width, size_t count,
                                mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (dh_begin(call, ctx, r, x, x_width, p, width, count, s, &st)) return st;
  std::vector<limb> gb(width, 0);
  gb[0] = g;
  if (g < 2 || !less_than(gb.data(), width, p, width))
    return call.fail(MPB_EVAL, MPB_ARG_A, -1, "generator must satisfy 2 <= g < p");
  return dh_run(call, s, r, gb.data(), 0, x, x_width, p, width, count);
}

MPB_API int mpb_batch_dh_shared(mpb_ctx *ctx, uint64_t *r, const uint64_t *peer,
                                const uint64_t *x, size_t x_width, const uint64_t *p,
                                size_t width, size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (dh_begin(call, ctx, r, x, x_width, p, width, count, s, &st)) return st;
  if ((st = check_ptr(call, peer, MPB_ARG_A))) return st;
  if ((st = check_dh_peer(call, peer, p, width, count))) return st;
  return dh_run(call, s, r, peer, width, x, x_width, p, width, count);
}

} // extern "C"
