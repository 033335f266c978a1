// cuda/thread/modmul.cuh: per-thread modular multiplication r = a*b mod n on N 32-bit words
// (host + device), for the small widths of the batch modmul kernel (one thread per item):
// t = mont_mul(a, b) = a*b/R, r = mont_mul(t, R^2 mod n) = a*b mod n, R = 2^(32N).
// n odd (any size below R: narrower moduli are zero padded), a, b < n.
// Any modulus (even ones included): modmul_any_item, by CRT over m = 2^s * m_o (m_o odd):
// x_o = a*b mod m_o (two Montgomery products, a and b unreduced below R), x_2 = a*b mod 2^s
// (low product), r = x_o + m_o * ((x_2 - x_o) * m_o^-1 mod 2^s) < m.
#pragma once
#include "cuda/thread/powm.cuh"

namespace mpb {
namespace gpu {

template <int N>
MPB_HD void modmul_item(uint32_t *r, const uint32_t *a, const uint32_t *b, const ModCtx<N> &m) {
  uint32_t t[N];
  mont_mul<N>(t, a, RegWords{b}, m.n, m.ninv);
  mont_mul<N>(r, t, RegWords{m.r2}, m.n, m.ninv);
}

// r = a*b mod 2^(32N) (delayed-carry Comba, columns 0..N-1); r must not alias a or b.
template <int N>
MPB_HD void mullo(uint32_t *r, const uint32_t *a, const uint32_t *b) {
  uint64_t lo = 0, hi = 0;
MPB_UNROLL
  for (int k = 0; k < N; k++) {
MPB_UNROLL
    for (int i = 0; i <= k; i++) {
      lo += mul_lo(a[i], b[k - i]);
      hi += mul_hi(a[i], b[k - i]);
    }
    r[k] = (uint32_t)lo;
    lo = (lo >> 32) + hi;
    hi = 0;
  }
}

// Constants of a modulus m = 2^s * m_o of any parity (host-made, cuda/host/gpu_modmul.cu).
template <int N>
struct AnyModCtx {
  ModCtx<N> odd;     // m_o
  uint32_t inv[N];   // m_o^-1 mod 2^s
  uint32_t mask[N];  // 2^s - 1 (zero for odd m: then r = x_o)
};

// r = a*b mod m for a, b < m <= 2^(32N), any nonzero m.
template <int N>
MPB_HD void modmul_any_item(uint32_t *r, const uint32_t *a, const uint32_t *b, const AnyModCtx<N> &c) {
  uint32_t x2[N], t[N];
  mont_mul<N>(t, a, RegWords{c.odd.r2}, c.odd.n, c.odd.ninv);   // a*R mod m_o (a < R)
  mont_mul<N>(t, t, RegWords{b}, c.odd.n, c.odd.ninv);          // x_o = a*b mod m_o (b < R)
  mullo<N>(x2, a, b);                                            // a*b mod R
  uint32_t d[N];
  {
    Chain ch;
    d[0] = ch.sub_cc(x2[0], t[0]);
MPB_UNROLL
    for (int i = 1; i < N; i++) d[i] = ch.subc_cc(x2[i], t[i]);
  }
MPB_UNROLL
  for (int i = 0; i < N; i++) d[i] &= c.mask[i];                 // (x_2 - x_o) mod 2^s
  mullo<N>(x2, d, c.inv);
MPB_UNROLL
  for (int i = 0; i < N; i++) x2[i] &= c.mask[i];                // u
  mullo<N>(d, c.odd.n, x2);                                      // m_o * u < m: exact
  Chain ch;
  r[0] = ch.add_cc(t[0], d[0]);
MPB_UNROLL
  for (int i = 1; i < N; i++) r[i] = ch.addc_cc(t[i], d[i]);
}

} // namespace gpu
} // namespace mpb
