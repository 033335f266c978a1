// cuda/warp/coop.cuh: multiple-precision arithmetic shared by a group of TPI threads
// (host + device). For moduli too large for one thread's registers (2048..8192 bits), the
// TPI consecutive lanes of a warp own one item together: lane l holds words [l*W, (l+1)*W)
// of every N = TPI*W word operand, and the lanes talk through warp shuffles and ballots.
//
// Writing the code once for the GPU and the CPU tests: every per-lane value is an array of
// G::S "slots". On the device S = 1 and slot 0 is the thread's own lane (the arrays become
// registers); on the host S = TPI and the code runs all the lanes of one group in lock
// step, the shuffles and ballots reading the other slots. Loops over slots are written
// MPB_LANES(s) { ... }. Control flow is the same for every lane and never depends on the
// operands' values (carries are resolved with masks), so the functions are constant time
// and the lanes never diverge. The shuffles name the whole warp (mask 0xFFFFFFFF): a loop
// whose trip count differs between the groups of a warp (the sliding-window exponentiation
// in coop_powm.cuh) must run to the warp's maximum, G::warp_any.
//
// Montgomery multiplication (coop_mont_mul) is CIOS with lazily propagated carries: each lane
// accumulates its own products in two accumulators (the even and the odd words of a and n, so
// that every 32x32 product is one 64-bit multiply-add with carry), the words that leave a lane
// at the bottom are passed to the lane below, and the words above a lane's slice stay pending
// (they belong to the next lane's first words). One word b_i of the second operand costs three
// shuffles (broadcast b_i, broadcast the quotient digit's word, pass a word down) and 2W
// 64-bit multiply-adds per lane. At the end the pending words are added in and the remaining
// 0/1 carries ripple across the lanes in one step: generate and propagate bits are gathered by
// ballot and carry-in = ((G|P) + G) ^ P, as in a carry-lookahead adder. coop_mul_full (plain
// products) keeps the one-accumulator form (lane_row_add).
#pragma once
#include "cuda/thread/chain.cuh"

#define MPB_LANES(s) for (int s = 0; s < G::S; s++)

namespace mpb {
namespace gpu {

#if defined(__CUDACC__)
// ---- device group: the calling thread's own lane ---------------------------------------------
template <int TPI_>
struct DevGroup {
  static constexpr int TPI = TPI_;
  static constexpr int S = 1;
  static_assert(TPI >= 2 && TPI <= 32 && (TPI & (TPI - 1)) == 0, "TPI: 2..32, a power of two");
  uint32_t lane_;   // lane inside the group
  uint32_t shift_;  // position of the group inside the warp's ballot mask
  __device__ __forceinline__ DevGroup()
      : lane_(threadIdx.x % TPI), shift_(threadIdx.x % 32 - threadIdx.x % TPI) {}
  __device__ __forceinline__ int lane(int) const { return (int)lane_; }
  // out = v of lane src (every lane)
  __device__ __forceinline__ void bcast(uint32_t *out, const uint32_t *v, int src) const {
    out[0] = __shfl_sync(0xFFFFFFFFu, v[0], src, TPI);
  }
  // out = v of lane+1 (0 in the top lane)
  __device__ __forceinline__ void down1(uint32_t *out, const uint32_t *v) const {
    uint32_t x = __shfl_down_sync(0xFFFFFFFFu, v[0], 1, TPI);
    out[0] = lane_ == TPI - 1 ? 0u : x;
  }
  // out = v of lane-1 (0 in lane 0)
  __device__ __forceinline__ void up1(uint32_t *out, const uint32_t *v) const {
    uint32_t x = __shfl_up_sync(0xFFFFFFFFu, v[0], 1, TPI);
    out[0] = lane_ == 0 ? 0u : x;
  }
  // bit l = pred of lane l
  __device__ __forceinline__ uint64_t ballot(const uint32_t *pred) const {
    uint32_t b = __ballot_sync(0xFFFFFFFFu, pred[0] != 0);
    return (uint64_t)((b >> shift_) & (uint32_t)((1ull << TPI) - 1));
  }
  // True while any lane of the WARP (every group in it) passes true: loops whose trip count
  // differs between the groups of a warp run to the warp's maximum with this, so that every
  // full-mask shuffle has all 32 lanes present.
  __device__ __forceinline__ bool warp_any(bool pred) const { return __any_sync(0xFFFFFFFFu, pred) != 0; }
};
#endif

// ---- host group: all TPI lanes of one group, in lock step --------------------------------------
template <int TPI_>
struct HostGroup {
  static constexpr int TPI = TPI_;
  static constexpr int S = TPI_;
  static_assert(TPI >= 2 && TPI <= 32 && (TPI & (TPI - 1)) == 0, "TPI: 2..32, a power of two");
  int lane(int s) const { return s; }
  void bcast(uint32_t *out, const uint32_t *v, int src) const {
    uint32_t x = v[src];
    for (int s = 0; s < S; s++) out[s] = x;
  }
  void down1(uint32_t *out, const uint32_t *v) const {
    for (int s = 0; s < S; s++) out[s] = s + 1 < S ? v[s + 1] : 0u;
  }
  void up1(uint32_t *out, const uint32_t *v) const {
    for (int s = S - 1; s >= 0; s--) out[s] = s > 0 ? v[s - 1] : 0u;
  }
  uint64_t ballot(const uint32_t *pred) const {
    uint64_t b = 0;
    for (int s = 0; s < S; s++) b |= (uint64_t)(pred[s] != 0) << s;
    return b;
  }
  // The emulated warp is this group alone (tests emulate longer-running sibling groups by
  // overriding this, see tests/cuda/on_host/test_on_host_coop.cpp).
  bool warp_any(bool pred) const { return pred; }
};

// ---- lane-local helpers ----------------------------------------------------------------------
// t[0..W) + c0*2^(32W) + c1*2^(32(W+1)) += x[0..W) * y
template <int W>
MPB_HD void lane_row_add(uint32_t *t, uint32_t &c0, uint32_t &c1, const uint32_t *x, uint32_t y) {
  static_assert(W >= 2, "at least two words per lane");
  Chain c;
  t[0] = c.mad_lo_cc(x[0], y, t[0]);
  MPB_UNROLL
  for (int j = 1; j < W; j++) t[j] = c.madc_lo_cc(x[j], y, t[j]);
  c0 = c.addc_cc(c0, 0);
  c1 = c.addc(c1, 0);
  Chain d;
  t[1] = d.mad_hi_cc(x[0], y, t[1]);
  MPB_UNROLL
  for (int j = 1; j < W - 1; j++) t[j + 1] = d.madc_hi_cc(x[j], y, t[j + 1]);
  c0 = d.madc_hi_cc(x[W - 1], y, c0);
  c1 = d.addc(c1, 0);
}

// All ones when every word of x equals v (0 or 0xFFFFFFFF), else zero.
template <int W>
MPB_HD uint32_t lane_all_eq(const uint32_t *x, uint32_t v) {
  uint32_t d = 0;
  MPB_UNROLL
  for (int j = 0; j < W; j++) d |= x[j] ^ v;
  return eq_mask(d, 0);
}

// x += bit (0/1) with the carry absorbed (the caller knows it cannot leave the lane)
template <int W>
MPB_HD void lane_add_bit(uint32_t *x, uint32_t bit) {
  Chain c;
  x[0] = c.add_cc(x[0], bit);
  MPB_UNROLL
  for (int j = 1; j < W - 1; j++) x[j] = c.addc_cc(x[j], 0);
  x[W - 1] = c.addc(x[W - 1], 0);
}
template <int W>
MPB_HD void lane_sub_bit(uint32_t *x, uint32_t bit) {
  Chain c;
  x[0] = c.sub_cc(x[0], bit);
  MPB_UNROLL
  for (int j = 1; j < W - 1; j++) x[j] = c.subc_cc(x[j], 0);
  x[W - 1] = c.subc(x[W - 1], 0);
}

// Carry-in bits of a ripple across lanes: g = lanes that generate a carry, p = lanes that
// pass one on (disjoint). Bit l of the result is the carry into lane l; the bit above the
// top lane is the carry out of the whole number.
MPB_HD uint64_t ripple_in(uint64_t g, uint64_t p) { return ((g | p) + g) ^ p; }

// ---- group operations ----------------------------------------------------------------------
// In all of these, x[s] is the W-word slice of slot s (lane G::lane(s)).

// t = a + b (N words) with the carry out returned (same in every lane, 0/1).
template <class G, int W>
MPB_HD uint32_t coop_add(const G &g, uint32_t (*r)[W], const uint32_t (*a)[W],
                          const uint32_t (*b)[W]) {
  uint32_t gen[G::S], prop[G::S];
  MPB_LANES(s) {
    Chain c;
    r[s][0] = c.add_cc(a[s][0], b[s][0]);
    MPB_UNROLL
    for (int j = 1; j < W; j++) r[s][j] = c.addc_cc(a[s][j], b[s][j]);
    gen[s] = c.addc(0, 0);
    prop[s] = lane_all_eq<W>(r[s], 0xFFFFFFFFu) & 1u;
  }
  uint64_t cin = ripple_in(g.ballot(gen), g.ballot(prop));
  MPB_LANES(s) lane_add_bit<W>(r[s], (uint32_t)(cin >> g.lane(s)) & 1u);
  return (uint32_t)(cin >> G::TPI) & 1u;
}

// r = a - b (N words) with the borrow out returned (same in every lane, 0/1).
template <class G, int W>
MPB_HD uint32_t coop_sub(const G &g, uint32_t (*r)[W], const uint32_t (*a)[W],
                          const uint32_t (*b)[W]) {
  uint32_t gen[G::S], prop[G::S];
  MPB_LANES(s) {
    Chain c;
    r[s][0] = c.sub_cc(a[s][0], b[s][0]);
    MPB_UNROLL
    for (int j = 1; j < W; j++) r[s][j] = c.subc_cc(a[s][j], b[s][j]);
    gen[s] = c.subc(0, 0) & 1u;
    prop[s] = lane_all_eq<W>(r[s], 0) & 1u;  // a borrow in passes through a zero slice
  }
  uint64_t bin = ripple_in(g.ballot(gen), g.ballot(prop));
  MPB_LANES(s) lane_sub_bit<W>(r[s], (uint32_t)(bin >> g.lane(s)) & 1u);
  return (uint32_t)(bin >> G::TPI) & 1u;
}

// r = x - n if (top, x) >= n else x, for (top, x) < 2n; top (0/1) is the bit above x, the
// same in every lane. r may alias x.
template <class G, int W>
MPB_HD void coop_cond_sub(const G &g, uint32_t (*r)[W], const uint32_t (*x)[W], uint32_t top,
                           const uint32_t (*n)[W]) {
  uint32_t d[G::S][W];
  uint32_t borrow = coop_sub<G, W>(g, d, x, n);
  uint32_t keep_x = (uint32_t)0 - (borrow & ~top & 1u);  // (top, x) < n
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) r[s][j] = select(keep_x, x[s][j], d[s][j]);
  }
}

// r = (a + b) mod n, a, b < n
template <class G, int W>
MPB_HD void coop_add_mod(const G &g, uint32_t (*r)[W], const uint32_t (*a)[W],
                          const uint32_t (*b)[W], const uint32_t (*n)[W]) {
  uint32_t s_[G::S][W];
  uint32_t top = coop_add<G, W>(g, s_, a, b);
  coop_cond_sub<G, W>(g, r, s_, top, n);
}

// r = (a - b) mod n, a, b < n
template <class G, int W>
MPB_HD void coop_sub_mod(const G &g, uint32_t (*r)[W], const uint32_t (*a)[W],
                          const uint32_t (*b)[W], const uint32_t (*n)[W]) {
  uint32_t d[G::S][W], nm[G::S][W];
  uint32_t borrow = coop_sub<G, W>(g, d, a, b);
  uint32_t mask = (uint32_t)0 - borrow;  // a < b: add n back
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) nm[s][j] = n[s][j] & mask;
  }
  coop_add<G, W>(g, r, d, nm);  // the carry out cancels the borrow
}

// Folds the pending words (c0, c1) of every lane into the next lane and ripples the carries:
// on return t holds the low N words and the result is the value above them (same in every
// lane), taken from the top lane's pending words. Used at the end of the row loops.
template <class G, int W>
MPB_HD uint32_t coop_settle(const G &g, uint32_t (*t)[W], const uint32_t *c0, const uint32_t *c1) {
  uint32_t i0[G::S], i1[G::S], gen[G::S], prop[G::S], top[G::S];
  g.up1(i0, c0);
  g.up1(i1, c1);
  g.bcast(top, c0, G::TPI - 1);
  MPB_LANES(s) {
    Chain c;
    t[s][0] = c.add_cc(t[s][0], i0[s]);
    t[s][1] = c.addc_cc(t[s][1], i1[s]);
    MPB_UNROLL
    for (int j = 2; j < W; j++) t[s][j] = c.addc_cc(t[s][j], 0);
    gen[s] = c.addc(0, 0);
    prop[s] = lane_all_eq<W>(t[s], 0xFFFFFFFFu) & 1u;
  }
  uint64_t cin = ripple_in(g.ballot(gen), g.ballot(prop));
  MPB_LANES(s) lane_add_bit<W>(t[s], (uint32_t)(cin >> g.lane(s)) & 1u);
  return top[0] + ((uint32_t)(cin >> G::TPI) & 1u);
}

// Passes the lowest word of every lane down one lane (dropping lane 0's) and folds the
// pending words in: the accumulator is divided by 2^32.
template <class G, int W>
MPB_HD void coop_shift_word(const G &g, uint32_t (*t)[W], uint32_t *c0, uint32_t *c1) {
  uint32_t low[G::S], nx[G::S];
  MPB_LANES(s) low[s] = t[s][0];
  g.down1(nx, low);
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W - 1; j++) t[s][j] = t[s][j + 1];
    Chain c;
    t[s][W - 1] = c.add_cc(c0[s], nx[s]);
    c0[s] = c.addc(c1[s], 0);
    c1[s] = 0;
  }
}

// One W-word row of products added to a lane's accumulator as a single carry chain over the
// products x[j0], x[j0+2], ... (every other word of x): the 64-bit product x[j]*y lands on the
// two words acc[o + j - j0], acc[o + j - j0 + 1], so the products of one chain never overlap
// and each madlo/madhi pair is one 64-bit multiply-add with carry in and out (IMAD.WIDE on
// sm_70+, instead of a 32-bit multiply and a separate carry add for each half). started: the
// caller has begun the chain (its carry, e.g. from adding a pending word below acc[o], enters
// the first product); else the first product starts it. The chain's carry ends in acc[top]
// (top: the last index the chain may reach; the value bound keeps anything above it zero).
template <int W>
MPB_HD void lane_wide_row(Chain &c, uint32_t *acc, int o, const uint32_t *x, int j0, uint32_t y, int top,
                          bool started) {
  MPB_UNROLL
  for (int j = j0; j < W; j += 2) {
    const int k = o + j - j0;
    acc[k] = (j == j0 && !started) ? c.mad_lo_cc(x[j], y, acc[k]) : c.madc_lo_cc(x[j], y, acc[k]);
    acc[k + 1] = c.madc_hi_cc(x[j], y, acc[k + 1]);
  }
  MPB_UNROLL
  for (int k = o + W; k < top; k++) acc[k] = c.addc_cc(acc[k], 0);  // o + W: the word after the last product
  acc[top] = c.addc(acc[top], 0);
}

// r = a * b / 2^(32N) mod n (Montgomery), n odd, a, b < n, ninv = -n^-1 mod 2^32.
// r may alias a or b (r is written last).
//
// CIOS over the words of b, two words per step, with each lane's products kept in two
// accumulators so that every product is one 64-bit multiply-add (lane_wide_row): E holds the
// products of the even words of a and n (word j of E at position j of the lane), O those of
// the odd words (word j of O at position j + 1). Per word of b: broadcast it, add a*b_i, take
// q from lane 0's position 0, add n*q, drop one word. Dropping a word turns E into the odd
// accumulator and O into the even one, so the second word of a step runs with the roles
// swapped and the step ends by moving both back by two words (inside the last chains) plus one
// pending word `c` at position 0, folded into the next step's first chain. The two words that
// fall off the bottom of each lane belong to the lane below (positions W-2, W-1 after the
// step): passed down by shuffle and added there. Each lane's accumulated value stays below
// 2^(32(W+1)+2) (its W-word slices of a and n times at most 2^32 + 1, plus the passed-down
// words), which bounds the words the chains must reach. At the end E + 2^32 O + c becomes the
// usual slice-plus-pending-words form, and coop_settle / coop_cond_sub finish as before.
template <class G, int W>
MPB_HD void coop_mont_mul(const G &g, uint32_t (*r)[W], const uint32_t (*a)[W],
                           const uint32_t (*b)[W], const uint32_t (*n)[W], uint32_t ninv) {
  static_assert(W % 2 == 0, "an even number of words per lane");
  // E: positions 0..W+1 (E[W+2]: position W+1 while the roles are swapped); O: positions
  // 1..W+1 (O[W+1]: position W+1 while swapped).
  uint32_t E[G::S][W + 3], O[G::S][W + 2], c[G::S];
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W + 3; j++) E[s][j] = 0;
    MPB_UNROLL
    for (int j = 0; j < W + 2; j++) O[s][j] = 0;
    c[s] = 0;
  }
  MPB_NOUNROLL
  for (int src = 0; src < G::TPI; src++) {
    MPB_UNROLL
    for (int k = 0; k < W; k += 2) {
      uint32_t bw[G::S], b0[G::S], b1[G::S], t[G::S], q[G::S], d0[G::S], d1[G::S];
      MPB_LANES(s) bw[s] = b[s][k];
      g.bcast(b0, bw, src);
      MPB_LANES(s) bw[s] = b[s][k + 1];
      g.bcast(b1, bw, src);
      // ---- word b0: E even (positions j), O odd (positions j + 1) ----
      MPB_LANES(s) {
        Chain c1;  // the pending word c at position 0, its carry into O (position 1) with odd a
        E[s][0] = c1.add_cc(E[s][0], c[s]);
        lane_wide_row<W>(c1, O[s], 0, a[s], 1, b0[s], W, true);
        Chain c2;  // even a into E
        lane_wide_row<W>(c2, E[s], 0, a[s], 0, b0[s], W + 1, false);
        t[s] = E[s][0];
      }
      g.bcast(q, t, 0);
      MPB_LANES(s) {
        q[s] *= ninv;  // makes position 0 zero in lane 0
        Chain c3;  // even n into E
        lane_wide_row<W>(c3, E[s], 0, n[s], 0, q[s], W + 1, false);
        Chain c4;  // odd n into O
        lane_wide_row<W>(c4, O[s], 0, n[s], 1, q[s], W, false);
        d0[s] = E[s][0];  // position 0 falls off: the lane below's (zero in lane 0)
        E[s][0] = 0;
      }
      // ---- word b1, one word lower: O is the even accumulator (O[j] at position j), E the
      // odd one (E[j] at position j - 1; E[1] at position 0 joins O[0]) ----
      Chain c7[G::S];
      MPB_LANES(s) {
        Chain c5;  // even a into O
        lane_wide_row<W>(c5, O[s], 0, a[s], 0, b1[s], W + 1, false);
        Chain c6;  // odd a into E (positions 2m+1, 2m+2 are E[2m+2], E[2m+3])
        lane_wide_row<W>(c6, E[s], 2, a[s], 1, b1[s], W + 2, false);
        O[s][0] = c7[s].add_cc(O[s][0], E[s][1]);  // position 0; its carry goes to position 1 below
        E[s][1] = 0;
        t[s] = O[s][0];
      }
      g.bcast(q, t, 0);
      MPB_LANES(s) {
        q[s] *= ninv;
        // odd n into E with the carry of position 0 (E[2] is position 1), written two words
        // down: E'[j] = E[j + 2] (positions j + 1 before this step's two-word drop = j - 1 after)
        MPB_UNROLL
        for (int j = 1; j < W; j += 2) {
          E[s][j - 1] = c7[s].madc_lo_cc(n[s][j], q[s], E[s][j + 1]);
          E[s][j] = c7[s].madc_hi_cc(n[s][j], q[s], E[s][j + 2]);
        }
        E[s][W] = c7[s].addc_cc(E[s][W + 2], 0);  // position W + 1 before the drop
        E[s][W + 1] = c7[s].addc(0, 0);
        E[s][W + 2] = 0;
        // even n into O, written two words down: position 0 (O[0]) falls off, position 1 (O[1])
        // becomes the pending word c at position 0 of the next step
        Chain c8;
        d1[s] = c8.mad_lo_cc(n[s][0], q[s], O[s][0]);
        c[s] = c8.madc_hi_cc(n[s][0], q[s], O[s][1]);
        MPB_UNROLL
        for (int j = 2; j < W; j += 2) {
          O[s][j - 2] = c8.madc_lo_cc(n[s][j], q[s], O[s][j]);
          O[s][j - 1] = c8.madc_hi_cc(n[s][j], q[s], O[s][j + 1]);
        }
        O[s][W - 2] = c8.addc_cc(O[s][W], 0);
        O[s][W - 1] = c8.addc(O[s][W + 1], 0);
        O[s][W] = O[s][W + 1] = 0;
      }
      // the two words that fell off each lane go to positions W-2, W-1 of the lane below
      uint32_t e0[G::S], e1[G::S];
      g.down1(e0, d0);
      g.down1(e1, d1);
      MPB_LANES(s) {
        Chain c9;
        E[s][W - 2] = c9.add_cc(E[s][W - 2], e0[s]);
        E[s][W - 1] = c9.addc_cc(E[s][W - 1], e1[s]);
        E[s][W] = c9.addc_cc(E[s][W], 0);
        E[s][W + 1] = c9.addc(E[s][W + 1], 0);
      }
    }
  }
  // E + 2^32 O + c as the slice (positions 0..W-1) and the pending words at W, W+1
  uint32_t t[G::S][W], c0[G::S], c1[G::S];
  MPB_LANES(s) {
    Chain f;
    t[s][0] = f.add_cc(E[s][0], c[s]);
    MPB_UNROLL
    for (int j = 1; j < W; j++) t[s][j] = f.addc_cc(E[s][j], O[s][j - 1]);
    c0[s] = f.addc_cc(E[s][W], O[s][W - 1]);
    c1[s] = f.addc(E[s][W + 1], O[s][W]);
  }
  uint32_t top = coop_settle<G, W>(g, t, c0, c1);  // t + top*R < 2n
  coop_cond_sub<G, W>(g, r, t, top, n);
}

// lo + hi*2^(32N) = a * b (full product; lo, hi N words each).
template <class G, int W>
MPB_HD void coop_mul_full(const G &g, uint32_t (*lo)[W], uint32_t (*hi)[W], const uint32_t (*a)[W],
                           const uint32_t (*b)[W]) {
  uint32_t c0[G::S], c1[G::S];
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) hi[s][j] = lo[s][j] = 0;
    c0[s] = c1[s] = 0;
  }
  MPB_NOUNROLL
  for (int src = 0; src < G::TPI; src++) {
    MPB_UNROLL
    for (int k = 0; k < W; k++) {
      uint32_t bw[G::S], bi[G::S], t0[G::S], w0[G::S];
      MPB_LANES(s) bw[s] = b[s][k];
      g.bcast(bi, bw, src);
      MPB_LANES(s) {
        lane_row_add<W>(hi[s], c0[s], c1[s], a[s], bi[s]);
        t0[s] = hi[s][0];
      }
      g.bcast(w0, t0, 0);  // product word src*W + k is final: lane src keeps it
      MPB_LANES(s) lo[s][k] = select(eq_mask((uint32_t)g.lane(s), (uint32_t)src), w0[s], lo[s][k]);
      coop_shift_word<G, W>(g, hi, c0, c1);
    }
  }
  (void)coop_settle<G, W>(g, hi, c0, c1);  // the product fits: nothing above hi
}

// -------------------------------------------------------------------------------------------
// Slices: the lanes' parts of an N-word array in memory (N = TPI*W).
template <class G, int W>
MPB_HD void coop_load(const G &g, uint32_t (*x)[W], const uint32_t *mem) {
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) x[s][j] = mem[g.lane(s) * W + j];
  }
}
template <class G, int W>
MPB_HD void coop_store(const G &g, uint32_t *mem, const uint32_t (*x)[W]) {
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) mem[g.lane(s) * W + j] = x[s][j];
  }
}
// x = 1 (lane 0 word 0)
template <class G, int W>
MPB_HD void coop_set_one(const G &g, uint32_t (*x)[W]) {
  MPB_LANES(s) {
    MPB_UNROLL
    for (int j = 0; j < W; j++) x[s][j] = 0;
    x[s][0] = g.lane(s) == 0 ? 1u : 0u;
  }
}

} // namespace gpu
} // namespace mpb
