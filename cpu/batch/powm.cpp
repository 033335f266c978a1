// cpu/batch/powm.cpp: batch modular exponentiation, mpb_batch_powm, on the exponentiation
// engine (cpu/batch/exp_engine.h):
//  - odd moduli, shared (one Montgomery context for the whole batch) or one per item (the
//    context built per item in the thread's scratch, or 8 different moduli per IFMA group);
//  - few items with a huge shared modulus: the multipartite backend (each multiplication on
//    all threads, cpu/multipartite/), items one after another;
//  - a shared even modulus: the 2^s * q split (cpu/batch/powm_even.cpp); even moduli per
//    item: split item by item on the scalar kernels (mpn::powm_split / powm_split_ct).
// The GPU is tried first under AUTO and CUDA (cpu/batch/gpu.cpp).
#include <algorithm>
#include <cstdio>

#include "batch/exp_engine.h"
#include "batch/gpu_attempt.h"
#include "batch/validate.h"
#include "core/ct.h"
#include "multipartite/multipartite.h"

namespace mpb {
namespace batch {

namespace {

// Odd moduli: one exponentiation per item, with the caller's hooks (if any) around each task.
class OddItems final : public ExpItems {
 public:
  // r2: R^2 mod the shared modulus for the groups' engine, computed once for the call (or NULL).
  OddItems(const PowmJob &job, const mpn::MontCtx *shared, PowmHooks *hooks, const simd::LaneR2 *r2)
      : j_(job), shared_(shared), hooks_(hooks), r2_(r2),
        ctx_itch_(job.m.shared() ? 0 : mpn::mont_ctx_itch(job.m.max_n)) {}

  size_t scratch_limbs(bool lanes) const override {
    const size_t work = std::max(scalar_itch(j_.m.max_n, j_.ew, j_.ct), lanes ? lanes_itch(j_.width, isa_) : (size_t)0);
    work_itch_ = work;
    return ctx_itch_ + work + (hooks_ ? hooks_->scratch_limbs() : 0);
  }

  int run_group(size_t i0, size_t i1, limb *ws) override {
    limb *hook_ws = ws + ctx_itch_ + work_itch_;
    if (hooks_) hooks_->pre(i0, i1, hook_ws);
    Lanes l;
    for (size_t i = i0; i < i1; i++) {  // lanes past the end of a partial group stay unused
      l.r[i - i0] = j_.r + i * j_.width;
      l.b[i - i0] = j_.base + i * j_.base_stride;
      l.e[i - i0] = j_.e + i * j_.e_stride;
      l.m[i - i0] = j_.m.row(i);
    }
    l.ebits = j_.ebits;
    l.base_two = j_.base_two;
    l.r2 = r2_;
    const int st = exp_lanes(l, j_.ew, j_.m.shared() ? j_.m.m : nullptr, j_.width, j_.ct, ws + ctx_itch_, isa_);
    if (st == MPB_OK && hooks_) hooks_->post(i0, i1, hook_ws);
    return st;
  }

  int run_one(size_t i, limb *ws) override {
    limb *work = ws + ctx_itch_, *hook_ws = work + work_itch_;
    if (hooks_) hooks_->pre(i, i + 1, hook_ws);
    const limb *bi = j_.base + i * j_.base_stride, *ei = j_.e + i * j_.e_stride;
    mpn::MontCtx mc;
    if (!shared_) mpn::mont_ctx_init(mc, j_.m.row(i), j_.m.n(i), ws);
    const mpn::MontCtx &c = shared_ ? *shared_ : mc;
    if (j_.base_two) exp_one_pow2(j_.r + i * j_.width, j_.width, ei, j_.ew, j_.ebits, c, work);
    else exp_one(j_.r + i * j_.width, j_.width, bi, ei, j_.ew, j_.ebits, c, j_.ct, work);
    if (hooks_) hooks_->post(i, i + 1, hook_ws);
    return MPB_OK;
  }

 private:
  const PowmJob &j_;
  const mpn::MontCtx *shared_;
  PowmHooks *hooks_;
  const simd::LaneR2 *r2_;
  size_t ctx_itch_;
  mutable size_t work_itch_ = 0;  // set by scratch_limbs, before any task runs
};

// One modulus per item, at least one of them even: every item on the scalar kernels by
// mpn::powm_any (an even modulus split as 2^s * q: Montgomery on q, short products mod 2^s, CRT;
// an odd one on Montgomery), the context built per item in the thread's scratch.
class AnyParityItems final : public ExpItems {
 public:
  explicit AnyParityItems(const PowmJob &job) : j_(job) {}

  size_t scratch_limbs(bool) const override { return mpn::powm_any_itch(j_.m.max_n, j_.ew, j_.ct); }

  int run_group(size_t i0, size_t i1, limb *ws) override {  // not chosen (scalar only)
    for (size_t i = i0; i < i1; i++) run_one(i, ws);
    return MPB_OK;
  }

  int run_one(size_t i, limb *ws) override {
    const size_t mn = j_.m.n(i);
    limb *ri = j_.r + i * j_.width;
    mpn::powm_any(ri, j_.base + i * j_.base_stride, j_.e + i * j_.e_stride, j_.ew, j_.m.row(i), mn, j_.ct, ws);
    if (j_.width > mn) mpn::zero(ri + mn, j_.width - mn);
    return MPB_OK;
  }

 private:
  const PowmJob &j_;
};

// Few items with a huge modulus: items one after another, each multiplication on all threads.
int run_multipartite(Call &call, const Settings &s, const PowmJob &j, const char *prefix, const char *why,
                     PowmHooks *hooks) {
  char buf[kReasonLen];
  std::snprintf(buf, sizeof buf, "%s%s", prefix, why);
  call.choose(MPB_BACKEND_MULTIPARTITE, s.threads, buf);
  ThreadScratch hs(1, hooks ? hooks->scratch_limbs() : 0, j.ct);
  if (!hs.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  multipartite::Plan *plan = nullptr;
  for (size_t i = 0; i < j.count; i++) {
    const size_t n = j.m.n(i);
    if (!plan || !j.m.shared()) {
      multipartite::plan_destroy(plan);
      plan = multipartite::plan_create(j.m.row(i), n, s.mm_algo, s.mm_k, s.threads);
      if (!plan) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the multipartite plan");
    }
    limb *ri = j.r + i * j.width;
    if (hooks) hooks->pre(i, i + 1, hs.get(0));
    multipartite::powm(plan, ri, j.base + i * j.base_stride, j.e + i * j.e_stride, j.ew);
    if (j.width > n) mpn::zero(ri + n, j.width - n);
    if (hooks) hooks->post(i, i + 1, hs.get(0));
  }
  multipartite::plan_destroy(plan);
  return MPB_OK;
}

} // namespace

int run_powm_odd(Call &call, const Settings &s, const PowmJob &job, const char *prefix, const char *reason,
                 PowmHooks *hooks) {
  ExpPlan p;
  p.count = job.count;
  p.lane_limbs = job.width;
  p.max_n = job.m.max_n;
  p.work_per_item = work_powm(job.m.max_n, std::min(job.ebits, job.ew * 64));
  p.shared_modulus = job.m.shared();
  p.multipartite = true;
  p.secret = job.ct;
  // (the AVX-512F and AVX2 lanes double too: only against IFMA groups the scalar items gain)
  if (job.base_two && lanes_best() == LaneIsa::Ifma)
    p.scalar_speedup = pow2_scalar_speedup(std::min(job.ebits, job.ew * 64));
  ExpChoice c = choose_exp_backend(s, p);
  if (c.backend == MPB_BACKEND_MULTIPARTITE)
    return run_multipartite(call, s, job, prefix, reason ? reason : c.why, hooks);
  // a shared modulus: one Montgomery context for the whole batch, built once
  SecretBlock store(job.m.shared() ? mpn::mont_ctx_itch(job.m.max_n) : 0, true);
  if (!store.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the modulus context");
  mpn::MontCtx shared_ctx;
  if (job.m.shared()) mpn::mont_ctx_init(shared_ctx, job.m.m, job.m.max_n, store.get());
  // a shared modulus on the lanes: R^2 mod m (for the digits of the groups' engine) once for
  // the whole batch, not once per group (simd::lanes_r2: constant time in m). On the Zen 5
  // machine, 64 items of 1024 bits: ~3% of the call was the groups' own R^2.
  const bool r2_once = c.lanes() && c.split.use && job.m.shared() && job.width <= 256;
  SecretBlock r2_store(r2_once ? job.width + simd::lanes_r2_itch(job.width) : 0, true);
  if (!r2_store.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the modulus context");
  simd::LaneR2 r2;
  if (r2_once) {
    const size_t mbits = declassify(mpn::sec_bit_length(job.m.m, job.width));
    r2.K = lane_digit_bits(c.isa, mbits);
    r2.N = simd::lanes_digits(r2.K, mbits);
    simd::lanes_r2(r2_store.get(), job.m.m, job.width, r2.K, r2.N, r2_store.get() + job.width);
    for (auto &v : r2.v) v = r2_store.get();
  }
  OddItems items(job, job.m.shared() ? &shared_ctx : nullptr, hooks, r2_once ? &r2 : nullptr);
  return run_exp_tasks(call, s, p, c, items, prefix, job.m.shared() ? ", shared modulus" : ", modulus per item",
                       reason);
}

int run_powm(Call &call, const Settings &s, const PowmJob &job) {
  call.set_ct(job.ct);
  // the GPU serves even moduli too (Barrett kernels) at its widths
  const GpuAttempt g = gpu_try_powm(call, s, job.r, job.base, job.base_stride, job.e, job.ew, job.e_stride,
                                    job.m.m, job.m.stride, job.width, job.count, job.ct);
  if (g.finished()) return g.result(call);
  const char *fallback = g.fell_back ? g.why : nullptr;  // a GPU failure AUTO recovers from
  if (job.m.any_even && job.m.shared()) return run_powm_even_shared(call, s, job, fallback);
  int st;
  if (job.m.any_even) {
    ExpPlan p;
    p.count = job.count;
    p.lane_limbs = job.width;
    p.max_n = job.m.max_n;
    p.work_per_item = work_powm(job.m.max_n, std::min(job.ebits, job.ew * 64));
    p.shared_modulus = false;
    p.secret = job.ct;
    const char *why = fallback                           ? fallback
                      : s.backend == MPB_BACKEND_AUTO ? "auto: even modulus: 2^s x odd split (Montgomery on q)"
                      : s.backend == MPB_BACKEND_CPU  ? "cpu: even modulus: 2^s x odd split (Montgomery on q)"
                      : s.backend == MPB_BACKEND_CPU_SCALAR ? "forced cpu-scalar: even modulus: 2^s x odd split"
                                                      : "even modulus per item: scalar 2^s x odd split";
    AnyParityItems items(job);
    st = run_exp_tasks(call, s, p, scalar_choice(why), items, "", ", modulus per item");
  } else {
    st = run_powm_odd(call, s, job, "", fallback, nullptr);
  }
  return st == MPB_EMEM ? st : call.finish(st);
}

} // namespace batch
} // namespace mpb

using namespace mpb;
using namespace mpb::batch;

extern "C" MPB_API int mpb_batch_powm(mpb_ctx *ctx, uint64_t *r, const uint64_t *base,
                                      const uint64_t *e, size_t e_width, size_t e_rows,
                                      const uint64_t *m, size_t m_rows, size_t width,
                                      size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, count).gpu().exponent(e_width), s, &st,
                 {{r, MPB_ARG_R}, {base, MPB_ARG_A}, {e, MPB_ARG_E}, {m, MPB_ARG_M}}))
    return st;
  if ((st = check_rows(call, e_rows, count, MPB_ARG_E)) || (st = check_rows(call, m_rows, count, MPB_ARG_M)))
    return st;
  PowmJob job;
  if ((st = check_moduli(call, m, m_rows, width, MPB_ARG_M, &job.m))) return st;
  if ((st = check_below(call, base, width, count, m, m_rows, width, MPB_ARG_A))) return st;
  job.r = r, job.base = base, job.base_stride = width;
  job.e = e, job.ew = e_width, job.e_stride = e_rows == 1 ? 0 : e_width;
  job.width = width, job.count = count;
  job.ct = (s.ct == MPB_CT_ON);
  return run_powm(call, s, job);
}
