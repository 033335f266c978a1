#include "backends.h"

#ifdef SEEDTABLE_HAVE_TOMMATH
#include <tommath.h>

#include <cstdlib>

namespace seedtable {

Result run_tommath(Op op, const Operands &in, int iters, int reps) {
  mp_int a, b, m, r;
  if (mp_init_multi(&a, &b, &m, &r, nullptr) != MP_OKAY) std::abort();
  if (mp_from_ubin(&a, in.a.data(), in.a.size()) != MP_OKAY ||
      mp_from_ubin(&b, in.b.data(), in.b.size()) != MP_OKAY ||
      mp_from_ubin(&m, in.m.data(), in.m.size()) != MP_OKAY)
    std::abort();
  Result res;
  time_best(res, iters, reps, [&] {
    mp_err e = MP_OKAY;
    switch (op) {
      case Op::Inversion: e = mp_invmod(&a, &m, &r); break;
      case Op::Multiply: e = mp_mul(&a, &b, &r); break;
      case Op::Square: e = mp_sqr(&a, &r); break;
      case Op::Exptmod: e = mp_exptmod(&a, &b, &m, &r); break;
    }
    if (e != MP_OKAY) std::abort();
  });
  res.value.resize(mp_ubin_size(&r));
  size_t written = 0;
  if (mp_to_ubin(&r, res.value.data(), res.value.size(), &written) != MP_OKAY) std::abort();
  res.value.resize(written);
  mp_clear_multi(&a, &b, &m, &r, nullptr);
  return res;
}

} // namespace seedtable
#else
SEEDTABLE_UNAVAILABLE(run_tommath)
#endif
