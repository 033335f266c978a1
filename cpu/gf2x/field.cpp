// GF(2^m) = GF(2)[x]/(f): the field object (kind detection, Rabin irreducibility test),
// modular addition, multiplication, squaring and exponentiation.
#include <algorithm>
#include <new>

#include "gf2x/mul/gf2x_mul.h"
#include "gf2x/poly.h"

namespace g = mpb::gf2x;

namespace mpb {
namespace gf2xapi {

// Fills F from a normalized f of degree >= 1 (F->f points at f; nothing allocated).
static void describe(mpb_gf2m_field *F, const limb *f, size_t fn) {
  F->f = const_cast<limb *>(f);
  F->fn = fn;
  F->m = (uint64_t)deg(f, fn);
  F->mn = (size_t)((F->m + 63) / 64);
  F->kind = MPB_GF2M_GENERIC;
  F->nk = 0;
  F->fast = false;
  F->mu = nullptr;
  for (int i = 0; i < 4; i++) F->k[i] = 0;
  size_t weight = 0;
  for (size_t i = 0; i < fn; i++) weight += (size_t)__builtin_popcountll(f[i]);
  if ((weight == 3 || weight == 5) && (f[0] & 1) && F->m >= 2) {
    int nk = 0;
    for (int64_t i = (int64_t)F->m - 1; i >= 0; i--)
      if ((f[i / 64] >> (i % 64)) & 1) F->k[nk++] = (uint64_t)i;
    F->nk = nk;
    F->kind = weight == 3 ? MPB_GF2M_TRINOMIAL : MPB_GF2M_PENTANOMIAL;
    F->fast = F->k[0] + 64 <= F->m;
  }
}

// Layout of the work space: t (2mn) | A1 (2mn + 2) | P (mn + fn) | Q (mn + fn) | mul scratch.
size_t field_work_itch(const mpb_gf2m_field *F) {
  const size_t mn = F->mn, fn = F->fn;
  size_t sc = std::max(g::mul_itch(mn, mn), g::mul_itch(mn, fn));
  return 2 * mn + (2 * mn + 2) + 2 * (mn + fn) + sc;
}

// Reduces t (2 mn limbs, deg t < 2m) into t[0..mn) (the limbs above are zeroed).
// Barrett for polynomials is exact: with mu = floor(x^(2m) / f) and deg t < 2m,
// q = floor(floor(t / x^m) * mu / x^m) = floor(t / f), and t + q f is the remainder.
void field_reduce_product(const mpb_gf2m_field *F, limb *t, limb *work) {
  const size_t mn = F->mn, fn = F->fn;
  if (!F->mu) {
    field_reduce(F, t, 2 * mn);
    return;
  }
  limb *A1 = work, *P = A1 + 2 * mn + 2, *Q = P + mn + fn, *sc = Q + mn + fn;
  const uint64_t m = F->m;
  std::memset(A1, 0, (2 * mn + 2) * sizeof(limb));
  if (m / 64 < 2 * mn) rshift_bits(A1, t, 2 * mn, m);  // A1 = t div x^m (deg < m: mn limbs)
  g::mul(P, A1, mn, F->mu, fn, sc);                      // P = A1 * mu
  std::memset(A1, 0, (2 * mn + 2) * sizeof(limb));
  rshift_bits(A1, P, mn + fn, m);                        // q = P div x^m (deg < m: mn limbs)
  g::mul(Q, A1, mn, F->f, fn, sc);                       // Q = q f
  xor_n(t, Q, mn);                                       // t + q f has degree < m
  std::memset(t + mn, 0, mn * sizeof(limb));
}

void field_mulmod(const mpb_gf2m_field *F, limb *r, const limb *a, const limb *b, limb *work) {
  const size_t mn = F->mn;
  limb *t = work;
  g::mul(t, a, mn, b, mn, work + 2 * mn + (2 * mn + 2) + 2 * (mn + F->fn));
  field_reduce_product(F, t, work + 2 * mn);
  std::memcpy(r, t, mn * sizeof(limb));
}

void field_sqrmod(const mpb_gf2m_field *F, limb *r, const limb *a, limb *work) {
  const size_t mn = F->mn;
  limb *t = work;
  g::sqr(t, a, mn);
  field_reduce_product(F, t, work + 2 * mn);
  std::memcpy(r, t, mn * sizeof(limb));
}

void field_load(const mpb_gf2m_field *F, const View &a, limb *dst, limb *tmp) {
  size_t n = std::max(a.n, F->fn);
  std::memset(tmp, 0, n * sizeof(limb));
  if (a.n) std::memcpy(tmp, a.p, a.n * sizeof(limb));
  field_reduce(F, tmp, n);
  std::memcpy(dst, tmp, F->mn * sizeof(limb));
}

// mu = floor(x^(2m) / f) (degree m, fn limbs) for the Barrett reduction. MPB_OK or MPB_EMEM.
static int compute_mu(const limb *f, size_t fn, limb *mu) {
  const uint64_t m = (uint64_t)deg(f, fn);
  size_t nn = (size_t)(2 * m / 64 + 1), qn = nn - fn + 1;
  Buf num, quo;
  if (!num.alloc(nn) || !quo.alloc(qn)) return MPB_EMEM;
  num.p[2 * m / 64] = (limb)1 << (2 * m % 64);
  divrem_generic(quo.p, num.p, nn, f, fn);
  std::memset(mu, 0, fn * sizeof(limb));
  std::memcpy(mu, quo.p, std::min(qn, fn) * sizeof(limb));
  return MPB_OK;
}

int field_view(mpb_gf2m_field *F, const limb *f, size_t fn, limb *mu) {
  describe(F, f, fn);
  if (F->fast || F->m < 2) return MPB_OK;
  const int st = compute_mu(f, fn, mu);
  if (st == MPB_OK) F->mu = mu;
  return st;
}

int irreducible_raw(const limb *f, size_t fn, int *yes) {
  mpb_gf2m_field F;
  describe(&F, f, fn);
  const uint64_t m = F.m;
  const size_t mn = F.mn;
  // prime divisors of m
  uint64_t primes[64];
  int np = 0;
  {
    uint64_t t = m;
    for (uint64_t p = 2; p * p <= t; p++)
      if (t % p == 0) {
        primes[np++] = p;
        while (t % p == 0) t /= p;
      }
    if (t > 1) primes[np++] = t;
  }
  // work: h (mn), xr (mn), tmp (max(1, fn) ), gcd arrays u, v (fn each), field work
  size_t wk = field_work_itch(&F);
  Buf b;
  if (!b.alloc(2 * mn + 4 * fn + wk + 1)) return MPB_EMEM;
  limb *h = b.p, *xr = h + mn, *tmp = xr + mn, *u = tmp + fn + 1, *v = u + fn, *mu = v + fn, *work = mu + fn;
  if (!F.fast && m >= 2) {  // Barrett for the m squarings
    int st = compute_mu(f, fn, mu);
    if (st) return st;
    F.mu = mu;
  }
  // xr = x mod f
  limb xl = 2;
  View vx{&xl, 1};
  field_load(&F, vx, xr, tmp);
  std::memcpy(h, xr, mn * sizeof(limb));
  bool ok = true;
  for (uint64_t i = 1; i <= m && ok; i++) {
    field_sqrmod(&F, h, h, work);  // h = x^(2^i) mod f
    for (int j = 0; j < np; j++)
      if (i == m / primes[j]) {
        // gcd(h - x, f) must be 1
        std::memset(u, 0, fn * sizeof(limb));
        std::memset(v, 0, fn * sizeof(limb));
        for (size_t l = 0; l < mn; l++) u[l] = h[l] ^ xr[l];
        std::memcpy(v, f, fn * sizeof(limb));
        // Euclid with explicit tracking of which array holds the gcd
        limb *pu = u, *pv = v;
        size_t un = norm(pu, fn), vn = norm(pv, fn);
        while (vn) {
          divrem_generic(nullptr, pu, un, pv, vn);
          un = norm(pu, std::min(un, vn));
          std::swap(pu, pv);
          std::swap(un, vn);
        }
        if (!(un == 1 && pu[0] == 1)) ok = false;
      }
  }
  if (ok) ok = std::memcmp(h, xr, mn * sizeof(limb)) == 0;  // x^(2^m) = x mod f
  b.release();
  *yes = ok ? 1 : 0;
  return MPB_OK;
}

}  // namespace gf2xapi
}  // namespace mpb

using namespace mpb::gf2xapi;

namespace {

int new_field(mpb_gf2m_field **out, const limb *f, size_t fn) {
  if (fn == 0 || deg(f, fn) < 1) return MPB_EVAL;
  int yes = 0;
  int st = irreducible_raw(f, fn, &yes);
  if (st) return st;
  if (!yes) return MPB_EVAL;
  void *mem = mpb::mem_alloc(sizeof(mpb_gf2m_field));
  if (!mem) return MPB_EMEM;
  limb *fc = static_cast<limb *>(mpb::mem_alloc(fn * sizeof(limb)));
  if (!fc) {
    mpb::mem_free(mem, sizeof(mpb_gf2m_field));
    return MPB_EMEM;
  }
  std::memcpy(fc, f, fn * sizeof(limb));
  mpb_gf2m_field *F = new (mem) mpb_gf2m_field;
  describe(F, fc, fn);
  if (!F->fast && F->m >= 2) {
    limb *mu = static_cast<limb *>(mpb::mem_alloc(fn * sizeof(limb)));
    if (!mu || compute_mu(fc, fn, mu) != MPB_OK) {
      mpb::mem_free(mu, fn * sizeof(limb));
      mpb::mem_free(fc, fn * sizeof(limb));
      F->~mpb_gf2m_field();
      mpb::mem_free(mem, sizeof(mpb_gf2m_field));
      return MPB_EMEM;
    }
    F->mu = mu;
  }
  *out = F;
  return MPB_OK;
}

}  // namespace

namespace {
// One operand loaded into the field (x, reduced, mn limbs), a result row (res, mn limbs) and the
// field's work space, on the stack for the usual sizes.
class UnaryScratch {
 public:
  UnaryScratch(const mpb_gf2m_field *F, const View &va)
      : tn_(std::max(va.n, F->fn)), buf_(2 * F->mn + tn_ + field_work_itch(F)) {
    if (!buf_.ok()) return;
    x = buf_.get(), res = x + F->mn, work = res + F->mn + tn_;
    field_load(F, va, x, res + F->mn);
  }
  bool ok() const { return buf_.ok(); }
  limb *x = nullptr, *res = nullptr, *work = nullptr;

 private:
  size_t tn_;
  mpb::ScratchLimbs<256> buf_;
};
} // namespace

extern "C" {

MPB_API int mpb_gf2x_is_irreducible(const mpb_gf2x *f, int *yes) {
  View vf;
  int st = view(f, vf);
  if (st) return st;
  if (!yes) return MPB_ENULL;
  if (vf.n == 0 || deg(vf.p, vf.n) < 1) return MPB_EVAL;
  int y = 0;
  if ((st = irreducible_raw(vf.p, vf.n, &y))) return st;
  *yes = y;
  return MPB_OK;
}

MPB_API int mpb_gf2m_field_new(mpb_gf2m_field **F, const mpb_gf2x *f) {
  if (!F) return MPB_ENULL;
  View vf;
  int st = view(f, vf);
  if (st) return st;
  return new_field(F, vf.p, vf.n);
}

MPB_API int mpb_gf2m_field_new_exponents(mpb_gf2m_field **F, const uint64_t *exps, size_t n) {
  if (!F || !exps) return MPB_ENULL;
  if (n == 0) return MPB_EVAL;
  uint64_t mx = 0;
  for (size_t i = 0; i < n; i++) mx = std::max(mx, exps[i]);
  if (mx / 64 >= kMaxLimbs) return MPB_ERANGE;
  size_t fn = (size_t)(mx / 64 + 1);
  Buf b;
  if (!b.alloc(fn)) return MPB_EMEM;
  for (size_t i = 0; i < n; i++) {
    limb bit = (limb)1 << (exps[i] % 64);
    if (b.p[exps[i] / 64] & bit) return MPB_EVAL;  // repeated exponent
    b.p[exps[i] / 64] |= bit;
  }
  return new_field(F, b.p, fn);
}

MPB_API int mpb_gf2m_field_free(mpb_gf2m_field *F) {
  if (!F) return MPB_OK;
  mpb::mem_free(F->f, F->fn * sizeof(limb));
  mpb::mem_free(F->mu, F->fn * sizeof(limb));
  F->~mpb_gf2m_field();
  mpb::mem_free(F, sizeof(mpb_gf2m_field));
  return MPB_OK;
}

MPB_API int mpb_gf2m_field_degree(const mpb_gf2m_field *F, uint64_t *m) {
  if (!F || !m) return MPB_ENULL;
  *m = F->m;
  return MPB_OK;
}

MPB_API int mpb_gf2m_field_kind(const mpb_gf2m_field *F, int *kind) {
  if (!F || !kind) return MPB_ENULL;
  *kind = F->kind;
  return MPB_OK;
}

MPB_API int mpb_gf2m_field_modulus(const mpb_gf2m_field *F, mpb_gf2x *f) {
  if (!F) return MPB_ENULL;
  int st = check_out(f);
  if (st) return st;
  return assign(f, F->f, F->fn);
}

MPB_API int mpb_gf2m_add(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  if (!F) return MPB_ENULL;
  View va, vb;
  int st;
  if ((st = views(r, a, va, b, vb))) return st;
  size_t n = std::max(std::max(va.n, vb.n), F->fn);
  Buf t;
  if (!t.alloc(n)) return MPB_EMEM;
  if (va.n) std::memcpy(t.p, va.p, va.n * sizeof(limb));
  xor_n(t.p, vb.p, vb.n);
  field_reduce(F, t.p, n);
  return commit(r, t, F->mn);
}

MPB_API int mpb_gf2m_mul(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a, const mpb_gf2x *b) {
  if (!F) return MPB_ENULL;
  View va, vb;
  int st;
  if ((st = views(r, a, va, b, vb))) return st;
  const size_t mn = F->mn;
  size_t tn = std::max(std::max(va.n, vb.n), F->fn);
  // stack scratch for the usual sizes; the result is copied into r (no allocation when r
  // already has room)
  mpb::ScratchLimbs<256> buf(3 * mn + tn + field_work_itch(F));
  if (!buf.ok()) return MPB_EMEM;
  limb *x = buf.get(), *y = x + mn, *res = y + mn, *tmp = res + mn, *work = tmp + tn;
  field_load(F, va, x, tmp);
  field_load(F, vb, y, tmp);
  field_mulmod(F, res, x, y, work);
  return assign(r, res, mn);
}

MPB_API int mpb_gf2m_sqr(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a) {
  if (!F) return MPB_ENULL;
  View va;
  int st;
  if ((st = views(r, a, va))) return st;
  UnaryScratch u(F, va);
  if (!u.ok()) return MPB_EMEM;
  field_sqrmod(F, u.res, u.x, u.work);
  return assign(r, u.res, F->mn);
}

MPB_API int mpb_gf2m_exp(const mpb_gf2m_field *F, mpb_gf2x *r, const mpb_gf2x *a, const uint64_t *e,
                         size_t en) {
  if (!F) return MPB_ENULL;
  View va;
  int st;
  if ((st = views(r, a, va))) return st;
  if (en > 0 && !e) return MPB_ENULL;
  en = norm(e, en);
  UnaryScratch u(F, va);
  if (!u.ok()) return MPB_EMEM;
  const size_t mn = F->mn;
  limb *x = u.x, *res = u.res, *work = u.work;
  // res = 1 mod f (f of degree >= 1, so 1 is reduced)
  std::memset(res, 0, mn * sizeof(limb));
  res[0] = 1;
  if (en) {
    int64_t top = deg(e, en);
    for (int64_t i = top; i >= 0; i--) {
      field_sqrmod(F, res, res, work);
      if ((e[i / 64] >> (i % 64)) & 1) field_mulmod(F, res, res, x, work);
    }
  }
  return assign(r, res, mn);
}

}  // extern "C"
