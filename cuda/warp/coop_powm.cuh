// cuda/warp/coop_powm.cuh: modular exponentiation and RSA-CRT for one item owned by a
// group of TPI threads (host + device; see cuda/warp/coop.cuh for the slot convention). The kernels in
// cuda/kernels/coop_kernels.cu are loops over these item functions with DevGroup and a table
// in global memory; tests/cuda/on_host/test_on_host_coop.cpp runs the same functions with HostGroup.
//
// The exponentiation follows powm.cuh: one loop of steps, each one coop_mont_mul (a squaring
// or a product with a table entry); each lane keeps its W-word slice of every table entry.
//  - Constant time (coop_powm_chain, RSA always): fixed windows of WIN bits from the top, a
//    table of 2^WIN Montgomery powers, WIN squarings and one product per window, the entry
//    read by scanning all of them with masks; the control flow depends only on the
//    exponent's public width.
//  - Variable time (coop_powm_chain_slide, public exponents): the sliding-window plan of
//    powm.cuh (SlidePlan: odd powers b, b^3, ..., windows of up to WIN + 1 bits). All lanes
//    of a group see the same exponent, so the group's step count is uniform; the groups of
//    one warp differ, and DevGroup's shuffles name the whole warp, so the loop runs to the
//    warp's largest count (G::warp_any) and a group that is done does idle squarings whose
//    result is discarded.
#pragma once
#include "cuda/warp/coop.cuh"
#include "cuda/thread/powm.cuh"

namespace mpb {
namespace gpu {

// Host table: all lanes of one group. Entry e, lane l, word j.
template <int TPI, int W, int WIN>
struct HostCoopTable {
  uint32_t v[1 << WIN][TPI][W];
  uint32_t word(int lane, int e, int j) const { return v[e][lane][j]; }
  void store_word(int lane, int e, int j, uint32_t x) { v[e][lane][j] = x; }
};

template <class G, int W, class Table>
MPB_HD void coop_tab_store(const G &g, Table &tab, int e, const uint32_t (*x)[W]) {
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) tab.store_word(g.lane(s), e, j, x[s][j]);
  }
}
template <class G, int W, class Table>
MPB_HD void coop_tab_load(const G &g, const Table &tab, int e, uint32_t (*x)[W]) {
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) x[s][j] = tab.word(g.lane(s), e, j);
  }
}
// x = entry sel, reading every entry (addresses independent of sel).
template <class G, int W, int WIN, class Table>
MPB_HD void coop_tab_load_ct(const G &g, const Table &tab, uint32_t sel, uint32_t (*x)[W]) {
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) x[s][j] = 0;
    MPB_NOUNROLL
    for (int e = 0; e < (1 << WIN); e++) {
      uint32_t m = eq_mask((uint32_t)e, sel);
      MPB_UNROLL
      for (int j = 0; j < W; j++) x[s][j] |= tab.word(g.lane(s), e, j) & m;
    }
  }
}

// Fixed-window chain (FixedPlan, powm.cuh) over an arithmetic policy Step: Step::one(g, x)
// sets x to the domain's one, Step::mul(g, r, a, b) sets r = a*b (r may alias a). acc holds
// the base (in the policy's domain) on entry and base^e on exit. CT: masked table reads.
template <class G, int W, int WIN, bool CT, class Step, class Table>
MPB_HD void coop_fixed_chain(const G &g, uint32_t (*acc)[W], const uint32_t *e, int ewords,
                              const Step &st, Table &tab) {
  uint32_t x[G::S][W];
  st.one(g, x);
  coop_tab_store<G, W>(g, tab, 0, x);
  coop_tab_store<G, W>(g, tab, 1, acc);
  MPB_NOUNROLL
  for (FixedPlan<WIN> plan(ewords); plan.more(); plan.advance()) {
    if (plan.building()) {
      coop_tab_load<G, W>(g, tab, 1, x);  // table build: acc = acc * base
    } else {
      if (plan.first_window()) st.one(g, acc);
      if (plan.square()) {
        MPB_LANES(s) {
          MPB_UNROLL
          for (int j = 0; j < W; j++) x[s][j] = acc[s][j];
        }
      } else {
        uint32_t sel = plan.entry(e, ewords);
        if (CT) coop_tab_load_ct<G, W, WIN>(g, tab, sel, x);
        else coop_tab_load<G, W>(g, tab, (int)sel, x);
      }
    }
    st.mul(g, acc, acc, x);
    if (plan.building()) coop_tab_store<G, W>(g, tab, plan.build_slot(), acc);
  }
}

// Montgomery arithmetic for coop_fixed_chain: one = R mod n (one_mem).
template <int W>
struct CoopMontStep {
  const uint32_t (*n)[W];
  uint32_t ninv;
  const uint32_t *one_mem;
  template <class G>
  MPB_HD void one(const G &g, uint32_t (*x)[W]) const { coop_load<G, W>(g, x, one_mem); }
  template <class G>
  MPB_HD void mul(const G &g, uint32_t (*r)[W], const uint32_t (*a)[W], const uint32_t (*b)[W]) const {
    coop_mont_mul<G, W>(g, r, a, b, n, ninv);
  }
};

// acc (Montgomery form of the base) becomes base^e in Montgomery form. one_mem: R mod n.
template <class G, int W, int WIN, bool CT, class Table>
MPB_HD void coop_powm_chain(const G &g, uint32_t (*acc)[W], const uint32_t *e, int ewords,
                             const uint32_t (*n)[W], uint32_t ninv, const uint32_t *one_mem,
                             Table &tab) {
  coop_fixed_chain<G, W, WIN, CT>(g, acc, e, ewords, CoopMontStep<W>{n, ninv, one_mem}, tab);
}

// Sliding-window chain (variable time): acc (Montgomery form of the base) becomes base^e in
// Montgomery form. WIN_MAX: the widest window the table holds (2^(WIN_MAX-1) entries).
// w_force: ModCtx::slide_w (0: the width by the exponent's length).
template <class G, int W, int WIN_MAX, class Table>
MPB_HD void coop_powm_chain_slide(const G &g, uint32_t (*acc)[W], const uint32_t *e, int ewords,
                                   const uint32_t (*n)[W], uint32_t ninv, const uint32_t *one_mem,
                                   Table &tab, uint32_t w_force = 0) {
  SlidePlan plan(e, ewords, WIN_MAX, w_force);
  uint32_t x[G::S][W];
  coop_tab_store<G, W>(g, tab, 0, acc);
  MPB_NOUNROLL
  for (;; plan.step++) {
    if (plan.step == plan.build) coop_load<G, W>(g, acc, one_mem);
    bool sqr;
    int entry;
    const bool active = plan.next(sqr, entry);  // the same in every lane of the group
    if (!g.warp_any(active)) break;             // uniform across the warp
    if (active && !sqr) {
      coop_tab_load<G, W>(g, tab, entry, x);
    } else {  // a squaring, or an idle step of a finished group (discarded below)
      MPB_LANES(s) {
        MPB_UNROLL
        for (int j = 0; j < W; j++) x[s][j] = acc[s][j];
      }
    }
    coop_mont_mul<G, W>(g, x, acc, x, n, ninv);
    const uint32_t keep = active ? 0xFFFFFFFFu : 0u;
    MPB_LANES(s) {
      MPB_UNROLL
      for (int j = 0; j < W; j++) acc[s][j] = select(keep, x[s][j], acc[s][j]);
    }
    if (active && plan.building()) coop_tab_store<G, W>(g, tab, plan.build_slot(), acc);
  }
}

// r = base^e mod m (normal domain), base < m. m: ModCtx<TPI*W> in memory. CT: fixed windows
// with masked table reads; otherwise SLIDE (the default) sliding windows of up to WIN + 1
// bits, SLIDE = false fixed windows with direct reads (for comparison).
template <class G, int W, int WIN, bool CT, bool SLIDE = !CT, class Table>
MPB_HD void coop_powm_item(const G &g, uint32_t (*r)[W], const uint32_t (*base)[W],
                            const uint32_t *e, int ewords, const ModCtx<G::TPI * W> &m, Table &tab) {
  static_assert(!(CT && SLIDE), "sliding windows are variable time");
  uint32_t n[G::S][W], x[G::S][W], acc[G::S][W];
  coop_load<G, W>(g, n, m.n);
  coop_load<G, W>(g, x, m.r2);
  coop_mont_mul<G, W>(g, acc, base, x, n, m.ninv);  // base * R mod m
  if (SLIDE) coop_powm_chain_slide<G, W, WIN + 1>(g, acc, e, ewords, n, m.ninv, m.one, tab, m.slide_w);
  else coop_powm_chain<G, W, WIN, CT>(g, acc, e, ewords, n, m.ninv, m.one, tab);
  coop_set_one<G, W>(g, x);
  coop_mont_mul<G, W>(g, r, acc, x, n, m.ninv);  // leave the Montgomery domain
}

// The cooperative Montgomery exponentiation as an item policy of the kernel bodies (cuda/grid/powm_bodies.cuh).
template <int N, int WIN, bool CT, bool SLIDE>
struct CoopMontItem {
  using Ctx = ModCtx<N>;
  template <class G, int W, class Table>
  MPB_HD static void run(const G &g, uint32_t (*r)[W], const uint32_t (*b)[W], const uint32_t *e, int ewords,
                          const Ctx &m, Table &tab) {
    coop_powm_item<G, W, WIN, CT, SLIDE>(g, r, b, e, ewords, m, tab);
  }
};

// RSA private operation by CRT for one item: c (2N words, c < p*q) in memory, result in
// lo (words 0..N) and hi (words N..2N). N = TPI*W words per prime.
// m1 = c^dp mod p, m2 = c^dq mod q, h = qinv*(m1 - m2) mod p, out = m2 + h*q.
template <class G, int W, int WIN, bool CT, class Table>
MPB_HD void coop_rsa_crt_item(const G &g, uint32_t (*lo)[W], uint32_t (*hi)[W], const uint32_t *c,
                               const RsaCtx<G::TPI * W> &k, Table &tab) {
  constexpr int N = G::TPI * W;
  uint32_t n[G::S][W], t[G::S][W], u[G::S][W], m1[G::S][W];
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) m1[s][j] = 0;  // set by the first half
  }
  MPB_NOUNROLL
  for (int half = 0; half < 2; half++) {
    const ModCtx<N> &m = half == 0 ? k.p : k.q;
    coop_load<G, W>(g, n, m.n);
    // c mod prime: redc(c) = c_lo/R + c_hi (c_hi < prime), then two products by R^2 give
    // the Montgomery form c*R mod prime.
    coop_load<G, W>(g, t, c);
    coop_set_one<G, W>(g, u);
    coop_mont_mul<G, W>(g, t, t, u, n, m.ninv);
    coop_load<G, W>(g, u, c + N);
    coop_add_mod<G, W>(g, t, t, u, n);
    coop_load<G, W>(g, u, m.r2);
    coop_mont_mul<G, W>(g, t, t, u, n, m.ninv);
    coop_mont_mul<G, W>(g, t, t, u, n, m.ninv);
    coop_powm_chain<G, W, WIN, CT>(g, t, half == 0 ? k.dp : k.dq, N, n, m.ninv, m.one, tab);
    coop_set_one<G, W>(g, u);
    coop_mont_mul<G, W>(g, t, t, u, n, m.ninv);
    if (half == 0) {
      MPB_LANES(s) {
        MPB_UNROLL
        for (int j = 0; j < W; j++) m1[s][j] = t[s][j];
      }
    }
  }
  // t = m2 < q. m2 mod p = redc(m2) * R^2 / R.
  coop_load<G, W>(g, n, k.p.n);
  coop_set_one<G, W>(g, u);
  coop_mont_mul<G, W>(g, u, t, u, n, k.p.ninv);
  coop_load<G, W>(g, lo, k.p.r2);
  coop_mont_mul<G, W>(g, u, u, lo, n, k.p.ninv);
  coop_sub_mod<G, W>(g, u, m1, u, n);                  // m1 - m2 mod p
  coop_load<G, W>(g, lo, k.qinv_m);
  coop_mont_mul<G, W>(g, u, u, lo, n, k.p.ninv);       // h = (m1 - m2) * qinv mod p
  coop_load<G, W>(g, n, k.qw);
  coop_mul_full<G, W>(g, lo, hi, u, n);                // h*q < p*q
  // out = h*q + m2: add m2 into the low half and ripple the carry through the high half
  // (2*TPI lanes' worth of carry bits: the low half's lanes, then the high half's).
  uint32_t gen[G::S], plo[G::S], phi[G::S];
  MPB_LANES(s) {
    Chain ch;
    lo[s][0] = ch.add_cc(lo[s][0], t[s][0]);
    MPB_UNROLL
    for (int j = 1; j < W; j++) lo[s][j] = ch.addc_cc(lo[s][j], t[s][j]);
    gen[s] = ch.addc(0, 0);
    plo[s] = lane_all_eq<W>(lo[s], 0xFFFFFFFFu) & 1u;
    phi[s] = lane_all_eq<W>(hi[s], 0xFFFFFFFFu) & 1u;
  }
  uint64_t cin = ripple_in(g.ballot(gen), g.ballot(plo) | (g.ballot(phi) << G::TPI));
  MPB_LANES(s) {
    lane_add_bit<W>(lo[s], (uint32_t)(cin >> g.lane(s)) & 1u);
    lane_add_bit<W>(hi[s], (uint32_t)(cin >> (G::TPI + g.lane(s))) & 1u);
  }
}

} // namespace gpu
} // namespace mpb
