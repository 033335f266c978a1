// cuda/thread/powm.cuh: per-thread modular exponentiation and RSA-CRT on N 32-bit words
// (host + device). The kernels in cuda/kernels/ are thin loops over these item functions;
// the CPU tests run the very same functions with a host table against GMP.
//
// Every exponentiation is one loop of "steps" over the Montgomery domain: a step is one
// inlined mont_step (cuda/thread/mont.cuh: acc = acc^2 or acc * table entry; the
// arithmetic variant V is a compile-time choice, tuning::GPU_POWM_MONT), so threads of a
// warp whose exponents differ run the same code and stay converged except at the loop end.
//  - Constant time (secret exponents; powm_mont_chain): fixed windows of W bits from the
//    top over a table of 2^W powers; every window does W squarings and one product (by
//    entry 0 = 1 for a zero window) and the entry is read by scanning every entry with masks
//    (no exponent-dependent address or step); the step count depends only on the exponent's
//    public width. RSA-CRT always uses this path.
//  - Variable time (public exponents; powm_mont_chain_slide): left-to-right sliding windows
//    of w <= W + 1 bits (tuning::gpu_slide_window of the item's significant bits) over a
//    table of the 2^(w-1) odd powers b, b^3, ..., built with one squaring and 2^(w-1) - 1
//    products; a zero bit costs a squaring, a window of L bits L squarings and one product.
//    The step count is the item's own. The fixed-window loop without the masked scan is
//    kept for comparison (powm_item<N, W, false, false>).
#pragma once
#include "cuda/tuning.h"

#include "cuda/thread/mont.cuh"

namespace mpb {
namespace gpu {

// Modulus constants, precomputed on the host once per modulus (cuda/host/).
template <int N>
struct ModCtx {
  uint32_t n[N];    // odd modulus
  uint32_t r2[N];   // R^2 mod n, R = 2^(32N)
  uint32_t one[N];  // R mod n
  uint32_t ninv;    // -n^-1 mod 2^32
  uint32_t slide_w; // sliding windows (variable time): this width for every exponent; 0 (what
                    // the library sets): by the exponent's length, slide_window_bits. Set only
                    // by bench_gpu's window sweep (gpu::Options::window), to tune the latter.
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
// Entries 0 .. 2^W-1 hold powers; entry 2^W receives the constant-time selection.
template <int N, int W>
struct HostTable {
  uint32_t v[(1 << W) + 1][N];
  MPB_HD void store(int k, const uint32_t *x) {
    for (int j = 0; j < N; j++) v[k][j] = x[j];
  }
  MPB_HD uint32_t word(int k, int j) const { return v[k][j]; }
  MPB_HD void store_word(int k, int j, uint32_t x) { v[k][j] = x; }
};

// Bits [pos, pos+W) of the exponent e (ewords words); bits past the end are zero.
template <int W>
MPB_HD uint32_t window_bits(const uint32_t *e, int ewords, int pos) {
  int w = pos >> 5, s = pos & 31;
  uint64_t x = (w < ewords ? e[w] : 0u);
  if (w + 1 < ewords) x |= (uint64_t)e[w + 1] << 32;
  return (uint32_t)(x >> s) & ((1u << W) - 1);
}

// Second operand of the table products: entry `sel`, read directly.
template <class Table>
struct TableWords {
  const Table &tab;
  int sel;
  MPB_HD uint32_t operator()(int i) const { return tab.word(sel, i); }
};

// Copies entry `sel` into the scratch entry 2^W by reading EVERY entry and keeping the
// wanted one with masks: the addresses touched do not depend on sel. One word at a time
// (not unrolled over the words) so that the loads are not all hoisted into registers.
template <int N, int W, class Table>
MPB_HD void table_select_ct(Table &tab, uint32_t sel) {
  MPB_NOUNROLL
  for (int j = 0; j < N; j++) {
    uint32_t w = 0;
    MPB_UNROLL
    for (int k = 0; k < (1 << W); k++) w |= tab.word(k, j) & eq_mask((uint32_t)k, sel);
    tab.store_word(1 << W, j, w);
  }
}

// The step plan of a fixed-window exponentiation, shared by every fixed-window loop (per
// thread and cooperative, Montgomery and Barrett): entry 0 = one, entry 1 = the base; first
// 2^W - 2 build steps (acc = acc * base, stored in entry step + 2), then acc is set to one and
// the windows of W bits follow from the top: W squarings (none for the top window) and one
// product by the window's entry. The step count depends only on the exponent's width.
template <int W>
struct FixedPlan {
  int table_steps, nwin, total;
  int win;     // current window (from the top)
  int in_win;  // squarings done in the current window
  int step;
  MPB_HD explicit FixedPlan(int ewords)
      : table_steps((1 << W) - 2), nwin((32 * ewords + W - 1) / W), win(nwin - 1), in_win(0), step(0) {
    total = table_steps + nwin + (nwin - 1) * W;
  }
  MPB_HD bool more() const { return step < total; }
  MPB_HD bool building() const { return step < table_steps; }
  MPB_HD int build_slot() const { return step + 2; }
  MPB_HD bool first_window() const { return step == table_steps; }  // acc = one before it
  MPB_HD bool square() const { return !building() && win != nwin - 1 && in_win < W; }
  // The current window's table entry (for a step that is neither a build step nor a square).
  MPB_HD uint32_t entry(const uint32_t *e, int ewords) const { return window_bits<W>(e, ewords, win * W); }
  MPB_HD void advance() {
    if (!building()) {
      if (square()) {
        in_win++;
      } else {
        win--;
        in_win = 0;
      }
    }
    step++;
  }
};

// acc = acc^e * R mod n style chain: on entry acc holds base*R mod n (Montgomery form of a
// base < n); on exit acc holds base^e * R mod n. Table slot 1 receives the base.
template <int N, int W, bool CT, int V = tuning::GPU_POWM_MONT, class Table>
MPB_HD void powm_mont_chain(uint32_t *acc, const uint32_t *e, int ewords, const ModCtx<N> &m,
                             Table &tab) {
  tab.store(0, m.one);
  tab.store(1, acc);
  MPB_NOUNROLL
  for (FixedPlan<W> plan(ewords); plan.more(); plan.advance()) {
    TableWords<Table> b{tab, 1};  // table build: acc = acc * base
    const bool sqr = plan.square();
    if (!plan.building()) {
      if (plan.first_window()) copy_words<N>(acc, m.one);
      if (!sqr) {
        uint32_t sel = plan.entry(e, ewords);
        if (CT) {
          table_select_ct<N, W>(tab, sel);
          b.sel = 1 << W;
        } else {
          b.sel = (int)sel;
        }
      }
    }
    mont_step<V, N>(acc, b, m.n, m.ninv, sqr);
    if (plan.building()) tab.store(plan.build_slot(), acc);
  }
}

// Bit helpers for the sliding windows (variable time: only for public exponents).
MPB_HD int clz32(uint32_t x) {  // x != 0
#if defined(__CUDA_ARCH__)
  return __clz(x);
#else
  return __builtin_clz(x);
#endif
}
MPB_HD int ctz32(uint32_t x) {  // x != 0
#if defined(__CUDA_ARCH__)
  return __ffs(x) - 1;
#else
  return __builtin_ctz(x);
#endif
}
// Significant bits of e (0 for e = 0).
MPB_HD int exp_bitlen(const uint32_t *e, int ewords) {
  for (int i = ewords - 1; i >= 0; i--)
    if (e[i]) return 32 * i + 32 - clz32(e[i]);
  return 0;
}
// Sliding-window width for an exponent of `bits` significant bits: tuning::gpu_slide_window,
// written again for the device (a constexpr host function is not callable there; its
// thresholds are scalar constants, which are).
MPB_HD int slide_window_bits(int bits) {
  using namespace tuning;
  return bits <= GPU_SLIDE_W1_MAX_BITS ? 1 : bits <= GPU_SLIDE_W2_MAX_BITS ? 2
       : bits <= GPU_SLIDE_W3_MAX_BITS ? 3 : bits <= GPU_SLIDE_W4_MAX_BITS ? 4
       : bits <= GPU_SLIDE_W5_MAX_BITS ? 5 : bits <= GPU_SLIDE_W6_MAX_BITS ? 6 : 7;
}
// Bits [pos, pos+len) of e, len <= 32; bits past the end are zero.
MPB_HD uint32_t exp_bits_at(const uint32_t *e, int ewords, int pos, int len) {
  int w = pos >> 5, s = pos & 31;
  uint64_t x = (w < ewords ? e[w] : 0u);
  if (w + 1 < ewords) x |= (uint64_t)e[w + 1] << 32;
  return (uint32_t)(x >> s) & (uint32_t)((1ull << len) - 1);
}

// The step plan of a left-to-right sliding-window exponentiation, shared by the per-thread
// and the cooperative loops. Table: entry k = b^(2k+1), k < 2^(w-1). Build steps: step 0
// squares b (the square is kept in the last entry, which the last build step overwrites
// after reading it), step 1 multiplies by entry 0 (b^3), step k >= 2 by the square; then
// acc is set to 1 and the scan steps follow. next() returns false when the exponent is done.
struct SlidePlan {
  const uint32_t *e;
  int ewords;
  int w;      // window width
  int half;   // 2^(w-1) table entries
  int build;  // build steps (0 when w = 1: the table is b alone)
  int pos;    // next exponent bit to consume (from the top), -1 when all are consumed
  int sq;     // squarings left before the pending product
  int sel;    // pending product's entry, -1: none
  bool first;
  int step;
  // w_max: the widest window the table holds; w_force: ModCtx::slide_w (0: by the length)
  MPB_HD SlidePlan(const uint32_t *e_, int ewords_, int w_max, uint32_t w_force = 0) : e(e_), ewords(ewords_) {
    const int bits = exp_bitlen(e, ewords);
    w = w_force ? (int)w_force : slide_window_bits(bits);
    if (w > w_max) w = w_max;
    half = 1 << (w - 1);
    build = w > 1 ? half : 0;
    pos = bits - 1;
    sq = 0;
    sel = -1;
    first = true;
    step = 0;
  }
  MPB_HD bool building() const { return step < build; }
  // Table entry that receives the result of build step `step`.
  MPB_HD int build_slot() const { return step == 0 ? half - 1 : step; }
  // Plans the current step: sqr (square) or a product with entry *entry. False: done.
  MPB_HD bool next(bool &sqr, int &entry) {
    entry = 0;
    if (step < build) {
      sqr = step == 0;
      entry = step == 1 ? 0 : half - 1;
      return true;
    }
    if (sq == 0 && sel < 0) {  // start a window, or square for a zero bit
      if (pos < 0) return false;
      if (exp_bits_at(e, ewords, pos, 1)) {
        int lo = pos - w + 1 > 0 ? pos - w + 1 : 0;
        uint32_t v = exp_bits_at(e, ewords, lo, pos - lo + 1);
        const int tz = ctz32(v);  // the window ends on a one bit: v odd
        lo += tz;
        v >>= tz;
        sel = (int)(v >> 1);
        sq = first ? 0 : pos - lo + 1;  // the first window multiplies 1: no squarings
        first = false;
        pos = lo - 1;
      } else {
        sq = 1;
        pos--;
      }
    }
    if (sq > 0) {
      sqr = true;
      sq--;
    } else {
      sqr = false;
      entry = sel;
      sel = -1;
    }
    return true;
  }
};

// Sliding-window chain (variable time, public exponents): on entry acc = base*R mod n, on
// exit base^e * R mod n. W_MAX: the widest window the table holds (2^(W_MAX-1) entries).
template <int N, int W_MAX, int V = tuning::GPU_POWM_MONT, class Table>
MPB_HD void powm_mont_chain_slide(uint32_t *acc, const uint32_t *e, int ewords,
                                   const ModCtx<N> &m, Table &tab) {
  SlidePlan plan(e, ewords, W_MAX, m.slide_w);
  tab.store(0, acc);
  MPB_NOUNROLL
  for (;; plan.step++) {
    if (plan.step == plan.build) copy_words<N>(acc, m.one);
    bool sqr;
    int entry;
    if (!plan.next(sqr, entry)) break;
    mont_step<V, N>(acc, TableWords<Table>{tab, entry}, m.n, m.ninv, sqr);
    if (plan.building()) tab.store(plan.build_slot(), acc);
  }
}

// r = base^e mod n, all in the normal domain. base < n. e has ewords words. CT: fixed windows
// over all its 32*ewords bits, masked table reads (its width is public, its value is not).
// Otherwise SLIDE (the default) selects sliding windows of up to W + 1 bits; SLIDE = false
// the fixed-window loop with direct table reads (for comparison). V: mont_step's arithmetic.
template <int N, int W, bool CT, bool SLIDE = !CT, int V = tuning::GPU_POWM_MONT, class Table>
MPB_HD void powm_item(uint32_t *r, const uint32_t *base, const uint32_t *e, int ewords,
                       const ModCtx<N> &m, Table &tab) {
  static_assert(!(CT && SLIDE), "sliding windows are variable time");
  uint32_t acc[N];
  mont_mul<N>(acc, base, RegWords{m.r2}, m.n, m.ninv);  // base * R mod n
  if (SLIDE) powm_mont_chain_slide<N, W + 1, V>(acc, e, ewords, m, tab);
  else powm_mont_chain<N, W, CT, V>(acc, e, ewords, m, tab);
  mont_mul<N>(r, acc, OneWord{}, m.n, m.ninv);  // leave the Montgomery domain
}

// The one-thread Montgomery exponentiation as an item policy of the kernel bodies (cuda/grid/powm_bodies.cuh).
template <int N, int W, bool CT, bool SLIDE, int V>
struct MontPowmItem {
  using Ctx = ModCtx<N>;
  template <class Table>
  MPB_HD static void run(uint32_t *r, const uint32_t *b, const uint32_t *e, int ewords, const Ctx &m,
                          Table &tab) {
    powm_item<N, W, CT, SLIDE, V>(r, b, e, ewords, m, tab);
  }
};

// RSA private operation by CRT. c has 2N words (c < n = p*q), out gets 2N words; both may
// be in global memory: c is read where needed and out holds m1 between the two halves, so
// that neither occupies registers during the exponentiations.
// m1 = c^dp mod p, m2 = c^dq mod q, h = qinv*(m1 - m2) mod p, out = m2 + h*q.
// The two half exponentiations run through one loop (one copy of the code).
template <int N, int W, bool CT, class Table>
MPB_HD void rsa_crt_item(uint32_t *out, const uint32_t *c, const RsaCtx<N> &k, Table &tab) {
  uint32_t t[N];
  MPB_NOUNROLL
  for (int half = 0; half < 2; half++) {
    const ModCtx<N> &m = half == 0 ? k.p : k.q;
    // c mod prime through the Montgomery domain: redc(c) = c/R; (c/R) * R^2 / R = c mod p;
    // one more product by R^2 gives the Montgomery form c*R.
    mont_redc<N>(t, c, m.n, m.ninv);
    mont_mul<N>(t, t, RegWords{m.r2}, m.n, m.ninv);
    mont_mul<N>(t, t, RegWords{m.r2}, m.n, m.ninv);
    powm_mont_chain<N, W, CT>(t, half == 0 ? k.dp : k.dq, N, m, tab);
    mont_mul<N>(t, t, OneWord{}, m.n, m.ninv);
    if (half == 0) copy_words<N>(out, t);  // m1 parked in the output row
  }
  // t = m2. m2 mod p (m2 < q < R <= p*R): redc(m2) * R^2 / R = m2 mod p
  uint32_t u[N], wide[2 * N];
  copy_words<N>(wide, t);
  MPB_UNROLL
  for (int j = 0; j < N; j++) wide[N + j] = 0;
  mont_redc<N>(u, wide, k.p.n, k.p.ninv);
  mont_mul<N>(u, u, RegWords{k.p.r2}, k.p.n, k.p.ninv);
  uint32_t m1[N];
  copy_words<N>(m1, out);
  sub_mod<N>(u, m1, u, k.p.n);                             // m1 - m2 mod p
  mont_mul<N>(u, u, RegWords{k.qinv_m}, k.p.n, k.p.ninv);  // h = (m1-m2)*qinv mod p
  mul_comba_dc<N>(wide, u, k.qw);                          // h*q < n
  Chain ch;
  out[0] = ch.add_cc(wide[0], t[0]);
  MPB_UNROLL
  for (int j = 1; j < N; j++) out[j] = ch.addc_cc(wide[j], t[j]);
  MPB_UNROLL
  for (int j = N; j < 2 * N - 1; j++) out[j] = ch.addc_cc(wide[j], 0);
  out[2 * N - 1] = ch.addc(wide[2 * N - 1], 0);
}

} // namespace gpu
} // namespace mpb
