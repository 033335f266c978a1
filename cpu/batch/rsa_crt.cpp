// cpu/batch/rsa_crt.cpp: batch RSA private-key operation by the CRT (Garner):
//   m1 = c^dp mod p, m2 = c^dq mod q, h = qinv*(m1 - m2) mod p, out = m2 + h*q.
// One key for the whole batch (Montgomery contexts for p and q and qinv*R^2 mod p built once)
// or one key per item (built per item in the thread's scratch, no allocation). The two
// half-size exponentiations use the constant-time kernel unless the context says MPB_CT_OFF;
// on AVX-512 IFMA CPUs groups of 8 items go to the 8-lane kernel (shared p / shared q, or 8
// different moduli), the remaining items to the scalar kernel.
// The reduction c mod p (c is public) uses the variable-time division; everything touching
// the exponents and the recombination uses masked, branch-free steps (mont_mul / cnd_add).
#include <omp.h>

#include <algorithm>
#include <cstdio>

#include "batch/tuning.h"

#include "batch/batch_internal.h"
#include "mpn/powm/powm.h"
#include "simd/powm_lanes.h"

namespace mpb {
namespace batch {
namespace {

struct Key {
  const limb *p, *q, *dp, *dq;
  size_t pn, qn;
  mpn::MontCtx cp, cq;
  limb *qinv_r2;  // qinv * R^2 mod p (pn limbs), so mont_from(mont_mul(t, qinv_r2)) = t*qinv mod p
};

size_t key_store_itch(size_t hw) { return 2 * mpn::mont_ctx_itch(hw) + hw; }

// Builds the key contexts inside `store` (key_store_itch(hw) limbs). ws: work_itch limbs.
void key_init(Key &k, const limb *p, const limb *q, const limb *dp, const limb *dq,
              const limb *qinv, size_t hw, limb *store, limb *ws) {
  k.p = p;
  k.q = q;
  k.dp = dp;
  k.dq = dq;
  k.pn = mpn::normalized_size(p, hw);
  k.qn = mpn::normalized_size(q, hw);
  limb *sp = store, *sq = sp + mpn::mont_ctx_itch(hw);
  k.qinv_r2 = sq + mpn::mont_ctx_itch(hw);
  mpn::mont_ctx_init(k.cp, p, k.pn, sp);
  mpn::mont_ctx_init(k.cq, q, k.qn, sq);
  // qinv < p, so qinv fits pn limbs
  mpn::mont_to(k.qinv_r2, qinv, k.cp, ws);
  mpn::mont_to(k.qinv_r2, k.qinv_r2, k.cp, ws);
}

// r (mn limbs) = c mod m, c of cw limbs; tmp: cw + 1 limbs... uses ws for division scratch.
void reduce(limb *r, const limb *c, size_t cw, const limb *m, size_t mn, limb *ws) {
  size_t cn = mpn::normalized_size(c, cw);
  if (cn < mn) {
    mpn::copy(r, c, cn);
    mpn::zero(r + cn, mn - cn);
    return;
  }
  mpn::tdiv_qr(nullptr, r, c, cn, m, mn, ws);
}

// out (width limbs) from m1 (pn limbs, < p), m2 (qn limbs, < q). t, h: hw+1 limbs;
// prod: 2*hw + 1 limbs; ws: scratch.
void recombine(limb *out, size_t width, const Key &k, const limb *m1, const limb *m2, limb *t,
               limb *h, limb *prod, limb *ws) {
  size_t pn = k.pn, qn = k.qn;
  // m2 mod p (m2 < q; when q < p nothing to do)
  if (qn > pn || (qn == pn && mpn::cmp(k.q, k.p, pn) > 0)) {
    reduce(t, m2, qn, k.p, pn, ws);
  } else {
    mpn::copy(t, m2, qn);
    mpn::zero(t + qn, pn - qn);
  }
  limb bw = mpn::sub_n(t, m1, t, pn);     // t = m1 - m2 (mod 2^(64pn))
  mpn::cnd_add_n(bw, t, t, k.p, pn);      // + p when it borrowed: t in [0, p)
  mpn::mont_mul(h, t, k.qinv_r2, k.cp, ws);  // t*qinv*R (almost reduced)
  mpn::mont_from(h, h, k.cp, ws);            // t*qinv mod p, fully reduced
  if (pn >= qn) mpn::mul(prod, h, pn, k.q, qn, ws);
  else mpn::mul(prod, k.q, qn, h, pn, ws);
  size_t pl = pn + qn;
  limb cy = mpn::add(prod, prod, pl, m2, qn);
  (void)cy;  // m2 + h*q <= (q-1) + (p-1)q < n: no carry
  size_t cpy = std::min(pl, width);
  mpn::copy(out, prod, cpy);
  if (width > cpy) mpn::zero(out + cpy, width - cpy);
}

} // namespace
} // namespace batch
} // namespace mpb

using namespace mpb;
using namespace mpb::batch;

extern "C" MPB_API int mpb_batch_rsa_crt(mpb_ctx *ctx, uint64_t *out, const uint64_t *c,
                                         const uint64_t *n, const uint64_t *p, const uint64_t *q,
                                         const uint64_t *dp, const uint64_t *dq,
                                         const uint64_t *qinv, size_t width, size_t half_width,
                                         size_t key_rows, size_t count, mpb_call_info *info) {
  Call call(info);
  int st;
  if ((st = check_shape(call, ctx, width, count, 1))) return st;
  if (half_width < 1 || half_width > width)
    return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "half_width must be in 1..width");
  Settings s = snapshot(ctx);
  if ((st = check_backend(call, s, true))) return st;
  call.set_ct(s.ct != MPB_CT_OFF);
  if (count == 0) {
    call.choose(MPB_BACKEND_CPU, 1, "empty batch");
    return call.finish(MPB_OK);
  }
  if ((st = check_ptr(call, out, MPB_ARG_R)) || (st = check_ptr(call, c, MPB_ARG_A)) ||
      (st = check_ptr(call, n, MPB_ARG_M)) || (st = check_ptr(call, p, MPB_ARG_P)) ||
      (st = check_ptr(call, q, MPB_ARG_Q)) || (st = check_ptr(call, dp, MPB_ARG_DP)) ||
      (st = check_ptr(call, dq, MPB_ARG_DQ)) || (st = check_ptr(call, qinv, MPB_ARG_QINV)))
    return st;
  if ((st = check_rows(call, key_rows, count, MPB_ARG_COUNT))) return st;
  if ((st = check_rsa_keys(call, n, p, q, dp, dq, qinv, width, half_width, key_rows))) return st;
  if ((st = check_below(call, c, width, count, n, key_rows, width, MPB_ARG_A))) return st;

  const size_t hw = half_width;
  const bool shared = (key_rows == 1);
  const bool ct = (s.ct != MPB_CT_OFF);
  call.set_ct(ct);
  char gpu_why[112] = {0};
  {
    int gst = MPB_OK;
    if (gpu_try_rsa(call, s, out, c, p, q, dp, dq, qinv, width, hw, key_rows, count, &gst, gpu_why,
                    sizeof gpu_why))
      return gst == MPB_OK ? call.finish(MPB_OK) : call.fail(gst, MPB_ARG_CTX, -1, gpu_why);
  }

  // ---- backend -------------------------------------------------------------------------
  const char *why;
  const double w_item = 2.0 * work_powm(hw, 64 * hw);  // two half-size exponentiations
  IfmaSplit split;
  if (s.backend == MPB_BACKEND_CPU_IFMA && hw <= 256) {
    split = ifma_split(s, count, hw, w_item, true);
    why = "forced cpu-ifma";
  } else if (s.backend == MPB_BACKEND_AUTO && simd::ifma_available() &&
             hw >= (size_t)tuning::BATCH_IFMA_MIN_LIMBS && hw <= (size_t)tuning::BATCH_IFMA_MAX_LIMBS &&
             (split = ifma_split(s, count, hw, w_item, false)).use) {
    why = "auto: AVX-512 IFMA for the half-size exponentiations, groups of 8";
  } else {
    why = s.backend == MPB_BACKEND_AUTO
              ? (!simd::ifma_available() ? "auto: scalar (no AVX-512 IFMA)"
                 : hw > (size_t)tuning::BATCH_IFMA_MAX_LIMBS
                     ? "auto: scalar (width outside the IFMA range)"
                     : "auto: scalar (estimated faster than IFMA groups on these threads)")
              : s.backend == MPB_BACKEND_CPU      ? "forced cpu: scalar CRT"
              : s.backend == MPB_BACKEND_CPU_IFMA ? "cpu-ifma requested but the halves exceed 256 limbs: scalar CRT"
                                                  : "multipartite has no RSA path: scalar CRT";
  }
  const bool ifma = split.use;
  const size_t full = split.full, rem = count - full * 8;
  const bool partial = split.partial;
  size_t groups = split.groups();
  size_t tasks = groups + (partial ? 0 : rem);
  int T = threads_for(s, tasks, w_item * (ifma ? 8.0 : 1.0));

  // ---- scratch ---------------------------------------------------------------------------
  size_t work = std::max({ct ? mpn::powm_ct_itch(hw) : mpn::powm_itch(hw, hw),
                          ifma ? simd::powm_x8_itch(hw) : (size_t)0, mpn::mont_sqr_itch(hw) + 2 * hw,
                          mpn::mul_itch(hw, hw), mpn::tdiv_qr_itch(width, hw),
                          mpn::mont_mul_itch(hw)});
  size_t kst = shared ? 0 : key_store_itch(hw);
  size_t per = kst + 4 * 8 * hw + 2 * (hw + 1) + (2 * hw + 2) + work;
  ThreadScratch scr(T, per, true);
  if (!scr.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");

  Key shared_key;
  limb *shared_store = nullptr;
  size_t shared_bytes = 0;
  if (shared) {
    shared_bytes = (key_store_itch(hw) + work) * sizeof(limb);
    shared_store = static_cast<limb *>(mem_alloc(shared_bytes));
    if (!shared_store) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the key context");
    key_init(shared_key, p, q, dp, dq, qinv, hw, shared_store, shared_store + key_store_itch(hw));
  }
  char buf[112];
  std::snprintf(buf, sizeof buf, "%s; %d threads, %s", why, T, shared ? "one key" : "key per item");
  call.choose(ifma ? MPB_BACKEND_CPU_IFMA : MPB_BACKEND_CPU, T, buf);
  if (ifma) call.add_simd((int)(full * 8 + (partial ? rem : 0)));

  int status = MPB_OK;
#pragma omp parallel num_threads(T) if (T > 1)
  {
    limb *base = scr.get(omp_get_thread_num());
    limb *kstore = base;
    limb *cp = kstore + kst, *cq = cp + 8 * hw, *m1 = cq + 8 * hw, *m2 = m1 + 8 * hw;
    limb *t = m2 + 8 * hw, *h = t + hw + 1, *prod = h + hw + 1, *ws = prod + 2 * hw + 2;
    Key local;
#pragma omp for schedule(dynamic, 1)
    for (int64_t tk = 0; tk < (int64_t)tasks; tk++) {
      size_t first, cnt;
      const bool group = (size_t)tk < groups;
      if (group) {
        first = (size_t)tk * 8;
        cnt = std::min<size_t>(8, count - first);
      } else {
        first = groups * 8 + ((size_t)tk - groups);
        cnt = 1;
      }
      const Key *kp[8];
      Key keys8[8];
      for (size_t l = 0; l < cnt; l++) {
        size_t i = first + l;
        if (shared) {
          kp[l] = &shared_key;
        } else if (!group) {
          key_init(local, p + i * hw, q + i * hw, dp + i * hw, dq + i * hw, qinv + i * hw, hw, kstore, ws);
          kp[l] = &local;
        } else {
          // per-item keys in a group: contexts are built one at a time at recombination;
          // the SIMD kernel only needs the raw moduli.
          Key &k = keys8[l];
          k.p = p + i * hw;
          k.q = q + i * hw;
          k.dp = dp + i * hw;
          k.dq = dq + i * hw;
          k.pn = mpn::normalized_size(k.p, hw);
          k.qn = mpn::normalized_size(k.q, hw);
          kp[l] = &k;
        }
        const Key &k = *kp[l];
        const limb *ci = c + i * width;
        // SIMD lanes use the full hw limbs; scalar the normalized sizes
        size_t pw = group ? hw : k.pn, qw = group ? hw : k.qn;
        reduce(cp + l * hw, ci, width, k.p, k.pn, ws);
        if (pw > k.pn) mpn::zero(cp + l * hw + k.pn, pw - k.pn);
        reduce(cq + l * hw, ci, width, k.q, k.qn, ws);
        if (qw > k.qn) mpn::zero(cq + l * hw + k.qn, qw - k.qn);
      }
      if (group) {
        uint64_t *r1[8], *r2[8];
        const uint64_t *b1[8], *b2[8], *e1[8], *e2[8], *mp[8], *mq[8];
        for (int l = 0; l < 8; l++) {
          if ((size_t)l >= cnt) {  // unused lane of a partial group
            r1[l] = r2[l] = nullptr;
            b1[l] = b2[l] = e1[l] = e2[l] = mp[l] = mq[l] = nullptr;
            continue;
          }
          r1[l] = m1 + l * hw;
          r2[l] = m2 + l * hw;
          b1[l] = cp + l * hw;
          b2[l] = cq + l * hw;
          e1[l] = kp[l]->dp;
          e2[l] = kp[l]->dq;
          mp[l] = kp[l]->p;
          mq[l] = kp[l]->q;
        }
        int s1 = shared ? simd::powm_x8(r1, b1, e1, hw, p, hw, ct, ws)
                        : simd::powm_x8_multi(r1, b1, e1, hw, mp, hw, ct, ws);
        int s2 = shared ? simd::powm_x8(r2, b2, e2, hw, q, hw, ct, ws)
                        : simd::powm_x8_multi(r2, b2, e2, hw, mq, hw, ct, ws);
        if (s1 != MPB_OK || s2 != MPB_OK) {
#pragma omp atomic write
          status = s1 != MPB_OK ? s1 : s2;
        }
        for (size_t l = 0; l < cnt; l++) {
          size_t i = first + l;
          const Key *kk = kp[l];
          if (!shared) {
            key_init(local, p + i * hw, q + i * hw, dp + i * hw, dq + i * hw, qinv + i * hw, hw, kstore, ws);
            kk = &local;
          }
          recombine(out + i * width, width, *kk, m1 + l * hw, m2 + l * hw, t, h, prod, ws);
        }
      } else {
        const Key &k = *kp[0];
        size_t i = first;
        if (ct) {
          mpn::powm_ct(m1, cp, k.dp, hw, k.cp, ws);
          mpn::powm_ct(m2, cq, k.dq, hw, k.cq, ws);
        } else {
          mpn::powm(m1, cp, k.dp, hw, k.cp, ws);
          mpn::powm(m2, cq, k.dq, hw, k.cq, ws);
        }
        recombine(out + i * width, width, k, m1, m2, t, h, prod, ws);
      }
    }
  }
  if (shared_store) {
    secure_zero(shared_store, shared_bytes);
    mem_free(shared_store, shared_bytes);
  }
  return call.finish(status);
}
