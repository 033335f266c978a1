// cpu/gf2x/poly.h: internal helpers behind the public GF(2)[x] / GF(2^m) API (include/mpbatch/gf2x.h).
//
// The public functions validate their arguments into Views (pointer + normalized size), compute
// into a private Buf and only then commit the Buf to the output polynomial, so that an error
// never writes an output and outputs may alias inputs. The raw limb routines here (shifts,
// generic and sparse reduction, gcd, inversion) work on caller storage and do not allocate.
// The multiplication algorithms themselves are in cpu/gf2x/mul/gf2x_mul.h (namespace mpb::gf2x).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <mpbatch/gf2x.h>

#include "core/memory.h"

// The field object (opaque in the public header).
struct mpb_gf2m_field {
  uint64_t *f;       // the modulus, fn limbs, normalized (allocated through the hook)
  size_t fn;         // limbs of f = m/64 + 1
  uint64_t m;        // degree
  size_t mn;         // limbs of a reduced element = ceil(m/64)
  int kind;          // MPB_GF2M_GENERIC / TRINOMIAL / PENTANOMIAL
  int nk;            // number of middle+constant exponents used by the sparse reduction (kind != GENERIC)
  uint64_t k[4];     // f = x^m + sum x^k[i] (descending, k[nk-1] == 0) when kind != GENERIC
  bool fast;         // the word-level sparse reduction applies (k[0] + 64 <= m)
  uint64_t *mu;      // when !fast and m >= 2: floor(x^(2m) / f), fn limbs, for the Barrett
                     // reduction of double-length products (NULL otherwise)
};

namespace mpb {
namespace gf2xapi {

using limb = uint64_t;
constexpr size_t kMaxLimbs = MPB_GF2X_MAX_LIMBS;

struct View {
  const limb *p = nullptr;
  size_t n = 0;  // normalized
};

// Validates an input polynomial (NULL -> MPB_ENULL, inconsistent -> MPB_EVAL, too large -> MPB_ERANGE).
int view(const mpb_gf2x *a, View &v);
// Validates an output polynomial (must be initialised).
int check_out(const mpb_gf2x *r);
// The common start of an operation: view(a) (and view(b)), then check_out(r); the first error.
int views(const mpb_gf2x *r, const mpb_gf2x *a, View &va);
int views(const mpb_gf2x *r, const mpb_gf2x *a, View &va, const mpb_gf2x *b, View &vb);

// A private limb buffer from the hook; commit() hands it (or its contents) to an output.
class Buf {
 public:
  Buf() = default;
  ~Buf() { release(); }
  Buf(const Buf &) = delete;
  Buf &operator=(const Buf &) = delete;
  // Allocates n limbs (at least 1), zeroed unless zero == false. false on failure.
  bool alloc(size_t n, bool zero = true);
  limb *p = nullptr;
  size_t cap = 0;
  void release();
};

// r = p[0..n) (normalizes n). Grows r when needed; on failure r is untouched. p may point into r.
int assign(mpb_gf2x *r, const limb *p, size_t n);
// r = b.p[0..n) (normalizes n); may steal b's storage instead of copying.
int commit(mpb_gf2x *r, Buf &b, size_t n);

// ---- raw limb helpers (poly.cpp) -------------------------------------------------------
inline size_t norm(const limb *p, size_t n) {
  while (n > 0 && p[n - 1] == 0) --n;
  return n;
}
// degree of a normalized array, -1 for zero
inline int64_t deg(const limb *p, size_t n) {
  if (n == 0) return -1;
  return (int64_t)(64 * (n - 1)) + 63 - __builtin_clzll(p[n - 1]);
}
inline void xor_n(limb *r, const limb *a, size_t n) {
  for (size_t i = 0; i < n; i++) r[i] ^= a[i];
}
// r[...] ^= a << bits (a has an limbs); r must hold bits/64 + an + 1 limbs (the last only
// touched when the shifted value needs it: r must hold ceil((deg(a)+1+bits)/64) limbs).
void xor_shifted(limb *r, const limb *a, size_t an, uint64_t bits);
// rp = ap << bits; rp holds an + bits/64 + 1 limbs (all written). rp may not overlap ap.
void lshift_bits(limb *rp, const limb *ap, size_t an, uint64_t bits);
// rp = ap >> bits; rp holds an - bits/64 limbs (caller ensures bits/64 < an). rp may equal ap.
void rshift_bits(limb *rp, const limb *ap, size_t an, uint64_t bits);

// ---- reduction (poly_reduce.cpp) ------------------------------------------------------------
// In place: a (an limbs) = a mod f (f normalized, fn limbs, deg >= 0); the remainder is left in
// a[0..min(an, fn)) and the limbs above are zeroed. If q != NULL, q (an - fn + 1 limbs when
// an >= fn, zeroed by the caller) receives the quotient.
void divrem_generic(limb *q, limb *a, size_t an, const limb *f, size_t fn);
// In place sparse reduction by x^m + sum x^k[i] (requires k[0] + 64 <= m). a has an limbs;
// the result is in a[0..ceil(m/64)) and the limbs above are zeroed.
void rem_sparse(limb *a, size_t an, uint64_t m, const uint64_t *k, int nk);
// Field reduction in place (fast path when F->fast), result in a[0..F->mn), the rest zeroed.
void field_reduce(const mpb_gf2m_field *F, limb *a, size_t an);
void field_reduce_generic(const mpb_gf2m_field *F, limb *a, size_t an);

// ---- multiplication (poly_mul.cpp) -------------------------------------------------------
// The field and gcd code multiply through mpb::gf2x::mul / mpb::gf2x::sqr (cpu/gf2x/mul/gf2x_mul.h)
// with scratch sized by mpb::gf2x::mul_itch.

// ---- field helpers (field.cpp) ---------------------------------------------------------
// Work space (limbs) for field_mulmod / field_sqrmod: the double-length product, the Barrett
// quotient buffers (fields without the sparse fast path) and the mul scratch.
size_t field_work_itch(const mpb_gf2m_field *F);
// t (2 F->mn limbs, deg t < 2m) reduced in place into t[0..mn): Barrett when F->mu, else the
// sparse/generic path. work: field_work_itch(F) - 2 F->mn limbs.
void field_reduce_product(const mpb_gf2m_field *F, limb *t, limb *work);
// F describes any f (normalized, fn limbs, deg >= 1) for field_reduce_product / field_mulmod
// without the irreducibility test or an allocation of its own: F->f = f (not copied), the sparse
// path when f is a trinomial or pentanomial it applies to, else Barrett with mu (fn limbs,
// the caller's, filled here; F->mu = mu) once deg f >= 2. MPB_OK, or MPB_EMEM (mu's temporaries).
int field_view(mpb_gf2m_field *F, const limb *f, size_t fn, limb *mu);
// r = a*b mod f; a, b, r: F->mn limbs (reduced). r may equal a or b.
void field_mulmod(const mpb_gf2m_field *F, limb *r, const limb *a, const limb *b, limb *work);
void field_sqrmod(const mpb_gf2m_field *F, limb *r, const limb *a, limb *work);
// dst (F->mn limbs) = a mod f for any a; tmp: at least max(a.n, F->fn) limbs.
void field_load(const mpb_gf2m_field *F, const View &a, limb *dst, limb *tmp);
// Rabin's irreducibility test on a normalized f (deg >= 1). *yes = 1/0. MPB_OK or MPB_EMEM.
int irreducible_raw(const limb *f, size_t fn, int *yes);

// ---- inversion (poly_gcd_inv.cpp) ---------------------------------------------------------------
// Extended Euclid: r = a^-1 mod f (a reduced, an <= fn limbs, f normalized of degree >= 1);
// r holds fn limbs. Work: 4*(fn + 1) limbs. Returns false when gcd(a, f) != 1.
bool inv_euclid(limb *r, const limb *a, size_t an, const limb *f, size_t fn, limb *work);
// Binary algorithm: r = b / a mod f, a and b reduced (fn limbs each, zero padded), f(0) = 1.
// Work: 4*fn + 2 limbs. Returns false when gcd(a, f) != 1.
bool div_binary(limb *r, const limb *b, const limb *a, const limb *f, size_t fn, limb *work);

}  // namespace gf2xapi
}  // namespace mpb
