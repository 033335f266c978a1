// mp_gcd: binary GCD (Stein) on the magnitudes: strip the common power of two, then
// repeatedly strip the factors of two of the larger value and subtract the smaller.
// Works on private copies; c is written only at the end.
#include <utility>

#include "bn_internal.h"
#include "bn_ops.h"

using namespace mpb;
using mpn::limb;

namespace {
// trailing zero bits of a nonzero n-limb value
size_t ctz_limbs(const limb *p) {
  size_t i = 0;
  while (p[i] == 0) i++;
  return 64 * i + (size_t)__builtin_ctzll(p[i]);
}
// p[0..n) >>= k (k < 64n); returns the new normalized size
size_t shr_bits(limb *p, size_t n, size_t k) {
  size_t w = k / 64;
  unsigned b = (unsigned)(k % 64);
  if (w) {
    mpn::copy(p, p + w, n - w);
    n -= w;
  }
  if (b) mpn::rshift(p, p, n, b);
  return mpn::normalized_size(p, n);
}
} // namespace

extern "C" MPB_API int mpb_mp_gcd(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!a || !b || !c) return MP_VAL;
  if (a->used == 0) return mpb_mp_abs(b, c);
  if (b->used == 0) return mpb_mp_abs(a, c);
  size_t un = (size_t)a->used, vn = (size_t)b->used;
  size_t mx = un > vn ? un : vn;
  ScratchLimbs<512> s(2 * mx + 2);
  if (!s.ok()) return MP_MEM;
  limb *u = s.get(), *v = u + mx + 1;
  mpn::copy(u, a->dp, un);
  mpn::copy(v, b->dp, vn);
  size_t ku = ctz_limbs(u), kv = ctz_limbs(v);
  size_t k = ku < kv ? ku : kv;
  un = shr_bits(u, un, ku);
  vn = shr_bits(v, vn, kv);
  // both odd from here on
  for (;;) {
    int c_ = mpn::cmp2(u, un, v, vn);
    if (c_ == 0) break;
    if (c_ < 0) {
      std::swap(u, v);
      std::swap(un, vn);
    }
    // u > v, both odd: u - v is even and nonzero
    mpn::sub(u, u, un, v, vn);
    un = mpn::normalized_size(u, un);
    un = shr_bits(u, un, ctz_limbs(u));
  }
  // gcd = u * 2^k
  size_t rn = un + k / 64 + 1;
  int e = bn::ensure(c, rn);
  if (e != MP_OKAY) return e;
  size_t old = (size_t)c->used;
  mpn::zero(c->dp, rn);
  unsigned bits = (unsigned)(k % 64);
  size_t w = k / 64;
  if (bits) c->dp[w + un] = mpn::lshift(c->dp + w, u, un, bits);
  else mpn::copy(c->dp + w, u, un);
  bn::finish(c, rn, old > rn ? old : rn, MP_ZPOS);
  return MP_OKAY;
}
