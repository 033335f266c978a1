// cpu/gf2x/mul/mul_toom4.cpp: Toom-4 over GF(2)[x] (Bodrato, WAIFI 2007), 7 products at the
// points 0, 1, x, 1+x, 1/x, 1/(1+x), inf (homogeneous evaluation, so 1/x gives
// x^3 A(1/x) = a3 + a2 x + a1 x^2 + a0 x^3).
//
// With an >= bn, k = ceil(an/4), a = a0 + a1 X + a2 X^2 + a3 X^3 (X = x^(64k)), likewise b.
// Evaluation (per operand, written for a):
//   E1 = a0+a1+a2+a3,  T = a1 + x a2 + x^2 a3,  E4 = E1 + x (T + (1+x) a3),  T' = x T + a0,
//   S = x a2 + x^2 a1 + x^3 a0,  E1' = E1 + S + (x^2+x) a0,  S' = S + a3.
// Products: P0 = a0 b0, P1 = E1'a E1'b, P2 = S'a S'b, P3 = E1a E1b, P4 = T'a T'b,
//           P5 = E4a E4b, P6 = a3 b3.
// Interpolation (d1 = x^4 + x, d2 = x^4 + x^2; every division is exact):
//   P1 += P2 + P0 (x^4+x^2+1);          P5 = (P5 + P4 + P1 + P6 (x^4+x^2+1)) / d1
//   P2 += P6 + P0 x^6;                  P4 += P2 + P0 + P6 x^6
//   P4 = (P4 + P5 (x^5+x)) / d2;        P3 += P0 + P6;   P1 += P3
//   P2 += x P1 + x^2 P3;                P3 += P4 + P5
//   P1 = (P1 + P3 (x^2+x)) / d1;        P5 += P1
//   P2 = (P2 + P5 (x^2+x)) / d2;        P4 += P2
// and then a*b = sum_i P_i X^i.
#include "gf2x/mul/mul_internal.h"

namespace mpb {
namespace gf2x {

namespace {
inline size_t piece(size_t n, size_t i, size_t k) {
  if (n <= i * k) return 0;
  size_t r = n - i * k;
  return r < k ? r : k;
}
// p <<= s bits (0 < s < 64) over n limbs, dropping what leaves the top
inline void shl_bits(limb *p, size_t n, unsigned s) {
  for (size_t i = n; i-- > 1;) p[i] = (p[i] << s) | (p[i - 1] >> (64 - s));
  if (n) p[0] <<= s;
}
} // namespace

size_t mul_toom4_itch(size_t an, size_t bn) { return mul_itch(an > bn ? an : bn, an > bn ? an : bn); }

void mul_toom4(limb *c, const limb *a, size_t an, const limb *b, size_t bn, limb *scratch) {
  if (an < bn) {
    const limb *t = a; a = b; b = t;
    size_t s = an; an = bn; bn = s;
  }
  if (an < 4) {
    mul(c, a, an, b, bn, scratch);
    return;
  }
  using namespace detail;
  const size_t k = (an + 3) / 4, K1 = k + 1, L = 2 * k + 2, cn = an + bn;
  const limb *ap[4], *bp[4];
  size_t as[4], bs[4];
  for (int i = 0; i < 4; ++i) {
    ap[i] = a + i * k;
    bp[i] = b + i * k;
    as[i] = piece(an, i, k);
    bs[i] = piece(bn, i, k);
  }
  // per operand: E1, T, E4 (K1 limbs each); products P0..P6 (L limbs each)
  limb *Ea1 = scratch, *Ta = Ea1 + K1, *Ea4 = Ta + K1;
  limb *Eb1 = Ea4 + K1, *Tb = Eb1 + K1, *Eb4 = Tb + K1;
  limb *P[7];
  P[0] = Eb4 + K1;
  for (int i = 1; i < 7; ++i) P[i] = P[i - 1] + L;
  limb *next = P[6] + L;

  auto eval1 = [&](const limb *const *p, const size_t *s, limb *E1, limb *T, limb *E4) {
    zero(E1, K1);
    for (int i = 0; i < 4; ++i) xor_into(E1, p[i], s[i]);
    zero(T, K1);                      // T = p1 + x p2 + x^2 p3
    xor_into(T, p[1], s[1]);
    xor_shl(T, K1, p[2], s[2], 1);
    xor_shl(T, K1, p[3], s[3], 2);
    copy(E4, E1, K1);                 // E4 = E1 + x T + (x^2 + x) p3
    xor_shl(E4, K1, T, K1, 1);
    xor_shl(E4, K1, p[3], s[3], 1);
    xor_shl(E4, K1, p[3], s[3], 2);
    shl_bits(T, K1, 1);               // T' = x T + p0
    xor_into(T, p[0], s[0]);
  };
  auto eval2 = [&](const limb *const *p, const size_t *s, limb *E1, limb *S) {
    zero(S, K1);                      // S = x p2 + x^2 p1 + x^3 p0
    xor_shl(S, K1, p[2], s[2], 1);
    xor_shl(S, K1, p[1], s[1], 2);
    xor_shl(S, K1, p[0], s[0], 3);
    xor_into(E1, S, K1);              // E1' = E1 + S + (x^2 + x) p0
    xor_shl(E1, K1, p[0], s[0], 1);
    xor_shl(E1, K1, p[0], s[0], 2);
    xor_into(S, p[3], s[3]);          // S' = S + p3
  };

  zero(P[0], 7 * L);
  eval1(ap, as, Ea1, Ta, Ea4);
  eval1(bp, bs, Eb1, Tb, Eb4);
  mul(P[5], Ea4, K1, Eb4, K1, next);
  mul(P[4], Ta, K1, Tb, K1, next);
  mul(P[3], Ea1, k, Eb1, k, next);
  eval2(ap, as, Ea1, Ta);
  eval2(bp, bs, Eb1, Tb);
  mul(P[1], Ea1, K1, Eb1, K1, next);
  mul(P[2], Ta, K1, Tb, K1, next);
  mul(P[0], ap[0], as[0], bp[0], bs[0], next);
  if (bs[3]) mul(P[6], ap[3], as[3], bp[3], bs[3], next);

  // interpolation
  limb *P0 = P[0], *P1 = P[1], *P2 = P[2], *P3 = P[3], *P4 = P[4], *P5 = P[5], *P6 = P[6];
  xor_into(P1, P2, L);                // P1 += P2 + P0 (x^4+x^2+1)
  xor_into(P1, P0, L);
  xor_shl(P1, L, P0, L, 2);
  xor_shl(P1, L, P0, L, 4);
  xor_into(P5, P4, L);                // P5 = (P5 + P4 + P1 + P6 (x^4+x^2+1)) / d1
  xor_into(P5, P1, L);
  xor_into(P5, P6, L);
  xor_shl(P5, L, P6, L, 2);
  xor_shl(P5, L, P6, L, 4);
  divexact_xpx4(P5, L);
  xor_into(P2, P6, L);                // P2 += P6 + P0 x^6
  xor_shl(P2, L, P0, L, 6);
  xor_into(P4, P2, L);                // P4 += P2 + P0 + P6 x^6
  xor_into(P4, P0, L);
  xor_shl(P4, L, P6, L, 6);
  xor_shl(P4, L, P5, L, 5);           // P4 = (P4 + P5 (x^5+x)) / d2
  xor_shl(P4, L, P5, L, 1);
  divexact_x2px4(P4, L);
  xor_into(P3, P0, L);                // P3 += P0 + P6
  xor_into(P3, P6, L);
  xor_into(P1, P3, L);                // P1 += P3
  xor_shl(P2, L, P1, L, 1);           // P2 += x P1 + x^2 P3
  xor_shl(P2, L, P3, L, 2);
  xor_into(P3, P4, L);                // P3 += P4 + P5
  xor_into(P3, P5, L);
  xor_shl(P1, L, P3, L, 1);           // P1 = (P1 + P3 (x^2+x)) / d1
  xor_shl(P1, L, P3, L, 2);
  divexact_xpx4(P1, L);
  xor_into(P5, P1, L);                // P5 += P1
  xor_shl(P2, L, P5, L, 1);           // P2 = (P2 + P5 (x^2+x)) / d2
  xor_shl(P2, L, P5, L, 2);
  divexact_x2px4(P2, L);
  xor_into(P4, P2, L);                // P4 += P2

  // recomposition
  zero(c, cn);
  for (int i = 0; i < 7; ++i) {
    size_t off = (size_t)i * k;
    if (off >= cn) break;
    size_t m = cn - off < L ? cn - off : L;
    xor_into(c + off, P[i], m);
  }
}

} // namespace gf2x
} // namespace mpb
