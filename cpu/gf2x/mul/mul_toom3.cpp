// cpu/gf2x/mul/mul_toom3.cpp: Toom-3 over GF(2)[x] (Bodrato, WAIFI 2007), points 0, 1, x, 1+x, inf,
// plus the exact divisions shared with Toom-4.
//
// With an >= bn, k = ceil(an/3), a = a0 + a1 X + a2 X^2 (X = x^(64k)), same for b, and
// r = a*b = r0 + r1 X + ... + r4 X^4:
//   W0 = a0 b0 = r0,  Winf = a2 b2 = r4,  W1 = A(1) B(1),  Wx = A(x) B(x),  Wx1 = A(1+x) B(1+x).
// Since (1+x)^2 = 1+x^2 and (1+x)^4 = 1+x^4 in characteristic 2:
//   Wx + Wx1 + W1 + W0 = r3 (x^2 + x)                       -> r3
//   W1 + W0 + Winf + r3 = r1 + r2
//   (Wx + W0 + r3 x^3 + Winf x^4) / x = r1 + r2 x            -> r2 = (that + r1 + r2)/(1+x)
// Evaluations: A(x) = a0 + U, A(1+x) = A(1) + U with U = a1 x + a2 x^2 (k+1 limbs).
#include "gf2x/mul/mul_internal.h"

namespace mpb {
namespace gf2x {

namespace {
// p >>= s bits (0 < s < 64) over n limbs
inline void shr_bits(limb *p, size_t n, unsigned s) {
  for (size_t i = 0; i + 1 < n; ++i) p[i] = (p[i] >> s) | (p[i + 1] << (64 - s));
  if (n) p[n - 1] >>= s;
}
// p = x^S (1 + x^D) q exactly: p <- q. First drop the S zero low bits, then q_j = p_j + q_(j-D).
// Per limb: t = strided prefix XOR of p_i (independent of the other limbs), and the D top
// bits v of the previous quotient limb enter as spread(v) = v * (1 + x^D + x^2D + ...)
// (an integer multiply: the shifted copies of v do not overlap). The carried v follows a
// short recurrence, v' = top_D(t) + top_D(spread(v)), so the limbs do not wait on each other.
template <unsigned D>
inline limb spread_mask() {
  return D == 1 ? ~(limb)0 : D == 2 ? 0x5555555555555555ULL : 0x9249249249249249ULL;
}
template <unsigned D>
inline limb top_of_spread(limb v) {  // the D top bits of spread(v), as a D-bit number
  if (D == 3) return (v >> 1) | ((v & 1) << 2);  // positions 61, 62, 63 hold v1, v2, v0
  return v;                                       // D = 1, 2: 64 is a multiple of D
}
template <unsigned S, unsigned D>
inline void divexact_impl(limb *p, size_t n) {
  if (S) shr_bits(p, n, S);
  const limb M = spread_mask<D>();
  limb v = 0;
  for (size_t i = 0; i < n; ++i) {
    limb t = p[i];
    for (unsigned sh = D; sh < 64; sh <<= 1) t ^= t << sh;
    p[i] = t ^ (v * M);
    v = (t >> (64 - D)) ^ top_of_spread<D>(v);
  }
}
inline size_t piece(size_t n, size_t i, size_t k) {  // size of piece i (of k limbs) of n limbs
  if (n <= i * k) return 0;
  size_t r = n - i * k;
  return r < k ? r : k;
}
} // namespace

void divexact_1px(limb *p, size_t n) { divexact_impl<0, 1>(p, n); }
void divexact_xpx4(limb *p, size_t n) { divexact_impl<1, 3>(p, n); }
void divexact_x2px4(limb *p, size_t n) { divexact_impl<2, 2>(p, n); }

size_t mul_toom3_itch(size_t an, size_t bn) { return mul_itch(an > bn ? an : bn, an > bn ? an : bn); }

void mul_toom3(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch) {
  if (an < bn) {
    const limb *t = a; a = b; b = t;
    size_t s = an; an = bn; bn = s;
  }
  if (an < 3) {
    mul(c, a, an, b, bn, scratch);
    return;
  }
  using namespace detail;
  const size_t k = (an + 2) / 3, K1 = k + 1, L = 2 * k + 2, cn = an + bn;
  const limb *ap[3] = {a, a + k, a + 2 * k}, *bp[3] = {b, b + k, b + 2 * k};
  size_t as[3], bs[3];
  for (int i = 0; i < 3; ++i) {
    as[i] = piece(an, i, k);
    bs[i] = piece(bn, i, k);
  }
  limb *A1 = scratch, *Ax = A1 + K1, *Ax1 = Ax + K1;
  limb *B1 = Ax1 + K1, *Bx = B1 + K1, *Bx1 = Bx + K1;
  limb *W0 = Bx1 + K1, *W1 = W0 + L, *Wx = W1 + L, *Wx1 = Wx + L, *Wi = Wx1 + L;
  limb *next = Wi + L;

  // evaluations
  auto eval = [&](const limb *const *p, const size_t *s, limb *E1, limb *Ex, limb *Ex1) {
    zero(E1, K1);
    zero(Ex, K1);
    for (int i = 0; i < 3; ++i) xor_into(E1, p[i], s[i]);
    xor_shl(Ex, K1, p[1], s[1], 1);  // U = x p1 + x^2 p2
    xor_shl(Ex, K1, p[2], s[2], 2);
    xor3(Ex1, E1, Ex, K1);           // A(1+x) = A(1) + U
    xor_into(Ex, p[0], s[0]);        // A(x) = p0 + U
  };
  eval(ap, as, A1, Ax, Ax1);
  eval(bp, bs, B1, Bx, Bx1);

  // products (each into an L-limb buffer, zero padded)
  zero(W0, 5 * L);
  mul(W0, ap[0], as[0], bp[0], bs[0], next);
  if (bs[2]) mul(Wi, ap[2], as[2], bp[2], bs[2], next);
  mul(W1, A1, k, B1, k, next);
  mul(Wx, Ax, K1, Bx, K1, next);
  mul(Wx1, Ax1, K1, Bx1, K1, next);

  // interpolation
  limb *r3 = Wx1;
  xor_into(r3, Wx, L);
  xor_into(r3, W1, L);
  xor_into(r3, W0, L);
  shr_bits(r3, L, 1);
  divexact_1px(r3, L);        // r3
  limb *s12 = W1;             // r1 + r2
  xor_into(s12, W0, L);
  xor_into(s12, Wi, L);
  xor_into(s12, r3, L);
  limb *t = Wx;               // (Wx + W0 + r3 x^3 + Winf x^4)/x = r1 + r2 x
  xor_into(t, W0, L);
  xor_shl(t, L, r3, L, 3);
  xor_shl(t, L, Wi, L, 4);
  shr_bits(t, L, 1);
  xor_into(t, s12, L);        // r2 (1 + x)
  divexact_1px(t, L);         // r2
  xor_into(s12, t, L);        // r1

  // recomposition
  zero(c, cn);
  const limb *r[5] = {W0, s12, t, r3, Wi};
  for (int i = 0; i < 5; ++i) {
    size_t off = (size_t)i * k;
    if (off >= cn) break;
    size_t m = cn - off < L ? cn - off : L;
    xor_into(c + off, r[i], m);
  }
}

} // namespace gf2x
} // namespace mpb
