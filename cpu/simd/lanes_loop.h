// cpu/simd/lanes_loop.h: the lane kernels' arithmetic and exponentiation with 32-bit
// multipliers (cpu/simd/powm_avx2.cpp: 4 lanes, cpu/simd/powm_avx512.cpp: 8 lanes), written
// once over the instruction set K:
//   K::V                        the vector type (one item per 64-bit lane)
//   K::kBits                    the digit size (26, 27 or 28 bits: narrow_digit_bits)
//   K::zero(), K::load(p)       a zero vector, an aligned load of L limbs
//   K::add(a, b), K::mul(a, b)  64-bit lane sums, 32x32 -> 64-bit products of the low halves
//   K::lowk(a), K::highk(a)     a & (2^kBits - 1), a >> kBits
//   K::kRows4                   four rows per pass (rows4_all) in the products and reductions
//   K::kSqrRows4From            from this many digits the square's products go four rows per pass
//   K::select(out, tab, N, idx) constant-time selection of table entry idx (per lane)
//   K::kPackedTable             window_exp packs its table (K::pack_table) and selects from it
//                               with K::select_packed (same contract as select)
//   K::window(job, pos, len)    each lane's exponent bits [pos, pos+len)
// Numbers are N digits of k = kBits bits, lane-interleaved; products by VPMULUDQ are exact
// 2k-bit values. Word-by-word almost-Montgomery multiplication with lazy carries: each
// accumulator digit receives at most 2 products of < 2^(2k) per multiplier digit over N digits
// (the square: < 3N such terms), only the low digits' carries move during a pass, and the
// result is normalised once at the end: 3N * 2^(2k) < 2^63 bounds N (k = 28: N <= 42, moduli
// up to 1174 bits; k = 27: N <= 170, up to 4588 bits; k = 26: N <= 682, the driver allows
// N <= 631). The widest k a modulus allows is the fastest (fewer digits: at 1024 bits 37 digits
// of 28 bits instead of 40 of 26, (40/37)^2 = 1.17x fewer products). Inputs in [0, 2m) give
// outputs in [0, 2m) because R = 2^(kN) > 4m. The common moduli (1024 bits at k = 28;
// 1536/2048/3072/4096 bits at k = 27: N = 37, 57, 76, 114, 152) get compile-time N.
// Included by each kernel file after its target pragma, so that these functions are compiled
// for that instruction set; internal linkage only (cpu/simd/lanes_impl.h).
#pragma once
#include <cstddef>

#include "core/unroll.h"
#include "simd/lanes_impl.h"

namespace mpb {
namespace simd {
namespace detail {
namespace {

// r = the N lazy digits x as k-bit digits (the carries propagated once, low to high).
template <class K>
inline void normalize(typename K::V *r, const typename K::V *x, size_t N) {
  typename K::V c = K::zero();
  for (size_t k = 0; k < N; ++k) {
    const typename K::V v = K::add(x[k], c);
    c = K::highk(v);
    r[k] = K::lowk(v);
  }
}

// t[0..n) = 0 by vector stores. (GCC turns a loop of zero stores into memset, which it expands
// as `rep stosq` here: 10-13% of a 1024-bit square's time on Zen 3; the value hidden behind an
// empty asm keeps the stores.)
template <class K>
inline void clear(typename K::V *t, size_t n) {
  typename K::V z = K::zero();
#if defined(__GNUC__)
  __asm__("" : "+m"(z));
#endif
  for (size_t k = 0; k < n; ++k) t[k] = z;
}

// acc + a[j]*bk with PROD, else acc (the square's reduction has no product terms)
template <class K, bool PROD>
inline typename K::V pa(typename K::V acc, const typename K::V *a, size_t j, typename K::V bk) {
  if constexpr (PROD) return K::add(acc, K::mul(a[j], bk));
  (void)a, (void)j, (void)bk;
  return acc;
}

// One pass of four rows over the in-memory accumulator ti (positions i.. of t): with PROD the
// product terms a*b_k of the four multiplier digits b[0..3] and the Montgomery terms m*q_k, else
// (the square's reduction) the Montgomery terms alone. q_k is made once position k of the pass
// is complete; positions 0..3 are then zero mod 2^k and their carry moves to position 4. Each
// position receives at most 8 products of < 2^(2k) per pass, 2N over the N/4 passes (the bound of
// the two-row passes). Needs N >= 4.
//
// A pass is its head (head4: positions 0..3, a serial chain through the four quotient digits)
// and its body (every later position, independent products). Position 4 + r receives its last
// term of the pass at body column 4 + r, so the next pass's head can run right after columns
// 4..7: reduce_rows issues it there, and its chain overlaps this pass's remaining columns instead
// of stalling the start of the next pass (Zen 3, AVX2: RSA-2048 1.05-1.09x, ab_libs).
template <class K>
struct Head4 {
  typename K::V q0, q1, q2, q3, c3;  // the pass's quotient digits and position 3's carry
};

template <class K, bool PROD>
inline Head4<K> head4(const typename K::V *ti, const typename K::V *a, const typename K::V *b,
                      const typename K::V *m, typename K::V minv) {
  using V = typename K::V;
  V b0 = K::zero(), b1 = b0, b2 = b0, b3 = b0;
  if constexpr (PROD) b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
  Head4<K> h;
  V x0 = pa<K, PROD>(ti[0], a, 0, b0);
  h.q0 = K::lowk(K::mul(x0, minv));  // the low 32 bits of x0 suffice
  x0 = K::add(x0, K::mul(m[0], h.q0));  // low k bits now zero
  V x1 = K::add(K::add(ti[1], K::highk(x0)), K::mul(m[1], h.q0));
  x1 = pa<K, PROD>(pa<K, PROD>(x1, a, 1, b0), a, 0, b1);
  h.q1 = K::lowk(K::mul(x1, minv));
  x1 = K::add(x1, K::mul(m[0], h.q1));
  V x2 = K::add(K::add(ti[2], K::highk(x1)), K::add(K::mul(m[2], h.q0), K::mul(m[1], h.q1)));
  x2 = pa<K, PROD>(pa<K, PROD>(pa<K, PROD>(x2, a, 2, b0), a, 1, b1), a, 0, b2);
  h.q2 = K::lowk(K::mul(x2, minv));
  x2 = K::add(x2, K::mul(m[0], h.q2));
  V x3 = K::add(K::add(ti[3], K::highk(x2)),
                K::add(K::add(K::mul(m[3], h.q0), K::mul(m[2], h.q1)), K::mul(m[1], h.q2)));
  x3 = pa<K, PROD>(pa<K, PROD>(pa<K, PROD>(pa<K, PROD>(x3, a, 3, b0), a, 2, b1), a, 1, b2), a, 0, b3);
  h.q3 = K::lowk(K::mul(x3, minv));
  x3 = K::add(x3, K::mul(m[0], h.q3));
  h.c3 = K::highk(x3);
  return h;
}

// Body columns [from, to) of a four-row pass (4 <= from, to <= N).
template <class K, bool PROD>
inline void body4(typename K::V *ti, const typename K::V *a, const typename K::V *b, const typename K::V *m,
                  const Head4<K> &h, size_t from, size_t to) {
  using V = typename K::V;
  V b0 = K::zero(), b1 = b0, b2 = b0, b3 = b0;
  if constexpr (PROD) b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
  const V q0 = h.q0, q1 = h.q1, q2 = h.q2, q3 = h.q3;
  MPB_UNROLL(4)
  for (size_t j = from; j < to; ++j) {
    V s = K::add(K::add(K::mul(m[j], q0), K::mul(m[j - 1], q1)), K::add(K::mul(m[j - 2], q2), K::mul(m[j - 3], q3)));
    if constexpr (PROD) s = K::add(s, K::add(K::add(K::mul(a[j], b0), K::mul(a[j - 1], b1)), K::add(K::mul(a[j - 2], b2), K::mul(a[j - 3], b3))));
    ti[j] = K::add(ti[j], s);
  }
}

// The columns past the top digit (N .. N+2) of a four-row pass.
template <class K, bool PROD>
inline void tail4(typename K::V *ti, const typename K::V *a, const typename K::V *b, const typename K::V *m,
                  const Head4<K> &h, size_t N) {
  using V = typename K::V;
  V b1 = K::zero(), b2 = b1, b3 = b1;
  if constexpr (PROD) b1 = b[1], b2 = b[2], b3 = b[3];
  V s = K::add(K::add(K::mul(m[N - 1], h.q1), K::mul(m[N - 2], h.q2)), K::mul(m[N - 3], h.q3));
  if constexpr (PROD) s = K::add(s, K::add(K::add(K::mul(a[N - 1], b1), K::mul(a[N - 2], b2)), K::mul(a[N - 3], b3)));
  ti[N] = K::add(ti[N], s);
  s = K::add(K::mul(m[N - 1], h.q2), K::mul(m[N - 2], h.q3));
  if constexpr (PROD) s = K::add(s, K::add(K::mul(a[N - 1], b2), K::mul(a[N - 2], b3)));
  ti[N + 1] = K::add(ti[N + 1], s);
  s = K::mul(m[N - 1], h.q3);
  if constexpr (PROD) s = K::add(s, K::mul(a[N - 1], b3));
  ti[N + 2] = K::add(ti[N + 2], s);
}

// The four-row passes over t (rows 0 .. 4*floor(N/4) - 1); returns the rows done. From N >= 8
// each pass's body is split after column 7 and the next pass's head issued there (see head4).
template <class K, bool PROD>
inline size_t rows4_all(typename K::V *t, const typename K::V *a, const typename K::V *b, const typename K::V *m,
                        typename K::V minv, size_t N) {
  using V = typename K::V;
  size_t i = 0;
  if (N < 4) return 0;
  if (N < 8) {  // one pass, nothing to overlap
    const Head4<K> h = head4<K, PROD>(t, a, b, m, minv);
    body4<K, PROD>(t, a, b, m, h, 4, N);
    tail4<K, PROD>(t, a, b, m, h, N);
    t[4] = K::add(t[4], h.c3);
    return 4;
  }
  Head4<K> h = head4<K, PROD>(t, a, b, m, minv);
  for (;; i += 4) {
    V *ti = t + i;
    const V *bi = PROD ? b + i : nullptr;
    body4<K, PROD>(ti, a, bi, m, h, 4, 8);
    ti[4] = K::add(ti[4], h.c3);  // positions 4..7 (the next pass's 0..3) now complete for this pass
    const bool next = i + 7 < N;
    Head4<K> hn = h;
    if (next) hn = head4<K, PROD>(ti + 4, a, PROD ? bi + 4 : nullptr, m, minv);
    body4<K, PROD>(ti, a, bi, m, h, 8, N);
    tail4<K, PROD>(ti, a, bi, m, h, N);
    if (!next) return i + 4;
    h = hn;
  }
}

// Two rows per pass (PROD: product and Montgomery terms; else the Montgomery terms alone), the
// second row's quotient digit computed once the first row's terms at its position are in.
template <class K, bool PROD>
inline void rows2(typename K::V *ti, const typename K::V *a, const typename K::V *b, const typename K::V *m,
                  typename K::V minv, size_t N) {
  using V = typename K::V;
  V b0 = K::zero(), b1 = b0;
  if constexpr (PROD) b0 = b[0], b1 = b[1];
  V x0 = pa<K, PROD>(ti[0], a, 0, b0);
  const V q0 = K::lowk(K::mul(x0, minv));
  x0 = K::add(x0, K::mul(m[0], q0));
  V x1 = K::add(K::add(ti[1], K::highk(x0)), K::mul(m[1], q0));
  x1 = pa<K, PROD>(pa<K, PROD>(x1, a, 1, b0), a, 0, b1);
  const V q1 = K::lowk(K::mul(x1, minv));
  x1 = K::add(x1, K::mul(m[0], q1));
  const V c1 = K::highk(x1);
  for (size_t j = 2; j < N; ++j) {
    V s = K::add(K::mul(m[j], q0), K::mul(m[j - 1], q1));
    if constexpr (PROD) s = K::add(s, K::add(K::mul(a[j], b0), K::mul(a[j - 1], b1)));
    ti[j] = K::add(ti[j], s);
  }
  V s = K::mul(m[N - 1], q1);
  if constexpr (PROD) s = K::add(s, K::mul(a[N - 1], b1));
  ti[N] = K::add(ti[N], s);
  ti[2] = K::add(ti[2], c1);
}

// One row (odd N's last).
template <class K, bool PROD>
inline void row1(typename K::V *ti, const typename K::V *a, const typename K::V *b, const typename K::V *m,
                 typename K::V minv, size_t N) {
  using V = typename K::V;
  const V bi = PROD ? b[0] : K::zero();
  V x = pa<K, PROD>(ti[0], a, 0, bi);
  const V q = K::lowk(K::mul(x, minv));
  x = K::add(x, K::mul(m[0], q));
  const V carry = K::highk(x);
  for (size_t j = 1; j < N; ++j) ti[j] = K::add(ti[j], pa<K, PROD>(K::mul(m[j], q), a, j, bi));
  ti[1] = K::add(ti[1], carry);
}

// The passes of rows over t: four rows at a time where K has the registers, then two, then one.
template <class K, bool PROD>
inline void reduce_rows(typename K::V *t, const typename K::V *a, const typename K::V *b, const typename K::V *m,
                        typename K::V minv, size_t N) {
  size_t i = 0;
  if constexpr (K::kRows4) i = rows4_all<K, PROD>(t, a, b, m, minv, N);
  for (; i + 1 < N; i += 2) rows2<K, PROD>(t + i, a, PROD ? b + i : nullptr, m, minv, N);
  if (i < N) row1<K, PROD>(t + i, a, PROD ? b + i : nullptr, m, minv, N);
}

// r = a*b/R mod m (almost: result in [0, 2m) for a, b in [0, 2m)). r may alias a or b.
// t: 2N vectors of scratch.
template <class K, size_t NC>
void amm(typename K::V *r, const typename K::V *a, const typename K::V *b, const typename K::V *m,
         typename K::V minv, typename K::V *t, size_t Nrt) {
  const size_t N = NC ? NC : Nrt;
  clear<K>(t, 2 * N);
  reduce_rows<K, true>(t, a, b, m, minv, N);
  normalize<K>(r, t + N, N);
}

// r = a^2/R mod m (almost), as amm(r, a, a, ...): the off-diagonal products once (four rows per
// pass from K::kSqrRows4From digits on, else two), doubled, the diagonal added, then the reduction.
// Digits stay < 3N * 2^(2k) (see the top of this file).
template <class K, size_t NC>
void ams(typename K::V *r, const typename K::V *a, const typename K::V *m, typename K::V minv, typename K::V *t,
         size_t Nrt) {
  using V = typename K::V;
  const size_t N = NC ? NC : Nrt;
  clear<K>(t, 2 * N);
  size_t i = 0;
  if (N >= K::kSqrRows4From)
    for (; i + 7 <= N; i += 4) {  // four rows: row r (a[i+r]) meets a[c] for c > i+r, at t[i+c+r]
      const V a0 = a[i], a1 = a[i + 1], a2 = a[i + 2], a3 = a[i + 3];
      V *ti = t + i;
      ti[i + 1] = K::add(ti[i + 1], K::mul(a0, a1));
      ti[i + 2] = K::add(ti[i + 2], K::mul(a0, a2));
      ti[i + 3] = K::add(ti[i + 3], K::add(K::mul(a0, a3), K::mul(a1, a2)));
      ti[i + 4] = K::add(ti[i + 4], K::add(K::mul(a0, a[i + 4]), K::mul(a1, a3)));
      ti[i + 5] = K::add(ti[i + 5], K::add(K::add(K::mul(a0, a[i + 5]), K::mul(a1, a[i + 4])), K::mul(a2, a3)));
      ti[i + 6] = K::add(ti[i + 6], K::add(K::add(K::mul(a0, a[i + 6]), K::mul(a1, a[i + 5])), K::mul(a2, a[i + 4])));
      for (size_t j = i + 7; j < N; ++j)
        ti[j] = K::add(ti[j], K::add(K::add(K::mul(a0, a[j]), K::mul(a1, a[j - 1])),
                                     K::add(K::mul(a2, a[j - 2]), K::mul(a3, a[j - 3]))));
      ti[N] = K::add(ti[N], K::add(K::add(K::mul(a1, a[N - 1]), K::mul(a2, a[N - 2])), K::mul(a3, a[N - 3])));
      ti[N + 1] = K::add(ti[N + 1], K::add(K::mul(a2, a[N - 1]), K::mul(a3, a[N - 2])));
      ti[N + 2] = K::add(ti[N + 2], K::mul(a3, a[N - 1]));
    }
  for (; i + 4 <= N; i += 2) {
    const V a0 = a[i], a1 = a[i + 1];
    V *ti = t + i;
    ti[i + 1] = K::add(ti[i + 1], K::mul(a0, a1));
    ti[i + 2] = K::add(ti[i + 2], K::mul(a0, a[i + 2]));
    for (size_t j = i + 3; j < N; ++j) ti[j] = K::add(ti[j], K::add(K::mul(a0, a[j]), K::mul(a1, a[j - 1])));
    ti[N] = K::add(ti[N], K::mul(a1, a[N - 1]));
  }
  for (; i + 1 < N; ++i) {
    const V ai = a[i];
    V *ti = t + i;
    for (size_t j = i + 1; j < N; ++j) ti[j] = K::add(ti[j], K::mul(ai, a[j]));
  }
  for (size_t k = 0; k < N; ++k) {
    t[2 * k] = K::add(K::add(t[2 * k], t[2 * k]), K::mul(a[k], a[k]));
    t[2 * k + 1] = K::add(t[2 * k + 1], t[2 * k + 1]);
  }
  reduce_rows<K, false>(t, nullptr, nullptr, m, minv, N);
  normalize<K>(r, t + N, N);
}

// The job's arrays as vectors of K (lane-interleaved digits), and the lanes' -m^-1 mod 2^k.
template <class K>
struct Vecs {
  using V = typename K::V;
  V *M, *R2, *RB, *B, *ONE, *TAB, *ACC, *SEL, *T;
  V minv;
  explicit Vecs(const Job &job)
      : M(at(job.M)), R2(at(job.R2)), RB(at(job.RB)), B(at(job.B)), ONE(at(job.ONE)), TAB(at(job.TAB)), ACC(at(job.ACC)),
        SEL(at(job.SEL)), T(at(job.T)), minv(K::load(job.MINV)) {}
  static V *at(uint64_t *p) { return reinterpret_cast<V *>(p); }
};

// 2^exp (every base 2: a DH public key g^x with g = 2), per exponent bit from the top one
// squaring and a doubling of the lanes whose bit is set, then out of the Montgomery form: no
// table and no products by it. The doubling keeps [0, 2m): from x (normalized, < 2m) one pass
// makes D = 2x (normalized, < 4m < R) and S = D + (2^(KN) - 2m) mod 2^(KN), whose carry out of
// the top digit says D >= 2m; a masked selection over the three candidates [x, D, S] (index bit *
// (1 + carry)) reads all three in every lane. TAB holds them at entries 0..2 and 2^(KN) - 2m
// (the driver's, per lane) at entry 3. Branches and addresses depend on N and ebits only.
template <class K, size_t NC>
void pow2_exp(const Job &job) {
  using V = typename K::V;
  const size_t N = job.N;
  const Vecs<K> v(job);
  V *X = v.TAB, *D = v.TAB + N, *S = v.TAB + 2 * N;
  const V *C = v.TAB + 3 * N;
  amm<K, NC>(v.ACC, v.R2, v.ONE, v.M, v.minv, v.T, N);  // R mod m: the Montgomery one
  for (size_t pos = job.ebits; pos-- > 0;) {
    ams<K, NC>(X, v.ACC, v.M, v.minv, v.T, N);
    V cd = K::zero(), cs = K::zero();
    for (size_t d = 0; d < N; ++d) {
      const V u = K::add(K::add(X[d], X[d]), cd);
      cd = K::highk(u);
      D[d] = K::lowk(u);
      const V w = K::add(K::add(D[d], C[d]), cs);
      cs = K::highk(w);
      S[d] = K::lowk(w);
    }
    const V bit = K::window(job, pos, 1);
    K::select(v.ACC, v.TAB, N, K::add(bit, K::mul(bit, cs)), 3);
  }
  amm<K, NC>(v.ACC, v.ACC, v.ONE, v.M, v.minv, v.T, N);
}

// Table of the base's powers 0..31 (Montgomery form), then 5-bit windows from the top (the
// first one shorter), five squarings and one product per window, and out of the Montgomery
// form: ACC = base^exp in [0, 2m).
template <class K, size_t NC>
void window_exp(const Job &job) {
  using V = typename K::V;
  const size_t N = job.N;
  const Vecs<K> v(job);
  V *const M = v.M, *const R2 = v.R2, *const B = v.B, *const ONE = v.ONE, *const TAB = v.TAB, *const ACC = v.ACC,
           *const SEL = v.SEL, *const T = v.T;
  const V minv = v.minv;

  if (job.base_two) return pow2_exp<K, NC>(job);
  const unsigned w = run_window(job), entries = 1u << w;  // (public: the exponent's width, or a public exponent)
  amm<K, NC>(TAB, R2, ONE, M, minv, T, N);
  amm<K, NC>(TAB + N, B, v.RB, M, minv, T, N);  // (RB: R2, or a caller's factor)
  for (unsigned k = 2; k < entries; ++k) amm<K, NC>(TAB + k * N, TAB + (k - 1) * N, TAB + N, M, minv, T, N);
  if constexpr (K::kPackedTable) K::pack_table(TAB, N, entries);
  auto pick = [&](V *out, V idx) {  // constant-time: table entry idx (per lane) into out
    if constexpr (K::kPackedTable) K::select_packed(out, TAB, N, idx, entries);
    else K::select(out, TAB, N, idx, entries);
  };

  const size_t bits = job.ebits;
  if (bits == 0) {
    pick(ACC, K::zero());  // entry 0: R mod m
  } else {
    const size_t nw = (bits + w - 1) / w;
    const unsigned top = (unsigned)(bits - w * (nw - 1));
    size_t pos = bits - top;
    pick(ACC, K::window(job, pos, top));
    while (pos > 0) {
      pos -= w;
      for (unsigned s = 0; s < w; ++s) ams<K, NC>(ACC, ACC, M, minv, T, N);
      if (job.vt && window_zero_all(job, pos, w)) continue;  // (variable time: a product by one)
      pick(SEL, K::window(job, pos, w));
      amm<K, NC>(ACC, ACC, SEL, M, minv, T, N);
    }
  }
  amm<K, NC>(ACC, ACC, ONE, M, minv, T, N);
}

// window_exp with compile-time digit counts for the common moduli at each digit size (the
// driver chose job.K = narrow_digit_bits(the moduli's bit length)); A<k> is the instruction
// set with k-bit digits.
template <template <unsigned> class A>
void window_exp_any(const Job &job) {
  switch (job.K) {
    case 28:
      if (job.N == 37) window_exp<A<28>, 37>(job);  // 1024 bits
      else window_exp<A<28>, 0>(job);
      break;
    case 27:
      switch (job.N) {
        case 57: window_exp<A<27>, 57>(job); break;    // 1536 bits
        case 76: window_exp<A<27>, 76>(job); break;    // 2048
        case 114: window_exp<A<27>, 114>(job); break;  // 3072
        case 152: window_exp<A<27>, 152>(job); break;  // 4096
        default: window_exp<A<27>, 0>(job); break;
      }
      break;
    default: window_exp<A<26>, 0>(job); break;  // beyond 4588 bits
  }
}

}  // namespace
} // namespace detail
} // namespace simd
} // namespace mpb
