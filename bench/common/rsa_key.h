// bench/common/rsa_key.h: the RSA keys that the benchmarks and the demo draw with GMP.
#pragma once
#include <gmp.h>

namespace mpbench {

// A random RSA key: n = p*q of exactly `bits` bits (bits even), p != q primes of bits/2 bits
// (top two bits set), e = 65537, d = e^-1 mod lcm(p-1, q-1), dp = d mod (p-1),
// dq = d mod (q-1), qinv = q^-1 mod p.
struct RsaKey {
  mpz_t p, q, n, e, d, dp, dq, qinv;
  RsaKey(gmp_randstate_t rs, int bits) {
    mpz_inits(p, q, n, e, d, dp, dq, qinv, nullptr);
    mpz_t t1, t2, lambda;
    mpz_inits(t1, t2, lambda, nullptr);
    mpz_set_ui(e, 65537);
    const size_t half = (size_t)bits / 2;
    do {
      for (mpz_ptr x : {p, q}) {
        mpz_urandomb(x, rs, half);
        mpz_setbit(x, half - 1);
        mpz_setbit(x, half - 2);
        mpz_nextprime(x, x);
      }
      mpz_mul(n, p, q);
      mpz_sub_ui(t1, p, 1);
      mpz_sub_ui(t2, q, 1);
      mpz_lcm(lambda, t1, t2);
    } while (mpz_cmp(p, q) == 0 || mpz_sizeinbase(p, 2) != half || mpz_sizeinbase(q, 2) != half ||
             mpz_sizeinbase(n, 2) != (size_t)bits || !mpz_invert(d, e, lambda));
    mpz_mod(dp, d, t1);
    mpz_mod(dq, d, t2);
    mpz_invert(qinv, q, p);
    mpz_clears(t1, t2, lambda, nullptr);
  }
  ~RsaKey() { mpz_clears(p, q, n, e, d, dp, dq, qinv, nullptr); }
  RsaKey(const RsaKey &) = delete;
  RsaKey &operator=(const RsaKey &) = delete;
};

} // namespace mpbench
