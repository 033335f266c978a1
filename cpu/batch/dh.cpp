// cpu/batch/dh.cpp: finite-field Diffie-Hellman batches over one group p:
//   keygen  r_i = g^x_i mod p,   shared  r_i = peer_i^x_i mod p.
// The _bits calls take a public bound on the private exponents' length (the group's private
// length): the constant-time window loops then run over that many bits, not 64*x_width.
// Both run on the exponentiation engine's powm (cpu/batch/powm.cpp: shared modulus, Montgomery
// constants once, IFMA groups of 8 where available, the GPU for large batches), constant time
// unless the context says MPB_CT_OFF.
#include <cstdint>
#include <vector>

#include "core/ct.h"

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

// x_bits (the _bits calls): 1 <= x_bits <= 64*x_width, and every x < 2^x_bits. The rows are
// secret: their bits at and above x_bits are OR-ed together and only the verdict is declassified
// (a failing call then finds its first bad row, in variable time: the error path).
int check_x_bits(Call &call, const uint64_t *x, size_t x_width, size_t x_bits, size_t count) {
  if (x_bits == 0 || x_bits > 64 * x_width)
    return call.fail(MPB_ERANGE, MPB_ARG_E, -1, "x_bits must be in [1, 64 * x_width]");
  if (x_bits == 64 * x_width) return MPB_OK;
  const size_t k = x_bits / 64;
  const limb head = x_bits % 64 ? ~(limb)0 << (x_bits % 64) : ~(limb)0;
  auto high = [&](const uint64_t *row) {
    limb acc = row[k] & head;
    for (size_t j = k + 1; j < x_width; j++) acc |= row[j];
    return acc;
  };
  limb any = 0;
  for (size_t i = 0; i < count; i++) any |= high(x + i * x_width);
  if (declassify(any) == 0) return MPB_OK;
  size_t i = 0;
  while (declassify(high(x + i * x_width)) == 0) i++;
  return call.fail(MPB_EVAL, MPB_ARG_E, (int64_t)i, "private exponent x >= 2^x_bits");
}

// r_i = base_i^x_i mod p on the engine (base_stride 0: one base for every item); x_i < 2^x_bits.
int dh_run(Call &call, const Settings &s, uint64_t *r, const limb *base, size_t base_stride, const uint64_t *x,
           size_t x_width, size_t x_bits, const uint64_t *p, size_t width, size_t count) {
  PowmJob job;
  job.r = r, job.base = base, job.base_stride = base_stride;
  job.e = x, job.ew = x_width, job.e_stride = x_width, job.ebits = x_bits;
  job.base_two = base_stride == 0 && width >= 1 && base[0] == 2 && mpn::normalized_size(base, width) == 1;
  job.m = describe_moduli(p, 1, width);
  job.width = width, job.count = count;
  job.ct = s.ct != MPB_CT_OFF;
  return run_powm(call, s, job);
}

} // namespace

namespace {

int dh_keygen(mpb_ctx *ctx, uint64_t *r, uint64_t g, const uint64_t *x, size_t x_width, size_t x_bits,
              bool bits_given, const uint64_t *p, size_t width, size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (dh_begin(call, ctx, r, x, x_width, p, width, count, s, &st)) return st;
  std::vector<limb> gb(width, 0);
  gb[0] = g;
  if (g < 2 || !less_than(gb.data(), width, p, width))
    return call.fail(MPB_EVAL, MPB_ARG_A, -1, "generator must satisfy 2 <= g < p");
  if (bits_given && (st = check_x_bits(call, x, x_width, x_bits, count))) return st;
  return dh_run(call, s, r, gb.data(), 0, x, x_width, x_bits, p, width, count);
}

int dh_shared(mpb_ctx *ctx, uint64_t *r, const uint64_t *peer, const uint64_t *x, size_t x_width, size_t x_bits,
              bool bits_given, const uint64_t *p, size_t width, size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (dh_begin(call, ctx, r, x, x_width, p, width, count, s, &st)) return st;
  if ((st = check_ptr(call, peer, MPB_ARG_A))) return st;
  if ((st = check_dh_peer(call, peer, p, width, count))) return st;
  if (bits_given && (st = check_x_bits(call, x, x_width, x_bits, count))) return st;
  return dh_run(call, s, r, peer, width, x, x_width, x_bits, p, width, count);
}

} // namespace

extern "C" {

MPB_API int mpb_batch_dh_keygen(mpb_ctx *ctx, uint64_t *r, uint64_t g, const uint64_t *x,
                                size_t x_width, const uint64_t *p, size_t width, size_t count,
                                mpb_call_info *info) {
  return dh_keygen(ctx, r, g, x, x_width, SIZE_MAX, false, p, width, count, info);
}

MPB_API int mpb_batch_dh_shared(mpb_ctx *ctx, uint64_t *r, const uint64_t *peer,
                                const uint64_t *x, size_t x_width, const uint64_t *p,
                                size_t width, size_t count, mpb_call_info *info) {
  return dh_shared(ctx, r, peer, x, x_width, SIZE_MAX, false, p, width, count, info);
}

MPB_API int mpb_batch_dh_keygen_bits(mpb_ctx *ctx, uint64_t *r, uint64_t g, const uint64_t *x,
                                     size_t x_width, size_t x_bits, const uint64_t *p, size_t width,
                                     size_t count, mpb_call_info *info) {
  return dh_keygen(ctx, r, g, x, x_width, x_bits, true, p, width, count, info);
}

MPB_API int mpb_batch_dh_shared_bits(mpb_ctx *ctx, uint64_t *r, const uint64_t *peer,
                                     const uint64_t *x, size_t x_width, size_t x_bits,
                                     const uint64_t *p, size_t width, size_t count,
                                     mpb_call_info *info) {
  return dh_shared(ctx, r, peer, x, x_width, x_bits, true, p, width, count, info);
}

} // extern "C"
