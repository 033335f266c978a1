// bench_auto: how close AUTO comes to the best forced backend on this machine's CPU, over
// operand sizes and batch sizes (the CPU half of issue 5's "AUTO never more than 10% slower
// than the better backend"; the GPU half needs a device, bench_gpu). For every point the same
// batch (one shared odd modulus, random bases, full-width exponents) runs under AUTO and under
// each forced CPU backend (scalar, AVX-512 IFMA when the CPU has it, multipartite), rounds
// interleaved so that load changes hit every backend alike; rate = items / wall second, best
// round. Writes bench/results/auto-cpu-<date>.{csv,md}.
//
//   bench_auto [--seconds S] [--rounds R] [--ct] [--threads T] [dir]
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <mpbatch/batch.h>

#include "common/report.h"
#include "core/cpu_features.h"

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Backend {
  int id;
  const char *name;
};

} // namespace

int main(int argc, char **argv) {
  double secs = 0.3;
  int rounds = 3, threads = 0;
  bool ct = false;
  std::string dir = std::string(MPB_SOURCE_DIR) + "/bench/results";
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc) secs = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--ct")) ct = true;
    else dir = argv[i];
  }
  mpb_ctx *ctx = nullptr;
  if (mpb_ctx_create(&ctx) != MPB_OK) return 1;
  if (threads > 0) mpb_ctx_set_threads(ctx, threads);
  threads = mpb_ctx_get_threads(ctx);
  mpb_ctx_set_constant_time(ctx, ct ? MPB_CT_ON : MPB_CT_OFF);

  std::vector<Backend> forced = {{MPB_BACKEND_CPU, "cpu"}, {MPB_BACKEND_CPU_SCALAR, "cpu-scalar"}};
  if (mpb::cpu::has_avx512ifma()) forced.push_back({MPB_BACKEND_CPU_IFMA, "cpu-ifma"});
  if (mpb::cpu::has_avx512f()) forced.push_back({MPB_BACKEND_CPU_AVX512, "cpu-avx512"});
  if (mpb::cpu::has_avx2()) forced.push_back({MPB_BACKEND_CPU_AVX2, "cpu-avx2"});
  forced.push_back({MPB_BACKEND_MULTIPARTITE, "multipartite"});

  mpbench::Report rep(ct ? "auto-cpu-ct" : "auto-cpu", dir);
  std::vector<std::string> cols = {"bits", "items", "AUTO items/s", "AUTO ran"};
  for (auto &b : forced) cols.push_back(std::string(b.name) + " items/s");
  cols.push_back("best forced");
  cols.push_back("AUTO / best");
  rep.columns(cols);

  std::mt19937_64 rng(777);
  double worst = 1e300;
  std::string worst_at;
  size_t points = 0, within = 0;
  for (int bits : {256, 512, 1024, 2048, 3072, 4096}) {
    const size_t w = (size_t)bits / 64;
    for (size_t count : {(size_t)1, (size_t)2, (size_t)3, (size_t)8, (size_t)16, (size_t)64, (size_t)256}) {
      if (bits >= 3072 && count > 64) continue;  // minutes per point
      std::vector<uint64_t> m(w), base(count * w), e(count * w), r(count * w);
      for (auto &x : m) x = rng();
      m[0] |= 1, m[w - 1] |= 1ull << 63;
      for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < w; j++) {
          base[i * w + j] = rng();
          e[i * w + j] = rng();
        }
      for (size_t i = 0; i < count; i++) base[i * w + w - 1] >>= 1;  // < m
      std::vector<double> best(forced.size() + 1, 0.0);
      std::string auto_ran;
      for (int round = 0; round < rounds; round++)
        for (size_t b = 0; b <= forced.size(); b++) {
          mpb_ctx_set_backend(ctx, b == 0 ? MPB_BACKEND_AUTO : forced[b - 1].id);
          mpb_call_info info;
          size_t done = 0;
          const double t0 = now();
          double t = 0;
          do {
            if (mpb_batch_powm(ctx, r.data(), base.data(), e.data(), w, count, m.data(), 1, w, count, &info) !=
                MPB_OK) {
              std::fprintf(stderr, "powm %d bits x %zu on %s failed: %s\n", bits, count,
                           b == 0 ? "auto" : forced[b - 1].name, info.reason);
              return 1;
            }
            done += count;
            t = now() - t0;
          } while (t < secs || done < 2 * count);
          best[b] = std::max(best[b], (double)done / t);
          if (b == 0) auto_ran = mpb_backend_name(info.backend);
        }
      size_t bi = 1;
      for (size_t b = 2; b <= forced.size(); b++)
        if (best[b] > best[bi]) bi = b;
      const double ratio = best[0] / best[bi];  // > 1: AUTO faster than every forced backend
      std::vector<std::string> row = {std::to_string(bits), std::to_string(count), mpbench::fmt(best[0], 0), auto_ran};
      for (size_t b = 1; b <= forced.size(); b++) row.push_back(mpbench::fmt(best[b], 0));
      row.push_back(forced[bi - 1].name);
      row.push_back(mpbench::fmt(ratio, 2));
      rep.row(row);
      std::printf("%5d bits x %4zu: AUTO %10.0f/s (%s), best forced %10.0f/s (%s), AUTO/best %.2f\n", bits, count,
                  best[0], auto_ran.c_str(), best[bi], forced[bi - 1].name, ratio);
      std::fflush(stdout);
      points++;
      if (ratio >= 0.90) within++;
      if (ratio < worst) worst = ratio, worst_at = std::to_string(bits) + " bits x " + std::to_string(count);
    }
  }
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "mpb_batch_powm, one shared odd modulus, full-width exponents, %s, %d thread%s; AUTO vs each "
                "forced CPU backend on the same batch, rounds interleaved, best of %d rounds of >= %.2f s each "
                "(items / wall second). AUTO / best >= 0.90 at %zu of %zu points; worst %.2f at %s.",
                ct ? "constant time" : "variable time", threads, threads > 1 ? "s" : "", rounds, secs, within,
                points, worst, worst_at.c_str());
  rep.note(buf);
  rep.note(std::string("machine: ") + mpbench::machine() + "; command: bench_auto --seconds " + mpbench::fmt(secs, 2) +
           " --rounds " + std::to_string(rounds) + (ct ? " --ct" : "") + " --threads " + std::to_string(threads));
  rep.finish();
  mpb_ctx_destroy(ctx);
  return 0;
}
