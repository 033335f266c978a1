// mp_n_root: c = the b'th root of a rounded toward zero (seed 5.3.5), by Newton's iteration
//   x <- ((b-1) x + |a| / x^(b-1)) / b
// started from 2^ceil(bits(|a|)/b) >= root; the iterates decrease until the floor root.
// The sign of c follows a (odd b only: a < 0 with even b is MP_VAL, as is b == 0).
#include "bn/bn_internal.h"

using namespace mpb;

#define TRY(x)                    \
  do {                            \
    int e_ = (x);                 \
    if (e_ != MP_OKAY) return e_; \
  } while (0)

namespace {
// r = x^e (e >= 1), r distinct from x
int pow_ui(const mp_int *x, mp_digit e, mp_int *r, mp_int *t) {
  TRY(mpb_mp_copy(x, r));
  int top = 63 - __builtin_clzll(e);
  for (int i = top - 1; i >= 0; i--) {
    TRY(mpb_mp_sqr(r, t));
    mpb_mp_exch(r, t);
    if ((e >> i) & 1) {
      TRY(mpb_mp_mul(r, x, t));
      mpb_mp_exch(r, t);
    }
  }
  return MP_OKAY;
}
} // namespace

extern "C" MPB_API int mpb_mp_n_root(const mp_int *a, mp_digit b, mp_int *c) {
  if (!a || !c) return MP_VAL;
  if (b == 0) return MP_VAL;
  if (a->sign == MP_NEG && (b & 1) == 0) return MP_VAL;
  if (b == 1 || a->used == 0) return mpb_mp_copy(a, c);
  bn::Temp A, x, y, p, t, bd;
  if (!A.ok() || !x.ok() || !y.ok() || !p.ok() || !t.ok() || !bd.ok()) return MP_MEM;
  TRY(mpb_mp_abs(a, &A));
  const int neg = a->sign;
  const mp_digit bits = (mp_digit)mpb_mp_count_bits(&A);
  if (b >= bits) {  // 2^b > |a| >= 1: the root is 1
    mpb_mp_set(&x, 1);
  } else {
    // x0 = 2^ceil(bits / b)
    mpb_mp_set(&x, 1);
    TRY(mpb_mp_mul_2d(&x, (int)((bits + b - 1) / b), &x));
    for (;;) {
      // y = ((b-1) x + A / x^(b-1)) / b
      TRY(pow_ui(&x, b - 1, &p, &t));
      TRY(mpb_mp_div(&A, &p, &y, nullptr));
      TRY(mpb_mp_mul_d(&x, b - 1, &t));
      TRY(mpb_mp_add(&y, &t, &y));
      TRY(mpb_mp_div_d(&y, b, &y, nullptr));
      if (mpb_mp_cmp(&y, &x) != MP_LT) break;
      mpb_mp_exch(&x, &y);
    }
  }
  if (neg == MP_NEG) x.get()->sign = MP_NEG;
  mpb_mp_exch(x.get(), c);
  return MP_OKAY;
}
