// cuda/thread/barrett.cuh: per-thread modular exponentiation for ANY modulus m > 1 (even ones
// included, where Montgomery does not apply) by Barrett reduction, on N 32-bit words
// (host + device; tests/cuda/on_host/test_on_host_barrett.cpp runs the same functions against GMP).
//
// Normalization. k = the leading zero bits of m within 32N bits, m' = m * 2^k (top bit of
// word N-1 set), B = 2^(32N), mu = floor((B^2 - 1) / m'). Since B/2 <= m' < B,
// B < mu < 2B, so mu = B + mu' with mu' < B (N words; the "- 1" keeps m' = B/2 inside this
// range). Everything is computed modulo m' (base < m <= m'; m divides m', so the result is
// congruent mod m), and at the end x mod m = ((x * 2^k) mod m') / 2^k.
//
// Reduction of x = xh*B + xl < m'^2 (xh < m'):
//   q  = floor(xh * mu / B) = xh + floor(xh * mu' / B)       (high half of one N x N product)
//   r  = (x - q*m') mod 2^(32(N+1))                           (low N+1 words of q*m')
//   three branch-free conditional subtractions of m'.
// Error bound: xh*mu/B <= xh*B/m' <= x/m', so q <= floor(x/m'). And mu > (B^2-1)/m' - 1, so
// xh*mu/B > xh*B/m' - xh(m'+1)/(B m') > (x - xl)/m' - 1 > x/m' - 3 (xl < B <= 2m', and
// xh(m'+1) < m'^2 + m' <= B m'). Hence q > x/m' - 4, i.e. q >= floor(x/m') - 3, and
// 0 <= r < 4m' < 2^(32N+2): r fits N+1 words (top word <= 3) and three subtractions of m'
// (each taken or not by a mask) leave r < m'. No branch depends on the operands.
//
// Exponentiation: exactly powm_item's schedule (cuda/thread/powm.cuh): fixed windows of W
// bits over all 32*ewords exponent bits, a table of 2^W powers (entry 0 = 1), W squarings
// and one product per window, the constant-time masked table read in CT mode.
#pragma once
#include "cuda/thread/powm.cuh"

namespace mpb {
namespace gpu {

// Constants of one modulus, precomputed on the host (cuda/host/barrett_ctx.h).
template <int N>
struct BarrettModCtx {
  uint32_t m[N];    // m' = m * 2^k, top bit set
  uint32_t mu[N];   // mu' = floor((2^(64N) - 1) / m') - 2^(32N)
  uint32_t p2k[N];  // 2^k
  uint32_t p2r[N];  // 2^(32N - 1 - k)
};

// x (2N words) = a*b (barrett_product), and r = a*b mod m' for a, b < m' (barrett_mul). The
// second operand is read word by word through a functor (registers, the window table, ...;
// see mont.cuh), once per row of an operand-scanning
// product with carry chains (the 2N-word product and a are the only operands in registers:
// the 1024-bit kernel stays within the register file). square = true multiplies a by itself
// (a run-time flag, uniform across a warp). r may alias a.
template <int N, class B>
MPB_HD void barrett_product(uint32_t *x, const uint32_t *a, const B &b, bool square) {
  MPB_UNROLL
  for (int i = 0; i < 2 * N; i++) x[i] = 0;
  MPB_UNROLL
  for (int i = 0; i < N; i++) {
    const uint32_t bi = square ? a[i] : b(i);
    Chain ch;
    x[i] = ch.mad_lo_cc(a[0], bi, x[i]);
    MPB_UNROLL
    for (int j = 1; j < N; j++) x[i + j] = ch.madc_lo_cc(a[j], bi, x[i + j]);
    x[i + N] = ch.addc(x[i + N], 0);
    if (N == 1) {
      x[i + 1] += mul_hi(a[0], bi);  // the row fits N+1 words: no carry out
    } else {
      Chain d;
      x[i + 1] = d.mad_hi_cc(a[0], bi, x[i + 1]);
      MPB_UNROLL
      for (int j = 1; j < N - 1; j++) x[i + j + 1] = d.madc_hi_cc(a[j], bi, x[i + j + 1]);
      x[i + N] = d.madc_hi(a[N - 1], bi, x[i + N]);
    }
  }
}

// q = xh + floor(xh * mu / 2^(32N)) (N words; < 2^(32N) by the bound above, so the carry out
// is zero): the full product xh * mu' by rows; its low words only feed the carries.
template <int N>
MPB_HD void barrett_quotient(uint32_t *q, const uint32_t *xh, const uint32_t *mu) {
  uint32_t t[2 * N];
  barrett_product<N>(t, xh, RegWords{mu}, false);
  Chain ch;
  q[0] = ch.add_cc(xh[0], t[N]);
  MPB_UNROLL
  for (int j = 1; j < N; j++) q[j] = ch.addc_cc(xh[j], t[N + j]);
}

// r = x mod m' for a 2N-word x with x < m'^2 (in particular any product of two values < m').
// r must not alias x.
template <int N>
MPB_HD void barrett_reduce(uint32_t *r, const uint32_t *x, const BarrettModCtx<N> &c) {
  uint32_t q[N];
  barrett_quotient<N>(q, x + N, c.mu);
  // t = q * m' mod 2^(32(N+1)): truncated rows with carry chains (the chains keep the
  // scheduler from hoisting every product: the 1024-bit kernel stays within its registers)
  uint32_t t[N + 1];
  MPB_UNROLL
  for (int j = 0; j <= N; j++) t[j] = 0;
  MPB_UNROLL
  for (int i = 0; i < N; i++) {
    const uint32_t qi = q[i];
    {
      Chain ch;
      t[i] = ch.mad_lo_cc(c.m[0], qi, t[i]);
      MPB_UNROLL
      for (int j = 1; j < N && i + j <= N; j++) t[i + j] = ch.madc_lo_cc(c.m[j], qi, t[i + j]);
      if (i == 0) t[N] = ch.addc(t[N], 0);
    }
    {
      Chain ch;
      t[i + 1] = ch.mad_hi_cc(c.m[0], qi, t[i + 1]);
      MPB_UNROLL
      for (int j = 1; j < N && i + 1 + j <= N; j++) t[i + 1 + j] = ch.madc_hi_cc(c.m[j], qi, t[i + 1 + j]);
    }
  }
  uint32_t top;
  {
    Chain ch;
    r[0] = ch.sub_cc(x[0], t[0]);
    MPB_UNROLL
    for (int i = 1; i < N; i++) r[i] = ch.subc_cc(x[i], t[i]);
    top = ch.subc(x[N], t[N]);  // r < 4m': top <= 3
  }
  MPB_UNROLL
  for (int pass = 0; pass < 3; pass++) {
    uint32_t s[N];
    Chain ch;
    s[0] = ch.sub_cc(r[0], c.m[0]);
    MPB_UNROLL
    for (int i = 1; i < N; i++) s[i] = ch.subc_cc(r[i], c.m[i]);
    uint32_t st = ch.subc(top, 0);
    uint32_t keep = (uint32_t)0 - (st >> 31);  // all ones when (top, r) < m' (top underflows)
    MPB_UNROLL
    for (int i = 0; i < N; i++) r[i] = select(keep, r[i], s[i]);
    top = select(keep, top, st);
  }
}

template <int N, class B>
MPB_HD void barrett_mul(uint32_t *r, const uint32_t *a, const B &b, const BarrettModCtx<N> &c,
                         bool square = false) {
  uint32_t x[2 * N];
  barrett_product<N>(x, a, b, square);
  barrett_reduce<N>(r, x, c);
}

// r = y mod m for y < m' (the un-normalization): z = (y * 2^k) mod m' is a multiple of 2^k
// and z / 2^k = y mod m; z / 2^k = (z * 2^(32N-1-k)) >> (32N-1), a fixed one-bit shift of the
// product's top half (no shift by the run-time k). r may alias y.
template <int N>
MPB_HD void barrett_unnormalize(uint32_t *r, const uint32_t *y, const BarrettModCtx<N> &c) {
  uint32_t z[N];
  barrett_mul<N>(z, y, RegWords{c.p2k}, c);
  uint32_t w[2 * N];
  barrett_product<N>(w, z, RegWords{c.p2r}, false);
  MPB_UNROLL
  for (int j = 0; j < N; j++) r[j] = (w[N + j] << 1) | (w[N - 1 + j] >> 31);
}

// r = base^e mod m, base < m. e has ewords words, processed over all its 32*ewords bits (its
// width is public, its value is not). Same table layout and readers as powm_item.
template <int N, int W, bool CT, class Table>
MPB_HD void powm_barrett_item(uint32_t *r, const uint32_t *base, const uint32_t *e, int ewords,
                               const BarrettModCtx<N> &c, Table &tab) {
  uint32_t acc[N];
  MPB_UNROLL
  for (int j = 0; j < N; j++) acc[j] = j == 0 ? 1u : 0u;
  tab.store(0, acc);  // 1 < m'
  tab.store(1, base);
  copy_words<N>(acc, base);
  MPB_NOUNROLL
  for (FixedPlan<W> plan(ewords); plan.more(); plan.advance()) {  // powm.cuh
    const bool sqr = plan.square();
    uint32_t bits = 1;  // table build: acc = acc * base
    if (!plan.building()) {
      if (plan.first_window()) {
        MPB_UNROLL
        for (int j = 0; j < N; j++) acc[j] = j == 0 ? 1u : 0u;
      }
      if (!sqr) bits = plan.entry(e, ewords);
    }
    // the second operand in registers: acc itself, or the table entry (in CT mode first copied
    // into the scratch entry 2^W by the masked scan of every entry)
    int sel = (int)bits;
    if (CT && !plan.building() && !sqr) {
      table_select_ct<N, W>(tab, bits);
      sel = 1 << W;
    }
    uint32_t b[N];
    if (sqr) {
      copy_words<N>(b, acc);
    } else {
      MPB_UNROLL
      for (int j = 0; j < N; j++) b[j] = tab.word(sel, j);
    }
    barrett_mul<N>(acc, acc, RegWords{b}, c);
    if (plan.building()) tab.store(plan.build_slot(), acc);
  }
  barrett_unnormalize<N>(r, acc, c);
}

// The one-thread Barrett exponentiation as an item policy of the kernel bodies (cuda/grid/powm_bodies.cuh).
template <int N, int W, bool CT>
struct BarrettItem {
  using Ctx = BarrettModCtx<N>;
  template <class Table>
  MPB_HD static void run(uint32_t *r, const uint32_t *b, const uint32_t *e, int ewords, const Ctx &m,
                          Table &tab) {
    powm_barrett_item<N, W, CT>(r, b, e, ewords, m, tab);
  }
};

} // namespace gpu
} // namespace mpb
