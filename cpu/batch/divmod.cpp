// cpu/batch/divmod.cpp: batch integer division with remainder, mpb_batch_divmod (shared divisor or
// one per item, mpn::tdiv_qr), items spread over the context's OpenMP threads with per-thread
// scratch sized once per call. CPU only: no CUDA kernel (forced CUDA fails with MPB_EUNSUPPORTED).
#include "batch/call.h"
#include "batch/cost_model.h"
#include "batch/validate.h"

using namespace mpb;
using namespace mpb::batch;

namespace {
// Work units (64x64-bit products) per item.
double work_div(size_t n) { return 0.5 * (double)n * (double)n + (double)n; }
} // namespace

extern "C" MPB_API int mpb_batch_divmod(mpb_ctx *ctx, uint64_t *q, uint64_t *r, const uint64_t *a,
                             const uint64_t *b, size_t b_rows, size_t width, size_t count,
                             mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, count), s, &st)) return st;
  if (!q && !r) return call.fail(MPB_ENULL, MPB_ARG_R, -1, "q and r are both NULL");
  if ((st = check_ptrs(call, {{a, MPB_ARG_A}, {b, MPB_ARG_B}}))) return st;
  if ((st = check_rows(call, b_rows, count, MPB_ARG_B))) return st;
  if (q && r && mpn::overlap(q, width * count, r, width * count))
    return call.fail(MPB_ESHAPE, MPB_ARG_R, -1, "q and r overlap");
  if ((st = check_aliases(call, q, MPB_ARG_R, a, b, b_rows, width, count)) ||
      (st = check_aliases(call, r, MPB_ARG_R, a, b, b_rows, width, count)))
    return st;
  for (size_t i = 0; i < b_rows; i++)
    if (is_zero(b + i * width, width)) return call.fail(MPB_EVAL, MPB_ARG_B, (int64_t)i, "division by zero");

  const bool shared = (b_rows == 1);
  int T = threads_for(s, count, work_div(width));
  const int grain = grain_for(work_div(width));
  size_t per = (width + 1) + width + mpn::tdiv_qr_itch(width, width);
  ThreadScratch scr(T, per, false);
  if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  call.choose(MPB_BACKEND_CPU_SCALAR, T, T > 1 ? "cpu: Knuth division per item, items over threads"
                                        : "cpu: Knuth division per item");
  for_items(T, &scr, count, grain, [&](size_t i, limb *qs) {  // scratch: [q: width+1][r: width][work]
    limb *rs = qs + width + 1, *ws = rs + width;
    const size_t o = i * width;
    const limb *ai = a + o, *bi = b + (shared ? 0 : o);
    size_t an = mpn::normalized_size(ai, width), bn = mpn::normalized_size(bi, width);
    if (an < bn) {  // q = 0, r = a (r first: q may be the rows of a)
      if (r) mpn::copy(r + o, ai, width);
      if (q) mpn::zero(q + o, width);
      return;
    }
    mpn::tdiv_qr(q ? qs : nullptr, r ? rs : nullptr, ai, an, bi, bn, ws);
    if (q) {
      size_t qn = an - bn + 1;
      mpn::copy(q + o, qs, qn);
      mpn::zero(q + o + qn, width - qn);
    }
    if (r) {
      mpn::copy(r + o, rs, bn);
      mpn::zero(r + o + bn, width - bn);
    }
  });
  return call.finish(MPB_OK);
}
