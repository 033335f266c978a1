// mp_cmp (signed), mp_cmp_mag (magnitudes), mp_cmp_d (against one digit).
// A NULL argument returns MP_VAL (which is not one of MP_LT/MP_EQ/MP_GT).
#include "bn/bn_ops.h"

using namespace mpb;

namespace {
int cmp_mag(const mp_int *a, const mp_int *b) {
  if (a->used != b->used) return a->used > b->used ? MP_GT : MP_LT;
  for (int i = a->used; i-- > 0;)
    if (a->dp[i] != b->dp[i]) return a->dp[i] > b->dp[i] ? MP_GT : MP_LT;
  return MP_EQ;
}
}  // namespace

extern "C" {

MPB_API int mpb_mp_cmp_mag(const mp_int *a, const mp_int *b) {
  if (!a || !b) return MP_VAL;
  return cmp_mag(a, b);
}

MPB_API int mpb_mp_cmp(const mp_int *a, const mp_int *b) {
  if (!a || !b) return MP_VAL;
  if (a->sign != b->sign) return a->sign == MP_NEG ? MP_LT : MP_GT;
  return a->sign == MP_NEG ? cmp_mag(b, a) : cmp_mag(a, b);
}

MPB_API int mpb_mp_cmp_d(const mp_int *a, mp_digit b) {
  if (!a) return MP_VAL;
  if (a->sign == MP_NEG && a->used > 0) return MP_LT;
  if (a->used > 1) return MP_GT;
  mp_digit v = a->used ? a->dp[0] : 0;
  return v > b ? MP_GT : (v < b ? MP_LT : MP_EQ);
}

}  // extern "C"
