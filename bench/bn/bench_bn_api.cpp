// bench_bn_api: the public mp_int API (helper "bnapi").
//   mp_mul / mp_sqr (256..4096 bits, output with room, no aliasing) against GMP's mpn_mul_n /
//   mpn_sqr (the goal: within 1.25x), next to the internal dispatchers mpb::mpn::mul_n /
//   mpn::sqr to show the wrapper's own cost; then mp_div and radix conversion for scale; then
//   mp_jacobi (positive divsteps) against its fallback mpn::jacobi_euclid, GMP's mpz_jacobi and,
//   where OpenSSL is found, BN_kronecker (what the provider's DH peer-key check used before).
// Every figure is the minimum over repetitions of a timed batch; the functions of one row run
// alternately so they see the same machine state.
//
// usage: bench_bn_api [output-dir (default <source>/bench/results)] [--quick]
#include <gmp.h>

#include <mpbatch/bn.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#ifdef BENCH_HAVE_OPENSSL
#include <openssl/bn.h>
#endif

#include "common/race.h"
#include "common/report.h"
#include "mpn/mpn.h"

namespace {
int g_reps = 25;
volatile int g_sink;

void fill(std::mt19937_64 &rng, mp_int *a, int n) {
  if (mp_grow(a, n) != MP_OKAY) std::abort();
  for (int i = 0; i < n; i++) a->dp[i] = rng();
  a->dp[n - 1] |= 1ull << 63;
  a->used = n;
  a->sign = MP_ZPOS;
}
}  // namespace

int main(int argc, char **argv) {
  std::string dir = std::string(MPB_SOURCE_DIR) + "/bench/results";
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--quick")) g_reps = 5;
    else if (argv[i][0] == '-') {  // --help, or an unknown option: not an output folder
      const bool help = !std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h");
      std::fprintf(help ? stdout : stderr, "usage: %s [output-dir] [--quick]\n", "bench_bn_api");
      return help ? 0 : 2;
    } else dir = argv[i];
  }
  std::mt19937_64 rng(12345);
  mpbench::Report rep("bn_api_mul", dir);
  rep.columns({"bits", "mp_mul ns", "mpn::mul_n ns", "GMP mpn_mul_n ns", "mul ratio", "mp_sqr ns",
               "mpn::sqr ns", "GMP mpn_sqr ns", "sqr ratio"});
  for (int bits : {256, 512, 1024, 2048, 3072, 4096}) {
    const int n = bits / 64;
    mp_int a, b, c;
    if (mp_init(&a) || mp_init(&b) || mp_init(&c) || mp_grow(&c, 2 * n)) return 1;
    fill(rng, &a, n);
    fill(rng, &b, n);
    std::vector<mpb::mpn::limb> r(2 * n), s(mpb::mpn::mul_n_itch(n) + mpb::mpn::sqr_itch(n) + 8);
    std::vector<mp_limb_t> g(2 * n);
    const double w = (double)n * n;
    auto t = mpbench::race(g_reps, 
        w, [&] { g_sink = mp_mul(&a, &b, &c); },
        [&] { mpb::mpn::mul_n(r.data(), a.dp, b.dp, n, s.data()); },
        [&] { mpn_mul_n(g.data(), (const mp_limb_t *)a.dp, (const mp_limb_t *)b.dp, n); },
        [&] { g_sink = mp_sqr(&a, &c); }, [&] { mpb::mpn::sqr(r.data(), a.dp, n, s.data()); },
        [&] { mpn_sqr(g.data(), (const mp_limb_t *)a.dp, n); });
    rep.row({std::to_string(bits), mpbench::fmt(t[0], 1), mpbench::fmt(t[1], 1), mpbench::fmt(t[2], 1),
             mpbench::fmt(t[0] / t[2], 3), mpbench::fmt(t[3], 1), mpbench::fmt(t[4], 1),
             mpbench::fmt(t[5], 1), mpbench::fmt(t[3] / t[5], 3)});
    mp_clear(&a);
    mp_clear(&b);
    mp_clear(&c);
  }
  rep.note("ratio = mp_mul (resp. mp_sqr) time / GMP mpn_mul_n (resp. mpn_sqr) time; goal <= 1.25. "
           "The mp_* column minus the mpn:: column is the wrapper's cost (validation, fast path, clamp).");
  rep.finish();

  mpbench::Report rep2("bn_api_misc", dir);
  rep2.columns({"bits", "mp_div 2n/n ns", "GMP mpz_tdiv_qr ns", "mp_toradix(10) ns", "mpz_get_str(10) ns",
                "mp_read_radix(10) ns", "mpz_set_str(10) ns"});
  for (int bits : {256, 1024, 4096}) {
    const int n = bits / 64;
    mp_int a, b, q, rr;
    if (mp_init(&a) || mp_init(&b) || mp_init(&q) || mp_init(&rr)) return 1;
    fill(rng, &a, 2 * n);
    fill(rng, &b, n);
    mpz_t za, zb, zq, zr;
    mpz_inits(za, zb, zq, zr, nullptr);
    mpz_import(za, 2 * n, -1, 8, 0, 0, a.dp);
    mpz_import(zb, n, -1, 8, 0, 0, b.dp);
    std::vector<unsigned char> str(mp_radix_size(&a, 10) + 8);
    std::vector<char> gstr(mpz_sizeinbase(za, 10) + 8);
    if (mp_toradix(&a, str.data(), 10) != MP_OKAY) return 1;
    const double w = (double)n * n;
    auto t = mpbench::race(g_reps, 
        w, [&] { g_sink = mp_div(&a, &b, &q, &rr); }, [&] { mpz_tdiv_qr(zq, zr, za, zb); },
        [&] { g_sink = mp_toradix(&a, str.data(), 10); }, [&] { mpz_get_str(gstr.data(), 10, za); },
        [&] { g_sink = mp_read_radix(&q, str.data(), 10); },
        [&] { g_sink = mpz_set_str(zq, (const char *)str.data(), 10); });
    rep2.row({std::to_string(bits), mpbench::fmt(t[0], 1), mpbench::fmt(t[1], 1), mpbench::fmt(t[2], 1),
              mpbench::fmt(t[3], 1), mpbench::fmt(t[4], 1), mpbench::fmt(t[5], 1)});
    mpz_clears(za, zb, zq, zr, nullptr);
    mp_clear(&a); mp_clear(&b); mp_clear(&q); mp_clear(&rr);
  }
  rep2.note("bits = size of the divisor (the dividend has twice as many) and of the radix-converted value "
            "(the 2n-limb dividend). Radix conversion: chunks of 19 decimal digits per limb, output by divide "
            "and conquer over powers of 10^19 from 16 limbs on; still quadratic (Knuth division). GMP's is subquadratic.");
  rep2.finish();

  mpbench::Report rep3("bn_api_jacobi", dir);
  rep3.columns({"bits", "mp_jacobi ns", "mpn::jacobi_euclid ns", "GMP mpz_jacobi ns", "OpenSSL BN_kronecker ns",
                "mp_jacobi / GMP", "BN_kronecker / mp_jacobi"});
  for (int bits : {256, 1024, 2048, 3072, 4096, 8192}) {
    const int n = bits / 64;
    mp_int a, m;
    if (mp_init(&a) || mp_init(&m)) return 1;
    fill(rng, &m, n);
    m.dp[0] |= 1;
    fill(rng, &a, n);
    a.dp[n - 1] >>= 1;  // a < m
    mpz_t za, zm;
    mpz_inits(za, zm, nullptr);
    mpz_import(za, n, -1, 8, 0, 0, a.dp);
    mpz_import(zm, n, -1, 8, 0, 0, m.dp);
    std::vector<mpb::mpn::limb> s(mpb::mpn::jacobi_itch(n, n));
    int c = 0;
    if (mp_jacobi(&a, &m, &c) != MP_OKAY || c != mpz_jacobi(za, zm) ||
        mpb::mpn::jacobi_euclid(a.dp, n, m.dp, n, s.data()) != c) {
      std::fprintf(stderr, "jacobi mismatch at %d bits\n", bits);
      return 1;
    }
    const double w = (double)n * n;
#ifdef BENCH_HAVE_OPENSSL
    BIGNUM *ba = BN_lebin2bn((const unsigned char *)a.dp, 8 * n, nullptr);
    BIGNUM *bm = BN_lebin2bn((const unsigned char *)m.dp, 8 * n, nullptr);
    BN_CTX *bctx = BN_CTX_new();
    if (!ba || !bm || !bctx || BN_kronecker(ba, bm, bctx) != c) return 1;
    auto t = mpbench::race(g_reps, w, [&] { g_sink = mp_jacobi(&a, &m, &c); },
        [&] { g_sink = mpb::mpn::jacobi_euclid(a.dp, n, m.dp, n, s.data()); },
        [&] { g_sink = mpz_jacobi(za, zm); }, [&] { g_sink = BN_kronecker(ba, bm, bctx); });
    BN_free(ba);
    BN_free(bm);
    BN_CTX_free(bctx);
    rep3.row({std::to_string(bits), mpbench::fmt(t[0], 1), mpbench::fmt(t[1], 1), mpbench::fmt(t[2], 1),
              mpbench::fmt(t[3], 1), mpbench::fmt(t[0] / t[2], 3), mpbench::fmt(t[3] / t[0], 2)});
#else
    auto t = mpbench::race(g_reps, w, [&] { g_sink = mp_jacobi(&a, &m, &c); },
        [&] { g_sink = mpb::mpn::jacobi_euclid(a.dp, n, m.dp, n, s.data()); },
        [&] { g_sink = mpz_jacobi(za, zm); });
    rep3.row({std::to_string(bits), mpbench::fmt(t[0], 1), mpbench::fmt(t[1], 1), mpbench::fmt(t[2], 1), "-",
              mpbench::fmt(t[0] / t[2], 3), "-"});
#endif
    mpz_clears(za, zm, nullptr);
    mp_clear(&a);
    mp_clear(&m);
  }
  rep3.note("a < m random, m odd, both of `bits` bits. mp_jacobi: positive divsteps, 62 per big-number pass "
            "(cpu/mpn/gcd/jacobi_divsteps.cpp); jacobi_euclid: its fallback (one division per step). "
            "GMP's mpz_jacobi is subquadratic (Lehmer-style half-gcd steps).");
  rep3.finish();
  return 0;
}
