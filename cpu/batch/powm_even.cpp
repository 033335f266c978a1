// cpu/batch/powm_even.cpp: batch powm with one shared even modulus m = 2^s * q (q odd), split
// as GMP does: x1 = b^e mod q for every item through the exponentiation engine (bases reduced
// mod q first, into one block), then per item x2 = b^e mod 2^s (short products) and the CRT
// x = x1 + q*(((x2 - x1) q^-1) mod 2^s). q == 1 (m a power of two): x = x2. The base
// reduction and the 2^s part + CRT run as hooks around each task of the engine, on the thread
// that runs it, so the split adds no parallel region and no barrier of its own. Constant time
// with ct: split_reduce_base and split_crt are branch free, the engine and powm_2k_ct use the
// constant-time kernels.
#include <algorithm>
#include <cstdio>

#include "batch/exp_engine.h"
#include "batch/tuning.h"

namespace mpb {
namespace batch {

namespace {

// pre: the task's bases mod q (Montgomery reductions of qn-limb chunks, constant time);
// post: per item b^e mod 2^s and the CRT with x1 = b^e mod q, written to r.
class SplitHooks final : public PowmHooks {
 public:
  SplitHooks(const mpn::SplitCtx &sc, const PowmJob &job, limb *bq, limb *x1)
      : sc_(sc), j_(job), bq_(bq), x1_(x1) {}
  size_t scratch_limbs() const override {
    const size_t w2 = j_.ct ? mpn::powm_2k_ct_itch(sc_.s) : mpn::powm_2k_itch(sc_.s);
    const size_t a_itch = sc_.q_one ? 0 : mpn::split_reduce_base_itch(sc_.mn);
    const size_t c_itch = sc_.sn + sc_.mn + std::max(w2, mpn::split_crt_itch(sc_.mn));
    return std::max(a_itch, c_itch);
  }
  // The current chunk: items [c0, c0 + chunk) of the job.
  void set_chunk(size_t c0) { c0_ = c0; }
  void pre(size_t i0, size_t i1, limb *ws) override {
    for (size_t i = i0; i < i1; i++) mpn::split_reduce_base(bq_ + i * sc_.qn, base(i), sc_, ws);
  }
  void post(size_t i0, size_t i1, limb *ws) override {
    limb *x2 = ws, *res = x2 + sc_.sn, *work = res + sc_.mn;
    for (size_t i = i0; i < i1; i++) {
      const limb *bi = base(i), *ei = j_.e + (c0_ + i) * j_.e_stride;
      if (j_.ct) mpn::powm_2k_ct(x2, bi, ei, j_.ew, sc_.s, work);
      else mpn::powm_2k(x2, bi, ei, j_.ew, sc_.s, work);
      mpn::split_crt(res, sc_.q_one ? nullptr : x1_ + i * sc_.qn, x2, sc_, work);
      limb *ri = j_.r + (c0_ + i) * j_.width;  // may be bi: written after the last read of bi
      mpn::copy(ri, res, sc_.mn);
      if (j_.width > sc_.mn) mpn::zero(ri + sc_.mn, j_.width - sc_.mn);
    }
  }

 private:
  const limb *base(size_t i) const { return j_.base + (c0_ + i) * j_.base_stride; }
  const mpn::SplitCtx &sc_;
  const PowmJob &j_;
  limb *bq_, *x1_;
  size_t c0_ = 0;
};

} // namespace

int run_powm_even_shared(Call &call, const Settings &s, const PowmJob &job, const char *reason) {
  const size_t mn = job.m.max_n;
  const char *mode = reason                              ? reason
                     : s.backend == MPB_BACKEND_AUTO     ? "auto"
                     : s.backend == MPB_BACKEND_CPU      ? "cpu"
                     : s.backend == MPB_BACKEND_CPU_SCALAR ? "forced cpu-scalar"
                     : s.backend == MPB_BACKEND_CPU_IFMA ? "forced cpu-ifma"
                     : s.backend == MPB_BACKEND_CPU_AVX512 ? "forced cpu-avx512"
                     : s.backend == MPB_BACKEND_CPU_AVX2 ? "forced cpu-avx2"
                                                         : "forced multipartite";
  SecretBlock ctx_store(mpn::split_ctx_itch(mn), false);
  if (!ctx_store.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the modulus context");
  mpn::SplitCtx sc;
  mpn::split_ctx_init(sc, job.m.m, mn, ctx_store.get());
  const size_t qn = sc.qn, sn = sc.sn;
  // items in chunks (bounds the residue block; each chunk: reduce, odd engine, 2^s part + CRT)
  const size_t chunk = std::min(job.count, (size_t)tuning::BATCH_EVEN_SPLIT_CHUNK);
  SecretBlock blk(sc.q_one ? 0 : 2 * chunk * qn, job.ct);  // [bases mod q][x1 = b^e mod q]
  if (!blk.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the odd-part residues");
  SplitHooks hooks(sc, job, blk.get(), sc.q_one ? nullptr : blk.get() + chunk * qn);

  if (sc.q_one) {  // no odd part: the power mod 2^s is the whole computation
    const size_t ebits = std::min<size_t>(64 * job.ew, sc.s + 1);
    const int T = threads_for(s, job.count, 0.6 * (double)ebits * work_mul(sn));
    ThreadScratch scr(T, hooks.scratch_limbs(), job.ct);
    if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
    char buf[kReasonLen];
    std::snprintf(buf, sizeof buf, "%s: even modulus 2^%zu: short products, no reduction; %d threads, shared modulus",
                  mode, sc.s, T);
    call.choose(MPB_BACKEND_CPU_SCALAR, T, buf);
    for_items(T, &scr, job.count, 8, [&](size_t t, limb *ws) { hooks.post(t, t + 1, ws); });
    return call.finish(MPB_OK);
  }
  // chunks of items through the engine on q, the hooks around each of its tasks
  char prefix[48];
  std::snprintf(prefix, sizeof prefix, "even m = 2^%zu*q split, q part: ", sc.s);
  for (size_t c0 = 0; c0 < job.count; c0 += chunk) {
    PowmJob q;
    q.r = blk.get() + chunk * qn;
    q.base = blk.get(), q.base_stride = qn;
    q.e = job.e + c0 * job.e_stride, q.ew = job.ew, q.e_stride = job.e_stride, q.ebits = job.ebits;
    q.m = describe_moduli(sc.q, 1, qn);
    q.width = qn, q.count = std::min(chunk, job.count - c0);
    q.ct = job.ct;
    hooks.set_chunk(c0);
    const int st = run_powm_odd(call, s, q, prefix, reason, &hooks);
    if (st != MPB_OK) return st == MPB_EMEM ? st : call.finish(st);
  }
  return call.finish(MPB_OK);
}

} // namespace batch
} // namespace mpb
