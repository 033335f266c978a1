// cpu/batch/powm.cpp: batch modular exponentiation.
//  - shared modulus: one Montgomery context for the whole batch (constants computed once),
//    items spread over the OpenMP threads; on AVX-512 IFMA CPUs groups of 8 items go to the
//    8-lane kernel (cpu/simd/powm_lanes.h), the remaining items to the scalar kernel;
//  - one modulus per item: the Montgomery context is built per item inside the thread's
//    scratch (no allocation), or groups of 8 go to the 8-lane multi-modulus kernel;
//  - few items with a huge modulus: the multipartite backend (each multiplication uses all
//    threads, cpu/multipartite*.cpp);
//  - an even modulus m = 2^s * q (q odd) is split as GMP does (cpu/mpn/powm/powm_split.cpp): a shared
//    one runs b^e mod q for all items through the odd-modulus engine above (IFMA, ADX,
//    multipartite), then b^e mod 2^s (short products) and the CRT per item; moduli per item
//    are split item by item (Montgomery on q).
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "batch/tuning.h"

#include "batch/batch_internal.h"
#include "core/cpu_features.h"
#include "mpn/powm/powm.h"
#include "multipartite/multipartite.h"
#include "simd/powm_lanes.h"

namespace mpb {
namespace batch {

namespace {

constexpr size_t kIfmaMaxLimbs = 256;

// Scalar exponentiation of one item with its modulus context (n = normalized modulus size).
inline void powm_one(limb *r, size_t width, const limb *b, const limb *e, size_t ew,
                     const mpn::MontCtx &mc, bool ct, limb *ws) {
  size_t n = mc.n;
  if (ct) mpn::powm_ct(r, b, e, ew, mc, ws);
  else mpn::powm(r, b, e, ew, mc, ws);
  if (width > n) mpn::zero(r + n, width - n);
}

} // namespace

namespace {

// One modulus per item, at least one of them even: every item on the scalar path, an even
// modulus split as 2^s * q (powm_split / powm_split_ct: Montgomery on q, short products mod
// 2^s, CRT), an odd one on Montgomery (powm / powm_ct); the context is built per item inside
// the thread's scratch (no allocation).
int powm_per_item_any_parity(Call &call, const Settings &s, limb *r, const limb *base, size_t base_stride,
                             const limb *e, size_t ew, size_t e_stride, const limb *m, size_t m_stride,
                             size_t width, size_t count, bool ct, const char *why) {
  size_t n = 0;
  for (size_t i = 0; i < count; i++) n = std::max(n, mpn::normalized_size(m + i * m_stride, width));
  // per thread: [split or Montgomery context storage][exponentiation scratch]
  const size_t ctx_itch = std::max(mpn::split_ctx_itch(n), mpn::mont_ctx_itch(n));
  const size_t work_itch = ct ? std::max(mpn::powm_split_ct_itch(n), mpn::powm_ct_itch(n))
                              : std::max(mpn::powm_split_itch(n, ew), mpn::powm_itch(n, ew));
  int T = threads_for(s, count, work_powm(n, ew * 64));
  ThreadScratch scr(T, ctx_itch + work_itch, ct);
  if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s; %zu threads, modulus per item", why, (size_t)T);
  call.choose(MPB_BACKEND_CPU, T, buf);
#pragma omp parallel num_threads(T) if (T > 1)
  {
    limb *ws = scr.get(omp_get_thread_num());
    limb *ctx_store = ws, *work = ws + ctx_itch;
#pragma omp for schedule(dynamic, 1)
    for (int64_t t = 0; t < (int64_t)count; t++) {
      const size_t i = (size_t)t;
      const limb *mi = m + i * m_stride;
      const size_t mn = mpn::normalized_size(mi, width);
      limb *ri = r + i * width;
      const limb *bi = base + i * base_stride, *ei = e + i * e_stride;
      if ((mi[0] & 1) == 0) {
        mpn::SplitCtx sc;
        mpn::split_ctx_init(sc, mi, mn, ctx_store);
        if (ct) mpn::powm_split_ct(ri, bi, ei, ew, sc, work);
        else mpn::powm_split(ri, bi, ei, ew, sc, work);
        if (width > mn) mpn::zero(ri + mn, width - mn);
      } else {
        mpn::MontCtx mc;
        mpn::mont_ctx_init(mc, mi, mn, ctx_store);
        powm_one(ri, width, bi, ei, ew, mc, ct, work);
      }
    }
  }
  return call.finish(MPB_OK);
}

} // namespace

namespace {

// Work the odd engine runs around each of its tasks (the even-modulus split): pre(i0, i1, tid)
// before items [i0, i1) are exponentiated, post(i0, i1, tid) after they are written, both on
// the thread that runs the task (tid = omp_get_thread_num() < Settings::threads), so the
// split adds no parallel region and no barrier of its own.
struct ItemHook {
  virtual void pre(size_t i0, size_t i1, int tid) = 0;
  virtual void post(size_t i0, size_t i1, int tid) = 0;

 protected:
  ~ItemHook() = default;
};

// The odd-modulus engine (every modulus odd): backend choice, multipartite / IFMA groups /
// scalar Montgomery. Records its choice (reason prefixed by `prefix`) but does not finish the
// call: returns the status (MPB_EMEM already recorded with call.fail). `hook`: see ItemHook.
int powm_odd(Call &call, const Settings &s, limb *r, const limb *base, size_t base_stride,
             const limb *e, size_t ew, size_t e_stride, const limb *m, size_t m_stride,
             size_t width, size_t count, bool ct, const char *gpu_why, const char *prefix,
             ItemHook *hook = nullptr) {
  const bool shared_m = (m_stride == 0);
  size_t mn_max = 0;  // the largest normalized modulus size
  if (shared_m) mn_max = mpn::normalized_size(m, width);
  else
    for (size_t i = 0; i < count; i++) mn_max = std::max(mn_max, mpn::normalized_size(m + i * m_stride, width));

  // ---- backend choice --------------------------------------------------------------------
  int backend = s.backend;
  const char *why = "";
  bool ifma_ok = simd::ifma_available();
  const double w_item = work_powm(mn_max, ew * 64);
  IfmaSplit split;  // AUTO's IFMA / scalar split (ifma_split), or the forced one below
  if (backend == MPB_BACKEND_AUTO) {
    const bool ifma_width = width >= (size_t)tuning::BATCH_IFMA_MIN_LIMBS && width <= (size_t)tuning::BATCH_IFMA_MAX_LIMBS;
    if (ifma_ok && ifma_width) split = ifma_split(s, count, width, w_item, false);
    if (shared_m && count < (size_t)s.threads && s.threads > 1 &&
        mn_max >= (size_t)tuning::BATCH_MULTIPARTITE_MIN_LIMBS) {
      backend = MPB_BACKEND_MULTIPARTITE;
      why = "auto: fewer items than threads and a huge modulus -> multipartite";
    } else if (split.use) {
      backend = MPB_BACKEND_CPU_IFMA;
      why = split.partial ? "auto: AVX-512 IFMA, groups of 8 items (last one partial)"
                          : "auto: AVX-512 IFMA, groups of 8 items, rest scalar";
    } else {
      backend = MPB_BACKEND_CPU;
      why = !ifma_ok       ? "auto: scalar (no AVX-512 IFMA)"
            : !ifma_width  ? "auto: scalar (width outside the IFMA range in tuning.h)"
                           : "auto: scalar (estimated faster than IFMA groups on these threads)";
    }
  } else if (backend == MPB_BACKEND_MULTIPARTITE && !shared_m) {
    backend = MPB_BACKEND_MULTIPARTITE;
    why = "forced multipartite (one plan per item)";
  } else {
    why = backend == MPB_BACKEND_CPU ? "forced cpu" : backend == MPB_BACKEND_CPU_IFMA ? "forced cpu-ifma" : "forced multipartite";
  }
  if (std::strstr(gpu_why, "GPU failed")) why = gpu_why;  // report the fallback

  // ---- multipartite: items one after another, each multiplication on all threads --------
  if (backend == MPB_BACKEND_MULTIPARTITE) {
    char mbuf[160];
    std::snprintf(mbuf, sizeof mbuf, "%s%s", prefix, why);
    call.choose(MPB_BACKEND_MULTIPARTITE, s.threads, mbuf);
    multipartite::Plan *plan = nullptr;
    for (size_t i = 0; i < count; i++) {
      const limb *mi = m + i * m_stride;
      size_t n = mpn::normalized_size(mi, width);
      if (!plan || !shared_m) {
        multipartite::plan_destroy(plan);
        plan = multipartite::plan_create(mi, n, s.mm_algo, s.mm_k, s.threads);
        if (!plan) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the multipartite plan");
      }
      limb *ri = r + i * width;
      if (hook) hook->pre(i, i + 1, 0);
      multipartite::powm(plan, ri, base + i * base_stride, e + i * e_stride, ew);
      if (width > n) mpn::zero(ri + n, width - n);
      if (hook) hook->post(i, i + 1, 0);
    }
    multipartite::plan_destroy(plan);
    return MPB_OK;
  }

  // the 8-lane kernel takes moduli up to 16384 bits (cpu/simd/powm_lanes.cpp); beyond, scalar
  if (backend == MPB_BACKEND_CPU_IFMA && width > kIfmaMaxLimbs) {
    backend = MPB_BACKEND_CPU;
    why = "cpu-ifma requested but the width exceeds the 8-lane kernel's 256 limbs: scalar";
  }
  const bool use_ifma = (backend == MPB_BACKEND_CPU_IFMA);
  if (use_ifma && s.backend == MPB_BACKEND_CPU_IFMA) split = ifma_split(s, count, width, w_item, true);
  if (!use_ifma) split = IfmaSplit{};
  const size_t full = split.full, rem = count - full * 8;
  const bool partial = split.partial;  // a last partial group (unused lanes)
  size_t groups = split.groups();
  size_t tasks = groups + (partial ? 0 : rem);
  int T = threads_for(s, tasks, w_item * (use_ifma ? 8.0 : 1.0));

  // scratch per thread: [mont ctx storage when per-item modulus][scalar powm][ifma]
  size_t ctx_itch = shared_m ? 0 : mpn::mont_ctx_itch(mn_max);
  size_t scal_itch = ct ? mpn::powm_ct_itch(mn_max) : mpn::powm_itch(mn_max, ew);
  size_t simd_itch = use_ifma ? simd::powm_x8_itch(width) : 0;
  ThreadScratch scr(T, ctx_itch + std::max(scal_itch, simd_itch), ct);
  if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");

  // shared Montgomery context, built once
  limb *shared_store = nullptr;
  mpn::MontCtx shared_ctx;
  size_t shared_bytes = 0;
  if (shared_m) {
    shared_bytes = mpn::mont_ctx_itch(mn_max) * sizeof(limb);
    shared_store = static_cast<limb *>(mem_alloc(shared_bytes));
    if (!shared_store) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the modulus context");
    mpn::mont_ctx_init(shared_ctx, m, mn_max, shared_store);
  }

  char buf[160];
  std::snprintf(buf, sizeof buf, "%s%s; %zu threads%s", prefix, why, (size_t)T,
                shared_m ? ", shared modulus" : ", modulus per item");
  call.choose(use_ifma ? MPB_BACKEND_CPU_IFMA : MPB_BACKEND_CPU, T, buf);
  if (use_ifma) call.add_simd((int)(full * 8 + (partial ? rem : 0)));

  int status = MPB_OK;
#pragma omp parallel num_threads(T) if (T > 1)
  {
    const int tid = omp_get_thread_num();
    limb *ws = scr.get(tid);
    limb *ctx_store = ws;
    limb *work = ws + ctx_itch;
#pragma omp for schedule(dynamic, 1)
    for (int64_t t = 0; t < (int64_t)tasks; t++) {
      if ((size_t)t < groups) {
        const size_t i0 = (size_t)t * 8, i1 = std::min(i0 + 8, count);
        if (hook) hook->pre(i0, i1, tid);
        uint64_t *rr[8];
        const uint64_t *bb[8], *ee[8], *mm[8];
        for (int l = 0; l < 8; l++) {
          size_t i = (size_t)t * 8 + l;
          bool used = i < count;  // lanes past the end of a partial group stay unused
          rr[l] = used ? r + i * width : nullptr;
          bb[l] = used ? base + i * base_stride : nullptr;
          ee[l] = used ? e + i * e_stride : nullptr;
          mm[l] = used ? m + i * m_stride : nullptr;
        }
        int st = shared_m ? simd::powm_x8(rr, bb, ee, ew, m, width, ct, work)
                          : simd::powm_x8_multi(rr, bb, ee, ew, mm, width, ct, work);
        if (st != MPB_OK) {
#pragma omp atomic write
          status = st;
        } else if (hook) {
          hook->post(i0, i1, tid);
        }
      } else {
        size_t i = groups * 8 + ((size_t)t - groups);
        const limb *mi = m + i * m_stride;
        if (hook) hook->pre(i, i + 1, tid);
        if (shared_m) {
          powm_one(r + i * width, width, base + i * base_stride, e + i * e_stride, ew, shared_ctx, ct, work);
        } else {
          mpn::MontCtx mc;
          mpn::mont_ctx_init(mc, mi, mpn::normalized_size(mi, width), ctx_store);
          powm_one(r + i * width, width, base + i * base_stride, e + i * e_stride, ew, mc, ct, work);
        }
        if (hook) hook->post(i, i + 1, tid);
      }
    }
  }
  if (shared_store) {
    secure_zero(shared_store, shared_bytes);
    mem_free(shared_store, shared_bytes);
  }
  return status;
}

// A shared even modulus m = 2^s * q (q odd): x1 = b^e mod q for every item through the
// odd-modulus engine (bases reduced mod q first, into one block), then per item
// x2 = b^e mod 2^s (short products) and the CRT x = x1 + q*(((x2 - x1) q^-1) mod 2^s).
// q == 1 (m a power of two): x = x2. Constant time with ct: split_reduce_base and split_crt
// are branch free, the odd engine and powm_2k_ct are the constant-time kernels.
int powm_even_shared(Call &call, const Settings &s, limb *r, const limb *base, size_t base_stride,
                     const limb *e, size_t ew, size_t e_stride, const limb *m, size_t width, size_t count,
                     bool ct, const char *gpu_why) {
  const size_t mn = mpn::normalized_size(m, width);
  const bool fell_back = std::strstr(gpu_why, "GPU failed") != nullptr;
  const char *mode = s.backend == MPB_BACKEND_AUTO ? "auto" : s.backend == MPB_BACKEND_CPU ? "forced cpu"
                     : s.backend == MPB_BACKEND_CPU_IFMA ? "forced cpu-ifma" : "forced multipartite";
  // one block: [split context storage][bases mod q: count*qn][x1: count*qn]
  const size_t ctx_itch = mpn::split_ctx_itch(mn);
  limb *ctx_store = static_cast<limb *>(mem_alloc(ctx_itch * sizeof(limb)));
  if (!ctx_store) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the modulus context");
  mpn::SplitCtx sc;
  mpn::split_ctx_init(sc, m, mn, ctx_store);
  const size_t qn = sc.qn, sn = sc.sn;
  // items in chunks (bounds the residue block; each chunk: reduce, odd engine, 2^s part + CRT)
  const size_t chunk = std::min(count, (size_t)tuning::BATCH_EVEN_SPLIT_CHUNK);
  const size_t blk_limbs = sc.q_one ? 0 : 2 * chunk * qn;
  limb *blk = nullptr;
  if (blk_limbs && !(blk = static_cast<limb *>(mem_alloc(blk_limbs * sizeof(limb))))) {
    mem_free(ctx_store, ctx_itch * sizeof(limb));
    return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the odd-part residues");
  }
  auto release = [&]() {
    if (blk) {
      if (ct) secure_zero(blk, blk_limbs * sizeof(limb));
      mem_free(blk, blk_limbs * sizeof(limb));
    }
    mem_free(ctx_store, ctx_itch * sizeof(limb));
  };
  // per-thread scratch of the hook: base reduction, or mod 2^s power + CRT
  const size_t w2 = ct ? mpn::powm_2k_ct_itch(sc.s) : mpn::powm_2k_itch(sc.s);
  const size_t a_itch = sc.q_one ? 0 : mpn::split_reduce_base_itch(mn);
  const size_t c_itch = sn + mn + std::max(w2, mpn::split_crt_itch(mn));
  ThreadScratch scr(std::max(1, s.threads), std::max(a_itch, c_itch), ct);
  if (!scr.ok()) {
    release();
    return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  }
  // pre: the task's bases mod q (Montgomery reductions of qn-limb chunks, constant time);
  // post: per item b^e mod 2^s and the CRT with x1 = b^e mod q, written to r
  struct SplitHook final : ItemHook {
    const mpn::SplitCtx &sc;
    ThreadScratch &scr;
    bool ct;
    size_t ew, e_stride, base_stride, width;
    limb *bq, *x1;
    const limb *bc = nullptr, *ec = nullptr;  // the current chunk's rows
    limb *rc = nullptr;
    SplitHook(const mpn::SplitCtx &sc_, ThreadScratch &scr_, bool ct_, size_t ew_, size_t es, size_t bs, size_t w,
              limb *bq_, limb *x1_)
        : sc(sc_), scr(scr_), ct(ct_), ew(ew_), e_stride(es), base_stride(bs), width(w), bq(bq_), x1(x1_) {}
    void pre(size_t i0, size_t i1, int tid) override {
      limb *ws = scr.get(tid);
      for (size_t i = i0; i < i1; i++) mpn::split_reduce_base(bq + i * sc.qn, bc + i * base_stride, sc, ws);
    }
    void post(size_t i0, size_t i1, int tid) override {
      limb *x2 = scr.get(tid), *res = x2 + sc.sn, *work = res + sc.mn;
      for (size_t i = i0; i < i1; i++) {
        const limb *bi = bc + i * base_stride;
        if (ct) mpn::powm_2k_ct(x2, bi, ec + i * e_stride, ew, sc.s, work);
        else mpn::powm_2k(x2, bi, ec + i * e_stride, ew, sc.s, work);
        mpn::split_crt(res, sc.q_one ? nullptr : x1 + i * sc.qn, x2, sc, work);
        limb *ri = rc + i * width;  // may be bi: written after the last read of bi
        mpn::copy(ri, res, sc.mn);
        if (width > sc.mn) mpn::zero(ri + sc.mn, width - sc.mn);
      }
    }
  };
  SplitHook hook(sc, scr, ct, ew, e_stride, base_stride, width, blk, blk ? blk + chunk * qn : nullptr);
  if (sc.q_one) {  // no odd part: the power mod 2^s is the whole computation
    const size_t ebits = std::min<size_t>(64 * ew, sc.s + 1);
    const int TC = threads_for(s, count, 0.6 * (double)ebits * work_mul(sn));
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: even modulus 2^%zu: short products, no reduction; %d threads, shared modulus",
                  fell_back ? gpu_why : mode, sc.s, TC);
    call.choose(MPB_BACKEND_CPU, TC, buf);
    hook.bc = base, hook.ec = e, hook.rc = r;
#pragma omp parallel for num_threads(TC) if (TC > 1) schedule(dynamic, 8)
    for (int64_t t = 0; t < (int64_t)count; t++) hook.post((size_t)t, (size_t)t + 1, omp_get_thread_num());
  } else {
    // chunks of items through the odd engine on q, the hook around each of its tasks
    char prefix[48];
    std::snprintf(prefix, sizeof prefix, "even m = 2^%zu*q split, q part: ", sc.s);
    for (size_t c0 = 0; c0 < count; c0 += chunk) {
      const size_t k = std::min(chunk, count - c0);
      hook.bc = base + c0 * base_stride, hook.ec = e + c0 * e_stride, hook.rc = r + c0 * width;
      const int st = powm_odd(call, s, hook.x1, hook.bq, qn, hook.ec, ew, e_stride, sc.q, 0, qn, k, ct, gpu_why,
                              prefix, &hook);
      if (st != MPB_OK) {
        release();
        return st == MPB_EMEM ? st : call.finish(st);
      }
    }
  }
  release();
  return call.finish(MPB_OK);
}
} // namespace

int powm_engine(Call &call, const Settings &s, limb *r, const limb *base, size_t base_stride,
                const limb *e, size_t ew, size_t e_stride, const limb *m, size_t m_stride,
                size_t width, size_t count, bool ct) {
  call.set_ct(ct);
  char gpu_why[112] = {0};
  {
    int gst = MPB_OK;  // the GPU serves even moduli too (Barrett kernels) at its widths
    if (gpu_try_powm(call, s, r, base, base_stride, e, ew, e_stride, m, m_stride, width, count, ct, &gst,
                     gpu_why, sizeof gpu_why))
      return gst == MPB_OK ? call.finish(MPB_OK) : call.fail(gst, MPB_ARG_CTX, -1, gpu_why);
  }
  bool any_even = false;
  for (size_t i = 0; i < (m_stride == 0 ? 1 : count) && !any_even; i++) any_even = (m[i * m_stride] & 1) == 0;
  if (any_even && m_stride == 0)
    return powm_even_shared(call, s, r, base, base_stride, e, ew, e_stride, m, width, count, ct, gpu_why);
  if (any_even) {
    const char *why = std::strstr(gpu_why, "GPU failed") ? gpu_why
                      : s.backend == MPB_BACKEND_AUTO ? "auto: even modulus: 2^s x odd split (Montgomery on q)"
                      : s.backend == MPB_BACKEND_CPU  ? "forced cpu: even modulus: 2^s x odd split"
                                                      : "even modulus per item: scalar 2^s x odd split";
    return powm_per_item_any_parity(call, s, r, base, base_stride, e, ew, e_stride, m, m_stride, width, count,
                                    ct, why);
  }
  int st = powm_odd(call, s, r, base, base_stride, e, ew, e_stride, m, m_stride, width, count, ct, gpu_why, "");
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
  int st;
  if ((st = check_shape(call, ctx, width, count, 1))) return st;
  if (!width_ok(e_width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "exponent width out of range 1..1024 limbs");
  Settings s = snapshot(ctx);
  if ((st = check_backend(call, s, true))) return st;
  if (count == 0) {
    call.choose(MPB_BACKEND_CPU, 1, "empty batch");
    return call.finish(MPB_OK);
  }
  if ((st = check_ptr(call, r, MPB_ARG_R)) || (st = check_ptr(call, base, MPB_ARG_A)) ||
      (st = check_ptr(call, e, MPB_ARG_E)) || (st = check_ptr(call, m, MPB_ARG_M)))
    return st;
  if ((st = check_rows(call, e_rows, count, MPB_ARG_E)) || (st = check_rows(call, m_rows, count, MPB_ARG_M)))
    return st;
  if ((st = check_modulus_above_one(call, m, m_rows, width, MPB_ARG_M))) return st;
  if ((st = check_below(call, base, width, count, m, m_rows, width, MPB_ARG_A))) return st;
  bool ct = (s.ct == MPB_CT_ON);
  return powm_engine(call, s, r, base, width, e, e_width, e_rows == 1 ? 0 : e_width, m,
                     m_rows == 1 ? 0 : width, width, count, ct);
}
