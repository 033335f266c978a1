// mp_invmod: c = a^-1 mod b, 0 <= c < b.
//  - odd b: the fast binary inversion (seed 5.3.2): only one pair of cofactors is tracked,
//    halving a cofactor adds b first when it is odd;
//  - even b: the extended binary algorithm (HAC 14.61) with both cofactor pairs.
// MP_VAL when b <= 0 or gcd(a, b) != 1 (c untouched). For b == 1 the inverse is 0.
#include "bn_internal.h"

using namespace mpb;

namespace {

#define TRY(x)                          \
  do {                                  \
    int e_ = (x);                       \
    if (e_ != MP_OKAY) return e_;       \
  } while (0)

// x = modulus (odd), y = a mod b in [1, b)
int invmod_odd(const mp_int *b, const mp_int *y, mp_int *out) {
  bn::Temp u, v, B, D;
  if (!u.ok() || !v.ok() || !B.ok() || !D.ok()) return MP_MEM;
  TRY(mpb_mp_copy(b, &u));
  TRY(mpb_mp_copy(y, &v));
  mpb_mp_zero(&B);
  mpb_mp_set(&D, 1);
  // invariants: B*y == -u... (mod b) style: u == B*a, v == D*a (mod b) up to sign
  while (!mp_iszero(&u)) {
    while (mp_iseven(&u)) {
      TRY(mpb_mp_div_2(&u, &u));
      if (mp_isodd(&B)) TRY(mpb_mp_sub(&B, b, &B));
      TRY(mpb_mp_div_2(&B, &B));
    }
    while (mp_iseven(&v)) {
      TRY(mpb_mp_div_2(&v, &v));
      if (mp_isodd(&D)) TRY(mpb_mp_sub(&D, b, &D));
      TRY(mpb_mp_div_2(&D, &D));
    }
    if (mpb_mp_cmp(&u, &v) != MP_LT) {
      TRY(mpb_mp_sub(&u, &v, &u));
      TRY(mpb_mp_sub(&B, &D, &B));
    } else {
      TRY(mpb_mp_sub(&v, &u, &v));
      TRY(mpb_mp_sub(&D, &B, &D));
    }
  }
  if (mpb_mp_cmp_d(&v, 1) != MP_EQ) return MP_VAL;
  TRY(mpb_mp_mod(&D, b, &D));
  return mpb_mp_copy(&D, out);
}

int invmod_general(const mp_int *b, const mp_int *x, mp_int *out) {
  // x = a mod b, y = b; not both even (checked by the caller)
  bn::Temp u, v, A, B, C, D;
  if (!u.ok() || !v.ok() || !A.ok() || !B.ok() || !C.ok() || !D.ok()) return MP_MEM;
  const mp_int *y = b;
  TRY(mpb_mp_copy(x, &u));
  TRY(mpb_mp_copy(y, &v));
  mpb_mp_set(&A, 1);
  mpb_mp_zero(&B);
  mpb_mp_zero(&C);
  mpb_mp_set(&D, 1);
  // invariants: u = A*x + B*y, v = C*x + D*y
  while (!mp_iszero(&u)) {
    while (mp_iseven(&u)) {
      TRY(mpb_mp_div_2(&u, &u));
      if (mp_isodd(&A) || mp_isodd(&B)) {
        TRY(mpb_mp_add(&A, y, &A));
        TRY(mpb_mp_sub(&B, x, &B));
      }
      TRY(mpb_mp_div_2(&A, &A));
      TRY(mpb_mp_div_2(&B, &B));
    }
    while (mp_iseven(&v)) {
      TRY(mpb_mp_div_2(&v, &v));
      if (mp_isodd(&C) || mp_isodd(&D)) {
        TRY(mpb_mp_add(&C, y, &C));
        TRY(mpb_mp_sub(&D, x, &D));
      }
      TRY(mpb_mp_div_2(&C, &C));
      TRY(mpb_mp_div_2(&D, &D));
    }
    if (mpb_mp_cmp(&u, &v) != MP_LT) {
      TRY(mpb_mp_sub(&u, &v, &u));
      TRY(mpb_mp_sub(&A, &C, &A));
      TRY(mpb_mp_sub(&B, &D, &B));
    } else {
      TRY(mpb_mp_sub(&v, &u, &v));
      TRY(mpb_mp_sub(&C, &A, &C));
      TRY(mpb_mp_sub(&D, &B, &D));
    }
  }
  // v = gcd = C*x + D*y
  if (mpb_mp_cmp_d(&v, 1) != MP_EQ) return MP_VAL;
  TRY(mpb_mp_mod(&C, b, &C));
  return mpb_mp_copy(&C, out);
}

} // namespace

extern "C" MPB_API int mpb_mp_invmod(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!a || !b || !c) return MP_VAL;
  if (b->used == 0 || b->sign == MP_NEG) return MP_VAL;
  if (mpb_mp_cmp_d(b, 1) == MP_EQ) {
    mpb_mp_zero(c);
    return MP_OKAY;
  }
  bn::Temp x, r;
  if (!x.ok() || !r.ok()) return MP_MEM;
  TRY(mpb_mp_mod(a, b, &x));  // 0 <= x < b
  if (mp_iszero(&x)) return MP_VAL;
  int e;
  if (mp_isodd(b)) {
    e = invmod_odd(b, &x, &r);
  } else {
    if (mp_iseven(&x)) return MP_VAL;  // both even
    e = invmod_general(b, &x, &r);
  }
  if (e != MP_OKAY) return e;
  mpb_mp_exch(&r, c);  // c's old digits are released with r
  return MP_OKAY;
}
