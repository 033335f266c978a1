// cuda/warp/coop_barrett.cuh: Barrett exponentiation for any modulus m > 1 (even ones
// included) by a group of TPI threads per item (host + device; slot convention of cuda/warp/coop.cuh).
// The arithmetic is that of barrett.cuh (normalized m' = m * 2^k, mu = 2^(32N) + mu', the
// error bound there: r < 4m' before three masked subtractions), on slices:
//   q        = xh + high half of xh * mu'        coop_mul_full, coop_add
//   (t, tN)  = q * m' (low N words and word N)  coop_mul_full (word N: lane 0's first high word)
//   (top, r) = (xl, xN) - (t, tN)                coop_sub plus one word common to the group
//   3 x: (top, r) -= m' when (top, r) >= m'     coop_sub, masks (no branch on the value)
// The word above the N-word slices ("top", at most 3) is a small value common to the group,
// like the one coop_settle returns. The exponentiation follows coop_powm_chain's schedule and
// table (coop_powm.cuh): fixed windows, entry 0 = 1, masked table scan in CT mode.
#pragma once
#include "cuda/thread/barrett.cuh"
#include "cuda/warp/coop_powm.cuh"

namespace mpb {
namespace gpu {

// r = x mod m' for x = xh * 2^(32N) + xl < m'^2. r may alias xl (not xh).
template <class G, int W>
MPB_HD void coop_barrett_reduce(const G &g, uint32_t (*r)[W], const uint32_t (*xl)[W],
                                 const uint32_t (*xh)[W], const BarrettModCtx<G::TPI * W> &c) {
  uint32_t k[G::S][W], lo[G::S][W], hi[G::S][W], q[G::S][W];
  coop_load<G, W>(g, k, c.mu);
  coop_mul_full<G, W>(g, lo, hi, xh, k);
  (void)coop_add<G, W>(g, q, xh, hi);  // q < 2^(32N): no carry out
  uint32_t w0[G::S], xN[G::S], tN[G::S];
  MPB_LANES(s) w0[s] = xh[s][0];
  g.bcast(xN, w0, 0);  // word N of x
  coop_load<G, W>(g, k, c.m);
  coop_mul_full<G, W>(g, lo, hi, q, k);
  MPB_LANES(s) w0[s] = hi[s][0];
  g.bcast(tN, w0, 0);  // word N of q*m'
  uint32_t borrow = coop_sub<G, W>(g, r, xl, lo);
  uint32_t top = xN[0] - tN[0] - borrow;  // r < 4m': top <= 3
  MPB_UNROLL
  for (int pass = 0; pass < 3; pass++) {
    uint32_t b = coop_sub<G, W>(g, lo, r, k);
    uint32_t st = top - b;
    uint32_t keep = (uint32_t)0 - (st >> 31);  // all ones when (top, r) < m'
    MPB_LANES(s) {
      MPB_UNROLL
      for (int j = 0; j < W; j++) r[s][j] = select(keep, r[s][j], lo[s][j]);
    }
    top = select(keep, top, st);
  }
}

// r = a*b mod m' for a, b < m'. r may alias a or b.
template <class G, int W>
MPB_HD void coop_barrett_mul(const G &g, uint32_t (*r)[W], const uint32_t (*a)[W], const uint32_t (*b)[W],
                              const BarrettModCtx<G::TPI * W> &c) {
  uint32_t lo[G::S][W], hi[G::S][W];
  coop_mul_full<G, W>(g, lo, hi, a, b);
  coop_barrett_reduce<G, W>(g, r, lo, hi, c);
}

// r = y mod m for y < m' (see barrett_unnormalize): z = y * 2^k mod m', r = (z * 2^(32N-1-k))
// >> (32N - 1). r may alias y.
template <class G, int W>
MPB_HD void coop_barrett_unnormalize(const G &g, uint32_t (*r)[W], const uint32_t (*y)[W],
                                      const BarrettModCtx<G::TPI * W> &c) {
  uint32_t x[G::S][W], lo[G::S][W], hi[G::S][W];
  coop_load<G, W>(g, x, c.p2k);
  coop_barrett_mul<G, W>(g, x, y, x, c);
  coop_load<G, W>(g, r, c.p2r);
  coop_mul_full<G, W>(g, lo, hi, x, r);
  // bit 31 of the word below each lane's first word: the previous lane's last high word, for
  // lane 0 the top word of the low half (the top lane's last low word)
  uint32_t last[G::S], prev[G::S], lotop[G::S];
  MPB_LANES(s) {
    last[s] = hi[s][W - 1];
    x[s][0] = lo[s][W - 1];
  }
  g.up1(prev, last);
  MPB_LANES(s) last[s] = x[s][0];
  g.bcast(lotop, last, G::TPI - 1);
  MPB_LANES(s) {
    uint32_t below = g.lane(s) == 0 ? lotop[s] : prev[s];
    MPB_UNROLL
    for (int j = W - 1; j >= 1; j--) r[s][j] = (hi[s][j] << 1) | (hi[s][j - 1] >> 31);
    r[s][0] = (hi[s][0] << 1) | (below >> 31);
  }
}

// Barrett arithmetic for coop_fixed_chain (coop_powm.cuh): one = 1 (< m').
template <int W, int N>
struct CoopBarrettStep {
  const BarrettModCtx<N> &c;
  template <class G>
  MPB_HD void one(const G &g, uint32_t (*x)[W]) const { coop_set_one<G, W>(g, x); }
  template <class G>
  MPB_HD void mul(const G &g, uint32_t (*r)[W], const uint32_t (*a)[W], const uint32_t (*b)[W]) const {
    coop_barrett_mul<G, W>(g, r, a, b, c);
  }
};

// r = base^e mod m (base < m). The schedule, table and readers of coop_powm_item's fixed windows.
template <class G, int W, int WIN, bool CT, class Table>
MPB_HD void coop_powm_barrett_item(const G &g, uint32_t (*r)[W], const uint32_t (*base)[W],
                                    const uint32_t *e, int ewords, const BarrettModCtx<G::TPI * W> &c,
                                    Table &tab) {
  uint32_t acc[G::S][W];
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) acc[s][j] = base[s][j];
  }
  coop_fixed_chain<G, W, WIN, CT>(g, acc, e, ewords, CoopBarrettStep<W, G::TPI * W>{c}, tab);
  coop_barrett_unnormalize<G, W>(g, r, acc, c);
}

// The cooperative Barrett exponentiation as an item policy of the kernel bodies (cuda/grid/powm_bodies.cuh).
template <int N, int WIN, bool CT>
struct CoopBarrettItem {
  using Ctx = BarrettModCtx<N>;
  template <class G, int W, class Table>
  MPB_HD static void run(const G &g, uint32_t (*r)[W], const uint32_t (*b)[W], const uint32_t *e, int ewords,
                          const Ctx &m, Table &tab) {
    coop_powm_barrett_item<G, W, WIN, CT>(g, r, b, e, ewords, m, tab);
  }
};

} // namespace gpu
} // namespace mpb
