// cpu/batch/gf2x.cpp: batch GF(2)[x] operations on fixed-width rows (bit i = coefficient of
// x^i): product, square, product mod an irreducible f, inverse mod f. Multiplication and
// squaring come from the gf2x helpers' limb layer (cpu/gf2x/mul/gf2x_mul.h: PCLMUL/VPCLMULQDQ base
// cases, Karatsuba/Toom), reduction (sparse for trinomials / pentanomials, else Barrett) and
// inversion from cpu/gf2x/poly.h; items are spread over
// the OpenMP threads with per-thread scratch. mul, sqr and mulmod first try the CUDA backend
// (cpu/batch/gpu.cpp: AUTO by tuning::GPU_FIT_GF2X_*, or forced); inv always runs
// here (no GPU kernel: extended Euclid per item).
#include <cstdio>

#include "batch/call.h"
#include "batch/cost_model.h"
#include "batch/gpu_attempt.h"
#include "batch/validate.h"
#include "gf2x/mul/gf2x_mul.h"
#include "gf2x/poly.h"

using namespace mpb;
using namespace mpb::batch;

namespace {

int64_t degree(const limb *p, size_t n) {
  size_t m = mpn::normalized_size(p, n);
  return gf2xapi::deg(p, m);
}

// f validation + every row of a (and b) of degree < deg f.
int check_field(Call &call, const limb *f, size_t fw, const limb *a, const limb *b, size_t count) {
  int64_t df = degree(f, fw);
  if (df < 1) return call.fail(MPB_EVAL, MPB_ARG_M, 0, "f must have degree >= 1");
  for (size_t i = 0; i < count; i++) {
    if (degree(a + i * fw, fw) >= df) return call.fail(MPB_EVAL, MPB_ARG_A, (int64_t)i, "deg a >= deg f");
    if (b && degree(b + i * fw, fw) >= df) return call.fail(MPB_EVAL, MPB_ARG_B, (int64_t)i, "deg b >= deg f");
  }
  return MPB_OK;
}

} // namespace

extern "C" {

MPB_API int mpb_batch_gf2x_mul(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b,
                               size_t width, size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, count).products().gpu(), s, &st,
                 {{r, MPB_ARG_R}, {a, MPB_ARG_A}, {b, MPB_ARG_B}}))
    return st;
  const GpuAttempt g = gpu_try_gf2x_mul(call, s, r, a, b, width, count);
  if (g.finished()) return g.result(call);
  int T = threads_for(s, count, work_mul(width) / 4);
  ThreadScratch scr(T, gf2x::mul_itch(width, width), false);
  if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  call.choose(MPB_BACKEND_CPU_SCALAR, T, T > 1 ? "cpu: gf2x items over threads" : "cpu: gf2x, batch too small to thread");
  for_items(T, &scr, count, 0, [&](size_t i, limb *ws) {
    gf2x::mul(r + 2 * width * i, a + width * i, width, b + width * i, width, ws);
  });
  return call.finish(MPB_OK);
}

MPB_API int mpb_batch_gf2x_sqr(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, size_t width,
                               size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, count).products().gpu(), s, &st,
                 {{r, MPB_ARG_R}, {a, MPB_ARG_A}}))
    return st;
  const GpuAttempt g = gpu_try_gf2x_sqr(call, s, r, a, width, count);
  if (g.finished()) return g.result(call);
  int T = threads_for(s, count, (double)width);
  call.choose(MPB_BACKEND_CPU_SCALAR, T, T > 1 ? "cpu: gf2x items over threads" : "cpu: gf2x, batch too small to thread");
  for_items(T, nullptr, count, 0, [&](size_t i, limb *) { gf2x::sqr(r + 2 * width * i, a + width * i, width); });
  return call.finish(MPB_OK);
}

MPB_API int mpb_batch_gf2x_mulmod(mpb_ctx *ctx, uint64_t *r, const uint64_t *a,
                                  const uint64_t *b, const uint64_t *f, size_t f_width,
                                  size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(f_width, count).products().gpu().needs(f, MPB_ARG_M), s, &st,
                 {{r, MPB_ARG_R}, {a, MPB_ARG_A}, {b, MPB_ARG_B}}))
    return st;
  if ((st = check_field(call, f, f_width, a, b, count))) return st;
  const GpuAttempt g = gpu_try_gf2x_mulmod(call, s, r, a, b, f, f_width, count);
  if (g.finished()) return g.result(call);
  // f once for the call: the word-level sparse reduction for the trinomials and pentanomials it
  // applies to (the NIST fields), Barrett with mu = x^(2m) / f for any other f (cpu/gf2x/field.cpp)
  const size_t w = f_width, fn = mpn::normalized_size(f, w);
  SecretBlock mu(fn, false);
  mpb_gf2m_field F;
  if (!mu.ok() || gf2xapi::field_view(&F, f, fn, mu.get()) != MPB_OK)
    return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the field constants");
  const size_t mn = F.mn;  // limbs of a reduced element (<= w): the rows' significant part
  int T = threads_for(s, count, work_mul(mn) * (F.mu ? 3.0 : 1.5));
  ThreadScratch scr(T, gf2xapi::field_work_itch(&F), false);
  if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  call.choose(MPB_BACKEND_CPU_SCALAR, T,
              F.fast ? "cpu: gf2x product + sparse reduction mod f"
              : F.mu ? "cpu: gf2x product + Barrett reduction mod f"
                     : "cpu: gf2x product + reduction mod f");
  for_items(T, &scr, count, 0, [&](size_t i, limb *ws) {
    limb *ri = r + w * i;
    gf2xapi::field_mulmod(&F, ri, a + w * i, b + w * i, ws);  // (ri may be a's or b's row)
    if (w > mn) mpn::zero(ri + mn, w - mn);
  });
  return call.finish(MPB_OK);
}

MPB_API int mpb_batch_gf2x_inv(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *f,
                               size_t f_width, size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(f_width, count).needs(f, MPB_ARG_M), s, &st,
                 {{r, MPB_ARG_R}, {a, MPB_ARG_A}}))
    return st;
  if ((st = check_field(call, f, f_width, a, nullptr, count))) return st;
  const size_t w = f_width, fn = mpn::normalized_size(f, w);
  // results go to a temporary block first: invertibility is only known after computing, and
  // a failing call must leave r untouched
  size_t tmp_bytes = count * w * sizeof(limb);
  limb *tmp = static_cast<limb *>(mem_alloc(tmp_bytes));
  if (!tmp) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the result block");
  int T = threads_for(s, count, work_mul(w));
  ThreadScratch scr(T, 4 * fn + 8, false);
  if (!scr.ok()) {
    mem_free(tmp, tmp_bytes);
    return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  }
  int64_t first_bad = -1;
  for_items(T, &scr, count, 4, [&](size_t i, limb *ws) {
    const limb *ai = a + w * i;
    limb *ri = tmp + w * i;
    size_t an = mpn::normalized_size(ai, w);
    bool ok = an > 0 && gf2xapi::inv_euclid(ri, ai, an, f, fn, ws);
    if (ok) {
      if (w > fn) mpn::zero(ri + fn, w - fn);
    } else {
#pragma omp critical(mpb_gf2x_inv_bad)
      if (first_bad < 0 || (int64_t)i < first_bad) first_bad = (int64_t)i;
    }
  });
  if (first_bad >= 0) {
    mem_free(tmp, tmp_bytes);
    return call.fail(MPB_ENOTINV, MPB_ARG_A, first_bad, "element not invertible mod f");
  }
  mpn::copy(r, tmp, count * w);
  mem_free(tmp, tmp_bytes);
  call.choose(MPB_BACKEND_CPU_SCALAR, T, "cpu: gf2x extended Euclid per item");
  return call.finish(MPB_OK);
}

} // extern "C"
