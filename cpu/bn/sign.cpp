// mp_neg, mp_abs: copy with a changed sign (zero stays MP_ZPOS).
#include "bn/bn_ops.h"

using namespace mpb;

extern "C" {

MPB_API int mpb_mp_neg(const mp_int *a, mp_int *b) {
  if (!a || !b) return MP_VAL;
  int sign = a->sign == MP_NEG ? MP_ZPOS : MP_NEG;
  int e = mpb_mp_copy(a, b);
  if (e != MP_OKAY) return e;
  b->sign = b->used ? sign : MP_ZPOS;
  return MP_OKAY;
}

MPB_API int mpb_mp_abs(const mp_int *a, mp_int *b) {
  if (!a || !b) return MP_VAL;
  int e = mpb_mp_copy(a, b);
  if (e != MP_OKAY) return e;
  b->sign = MP_ZPOS;
  return MP_OKAY;
}

}  // extern "C"
