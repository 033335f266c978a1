// cpu/batch/modmul.cpp: batch r = a*b mod m (shared modulus or one per item, any nonzero m):
// one product (mpn::mul_n) and one division (mpn::tdiv_qr) per item with per-thread scratch;
// few items with a huge odd shared modulus go to the multipartite backend; large batches with
// odd moduli go to the GPU when there is one (cpu/batch/gpu.cpp: gpu_try_modmul).
#include <cstdio>

#include "batch/tuning.h"

#include "batch/call.h"
#include "batch/cost_model.h"
#include "batch/gpu_attempt.h"
#include "batch/validate.h"
#include "multipartite/multipartite.h"

using namespace mpb;
using namespace mpb::batch;

extern "C" MPB_API int mpb_batch_modmul(mpb_ctx *ctx, uint64_t *r, const uint64_t *a,
                                        const uint64_t *b, const uint64_t *m, size_t m_rows,
                                        size_t width, size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, count).products().gpu(), s, &st,
                 {{r, MPB_ARG_R}, {a, MPB_ARG_A}, {b, MPB_ARG_B}, {m, MPB_ARG_M}}))
    return st;
  if ((st = check_rows(call, m_rows, count, MPB_ARG_M))) return st;
  if ((st = check_modulus(call, m, m_rows, width, false, MPB_ARG_M))) return st;
  if ((st = check_below(call, a, width, count, m, m_rows, width, MPB_ARG_A))) return st;
  if ((st = check_below(call, b, width, count, m, m_rows, width, MPB_ARG_B))) return st;

  const GpuAttempt g = gpu_try_modmul(call, s, r, a, b, m, m_rows, width, count);
  if (g.finished()) return g.result(call);
  const bool shared = (m_rows == 1);
  size_t mn0 = mpn::normalized_size(m, width);
  bool multi = false;
  const char *why = "cpu: mul + division per item";
  if (shared && (m[0] & 1) && mn0 >= 4) {
    if (s.backend == MPB_BACKEND_MULTIPARTITE) {
      multi = true;
      why = "forced multipartite";
    } else if (chooses_cpu(s) && count < (size_t)s.threads && s.threads > 1 &&
               mn0 >= (size_t)tuning::BATCH_MULTIPARTITE_MIN_LIMBS) {
      multi = true;
      why = "auto: fewer items than threads and a huge modulus -> multipartite";
    }
  }
  if (multi) {
    call.choose(MPB_BACKEND_MULTIPARTITE, s.threads, why);
    multipartite::Plan *plan = multipartite::plan_create(m, mn0, s.mm_algo, s.mm_k, s.threads);
    if (!plan) return call.finish(MPB_EMEM);
    for (size_t i = 0; i < count; i++) {
      limb *ri = r + i * width;
      multipartite::mulmod_exact(plan, ri, a + i * width, b + i * width);
      if (width > mn0) mpn::zero(ri + mn0, width - mn0);
    }
    multipartite::plan_destroy(plan);
    return call.finish(MPB_OK);
  }

  int T = threads_for(s, count, 2.0 * work_mul(width));
  // items are handed out in small groups (dynamic schedule), so a thread that loses its core
  // for a while (the Python binding converts the next chunk meanwhile; a shared machine) does
  // not leave the others waiting at the end of the loop
  const int grain = grain_for(2.0 * work_mul(width));
  size_t per = 2 * width + width + mpn::mul_n_itch(width) + mpn::tdiv_qr_itch(2 * width, width);
  ThreadScratch scr(T, per, false);
  if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  char buf[kReasonLen];
  std::snprintf(buf, sizeof buf, "%s; %d threads%s", why, T,
                s.backend == MPB_BACKEND_CPU_IFMA     ? " (no IFMA kernel for modmul)"
                : s.backend == MPB_BACKEND_CPU_AVX512 ? " (no AVX-512 kernel for modmul)"
                : s.backend == MPB_BACKEND_CPU_AVX2   ? " (no AVX2 kernel for modmul)"
                                                      : "");
  call.choose(MPB_BACKEND_CPU_SCALAR, T, buf);
  for_items(T, &scr, count, grain, [&](size_t i, limb *prod) {  // scratch: [prod: 2 width][rem: width][work]
    limb *rem = prod + 2 * width, *ws = rem + width;
    const size_t o = i * width;
    const limb *mi = m + (shared ? 0 : o);
    const size_t mn = mpn::normalized_size(mi, width);
    mpn::mul_n(prod, a + o, b + o, width, ws);
    const size_t pn = mpn::normalized_size(prod, 2 * width);
    limb *ri = r + o;
    if (pn < mn) {
      mpn::copy(ri, prod, pn);
      mpn::zero(ri + pn, width - pn);
    } else {
      mpn::tdiv_qr(nullptr, rem, prod, pn, mi, mn, ws);
      mpn::copy(ri, rem, mn);
      mpn::zero(ri + mn, width - mn);
    }
  });
  return call.finish(MPB_OK);
}
