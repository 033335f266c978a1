// cpu/batch/arith.cpp: batch integer add / sub / mul / sqr on fixed-width rows, items spread
// over the context's OpenMP threads; products use the mpn dispatchers with per-thread scratch.
#include "batch/call.h"
#include "batch/cost_model.h"
#include "batch/gpu_attempt.h"
#include "batch/validate.h"

using namespace mpb;
using namespace mpb::batch;

namespace {

int addsub(bool sub, mpb_ctx *ctx, uint64_t *r, uint64_t *cy, const uint64_t *a, const uint64_t *b,
           size_t width, size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, count), s, &st,
                 {{r, MPB_ARG_R}, {a, MPB_ARG_A}, {b, MPB_ARG_B}}))
    return st;
  int T = threads_for(s, count, (double)width);
  call.choose(MPB_BACKEND_CPU_SCALAR, T, T > 1 ? "cpu: items over threads" : "cpu: batch too small to thread");
  for_items(T, nullptr, count, 0, [&](size_t i, limb *) {
    const size_t o = i * width;
    limb c = sub ? mpn::sub_n(r + o, a + o, b + o, width) : mpn::add_n(r + o, a + o, b + o, width);
    if (cy) cy[i] = c;
  });
  return call.finish(MPB_OK);
}

int mulsqr(bool sqr, mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b, size_t width,
           size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, count).products().gpu(!sqr), s, &st,
                 {{r, MPB_ARG_R}, {a, MPB_ARG_A}}))
    return st;
  if (!sqr && (st = check_ptr(call, b, MPB_ARG_B))) return st;
  if (!sqr) {
    const GpuAttempt g = gpu_try_mul(call, s, r, a, b, width, count);
    if (g.finished()) return g.result(call);
  }
  int T = threads_for(s, count, work_mul(width));
  size_t itch = sqr ? mpn::sqr_itch(width) : mpn::mul_n_itch(width);
  ThreadScratch scr(T, itch, false);
  if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  call.choose(MPB_BACKEND_CPU_SCALAR, T, T > 1 ? "cpu: items over threads" : "cpu: batch too small to thread");
  for_items(T, &scr, count, 0, [&](size_t i, limb *ws) {
    const size_t o = i * width;
    if (sqr) mpn::sqr(r + 2 * o, a + o, width, ws);
    else mpn::mul_n(r + 2 * o, a + o, b + o, width, ws);
  });
  return call.finish(MPB_OK);
}

} // namespace

extern "C" {
MPB_API int mpb_batch_add(mpb_ctx *ctx, uint64_t *r, uint64_t *carry, const uint64_t *a,
                          const uint64_t *b, size_t width, size_t count, mpb_call_info *info) {
  return addsub(false, ctx, r, carry, a, b, width, count, info);
}
MPB_API int mpb_batch_sub(mpb_ctx *ctx, uint64_t *r, uint64_t *borrow, const uint64_t *a,
                          const uint64_t *b, size_t width, size_t count, mpb_call_info *info) {
  return addsub(true, ctx, r, borrow, a, b, width, count, info);
}
MPB_API int mpb_batch_mul(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b,
                          size_t width, size_t count, mpb_call_info *info) {
  return mulsqr(false, ctx, r, a, b, width, count, info);
}
MPB_API int mpb_batch_sqr(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, size_t width,
                          size_t count, mpb_call_info *info) {
  return mulsqr(true, ctx, r, a, nullptr, width, count, info);
}
}
