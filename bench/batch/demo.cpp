// mpb_demo: the README's main job. Generates an RSA key with GMP (fixed seed, or --seed),
// encrypts a batch of random messages with GMP, runs the batch RSA private-key operation by
// CRT through the public C API (include/mpbatch/batch.h) with 1 thread and with all threads,
// verifies a sample against GMP (c^d mod n and the original messages), and prints what ran
// (backend, constant time, why) and the throughput in operations per second.
//
//   mpb_demo [--bits 2048] [--count 4096] [--seed 1] [--verify 256]
#include <gmp.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <mpbatch/mpbatch.h>

#include "common/gmp_rows.h"
#include "common/rsa_key.h"
#include "core/cpu_features.h"

namespace {
double cpu_now() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
using mpbench::append;
using mpbench::limbs;
} // namespace

int main(int argc, char **argv) {
  size_t bits = 2048, count = 4096, verify = 256;
  unsigned long seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--bits")) bits = std::strtoul(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--count")) count = std::strtoul(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--seed")) seed = std::strtoul(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--verify")) verify = std::strtoul(argv[i + 1], nullptr, 10);
    else {
      std::fprintf(stderr, "usage: %s [--bits 2048] [--count 4096] [--seed 1] [--verify 256]\n", argv[0]);
      return 2;
    }
  }
  if (bits < 128 || bits % 128 || count == 0) {
    std::fprintf(stderr, "bits must be a multiple of 128 (>= 128), count >= 1\n");
    return 2;
  }
  const size_t w = bits / 64, hw = w / 2;
  std::printf("mpbatch %s demo: batch RSA-%zu private-key operations by CRT\n", mpb_version_string(), bits);
  std::printf("CPU features: %s; OpenMP max threads: %d\n", mpb::cpu::describe(), omp_get_max_threads());

  // ---- key generation with GMP ---------------------------------------------------------
  double t0 = now();
  gmp_randstate_t rs;
  gmp_randinit_default(rs);
  gmp_randseed_ui(rs, seed);
  const mpbench::RsaKey key(rs, (int)bits);
  mpz_srcptr p = key.p, q = key.q, n = key.n, e = key.e, d = key.d, dp = key.dp, dq = key.dq, qi = key.qinv;
  std::printf("key: %zu-bit n, e = 65537, generated with GMP in %.2f s (seed %lu)\n", mpz_sizeinbase(n, 2),
              now() - t0, seed);

  std::vector<uint64_t> N, P, Q, DP, DQ, QI, C, M;
  append(N, n, w), append(P, p, hw), append(Q, q, hw), append(DP, dp, hw), append(DQ, dq, hw), append(QI, qi, hw);
  mpz_t m, c;
  mpz_inits(m, c, nullptr);
  for (size_t i = 0; i < count; i++) {
    mpz_urandomm(m, rs, n);
    mpz_powm(c, m, e, n);
    append(M, m, w);
    append(C, c, w);
  }

  mpb_ctx *ctx = nullptr;
  if (mpb_ctx_create(&ctx) != MPB_OK) return 1;
  std::vector<uint64_t> out(count * w);
  int all = mpb_ctx_get_threads(ctx);
  double rate1 = 0;
  int status = 0;
  for (int threads : {1, all}) {
    if (threads == 1 && all == 1 && rate1 > 0) break;
    mpb_ctx_set_threads(ctx, threads);
    // warm-up on a small slice, then the timed batch (best of 3)
    mpb_call_info info;
    mpb_batch_rsa_crt(ctx, out.data(), C.data(), N.data(), P.data(), Q.data(), DP.data(), DQ.data(), QI.data(), w,
                      hw, 1, count < 64 ? count : 64, &info);
    double best = 1e30, best_cpu = 1e30;
    for (int rep = 0; rep < 3; rep++) {
      double s = now(), sc = cpu_now();
      int st = mpb_batch_rsa_crt(ctx, out.data(), C.data(), N.data(), P.data(), Q.data(), DP.data(), DQ.data(),
                                 QI.data(), w, hw, 1, count, &info);
      double el = now() - s;
      if (st != MPB_OK) {
        std::printf("batch call failed: %s (%s, item %lld)\n", mpb_strerror(st), info.reason,
                    (long long)info.bad_index);
        return 1;
      }
      if (el < best) best = el;
      double elc = cpu_now() - sc;
      if (elc < best_cpu) best_cpu = elc;
    }
    double rate = (double)count / best;
    if (threads == 1) rate1 = rate;
    std::printf("\n%d thread%s: %zu RSA-%zu private ops in %.3f s = %.0f ops/s", threads, threads > 1 ? "s" : "",
                count, bits, best, rate);
    if (threads > 1 && rate1 > 0) std::printf("  (x%.2f vs 1 thread)", rate / rate1);
    std::printf("\n  CPU time: %.3f s of process CPU (all threads) = %.0f ops per CPU-second; x %d = %.0f ops/s "
                "if the %d core%s were not shared", best_cpu, (double)count / best_cpu, threads,
                (double)count * threads / best_cpu, threads, threads > 1 ? "s" : "");
    std::printf("\n  backend: %s, threads used: %d, constant time: %s, SIMD items: %d\n  why: %s\n",
                mpb_backend_name(info.backend), info.threads, info.constant_time ? "yes" : "no", info.simd_items,
                info.reason);
    // verify a sample (spread over the batch) against GMP: out = c^d mod n = original m
    size_t nver = verify < count ? verify : count, bad = 0;
    mpz_t z, ref;
    mpz_inits(z, ref, nullptr);
    for (size_t k = 0; k < nver; k++) {
      size_t i = nver == count ? k : (k * 7919) % count;
      mpz_import(z, w, -1, 8, 0, 0, &C[i * w]);
      mpz_powm(ref, z, d, n);
      if (limbs(ref, w) != std::vector<uint64_t>(out.begin() + i * w, out.begin() + (i + 1) * w) ||
          !std::equal(M.begin() + i * w, M.begin() + (i + 1) * w, out.begin() + i * w))
        bad++;
    }
    mpz_clears(z, ref, nullptr);
    std::printf("  verified %zu of %zu results against GMP (mpz_powm(c, d, n) and the original messages): %s\n",
                nver, count, bad ? "MISMATCH" : "all equal");
    if (bad) status = 1;
  }
  // a bad input, to show the contract: item 5's ciphertext >= n
  if (count > 5) {
    std::vector<uint64_t> C2(C.begin(), C.begin() + 8 * w);
    std::copy(N.begin(), N.end(), C2.begin() + 5 * w);
    std::vector<uint64_t> out2(8 * w, 0);
    mpb_call_info info;
    int st = mpb_batch_rsa_crt(ctx, out2.data(), C2.data(), N.data(), P.data(), Q.data(), DP.data(), DQ.data(),
                               QI.data(), w, hw, 1, count < 8 ? count : 8, &info);
    std::printf("\nbad input check (c = n at item 5): %s, bad_index %lld, reason \"%s\", outputs untouched: %s\n",
                mpb_strerror(st), (long long)info.bad_index, info.reason,
                std::all_of(out2.begin(), out2.end(), [](uint64_t x) { return x == 0; }) ? "yes" : "no");
  }
  mpb_ctx_destroy(ctx);
  mpz_clears(m, c, nullptr);
  gmp_randclear(rs);
  return status;
}
