#include <mpbatch/bn.h>

#include <cstdlib>

#include "backends.h"

namespace seedtable {

Result run_mpbatch(Op op, const Operands &in, int iters, int reps) {
  mp_int a, b, m, r;
  if (mp_init(&a) || mp_init(&b) || mp_init(&m) || mp_init(&r)) std::abort();
  if (mp_read_unsigned_bin(&a, in.a.data(), (int)in.a.size()) ||
      mp_read_unsigned_bin(&b, in.b.data(), (int)in.b.size()) ||
      mp_read_unsigned_bin(&m, in.m.data(), (int)in.m.size()))
    std::abort();
  Result res;
  int err = 0;
  time_best(res, iters, reps, [&] {
    switch (op) {
      case Op::Inversion: err |= mp_invmod(&a, &m, &r); break;
      case Op::Multiply: err |= mp_mul(&a, &b, &r); break;
      case Op::Square: err |= mp_sqr(&a, &r); break;
      case Op::Exptmod: err |= mp_exptmod(&a, &b, &m, &r); break;
    }
  });
  if (err) std::abort();
  res.value.resize((size_t)mp_unsigned_bin_size(&r));
  if (mp_to_unsigned_bin(&r, res.value.data())) std::abort();
  mp_clear(&a); mp_clear(&b); mp_clear(&m); mp_clear(&r);
  return res;
}

} // namespace seedtable
