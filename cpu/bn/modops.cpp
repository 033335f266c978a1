// mp_addmod, mp_submod, mp_mulmod, mp_sqrmod: the host operation into a temporary, then
// mp_mod into the output (result in [0, c)). A modulus <= 0 (or NULL) -> MP_VAL.
#include "bn/bn_ops.h"

using namespace mpb;

namespace {
bool bad_modulus(const mp_int *m) { return !m || m->used == 0 || m->sign == MP_NEG; }

template <class F>
int via_temp(const mp_int *m, mp_int *out, F op) {
  bn::Temp t;
  if (!t.ok()) return MP_MEM;
  int e = op(t.get());
  if (e != MP_OKAY) return e;
  return mpb_mp_mod(t.get(), m, out);
}
}  // namespace

extern "C" {

MPB_API int mpb_mp_addmod(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d) {
  if (!a || !b || !d || bad_modulus(c)) return MP_VAL;
  return via_temp(c, d, [&](mp_int *t) { return mpb_mp_add(a, b, t); });
}

MPB_API int mpb_mp_submod(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d) {
  if (!a || !b || !d || bad_modulus(c)) return MP_VAL;
  return via_temp(c, d, [&](mp_int *t) { return mpb_mp_sub(a, b, t); });
}

MPB_API int mpb_mp_mulmod(const mp_int *a, const mp_int *b, const mp_int *c, mp_int *d) {
  if (!a || !b || !d || bad_modulus(c)) return MP_VAL;
  return via_temp(c, d, [&](mp_int *t) { return mpb_mp_mul(a, b, t); });
}

MPB_API int mpb_mp_sqrmod(const mp_int *a, const mp_int *b, mp_int *c) {
  if (!a || !c || bad_modulus(b)) return MP_VAL;
  return via_temp(b, c, [&](mp_int *t) { return mpb_mp_sqr(a, t); });
}

}  // extern "C"
