// cuda/thread/gf2x.cuh: per-thread GF(2)[x] arithmetic for the GPU batch kernels (host+device:
// tests/cuda/on_host/test_on_host_gf2x.cpp runs the same functions on the host against the bit-serial
// reference of tests/ref/).
//
// Words are 32 bits (bit i of word j = coefficient of x^(32j+i)): the GPU's logical operations
// and shifts are native on 32-bit registers (LOP3, SHF), 64-bit ones are pairs of them. A row of
// L 64-bit limbs is N = 2L words in the same memory order (little endian).
//
// Multiplication: left-to-right comb with windows (Hankerson-Menezes-Vanstone, Guide to ECC,
// Alg. 2.36). There is no carry-less multiply on the GPU, so a product costs table lookups and
// XORs: T[u] = u(x) * y(x) for every u of degree < W, then for the window position k from the
// top, acc[j..] ^= T[digit k of x_j] for every word j, and acc *= x^W between positions. The
// table is indexed by data, so it cannot live in registers (dynamic register indexing becomes
// local memory): it lives in shared memory, one private slice per thread, interleaved across
// the block's threads (word i of entry e at (e*(P+1)+i)*stride + thread), so any mix of
// entries across a warp is bank-conflict free. The table covers a panel of at most P words of
// y; a wider y is done panel by panel, each into its own accumulator, which bounds the shared
// memory per thread (2^W (P+1) words). W and P per size: Gf2Plan below.
//
// Squaring: spreading the bits of each word (x_i -> coefficient 2i), bit tricks on 16-bit halves.
//
// Reduction modulo one f shared by the batch (deg f = m):
//  - sparse fast path (reduce_sparse): f = x^m + x^k1 [+ x^k2 + x^k3] + 1 with every k <= m-32 and
//    m, k compile-time (the kernels instantiate it for the NIST polynomials): each word above
//    x^m folds down in one pass with constant shifts (Guide to ECC, Alg. 2.40-2.42, word size 32);
//  - general method for any f (mulmod_barrett): Barrett reduction made shape-static by scaling,
//    F = f * x^s with s = 32N - m, so deg F = M = 32N for every f of the width: a is pre-shifted
//    by s (uniform runtime shift), c = (a x^s) b is reduced mod F with
//    mu = floor(x^(2M) / F) (exact in GF(2)[x] for deg c < 2M, no correction step),
//    q = c_hi + hi(c_hi * (mu - x^M)), r' = lo(c) + lo(q * (F - x^M)) = (a b mod f) x^s, then
//    r = r' >> s. The two extra products scan the shared operand (mu, F - x^M): its digits are
//    the same in every thread, so zero digits are skipped by a warp-uniform branch and a sparse
//    f (few nonzero digits in F - x^M, and usually in mu) costs much less than a dense one.
//    mu and F come from barrett_setup() on the host, once per call.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "cuda/tuning.h"

#include "cuda/thread/chain.cuh"  // MPB_HD, MPB_UNROLL

namespace mpb {
namespace gpu {
namespace gf2 {

using u32 = uint32_t;

// Window width W and panel words P for products of N-word operands, from cuda/tuning.h
// (GPU_GF2X_*): W = GPU_GF2X_WINDOW_SMALL for N <= 4 (the table build is a large part of a
// small product), else GPU_GF2X_WINDOW; P = min(N, GPU_GF2X_PANEL_WORDS). WO / PO, when not 0,
// replace the tuned W / panel (the alternatives bench_gpu times: cuda/variants/gf2x_variants.cu).
template <int N, int WO = 0, int PO = 0>
struct Gf2Plan {
  static constexpr int W = WO ? WO : N <= 4 ? tuning::GPU_GF2X_WINDOW_SMALL : tuning::GPU_GF2X_WINDOW;
  static constexpr int P0 = PO ? PO : tuning::GPU_GF2X_PANEL_WORDS;
  static constexpr int P = N < P0 ? N : P0;
  static_assert(W >= 1 && W <= 8 && P >= 1, "gf2x comb plan");
  static constexpr int ENTRIES = 1 << W;
  static constexpr int TAB_WORDS = ENTRIES * (P + 1);  // per thread
};

// The per-thread window table: entry e, word i at base[(e * P1 + i) * STRIDE] (base already
// offset by the thread index; STRIDE = threads of the block on the device, 1 on the host).
template <int P1, int STRIDE>
struct StridedTab {
  u32 *base;
  MPB_HD u32 get(u32 e, int i) const { return base[(e * P1 + i) * STRIDE]; }
  MPB_HD void set(u32 e, int i, u32 v) { base[(e * P1 + i) * STRIDE] = v; }
};

namespace detail {
// trailing zeros of e > 0 (e is a compile-time constant after unrolling: folds away)
MPB_HD int ctz_small(int e) {
  int t = 0;
  while (!(e & 1)) e >>= 1, t++;
  return t;
}

// (hi:lo) << b, upper word; b in [0, 31]
MPB_HD u32 shl_pair(u32 hi, u32 lo, u32 b) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_l(lo, hi, b);
#else
  return b ? (hi << b) | (lo >> (32 - b)) : hi;
#endif
}
// (hi:lo) >> b, lower word; b in [0, 31]
MPB_HD u32 shr_pair(u32 hi, u32 lo, u32 b) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(lo, hi, b);
#else
  return b ? (lo >> b) | (hi << (32 - b)) : lo;
#endif
}
} // namespace detail

// T[u] = u(x) * y(x) for u < 2^W; y: PW words (PW <= P). Gray-code order: every entry is the
// previous one XOR one shifted copy of y, (P+1) XORs per entry.
template <int W, int P, class Tab>
MPB_HD void build_table(Tab &T, const u32 *y, int PW) {
  u32 sh[W][P + 1];
  MPB_UNROLL
  for (int i = 0; i <= P; i++) sh[0][i] = i < PW ? y[i] : 0;
  MPB_UNROLL
  for (int t = 1; t < W; t++) {
    MPB_UNROLL
    for (int i = 0; i <= P; i++) {
      u32 lo = (i > 0 && i - 1 < PW) ? y[i - 1] : 0, hi = i < PW ? y[i] : 0;
      sh[t][i] = (hi << t) | (lo >> (32 - t));
    }
  }
  u32 cur[P + 1];
  MPB_UNROLL
  for (int i = 0; i <= P; i++) cur[i] = 0, T.set(0, i, 0);
  MPB_UNROLL
  for (int e = 1; e < (1 << W); e++) {
    const int t = detail::ctz_small(e);
    const u32 g = (u32)(e ^ (e >> 1));
    MPB_UNROLL
    for (int i = 0; i <= P; i++) {
      if (i > PW) break;
      cur[i] ^= sh[t][i];
      T.set(g, i, cur[i]);
    }
  }
}

// r[g - LO] ^= word g of x * y for g in [LO, HI). x: NX words (the scanned operand), y: NY words
// (tabled, panels of P words). With LO > 0 word LO of the result is a guard word and inexact
// (shifts from below are not tracked; every contribution moves up by at most W*(positions-1) <
// 32 bits, so words above LO are exact). UX: x is the same in every thread of a warp (shared
// operand): zero digits are skipped by a uniform branch.
template <int NX, int NY, int LO, int HI, int W, int P, bool UX, class Tab>
MPB_HD void comb_acc(u32 *r, const u32 *x, const u32 *y, Tab &T) {
  constexpr int NP = (NY + P - 1) / P;
  constexpr int POS = (32 + W - 1) / W;
  constexpr u32 MASK = (1u << W) - 1;
  MPB_UNROLL
  for (int p = 0; p < NP; p++) {
    const int off = p * P;
    const int PW = NY - off < P ? NY - off : P;
    build_table<W, P>(T, y + off, PW);
    u32 acc[NX + P];
    MPB_UNROLL
    for (int t = 0; t < NX + P; t++) acc[t] = 0;
    // positions stay a loop (the digit shift W*k is a register operand): unrolling them too
    // multiplies the code by POS and lets the scheduler raise register pressure into spills
    MPB_NOUNROLL
    for (int k = POS - 1; k >= 0; k--) {
      MPB_UNROLL
      for (int j = 0; j < NX; j++) {
        if (off + j + PW < LO || off + j >= HI) continue;  // every target word clipped
        const u32 u = (x[j] >> (W * k)) & MASK;
        if (UX && u == 0) continue;
        MPB_UNROLL
        for (int i = 0; i <= P; i++) {
          const int g = off + j + i;
          if (i > PW || g >= HI) break;
          if (g < LO) continue;
          acc[j + i] ^= T.get(u, i);
        }
      }
      if (k) {  // acc *= x^W
        MPB_UNROLL
        for (int t = NX + P - 1; t > 0; t--) {
          const int g = off + t;
          if (g < LO || g >= HI) continue;
          acc[t] = (acc[t] << W) | (acc[t - 1] >> (32 - W));
        }
        acc[0] <<= W;
      }
    }
    MPB_UNROLL
    for (int t = 0; t < NX + P; t++) {
      const int g = off + t;
      if (g >= LO && g < HI) r[g - LO] ^= acc[t];
    }
  }
}

// r (2N words) = a * b (N words each). r may alias a or b. Pl: the comb's plan (T's layout).
template <int N, class Pl = Gf2Plan<N>, class Tab>
MPB_HD void mul(u32 *r, const u32 *a, const u32 *b, Tab &T) {
  u32 c[2 * N];
  MPB_UNROLL
  for (int j = 0; j < 2 * N; j++) c[j] = 0;
  comb_acc<N, N, 0, 2 * N, Pl::W, Pl::P, false>(c, a, b, T);
  MPB_UNROLL
  for (int j = 0; j < 2 * N; j++) r[j] = c[j];
}

// bits 0..15 of x to the even bits 0, 2, ..., 30
MPB_HD u32 spread16(u32 x) {
  x &= 0xFFFFu;
  x = (x | (x << 8)) & 0x00FF00FFu;
  x = (x | (x << 4)) & 0x0F0F0F0Fu;
  x = (x | (x << 2)) & 0x33333333u;
  x = (x | (x << 1)) & 0x55555555u;
  return x;
}

// r (2N words) = a^2. r may equal a (in place; words are written from the top down).
template <int N>
MPB_HD void sqr(u32 *r, const u32 *a) {
  MPB_UNROLL
  for (int j = N - 1; j >= 0; j--) {
    const u32 v = a[j];
    r[2 * j + 1] = spread16(v >> 16);
    r[2 * j] = spread16(v);
  }
}

// ---- reduction: sparse fast path ---------------------------------------------------------
namespace detail {
template <int K>
MPB_HD void fold_at(u32 *c, u32 t, int pos) {  // c ^= t * x^(pos + K), K < 0: no term
  if (K < 0) return;
  const int p = pos + K, w = p / 32, s = p % 32;
  c[w] ^= t << s;
  if (s) c[w + 1] ^= t >> (32 - s);
}
} // namespace detail

// r (N words) = c mod f, f = x^M + x^K1 + x^K2 + x^K3 + 1 (K2, K3 = -1 for a trinomial),
// c: 2N words of degree <= 2M-2 (destroyed). r may alias c.
template <int N, int M, int K1, int K2, int K3>
MPB_HD void reduce_sparse(u32 *r, u32 *c) {
  static_assert(K1 > 0 && K1 <= M - 32 && K2 <= M - 32 && K3 <= M - 32, "fold needs every k <= m - 32");
  static_assert(M < 32 * N, "f wider than the row");
  constexpr int MW = M / 32, MS = M % 32, TOP = (2 * M - 2) / 32 < 2 * N ? (2 * M - 2) / 32 : 2 * N - 1;
  MPB_UNROLL
  for (int i = TOP; i > MW; i--) {  // x^(32i) = x^(32i - M) x^M = x^(32i - M) (x^K1 + ... + 1)
    const u32 t = c[i];
    c[i] = 0;
    const int pos = 32 * i - M;
    detail::fold_at<K1>(c, t, pos);
    detail::fold_at<K2>(c, t, pos);
    detail::fold_at<K3>(c, t, pos);
    detail::fold_at<0>(c, t, pos);
  }
  {
    const u32 t = c[MW] >> MS;
    c[MW] &= MS ? ((1u << MS) - 1) : 0u;
    detail::fold_at<K1>(c, t, 0);
    detail::fold_at<K2>(c, t, 0);
    detail::fold_at<K3>(c, t, 0);
    detail::fold_at<0>(c, t, 0);
  }
  MPB_UNROLL
  for (int j = 0; j < N; j++) r[j] = j <= MW ? c[j] : 0;
}

// r (N words) = a * b mod f, f sparse as above; deg a, deg b < M. r may alias a or b.
template <int N, int M, int K1, int K2, int K3, class Pl = Gf2Plan<N>, class Tab>
MPB_HD void mulmod_sparse(u32 *r, const u32 *a, const u32 *b, Tab &T) {
  u32 c[2 * N];
  mul<N, Pl>(c, a, b, T);
  reduce_sparse<N, M, K1, K2, K3>(r, c);
}

// ---- reduction: general f (Barrett on the scaled modulus F = f x^s) -----------------------
template <int N>
struct BarrettF {
  u32 mu[N];   // floor(x^(2M) / F) - x^M, M = 32N
  u32 flo[N];  // F - x^M = (f - x^m) x^s
  u32 s;       // M - m, in [1, M - 1]
};

// out = in * x^s mod x^(32N), s in [0, 32N) (the same in every thread)
template <int N>
MPB_HD void shl_var(u32 *out, const u32 *in, u32 s) {
  u32 t[N];
  MPB_UNROLL
  for (int j = 0; j < N; j++) t[j] = in[j];
  const u32 q = s >> 5, b = s & 31;
  MPB_UNROLL
  for (int st = 1; st < N; st <<= 1)
    if (q & st) {
      MPB_UNROLL
      for (int j = N - 1; j >= 0; j--) t[j] = j >= st ? t[j - st] : 0;
    }
  MPB_UNROLL
  for (int j = N - 1; j >= 0; j--) out[j] = detail::shl_pair(t[j], j ? t[j - 1] : 0, b);
}
// out = floor(in / x^s), s in [0, 32N)
template <int N>
MPB_HD void shr_var(u32 *out, const u32 *in, u32 s) {
  u32 t[N];
  MPB_UNROLL
  for (int j = 0; j < N; j++) t[j] = in[j];
  const u32 q = s >> 5, b = s & 31;
  MPB_UNROLL
  for (int st = 1; st < N; st <<= 1)
    if (q & st) {
      MPB_UNROLL
      for (int j = 0; j < N; j++) t[j] = j + st < N ? t[j + st] : 0;
    }
  MPB_UNROLL
  for (int j = 0; j < N; j++) out[j] = detail::shr_pair(j + 1 < N ? t[j + 1] : 0, t[j], b);
}

// r (N words) = a * b mod f, any f with 1 <= deg f < 32N (F from barrett_setup); deg a, deg b <
// deg f. r may alias a or b.
template <int N, class Pl = Gf2Plan<N>, class Tab>
MPB_HD void mulmod_barrett(u32 *r, const u32 *a, const u32 *b, const BarrettF<N> &F, Tab &T) {
  u32 as[N], c[2 * N], h[N + 1], q[N], l[N];
  shl_var<N>(as, a, F.s);
  MPB_UNROLL
  for (int j = 0; j < 2 * N; j++) c[j] = 0;
  comb_acc<N, N, 0, 2 * N, Pl::W, Pl::P, false>(c, as, b, T);  // c = (a x^s) b, deg < 2M - 1
  MPB_UNROLL
  for (int j = 0; j <= N; j++) h[j] = 0;
  comb_acc<N, N, N - 1, 2 * N, Pl::W, Pl::P, true>(h, F.mu, c + N, T);  // h[1..N] = hi(c_hi mu')
  MPB_UNROLL
  for (int j = 0; j < N; j++) q[j] = c[N + j] ^ h[j + 1], l[j] = 0;
  comb_acc<N, N, 0, N, Pl::W, Pl::P, true>(l, F.flo, q, T);  // l = lo(q (F - x^M))
  MPB_UNROLL
  for (int j = 0; j < N; j++) l[j] ^= c[j];
  shr_var<N>(r, l, F.s);
}

// Host: F for f of fw 64-bit limbs (N = 2 fw words). false when deg f < 1 or f needs more than
// N words (then F is not written).
template <int N>
inline bool barrett_setup(BarrettF<N> &F, const uint64_t *f, size_t fw) {
  constexpr int M = 32 * N;
  if (2 * fw != (size_t)N) return false;
  int m = -1;
  for (int i = 64 * (int)fw - 1; i >= 0; i--)
    if ((f[i / 64] >> (i % 64)) & 1) {
      m = i;
      break;
    }
  if (m < 1) return false;
  const int s = M - m;
  // Fw = f x^s: N + 1 words with bit M set
  u32 Fw[N + 1] = {0};
  for (int i = 0; i <= m; i++)
    if ((f[i / 64] >> (i % 64)) & 1) Fw[(i + s) / 32] |= 1u << ((i + s) % 32);
  // mu = floor(x^(2M) / Fw), long division bit by bit (2N + 1 words of remainder)
  u32 rem[2 * N + 1] = {0}, mu[N + 1] = {0};
  rem[2 * N] = 1;
  for (int i = 2 * M; i >= M; i--) {
    if (!((rem[i / 32] >> (i % 32)) & 1)) continue;
    const int sh = i - M;  // rem ^= Fw x^sh
    mu[sh / 32] |= 1u << (sh % 32);
    const int ws = sh / 32, bs = sh % 32;
    for (int j = 0; j <= N; j++) {
      rem[j + ws] ^= Fw[j] << bs;
      if (bs && j + ws + 1 <= 2 * N) rem[j + ws + 1] ^= Fw[j] >> (32 - bs);
    }
  }
  for (int j = 0; j < N; j++) F.mu[j] = mu[j], F.flo[j] = Fw[j];
  F.s = (u32)s;
  return true;
}

// The sparse polynomials with compiled fold kernels (NIST binary fields, FIPS 186-4 D.1.3), at
// the width of their field: f_width limbs, m, k1, k2, k3 (-1: no term).
struct SparseField {
  int limbs, m, k1, k2, k3;
};
constexpr SparseField kSparseFields[] = {
    {3, 163, 7, 6, 3}, {4, 233, 74, -1, -1}, {5, 283, 12, 7, 5}, {7, 409, 87, -1, -1}, {9, 571, 10, 5, 2},
};
constexpr int kNumSparseFields = sizeof kSparseFields / sizeof kSparseFields[0];

// Host: index into kSparseFields of f (fw limbs), or -1.
inline int sparse_field_index(const uint64_t *f, size_t fw) {
  for (int i = 0; i < kNumSparseFields; i++) {
    const SparseField &F = kSparseFields[i];
    if ((size_t)F.limbs != fw) continue;
    bool same = true;
    for (size_t l = 0; l < fw && same; l++) {
      uint64_t want = 0;
      const int es[5] = {F.m, F.k1, F.k2, F.k3, 0};
      for (int e : es)
        if (e >= 0 && (size_t)e / 64 == l) want |= 1ull << (e % 64);
      same = f[l] == want;
    }
    if (same) return i;
  }
  return -1;
}

} // namespace gf2
} // namespace gpu
} // namespace mpb
