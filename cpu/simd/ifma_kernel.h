// cpu/simd/ifma_kernel.h: the 8-lane IFMA exponentiation kernel, written once against a small
// set of vector operations that its includer defines, so that one text runs two ways:
//  - cpu/simd/powm_ifma.cpp: V = __m512i, the operations as AVX-512F / IFMA intrinsics (the
//    engine AUTO runs on CPUs with AVX-512 IFMA);
//  - cpu/simd/powm_ifma_emu.cpp: V = eight uint64_t in plain C++, VPMADD52LUQ/HUQ computed
//    exactly (52-bit inputs, the low or high 52 bits of the 104-bit product added to a 64-bit
//    lane), on any CPU: the tests and the constant-time checks run the kernel's logic through it
//    where the CPU has no IFMA (CI's machines, aarch64 under qemu).
//
// The includer defines, before including this file inside an unnamed namespace of
// mpb::simd::detail (after simd/lanes_impl.h and core/unroll.h):
//   V (one vector of 8 lanes of 64 bits; arrays of V alias the driver's uint64_t arrays: digit d
//   of lane l at [8d + l]), Mask (8 lane flags), and
//   V vzero(); V vset1(uint64_t); V vload(const uint64_t *p /* 64-byte aligned */);
//   V vadd(V, V); V vsub(V, V); V vand(V, V); V vshr52(V)  (lane-wise, modulo 2^64);
//   V madlo(V z, V x, V y) / madhi: z + the low / high 52 bits of (x mod 2^52) * (y mod 2^52);
//   Mask veq(V, V)  (lanes equal); V vblend(V o, Mask k, V s)  (s where k, else o; no branch).
//   V valign1(V hi, V lo)  (lo's lanes 1..7, then hi's lane 0: a shift down one lane across two vectors).
// and MPB_IFMA_INLINE, the inlining of the tiles' helpers (always_inline with the intrinsics: each
// tile's accumulators must stay in registers; left to the compiler in the emulated instance).
//
// The kernel:
//
// One item per 64-bit lane, numbers as N digits of 52 bits (lane-interleaved), multiplied
// with VPMADD52LUQ/VPMADD52HUQ. Almost-Montgomery multiplication, word by word: the
// accumulator digits stay un-normalised (each receives at most 4 product halves of < 2^52
// per step over at most N steps, < 2^63 for N < 500; the driver allows N <= 316), only the
// low digit's carry is pushed up each step so that the quotient digit is exact, and the
// result is normalised once at the end. Inputs in [0, 2m) give outputs in [0, 2m) because
// R = 2^(52N) > 4m.
//
// By size (N digits; 1024/1536/2048/3072/4096-bit moduli have N = 20/30/40/60/79 and get
// compile-time instantiations, other sizes a run-time N):
//  - N = 20 (the RSA-2048 halves, 1024-bit modexp): mont_rows_sqr for the square (the whole
//    product into 2N accumulators, then the reduction row by row, each next quotient digit
//    computed early in its row; the squarings carry the next window's table selection,
//    Stitch) and amm_reg for the product (word by word, the step's loop rolled: a small
//    function, so that square and product share the instruction cache). The operand digits
//    are read from memory through fresh() copies, so that the compiler keeps the
//    accumulators, not the digits, in registers. The intrinsic instance is tuned for
//    icelake-server (gcc), as crypto_mb is built (cpu/simd/powm_ifma.cpp).
//  - otherwise (N >= 8): amm_tiles / ams_tiles, the product (or the square's off-diagonal
//    products, doubled, plus the diagonal) and then the Montgomery reduction, each as tiles of
//    T x T digit products (T = 6 or 8) whose 2T accumulator positions live in registers, the
//    T row digits too, the column digits loaded once per tile column. N < 8: amm.
//  - the table selection keeps the selected digits in registers for a compile-time N.
//  - N = 20, 30, 40, 60, 79 with few used lanes (a lone RSA-2048/3072/4096 item's CRT halves, one
//    or two 1024..4096-bit exponentiations; lanes_impl.h ifma_single_max_pairs): run_single, each number's digits across the
//    lanes, the two exponentiations side by side, instead of an 8-lane run that costs the same
//    for 2 lanes as for 8.
// Earlier, on the Zen 4 machine (bench/results/simd-powm-*.md): register versions +20..50%
// at N = 20/30, two rows per pass (the former amm2) +30% over one row per pass.
// Measured on the Intel Xeon (family 6 model 167, AVX-512 IFMA, 2 cores, KVM), this machine,
// 2026-11-25, bench_simd ifma_x8_ct, modexp/s per item: 1024 bits 15,300 -> 21,100..22,300
// (mont_r + register selection). Kernel microbenchmark (TSC cycles per call, N = 20): square
// 690 -> 580, product 940 -> 745, selection 900 -> 360. Tried without gain here: mont_r at
// N = 40 (-25%: code size), block widths 6..14 (10..12 best).
// 2026-11-26, the tiles replace the former row-pass kernels (4 multiplier and 4 quotient
// digits per pass over the in-memory accumulator, a chain of 8 dependent multiplies per
// position) and mont_r / amm_r at N = 30; TSC cycles per call, square / product:
// N = 30 1825 / 1840 -> 1395 / 1695 (T = 6), N = 40 3225 / 3980 -> 2250..2370 / 2790..2900,
// N = 60 6700 / 8280 -> 5200 / 6500 (T = 6), N = 79 11720 / 14930 -> 9320 / 11460 (T = 8);
// at N = 10..24 the tiles beat the row passes too (N = 16: 650 / 690 -> 490 / 530); at N = 20
// mont_r stays ahead (600 / 800 against 720 / 870 for the best tiles, T = 5). T = 6..8 are
// within 5% of each other at N = 40..79.
// 2026-11-28, the AMD EPYC Zen 5 machine (family 26 model 2, AVX-512 IFMA with a full 512-bit
// datapath: 3.17 independent VPMADD52LUQ per TSC cycle; 2 vCPUs, KVM): mont_rows_sqr, amm_reg,
// the stitched selection and the icelake-server tuning replace the former mont_r (blocks of 12
// positions, product and reduction terms per block: the quotient chain within a block left the
// multipliers idle; its unrolled product and square were 17 KB each, beyond the 32 KB
// instruction cache together). TSC cycles per call (ad hoc harness, crypto_mb's in the same
// run): square 480 -> 404 (AMS52x20 410), product 649 -> 557 (AMM52x20 521), the selection of
// 32 entries 200 -> ~8 per squaring carried. modexp 1024 against crypto_mb 0.80 -> 0.93,
// RSA-2048 0.86 -> 1.00 (bench/results/cpu-2026-11-28c-zen5/).
// A ninth item on the scalar MULX/ADX units, its instructions in the same stream as the N = 20
// square's, was tried and dropped (2026-11-29, bench/results/cpu-2026-11-29f-zen5/: the real
// rows took about the sum of both kernels). Probed again on 2026-11-30 with synthetic products
// spread through this square (bench/results/cpu-2026-11-30d-zen5/): half a scalar step costs
// 2-5% of the square, a whole one 11-17%; at best +4% items per cycle before any real REDC.
//
// Everything here has internal linkage and uses no std template: the intrinsic instance is
// compiled under a target pragma (cpu/simd/lanes_impl.h).
#pragma once

// r = t[N..2N) + carries, normalised (the reduced value, in [0, 2m)).
static inline void normalize_out(V *r, const V *t, size_t N) {
  const V mask = vset1((1ll << 52) - 1);
  V c = vzero();
  for (size_t k = 0; k < N; ++k) {
    const V v = vadd(t[N + k], c);
    c = vshr52(v);
    r[k] = vand(v, mask);
  }
}

// r = a*b/R mod m (almost: result in [0, 2m) for a, b in [0, 2m)). r may alias a or b.
// t: 2N vectors of scratch.
template <size_t NC>
static void amm(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = vzero();
  for (size_t k = 0; k < N; ++k) t[k] = zero;
MPB_UNROLL(64)
  for (size_t i = 0; i < N; ++i) {
    const V bi = b[i];
    V *ti = t + i;
    V x = madlo(ti[0], a[0], bi);
    const V q = madlo(zero, x, minv);  // < 2^52: only the low 52 bits of x and minv are used
    x = madlo(x, m[0], q);             // low 52 bits now zero
    const V carry = vshr52(x);
MPB_UNROLL(64)
    for (size_t j = 1; j < N; ++j) {
      V y = madlo(ti[j], a[j], bi);
      y = madhi(y, a[j - 1], bi);
      y = madlo(y, m[j], q);
      y = madhi(y, m[j - 1], q);
      ti[j] = y;
    }
    ti[N] = madhi(madhi(zero, a[N - 1], bi), m[N - 1], q);
    ti[1] = vadd(ti[1], carry);
  }
  normalize_out(r, t, N);
}

// A copy of p that the compiler cannot prove equal to p: loads through it are not merged
// with loads through other copies. Used once per row in the register kernels below, so that
// the operand digits are read from memory (as instruction operands) row by row instead of
// being hoisted into registers for the whole unrolled function, which spills.
template <class T>
static inline const T *fresh(const T *p) {
  __asm__ volatile("" : "+r"(p));
  return p;
}

// The table selection that a squaring carries along (the compile-time sizes, see run_kernel:
// the w squarings of a window select the next window's entries, squaring s the entries
// [2^w s / w, 2^w (s+1) / w)): mont_rows_sqr blends digit i of its entries [e0, e1) into sel after
// reduction row i, redc_tiles digits [it, it+T) after each block of T rows (sel[d] = tab[e][d]
// in the lanes whose idx is e). The selection's loads and masked moves run beside the
// multiplies, which leave those ports idle, instead of as a separate load-bound pass. Every
// entry is read, at addresses that do not depend on idx.
struct Stitch {
  V *sel;
  const V *tab;
  V idx;
  unsigned e0, e1;  // e1 - e0 <= kStitchMax
  unsigned entries;  // the table's (a power of two)
};
constexpr unsigned kStitchMax = (kTable + kWindow - 1) / kWindow;  // 7: a 5-bit window's share
constexpr bool stitch_shares_fit() {  // every window width's largest share fits kStitchMax
  for (unsigned w = 1; w <= kWindow; ++w)
    if (((1u << w) + w - 1) / w > kStitchMax) return false;
  return true;
}
static_assert(stitch_shares_fit(), "a squaring would have to select more than kStitchMax entries");

// The N = 20 square's selection, fixed once per squaring: the lanes that take entry e0 + u
// (km[u]; none for u >= e1 - e0) and where that entry's digits are (tp[u], one pointer each). So
// every digit blends kStitchMax entries at addresses that depend on e0 and e1 only, without a
// branch on the share's size per digit: that test and its address arithmetic were ~14 scalar
// instructions per reduction row beside ~120 vector ones, in a kernel bound by how many
// instructions the core issues. For u >= e1 - e0 the entry read (under the empty mask) is
// (e0 + u) mod entries: a valid one and, from 8 entries on, one that no other u of this squaring
// reads. Measured on the Zen 5 machine (2026-11-29, the ad hoc crypto_mb harness, libraries
// alternated): RSA-2048 +1..7%, 1024-bit modexp +1..4.5%. Two variants were slower: the entry
// e0 read again for u >= e1 - e0 (two masked loads of one address into the same value: the
// square twice as slow, RSA-2048 16.8K -> 9.4K/s), and one base pointer with the entries at fixed
// offsets from min(e0, kTable - kStitchMax) (RSA-2048 -1%, modexp -4%).
struct StitchPlan {
  Mask km[kStitchMax];
  const V *tp[kStitchMax];
};
static inline void stitch_plan(const Stitch *st, size_t N, StitchPlan &p) {
  const unsigned ne = st->e1 - st->e0;
  const V *tab = fresh(st->tab);
MPB_UNROLL(8)
  for (unsigned u = 0; u < kStitchMax; ++u) {
    const bool in = u < ne;
    p.km[u] = veq(st->idx, vset1(in ? (uint64_t)(st->e0 + u) : ~(uint64_t)0));  // idx < 2^w
    p.tp[u] = tab + (size_t)((st->e0 + u) & (st->entries - 1)) * N;
  }
}

// Digits [d0, d1) of the entries [e0, e1) blended into sel (N digits per entry).
static inline void stitch_digits(const Stitch *st, const StitchPlan &p, size_t d0, size_t d1) {
MPB_UNROLL(1)
  for (size_t d = d0; d < d1; ++d) {
    V s = st->sel[d];
MPB_UNROLL(8)
    for (unsigned u = 0; u < kStitchMax; ++u) s = vblend(s, p.km[u], p.tp[u][d]);
    st->sel[d] = s;
  }
}

// The tiles' selection (N >= 30): the lanes that take entry e0 + u, u < kStitchMax (km), and how
// many entries (e1 - e0); each digit blends the share's entries behind a test of its size. (Both
// forms of the plan above made RSA-4096 and RSA-3072 6-8% slower there.)
static inline unsigned stitch_masks(const Stitch *st, Mask (&km)[kStitchMax]) {
MPB_UNROLL(8)
  for (unsigned u = 0; u < kStitchMax; ++u) km[u] = veq(st->idx, vset1(st->e0 + u));
  return st->e1 - st->e0;
}

// Digits [d0, d1) of the entries [e0, e1) blended into sel (N digits per entry), ne = e1 - e0.
static inline void stitch_digits_ne(const Stitch *st, const Mask (&km)[kStitchMax], unsigned ne,
                                 size_t N, size_t d0, size_t d1) {
  const V *tp = fresh(st->tab) + (size_t)st->e0 * N;
MPB_UNROLL(1)
  for (size_t d = d0; d < d1; ++d) {
    V s = st->sel[d];
MPB_UNROLL(8)
    for (unsigned u = 0; u < kStitchMax; ++u)
      if (u < ne) s = vblend(s, km[u], tp[u * N + d]);
    st->sel[d] = s;
  }
}

// Row square for compile-time N (N = 20): the whole square (off-diagonal products once,
// doubled, plus the diagonal) into 2N accumulators, then the Montgomery reduction row by row:
// row i adds q_i*m at position i, and q_(i+1) is computed as soon as position i+1 has its low
// terms from row i (the rest of row i then overlaps its latency). The operand digits are read
// through fresh() once per row, so that the compiler keeps the accumulators, not all of a or
// m, in registers. ST: carries a table selection (Stitch). Bounds as amm's: a position receives
// < 2N+1 product halves (after the doubling and the diagonal) and < 2N Montgomery halves of
// < 2^52, plus carries: < 2^63 for N < 500. r may alias a (written at the end). (The same rows
// for the product ran at 512-527 TSC cycles against amm_reg's 557 alone (505-510 since
// 2026-11-29), but slower beside this square in the exponentiation: 17 KB each, beyond the
// instruction cache together. Tried on 2026-11-29 without a gain: the reduction two rows per
// pass, each m digit loaded once for four multiplies (2% slower), and position i's carry as
// (acc[i] + 2^52 - 1) >> 52 instead of the multiply by m_0 (faster alone, 1-1.5% slower in the
// exponentiation's window of five squarings and a product). Also tried on 2026-11-29, Zen 5: a
// Karatsuba square at 10 digits (1,150 multiplies instead of 1,240), the three half squares each
// in 20 register accumulators and their combination in memory, signed carries in the reduction:
// level alone (383-386 TSC cycles against 386-391) and 3-4% slower carrying the selection (414
// against ~400). Both kernels issue 6.0-6.3 instructions per TSC cycle there, so the
// Karatsuba's extra additions and stores cost what its 90 multiplies save; the same square with
// its multiplies taking memory operands (fewer instructions, more loads) was 6-10% slower.)
template <size_t N, bool ST>
static void mont_rows_sqr(V *r, const V *a, const V *m, V minv, const Stitch *st) {
  const V zero = vzero();
  const V mask = vset1((1ll << 52) - 1);
  constexpr int n = (int)N;
  V acc[2 * N];
MPB_UNROLL(64)
  for (int k = 0; k < 2 * n; ++k) acc[k] = zero;
MPB_UNROLL(64)
  for (int j = 1; j < n; ++j) {
    const V *ap = fresh(a);
    const V aj = ap[j];
MPB_UNROLL(64)
    for (int i = 0; i < j; ++i) {
      acc[i + j] = madlo(acc[i + j], ap[i], aj);
      acc[i + j + 1] = madhi(acc[i + j + 1], ap[i], aj);
    }
  }
MPB_UNROLL(64)
  for (int k = 0; k < n; ++k) {
    const V d = a[k];
    acc[2 * k] = madlo(vadd(acc[2 * k], acc[2 * k]), d, d);
    acc[2 * k + 1] = madhi(vadd(acc[2 * k + 1], acc[2 * k + 1]), d, d);
  }
  StitchPlan plan;
  if (ST) stitch_plan(st, N, plan);
  V q = madlo(zero, acc[0], minv);  // < 2^52: only the low 52 bits of acc[0] and minv are used
MPB_UNROLL(64)
  for (int i = 0; i < n; ++i) {
    const V *mp = fresh(m);
    acc[i] = madlo(acc[i], q, mp[0]);  // low 52 bits now zero
    acc[i + 1] = madhi(acc[i + 1], q, mp[0]);
    acc[i + 1] = madlo(acc[i + 1], q, mp[1]);
    acc[i + 2] = madhi(acc[i + 2], q, mp[1]);
    acc[i + 1] = vadd(acc[i + 1], vshr52(acc[i]));  // position i+1 is complete
    const V qn = i + 1 < n ? madlo(zero, acc[i + 1], minv) : zero;
MPB_UNROLL(64)
    for (int j = 2; j < n; ++j) {
      acc[i + j] = madlo(acc[i + j], q, mp[j]);
      acc[i + j + 1] = madhi(acc[i + j + 1], q, mp[j]);
    }
    q = qn;
    if (ST) stitch_digits(st, plan, (size_t)i, (size_t)i + 1);
  }
  V c = zero;
MPB_UNROLL(64)
  for (int k = 0; k < n; ++k) {
    const V v = vadd(acc[n + k], c);
    c = vshr52(v);
    r[k] = vand(v, mask);
  }
}

// Word-by-word product for compile-time N (N = 20): one row of the product and one of the
// reduction per step, the N accumulators in registers, the step's loop rolled (the row inside
// unrolled): a small function, so that the exponentiation's squaring and product stay in the
// instruction cache together (the fully unrolled product was 17 KB beside the square's 17 KB;
// 32 KB of L1 instruction cache on the Zen 5 machine). acc[j] holds position i+j during step i.
// Per step: position 0's low halves, q (it waits for no high half), the reduction's low half
// and the carry out of position 0 (whose low 52 bits are then zero); then digit by digit,
// position j's low halves (a_j b_i, q m_j) and the high halves of digit j-1, written one
// accumulator down (acc[j-1]: the step drops position 0). Each digit of a and m is loaded once
// per step and used for its low and high halves. Bounds as amm's. r may alias a or b.
// (2026-11-29, Zen 5: 505-510 TSC cycles per call against 554-562 for the former order, which
// made all low halves, then all high halves, and read every digit twice per step: 80 512-bit
// loads per step beside 81 multiplies; crypto_mb's AMM52x20 521-528 in the same run.)
template <size_t N>
static void amm_reg(V *r, const V *a, const V *b, const V *m, V minv) {
  const V zero = vzero();
  constexpr int n = (int)N;
  V acc[N];
MPB_UNROLL(64)
  for (int k = 0; k < n; ++k) acc[k] = zero;
MPB_UNROLL(1)
  for (int i = 0; i < n; ++i) {
    // the operands from memory (a fresh() copy per pass: the compiler neither hoists the digits
    // out of the loop nor keeps them between passes, which would take 2N registers and spill
    // the accumulators); within the pass each digit is live from its low to its high halves
    const V bi = b[i];
    const V *ap = fresh(a);
    const V *mp = fresh(m);
    V ax = ap[0], mx = mp[0];
    acc[0] = madlo(acc[0], ax, bi);
    const V q = madlo(zero, acc[0], minv);  // < 2^52: only the low 52 bits are used
    acc[0] = madlo(acc[0], q, mx);           // low 52 bits now zero
    const V carry = vshr52(acc[0]);
MPB_UNROLL(64)
    for (int j = 1; j < n; ++j) {
      const V an = ap[j], mn = mp[j];
      V t = madlo(acc[j], an, bi);
      t = madlo(t, q, mn);
      if (j == 1) t = vadd(t, carry);
      t = madhi(t, ax, bi);
      acc[j - 1] = madhi(t, q, mx);
      ax = an, mx = mn;
    }
    acc[n - 1] = madhi(madhi(zero, ax, bi), q, mx);
  }
  const V mask = vset1((1ll << 52) - 1);
  V c = zero;
MPB_UNROLL(64)
  for (int k = 0; k < n; ++k) {
    const V v = vadd(acc[k], c);
    c = vshr52(v);
    r[k] = vand(v, mask);
  }
}

// Tiled kernels for the sizes other than N = 20 (N >= 8): the
// product, the square's off-diagonal products and the Montgomery reduction all go through
// tiles of T multiplier digits (rows, held in registers) x T column digits (loaded one at a
// time), whose 2T accumulator positions are updated in registers: a tile loads its upper T
// positions and stores its lower T, and hands the upper T to the next tile of its row block.
// Within a tile a column's T low halves, then its T high halves, go to distinct positions:
// consecutive multiplies are independent (the former row-pass kernels chained 2R multiplies
// per position instead). The product and the reduction are separate passes (the square needs the
// whole product before its doubling anyway). Bounds: a position receives < 2N product halves
// of < 2^52 from the product (2N+1 after the square's doubling and diagonal) and < 2N from
// the reduction, plus carries: < 2^63 for N < 500.

// acc[r+c] += lo(x_r * col_c), acc[r+c+1] += hi(x_r * col_c), r < T, c < CW: one tile, its
// T + CW accumulator positions in registers.
template <int T, int CW>
static inline MPB_IFMA_INLINE void tile(V (&acc)[2 * T], const V (&x)[T], const V *col) {
MPB_UNROLL(16)
  for (int c = 0; c < CW; ++c) {
    const V y = col[c];
MPB_UNROLL(16)
    for (int r = 0; r < T; ++r) acc[r + c] = madlo(acc[r + c], x[r], y);
MPB_UNROLL(16)
    for (int r = 0; r < T; ++r) acc[r + c + 1] = madhi(acc[r + c + 1], x[r], y);
  }
}

// The tile of CW columns at tp: its lower T positions are in acc[0, T) already (carried from
// the tile before), its upper CW are loaded (or start from zero: FRESH); afterwards the lower T
// are final for this row block and stored, and the upper ones move down to acc[0, CW).
template <int T, int CW, bool FRESH>
static inline MPB_IFMA_INLINE void tile_step(V *tp, V (&acc)[2 * T], const V (&x)[T], const V *col) {
MPB_UNROLL(16)
  for (int k = T; k < T + CW; ++k) acc[k] = FRESH ? vzero() : tp[k];
  tile<T, CW>(acc, x, col);
MPB_UNROLL(16)
  for (int k = 0; k < T; ++k) tp[k] = acc[k];
MPB_UNROLL(16)
  for (int k = 0; k < CW; ++k) acc[k] = acc[T + k];
}

// T rows times the ncols column digits col[0..ncols): positions tp[0 .. ncols+T), tile by tile
// along the row block, the T positions two neighbouring tiles share carried in registers (not
// stored by one tile and loaded by the next, a store-to-load chain between the tiles). FIRST:
// the product's first row block, whose positions from tp[T] on (FIRST == 1), or from tp[0] on
// (FIRST == 2), nothing has written yet: they start from zero (t is cleared only past them).
// (2026-11-29, Zen 5, with redc_tiles' shorter quotient chain: against crypto_mb, RSA-4096
// 1.111-1.113 -> 1.133-1.136, RSA-3072 1.211-1.219 -> 1.230-1.236, modexp 2048 about the same,
// the kernels alone within their noise; bench/results/cpu-2026-11-29-zen5/.)
template <int T, int FIRST = 0>
static inline MPB_IFMA_INLINE void row_block(V *tp, const V (&x)[T], const V *col,
                                                            size_t ncols) {
  constexpr bool F = FIRST != 0;
  V acc[2 * T];
MPB_UNROLL(16)
  for (int k = 0; k < T; ++k) acc[k] = FIRST == 2 ? vzero() : tp[k];
  size_t c0 = 0;
MPB_UNROLL(1)
  for (; c0 + T <= ncols; c0 += T) tile_step<T, T, F>(tp + c0, acc, x, col + c0);
  static_assert(T <= 8, "remainder cases");
  const size_t rest = ncols - c0;
  switch (rest) {
    case 0: break;
    case 1: tile_step<T, 1, F>(tp + c0, acc, x, col + c0); break;
    case 2: tile_step<T, (T > 2 ? 2 : 1), F>(tp + c0, acc, x, col + c0); break;
    case 3: tile_step<T, (T > 3 ? 3 : 1), F>(tp + c0, acc, x, col + c0); break;
    case 4: tile_step<T, (T > 4 ? 4 : 1), F>(tp + c0, acc, x, col + c0); break;
    case 5: tile_step<T, (T > 5 ? 5 : 1), F>(tp + c0, acc, x, col + c0); break;
    case 6: tile_step<T, (T > 6 ? 6 : 1), F>(tp + c0, acc, x, col + c0); break;
    default: tile_step<T, (T > 7 ? 7 : 1), F>(tp + c0, acc, x, col + c0); break;
  }
  // the last tile's upper positions, now in acc[0, rest) at tp[c0 + T] (a remainder tile) or
  // acc[0, T) at tp[c0] (the last full tile's)
  const size_t up = rest ? rest : T, at = rest ? c0 + T : c0;
MPB_UNROLL(16)
  for (int k = 0; k < T; ++k)
    if ((size_t)k < up) tp[at + k] = acc[k];
}

// One quotient digit: t[0] (complete) is cancelled, its carry goes to t[1], q*m to t[0..N].
static inline void redc_row(V *t, const V *m, V minv, size_t N) {
  const V mask = vset1((1ll << 52) - 1);
  const V x = t[0];
  const V q = madlo(vzero(), x, minv);
  const V c = vshr52(vadd(x, mask));
  t[1] = madhi(madlo(vadd(t[1], c), m[1], q), m[0], q);
  for (size_t j = 2; j < N; ++j) t[j] = madhi(madlo(t[j], m[j], q), m[j - 1], q);
  t[N] = madhi(t[N], m[N - 1], q);
}

// Montgomery reduction of t (2N positions) by T quotient digits per block: the block's first
// T columns row by row (each quotient digit needs its position complete: the serial chain is
// q -> 2 multiplies -> q; the carry out of a position is (x + 2^52 - 1) >> 52),
// then the other columns by tiles. The last N mod T rows one at a time (redc_row).
// Tried on the Zen 5 machine (2026-11-28) without a gain: the tiles by anti-diagonals (each
// block's chain right after the tiles it needs, the others of the diagonal beside it, the chain's
// upper half carried in registers): N = 40 the same, N = 60 / 79 4-6% slower, RSA-4096 and
// modexp 2048 4% slower.
template <int T>
static inline void redc_tiles(V *t, const V *m, V minv, size_t N, const Stitch *st = nullptr) {
  const V zero = vzero();
  const V mask = vset1((1ll << 52) - 1);
  const size_t full = N / T * T;
  Mask km[kStitchMax];
  const unsigned ne = st ? stitch_masks(st, km) : 0;
MPB_UNROLL(1)
  for (size_t it = 0; it < full; it += T) {
    V *tp = t + it;
    V u[T], acc[2 * T];
MPB_UNROLL(16)
    for (int k = 0; k < 2 * T; ++k) acc[k] = tp[k];
    V carry = zero;
MPB_UNROLL(16)
    for (int r = 0; r < T; ++r) {
      const V x = vadd(acc[r], carry);
      u[r] = madlo(zero, x, minv);
      carry = vshr52(vadd(x, mask));
      // position r+1's two terms of u_r side by side: the chain to the next quotient digit is
      // one multiply and an add, not two dependent multiplies (2026-11-29: N = 40 square
      // ~1.5% faster alone, RSA-4096 against crypto_mb 1.11 -> 1.12-1.14)
      acc[r + 1] = vadd(madhi(acc[r + 1], u[r], m[0]), madlo(zero, u[r], m[1]));
MPB_UNROLL(16)
      for (int c = 1; c < T; ++c) {
        if (c > 1) acc[r + c] = madlo(acc[r + c], u[r], m[c]);
        acc[r + c + 1] = madhi(acc[r + c + 1], u[r], m[c]);
      }
    }
    acc[T] = vadd(acc[T], carry);
MPB_UNROLL(16)
    for (int k = T; k < 2 * T; ++k) tp[k] = acc[k];
    row_block<T>(tp + T, u, m + T, N - T);
    if (st) stitch_digits_ne(st, km, ne, N, it, it + T);
  }
MPB_UNROLL(1)
  for (size_t i = full; i < N; ++i) redc_row(t + i, m, minv, N);
  if (st) stitch_digits_ne(st, km, ne, N, full, N);
}

// r = a*b/R mod m (almost). r may alias a or b. t: 2N vectors.
template <size_t NC, int T>
static void amm_tiles(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  const V zero = vzero();
  const size_t full = N / T * T;
  // the first row block writes positions [0, N+T) first; the rest of t is cleared
  for (size_t k = full ? N + T : 0; k < 2 * N; ++k) t[k] = zero;
MPB_UNROLL(1)
  for (size_t ib = 0; ib < full; ib += T) {
    V x[T];
MPB_UNROLL(16)
    for (int k = 0; k < T; ++k) x[k] = b[ib + k];
    if (ib == 0) row_block<T, 2>(t, x, a, N);
    else row_block<T>(t + ib, x, a, N);
  }
MPB_UNROLL(1)
  for (size_t i = full; i < N; ++i) {
    const V x[1] = {b[i]};
    row_block<1>(t + i, x, a, N);
  }
  redc_tiles<T>(t, m, minv, N);
  normalize_out(r, t, N);
}

// r = a^2/R mod m (almost). r may alias a. t: 2N vectors.
template <size_t NC, int T>
static void ams_tiles(V *r, const V *a, const V *m, V minv, V *t, size_t Nrt,
                      const Stitch *st = nullptr) {
  const size_t N = NC ? NC : Nrt;
  const V zero = vzero();
  const size_t full = N / T * T;
  // the first block writes positions [0, N+T) first (its triangle [0, 2T), its row block the
  // rest); the rest of t is cleared
  for (size_t k = full ? N + T : 0; k < 2 * N; ++k) t[k] = zero;
  size_t ib = 0;
MPB_UNROLL(1)
  for (; ib < full; ib += T) {
    V x[T], acc[2 * T];
MPB_UNROLL(16)
    for (int k = 0; k < T; ++k) x[k] = a[ib + k];
    // the block's triangle: a_(ib+i) * a_(ib+j), i < j < T, at positions 2ib + i + j
    V *tp = t + 2 * ib;
MPB_UNROLL(16)
    for (int k = 0; k < 2 * T; ++k) acc[k] = ib ? tp[k] : zero;
MPB_UNROLL(16)
    for (int j = 1; j < T; ++j) {
MPB_UNROLL(16)
      for (int i = 0; i < j; ++i) acc[i + j] = madlo(acc[i + j], x[i], x[j]);
MPB_UNROLL(16)
      for (int i = 0; i < j; ++i) acc[i + j + 1] = madhi(acc[i + j + 1], x[i], x[j]);
    }
MPB_UNROLL(16)
    for (int k = 0; k < 2 * T; ++k) tp[k] = acc[k];
    if (ib == 0) row_block<T, 1>(tp + T, x, a + T, N - T);
    else row_block<T>(tp + T, x, a + ib + T, N - ib - T);
  }
MPB_UNROLL(1)
  for (size_t i = ib; i + 1 < N; ++i) {
    const V x[1] = {a[i]};
    row_block<1>(t + 2 * i + 1, x, a + i + 1, N - i - 1);
  }
  for (size_t k = 0; k < N; ++k) {
    const V d = a[k];
    t[2 * k] = madlo(vadd(t[2 * k], t[2 * k]), d, d);
    t[2 * k + 1] = madhi(vadd(t[2 * k + 1], t[2 * k + 1]), d, d);
  }
  redc_tiles<T>(t, m, minv, N, st);
  normalize_out(r, t, N);
}

// The multiplication and squaring used by the exponentiation, chosen by size: amm_reg and
// mont_rows_sqr at N = 20, tiles of 6 rows where 6 divides N and 8 does not (N = 30, 60), of 8
// otherwise; at the compile-time sizes the squarings carry the next window's table selection
// (kStitch).
template <size_t NC>
constexpr int tile_rows() { return NC && NC % 6 == 0 && NC % 8 != 0 ? 6 : 8; }
template <size_t NC>
constexpr bool kStitch = NC != 0;  // the compile-time sizes (N = 20 and the tiles' N >= 30)
template <size_t NC>
static inline void mulw(V *r, const V *a, const V *b, const V *m, V minv, V *t, size_t N) {
  if constexpr (NC == 20) amm_reg<20>(r, a, b, m, minv);
  else if (N >= 8) amm_tiles<NC, tile_rows<NC>()>(r, a, b, m, minv, t, N);
  else amm<NC>(r, a, b, m, minv, t, N);
}
template <size_t NC>
static inline void sqrw(V *r, const V *a, const V *m, V minv, V *t, size_t N,
                        const Stitch *st = nullptr) {
  if constexpr (NC == 20) {
    if (st) mont_rows_sqr<20, true>(r, a, m, minv, st);
    else mont_rows_sqr<20, false>(r, a, m, minv, nullptr);
  } else if (N >= 8) {
    ams_tiles<NC, tile_rows<NC>()>(r, a, m, minv, t, N, st);
  } else {
    amm<NC>(r, a, a, m, minv, t, N);
  }
}

// out = tab[idx[lane]] lane by lane, reading every entry (masked moves, no secret addresses).
// With a compile-time N the output digits stay in registers, a block of at most 16 at a time.
template <size_t NC>
static void select(V *out, const V *tab, size_t Nrt, V idx, unsigned entries) {
  const V zero = vzero();
  if (NC) {
    constexpr size_t nb = (NC + 15) / 16, B = NC ? (NC + nb - 1) / nb : 1;
MPB_UNROLL(8)
    for (size_t d0 = 0; d0 < NC; d0 += B) {
      V o[B];
MPB_UNROLL(32)
      for (size_t d = 0; d < B; ++d) o[d] = zero;
      V ev = zero;
      const V one = vset1(1);
      const V *te = fresh(tab) + d0;
MPB_UNROLL(1)
      for (unsigned e = 0; e < entries; ++e) {
        const Mask k = veq(idx, ev);
MPB_UNROLL(32)
        for (size_t d = 0; d < B; ++d)
          if (d0 + d < NC) o[d] = vblend(o[d], k, te[d]);
        te += NC;
        ev = vadd(ev, one);
      }
MPB_UNROLL(32)
      for (size_t d = 0; d < B; ++d)
        if (d0 + d < NC) out[d0 + d] = o[d];
    }
    return;
  }
  const size_t N = Nrt;
  for (size_t d = 0; d < N; ++d) out[d] = zero;
  for (unsigned e = 0; e < entries; ++e) {
    const Mask k = veq(idx, vset1(e));
    const V *te = tab + e * N;
    for (size_t d = 0; d < N; ++d) out[d] = vblend(out[d], k, te[d]);
  }
}

static V window(const Job &job, size_t pos, unsigned len) {
  alignas(64) uint64_t w[8];
  for (unsigned l = 0; l < 8; ++l) w[l] = window_bits(job.exp[l], job.en, pos, len);
  return vload(w);
}

template <size_t NC>
static void run_kernel(const Job &job) {
  const size_t N = job.N;
  V *M = reinterpret_cast<V *>(job.M);
  const V minv = vload(job.MINV);
  V *R2 = reinterpret_cast<V *>(job.R2);
  V *RB = reinterpret_cast<V *>(job.RB);
  V *B = reinterpret_cast<V *>(job.B);
  V *ONE = reinterpret_cast<V *>(job.ONE);
  V *TAB = reinterpret_cast<V *>(job.TAB);
  V *ACC = reinterpret_cast<V *>(job.ACC);
  V *SEL = reinterpret_cast<V *>(job.SEL);
  V *T = reinterpret_cast<V *>(job.T);

  const unsigned w = run_window(job), entries = 1u << w;  // (public: the exponent's width, or a public exponent)
  mulw<NC>(TAB, R2, ONE, M, minv, T, N);          // R mod m (Montgomery one)
  mulw<NC>(TAB + N, B, RB, M, minv, T, N);        // base * R mod m (RB: R2, or a caller's factor)
  // the even entries as squares of half their index (a squaring costs ~0.8 of a product)
  for (unsigned k = 2; k < entries; ++k) {
    if (k % 2 == 0) sqrw<NC>(TAB + k * N, TAB + (k / 2) * N, M, minv, T, N);
    else mulw<NC>(TAB + k * N, TAB + (k - 1) * N, TAB + N, M, minv, T, N);
  }

  const size_t bits = job.ebits;
  if (bits == 0) {
    for (size_t d = 0; d < N; ++d) ACC[d] = TAB[d];
  } else {
    const size_t nw = (bits + w - 1) / w;
    const unsigned top = (unsigned)(bits - w * (nw - 1));
    size_t pos = bits - top;
    select<NC>(ACC, TAB, N, window(job, pos, top), entries);
    if (kStitch<NC>) {  // every lane's entry overwrites SEL at every digit; defined from the start
      for (size_t d = 0; d < N; ++d) SEL[d] = vzero();
    }
    while (pos > 0) {
      pos -= w;
      const bool skip = job.vt && window_zero_all(job, pos, w);  // (variable time: a product by one)
      if (kStitch<NC> && !skip) {
        // squaring s selects the entries [entries*s/w, entries*(s+1)/w) of this window
        Stitch st{SEL, TAB, window(job, pos, w), 0, 0, entries};
        for (unsigned s = 0; s < w; ++s) {
          st.e0 = entries * s / w;
          st.e1 = entries * (s + 1) / w;
          sqrw<NC>(ACC, ACC, M, minv, T, N, &st);
        }
      } else {
        for (unsigned s = 0; s < w; ++s) sqrw<NC>(ACC, ACC, M, minv, T, N);
        if (skip) continue;
        select<NC>(SEL, TAB, N, window(job, pos, w), entries);
      }
      mulw<NC>(ACC, ACC, SEL, M, minv, T, N);
    }
  }
  mulw<NC>(ACC, ACC, ONE, M, minv, T, N);  // leave the Montgomery domain: result in [0, m]
}

// ---- Few used lanes at N = 20, 30, 40, 60, 79: each number's digits across the lanes ---------
// A lone RSA item uses 2 of the 8 lanes (its CRT halves), and the 8-lane kernel costs the same
// whatever the number of lanes used. Here each half is an N-digit number in NV = ceil(N / 8)
// vectors (digit slots 0..8NV-1, those from N on zero once normalised), and the two halves'
// products run side by side.
// Almost-Montgomery product, word by word: step i adds a*b_i and q_i*m and shifts the accumulator
// down one digit (valign1). q_i needs position 0 exactly, so a scalar copy of it (s) is kept:
// s + lo(a_0 b_i) gives q_i by one scalar multiply, and the next s is position 1 (read from the
// vector before the step) plus the step's terms at position 1 and the carry out of position 0.
// The a-terms of positions 0 and 1 (P0, P1) are made for all steps at once beforehand. The step's
// chain (scalar quotient, broadcast, multiply, shift) sets the time, not the multipliers: on the
// Zen 5 machine (2026-11-29) 322-327 TSC cycles per pair of products at N = 20, a whole RSA-2048
// item's two exponentiations 162-168 us against ~205 us on the 8-lane kernel; a lone RSA-3072 item
// 2.1x and RSA-4096 2.5x the 8-lane kernel's rate (bench/results/cpu-2026-11-29b-zen5/). Bounds: a position receives at most 4 halves of < 2^52 per step, 4N per
// product, plus carries: < 2^61 for N <= 79. Secrets (operands, exponent windows) steer no branch and no
// address: the table is read whole by masked moves, as select does; variable time (job.vt) skips
// no window here.
template <size_t N>
struct HNum {
  static constexpr int NV = (int)((N + 7) / 8);  // vectors per number
  static constexpr size_t D = 8 * (size_t)NV;    // digit slots (the top ones zero once normalised)
};

template <size_t N>
struct HMod {
  V M[HNum<N>::NV];
  uint64_t m0, m1, k;
};

static inline uint64_t hlane(const V &x, unsigned k) {
  uint64_t v;
  __builtin_memcpy(&v, reinterpret_cast<const char *>(&x) + 8 * k, 8);
  return v;
}

// The low and the high 52 bits of the product of two digits (< 2^52), as madlo / madhi make them
// lane by lane, in scalar arithmetic.
static inline uint64_t hlo52(uint64_t x, uint64_t y) { return (x * y) & ((uint64_t(1) << 52) - 1); }
static inline uint64_t hhi52(uint64_t x, uint64_t y) {  // (no mul_wide: an external-linkage inline)
  return (uint64_t)(((unsigned __int128)x * y) >> 52);
}

// r[s] = a[s]*b[s]/R mod m[s] for the two halves s (almost: in [0, 2m)), each number D digits at a
// uint64_t array (64-byte aligned); r may alias a or b. pbuf: 4 * D limbs, aligned.
template <size_t N>
static void hamm2(uint64_t *const r[2], const uint64_t *const a[2], const uint64_t *const b[2],
                  const HMod<N> (&m)[2], uint64_t *pbuf) {
  constexpr int NV = HNum<N>::NV;
  constexpr size_t D = HNum<N>::D;
  const V zero = vzero();
  V X[2][NV], A[2][NV];
  uint64_t s[2];
  const uint64_t *P0[2], *P1[2];
  for (int h = 0; h < 2; ++h) {
    const V *av = reinterpret_cast<const V *>(a[h]);
    const V *bv = reinterpret_cast<const V *>(b[h]);
    const V a0 = vset1(a[h][0]), a1 = vset1(a[h][1]);
    V *p0 = reinterpret_cast<V *>(pbuf + 2 * h * D), *p1 = p0 + NV;
    for (int j = 0; j < NV; ++j) {
      A[h][j] = av[j];
      X[h][j] = zero;
      p0[j] = madlo(zero, a0, bv[j]);
      p1[j] = madhi(madlo(zero, a1, bv[j]), a0, bv[j]);
    }
    P0[h] = pbuf + 2 * h * D;
    P1[h] = P0[h] + D;
    s[h] = 0;
  }
  alignas(64) uint64_t l0[8] = {~uint64_t(0)};
  const V lane0 = vload(l0);
  const uint64_t mask = (uint64_t(1) << 52) - 1;
MPB_UNROLL(20)
  for (size_t i = 0; i < N; ++i) {
MPB_UNROLL(2)
    for (int h = 0; h < 2; ++h) {
      const uint64_t bi = b[h][i];
      const V bv = vset1(bi);
      const uint64_t x1 = hlane(X[h][0], 1);
      const uint64_t u = s[h] + P0[h][i];
      const uint64_t q = (u * m[h].k) & mask;
      const V qv = vset1(q);
      V H[NV];
MPB_UNROLL(10)
      for (int j = 0; j < NV; ++j) {
        X[h][j] = madlo(madlo(X[h][j], A[h][j], bv), m[h].M[j], qv);
        H[j] = madhi(madhi(zero, A[h][j], bv), m[h].M[j], qv);
      }
      const V c = vand(vshr52(X[h][0]), lane0);  // the carry out of position 0 (its low bits are 0)
MPB_UNROLL(10)
      for (int j = 0; j < NV; ++j) X[h][j] = vadd(valign1(j + 1 < NV ? X[h][j + 1] : zero, X[h][j]), H[j]);
      X[h][0] = vadd(X[h][0], c);
      const uint64_t cs = (u + hlo52(m[h].m0, q)) >> 52;
      s[h] = x1 + P1[h][i] + hlo52(m[h].m1, q) + hhi52(m[h].m0, q) + cs;
    }
  }
  for (int h = 0; h < 2; ++h) {
    alignas(64) uint64_t t[D];
    V *tv = reinterpret_cast<V *>(t);
    for (int j = 0; j < NV; ++j) tv[j] = X[h][j];
    uint64_t c = 0;
    for (size_t k = 0; k < D; ++k) {
      const uint64_t v = t[k] + c;
      c = v >> 52;
      r[h][k] = v & mask;
    }
  }
}

// sel (D digits) = entry idx of the table tab (entries of D digits), reading all entries.
template <size_t N>
static void hselect(uint64_t *sel, const uint64_t *tab, uint64_t idx, unsigned entries) {
  constexpr int NV = HNum<N>::NV;
  const V iv = vset1(idx);
  V o[NV];
  for (int j = 0; j < NV; ++j) o[j] = vzero();
  for (unsigned e = 0; e < entries; ++e) {
    const Mask k = veq(iv, vset1(e));
    const V *te = reinterpret_cast<const V *>(tab + (size_t)e * HNum<N>::D);
    for (int j = 0; j < NV; ++j) o[j] = vblend(o[j], k, te[j]);
  }
  V *sv = reinterpret_cast<V *>(sel);
  for (int j = 0; j < NV; ++j) sv[j] = o[j];
}

// The exponentiation of lanes l[0] and l[1] of the job (l[0] == l[1] for one lane), results to
// their lanes of ACC, in [0, m] as run_kernel's. The two tables (kTable x D limbs each), then 9
// numbers and the products' P arrays live in the job's TAB area (kTable * N * L limbs).
template <size_t N>
static void run_single(const Job &job, const unsigned (&l)[2]) {
  constexpr int NV = HNum<N>::NV;
  constexpr size_t D = HNum<N>::D;
  static_assert(2 * kTable * D + 15 * D <= kTable * N * 8, "the horizontal numbers fit the 8-lane table area");
  const unsigned L = job.L;
  uint64_t *tab[2] = {job.TAB, job.TAB + kTable * D};
  uint64_t *area = job.TAB + 2 * kTable * D;  // one, then r2, base, acc, sel, rb per half, then P
  uint64_t *one = area, *r2[2], *base[2], *acc[2], *sel[2], *rb[2];
  uint64_t *pbuf = area + 11 * D;
  HMod<N> hm[2];
  for (size_t k = 0; k < D; ++k) one[k] = k == 0;
  for (int h = 0; h < 2; ++h) {
    r2[h] = area + (1 + 5 * h) * D, base[h] = r2[h] + D, acc[h] = base[h] + D, sel[h] = acc[h] + D, rb[h] = sel[h] + D;
    alignas(64) uint64_t md[D];
    for (size_t d = 0; d < D; ++d) {
      const bool in = d < N;
      md[d] = in ? job.M[d * L + l[h]] : 0;
      r2[h][d] = in ? job.R2[d * L + l[h]] : 0;
      rb[h][d] = in ? job.RB[d * L + l[h]] : 0;
      base[h][d] = in ? job.B[d * L + l[h]] : 0;
    }
    const V *mv = reinterpret_cast<const V *>(md);
    for (int j = 0; j < NV; ++j) hm[h].M[j] = mv[j];
    hm[h].m0 = md[0], hm[h].m1 = md[1], hm[h].k = job.MINV[l[h]];
  }
  const unsigned w = job.win, entries = 1u << w;
  {
    uint64_t *const t0[2] = {tab[0], tab[1]}, *const t1[2] = {tab[0] + D, tab[1] + D};
    const uint64_t *const o2[2] = {one, one}, *const rr[2] = {r2[0], r2[1]}, *const bb[2] = {base[0], base[1]};
    const uint64_t *const rbr[2] = {rb[0], rb[1]};
    hamm2<N>(t0, rr, o2, hm, pbuf);   // R mod m
    hamm2<N>(t1, bb, rbr, hm, pbuf);  // base * R mod m
    for (unsigned k = 2; k < entries; ++k) {
      uint64_t *const tk[2] = {tab[0] + k * D, tab[1] + k * D};
      const uint64_t *const tp[2] = {tk[0] - D, tk[1] - D}, *const t1c[2] = {t1[0], t1[1]};
      hamm2<N>(tk, tp, t1c, hm, pbuf);
    }
  }
  uint64_t *const ac[2] = {acc[0], acc[1]};
  const uint64_t *const acr[2] = {acc[0], acc[1]}, *const slr[2] = {sel[0], sel[1]};
  const size_t bits = job.ebits;
  if (bits == 0) {
    for (int h = 0; h < 2; ++h) hselect<N>(acc[h], tab[h], 0, entries);
  } else {
    const size_t nw = (bits + w - 1) / w;
    const unsigned top = (unsigned)(bits - w * (nw - 1));
    size_t pos = bits - top;
    for (int h = 0; h < 2; ++h) hselect<N>(acc[h], tab[h], window_bits(job.exp[l[h]], job.en, pos, top), entries);
    while (pos > 0) {
      pos -= w;
      for (unsigned q = 0; q < w; ++q) hamm2<N>(ac, acr, acr, hm, pbuf);
      for (int h = 0; h < 2; ++h) hselect<N>(sel[h], tab[h], window_bits(job.exp[l[h]], job.en, pos, w), entries);
      hamm2<N>(ac, acr, slr, hm, pbuf);
    }
  }
  const uint64_t *const o2[2] = {one, one};
  hamm2<N>(ac, acr, o2, hm, pbuf);  // leave the Montgomery domain: in [0, m]
  for (int h = 0; h < 2; ++h)
    for (size_t d = 0; d < N; ++d) job.ACC[d * L + l[h]] = acc[h][d];
}

// The used lanes of the job (bits of job.used), in pairs for run_single: how many pairs (0 when
// more than max_pairs would be needed), lane pairs in p (an odd last lane paired with itself).
static unsigned single_pairs(const Job &job, unsigned max_pairs, unsigned (&p)[4][2]) {
  unsigned lanes[8], n = 0;
  for (unsigned k = 0; k < job.L && k < 8; ++k)
    if (job.used >> k & 1) lanes[n++] = k;
  const unsigned pairs = (n + 1) / 2;
  if (n == 0 || pairs > max_pairs || job.L != 8) return 0;
  for (unsigned i = 0; i < pairs; ++i) p[i][0] = lanes[2 * i], p[i][1] = lanes[2 * i + 1 < n ? 2 * i + 1 : 2 * i];
  return pairs;
}

// The exponentiation at a compile-time N: run_single for each pair of used lanes where that is
// cheaper than one 8-lane run (at most ifma_single_max_pairs(N) pairs), else run_kernel.
template <size_t N>
static void run_n(const Job &job) {
  unsigned p[4][2];
  constexpr unsigned sp = ifma_single_max_pairs(N);
  const unsigned pairs = sp ? single_pairs(job, sp, p) : 0;
  if (pairs == 0) {
    run_kernel<N>(job);
    return;
  }
  for (unsigned i = 0; i < pairs; ++i) run_single<N>(job, p[i]);
}

// The whole exponentiation: compile-time digit counts for the common sizes (1024..4096-bit
// moduli), a run-time N otherwise.
static void run_any(const Job &job) {
  switch (job.N) {
    case 20: run_n<20>(job); break;
    case 30: run_n<30>(job); break;
    case 40: run_n<40>(job); break;
    case 60: run_n<60>(job); break;
    case 79: run_n<79>(job); break;
    default: run_kernel<0>(job); break;
  }
}
