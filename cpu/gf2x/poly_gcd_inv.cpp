// GF(2)[x] gcd and inversion: the extended Euclidean algorithm (seed: MP_Inversion_EE;
// Hankerson-Menezes-Vanstone Alg. 2.48) and the binary inversion algorithm used for the
// division b/a (seed: MP_Division_Bin_Inv; HMV Alg. 2.49 started from g1 = b).
#include <algorithm>

#include "gf2x/mul/gf2x_mul.h"
#include "gf2x/poly.h"

namespace mpb {
namespace gf2xapi {

// degree of p, knowing it is at most d (scans down from limb d/64); -1 for zero
static inline int64_t deg_below(const limb *p, int64_t d) {
  if (d < 0) return -1;
  for (int64_t w = d / 64; w >= 0; w--)
    if (p[w]) return 64 * w + 63 - __builtin_clzll(p[w]);
  return -1;
}

bool inv_euclid(limb *r, const limb *a, size_t an, const limb *f, size_t fn, limb *work) {
  const size_t n = fn + 1;  // one spare limb per array
  limb *u = work, *v = u + n, *g1 = v + n, *g2 = g1 + n;
  std::memset(work, 0, 4 * n * sizeof(limb));
  std::memcpy(u, a, an * sizeof(limb));
  std::memcpy(v, f, fn * sizeof(limb));
  g1[0] = 1;
  int64_t du = deg(u, norm(u, an)), dv = deg(v, fn);
  int64_t d1 = 0, d2 = -1;  // degrees of g1, g2
  if (du < 0) return false;
  while (du != 0) {  // u != 1
    int64_t j = du - dv;
    if (j < 0) {
      std::swap(u, v);
      std::swap(g1, g2);
      std::swap(du, dv);
      std::swap(d1, d2);
      j = -j;
    }
    xor_shifted(u, v, (size_t)(dv / 64 + 1), (uint64_t)j);  // u += x^j v: degree drops
    du = deg_below(u, du);
    if (d2 >= 0) {
      xor_shifted(g1, g2, (size_t)(d2 / 64 + 1), (uint64_t)j);
      d1 = deg_below(g1, std::max(d1, d2 + j));
    }
    if (du < 0) return false;  // u = 0: gcd(a, f) = v != 1
  }
  std::memcpy(r, g1, fn * sizeof(limb));
  return true;
}

// p (n limbs) >>= t, 1 <= t <= 63
static inline void shr_bits(limb *p, size_t n, unsigned t) {
  for (size_t i = 0; i + 1 < n; i++) p[i] = (p[i] >> t) | (p[i + 1] << (64 - t));
  p[n - 1] >>= t;
}

// g = g / x^t mod f (g: fn + 1 limbs, g[fn] == 0, deg g < deg f; f(0) = 1; 1 <= t <= 63):
// pick c, deg c < t, with g + c f = 0 mod x^t (coefficient by coefficient on the low limb),
// add c f with one word-by-polynomial carry-less product, then shift right by t.
static inline void div_xt(limb *g, const limb *f, size_t fn, unsigned t) {
  limb w = g[0], c = 0;
  const limb f0 = f[0];
  for (unsigned i = 0; i < t; i++)
    if ((w >> i) & 1) {
      c |= (limb)1 << i;
      w ^= f0 << i;
    }
  if (c && __builtin_popcountll(c) <= 3) {
    // few terms (the usual case, t is small): add x^i f for each of them
    while (c) {
      unsigned i = (unsigned)__builtin_ctzll(c);
      c &= c - 1;
      if (i == 0) {
        xor_n(g, f, fn);
      } else {
        limb prev = 0;
        for (size_t j = 0; j < fn; j++) {
          g[j] ^= (f[j] << i) | (prev >> (64 - i));
          prev = f[j];
        }
        g[fn] ^= prev >> (64 - i);
      }
    }
  } else if (c) {
    limb carry = 0;
    for (size_t i = 0; i < fn; i++) {
      limb lo, hi;
      mpb::gf2x::mul_1x1(&lo, &hi, c, f[i]);
      g[i] ^= lo ^ carry;
      carry = hi;
    }
    g[fn] ^= carry;
  }
  shr_bits(g, fn + 1, t);
}

// u = u / x^s (u has un limbs, u != 0, s = its number of trailing zero coefficients), and
// g = g / x^s mod f. Returns the new limb count of u.
static size_t strip_x(limb *u, size_t un, limb *g, const limb *f, size_t fn) {
  size_t z = 0;
  while (u[z] == 0) z++;  // whole zero limbs: 64 coefficients each
  if (z) {
    std::memmove(u, u + z, (un - z) * sizeof(limb));
    std::memset(u + un - z, 0, z * sizeof(limb));
    un -= z;
    for (size_t i = 0; i < z; i++) {
      div_xt(g, f, fn, 32);
      div_xt(g, f, fn, 32);
    }
  }
  unsigned t = (unsigned)__builtin_ctzll(u[0]);
  if (t) {
    shr_bits(u, un, t);
    div_xt(g, f, fn, t);
  }
  return norm(u, un);
}

bool div_binary(limb *r, const limb *b, const limb *a, const limb *f, size_t fn, limb *work) {
  // u, v: fn limbs; g1, g2: fn + 1 limbs (one spare for div_xt)
  limb *u = work, *v = u + fn, *g1 = v + fn, *g2 = g1 + fn + 1;
  std::memcpy(u, a, fn * sizeof(limb));
  std::memcpy(v, f, fn * sizeof(limb));
  std::memset(g1, 0, 2 * (fn + 1) * sizeof(limb));
  std::memcpy(g1, b, fn * sizeof(limb));
  size_t un = norm(u, fn), vn = fn;
  if (un == 0) return false;
  auto is_one = [](const limb *p, size_t n) { return n == 1 && p[0] == 1; };
  while (true) {
    un = strip_x(u, un, g1, f, fn);
    if (is_one(u, un)) break;
    if (!(v[0] & 1)) vn = strip_x(v, vn, g2, f, fn);
    if (is_one(v, vn)) break;
    if (deg(u, un) > deg(v, vn)) {
      xor_n(u, v, vn);
      xor_n(g1, g2, fn);
      un = norm(u, un);
      if (un == 0) return false;
    } else {
      xor_n(v, u, un);
      xor_n(g2, g1, fn);
      vn = norm(v, vn);
      if (vn == 0) return false;  // u == v: gcd(a, f) = u != 1
    }
  }
  std::memcpy(r, is_one(u, un) ? g1 : g2, fn * sizeof(limb));
  return true;
}

}  // namespace gf2xapi
}  // namespace mpb

using namespace mpb::gf2xapi;

extern "C" {

MPB_API int mpb_gf2x_gcd(mpb_gf2x *gout, const mpb_gf2x *a, const mpb_gf2x *b) {
  View va, vb;
  int st;
  if ((st = views(gout, a, va, b, vb))) return st;
  size_t n = std::max(std::max(va.n, vb.n), (size_t)1);
  Buf bu, bv;
  if (!bu.alloc(n) || !bv.alloc(n)) return MPB_EMEM;
  if (va.n) std::memcpy(bu.p, va.p, va.n * sizeof(limb));
  if (vb.n) std::memcpy(bv.p, vb.p, vb.n * sizeof(limb));
  limb *u = bu.p, *v = bv.p;
  size_t un = va.n, vn = vb.n;
  while (vn) {
    divrem_generic(nullptr, u, un, v, vn);
    un = norm(u, std::min(un, vn));
    std::swap(u, v);
    std::swap(un, vn);
  }
  return assign(gout, u, un);  // u points into bu or bv, both private
}

MPB_API int mpb_gf2x_invmod(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *f) {
  View va, vf;
  int st;
  if ((st = views(r, a, va, f, vf))) return st;
  if (vf.n == 0 || deg(vf.p, vf.n) < 1) return MPB_EVAL;
  const size_t fn = vf.n;
  size_t an = std::max(va.n, fn);
  Buf ba, work, res;
  if (!ba.alloc(an) || !work.alloc(4 * (fn + 1), false) || !res.alloc(fn)) return MPB_EMEM;
  if (va.n) std::memcpy(ba.p, va.p, va.n * sizeof(limb));
  divrem_generic(nullptr, ba.p, an, vf.p, fn);
  if (!inv_euclid(res.p, ba.p, fn, vf.p, fn, work.p)) return MPB_ENOTINV;
  return commit(r, res, fn);
}

MPB_API int mpb_gf2m_inv(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a) {
  if (!F) return MPB_ENULL;
  View va;
  int st;
  if ((st = views(r, a, va))) return st;
  const size_t fn = F->fn;
  size_t tn = std::max(va.n, fn);
  Buf bx, tmp, work, res;
  if (!bx.alloc(fn) || !tmp.alloc(tn) || !work.alloc(4 * (fn + 1), false) || !res.alloc(fn)) return MPB_EMEM;
  field_load(F, va, bx.p, tmp.p);
  if (!inv_euclid(res.p, bx.p, F->mn, F->f, fn, work.p)) return MPB_ENOTINV;
  return commit(r, res, F->mn);
}

MPB_API int mpb_gf2m_div(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *b, const mpb_gf2x *a) {
  if (!F) return MPB_ENULL;
  View va, vb;
  int st;
  if ((st = views(r, a, va, b, vb))) return st;
  const size_t fn = F->fn;
  size_t tn = std::max(std::max(va.n, vb.n), fn);
  Buf bx, by, tmp, work, res;
  if (!bx.alloc(fn) || !by.alloc(fn) || !tmp.alloc(tn) || !work.alloc(4 * fn + 2, false) || !res.alloc(fn))
    return MPB_EMEM;
  field_load(F, va, bx.p, tmp.p);  // a mod f, zero padded to fn limbs
  field_load(F, vb, by.p, tmp.p);
  if (norm(bx.p, fn) == 0) return MPB_ENOTINV;
  if (!(F->f[0] & 1)) {
    // f = x (the only irreducible f with f(0) = 0): GF(2), a = 1, b / a = b
    std::memcpy(res.p, by.p, fn * sizeof(limb));
  } else if (!div_binary(res.p, by.p, bx.p, F->f, fn, work.p)) {
    return MPB_ENOTINV;
  }
  return commit(r, res, F->mn);
}

}  // extern "C"
