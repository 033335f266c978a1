// cpu/mpn/gcd/sec_invmod_bingcd.cpp: constant-time inverse modulo an odd m by the optimized binary gcd
// (T. Pornin, ePrint 2020/972, the constant-time form; the variable-time form and the notation
// are in cpu/mpn/gcd/bingcd_step.h and cpu/mpn/gcd/invmod_odd_bingcd.cpp). Everything below runs a fixed sequence
// of operations for given public sizes (an, mn, bitlen(m)):
//  - a fixed number of outer iterations, ceil((64*an + bitlen(m) - 1) / 31) + 1: the exact binary
//    gcd needs at most bitlen(a) + bitlen(b) - 1 steps and the approximated one was never seen to
//    need more passes than ceil((that - 1)/31) (4 x 10^5 random and adversarial pairs counted
//    with the variable-time loop, a > m included; tests/batch/test_batch_divgcd.cpp keeps checking
//    it); a pass once a = 0 changes nothing, so one spare pass is added;
//  - the top bits of a and b are extracted at the (secret) position of the larger one's top bit
//    by scanning every limb under masks (no secret-dependent address);
//  - 31 inner steps with masked swap / subtract (no skipping of zero runs);
//  - the matrix is applied to a and b over all L + 1 limbs, negative results negated under masks;
//  - the cofactor update (f u + g v + q m) / 2^31 lies in (-m, 2m) (|f| + |g| <= 2^31, q < 2^31)
//    and is brought into [0, m) by one masked addition and one masked subtraction of m;
//  - the final b == 1 test is an OR-reduction.
// The masked binary inversion of tests/ref/sec_invmod_binary.cpp is the simpler reference it is tested against.
#include "core/limb.h"

#include "mpn/gcd/bingcd_step.h"

namespace mpb {
namespace mpn {

namespace {

using bingcd::K;
using bingcd::LOWMASK;
using bingcd::Mat;

inline limb nz_mask(limb x) { return (limb)0 - ((x | ((limb)0 - x)) >> 63); }  // x != 0 ? ~0 : 0
inline limb eq_mask(limb x, limb y) { return ~nz_mask(x ^ y); }
inline limb lt_bit(limb a, limb b) { return (a ^ ((a ^ b) | ((a - b) ^ b))) >> 63; }  // a < b

// 64-bit approximations of A and B (N = L + 1 limbs each), constant time.
void approx_ct(const limb *A, const limb *B, size_t N, limb &abar, limb &bbar) {
  limb top = 0, idx = 0;
  for (size_t i = 0; i < N; i++) {
    limb c = A[i] | B[i], m = nz_mask(c);
    top = (c & m) | (top & ~m);
    idx = ((limb)i & m) | (idx & ~m);
  }
  // n = bitlen(max(A, B)) >= 1 (B is odd); pos = max(n, 64) - 64
  limb n = 64 * idx + 64 - (limb)sec_clz(top | 1);
  limb big = (limb)0 - lt_bit(64, n);  // n > 64
  limb pos = (n - 64) & big;
  limb w = pos / 64, s = pos % 64;
  limb alo = 0, ahi = 0, blo = 0, bhi = 0;
  for (size_t i = 0; i < N; i++) {
    limb m0 = eq_mask((limb)i, w), m1 = eq_mask((limb)i, w + 1);
    alo |= A[i] & m0;
    ahi |= A[i] & m1;
    blo |= B[i] & m0;
    bhi |= B[i] & m1;
  }
  limb at = (alo >> s) | ((ahi << (63 - s)) << 1);
  limb bt = (blo >> s) | ((bhi << (63 - s)) << 1);
  abar = (at & ~LOWMASK) | (A[0] & LOWMASK);
  bbar = (bt & ~LOWMASK) | (B[0] & LOWMASK);
}

Mat inner_ct(limb a, limb b) {
  uint64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
  for (unsigned j = 0; j < K; j++) {
    limb odd = a & 1;
    limb msw = (limb)0 - (odd & lt_bit(a, b));
    limb t = (a ^ b) & msw;
    a ^= t;
    b ^= t;
    t = (f0 ^ f1) & msw;
    f0 ^= t;
    f1 ^= t;
    t = (g0 ^ g1) & msw;
    g0 ^= t;
    g1 ^= t;
    limb mo = (limb)0 - odd;
    a -= b & mo;
    f0 -= f1 & mo;
    g0 -= g1 & mo;
    a >>= 1;
    f1 <<= 1;
    g1 <<= 1;
  }
  return {(int64_t)f0, (int64_t)g0, (int64_t)f1, (int64_t)g1};
}

// x (n limbs) = -x when ms = ~0, unchanged when ms = 0.
void cnd_neg(limb *x, size_t n, limb ms) {
  limb c = ms & 1;
  for (size_t i = 0; i < n; i++) {
    dlimb t = (dlimb)(x[i] ^ ms) + c;
    x[i] = (limb)t;
    c = (limb)(t >> 64);
  }
}

// A, B (N limbs, values < 2^(64N - 1)) = ((f0 A + g0 B) >> K, (f1 A + g1 B) >> K), negated
// (with the matrix row) when negative.
void apply_ab_ct(limb *A, limb *B, size_t N, Mat &m) {
  __int128 ca = 0, cb = 0;
  limb pa = 0, pb = 0;
  for (size_t i = 0; i < N; i++) {
    limb x = A[i], y = B[i];
    __int128 ta = ca + bingcd::smul(m.f0, x) + bingcd::smul(m.g0, y);
    __int128 tb = cb + bingcd::smul(m.f1, x) + bingcd::smul(m.g1, y);
    limb la = (limb)ta, lb = (limb)tb;
    ca = ta >> 64;
    cb = tb >> 64;
    if (i) {  // public index
      A[i - 1] = (pa >> K) | (la << (64 - K));
      B[i - 1] = (pb >> K) | (lb << (64 - K));
    }
    pa = la;
    pb = lb;
  }
  A[N - 1] = (pa >> K) | ((limb)ca << (64 - K));
  B[N - 1] = (pb >> K) | ((limb)cb << (64 - K));
  limb sa = (limb)0 - (A[N - 1] >> 63), sb = (limb)0 - (B[N - 1] >> 63);
  cnd_neg(A, N, sa);
  cnd_neg(B, N, sb);
  m.f0 = (int64_t)(((uint64_t)m.f0 ^ sa) - sa);
  m.g0 = (int64_t)(((uint64_t)m.g0 ^ sa) - sa);
  m.f1 = (int64_t)(((uint64_t)m.f1 ^ sb) - sb);
  m.g1 = (int64_t)(((uint64_t)m.g1 ^ sb) - sb);
}

// out (mn + 1 limbs) = (f u + g v) / 2^K mod m in [0, m), constant time. tmp: mn + 1 limbs.
void lin_mod_ct(limb *out, const limb *u, const limb *v, int64_t f, int64_t g, const limb *m, size_t mn,
                limb minv, limb *tmp) {
  __int128 c = 0;
  limb q = 0, p = 0;
  for (size_t i = 0; i < mn; i++) {
    __int128 t = c + bingcd::smul(f, u[i]) + bingcd::smul(g, v[i]);
    if (i == 0) q = ((limb)t * minv) & LOWMASK;  // public index
    t += (__int128)((unsigned __int128)q * m[i]);
    limb l = (limb)t;
    c = t >> 64;
    if (i) out[i - 1] = (p >> K) | (l << (64 - K));
    p = l;
  }
  out[mn - 1] = (p >> K) | ((limb)c << (64 - K));
  out[mn] = (limb)(c >> K);
  // (-m, 2m) -> [0, 2m): + m when negative
  limb neg = (limb)0 - (out[mn] >> 63);
  out[mn] += cnd_add_n(neg, out, out, m, mn);
  // [0, 2m) -> [0, m): - m unless that borrows
  limb bw = sub_n(tmp, out, m, mn);
  bw = (limb)((dlimb)out[mn] - bw) >> 63 & 1;  // 1 when out < m
  tmp[mn] = 0;
  limb keep = (limb)0 - bw;
  for (size_t i = 0; i < mn; i++) out[i] = (out[i] & keep) | (tmp[i] & ~keep);
  out[mn] = 0;
}

} // namespace

size_t sec_invmod_bingcd_itch(size_t an, size_t mn) {
  size_t N = (an > mn ? an : mn) + 1;
  return 2 * N + 2 * mn + 3 * (mn + 1);
}

limb sec_invmod_bingcd(limb *rp, const limb *ap, size_t an, const limb *mp, size_t mn, limb *scratch) {
  MPB_ASSERT(mn >= 1 && mp[mn - 1] != 0 && (mp[0] & 1));
  const size_t N = (an > mn ? an : mn) + 1;
  limb *A = scratch, *B = A + N, *u = B + N, *v = u + mn, *tu = v + mn, *tv = tu + mn + 1,
       *tmp = tv + mn + 1;
  copy(A, ap, an);
  zero(A + an, N - an);
  copy(B, mp, mn);
  zero(B + mn, N - mn);
  zero(u, mn);
  u[0] = 1;
  zero(v, mn);
  const limb minv = (limb)0 - mpb::detail::binvert_limb(mp[0]);
  const size_t mbits = 64 * mn - (size_t)__builtin_clzll(mp[mn - 1]);
  const size_t iters = (64 * an + mbits - 1 + K - 1) / K + 1;
  for (size_t it = 0; it < iters; it++) {
    limb abar, bbar;
    approx_ct(A, B, N, abar, bbar);
    Mat mt = inner_ct(abar, bbar);
    apply_ab_ct(A, B, N, mt);
    lin_mod_ct(tu, u, v, mt.f0, mt.g0, mp, mn, minv, tmp);
    lin_mod_ct(tv, u, v, mt.f1, mt.g1, mp, mn, minv, tmp);
    copy(u, tu, mn);
    copy(v, tv, mn);
  }
  limb acc = B[0] ^ 1;
  for (size_t i = 1; i < N; i++) acc |= B[i];
  copy(rp, v, mn);
  return 1 ^ ((acc | ((limb)0 - acc)) >> 63);
}

} // namespace mpn
} // namespace mpb
