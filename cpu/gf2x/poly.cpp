// GF(2)[x] polynomial type: life cycle, validation, queries, shifts and addition.
#include "gf2x/poly.h"

#include <algorithm>

namespace mpb {
namespace gf2xapi {

int view(const mpb_gf2x *a, View &v) {
  if (!a) return MPB_ENULL;
  if (a->size > a->alloc) return MPB_EVAL;
  if (a->size > 0 && !a->limbs) return MPB_EVAL;
  if (a->size > kMaxLimbs) return MPB_ERANGE;  // checked before reading the limbs
  size_t n = norm(a->limbs, a->size);
  v.p = a->limbs;
  v.n = n;
  return MPB_OK;
}

int check_out(const mpb_gf2x *r) {
  if (!r) return MPB_ENULL;
  if (r->size > kMaxLimbs) return MPB_ERANGE;
  if (r->size > r->alloc) return MPB_EVAL;
  if (r->alloc > 0 && !r->limbs) return MPB_EVAL;
  return MPB_OK;
}

int views(const mpb_gf2x *r, const mpb_gf2x *a, View &va) {
  int st = view(a, va);
  return st ? st : check_out(r);
}

int views(const mpb_gf2x *r, const mpb_gf2x *a, View &va, const mpb_gf2x *b, View &vb) {
  int st = view(a, va);
  if (!st) st = view(b, vb);
  return st ? st : check_out(r);
}

bool Buf::alloc(size_t n, bool zero) {
  release();
  if (n == 0) n = 1;
  p = static_cast<limb *>(mem_alloc(n * sizeof(limb)));
  if (!p) return false;
  cap = n;
  if (zero) std::memset(p, 0, n * sizeof(limb));
  return true;
}

void Buf::release() {
  if (p) mem_free(p, cap * sizeof(limb));
  p = nullptr;
  cap = 0;
}

int assign(mpb_gf2x *r, const limb *p, size_t n) {
  n = norm(p, n);
  if (n > kMaxLimbs) return MPB_ERANGE;
  if (r->alloc >= n) {
    if (n && r->limbs != p) std::memmove(r->limbs, p, n * sizeof(limb));
    r->size = n;
    return MPB_OK;
  }
  limb *q = static_cast<limb *>(mem_alloc(n * sizeof(limb)));
  if (!q) return MPB_EMEM;
  std::memcpy(q, p, n * sizeof(limb));
  if (r->limbs) {
    secure_zero(r->limbs, r->alloc * sizeof(limb));
    mem_free(r->limbs, r->alloc * sizeof(limb));
  }
  r->limbs = q;
  r->alloc = n;
  r->size = n;
  return MPB_OK;
}

int commit(mpb_gf2x *r, Buf &b, size_t n) {
  n = norm(b.p, n);
  if (n > kMaxLimbs) return MPB_ERANGE;
  if (r->alloc >= n) {
    if (n) std::memcpy(r->limbs, b.p, n * sizeof(limb));
    r->size = n;
    return MPB_OK;
  }
  // take the buffer over, give the old storage to b (freed with it)
  limb *old = r->limbs;
  size_t oldcap = r->alloc;
  r->limbs = b.p;
  r->alloc = b.cap;
  r->size = n;
  if (old) secure_zero(old, oldcap * sizeof(limb));
  b.p = old;
  b.cap = oldcap;
  return MPB_OK;
}

void xor_shifted(limb *r, const limb *a, size_t an, uint64_t bits) {
  size_t w = bits / 64;
  unsigned s = bits % 64;
  an = norm(a, an);
  if (an == 0) return;
  if (s == 0) {
    for (size_t i = 0; i < an; i++) r[w + i] ^= a[i];
    return;
  }
  r[w] ^= a[0] << s;
  for (size_t i = 1; i < an; i++) r[w + i] ^= (a[i] << s) | (a[i - 1] >> (64 - s));
  limb top = a[an - 1] >> (64 - s);
  if (top) r[w + an] ^= top;
}

void lshift_bits(limb *rp, const limb *ap, size_t an, uint64_t bits) {
  size_t w = bits / 64;
  unsigned s = bits % 64;
  std::memset(rp, 0, (an + w + 1) * sizeof(limb));
  if (s == 0) {
    std::memcpy(rp + w, ap, an * sizeof(limb));
    return;
  }
  limb carry = 0;
  for (size_t i = 0; i < an; i++) {
    rp[w + i] = (ap[i] << s) | carry;
    carry = ap[i] >> (64 - s);
  }
  rp[w + an] = carry;
}

void rshift_bits(limb *rp, const limb *ap, size_t an, uint64_t bits) {
  size_t w = bits / 64;
  unsigned s = bits % 64;
  size_t rn = an - w;
  if (s == 0) {
    std::memmove(rp, ap + w, rn * sizeof(limb));
    return;
  }
  for (size_t i = 0; i < rn; i++) {
    limb lo = ap[w + i] >> s;
    limb hi = (w + i + 1 < an) ? ap[w + i + 1] << (64 - s) : 0;
    rp[i] = lo | hi;
  }
}

}  // namespace gf2xapi
}  // namespace mpb

using namespace mpb::gf2xapi;
using mpb::gf2xapi::limb;

extern "C" {

MPB_API int mpb_gf2x_init(mpb_gf2x *a) {
  if (!a) return MPB_ENULL;
  a->limbs = nullptr;
  a->size = 0;
  a->alloc = 0;
  return MPB_OK;
}

MPB_API int mpb_gf2x_init_size(mpb_gf2x *a, size_t nlimbs) {
  if (!a) return MPB_ENULL;
  if (nlimbs > kMaxLimbs) return MPB_ERANGE;
  limb *p = nullptr;
  if (nlimbs) {
    p = static_cast<limb *>(mpb::mem_alloc(nlimbs * sizeof(limb)));
    if (!p) return MPB_EMEM;
    std::memset(p, 0, nlimbs * sizeof(limb));
  }
  a->limbs = p;
  a->size = 0;
  a->alloc = nlimbs;
  return MPB_OK;
}

MPB_API int mpb_gf2x_init_limbs(mpb_gf2x *a, const uint64_t *limbs, size_t n) {
  if (!a) return MPB_ENULL;
  if (n > 0 && !limbs) return MPB_ENULL;
  n = norm(limbs, n);
  if (n > kMaxLimbs) return MPB_ERANGE;
  mpb_gf2x t{nullptr, 0, 0};
  int st = assign(&t, limbs, n);
  if (st) return st;
  *a = t;
  return MPB_OK;
}

MPB_API int mpb_gf2x_init_copy(mpb_gf2x *a, const mpb_gf2x *b) {
  if (!a) return MPB_ENULL;
  View vb;
  int st = view(b, vb);
  if (st) return st;
  mpb_gf2x t{nullptr, 0, 0};
  st = assign(&t, vb.p, vb.n);
  if (st) return st;
  *a = t;
  return MPB_OK;
}

MPB_API int mpb_gf2x_free(mpb_gf2x *a) {
  if (!a) return MPB_ENULL;
  if (a->limbs) {
    mpb::secure_zero(a->limbs, a->alloc * sizeof(limb));
    mpb::mem_free(a->limbs, a->alloc * sizeof(limb));
  }
  a->limbs = nullptr;
  a->size = 0;
  a->alloc = 0;
  return MPB_OK;
}

MPB_API int mpb_gf2x_copy(mpb_gf2x *r, const mpb_gf2x *a) {
  View va;
  int st = view(a, va);
  if (st) return st;
  if ((st = check_out(r))) return st;
  if (r == a) {
    r->size = va.n;
    return MPB_OK;
  }
  return assign(r, va.p, va.n);
}

MPB_API int mpb_gf2x_set_limbs(mpb_gf2x *r, const uint64_t *limbs, size_t n) {
  int st = check_out(r);
  if (st) return st;
  if (n > 0 && !limbs) return MPB_ENULL;
  n = norm(limbs, n);
  if (n > kMaxLimbs) return MPB_ERANGE;
  return assign(r, limbs, n);
}

MPB_API int mpb_gf2x_set_zero(mpb_gf2x *r) {
  int st = check_out(r);
  if (st) return st;
  r->size = 0;
  return MPB_OK;
}

MPB_API int mpb_gf2x_set_one(mpb_gf2x *r) {
  int st = check_out(r);
  if (st) return st;
  limb one = 1;
  return assign(r, &one, 1);
}

MPB_API int mpb_gf2x_set_bit(mpb_gf2x *r, uint64_t i) {
  int st = check_out(r);
  if (st) return st;
  View vr;
  if ((st = view(r, vr))) return st;
  if (i / 64 >= kMaxLimbs) return MPB_ERANGE;
  size_t need = std::max(vr.n, (size_t)(i / 64 + 1));
  if (r->alloc >= need) {
    for (size_t j = vr.n; j < need; j++) r->limbs[j] = 0;
    r->limbs[i / 64] |= (limb)1 << (i % 64);
    r->size = need;
    return MPB_OK;
  }
  Buf b;
  if (!b.alloc(need)) return MPB_EMEM;
  if (vr.n) std::memcpy(b.p, vr.p, vr.n * sizeof(limb));
  b.p[i / 64] |= (limb)1 << (i % 64);
  return commit(r, b, need);
}

MPB_API int mpb_gf2x_get_bit(const mpb_gf2x *a, uint64_t i, int *bit) {
  View va;
  int st = view(a, va);
  if (st) return st;
  if (!bit) return MPB_ENULL;
  *bit = (i / 64 < va.n) ? (int)((va.p[i / 64] >> (i % 64)) & 1) : 0;
  return MPB_OK;
}

MPB_API int mpb_gf2x_trim(mpb_gf2x *a) {
  View va;
  int st = view(a, va);
  if (st) return st;
  a->size = va.n;
  return MPB_OK;
}

MPB_API int mpb_gf2x_swap(mpb_gf2x *a, mpb_gf2x *b) {
  int st;
  if ((st = check_out(a))) return st;
  if ((st = check_out(b))) return st;
  mpb_gf2x t = *a;
  *a = *b;
  *b = t;
  return MPB_OK;
}

MPB_API int mpb_gf2x_degree(const mpb_gf2x *a, int64_t *d) {
  View va;
  int st = view(a, va);
  if (st) return st;
  if (!d) return MPB_ENULL;
  *d = deg(va.p, va.n);
  return MPB_OK;
}

MPB_API int mpb_gf2x_cmp(const mpb_gf2x *a, const mpb_gf2x *b, int *c) {
  View va, vb;
  int st;
  if ((st = view(a, va))) return st;
  if ((st = view(b, vb))) return st;
  if (!c) return MPB_ENULL;
  int res = 0;
  if (va.n != vb.n) {
    res = va.n < vb.n ? -1 : 1;
  } else {
    for (size_t i = va.n; i-- > 0;)
      if (va.p[i] != vb.p[i]) {
        res = va.p[i] < vb.p[i] ? -1 : 1;
        break;
      }
  }
  *c = res;
  return MPB_OK;
}

MPB_API int mpb_gf2x_equal(const mpb_gf2x *a, const mpb_gf2x *b, int *eq) {
  int c = 0;
  if (!eq) {
    View va, vb;
    int st;
    if ((st = view(a, va))) return st;
    if ((st = view(b, vb))) return st;
    return MPB_ENULL;
  }
  int st = mpb_gf2x_cmp(a, b, &c);
  if (st) return st;
  *eq = (c == 0);
  return MPB_OK;
}

MPB_API int mpb_gf2x_is_zero(const mpb_gf2x *a, int *yes) {
  View va;
  int st = view(a, va);
  if (st) return st;
  if (!yes) return MPB_ENULL;
  *yes = (va.n == 0);
  return MPB_OK;
}

MPB_API int mpb_gf2x_is_one(const mpb_gf2x *a, int *yes) {
  View va;
  int st = view(a, va);
  if (st) return st;
  if (!yes) return MPB_ENULL;
  *yes = (va.n == 1 && va.p[0] == 1);
  return MPB_OK;
}

MPB_API int mpb_gf2x_lshift(mpb_gf2x *r, const mpb_gf2x *a, uint64_t bits) {
  View va;
  int st;
  if ((st = views(r, a, va))) return st;
  if (va.n == 0) {
    r->size = 0;
    return MPB_OK;
  }
  uint64_t d = (uint64_t)deg(va.p, va.n);
  if (bits >= (uint64_t)kMaxLimbs * 64 || d + bits >= (uint64_t)kMaxLimbs * 64) return MPB_ERANGE;
  size_t rn = va.n + bits / 64 + 1;
  Buf b;
  if (!b.alloc(rn)) return MPB_EMEM;
  lshift_bits(b.p, va.p, va.n, bits);
  return commit(r, b, rn);
}

MPB_API int mpb_gf2x_rshift(mpb_gf2x *r, const mpb_gf2x *a, uint64_t bits) {
  View va;
  int st;
  if ((st = views(r, a, va))) return st;
  if (bits / 64 >= va.n) {
    r->size = 0;
    return MPB_OK;
  }
  size_t rn = va.n - bits / 64;
  Buf b;
  if (!b.alloc(rn)) return MPB_EMEM;
  rshift_bits(b.p, va.p, va.n, bits);
  return commit(r, b, rn);
}

// The limb shifts are the bit shifts by 64 * limbs (clamped: beyond kMaxLimbs limbs the result is
// out of range to the left and zero to the right either way).
MPB_API int mpb_gf2x_lshift_limbs(mpb_gf2x *r, const mpb_gf2x *a, size_t limbs) {
  return mpb_gf2x_lshift(r, a, limbs >= kMaxLimbs ? (uint64_t)kMaxLimbs * 64 : (uint64_t)limbs * 64);
}

MPB_API int mpb_gf2x_rshift_limbs(mpb_gf2x *r, const mpb_gf2x *a, size_t limbs) {
  return mpb_gf2x_rshift(r, a, limbs >= kMaxLimbs ? (uint64_t)kMaxLimbs * 64 : (uint64_t)limbs * 64);
}

MPB_API int mpb_gf2x_add(mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  View va, vb;
  int st;
  if ((st = views(r, a, va, b, vb))) return st;
  if (va.n < vb.n) std::swap(va, vb);
  size_t rn = va.n;
  if (r->alloc >= rn) {
    // safe in place: limb i of the result only reads limb i of the inputs
    for (size_t i = 0; i < vb.n; i++) r->limbs[i] = va.p[i] ^ vb.p[i];
    for (size_t i = vb.n; i < rn; i++) r->limbs[i] = va.p[i];
    r->size = norm(r->limbs, rn);
    return MPB_OK;
  }
  Buf t;
  if (!t.alloc(rn)) return MPB_EMEM;
  for (size_t i = 0; i < vb.n; i++) t.p[i] = va.p[i] ^ vb.p[i];
  for (size_t i = vb.n; i < rn; i++) t.p[i] = va.p[i];
  return commit(r, t, rn);
}

}  // extern "C"
