// cpu/mpn/gcd/jacobi_divsteps.cpp: the Jacobi symbol (a/b), b odd, by "positive divsteps": a
// variant of Bernstein and Yang's division steps (safegcd) in which g is only ever halved or
// replaced by (g + f)/2, so f and g never become negative and every rule of the symbol applies
// to the exact values (libsecp256k1 computes its Jacobi symbol the same way):
//   invariant (a/b) = s * (g/f), f odd, g >= 0; start f = b, g = a mod b, s = 1, delta = 1;
//   g even:                 g = g/2,                  s *= (2/f)
//   g odd, delta > 0:       (f, g) = (g, (g + f)/2),  s *= reciprocity(f, g) * (2/g)
//                           delta = 1 - delta
//   g odd, delta <= 0:      g = (g + f)/2,            s *= (2/f), delta += 1
// ((2/f) = -1 iff f = 3, 5 mod 8; reciprocity = -1 iff f = g = 3 mod 4.) The pair ends at the
// fixed point f = g = gcd(a, b) (g + f = 2f); (a/b) is s once f = 1, and 0 if the pair stops
// at f = g > 1 or g = 0 with f > 1.
// Batched: 62 steps at a time on the low 64 bits of f and g, which are exact, and enough (the
// rules read f and g mod 8: 3 bits, of the 64 - j still exact after j steps), collected into
// a matrix of nonnegative entries below 2^62 (rows: 2^62 f' = u f + v g, 2^62 g' = q f + r g),
// then one big-number pass: two products each, a shift by 62. Runs of zeros in g go at once.
// About 3 steps per bit (2048 bits: ~6100 steps, ~100 passes). No bound on the number of
// steps is proven for this variant, so the caller gives one (max_passes) and gets 2 back if it
// is reached (cpu/mpn/gcd/jacobi.cpp then uses jacobi_euclid).
// Variable time: for public values only.
#include <utility>

#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

namespace {
constexpr unsigned STEPS = 62;

// (2/f) = -1 iff f = 3 or 5 (mod 8): bit 1 xor bit 2 of f
inline unsigned two_flip(limb f) { return (unsigned)(((f >> 1) ^ (f >> 2)) & 1); }

struct Mat {
  limb u, v, q, r;
};

// STEPS positive divsteps on the low words f, g (f odd); updates delta and the sign bit.
inline Mat inner(limb f, limb g, int64_t &delta, unsigned &sbit) {
  limb u = 1, v = 0, q = 0, r = 1;
  unsigned j = 0;
  for (;;) {
    unsigned z = g ? (unsigned)__builtin_ctzll(g) : STEPS;
    if (z > STEPS - j) z = STEPS - j;
    g >>= z;
    u <<= z;
    v <<= z;
    j += z;
    delta += z;
    sbit ^= (z & 1) & two_flip(f);
    if (j == STEPS) break;
    // g is odd now
    if (delta > 0) {
      sbit ^= (unsigned)((f & g) >> 1) & 1;  // reciprocity: both 3 mod 4
      const limb nf = g, nu = q << 1, nv = r << 1;
      g = (g + f) >> 1;  // the carry out of bit 63 is lost: only the low 64 - j bits count
      q += u;
      r += v;
      f = nf;
      u = nu;
      v = nv;
      delta = 1 - delta;
    } else {
      g = (g + f) >> 1;
      q += u;
      r += v;
      u <<= 1;
      v <<= 1;
      delta += 1;
    }
    sbit ^= two_flip(f);  // the halving of g + f: (2/f) with the new f
    j++;
  }
  return Mat{u, v, q, r};
}

// rp[0..m) = (x fp + y gp) / 2^STEPS for fp, gp of m limbs (exact division; the result is at
// most max(f, g)); tp: m + 1 limbs of room (may be rp).
inline void combine(limb *rp, const limb *fp, const limb *gp, size_t m, limb x, limb y) {
  limb hi = mul_1(rp, fp, m, x);
  hi += addmul_1(rp, gp, m, y);  // x + y <= 2^62: the sum is below 2^(62 + 64 m)
  rp[m] = hi;
  rshift(rp, rp, m + 1, STEPS);
}
} // namespace

size_t jacobi_divsteps_itch(size_t an, size_t bn) {
  size_t red = an > bn ? tdiv_qr_itch(an, bn) : 0;
  return 4 * (bn + 1) + red;
}

int jacobi_divsteps(const limb *ap, size_t an, const limb *bp, size_t bn, limb *scratch,
                    size_t max_passes) {
  MPB_ASSERT(bn >= 1 && bp[bn - 1] != 0 && (bp[0] & 1));
  const size_t n = bn;
  limb *f = scratch, *g = f + (n + 1), *tf = g + (n + 1), *tg = tf + (n + 1);
  zero(scratch, 4 * (n + 1));
  copy(f, bp, n);
  an = normalized_size(ap, an);
  if (an > bn)
    tdiv_qr(nullptr, g, ap, an, bp, bn, tg + (n + 1));
  else
    copy(g, ap, an);
  size_t fn = n, gn = normalized_size(g, n);
  int64_t delta = 1;
  unsigned sbit = 0;
  for (size_t pass = 0; pass <= max_passes; pass++) {
    if (fn == 1 && f[0] == 1) return sbit ? -1 : 1;
    if (gn == 0) return 0;                                   // (0/f) with f > 1
    if (gn == fn && cmp(f, g, fn) == 0) return 0;             // gcd f > 1
    if (pass == max_passes) break;
    const Mat t = inner(f[0], g[0], delta, sbit);
    const size_t m = fn > gn ? fn : gn;  // both are zero above their sizes, up to m
    combine(tf, f, g, m, t.u, t.v);
    combine(tg, f, g, m, t.q, t.r);
    std::swap(f, tf);
    std::swap(g, tg);
    fn = normalized_size(f, m);
    gn = normalized_size(g, m);
  }
  return 2;
}

} // namespace mpn
} // namespace mpb
