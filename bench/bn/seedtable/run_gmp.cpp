#include <gmp.h>

#include <cstdlib>

#include "backends.h"

namespace seedtable {

static void load(mpz_t z, const std::vector<uint8_t> &v) { mpz_import(z, v.size(), 1, 1, 0, 0, v.data()); }

Result run_gmp(Op op, const Operands &in, int iters, int reps) {
  mpz_t a, b, m, r;
  mpz_inits(a, b, m, r, nullptr);
  load(a, in.a);
  load(b, in.b);
  load(m, in.m);
  Result res;
  time_best(res, iters, reps, [&] {
    switch (op) {
      case Op::Inversion: mpz_invert(r, a, m); break;
      case Op::Multiply: mpz_mul(r, a, b); break;
      case Op::Square: mpz_mul(r, a, a); break;
      case Op::Exptmod: mpz_powm(r, a, b, m); break;
    }
  });
  res.value.resize((mpz_sizeinbase(r, 2) + 7) / 8);
  size_t cnt = 0;
  mpz_export(res.value.data(), &cnt, 1, 1, 0, 0, r);
  res.value.resize(cnt);
  mpz_clears(a, b, m, r, nullptr);
  return res;
}

} // namespace seedtable
