// cpu/batch/dh.cpp: finite-field Diffie-Hellman batches over one group p:
//   keygen  r_i = g^x_i mod p,   shared  r_i = peer_i^x_i mod p.
// Both run on the batch exponentiation engine (shared modulus: Montgomery constants once,
// IFMA groups of 8 where available), constant time unless the context says MPB_CT_OFF.
#include <vector>

#include "batch/batch_internal.h"

using namespace mpb;
using namespace mpb::batch;

namespace {

int dh_common(Call &call, mpb_ctx *ctx, uint64_t *r, const uint64_t *x, size_t x_width,
              const uint64_t *p, size_t width, size_t count, Settings &s) {
  int st;
  if ((st = check_shape(call, ctx, width, count, 1))) return st;
  if (!width_ok(x_width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "exponent width out of range 1..1024 limbs");
  s = snapshot(ctx);
  if ((st = check_backend(call, s, true))) return st;
  if (count == 0) return MPB_OK;
  if ((st = check_ptr(call, r, MPB_ARG_R)) || (st = check_ptr(call, x, MPB_ARG_E)) ||
      (st = check_ptr(call, p, MPB_ARG_M)))
    return st;
  if ((st = check_modulus(call, p, 1, width, true, MPB_ARG_M))) return st;
  if (mpn::normalized_size(p, width) == 1 && p[0] <= 3)
    return call.fail(MPB_EVAL, MPB_ARG_M, 0, "DH modulus must be > 3");
  return MPB_OK;
}

} // namespace

extern "C" {

MPB_API int mpb_batch_dh_keygen(mpb_ctx *ctx, uint64_t *r, uint64_t g, const uint64_t *x,
                                size_t x_width, const uint64_t *p, size_t width, size_t count,
                                mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st = dh_common(call, ctx, r, x, x_width, p, width, count, s);
  if (st) return st;
  if (count == 0) {
    call.choose(MPB_BACKEND_CPU, 1, "empty batch");
    return call.finish(MPB_OK);
  }
  std::vector<limb> gb(width, 0);
  gb[0] = g;
  if (g < 2 || !less_than(gb.data(), width, p, width))
    return call.fail(MPB_EVAL, MPB_ARG_A, -1, "generator must satisfy 2 <= g < p");
  return powm_engine(call, s, r, gb.data(), 0, x, x_width, x_width, p, 0, width, count,
                     s.ct != MPB_CT_OFF);
}

MPB_API int mpb_batch_dh_shared(mpb_ctx *ctx, uint64_t *r, const uint64_t *peer,
                                const uint64_t *x, size_t x_width, const uint64_t *p,
                                size_t width, size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st = dh_common(call, ctx, r, x, x_width, p, width, count, s);
  if (st) return st;
  if (count == 0) {
    call.choose(MPB_BACKEND_CPU, 1, "empty batch");
    return call.finish(MPB_OK);
  }
  if ((st = check_ptr(call, peer, MPB_ARG_A))) return st;
  if ((st = check_dh_peer(call, peer, p, width, count))) return st;
  return powm_engine(call, s, r, peer, width, x, x_width, x_width, p, 0, width, count,
                     s.ct != MPB_CT_OFF);
}

} // extern "C"
