// GF(2)[x] reduction: generic long division, the word-level fast path for trinomials and
// pentanomials (x^m + sum x^k, k <= m - 64: each high limb folds down in one pass, as in
// Hankerson-Menezes-Vanstone, Guide to ECC, Alg. 2.40-2.42, for any such m and k), and the
// public divrem / mod / field reduce functions.
#include "gf2x/poly.h"

#include <algorithm>

namespace mpb {
namespace gf2xapi {

void divrem_generic(limb *q, limb *a, size_t an, const limb *f, size_t fn) {
  fn = norm(f, fn);
  int64_t df = deg(f, fn);
  an = norm(a, an);
  int64_t da = deg(a, an);
  int64_t i = da;
  while (i >= df) {
    // i = the highest set coefficient at or below i (skips zero limbs at once)
    limb w = a[i / 64] & (~(limb)0 >> (63 - i % 64));
    if (!w) {
      i = 64 * (i / 64) - 1;
      continue;
    }
    i = 64 * (i / 64) + 63 - __builtin_clzll(w);
    if (i < df) break;
    uint64_t sh = (uint64_t)(i - df);
    xor_shifted(a, f, fn, sh);  // clears coefficient i
    if (q) q[sh / 64] |= (limb)1 << (sh % 64);
    i--;
  }
}

static inline void xor_word_at(limb *a, limb t, uint64_t off) {
  size_t w = off / 64;
  unsigned s = off % 64;
  a[w] ^= t << s;
  if (s) a[w + 1] ^= t >> (64 - s);
}

void rem_sparse(limb *a, size_t an, uint64_t m, const uint64_t *k, int nk) {
  const size_t mw = m / 64;
  const unsigned ms = m % 64;
  for (size_t i = an; i-- > mw + 1;) {
    limb t = a[i];
    if (!t) continue;
    a[i] = 0;
    uint64_t base = 64 * (uint64_t)i - m;  // x^(64i) = x^(64i-m) * x^m
    for (int j = 0; j < nk; j++) xor_word_at(a, t, base + k[j]);
  }
  if (an > mw) {
    limb t = a[mw] >> ms;
    if (t) {
      a[mw] &= ms ? (((limb)1 << ms) - 1) : 0;
      for (int j = 0; j < nk; j++) xor_word_at(a, t, k[j]);
    }
  }
}

void field_reduce_generic(const mpb_gf2m_field *F, limb *a, size_t an) {
  divrem_generic(nullptr, a, an, F->f, F->fn);
}

void field_reduce(const mpb_gf2m_field *F, limb *a, size_t an) {
  if (F->fast) rem_sparse(a, an, F->m, F->k, F->nk);
  else divrem_generic(nullptr, a, an, F->f, F->fn);
}

}  // namespace gf2xapi
}  // namespace mpb

using namespace mpb::gf2xapi;

namespace {
int field_ok(const mpb_gf2m_field *F) { return F ? MPB_OK : MPB_ENULL; }

int reduce_common(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a, bool generic) {
  int st;
  if ((st = field_ok(F))) return st;
  View va;
  if ((st = views(r, a, va))) return st;
  if (!generic && F->mu && va.n <= 2 * F->mn && deg(va.p, va.n) < (int64_t)(2 * F->m)) {
    // generic-kind modulus, input of degree < 2m: Barrett (two multiplications)
    size_t wk = field_work_itch(F);
    mpb::ScratchLimbs<256> w(wk);
    if (!w.ok()) return MPB_EMEM;
    limb *t = w.get();
    std::memset(t, 0, 2 * F->mn * sizeof(limb));
    if (va.n) std::memcpy(t, va.p, va.n * sizeof(limb));
    field_reduce_product(F, t, t + 2 * F->mn);
    return assign(r, t, F->mn);
  }
  size_t n = std::max(va.n, F->fn);
  Buf b;
  if (!b.alloc(n)) return MPB_EMEM;
  if (va.n) std::memcpy(b.p, va.p, va.n * sizeof(limb));
  if (generic) field_reduce_generic(F, b.p, n);
  else field_reduce(F, b.p, n);
  return commit(r, b, F->mn);
}
}  // namespace

extern "C" {

MPB_API int mpb_gf2x_divrem(mpb_gf2x *q, mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  View va, vb;
  int st;
  if ((st = view(a, va))) return st;
  if ((st = view(b, vb))) return st;
  if (!q && !r) return MPB_ENULL;
  if (q && (st = check_out(q))) return st;
  if (r && (st = check_out(r))) return st;
  if (q == r) return MPB_EVAL;
  if (vb.n == 0) return MPB_EVAL;
  size_t qn = va.n >= vb.n ? va.n - vb.n + 1 : 1;
  Buf rem, quo;
  if (!rem.alloc(std::max(va.n, (size_t)1)) || !quo.alloc(qn)) return MPB_EMEM;
  if (va.n) std::memcpy(rem.p, va.p, va.n * sizeof(limb));
  divrem_generic(quo.p, rem.p, va.n, vb.p, vb.n);
  size_t rn = std::min(va.n, vb.n);
  // commit() never allocates (it copies or takes the buffer over), so once the first
  // commit succeeded the second cannot fail
  if (q && r) {
    st = commit(q, quo, qn);
    if (st) return st;
    return commit(r, rem, rn);
  }
  if (q) return commit(q, quo, qn);
  return commit(r, rem, rn);
}

MPB_API int mpb_gf2x_mod(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  return mpb_gf2x_divrem(nullptr, r, a, b);
}

MPB_API int mpb_gf2m_reduce(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a) {
  return reduce_common(F, r, a, false);
}

MPB_API int mpb_gf2m_reduce_generic(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a) {
  return reduce_common(F, r, a, true);
}

}  // extern "C"
