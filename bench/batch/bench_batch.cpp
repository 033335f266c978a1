// bench_batch: batch throughput of the CPU backend beside GMP and OpenSSL, in one invocation.
//  (1) modular exponentiation, shared modulus, full-size random exponents, 1024..4096 bits:
//      mpbatch (AUTO: IFMA groups of 8 where available; variable time and constant time) vs
//      GMP mpz_powm and mpz_powm_sec (items split over OpenMP threads);
//  (2) RSA private-key operation by CRT, 2048/3072/4096: mpbatch (constant time) vs GMP CRT
//      with mpz_powm_sec (+ OpenMP) and `openssl speed -seconds S -multi N rsaNNNN` (popen,
//      "sign/s" column).
// Threads: 1 and 2 (or --threads a,b,...). Results: bench/results/batch-<date>.{csv,md}.
// --even: only (1), with even moduli (CPU: 2^s * odd split; GMP mpz_powm beside, mpz_powm_sec needs odd
// moduli), results in bench/results/batch-even-<date>.{csv,md}.
//   bench_batch [--seconds 0.5] [--openssl-seconds 3] [--threads 1,2] [--no-openssl] [--even]
#include <gmp.h>
#include <omp.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <mpbatch/mpbatch.h>

#include "common/gmp_rows.h"
#include "common/report.h"
#include "common/rsa_key.h"

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double cpu_now() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
// The last rate() call's CPU-time normalised rate: ops * threads / process CPU seconds (what
// `openssl speed` reports: it divides by CPU user time, summed over -multi children).
double g_cpu_rate = 0;
int g_threads = 1;
using mpbench::append;
using mpbench::limbs;
// ops/s of fn(count) run repeatedly for at least `secs`, best of 3 rounds.
template <class F>
double rate(F fn, size_t count, double secs) {
  fn();  // warm-up
  double best = 0;
  g_cpu_rate = 0;
  for (int round = 0; round < 3; round++) {
    size_t ops = 0;
    double s = now(), c = cpu_now(), el = 0;
    do {
      fn();
      ops += count;
      el = now() - s;
    } while (el < secs / 3);
    double r = (double)ops / el;
    double rc = (double)ops * g_threads / (cpu_now() - c);
    if (r > best) best = r;
    if (rc > g_cpu_rate) g_cpu_rate = rc;
  }
  return best;
}

// The context set to T threads and constant-time mode ct, and rate()'s CPU-time accounting to T.
void use_threads(mpb_ctx *ctx, int T, int ct) {
  mpb_ctx_set_threads(ctx, T);
  mpb_ctx_set_constant_time(ctx, ct);
  g_threads = T;
}

// count random values below m: their w-limb rows appended to rows, each also as an mpz (zs[i],
// initialised here; zs has count entries).
void random_below(gmp_randstate_t rs, mpz_srcptr m, size_t w, size_t count, std::vector<uint64_t> &rows,
                  std::vector<mpz_t> &zs) {
  mpz_t x;
  mpz_init(x);
  for (size_t i = 0; i < count; i++) {
    mpz_urandomm(x, rs, m);
    append(rows, x, w);
    mpz_init_set(zs[i], x);
  }
  mpz_clear(x);
}

// multi > 0: `openssl speed -multi N` (its rates are wall-clock based); multi == 0: one
// process without -multi (its rate is divided by CPU user time).
std::map<int, double> openssl_speed(int multi, double secs, const std::vector<int> &bits) {
  std::map<int, double> out;
  std::string cmd = "openssl speed -seconds " + std::to_string((int)secs);
  if (multi > 0) cmd += " -multi " + std::to_string(multi);
  for (int b : bits) cmd += " rsa" + std::to_string(b);
  cmd += " 2>/dev/null";
  FILE *f = popen(cmd.c_str(), "r");
  if (!f) return out;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    int b;
    char s1[64], s2[64];
    double sign, verify;
    // "rsa 2048 bits 0.000123s 0.000004s   8130.1 250000.0"
    if (std::sscanf(line, "rsa %d bits %63s %63s %lf %lf", &b, s1, s2, &sign, &verify) == 5) out[b] = sign;
  }
  pclose(f);
  return out;
}
} // namespace

int main(int argc, char **argv) {
  double secs = 0.6, ossl_secs = 3;
  bool use_openssl = true;
  bool even = false;  // --even: only modexp, with even moduli (2^s * odd split), report batch-even-<date>
  std::vector<int> threads = {1, 2};
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc) secs = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--openssl-seconds") && i + 1 < argc) ossl_secs = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-openssl")) use_openssl = false;
    else if (!std::strcmp(argv[i], "--even")) even = true;
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads.clear();
      for (char *t = std::strtok(argv[++i], ","); t; t = std::strtok(nullptr, ",")) threads.push_back(std::atoi(t));
    }
  }
  gmp_randstate_t rs;
  gmp_randinit_default(rs);
  gmp_randseed_ui(rs, 42);
  mpb_ctx *ctx;
  if (mpb_ctx_create(&ctx) != MPB_OK) return 1;

  mpbench::Report rep(even ? "batch-even" : "batch", "bench/results");
  rep.columns({"operation", "bits", "threads", "mpbatch ops/s (wall)", "mpbatch ops/s (CPU time)", "mpbatch backend",
               "GMP mpz_powm ops/s (CPU time)", "GMP mpz_powm_sec ops/s (CPU time)",
               "openssl speed -multi T sign/s (wall)", "mpbatch / openssl (wall)",
               "openssl speed sign/s x T (CPU time)", "mpbatch / openssl (CPU time)", "mpbatch / GMP sec (CPU time)"});

  // ---- (1) modexp --------------------------------------------------------------------------
  for (int bits : {1024, 2048, 3072, 4096}) {
    size_t w = bits / 64, count = bits <= 2048 ? 64 : 32;
    mpz_t m, x, e, r;
    mpz_inits(m, x, e, r, nullptr);
    mpz_urandomb(m, rs, bits);
    mpz_setbit(m, bits - 1);
    if (even) mpz_clrbit(m, 0);
    else mpz_setbit(m, 0);
    mpz_urandomb(e, rs, bits);
    std::vector<uint64_t> M = limbs(m, w), E = limbs(e, w), B, R(count * w);
    std::vector<mpz_t> zb(count);
    random_below(rs, m, w, count, B, zb);
    for (int ct : {MPB_CT_OFF, MPB_CT_ON})
      for (int T : threads) {
        use_threads(ctx, T, ct);
        mpb_call_info info;
        double rm = rate([&] {
          mpb_batch_powm(ctx, R.data(), B.data(), E.data(), w, 1, M.data(), 1, w, count, &info);
        }, count, secs);
        double rmc = g_cpu_rate;
        // GMP's rate for the same items (CPU time), by mpz_powm or mpz_powm_sec
        auto gmp_rate = [&](void (*powm)(mpz_ptr, mpz_srcptr, mpz_srcptr, mpz_srcptr)) {
          rate([&] {
#pragma omp parallel for num_threads(T)
            for (size_t i = 0; i < count; i++) {
              mpz_t t;
              mpz_init(t);
              powm(t, zb[i], e, m);
              mpz_clear(t);
            }
          }, count, secs);
          return g_cpu_rate;
        };
        const double rg = gmp_rate(mpz_powm);
        const double rgs = even ? 0 : gmp_rate(mpz_powm_sec);  // mpz_powm_sec wants an odd modulus
        std::string op = std::string(ct == MPB_CT_ON ? "modexp (constant time)" : "modexp") +
                         (even ? ", even modulus" : "");
        rep.row({op, std::to_string(bits), std::to_string(T), mpbench::fmt(rm, 0), mpbench::fmt(rmc, 0),
                 mpb_backend_name(info.backend), mpbench::fmt(rg, 0), even ? "n/a" : mpbench::fmt(rgs, 0), "", "",
                 "", "", even ? "mpbatch / GMP mpz_powm: " + mpbench::fmt(rmc / rg, 2) : mpbench::fmt(rmc / rgs, 2)});
        std::fflush(stdout);
      }
    for (auto &z : zb) mpz_clear(z);
    mpz_clears(m, x, e, r, nullptr);
  }

  // ---- (2) RSA-CRT ---------------------------------------------------------------------------
  std::map<int, std::map<int, double>> ossl;
  std::vector<int> rsa_bits = {2048, 3072, 4096};
  if (even) rsa_bits.clear(), use_openssl = false;
  if (use_openssl) {
    for (int T : threads) ossl[T] = openssl_speed(T, ossl_secs, rsa_bits);
    ossl[0] = openssl_speed(0, ossl_secs, rsa_bits);
  }
  for (int bits : rsa_bits) {
    size_t w = bits / 64, hw = w / 2, count = bits == 2048 ? 1024 : 128;
    const mpbench::RsaKey key(rs, bits);
    mpz_srcptr p = key.p, q = key.q, n = key.n, d = key.d, dp = key.dp, dq = key.dq, qi = key.qinv;
    mpz_t x;
    mpz_init(x);
    std::vector<uint64_t> N = limbs(n, w), P = limbs(p, hw), Q = limbs(q, hw), DP = limbs(dp, hw),
                          DQ = limbs(dq, hw), QI = limbs(qi, hw), C, R(count * w);
    std::vector<mpz_t> zc(count);
    random_below(rs, n, w, count, C, zc);
    for (int T : threads) {
      use_threads(ctx, T, MPB_CT_DEFAULT);
      mpb_call_info info;
      double rm = rate([&] {
        mpb_batch_rsa_crt(ctx, R.data(), C.data(), N.data(), P.data(), Q.data(), DP.data(), DQ.data(), QI.data(), w,
                          hw, 1, count, &info);
      }, count, secs);
      double rmc = g_cpu_rate;
      // check one result
      mpz_powm(x, zc[count - 1], d, n);
      bool ok = limbs(x, w) == std::vector<uint64_t>(R.end() - w, R.end());
      // GMP's CRT over the same items: mpz_powm_sec (constant time) or mpz_powm; CPU-time rate
      auto gmp_crt_rate = [&](bool sec) {
        rate([&] {
#pragma omp parallel for num_threads(T)
          for (size_t i = 0; i < count; i++) {
            mpz_t a, b, h;
            mpz_inits(a, b, h, nullptr);
            (sec ? mpz_powm_sec : mpz_powm)(a, zc[i], dp, p);
            (sec ? mpz_powm_sec : mpz_powm)(b, zc[i], dq, q);
            mpz_sub(h, a, b);
            mpz_mul(h, h, qi);
            mpz_mod(h, h, p);
            mpz_mul(h, h, q);
            mpz_add(h, h, b);
            mpz_clears(a, b, h, nullptr);
          }
        }, count, secs);
        return g_cpu_rate;
      };
      const double rgs = gmp_crt_rate(true);
      const double rg = gmp_crt_rate(false);
      double os = use_openssl && ossl[T].count(bits) ? ossl[T][bits] : 0;        // -multi T, wall
      double oc = use_openssl && ossl[0].count(bits) ? ossl[0][bits] * T : 0;    // 1 process, CPU time, x T
      rep.row({std::string("RSA-CRT private") + (ok ? "" : " (MISMATCH)"), std::to_string(bits), std::to_string(T),
               mpbench::fmt(rm, 0), mpbench::fmt(rmc, 0), mpb_backend_name(info.backend), mpbench::fmt(rg, 0),
               mpbench::fmt(rgs, 0), os > 0 ? mpbench::fmt(os, 0) : "n/a", os > 0 ? mpbench::fmt(rm / os, 2) : "n/a",
               oc > 0 ? mpbench::fmt(oc, 0) : "n/a", oc > 0 ? mpbench::fmt(rmc / oc, 2) : "n/a",
               mpbench::fmt(rmc / rgs, 2)});
    }
    for (auto &z : zc) mpz_clear(z);
    mpz_clear(x);
  }
  rep.note("mpbatch: include/mpbatch/batch.h, one shared modulus / one key per batch, AUTO backend "
           "(backend column = what ran); modexp batches of 64 (<= 2048 bits) or 32 items, RSA batches of 1024 "
           "(2048) or 128 items. GMP columns: the same items split over OpenMP threads (RSA: CRT with "
           "mpz_powm / mpz_powm_sec). openssl: `openssl speed -seconds S -multi T rsaNNNN`, sign/s column, "
           "run in the same invocation. Best of 3 rounds. 'CPU time' columns: ops x threads / process CPU seconds, "
           "the measure `openssl speed` uses without -multi (it divides by CPU user time); `openssl speed -multi T` "
           "divides by elapsed time, so it is compared with mpbatch's wall-clock rate, and the single-process "
           "CPU-time rate x T with mpbatch's CPU-time rate. On a shared (loaded) machine the CPU-time columns are "
           "the meaningful ones; wall = ops / elapsed seconds.");
  rep.finish();
  mpb_ctx_destroy(ctx);
  gmp_randclear(rs);
  return 0;
}
