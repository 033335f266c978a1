// cuda/thread/powm.cuh: per-thread modular exponentiation and RSA-CRT on N 32-bit words
// (host + device). The kernels in cuda/kernels/ are thin loops over these item functions;
// the CPU tests run the very same functions with a host table against GMP.
//
// Exponentiation: fixed windows of W bits from the top, Montgomery domain, a table of
// 2^W powers per item. Every window does W squarings and one multiplication (by the
// table entry, 1 for a zero window), so the control flow never depends on the exponent
// and threads of a warp never diverge. In constant-time mode the table entry is read by
// scanning every entry with masks (no exponent-dependent address); otherwise it is read
// directly. The number of windows depends only on the public exponent width.
#pragma once
#include "mont.cuh"

namespace mpb {
namespace gpu {

// Modulus constants, precomputed on the host once per modulus (cuda/host/).
template <int N>
struct ModCtx {
  uint32_t n[N];    // odd modulus
  uint32_t r2[N];   // R^2 mod n, R = 2^(32N)
  uint32_t one[N];  // R mod n
  uint32_t ninv;    // -n^-1 mod 2^32
};

// RSA private key constants for CRT (one prime pair; N words per prime).
template <int N>
struct RsaCtx {
  ModCtx<N> p, q;
  uint32_t dp[N], dq[N];
  uint32_t qinv_m[N];  // qinv * R mod p (Montgomery form)
  uint32_t qw[N];      // q itself (for the recombination product)
};

// A table of 2^W entries of N words. Host tests use HostTable; the kernels use a table in
// global memory with entries interleaved across threads (coalesced).
template <int N, int W>
struct HostTable {
  uint32_t v[1 << W][N];
  MPB_GHD void store(int k, const uint32_t *x) {
    for (int j = 0; j < N; j++) v[k][j] = x[j];
  }
  MPB_GHD uint32_t word(int k, int j) const { return v[k][j]; }
};

// Second operand = table entry `sel` (direct read; variable time).
template <class Table>
struct TableWords {
  const Table &t;
  int sel;
  MPB_GHD uint32_t operator()(int i) const { return t.word(sel, i); }
};
// Second operand = table entry `sel`, read by scanning all 2^W entries with masks.
template <class Table, int W>
struct TableWordsCT {
  const Table &t;
  uint32_t sel;
  MPB_GHD uint32_t operator()(int i) const {
    uint32_t w = 0;
MPB_UNROLL
    for (int k = 0; k < (1 << W); k++) w |= t.word(k, i) & eq_mask((uint32_t)k, sel);
    return w;
  }
};

// Bits [pos, pos+W) of the exponent e (ewords words); bits past the end are zero.
template <int W>
MPB_GHD uint32_t window_bits(const uint32_t *e, int ewords, int pos) {
  int w = pos >> 5, s = pos & 31;
  uint64_t x = (w < ewords ? e[w] : 0u);
  if (w + 1 < ewords) x |= (uint64_t)e[w + 1] << 32;
  return (uint32_t)(x >> s) & ((1u << W) - 1);
}

// r = base^e mod n, all in the normal domain. base < n. e has ewords words, processed over
// all its 32*ewords bits (its width is public, its value is not).
template <int N, int W, bool CT, class Table>
MPB_GHD void powm_item(uint32_t *r, const uint32_t *base, const uint32_t *e, int ewords,
                       const ModCtx<N> &m, Table &tab) {
  uint32_t acc[N], bm[N];
  mont_mul<N>(bm, base, RegWords{m.r2}, m.n, m.ninv);  // base * R mod n
  tab.store(0, m.one);
  tab.store(1, bm);
  copy_words<N>(acc, bm);
MPB_NOUNROLL
  for (int k = 2; k < (1 << W); k++) {
    mont_mul<N>(acc, acc, RegWords{bm}, m.n, m.ninv);
    tab.store(k, acc);
  }
  const int nwin = (32 * ewords + W - 1) / W;
  copy_words<N>(acc, m.one);
MPB_NOUNROLL
  for (int w = nwin - 1; w >= 0; w--) {
    if (w != nwin - 1) {
MPB_NOUNROLL
      for (int s = 0; s < W; s++) mont_sqr<N>(acc, acc, m.n, m.ninv);
    }
    uint32_t sel = window_bits<W>(e, ewords, w * W);
    if (CT) mont_mul<N>(acc, acc, TableWordsCT<Table, W>{tab, sel}, m.n, m.ninv);
    else mont_mul<N>(acc, acc, TableWords<Table>{tab, (int)sel}, m.n, m.ninv);
  }
  mont_mul<N>(r, acc, OneWord{}, m.n, m.ninv);  // leave the Montgomery domain
}

// RSA private operation by CRT. c has 2N words (c < n = p*q), out gets 2N words.
// m1 = c^dp mod p, m2 = c^dq mod q, h = qinv*(m1 - m2) mod p, out = m2 + h*q.
template <int N, int W, bool CT, class Table>
MPB_GHD void rsa_crt_item(uint32_t *out, const uint32_t *c, const RsaCtx<N> &k, Table &tab) {
  uint32_t cp[N], m1[N], m2[N], t[N];
  // c mod p and c mod q, through the Montgomery domain: redc(c) = c/R, times R^3 -> c*R,
  // then one more mont_mul by 1 gives c mod p in the normal domain.
  mont_redc<N>(t, c, k.p.n, k.p.ninv);
  mont_mul<N>(t, t, RegWords{k.p.r2}, k.p.n, k.p.ninv);  // (c/R)*R^2/R = c mod p
  copy_words<N>(cp, t);
  powm_item<N, W, CT>(m1, cp, k.dp, N, k.p, tab);
  mont_redc<N>(t, c, k.q.n, k.q.ninv);
  mont_mul<N>(t, t, RegWords{k.q.r2}, k.q.n, k.q.ninv);
  powm_item<N, W, CT>(m2, t, k.dq, N, k.q, tab);
  // m2 mod p (m2 < q < R <= p*R): redc(m2) * R^2 / R = m2 mod p
  uint32_t wide[2 * N];
  copy_words<N>(wide, m2);
MPB_UNROLL
  for (int j = 0; j < N; j++) wide[N + j] = 0;
  mont_redc<N>(t, wide, k.p.n, k.p.ninv);
  mont_mul<N>(t, t, RegWords{k.p.r2}, k.p.n, k.p.ninv);
  sub_mod<N>(t, m1, t, k.p.n);                                 // m1 - m2 mod p
  mont_mul<N>(t, t, RegWords{k.qinv_m}, k.p.n, k.p.ninv);      // h = (m1-m2)*qinv mod p
  mul_comba_dc<N>(wide, t, k.qw);                              // h*q < n
  Chain ch;
  out[0] = ch.add_cc(wide[0], m2[0]);
MPB_UNROLL
  for (int j = 1; j < N; j++) out[j] = ch.addc_cc(wide[j], m2[j]);
MPB_UNROLL
  for (int j = N; j < 2 * N - 1; j++) out[j] = ch.addc_cc(wide[j], 0);
  out[2 * N - 1] = ch.addc(wide[2 * N - 1], 0);
}

} // namespace gpu
} // namespace mpb
