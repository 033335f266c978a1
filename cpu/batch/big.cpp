// cpu/batch/big.cpp: the single-operand C entry points mpb_mulmod_big / mpb_powm_big: one huge
// modular multiplication or exponentiation, each multiplication parallelised inside by the
// multipartite algorithm (seed 004, cpu/multipartite/).
#include "batch/call.h"
#include "batch/validate.h"
#include "multipartite/multipartite.h"

using namespace mpb;
using namespace mpb::batch;

namespace {
int big_common(Call &call, mpb_ctx *ctx, const uint64_t *r, const uint64_t *a, const uint64_t *m,
               size_t n, Settings &s) {
  int st;
  if ((st = check_shape(call, ctx, n, 1, 2))) return st;
  s = snapshot(ctx);
  if ((st = check_ptrs(call, {{r, MPB_ARG_R}, {a, MPB_ARG_A}, {m, MPB_ARG_M}}))) return st;
  if (m[n - 1] == 0) return call.fail(MPB_EVAL, MPB_ARG_M, 0, "top limb of the modulus is zero");
  if ((st = check_modulus(call, m, 1, n, true, MPB_ARG_M))) return st;
  if ((st = check_below(call, a, n, 1, m, 1, n, MPB_ARG_A))) return st;
  return MPB_OK;
}
} // namespace

extern "C" {

MPB_API int mpb_mulmod_big(mpb_ctx *ctx, uint64_t *r, const uint64_t *a, const uint64_t *b,
                           const uint64_t *m, size_t n, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st = big_common(call, ctx, r, a, m, n, s);
  if (st) return st;
  if ((st = check_ptr(call, b, MPB_ARG_B))) return st;
  if ((st = check_below(call, b, n, 1, m, 1, n, MPB_ARG_B))) return st;
  multipartite::Plan *p = multipartite::plan_create(m, n, s.mm_algo, s.mm_k, s.threads);
  if (!p) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the plan");
  call.choose(MPB_BACKEND_MULTIPARTITE, multipartite::plan_threads(p), mpb_backend_name(MPB_BACKEND_MULTIPARTITE));
  multipartite::mulmod_exact(p, r, a, b);
  multipartite::plan_destroy(p);
  return call.finish(MPB_OK);
}

MPB_API int mpb_powm_big(mpb_ctx *ctx, uint64_t *r, const uint64_t *base, const uint64_t *e,
                         size_t e_n, const uint64_t *m, size_t n, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st = big_common(call, ctx, r, base, m, n, s);
  if (st) return st;
  if (e_n > 0 && (st = check_ptr(call, e, MPB_ARG_E))) return st;
  if (e_n > (size_t)1 << 20) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "exponent too long");
  multipartite::Plan *p = multipartite::plan_create(m, n, s.mm_algo, s.mm_k, s.threads);
  if (!p) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the plan");
  call.choose(MPB_BACKEND_MULTIPARTITE, multipartite::plan_threads(p), "multipartite powm");
  multipartite::powm(p, r, base, e, e_n);
  multipartite::plan_destroy(p);
  return call.finish(MPB_OK);
}

} // extern "C"
