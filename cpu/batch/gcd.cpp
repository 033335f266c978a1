// cpu/batch/gcd.cpp: batch gcd, mpb_batch_gcd (mpn::gcd: Lehmer's double-digit Euclid), items
// spread over the context's OpenMP threads with per-thread scratch sized once per call. CPU
// only: no CUDA kernel (forced CUDA fails with MPB_EUNSUPPORTED).
#include "batch/call.h"
#include "batch/cost_model.h"
#include "batch/validate.h"

using namespace mpb;
using namespace mpb::batch;

namespace {
// Work units (64x64-bit products) per item.
double work_gcd(size_t n) { return 8.0 * (double)n * (double)n + 64.0 * (double)n; }
} // namespace

extern "C" MPB_API int mpb_batch_gcd(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b,
                          size_t width, size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, count), s, &st,
                 {{r, MPB_ARG_R}, {a, MPB_ARG_A}, {b, MPB_ARG_B}}))
    return st;
  if ((st = check_aliases(call, r, MPB_ARG_R, a, b, count, width, count))) return st;
  int T = threads_for(s, count, work_gcd(width));
  const int grain = grain_for(work_gcd(width));
  ThreadScratch scr(T, mpn::gcd_itch(width), false);
  if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  call.choose(MPB_BACKEND_CPU_SCALAR, T, T > 1 ? "cpu: Lehmer gcd per item, items over threads"
                                        : "cpu: Lehmer gcd per item");
  for_items(T, &scr, count, grain, [&](size_t i, limb *ws) {
    const size_t o = i * width;
    mpn::gcd(r + o, a + o, b + o, width, ws);
  });
  return call.finish(MPB_OK);
}
