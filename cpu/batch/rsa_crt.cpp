// cpu/batch/rsa_crt.cpp: batch RSA private-key operation by the CRT (Garner), mpb_batch_rsa_crt:
//   m1 = c^dp mod p, m2 = c^dq mod q, h = qinv*(m1 - m2) mod p, out = m2 + h*q.
// The two half-size exponentiations of each item run on the exponentiation engine
// (cpu/batch/exp_engine.h): 8-lane groups of up to 8 items (one key or 8 different keys; a
// group's 2 x 8 halves packed from lane 0, so that up to 4 items take one 8-lane run and on AVX2
// 2 items one run of 4) and the rest on the scalar kernels, as the cost model splits them
// (cpu/batch/cost_model.h); the reductions of c come before them and
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
#include <atomic>
#include <new>

#include "batch/exp_engine.h"
#include "core/ct.h"
#include "batch/gpu_attempt.h"
#include "batch/validate.h"
#include "simd/powm_lanes.h"

namespace mpb {
namespace batch {
namespace {

struct Key {
  const limb *p, *q, *dp, *dq;
  size_t pn, qn;
  mpn::MontCtx cp, cq;
  limb *qinv_r1;  // qinv * R mod p (pn limbs, < R), so mont_mul(t, qinv_r1) = t*qinv mod p (< 2p for t < p)
  // q < 2p (q's bit length <= p's, so qn <= pn): m2 mod p is m2 or m2 - p, no division needed
  bool m2_small = false;
  // A prepared key (mpb_rsa_key): R^2 mod p and mod q for the 8-lane kernels, [0] IFMA (52-bit
  // digits), [1] AVX-512F, [2] AVX2 (lane_K[i] = 26..28-bit), at lane_N[i] digits (0: not
  // computed); the index is LaneIsa's.
  const limb *lane_r2p[3] = {}, *lane_r2q[3] = {};
  size_t lane_N[3] = {};
  unsigned lane_K[3] = {};
  // A prepared key with the public exponent e (ew limbs; 0: none): results are checked. With
  // half_check[i] (p and q have the same digit count lane_N[i]) the groups check them in their
  // own 8-lane runs, mod p and mod q.
  const limb *e = nullptr;
  size_t ew = 0;
  bool half_check[3] = {};
  // redc_check (pn == qn, results of at most 2pn limbs): the check's bases are one REDC each,
  // out / R mod p and mod q, which lane_r2cp/cq (R_lanes^2 * R mod p, mod q; simd::LaneR2::vb)
  // bring into the lanes' domain as out; else they are out mod p and mod q (mont_reduce: a REDC
  // and a Montgomery product each)
  bool redc_check = false;
  const limb *lane_r2cp[3] = {}, *lane_r2cq[3] = {};
};
// digit bits of the 8-lane engines ([0] IFMA, [1] AVX-512F, [2] AVX2; the index is LaneIsa's) for
// moduli of `bits` bits
unsigned lane_k(int i, size_t bits) { return lane_digit_bits(static_cast<LaneIsa>(i), bits); }

constexpr size_t kNoMemory = ~(size_t)0;

// a == b over n limbs without a branch on their values (only the outcome is public)
bool equal_rows(const limb *a, const limb *b, size_t n) {
  limb d = 0;
  for (size_t i = 0; i < n; i++) d |= a[i] ^ b[i];
  return declassify(d == 0);
}

// first = min(first, i), from any thread (the first failing item of a batch)
void atomic_min(std::atomic<size_t> &first, size_t i) {
  size_t cur = first.load();
  while (i < cur && !first.compare_exchange_weak(cur, i)) {
  }
}

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
  k.qinv_r1 = sq + mpn::mont_ctx_itch(hw);
  mpn::mont_ctx_init(k.cp, p, k.pn, sp);
  mpn::mont_ctx_init(k.cq, q, k.qn, sq);
  // qinv < p, so qinv fits pn limbs
  mpn::mont_to(k.qinv_r1, qinv, k.cp, ws);
  // the primes' bit lengths are public, as their limb counts
  k.m2_small = k.qn <= k.pn && declassify(mpn::sec_bit_length(q, hw)) <= declassify(mpn::sec_bit_length(p, hw));
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
  limb bw;
  if (k.m2_small) {  // m2 < q < 2p: m2 mod p = m2 - p unless that borrows
    mpn::copy(t, m2, qn);
    mpn::zero(t + qn, pn - qn);
    bw = mpn::sub_n(t, t, k.p, pn);
    mpn::cnd_add_n(bw, t, t, k.p, pn);
  } else {
    mpn::mont_reduce(t, m2, qn, k.cp, ws);  // m2 mod p (m2 < q may exceed 2p)
  }
  bw = mpn::sub_n(t, m1, t, pn);          // t = m1 - m2 (mod 2^(64pn))
  mpn::cnd_add_n(bw, t, t, k.p, pn);      // + p when it borrowed: t in [0, p)
  mpn::mont_mul(h, t, k.qinv_r1, k.cp, ws);  // t*qinv mod p, < 2p (t < p, qinv_r1 < R)
  mpn::mont_canon(h, h, k.cp, ws);           // fully reduced
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
                      mpn::mont_reduce_itch(hw), mpn::mont_mul_itch(hw),
                      shared_ && shared_->ew ? mpn::powm_pubexp_ct_itch(hw, shared_->ew) : (size_t)0});
    return kst() + 6 * 8 * hw + 2 * (hw + 1) + (2 * hw + 2) + work_;
  }
  // The check of a prepared key with e: the first item found faulty (else count), and whether
  // some items were left for check_results (scalar items, or groups that cannot check in halves).
  size_t first_fault(size_t count) const { return std::min(fault_.load(), count); }
  bool unchecked() const { return unchecked_.load(); }

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
    // The 2*cnt half exponentiations packed from lane 0: the items' p halves, then their q
    // halves, lanes 0..7 of run 0 and the rest in run 1, so that no run, and on AVX2 no 4-lane
    // half of one, starts for unused lanes: <= 4 items take one 8-lane run, 8 items the p
    // halves in one and the q halves in the other, and on AVX2 2 items one run of 4 and 5 or 6
    // items three. Half h is item h % cnt's, mod q when h >= cnt; unused lanes stay unused.
    const size_t nh = 2 * cnt, runs = (nh + 7) / 8;
    Lanes l[2];
    // a prepared key's R^2 values, when it has them for this engine
    const int ii = (int)isa_;
    const bool pre = shared_ && shared_->lane_N[ii];
    simd::LaneR2 g[2];
    for (size_t h = 0; h < nh; h++) {
      const size_t i = h % cnt, lane = h % 8;
      const bool hq = h >= cnt;
      Lanes &L = l[h / 8];
      L.r[lane] = (hq ? b.m2 : b.m1) + i * hw, L.b[lane] = (hq ? b.cq : b.cp) + i * hw;
      L.e[lane] = hq ? kp[i]->dq : kp[i]->dp, L.m[lane] = hq ? kp[i]->q : kp[i]->p;
      if (pre) g[h / 8].v[lane] = hq ? shared_->lane_r2q[ii] : shared_->lane_r2p[ii];
    }
    for (size_t k = 0; k < runs; k++) {
      g[k].K = pre ? shared_->lane_K[ii] : 0, g[k].N = pre ? shared_->lane_N[ii] : 0;
      if (pre) l[k].r2 = &g[k];
    }
    int st = MPB_OK;
    for (size_t k = 0; k < runs && st == MPB_OK; k++) st = exp_lanes(l[k], hw, nullptr, hw, ct_, b.ws, isa_);
    for (size_t i = 0; i < cnt; i++)
      recombine(r_.out + (first + i) * r_.width, r_.width, *kp[i], b.m1 + i * hw, b.m2 + i * hw, b.t, b.h,
                b.prod, b.ws);
    if (st == MPB_OK && shared_ && shared_->ew) {
      if (pre && shared_->half_check[ii]) {
        // out^e == c mod p and mod q (so mod n): the same lanes, the primes' R^2 given (no
        // division by a secret prime in variable time); the exponent e is public
        for (size_t i = 0; i < cnt; i++) {
          const limb *o = r_.out + (first + i) * r_.width;
          if (shared_->redc_check) {  // out / R mod p, mod q: lane_r2cp/cq make them out
            redc_padded(b.xp + i * hw, o, shared_->cp, hw, b.ws);
            redc_padded(b.xq + i * hw, o, shared_->cq, hw, b.ws);
          } else {
            reduce_padded(b.xp + i * hw, o, shared_->cp, hw, b.ws);
            reduce_padded(b.xq + i * hw, o, shared_->cq, hw, b.ws);
          }
        }
        for (size_t h = 0; h < nh; h++) {
          const size_t i = h % cnt;
          const bool hq = h >= cnt;
          Lanes &L = l[h / 8];
          L.b[h % 8] = (hq ? b.xq : b.xp) + i * hw, L.e[h % 8] = shared_->e;
          g[h / 8].vb[h % 8] = !shared_->redc_check ? nullptr : hq ? shared_->lane_r2cq[ii] : shared_->lane_r2cp[ii];
        }
        int v = MPB_OK;
        for (size_t k = 0; k < runs && v == MPB_OK; k++) v = exp_lanes(l[k], shared_->ew, nullptr, hw, false, b.ws, isa_);
        for (size_t i = 0; i < cnt; i++)
          if (v != MPB_OK || !equal_rows(b.m1 + i * hw, b.cp + i * hw, hw) ||
              !equal_rows(b.m2 + i * hw, b.cq + i * hw, hw))
            note_fault(first + i);
      } else {
        unchecked_.store(true);
      }
    }
    return st;
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
    limb *o = r_.out + i * r_.width;
    recombine(o, r_.width, k, b.m1, b.m2, b.t, b.h, b.prod, b.ws);
    if (shared_ && shared_->ew && !check_halves(o, k, b)) note_fault(i);
    return MPB_OK;
  }

 private:
  struct Bufs {
    limb *kstore, *cp, *cq, *m1, *m2, *xp, *xq, *t, *h, *prod, *ws;
  };
  void note_fault(size_t i) { atomic_min(fault_, i); }
  // A scalar item's check with the prepared key's e: out^e == c mod p and mod q, which is out^e
  // == c mod n (n = pq, validated with the key), at half the size: c mod p and mod q are still in
  // b.cp, b.cq; m1, m2 and xp are free after the recombination. (The check mod n, by
  // check_results, was ~2.5% of a scalar RSA-2048 item on the Zen 5 VM; the items are 1.5% faster
  // with this one, 2026-11-30.) e is public; powm_pubexp_ct is constant time in the base.
  bool check_halves(const limb *o, const Key &k, const Bufs &b) const {
    mpn::mont_reduce(b.xp, o, r_.width, k.cp, b.ws);
    mpn::powm_pubexp_ct(b.m1, b.xp, k.e, k.ew, k.cp, b.ws);
    mpn::mont_reduce(b.xp, o, r_.width, k.cq, b.ws);
    mpn::powm_pubexp_ct(b.m2, b.xp, k.e, k.ew, k.cq, b.ws);
    return equal_rows(b.m1, b.cp, k.pn) & equal_rows(b.m2, b.cq, k.qn);
  }
  // per-item keys: storage for the 8 keys of a group
  size_t kst() const { return shared_ ? 0 : 8 * key_store_itch(r_.hw); }
  Bufs bufs(limb *base) {
    const size_t hw = r_.hw;
    Bufs b;
    b.kstore = base;
    b.cp = base + kst(), b.cq = b.cp + 8 * hw, b.m1 = b.cq + 8 * hw, b.m2 = b.m1 + 8 * hw;
    b.xp = b.m2 + 8 * hw, b.xq = b.xp + 8 * hw;
    b.t = b.xq + 8 * hw, b.h = b.t + hw + 1, b.prod = b.h + hw + 1, b.ws = b.prod + 2 * hw + 2;
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
  // r (w limbs) = c / R mod m, fully reduced, by one REDC: for a row c < m R of at most 2n
  // limbs (a result < n = pq with p, q of n limbs; Key::redc_check), zero padded to w.
  void redc_padded(limb *r, const limb *c, const mpn::MontCtx &m, size_t w, limb *ws) const {
    const size_t n = m.n;
    limb *t = ws, *s = ws + 2 * n;
    mpn::copy(t, c, r_.width);
    mpn::zero(t + r_.width, 2 * n - r_.width);
    mpn::mont_redc(r, t, m);  // < c/R + m < 2m
    mpn::mont_canon(r, r, m, s);
    if (w > n) mpn::zero(r + n, w - n);
  }

  Rows r_;
  const Key *shared_;
  bool ct_;
  mutable size_t work_ = 0;
  std::atomic<size_t> fault_{~(size_t)0};
  std::atomic<bool> unchecked_{false};
};

} // namespace
} // namespace batch
} // namespace mpb

using namespace mpb;
using namespace mpb::batch;

// One key prepared for many calls (mpb_rsa_key_create): copies of the key rows, the key
// contexts and the lanes' R^2 values in one wiped block; with e, what the results' check needs.
struct mpb_rsa_key {
  size_t width, hw;
  mpb::batch::SecretBlock store;
  const mpb::batch::limb *n, *p, *q, *dp, *dq, *qinv;  // in store
  mpb::batch::Key key;
  // the check out^e mod n == c (e_width 0: none): e, n's Montgomery context (scalar items) and
  // R^2 mod n for the 8-lane kernels ([0] IFMA, [1] AVX-512F, [2] AVX2; n_lane_N 0: not computed)
  const mpb::batch::limb *e = nullptr;
  size_t e_width = 0;
  mpb::mpn::MontCtx cn;
  const mpb::batch::limb *n_r2[3] = {};
  size_t n_lane_N[3] = {};
  unsigned n_lane_K[3] = {};
  mpb_rsa_key(size_t w, size_t h, size_t limbs) : width(w), hw(h), store(limbs, true) {}
};

namespace mpb {
namespace batch {
namespace {


// The first item i < count whose out_i^e mod n differs from c_i, count when there is none, or
// kNoMemory. Groups of 8: on the lanes where the CPU has them and they cost less than the
// group's items one by one (R^2 mod n from the key; their arithmetic does not depend on the
// values, the exponent e is public), else item by item with mpn::powm_pubexp_ct (windows on the
// public e, constant time in the result); a result >= n fails without more work.
size_t check_results(const Settings &s, const mpb_rsa_key &k, const limb *out, const limb *c, size_t count) {
  const size_t w = k.width, ew = k.e_width;
  const LaneIsa isa = lanes_best();
  const bool lanes = lanes_available() && w <= 256;
  // a run of lanes costs its full width whether its lanes are used or not (the AVX2 engine runs
  // a group as two runs of 4 and skips an unused one); lane costs are in scalar variable-time
  // items, which is what a check with the public exponent costs on the scalar path
  const double lc = lanes ? lane_cost(isa, w, false) : 0.0;
  auto lanes_pay = [&](size_t cnt) {
    const double run_cost = (isa == LaneIsa::Avx2 ? 4.0 * (double)((cnt + 3) / 4) : 8.0) * lc;
    return lanes && run_cost < (double)cnt;
  };
  const int ii = (int)isa;
  const size_t per = 8 * w + std::max(lanes ? lanes_itch(w, isa) : 0, mpn::powm_pubexp_ct_itch(w, ew));
  const size_t groups = (count + 7) / 8;
  const int T = threads_for(s, groups, 8.0 * work_powm(w, 64 * ew));
  ThreadScratch scr(T, per, false);
  if (!scr.ok()) return kNoMemory;
  std::atomic<size_t> bad{count};
  for_items(T, &scr, groups, 1, [&](size_t g, limb *ws) {
    const size_t i0 = 8 * g, i1 = std::min(i0 + 8, count);
    limb *res = ws, *wk = ws + 8 * w;
    bool done = false;
    if (lanes_pay(i1 - i0)) {
      Lanes l;
      simd::LaneR2 r2;
      r2.K = k.n_lane_K[ii];
      r2.N = k.n_lane_N[ii];
      for (size_t i = i0; i < i1; i++) {
        l.r[i - i0] = res + (i - i0) * w, l.b[i - i0] = out + i * w, l.e[i - i0] = k.e;
        r2.v[i - i0] = k.n_r2[ii];
      }
      if (r2.N) l.r2 = &r2;
      done = exp_lanes(l, ew, k.n, w, false, wk, isa) == MPB_OK;  // MPB_EVAL: a result >= n
    }
    for (size_t i = i0; i < i1; i++) {
      limb *r = res + (i - i0) * w;
      bool ok;
      if (done) ok = true;
      else if ((ok = less_than(out + i * w, w, k.n, w))) {
        mpn::powm_pubexp_ct(r, out + i * w, k.e, ew, k.cn, wk);
        if (w > k.cn.n) mpn::zero(r + k.cn.n, w - k.cn.n);
      }
      if (!ok || !equal_rows(r, c + i * w, w)) atomic_min(bad, i);
    }
  });
  return bad.load();
}

// Everything after validation: the GPU first (AUTO / CUDA), then the engine. prepared: a
// prepared key (key_rows 1), else its contexts are built here (one key) or per item. A prepared
// key with e checks every result before any is released.
int rsa_body(Call &call, const Settings &s, uint64_t *out, const uint64_t *c, const uint64_t *p,
             const uint64_t *q, const uint64_t *dp, const uint64_t *dq, const uint64_t *qinv, size_t width,
             size_t hw, size_t key_rows, size_t count, const mpb_rsa_key *prepared) {
  // bad: the first faulty item found so far (count: none); unchecked: items are left to check
  auto checked = [&](int st, size_t bad, bool unchecked) {
    if (st != MPB_OK || !prepared || !prepared->e_width) return st;
    if (bad == count && unchecked) bad = check_results(s, *prepared, out, c, count);
    if (bad == count) return st;
    secure_zero(out, count * width * sizeof(limb));
    if (bad == kNoMemory) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "no memory to check the results: none released");
    return call.fail(MPB_EFAULT, MPB_ARG_R, (int64_t)bad,
                     "a result failed the check with the public exponent (a fault): none released");
  };
  int st;
  const bool shared = (key_rows == 1);
  const bool ct = (s.ct != MPB_CT_OFF);
  call.set_ct(ct);
  const GpuAttempt g = gpu_try_rsa(call, s, out, c, p, q, dp, dq, qinv, width, hw, key_rows, count);
  if (g.finished()) return checked(g.result(call), count, true);

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

  // one key: its contexts built once (wiped after the call), unless prepared
  const size_t key_work = std::max(mpn::mont_sqr_itch(hw), mpn::mont_mul_itch(hw));
  SecretBlock store(shared && !prepared ? key_store_itch(hw) + key_work : 0, true);
  if (!store.ok()) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the key context");
  Key shared_key;
  if (shared && !prepared) key_init(shared_key, p, q, dp, dq, qinv, hw, store.get(), store.get() + key_store_itch(hw));
  RsaItems items({out, c, p, q, dp, dq, qinv, width, hw}, prepared ? &prepared->key : shared ? &shared_key : nullptr, ct);
  st = run_exp_tasks(call, s, plan, choice, items, "",
                     prepared ? ", prepared key" : shared ? ", one key" : ", key per item", g.fell_back ? g.why : nullptr);
  return st == MPB_EMEM ? st : checked(call.finish(st), items.first_fault(count), items.unchecked());
}

} // namespace
} // namespace batch
} // namespace mpb

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
  return rsa_body(call, s, out, c, p, q, dp, dq, qinv, width, half_width, key_rows, count, nullptr);
}

extern "C" MPB_API int mpb_rsa_key_create(mpb_ctx *ctx, mpb_rsa_key **key, const uint64_t *n, const uint64_t *p,
                                          const uint64_t *q, const uint64_t *dp, const uint64_t *dq,
                                          const uint64_t *qinv, const uint64_t *e, size_t e_width, size_t width,
                                          size_t half_width, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, 1).half(half_width).ct_unless_off(), s, &st,
                 {{key, MPB_ARG_R}, {n, MPB_ARG_M}, {p, MPB_ARG_P}, {q, MPB_ARG_Q}, {dp, MPB_ARG_DP},
                  {dq, MPB_ARG_DQ}, {qinv, MPB_ARG_QINV}}))
    return st;
  if (e_width > MPB_BATCH_MAX_WIDTH) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "e_width > MPB_BATCH_MAX_WIDTH");
  if (e_width && !e) return call.fail(MPB_ENULL, MPB_ARG_E, -1, "e is NULL with e_width > 0");
  if (e_width && (mpn::normalized_size(e, e_width) == 0 || (e[0] & 1) == 0 || (e_width == 1 && e[0] < 3)))
    return call.fail(MPB_EVAL, MPB_ARG_E, 0, "e is not odd and >= 3");
  if ((st = check_rsa_keys(call, n, p, q, dp, dq, qinv, width, half_width, 1))) return st;
  const size_t hw = half_width;
  const size_t nn = mpn::normalized_size(n, width);  // n is public
  const size_t work = std::max({mpn::mont_sqr_itch(hw), mpn::mont_mul_itch(hw), simd::lanes_r2_itch(width),
                                mpn::mont_ctx_itch(width)});
  // n, p, q, dp, dq, qinv, e, the contexts, the lanes' R^2 (3 engines x (2 primes + n, and the
  // check's 2 primes)), n's context, work
  const size_t limbs = width + 5 * hw + e_width + key_store_itch(hw) + 3 * (4 * hw + width) +
                       mpn::mont_ctx_itch(width) + work;
  mpb_rsa_key *k = new (std::nothrow) mpb_rsa_key(width, hw, limbs);
  if (!k || !k->store.ok()) {
    delete k;
    return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the prepared key");
  }
  limb *a = k->store.get();
  auto take = [&a](const uint64_t *src, size_t len) {
    limb *d = a;
    if (src) mpn::copy(d, src, len);
    a += len;
    return d;
  };
  k->n = take(n, width), k->p = take(p, hw), k->q = take(q, hw), k->dp = take(dp, hw), k->dq = take(dq, hw);
  k->qinv = take(qinv, hw);
  k->e = take(e, e_width), k->e_width = e_width;
  limb *kstore = take(nullptr, key_store_itch(hw)), *r2 = take(nullptr, 3 * (4 * hw + width));
  limb *cns = take(nullptr, mpn::mont_ctx_itch(width)), *ws = a;
  key_init(k->key, k->p, k->q, k->dp, k->dq, k->qinv, hw, kstore, ws);
  // R^2 for the lanes at the digit count of the larger prime (the primes' lengths are public),
  // and mod n, for each 8-lane engine this CPU has
  const size_t bits = std::max(declassify(mpn::sec_bit_length(k->p, hw)), declassify(mpn::sec_bit_length(k->q, hw)));
  const size_t nbits = mpn::sec_bit_length(k->n, width);
  const bool have[3] = {simd::ifma_available(), simd::avx512f_available(), simd::avx2_available()};
  // the check's bases by one REDC (redc_check): p and q of the same limb count, results of at
  // most twice that (the limb counts are public)
  const bool redc_check = e_width && k->key.pn == k->key.qn && width <= 2 * k->key.pn;
  for (int i = 0; i < 3; i++) {
    limb *rp = r2 + i * (4 * hw + width), *rq = rp + hw, *rn = rq + hw, *rcp = rn + width, *rcq = rcp + hw;
    if (!have[i]) continue;
    if (hw <= 256) {
      const unsigned K = lane_k(i, bits);
      const size_t N = simd::lanes_digits(K, bits);
      simd::lanes_r2(rp, k->p, hw, K, N, ws);
      simd::lanes_r2(rq, k->q, hw, K, N, ws);
      k->key.lane_r2p[i] = rp, k->key.lane_r2q[i] = rq, k->key.lane_N[i] = N, k->key.lane_K[i] = K;
      if (redc_check) {
        simd::lanes_r2(rcp, k->p, hw, K, N, ws, 64 * k->key.pn);
        simd::lanes_r2(rcq, k->q, hw, K, N, ws, 64 * k->key.qn);
        k->key.lane_r2cp[i] = rcp, k->key.lane_r2cq[i] = rcq;
      }
    }
    if (e_width && width <= 256) {
      const unsigned K = lane_k(i, nbits);
      const size_t N = simd::lanes_digits(K, nbits);
      simd::lanes_r2(rn, k->n, width, K, N, ws);
      k->n_r2[i] = rn, k->n_lane_N[i] = N, k->n_lane_K[i] = K;
    }
  }
  if (e_width) {
    mpn::mont_ctx_init(k->cn, k->n, nn, cns);
    k->key.e = k->e, k->key.ew = e_width;
    k->key.redc_check = redc_check;
    const size_t pb = declassify(mpn::sec_bit_length(k->p, hw)), qb = declassify(mpn::sec_bit_length(k->q, hw));
    // (the run mod p alone has the digit size and count of the run with both primes)
    for (int i = 0; i < 3; i++)
      k->key.half_check[i] = k->key.lane_N[i] && lane_k(i, pb) == k->key.lane_K[i] &&
                             lane_k(i, qb) == k->key.lane_K[i] &&
                             simd::lanes_digits(k->key.lane_K[i], pb) == k->key.lane_N[i] &&
                             simd::lanes_digits(k->key.lane_K[i], qb) == k->key.lane_N[i];
  }
  secure_zero(ws, work * sizeof(limb));
  call.set_ct(true);
  call.choose(MPB_BACKEND_CPU_SCALAR, 1, "prepared RSA key: validated, contexts built");
  if (e_width) {  // e must belong to the key: one private operation on 2, checked
    SecretBlock rows(2 * width, true);
    limb *two = rows.get(), *out1 = two + width;
    RsaItems items({out1, two, k->p, k->q, k->dp, k->dq, k->qinv, width, hw}, &k->key, true);
    SecretBlock one(rows.ok() ? items.scratch_limbs(false) : 0, true);
    size_t bad = kNoMemory;
    if (rows.ok() && one.ok()) {
      mpn::zero(two, width);
      two[0] = 2;
      bad = items.run_one(0, one.get()) == MPB_OK ? check_results(s, *k, out1, two, 1) : 0;
    }
    if (bad != 1) {
      delete k;
      return bad == kNoMemory ? call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the prepared key")
                              : call.fail(MPB_EVAL, MPB_ARG_E, 0, "e does not belong to the key: (2^d)^e != 2 mod n");
    }
  }
  *key = k;
  return call.finish(MPB_OK);
}

extern "C" MPB_API void mpb_rsa_key_destroy(mpb_rsa_key *key) { delete key; }

extern "C" MPB_API int mpb_batch_rsa_crt_key(mpb_ctx *ctx, const mpb_rsa_key *key, uint64_t *out, const uint64_t *c,
                                             size_t count, mpb_call_info *info) {
  Call call(info);
  if (!key) return call.fail(MPB_ENULL, MPB_ARG_M, -1, "the prepared key is NULL");
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(key->width, count).gpu().half(key->hw).ct_unless_off(), s, &st,
                 {{out, MPB_ARG_R}, {c, MPB_ARG_A}}))
    return st;
  if ((st = check_below(call, c, key->width, count, key->n, 1, key->width, MPB_ARG_A))) return st;
  return rsa_body(call, s, out, c, key->p, key->q, key->dp, key->dq, key->qinv, key->width, key->hw, 1, count, key);
}

extern "C" MPB_API size_t mpb_rsa_gpu_min_batch(const mpb_ctx *ctx, size_t width) {
  return ctx ? rsa_gpu_min_batch(snapshot(ctx), width) : 0;
}

namespace mpb {
namespace batch {
namespace testing {
// Test hook (tests/batch/test_batch_rsa.cpp): a fault in the prepared key's p half (q_half
// false) or q half from now on (flips a bit of its copy of dp or dq), to show that a key with e
// releases no wrong result.
void rsa_key_fault(mpb_rsa_key *key, bool q_half) { const_cast<limb *>(q_half ? key->dq : key->dp)[0] ^= 2; }
} // namespace testing
} // namespace batch
} // namespace mpb
