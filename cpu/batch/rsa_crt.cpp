// cpu/batch/rsa_crt.cpp: batch RSA private-key operation by the CRT (Garner), mpb_batch_rsa_crt:
//   m1 = c^dp mod p, m2 = c^dq mod q, h = qinv*(m1 - m2) mod p, out = m2 + h*q.
// The two half-size exponentiations of each item run on the exponentiation engine
// (cpu/batch/exp_engine.h): AVX-512 IFMA groups of 8 items (shared p / shared q, or 8
// different keys; a group of up to 4 items runs its p and q halves together as one 8-lane run,
// so a lone item takes one run of 2 lanes) and the rest on the scalar kernels, as the cost
// model splits them; the reductions of c come before them and
// the recombination after, in the same task. One key for the whole batch (Montgomery contexts
// for p and q and qinv*R^2 mod p built once, wiped after the call) or one key per item (built
// per item in the thread's scratch, no allocation). The exponentiations are constant time
// unless the context says MPB_CT_OFF.
// Everything that touches p, q, dp, dq or qinv is constant time in their values (their limb
// counts are public): the Montgomery contexts are set up without division
// (mpn::mont_ctx_init), c mod p, c mod q and m2 mod p are Montgomery reductions
// (mpn::mont_reduce), the recombination uses the schoolbook product and masked carries, and the
// exponentiations are constant time unless the context says MPB_CT_OFF.
#include <algorithm>

#include "batch/exp_engine.h"
#include "core/ct.h"
#include "batch/gpu_attempt.h"
#include "batch/validate.h"

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
  k.pn = declassify(mpn::sec_normalized_size(p, hw));  // the primes' limb counts are public
  k.qn = declassify(mpn::sec_normalized_size(q, hw));
  limb *sp = store, *sq = sp + mpn::mont_ctx_itch(hw);
  k.qinv_r2 = sq + mpn::mont_ctx_itch(hw);
  mpn::mont_ctx_init(k.cp, p, k.pn, sp);
  mpn::mont_ctx_init(k.cq, q, k.qn, sq);
  // qinv < p, so qinv fits pn limbs
  mpn::mont_to(k.qinv_r2, qinv, k.cp, ws);
  mpn::mont_to(k.qinv_r2, k.qinv_r2, k.cp, ws);
}

// r += a (an <= rn limbs) with the carry taken through all of r (no early exit).
void add_ct(limb *r, size_t rn, const limb *a, size_t an) {
  limb cy = mpn::add_n(r, r, a, an);
  for (size_t i = an; i < rn; i++) {
    r[i] += cy;
    cy = r[i] < cy;
  }
}

// out (width limbs) from m1 (pn limbs, < p), m2 (qn limbs, < q). t, h: hw+1 limbs;
// prod: 2*hw + 1 limbs; ws: scratch.
void recombine(limb *out, size_t width, const Key &k, const limb *m1, const limb *m2, limb *t,
               limb *h, limb *prod, limb *ws) {
  size_t pn = k.pn, qn = k.qn;
  mpn::mont_reduce(t, m2, qn, k.cp, ws);  // m2 mod p (m2 < q may exceed p)
  limb bw = mpn::sub_n(t, m1, t, pn);     // t = m1 - m2 (mod 2^(64pn))
  mpn::cnd_add_n(bw, t, t, k.p, pn);      // + p when it borrowed: t in [0, p)
  mpn::mont_mul(h, t, k.qinv_r2, k.cp, ws);  // t*qinv*R (almost reduced)
  mpn::mont_from(h, h, k.cp, ws);            // t*qinv mod p, fully reduced
  // schoolbook (Karatsuba compares halves of its operands); m2 + h*q <= (q-1) + (p-1)q < n
  if (pn >= qn) mpn::mul_basecase(prod, h, pn, k.q, qn);
  else mpn::mul_basecase(prod, k.q, qn, h, pn);
  size_t pl = pn + qn;
  add_ct(prod, pl, m2, qn);
  size_t cpy = std::min(pl, width);
  mpn::copy(out, prod, cpy);
  if (width > cpy) mpn::zero(out + cpy, width - cpy);
}


// The items of an RSA-CRT batch: per item c mod p and c mod q, the two half-size
// exponentiations, and the recombination into out. Per-thread scratch:
// [per-item key storage][cp, cq, m1, m2: 8 lanes of hw limbs each][t, h: hw+1][prod: 2hw+2][work]
class RsaItems final : public ExpItems {
 public:
  struct Rows {
    limb *out;
    const limb *c, *p, *q, *dp, *dq, *qinv;
    size_t width, hw;
  };
  RsaItems(const Rows &rows, const Key *shared, bool ct) : r_(rows), shared_(shared), ct_(ct) {}

  size_t scratch_limbs(bool lanes) const override {
    const size_t hw = r_.hw;
    work_ = std::max({scalar_itch(hw, hw, ct_), lanes ? lanes_itch(hw, isa_) : (size_t)0, mpn::mont_sqr_itch(hw) + 2 * hw,
                      mpn::mont_reduce_itch(hw), mpn::mont_mul_itch(hw)});
    return kst() + 4 * 8 * hw + 2 * (hw + 1) + (2 * hw + 2) + work_;
  }

  int run_group(size_t first, size_t end, limb *base) override {
    const size_t hw = r_.hw, cnt = end - first;
    Bufs b = bufs(base);
    Key keys8[8];
    const Key *kp[8];
    for (size_t l = 0; l < cnt; l++) {
      // per-item keys: each lane's contexts in its own slot of the key storage
      kp[l] = shared_ ? shared_ : &local_key(keys8[l], first + l, b, l);
      // the lanes use the full hw limbs
      reduce_padded(b.cp + l * hw, r_.c + (first + l) * r_.width, kp[l]->cp, hw, b.ws);
      reduce_padded(b.cq + l * hw, r_.c + (first + l) * r_.width, kp[l]->cq, hw, b.ws);
    }
    // The p halves in lanes [0, cnt) of l1; the q halves right after them when both fit one
    // 8-lane run (<= 4 items), else in lanes [0, cnt) of l2. Unused lanes stay unused.
    const bool one_run = cnt <= 4;
    Lanes l1, l2;
    Lanes &lq = one_run ? l1 : l2;
    const size_t q0 = one_run ? cnt : 0;
    for (size_t l = 0; l < cnt; l++) {
      l1.r[l] = b.m1 + l * hw, l1.b[l] = b.cp + l * hw, l1.e[l] = kp[l]->dp, l1.m[l] = kp[l]->p;
      lq.r[q0 + l] = b.m2 + l * hw, lq.b[q0 + l] = b.cq + l * hw, lq.e[q0 + l] = kp[l]->dq, lq.m[q0 + l] = kp[l]->q;
    }
    const int s1 = exp_lanes(l1, hw, shared_ && !one_run ? r_.p : nullptr, hw, ct_, b.ws, isa_);
    const int s2 = one_run ? MPB_OK : exp_lanes(l2, hw, shared_ ? r_.q : nullptr, hw, ct_, b.ws, isa_);
    for (size_t l = 0; l < cnt; l++)
      recombine(r_.out + (first + l) * r_.width, r_.width, *kp[l], b.m1 + l * hw, b.m2 + l * hw, b.t, b.h,
                b.prod, b.ws);
    return s1 != MPB_OK ? s1 : s2;
  }

  int run_one(size_t i, limb *base) override {
    Bufs b = bufs(base);
    Key local;
    const Key &k = shared_ ? *shared_ : local_key(local, i, b, 0);
    const limb *ci = r_.c + i * r_.width;
    reduce_padded(b.cp, ci, k.cp, k.pn, b.ws);
    reduce_padded(b.cq, ci, k.cq, k.qn, b.ws);
    if (ct_) {
      mpn::powm_ct(b.m1, b.cp, k.dp, r_.hw, k.cp, b.ws);
      mpn::powm_ct(b.m2, b.cq, k.dq, r_.hw, k.cq, b.ws);
    } else {
      mpn::powm(b.m1, b.cp, k.dp, r_.hw, k.cp, b.ws);
      mpn::powm(b.m2, b.cq, k.dq, r_.hw, k.cq, b.ws);
    }
    recombine(r_.out + i * r_.width, r_.width, k, b.m1, b.m2, b.t, b.h, b.prod, b.ws);
    return MPB_OK;
  }

 private:
  struct Bufs {
    limb *kstore, *cp, *cq, *m1, *m2, *t, *h, *prod, *ws;
  };
  // per-item keys: storage for the 8 keys of a group
  size_t kst() const { return shared_ ? 0 : 8 * key_store_itch(r_.hw); }
  Bufs bufs(limb *base) {
    const size_t hw = r_.hw;
    Bufs b;
    b.kstore = base;
    b.cp = base + kst(), b.cq = b.cp + 8 * hw, b.m1 = b.cq + 8 * hw, b.m2 = b.m1 + 8 * hw;
    b.t = b.m2 + 8 * hw, b.h = b.t + hw + 1, b.prod = b.h + hw + 1, b.ws = b.prod + 2 * hw + 2;
    return b;
  }
  // Item i's key contexts (per-item keys), built in slot `slot` of the thread's key storage.
  const Key &local_key(Key &k, size_t i, const Bufs &b, size_t slot) const {
    const size_t hw = r_.hw;
    key_init(k, r_.p + i * hw, r_.q + i * hw, r_.dp + i * hw, r_.dq + i * hw, r_.qinv + i * hw, hw,
             b.kstore + slot * key_store_itch(hw), b.ws);
    return k;
  }
  // r (w limbs) = c mod m (the context's n limbs), c one of the batch's rows, zero padded to w.
  void reduce_padded(limb *r, const limb *c, const mpn::MontCtx &m, size_t w, limb *ws) const {
    mpn::mont_reduce(r, c, r_.width, m, ws);
    if (w > m.n) mpn::zero(r + m.n, w - m.n);
  }

  Rows r_;
  const Key *shared_;
  bool ct_;
  mutable size_t work_ = 0;
};

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
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, count).gpu().half(half_width).ct_unless_off(), s, &st,
                 {{out, MPB_ARG_R}, {c, MPB_ARG_A}, {n, MPB_ARG_M}, {p, MPB_ARG_P}, {q, MPB_ARG_Q},
                  {dp, MPB_ARG_DP}, {dq, MPB_ARG_DQ}, {qinv, MPB_ARG_QINV}}))
    return st;
  if ((st = check_rows(call, key_rows, count, MPB_ARG_COUNT))) return st;
  if ((st = check_rsa_keys(call, n, p, q, dp, dq, qinv, width, half_width, key_rows))) return st;
  if ((st = check_below(call, c, width, count, n, key_rows, width, MPB_ARG_A))) return st;

  const size_t hw = half_width;
  const bool shared = (key_rows == 1);
  const bool ct = (s.ct != MPB_CT_OFF);
  call.set_ct(ct);
  const GpuAttempt g = gpu_try_rsa(call, s, out, c, p, q, dp, dq, qinv, width, hw, key_rows, count);
  if (g.finished()) return g.result(call);

  ExpPlan plan;
  plan.count = count;
  plan.lane_limbs = hw;
  plan.max_n = hw;
  plan.work_per_item = 2.0 * work_powm(hw, 64 * hw);  // two half-size exponentiations
  plan.shared_modulus = shared;
  plan.multipartite = false;
  plan.secret = true;
  plan.halves = true;
  const ExpChoice choice = choose_exp_backend(s, plan);

  // one key: its contexts built once (wiped after the call)
  const size_t key_work = std::max(mpn::mont_sqr_itch(hw), mpn::mont_mul_itch(hw));
  SecretBlock store(shared ? key_store_itch(hw) + key_work : 0, true);
  if (!store.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the key context");
  Key shared_key;
  if (shared) key_init(shared_key, p, q, dp, dq, qinv, hw, store.get(), store.get() + key_store_itch(hw));
  RsaItems items({out, c, p, q, dp, dq, qinv, width, hw}, shared ? &shared_key : nullptr, ct);
  st = run_exp_tasks(call, s, plan, choice, items, "", shared ? ", one key" : ", key per item",
                     g.fell_back ? g.why : nullptr);
  return st == MPB_EMEM ? st : call.finish(st);
}
