#include "backends.h"

#ifdef SEEDTABLE_HAVE_OPENSSL
#include <openssl/bn.h>

#include <cstdlib>

namespace seedtable {

Result run_openssl(Op op, const Operands &in, int iters, int reps) {
  BN_CTX *ctx = BN_CTX_new();
  BIGNUM *a = BN_bin2bn(in.a.data(), (int)in.a.size(), nullptr);
  BIGNUM *b = BN_bin2bn(in.b.data(), (int)in.b.size(), nullptr);
  BIGNUM *m = BN_bin2bn(in.m.data(), (int)in.m.size(), nullptr);
  BIGNUM *r = BN_new();
  BN_MONT_CTX *mont = BN_MONT_CTX_new();
  BN_MONT_CTX_set(mont, m, ctx);
  Result res;
  time_best(res, iters, reps, [&] {
    switch (op) {
      case Op::Inversion: BN_mod_inverse(r, a, m, ctx); break;
      case Op::Multiply: BN_mul(r, a, b, ctx); break;
      case Op::Square: BN_sqr(r, a, ctx); break;
      // BN_mod_exp_mont with a precomputed Montgomery context, as RSA uses it
      case Op::Exptmod: BN_mod_exp_mont(r, a, b, m, ctx, mont); break;
    }
  });
  res.value.resize((size_t)BN_num_bytes(r));
  BN_bn2bin(r, res.value.data());
  BN_MONT_CTX_free(mont);
  BN_free(a); BN_free(b); BN_free(m); BN_free(r);
  BN_CTX_free(ctx);
  return res;
}

} // namespace seedtable
#else
SEEDTABLE_UNAVAILABLE(run_openssl)
#endif
