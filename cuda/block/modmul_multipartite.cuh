// cuda/block/modmul_multipartite.cuh: the multipartite modular multiplication of seed 004 (Giorgi, Imbert,
// Izard 2011, sec. 3.2 - 4.3) as a block-cooperative algorithm, host + device.
//
// Design (one thread block per item, T threads, 32-bit words, beta = 2^32):
//  - The modulus is scaled on the host to P' = d*P, d the largest odd one-word multiplier with
//    P' < beta^n (n = words of P, top word nonzero), so P' > beta^n / 3: the partial Barrett
//    remainders and the final correction then need only a bounded number of subtractions.
//    Working modulo P' is working modulo P (P | P'); the last step reduces mod P.
//  - mp(X, Y) = X*Y*beta^-h mod P' (h = floor(n/2)), X, Y < P':
//      tiles   : A and B are cut in k parts of L = ceil(n/k) words; thread task (i, j) computes
//                the tile X_i*Y_j (L x L words, runtime-sized Comba in shared memory);
//      groups  : the tiles of one weight l = i+j are summed (S_l, 2L+1 words; sec. 3.4);
//      Q       : low weights (l*L < h) get a partial-Montgomery quotient
//                Q_l = mu * S_l mod beta^(h - l*L) (Algorithm 1, mu = -P'^-1 mod beta^h);
//                high weights ((l*L - h) + 2L+1 > n) get a partial-Barrett quotient
//                Q_l = floor(C1 * nu_t / beta^t) (Algorithm 2, nu_t = floor(beta^(n+t)/P')),
//                middle weights none. The Q products are column-parallel over the block.
//      sums    : Qlo = sum Q_l beta^(lL) (low), Qhi = sum Q_l (high) (Lemma 5: one large QP),
//      W       : W = sum S_l beta^(lL) + Qlo*P' - beta^h * Qhi*P', column-parallel: each
//                column of W is one signed 64-bit accumulator, then carries are resolved in
//                chunks (parallel) and rippled between chunks (one thread per number);
//                W = 0 mod beta^h and Y = W / beta^h < beta^(n+1);
//      final   : one more partial Barrett step on Y (t = 2): a quotient estimate q with
//                0 <= Y - q*P' < 5P'. The corrections are block-parallel: the candidates
//                Y - (q+j)*P', j = 0..kCand-1, are formed as signed columns and resolved
//                together, and the largest non-negative one is kept (= mp(X, Y) < P').
//  - The kernel computes r1 = mp(a, b) = a*b*beta^-h, r2 = mp(r1, beta^(2h) mod P') = a*b mod P',
//    then r = r2 mod P (quotient < d: one-word estimate q^ <= q <= q^ + 3, resolved the same
//    way with candidates r2 - (q^+j)*P), so the batch API gets a*b mod m exactly.
//
// Every phase is a function phase_x(tid) of the thread index; the kernel calls them with
// __syncthreads() in between, the host tests call them in a loop over tid (shared memory is
// then plain arrays). Nothing uses per-thread arrays (no local memory on the device).
//
// Carries of the signed column sums are resolved in two steps: chunks of kChunk columns in
// parallel, then one thread per number ripples the chunk carries (early exit per chunk: a
// handful of words per chunk). The final corrections are candidate-parallel (see above), so
// no phase leaves the block waiting on one thread for O(n) multiplications.
// Block size and k: cuda/tuning.h (measured on an H200, 2026-11-26); kChunk is not varied.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "cuda/thread/chain.cuh"

namespace mpb {
namespace gpu {
namespace mp {

constexpr int kChunk = 32;  // columns per carry-resolution chunk
constexpr int kHdr = 8;     // header words of an item context
constexpr int kCand = 6;    // correction candidates resolved in parallel (5 needed, 1 margin)

// Item context (global memory, one per modulus, `stride` words each):
//   [0] n  [1] k  [2] d  [3] t_nu  [4] p_shift (bits)  [5] p_top (top 32 bits of P)  [6] nP (words of P)
//   then P'[n], mu[h], nu[t_nu + 2] (= floor(beta^(n+t_nu)/P')), C[n] (= beta^(2h) mod P'), P[n].
MPB_HD int ctx_words(int n, int k) { return kHdr + 3 * n + n / 2 + (n - n / 2 + 2 * k + 4) + 8; }

struct Geo {
  int n, k, L, h, SL, ng;
  MPB_HD void init(int n_, int k_) {
    n = n_;
    k = k_;
    L = (n + k - 1) / k;
    h = n / 2;
    SL = 2 * L + 1;
    ng = 2 * k - 1;
  }
  MPB_HD int part_len(int i) const {
    int off = i * L;
    if (off >= n) return 0;
    return n - off < L ? n - off : L;
  }
  // 1: low group (PMR), 2: high group (PBR), 0: middle (no reduction)
  MPB_HD int kind(int l) const {
    int w = l * L;
    if (w < h) return 1;
    return (w - h) + SL > n ? 2 : 0;
  }
  MPB_HD int qt(int l) const {
    int w = l * L, kd = kind(l);
    return kd == 1 ? h - w : (kd == 2 ? (w - h) + SL - n : 0);
  }
  MPB_HD int t_nu() const {
    int m = 2;
    for (int l = 0; l < ng; l++)
      if (kind(l) == 2 && qt(l) > m) m = qt(l);
    return m;
  }
  // high group: words of S_l dropped below beta^n (C1 = S_l[hoff..SL) * beta^max(0, s-n))
  MPB_HD int hoff(int l) const {
    int s = l * L - h;
    return n - s > 0 ? n - s : 0;
  }
  // columns of the Q product of group l, and where Q starts in them
  MPB_HD int qcols(int l) const {
    int kd = kind(l);
    if (kd == 1) return qt(l);
    if (kd == 2) return (SL - hoff(l)) + qt(l) + 2;
    return 0;
  }
  MPB_HD int qfrom(int l) const { return kind(l) == 2 ? SL - hoff(l) : 0; }
  MPB_HD int qlen(int l) const { return kind(l) == 1 ? qt(l) : (kind(l) == 2 ? qt(l) + 2 : 0); }
  MPB_HD int qlo_cols() const { return h + 2; }
  MPB_HD int qhi_cols() const { return t_nu() + 3; }
  MPB_HD int w_cols() const {
    int a = 2 * k * L + 2, b = qlo_cols() + n + 1, c = h + qhi_cols() + n + 1;
    int m = a > b ? a : b;
    return (m > c ? m : c) + 2;
  }
  MPB_HD int q_total_cols() const {
    int s = 0;
    for (int l = 0; l < ng; l++) s += qcols(l);
    return s;
  }
  MPB_HD static int chunks(int cols) { return (cols + kChunk - 1) / kChunk; }
  MPB_HD int q_total_chunks() const {
    int s = 0;
    for (int l = 0; l < ng; l++) s += chunks(qcols(l));
    return s;
  }
};

// Shared-memory layout (offsets in 8-byte units from the start of the block's buffer).
struct Layout {
  int acc, accB, cy, flags, tiles;  // int64 areas (tiles: uint32 overlaying acc)
  int X, Y, Pp, S, R, MU, NU;   // uint32 areas, offsets in 32-bit words from u32 base
  int u32base;                  // in 8-byte units
  int total8;                   // total size in 8-byte units
  MPB_HD void init(const Geo &g) {
    int tiles_words = g.k * g.k * 2 * g.L;
    int a = (tiles_words + 1) / 2, q = g.q_total_cols(), w = g.w_cols();
    int acc_sz = a > q ? a : q;
    if (w > acc_sz) acc_sz = w;
    if (kCand * (g.n + 2) > acc_sz) acc_sz = kCand * (g.n + 2);  // correction candidates
    acc = 0;
    tiles = 0;
    accB = acc + acc_sz;
    int ncy = g.q_total_chunks();
    int c2 = Geo::chunks(g.qlo_cols()) + Geo::chunks(g.qhi_cols()), c3 = Geo::chunks(w);
    if (c2 > ncy) ncy = c2;
    if (c3 > ncy) ncy = c3;
    if (kCand * Geo::chunks(g.n + 2) > ncy) ncy = kCand * Geo::chunks(g.n + 2);
    cy = accB + g.qlo_cols() + g.qhi_cols();
    flags = cy + ncy;
    u32base = flags + kCand;
    X = 0;
    Y = X + g.n;
    Pp = Y + g.n;
    S = Pp + g.n;
    R = S + g.ng * g.SL;
    MU = R + g.n + 16;
    NU = MU + g.h;
    int u32 = NU + g.t_nu() + 2;
    total8 = u32base + (u32 + 1) / 2;
  }
};

MPB_HD size_t shared_bytes(int n, int k) {
  Geo g;
  g.init(n, k);
  Layout lay;
  lay.init(g);
  return (size_t)lay.total8 * 8;
}

// sum_a lo(x_a y_(c-a)) + sum_a hi(x_a y_(c-1-a)): column c of x*y before carries
MPB_HD uint64_t colsum(const uint32_t *x, int xn, const uint32_t *y, int yn, int c) {
  uint64_t acc = 0;
  if (c < 0) return 0;
  int a0 = c - yn + 1 > 0 ? c - yn + 1 : 0, a1 = c < xn - 1 ? c : xn - 1;
  for (int a = a0; a <= a1; a++) acc += mul_lo(x[a], y[c - a]);
  int c1 = c - 1;
  if (c1 >= 0) {
    a0 = c1 - yn + 1 > 0 ? c1 - yn + 1 : 0;
    a1 = c1 < xn - 1 ? c1 : xn - 1;
    for (int a = a0; a <= a1; a++) acc += mul_hi(x[a], y[c1 - a]);
  }
  return acc;
}

// out[0..xn+yn) = x*y, runtime-sized delayed-carry Comba (one thread)
MPB_HD void comba_rt(uint32_t *out, const uint32_t *x, int xn, const uint32_t *y, int yn) {
  uint64_t lo = 0, hi = 0;
  for (int c = 0; c < xn + yn - 1; c++) {
    int a0 = c - yn + 1 > 0 ? c - yn + 1 : 0, a1 = c < xn - 1 ? c : xn - 1;
    for (int a = a0; a <= a1; a++) {
      lo += mul_lo(x[a], y[c - a]);
      hi += mul_hi(x[a], y[c - a]);
    }
    out[c] = (uint32_t)lo;
    lo = (lo >> 32) + hi;
    hi = 0;
  }
  if (xn + yn >= 1) out[xn + yn - 1] = (uint32_t)lo;
}

// Signed carry resolution of int64 columns: chunk pass (parallel) and ripple (one thread).
MPB_HD void resolve_chunk(int64_t *acc, int ncols, int chunk, int64_t *cy) {
  int c0 = chunk * kChunk, c1 = c0 + kChunk < ncols ? c0 + kChunk : ncols;
  int64_t carry = 0;
  for (int c = c0; c < c1; c++) {
    int64_t v = acc[c] + carry;
    acc[c] = (int64_t)(uint32_t)v;
    carry = v >> 32;  // arithmetic: a borrow is negative
  }
  cy[chunk] = carry;
}
// Returns the carry out of the whole number (negative when its value is negative).
MPB_HD int64_t resolve_ripple(int64_t *acc, int ncols, const int64_t *cy) {
  int nch = (ncols + kChunk - 1) / kChunk;
  int64_t cin = 0;
  for (int r = 0; r < nch; r++) {
    int c0 = r * kChunk, c1 = c0 + kChunk < ncols ? c0 + kChunk : ncols;
    for (int c = c0; c < c1 && cin != 0; c++) {
      int64_t v = acc[c] + cin;
      acc[c] = (int64_t)(uint32_t)v;
      cin = v >> 32;
    }
    cin += cy[r];
  }
  return cin;  // the column phases' numbers fit: zero there; a candidate's sign below
}

// The algorithm for one item in one block. Construct with the item context and the block's
// shared buffer (8-byte aligned), then run the phases in order with barriers in between.
struct Block {
  Geo g;
  Layout lay;
  const uint32_t *ctx;  // item context
  int T;                // threads
  int64_t *acc, *accB, *cy, *flags;
  uint32_t *tiles, *X, *Y, *Pp, *S, *R, *MU, *NU;  // MU, NU: shared copies of mu, nu
  const uint32_t *mu, *nu, *C, *P;
  int t_nu;

  MPB_HD void init(const uint32_t *ctx_, void *smem, int threads) {
    ctx = ctx_;
    T = threads;
    g.init((int)ctx[0], (int)ctx[1]);
    lay.init(g);
    int64_t *b8 = (int64_t *)smem;
    acc = b8 + lay.acc;
    tiles = (uint32_t *)(b8 + lay.tiles);
    accB = b8 + lay.accB;
    cy = b8 + lay.cy;
    flags = b8 + lay.flags;
    uint32_t *u = (uint32_t *)(b8 + lay.u32base);
    X = u + lay.X;
    Y = u + lay.Y;
    Pp = u + lay.Pp;
    S = u + lay.S;
    R = u + lay.R;
    MU = u + lay.MU;
    NU = u + lay.NU;
    t_nu = (int)ctx[3];
    const uint32_t *p = ctx + kHdr + g.n;
    mu = p;
    nu = mu + g.h;
    C = nu + t_nu + 2;
    P = C + g.n;
  }

  // ---- load: X = x, Y = y (n words each, from global or shared); P', mu, nu into shared
  MPB_HD void phase_load(int tid, const uint32_t *x, const uint32_t *y) {
    for (int i = tid; i < g.n; i += T) {
      X[i] = x[i];
      Y[i] = y[i];
      Pp[i] = ctx[kHdr + i];
    }
    for (int i = tid; i < g.h; i += T) MU[i] = mu[i];
    for (int i = tid; i < t_nu + 2; i += T) NU[i] = nu[i];
  }
  // ---- phase 1: the k x k tiles X_i * Y_j (2L words each, zero padded)
  MPB_HD void phase_tiles(int tid) {
    const int k = g.k, L = g.L;
    for (int t = tid; t < k * k; t += T) {
      int i = t / k, j = t % k;
      uint32_t *o = tiles + (size_t)t * 2 * L;
      int li = g.part_len(i), lj = g.part_len(j);
      if (li && lj) comba_rt(o, X + i * L, li, Y + j * L, lj);
      for (int c = (li && lj) ? li + lj : 0; c < 2 * L; c++) o[c] = 0;
    }
  }
  // ---- phase 2: S_l = sum of the tiles of weight l (one thread per group)
  MPB_HD void phase_groups(int tid) {
    const int k = g.k, L = g.L, SL = g.SL;
    for (int l = tid; l < g.ng; l += T) {
      uint32_t *s = S + l * SL;
      uint64_t carry = 0;
      for (int c = 0; c < SL; c++) {
        uint64_t v = carry;
        if (c < 2 * L)
          for (int i = 0; i < k; i++) {
            int j = l - i;
            if (j >= 0 && j < k) v += tiles[(size_t)(i * k + j) * 2 * L + c];
          }
        s[c] = (uint32_t)v;
        carry = v >> 32;
      }
    }
  }
  // ---- phase 3: the Q products of the low (PMR) and high (PBR) groups, column-parallel
  MPB_HD void phase_qcols(int tid) {
    int off = 0;
    for (int l = 0; l < g.ng; l++) {
      int nc = g.qcols(l);
      if (!nc) continue;
      int first = ((tid - off) % T + T) % T;
      const uint32_t *s = S + l * g.SL;
      for (int c = first; c < nc; c += T) {
        uint64_t v;
        if (g.kind(l) == 1) {
          int t = g.qt(l);  // mu (t words) * S_l (min(t, SL) words) mod beta^t
          v = colsum(MU, t, s, t < g.SL ? t : g.SL, c);
        } else {
          int t = g.qt(l), ho = g.hoff(l);  // S_l[ho..SL) * nu_t, nu_t = nu >> (t_nu - t) words
          v = colsum(s + ho, g.SL - ho, NU + (t_nu - t), t + 2, c);
        }
        acc[off + c] = (int64_t)v;
      }
      off += nc;
    }
  }
  MPB_HD void phase_qres1(int tid) {
    int off = 0, coff = 0, base = 0;
    for (int l = 0; l < g.ng; l++) {
      int nc = g.qcols(l);
      if (!nc) continue;
      int nch = Geo::chunks(nc);
      for (int r = ((tid - base) % T + T) % T; r < nch; r += T) resolve_chunk(acc + off, nc, r, cy + coff);
      off += nc;
      coff += nch;
      base += nch;
    }
  }
  MPB_HD void phase_qres2(int tid) {
    int off = 0, coff = 0, job = 0;
    for (int l = 0; l < g.ng; l++) {
      int nc = g.qcols(l);
      if (!nc) continue;
      if (job % T == tid) resolve_ripple(acc + off, nc, cy + coff);
      off += nc;
      coff += Geo::chunks(nc);
      job++;
    }
  }
  // ---- phase 4: Qlo = sum_low Q_l beta^(lL), Qhi = sum_high Q_l (columns, then carries)
  MPB_HD void phase_qsum(int tid) {
    const int nlo = g.qlo_cols(), nhi = g.qhi_cols();
    for (int c = tid; c < nlo + nhi; c += T) {
      int64_t v = 0;
      int off = 0;
      for (int l = 0; l < g.ng; l++) {
        int kd = g.kind(l), ql = g.qlen(l), from = g.qfrom(l);
        if (kd == 1 && c < nlo) {
          int i = c - l * g.L;
          if (i >= 0 && i < ql) v += (uint32_t)acc[off + from + i];
        } else if (kd == 2 && c >= nlo) {
          int i = c - nlo;
          if (i < ql) v += (uint32_t)acc[off + from + i];
        }
        off += g.qcols(l);
      }
      accB[c] = v;
    }
  }
  MPB_HD void phase_qsres1(int tid) {
    const int nlo = g.qlo_cols(), nhi = g.qhi_cols(), c1 = Geo::chunks(nlo), c2 = Geo::chunks(nhi);
    for (int r = tid; r < c1 + c2; r += T) {
      if (r < c1) resolve_chunk(accB, nlo, r, cy);
      else resolve_chunk(accB + nlo, nhi, r - c1, cy + c1);
    }
  }
  MPB_HD void phase_qsres2(int tid) {
    const int nlo = g.qlo_cols(), nhi = g.qhi_cols();
    if (tid == 0) resolve_ripple(accB, nlo, cy);
    if (tid == (T > 1 ? 1 : 0)) resolve_ripple(accB + nlo, nhi, cy + Geo::chunks(nlo));
  }
  // ---- phase 5: W = sum S_l beta^(lL) + Qlo*P' - beta^h Qhi*P', signed columns
  // (Qlo, Qhi are read from accB as words; acc is free again: the Q values are in accB)
  MPB_HD void phase_w(int tid) {
    const int nlo = g.qlo_cols(), nhi = g.qhi_cols(), wc = g.w_cols(), L = g.L, SL = g.SL;
    for (int c = tid; c < wc; c += T) {
      int64_t v = 0;
      int lmax = c / L;
      for (int l = lmax; l >= 0 && c - l * L < SL; l--)
        if (l < g.ng) v += S[l * SL + (c - l * L)];
      // products by P' with the word operand read from accB (int64 words < 2^32)
      v += (int64_t)colsum64(accB, nlo, Pp, g.n, c);
      v -= (int64_t)colsum64(accB + nlo, nhi, Pp, g.n, c - g.h);
      acc[c] = v;
    }
  }
  MPB_HD static uint64_t colsum64(const int64_t *x, int xn, const uint32_t *y, int yn, int c) {
    uint64_t a = 0;
    if (c < 0) return 0;
    int a0 = c - yn + 1 > 0 ? c - yn + 1 : 0, a1 = c < xn - 1 ? c : xn - 1;
    for (int i = a0; i <= a1; i++) a += mul_lo((uint32_t)x[i], y[c - i]);
    int c1 = c - 1;
    if (c1 >= 0) {
      a0 = c1 - yn + 1 > 0 ? c1 - yn + 1 : 0;
      a1 = c1 < xn - 1 ? c1 : xn - 1;
      for (int i = a0; i <= a1; i++) a += mul_hi((uint32_t)x[i], y[c1 - i]);
    }
    return a;
  }
  MPB_HD void phase_wres1(int tid) {
    const int wc = g.w_cols();
    for (int r = tid; r < Geo::chunks(wc); r += T) resolve_chunk(acc, wc, r, cy);
  }
  MPB_HD void phase_wres2(int tid) {
    if (tid == 0) resolve_ripple(acc, g.w_cols(), cy);
  }
  // ---- correction candidates (used by the final step and by the reduction mod P):
  // acc[j*len + c] = src[c] - (q*M)[c] - j*M[c] for j < kCand, c < len, as signed columns.
  // Requires q*M <= src < beta^len (q an underestimate of the quotient), so that the
  // columns of q*M above len are zero and candidate j's value is src - (q+j)*M.
  MPB_HD void phase_cand_cols(int tid, const uint32_t *src, int len, const uint32_t *q, int qn,
                               const uint32_t *M, int mn) {
    for (int c = tid; c < len; c += T) {
      const int64_t v = (int64_t)src[c] - (int64_t)colsum(q, qn, M, mn, c), m = c < mn ? M[c] : 0u;
      for (int j = 0; j < kCand; j++) acc[j * len + c] = v - j * m;
    }
  }
  MPB_HD void phase_cand_chunks(int tid, int len) {
    const int nch = Geo::chunks(len);
    for (int t = tid; t < kCand * nch; t += T) {
      const int j = t / nch, r = t - j * nch;
      resolve_chunk(acc + j * len, len, r, cy + j * nch);
    }
  }
  // flags[j] < 0 exactly when candidate j is negative
  MPB_HD void phase_cand_ripple(int tid, int len) {
    const int nch = Geo::chunks(len);
    for (int j = tid; j < kCand; j += T) flags[j] = resolve_ripple(acc + j * len, len, cy + j * nch);
  }
  // out[0..outlen) = the largest non-negative candidate (the candidates decrease with j)
  MPB_HD void phase_cand_pick(int tid, int len, uint32_t *out, int outlen) {
    int js = 0;
    for (int j = 1; j < kCand; j++)
      if (flags[j] >= 0) js = j;
    for (int i = tid; i < outlen; i += T) out[i] = (uint32_t)acc[js * len + i];
  }

  // ---- phase 6: Y = W / beta^h < beta^(n+2) into R; one partial Barrett step (t = 2,
  // nu_2 = nu >> (t_nu - 2)) gives q (thread 0, 8 products) with 0 <= Y - q*P' < beta^n + 2P'
  // < 5P' (P' > beta^n / 3). Scratch words after R: y1 at R+n+2, the 2 x 4 product at R+n+4,
  // q = its words 2..5 at R+n+6.
  MPB_HD void phase_final_load(int tid) {
    const int n = g.n, h = g.h;
    for (int i = tid; i < n + 2; i += T) R[i] = (uint32_t)acc[h + i];
    if (tid == 0) {
      uint32_t *y1 = R + n + 2, *prod = R + n + 4;
      y1[0] = (uint32_t)acc[h + n];
      y1[1] = (uint32_t)acc[h + n + 1];
      comba_rt(prod, y1, 2, NU + (t_nu - 2), 4);
    }
  }
  MPB_HD void phase_final_cols(int tid) { phase_cand_cols(tid, R, g.n + 2, R + g.n + 6, 4, Pp, g.n); }

  // ---- phase 7: x (n words, < P' = d*P) -> x mod P, in place. q^ = floor(x_top / (p_top+1))
  // with 64 bits of x at P's top-32-bit position (thread 0, into R[0]): q^ <= q <= q^ + 3.
  // R is free here (only called after mp_finish). d == 1 (P' = P): nothing to do.
  MPB_HD bool modp_needed() const { return ctx[2] != 1; }
  MPB_HD void phase_modp_q(int tid, const uint32_t *x) {
    if (tid != 0) return;
    const int n = g.n;
    const int sh = (int)ctx[4];
    const uint32_t ptop = ctx[5];
    int w = sh / 32, s = sh % 32;
    uint64_t lo64 = (uint64_t)(w < n ? x[w] : 0) | ((uint64_t)(w + 1 < n ? x[w + 1] : 0) << 32);
    uint64_t top = w + 2 < n ? x[w + 2] : 0;
    uint64_t xt = (lo64 >> s) | (s ? top << (64 - s) : 0);
    R[0] = (uint32_t)(xt / ((uint64_t)ptop + 1));  // q^ <= x/P < d < 2^32
  }
  MPB_HD void phase_modp_cols(int tid, const uint32_t *x) {
    phase_cand_cols(tid, x, g.n, R, 1, P, (int)ctx[6]);
  }
};

// The corrections: candidates from phase_*_cols resolved and the right one written to out.
template <class Exec>
MPB_HD void mp_pick(Block &b, Exec &ex, int len, uint32_t *out, int outlen) {
  ex.run([&](int t) { b.phase_cand_chunks(t, len); });
  ex.run([&](int t) { b.phase_cand_ripple(t, len); });
  ex.run([&](int t) { b.phase_cand_pick(t, len, out, outlen); });
}

// mp(X, Y) after phase_load, up to the signed columns of W resolved in acc (W = 0 mod beta^h).
template <class Exec>
MPB_HD void mp_columns(Block &b, Exec &ex) {
  ex.run([&](int t) { b.phase_tiles(t); });
  ex.run([&](int t) { b.phase_groups(t); });
  ex.run([&](int t) { b.phase_qcols(t); });
  ex.run([&](int t) { b.phase_qres1(t); });
  ex.run([&](int t) { b.phase_qres2(t); });
  ex.run([&](int t) { b.phase_qsum(t); });
  ex.run([&](int t) { b.phase_qsres1(t); });
  ex.run([&](int t) { b.phase_qsres2(t); });
  ex.run([&](int t) { b.phase_w(t); });
  ex.run([&](int t) { b.phase_wres1(t); });
  ex.run([&](int t) { b.phase_wres2(t); });
}

// The final partial Barrett step: out (n words, may be b.X or b.Y) = mp(X, Y) < P'.
template <class Exec>
MPB_HD void mp_finish(Block &b, Exec &ex, uint32_t *out) {
  ex.run([&](int t) { b.phase_final_load(t); });
  ex.run([&](int t) { b.phase_final_cols(t); });
  mp_pick(b, ex, b.g.n + 2, out, b.g.n);
}

// One mp(X, Y) (after phase_load) into `out` (n words, may be b.X).
template <class Exec>
MPB_HD void mp_core(Block &b, Exec &ex, uint32_t *out) {
  mp_columns(b, ex);
  mp_finish(b, ex, out);
}

// x (n words in shared memory, < P') -> x mod P, in place.
template <class Exec>
MPB_HD void mp_reduce_p(Block &b, Exec &ex, uint32_t *x) {
  if (!b.modp_needed()) return;  // uniform across the block
  ex.run([&](int t) { b.phase_modp_q(t, x); });
  ex.run([&](int t) { b.phase_modp_cols(t, x); });
  mp_pick(b, ex, b.g.n, x, b.g.n);
}

// r = x*y mod P for one item: x, y < P (n words each, global memory); the result (n words)
// is left in b.X. Exec::run(f) calls f(tid) for every thread of the block, then a barrier.
template <class Exec>
MPB_HD void modmul_item(Block &b, Exec &ex, const uint32_t *x, const uint32_t *y) {
  ex.run([&](int t) { b.phase_load(t, x, y); });
  mp_core(b, ex, b.X);                            // x*y*beta^-h mod P'
  ex.run([&](int t) { b.phase_load(t, b.X, b.C); });
  mp_core(b, ex, b.X);                            // x*y mod P'
  mp_reduce_p(b, ex, b.X);                        // x*y mod P
}

// Host executor: the threads of a block one after the other between barriers.
struct HostExec {
  int T;
  template <class F>
  void run(F f) {
    for (int t = 0; t < T; t++) f(t);
  }
};


} // namespace mp
} // namespace gpu

} // namespace mpb
