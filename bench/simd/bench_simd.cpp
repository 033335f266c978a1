// bench_simd: modular exponentiations per second per core (one thread, full-length exponents)
// for the lane-parallel kernels of cpu/simd/powm_lanes.h against GMP mpz_powm / mpz_powm_sec and
// OpenSSL BN_mod_exp_mont_consttime, plus the implied RSA-2048 CRT private operations per
// second (two 1024-bit exponentiations per operation) and OpenSSL's own RSA-2048 private op.
//
// usage: bench_simd [--out DIR] [--quick]
// Writes DIR/simd-powm-<date>.csv and .md (default DIR: bench/results). Timing: thread CPU
// time, each figure the best of 5 runs of >= 0.2 s (the machine is shared).
#include <gmp.h>
#include <time.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "common/report.h"
#include "simd/powm_lanes.h"

#ifdef BENCH_SIMD_HAVE_OPENSSL
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#endif

namespace {

double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double min_time = 0.2;
int reps = 5;

// Seconds per call of f (best of reps runs of >= min_time).
double time_per_call(const std::function<void()> &f) {
  f();  // warm up
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    long calls = 0;
    double t0 = cpu_now(), t;
    do {
      f();
      ++calls;
      t = cpu_now() - t0;
    } while (t < min_time);
    if (t / calls < best) best = t / calls;
  }
  return best;
}

using Limbs = std::vector<uint64_t>;

Limbs rand_limbs(std::mt19937_64 &rng, size_t n) {
  Limbs v(n);
  for (auto &w : v) w = rng();
  return v;
}

void to_mpz(mpz_t z, const Limbs &v) { mpz_import(z, v.size(), -1, 8, 0, 0, v.data()); }

}  // namespace

int main(int argc, char **argv) {
  std::string out = "bench/results";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else if (!std::strcmp(argv[i], "--quick")) { min_time = 0.05; reps = 2; }
  }
  auto loadavg = [] {
    char buf[64] = {0};
    if (FILE *f = std::fopen("/proc/loadavg", "r")) {
      if (!std::fgets(buf, sizeof buf, f)) buf[0] = 0;
      std::fclose(f);
    }
    std::string s(buf);
    return s.substr(0, s.find(' '));
  };
  const std::string load_start = loadavg();
  std::mt19937_64 rng(20261121);
  mpbench::Report rep("simd-powm", out);
  rep.columns({"bits", "ifma_x8_ct", "ifma_x8", "avx512f_x8_ct", "avx2_x4_ct", "gmp_powm", "gmp_powm_sec",
               "openssl_consttime", "ifma_ct/gmp_sec", "results_agree"});
  const bool ifma = mpb::simd::ifma_available(), avx2 = mpb::simd::avx2_available();
  const bool avx512f = mpb::simd::avx512f_available();
  double ifma1024 = 0, avx1024 = 0, gmp1024 = 0, gsec1024 = 0, ossl1024 = 0;
  for (size_t bits : {1024, 2048, 3072, 4096}) {
    const size_t n = bits / 64;
    Limbs m = rand_limbs(rng, n);
    m[0] |= 1;
    m[n - 1] |= 1ULL << 63;
    std::vector<Limbs> base(8), ex(8), res8(8, Limbs(n)), res4(4, Limbs(n)), res8f(8, Limbs(n));
    for (int l = 0; l < 8; ++l) {
      base[l] = rand_limbs(rng, n);
      base[l][n - 1] &= ~(1ULL << 63);  // < m
      ex[l] = rand_limbs(rng, n);
      ex[l][n - 1] |= 1ULL << 63;  // full length
    }
    uint64_t *r8[8], *r4[4], *r8f[8];
    const uint64_t *b8[8], *e8[8];
    for (int l = 0; l < 8; ++l) { r8[l] = res8[l].data(); r8f[l] = res8f[l].data(); b8[l] = base[l].data(); e8[l] = ex[l].data(); }
    for (int l = 0; l < 4; ++l) r4[l] = res4[l].data();
    Limbs s8(mpb::simd::powm_x8_itch(n)), s4(mpb::simd::powm_x4_itch(n)), s8f(mpb::simd::powm_x8f_itch(n));
    double t_ifma_ct = 0, t_ifma = 0, t_avx = 0, t_f = 0;
    int rc = 0;
    if (ifma) {
      t_ifma_ct = time_per_call([&] { rc |= mpb::simd::powm_x8(r8, b8, e8, n, m.data(), n, true, s8.data()); }) / 8;
      t_ifma = time_per_call([&] { rc |= mpb::simd::powm_x8(r8, b8, e8, n, m.data(), n, false, s8.data()); }) / 8;
    }
    if (avx2) t_avx = time_per_call([&] { rc |= mpb::simd::powm_x4(r4, b8, e8, n, m.data(), n, true, s4.data()); }) / 4;
    if (avx512f) t_f = time_per_call([&] { rc |= mpb::simd::powm_x8f(r8f, b8, e8, n, m.data(), n, true, s8f.data()); }) / 8;
    mpz_t zm, zb, ze, zr;
    mpz_inits(zm, zb, ze, zr, nullptr);
    to_mpz(zm, m);
    to_mpz(zb, base[0]);
    to_mpz(ze, ex[0]);
    double t_gmp = time_per_call([&] { mpz_powm(zr, zb, ze, zm); });
    double t_gsec = time_per_call([&] { mpz_powm_sec(zr, zb, ze, zm); });
    // check: lane 0 of each kernel against GMP, every lane of IFMA
    bool agree = rc == 0;
    for (int l = 0; l < 8 && ifma; ++l) {
      mpz_t zb2, ze2, zx;
      mpz_inits(zb2, ze2, zx, nullptr);
      to_mpz(zb2, base[l]); to_mpz(ze2, ex[l]);
      mpz_powm(zr, zb2, ze2, zm);
      to_mpz(zx, res8[l]);
      agree = agree && mpz_cmp(zx, zr) == 0;
      if (l < 4 && avx2) { to_mpz(zx, res4[l]); agree = agree && mpz_cmp(zx, zr) == 0; }
      if (avx512f) { to_mpz(zx, res8f[l]); agree = agree && mpz_cmp(zx, zr) == 0; }
      mpz_clears(zb2, ze2, zx, nullptr);
    }
    double t_ossl = 0;
#ifdef BENCH_SIMD_HAVE_OPENSSL
    {
      BN_CTX *ctx = BN_CTX_new();
      BIGNUM *bm = BN_new(), *bb = BN_new(), *be = BN_new(), *br = BN_new();
      std::vector<unsigned char> buf(n * 8);
      auto set = [&](BIGNUM *x, const Limbs &v) { BN_lebin2bn(reinterpret_cast<const unsigned char *>(v.data()), (int)(v.size() * 8), x); };
      set(bm, m); set(bb, base[0]); set(be, ex[0]);
      BN_MONT_CTX *mont = BN_MONT_CTX_new();
      BN_MONT_CTX_set(mont, bm, ctx);
      t_ossl = time_per_call([&] { BN_mod_exp_mont_consttime(br, bb, be, bm, ctx, mont); });
      BN_MONT_CTX_free(mont);
      BN_free(bm); BN_free(bb); BN_free(be); BN_free(br);
      BN_CTX_free(ctx);
    }
#endif
    mpz_clears(zm, zb, ze, zr, nullptr);
    auto rate = [](double t) { return t > 0 ? mpbench::fmt(1.0 / t, 0) : std::string("n/a"); };
    rep.row({std::to_string(bits), rate(t_ifma_ct), rate(t_ifma), rate(t_f), rate(t_avx), rate(t_gmp), rate(t_gsec),
             rate(t_ossl), t_ifma_ct > 0 ? mpbench::fmt(t_gsec / t_ifma_ct, 2) : "n/a", agree ? "yes" : "NO"});
    if (bits == 1024) { ifma1024 = t_ifma_ct; avx1024 = t_avx; gmp1024 = t_gmp; gsec1024 = t_gsec; ossl1024 = t_ossl; }
  }
  // constant-time sanity check at 1024 bits: all-zero vs all-ones vs random exponents
  std::string ct_check = "n/a";
  if (ifma) {
    const size_t n = 16;
    Limbs m = rand_limbs(rng, n);
    m[0] |= 1;
    m[n - 1] |= 1ULL << 63;
    std::vector<Limbs> base(8), zero(8, Limbs(n, 0)), ones(8, Limbs(n, ~0ULL)), rnd(8), res(8, Limbs(n));
    uint64_t *r8[8];
    const uint64_t *b8[8], *ez[8], *eo[8], *er[8];
    for (int l = 0; l < 8; ++l) {
      base[l] = rand_limbs(rng, n);
      base[l][n - 1] >>= 1;
      rnd[l] = rand_limbs(rng, n);
      r8[l] = res[l].data(); b8[l] = base[l].data(); ez[l] = zero[l].data(); eo[l] = ones[l].data(); er[l] = rnd[l].data();
    }
    Limbs s8(mpb::simd::powm_x8_itch(n));
    double tz = time_per_call([&] { mpb::simd::powm_x8(r8, b8, ez, n, m.data(), n, true, s8.data()); });
    double to = time_per_call([&] { mpb::simd::powm_x8(r8, b8, eo, n, m.data(), n, true, s8.data()); });
    double tr = time_per_call([&] { mpb::simd::powm_x8(r8, b8, er, n, m.data(), n, true, s8.data()); });
    ct_check = "exponents all zero " + mpbench::fmt(tz * 1e6, 1) + " us, all ones " + mpbench::fmt(to * 1e6, 1) +
               " us, random " + mpbench::fmt(tr * 1e6, 1) + " us per 8-item call";
  }
  auto crt = [](double t) { return t > 0 ? mpbench::fmt(1.0 / (2 * t), 0) : std::string("n/a"); };
  double t_rsa = 0;
#ifdef BENCH_SIMD_HAVE_OPENSSL
  {
    EVP_PKEY *pkey = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", (size_t)2048);
    EVP_PKEY_CTX *pc = pkey ? EVP_PKEY_CTX_new(pkey, nullptr) : nullptr;
    if (pc && EVP_PKEY_decrypt_init(pc) > 0 && EVP_PKEY_CTX_set_rsa_padding(pc, RSA_NO_PADDING) > 0) {
      std::vector<unsigned char> in(256), outb(256);
      for (auto &c : in) c = (unsigned char)rng();
      in[0] = 0x01;  // < n
      t_rsa = time_per_call([&] {
        size_t outlen = outb.size();
        EVP_PKEY_decrypt(pc, outb.data(), &outlen, in.data(), in.size());
      });
    }
    EVP_PKEY_CTX_free(pc);
    EVP_PKEY_free(pkey);
  }
#endif
  rep.note("Exponentiations per second on one core (thread CPU time, best of " + std::to_string(reps) +
           " runs), random odd modulus with the top bit set, random full-length exponents; the SIMD "
           "rates are per item (a call does 8 resp. 4 items). ifma_x8_ct / avx2_x4_ct: constant-time "
           "mode (masked table selection over all 32 entries, all exponent bits).");
  rep.note("Implied RSA-2048 CRT private ops/s per core (two 1024-bit exponentiations per op, CRT "
           "recombination not counted): ifma_x8_ct " + crt(ifma1024) + ", avx2_x4_ct " + crt(avx1024) +
           ", gmp_powm " + crt(gmp1024) + ", gmp_powm_sec " + crt(gsec1024) + ", openssl_consttime " +
           crt(ossl1024) + "; OpenSSL RSA-2048 private decrypt (EVP, no padding, its own CRT): " +
           (t_rsa > 0 ? mpbench::fmt(1.0 / t_rsa, 0) : std::string("n/a")) + " ops/s.");
  rep.note("Constant-time sanity check, ifma_x8_ct at 1024 bits (best-of timings, not a formal "
           "leakage test): " + ct_check + ".");
  rep.note("Load average (1 min) at start " + load_start + ", at end " + loadavg() +
           ": the machine was shared with other builds, figures vary by about +-15% between runs.");
  rep.finish();
  return 0;
}
