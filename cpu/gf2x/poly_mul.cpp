// Public GF(2)[x] multiplication: one wrapper per method of the seed (each callable on its own),
// the dispatcher mpb_gf2x_mul and mpb_gf2x_sqr. The algorithms are in the mpn layer
// (cpu/gf2x/mul/gf2x_mul.h); these wrappers validate, size and allocate the result and scratch through
// the hook, and commit the result (outputs may alias inputs). The seed's shift-and-add
// multiplication with interleaved reduction (MP_ShiftAndAddMul) is implemented here.
#include <algorithm>

#include "gf2x/mul/gf2x_mul.h"
#include "gf2x/poly.h"

using namespace mpb::gf2xapi;
namespace g = mpb::gf2x;

namespace {

// Validates a, b, r; returns MPB_OK with *done = true when the product is zero (r set to 0).
int prologue(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b, View &va, View &vb, bool &done) {
  int st;
  done = false;
  if ((st = views(r, a, va, b, vb))) return st;
  if (va.n == 0 || vb.n == 0) {
    r->size = 0;
    done = true;
    return MPB_OK;
  }
  // deg(a*b) = deg a + deg b must fit in MPB_GF2X_MAX_LIMBS limbs
  if ((uint64_t)deg(va.p, va.n) + (uint64_t)deg(vb.p, vb.n) >= (uint64_t)kMaxLimbs * 64) return MPB_ERANGE;
  return MPB_OK;
}

// Runs `fn(c, scratch)` with c = an+bn limbs and `itch` scratch limbs, then commits c to r.
template <class Fn>
int run_mul(mpb_gf2x *r, const View &va, const View &vb, size_t itch, Fn fn) {
  size_t cn = va.n + vb.n;
  Buf c, s;
  if (!c.alloc(cn, false)) return MPB_EMEM;
  if (itch && !s.alloc(itch, false)) return MPB_EMEM;
  fn(c.p, s.p);
  return commit(r, c, cn);
}


// An mpb_gf2x_mul_* entry point over one limb-level multiplication (gf2x/mul/gf2x_mul.h).
using ItchFn = size_t (*)(size_t, size_t);
using MulFn = void (*)(limb *, const limb *, size_t, const limb *, size_t, limb *);
int mul_with(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b, ItchFn itch, MulFn mul) {
  View va, vb;
  bool done;
  int st = prologue(r, a, b, va, vb, done);
  if (st || done) return st;
  return run_mul(r, va, vb, itch(va.n, vb.n), [&](limb *c, limb *s) { mul(c, va.p, va.n, vb.p, vb.n, s); });
}
} // namespace

extern "C" {

MPB_API int mpb_gf2x_mul_shift_add(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b, const mpb_gf2x *f) {
  View va, vb, vf;
  int st;
  if ((st = view(a, va))) return st;
  if ((st = views(r, b, vb, f, vf))) return st;
  if (vf.n == 0 || deg(vf.p, vf.n) < 1) return MPB_EVAL;
  const size_t fn = vf.n;
  const uint64_t m = (uint64_t)deg(vf.p, fn);
  Buf A, B, C;
  if (!A.alloc(std::max(va.n, fn)) || !B.alloc(std::max(vb.n, fn)) || !C.alloc(fn)) return MPB_EMEM;
  if (va.n) std::memcpy(A.p, va.p, va.n * sizeof(limb));
  if (vb.n) std::memcpy(B.p, vb.p, vb.n * sizeof(limb));
  divrem_generic(nullptr, A.p, std::max(va.n, fn), vf.p, fn);  // now deg < m, fn limbs suffice
  divrem_generic(nullptr, B.p, std::max(vb.n, fn), vf.p, fn);
  // right-to-left: c = sum over the bits a_i of b * x^i mod f, b multiplied by x (and
  // reduced) at every step
  for (uint64_t i = 0; i < m; i++) {
    if ((A.p[i / 64] >> (i % 64)) & 1) xor_n(C.p, B.p, fn);
    limb carry = 0;
    for (size_t j = 0; j < fn; j++) {
      limb w = B.p[j];
      B.p[j] = (w << 1) | carry;
      carry = w >> 63;
    }
    if ((B.p[m / 64] >> (m % 64)) & 1) xor_n(B.p, vf.p, fn);
  }
  return commit(r, C, fn);
}

MPB_API int mpb_gf2x_mul_comb_rtl(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  return mul_with(r, a, b, g::mul_comb_itch, g::mul_comb_rtl);
}

MPB_API int mpb_gf2x_mul_comb_ltr(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  return mul_with(r, a, b, g::mul_comb_itch, g::mul_comb_ltr);
}

MPB_API int mpb_gf2x_mul_comb_ltr_w(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b, unsigned w) {
  View va, vb;
  int st;
  if ((st = views(r, a, va, b, vb))) return st;
  if (w != 2 && w != 4 && w != 8) return MPB_EVAL;
  bool done;
  st = prologue(r, a, b, va, vb, done);
  if (st || done) return st;
  return run_mul(r, va, vb, g::mul_comb_ltr_w_itch(va.n, vb.n, w), [&](limb *c, limb *s) {
    g::mul_comb_ltr_w(c, va.p, va.n, vb.p, vb.n, w, s);
  });
}

MPB_API int mpb_gf2x_mul_karatsuba(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  return mul_with(r, a, b, g::mul_karatsuba_itch, g::mul_karatsuba);
}

MPB_API int mpb_gf2x_mul_toom3(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  return mul_with(r, a, b, g::mul_toom3_itch, g::mul_toom3);
}

MPB_API int mpb_gf2x_mul_toom4(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  return mul_with(r, a, b, g::mul_toom4_itch, g::mul_toom4);
}

MPB_API int mpb_gf2x_mul_clmul(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  View va, vb;
  bool done;
  int st;
  if ((st = views(r, a, va, b, vb))) return st;
  if (!g::cpu_has_clmul_path(g::ClmulPath::Pclmul)) return MPB_EUNSUPPORTED;
  st = prologue(r, a, b, va, vb, done);
  if (st || done) return st;
  return run_mul(r, va, vb, 0, [&](limb *c, limb *) { g::mul_clmul(c, va.p, va.n, vb.p, vb.n); });
}

MPB_API int mpb_gf2x_mul(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  return mul_with(r, a, b, g::mul_itch, g::mul);
}

MPB_API int mpb_gf2x_sqr(mpb_gf2x *r, const mpb_gf2x *a) {
  View va;
  bool done;
  int st = prologue(r, a, a, va, va, done);
  if (st || done) return st;
  return run_mul(r, va, va, 0, [&](limb *c, limb *) { g::sqr(c, va.p, va.n); });
}

}  // extern "C"
