// bench_auto: how close AUTO comes to the best forced backend on this machine's CPU, over
// operand sizes and batch sizes (the CPU half of issue 5's "AUTO never more than 10% slower
// than the better backend"; the GPU half needs a device, bench_gpu). For every point the same
// batch (one shared odd modulus, random bases, full-width exponents) runs under AUTO and under
// each forced CPU backend (cpu, scalar, and the SIMD engines this CPU has, multipartite).
//
// Timing. A shared VM drifts by tens of percent over seconds, so measuring one backend for a
// while and then the next compares backends under different loads. Here the backends take turns
// in short slices (--slice-ms, a few calls each): one sweep runs one slice of every backend,
// starting at a different backend each sweep, and sweeps repeat until every backend has had
// --seconds of work, so a change of load hits every backend alike. A backend's rate is its items
// over its time summed over all slices; AUTO / best is the ratio of those rates. Beside it are the
// quartiles of the per-sweep ratio (AUTO's slice rate over the best backend's in the same sweep),
// which show how much a single slice pair varies.
//
// Each row also names the engine AUTO ran and the engine the best forced backend ran. Where they
// are the same, a ratio below 0.90 is timing noise, not a wrong choice; the summary counts wrong
// choices (different engine and ratio below 0.90) separately. Writes
// <dir>/auto-cpu[-ct]-<date>.{csv,md}.
//
//   bench_auto [--seconds S] [--slice-ms MS] [--ct] [--threads T] [--bits B,..] [--items N,..] [dir]
//   (--rounds R, the older option, multiplies --seconds by R; --bits and --items pick points of the
//   grid, 256..4096 bits x 1..256 items, for a short run, e.g. on a borrowed machine.)
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
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

// q-quantile (0..1) of v by linear interpolation; v is sorted in place.
double quantile(std::vector<double> &v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * (double)(v.size() - 1);
  const size_t i = (size_t)pos;
  if (i + 1 >= v.size()) return v.back();
  return v[i] + (pos - (double)i) * (v[i + 1] - v[i]);
}

// " <flag> a,b,c" for a picked list, "" for the whole grid
std::string join(const char *flag, const std::vector<long> &v) {
  std::string r;
  for (long x : v) r += (r.empty() ? std::string(flag) : std::string(",")) + std::to_string(x);
  return r;
}

} // namespace

int main(int argc, char **argv) {
  double secs = 1.0, slice_ms = 4.0;
  int rounds = 1, threads = 0;
  bool ct = false;
  std::vector<long> want_bits, want_items;
  auto list = [](const char *a) {
    std::vector<long> v;
    for (const char *p = a; *p;) {
      char *end;
      v.push_back(std::strtol(p, &end, 10));
      p = *end == ',' ? end + 1 : end;
      if (end == p && *p) break;
    }
    return v;
  };
  std::string dir = std::string(MPB_SOURCE_DIR) + "/bench/results";
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--seconds") && i + 1 < argc) secs = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--slice-ms") && i + 1 < argc) slice_ms = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--ct")) ct = true;
    else if (!std::strcmp(argv[i], "--bits") && i + 1 < argc) want_bits = list(argv[++i]);
    else if (!std::strcmp(argv[i], "--items") && i + 1 < argc) want_items = list(argv[++i]);
    else if (argv[i][0] == '-') {
      std::fprintf(stderr, "usage: bench_auto [--seconds S] [--slice-ms MS] [--ct] [--threads T] [--bits B,..] "
                           "[--items N,..] [dir]\n");
      return 2;
    } else dir = argv[i];
  }
  if (rounds > 1) secs *= rounds;
  if (!(secs > 0) || !(slice_ms > 0)) {
    std::fprintf(stderr, "bench_auto: --seconds and --slice-ms must be positive\n");
    return 2;
  }
  mpb_ctx *ctx = nullptr;
  if (mpb_ctx_create(&ctx) != MPB_OK) return 1;
  if (threads > 0) mpb_ctx_set_threads(ctx, threads);
  threads = mpb_ctx_get_threads(ctx);
  mpb_ctx_set_constant_time(ctx, ct ? MPB_CT_ON : MPB_CT_OFF);

  // Index 0 is AUTO; the forced backends follow.
  std::vector<Backend> be = {{MPB_BACKEND_AUTO, "AUTO"}, {MPB_BACKEND_CPU, "cpu"}, {MPB_BACKEND_CPU_SCALAR, "cpu-scalar"}};
  if (mpb::cpu::has_avx512ifma()) be.push_back({MPB_BACKEND_CPU_IFMA, "cpu-ifma"});
  if (mpb::cpu::has_avx512f()) be.push_back({MPB_BACKEND_CPU_AVX512, "cpu-avx512"});
  if (mpb::cpu::has_avx2()) be.push_back({MPB_BACKEND_CPU_AVX2, "cpu-avx2"});
  be.push_back({MPB_BACKEND_MULTIPARTITE, "multipartite"});
  const size_t nb = be.size();

  mpbench::Report rep(ct ? "auto-cpu-ct" : "auto-cpu", dir);
  std::vector<std::string> cols = {"bits", "items", "AUTO items/s", "AUTO ran"};
  for (size_t b = 1; b < nb; b++) cols.push_back(std::string(be[b].name) + " items/s");
  cols.push_back("best forced");
  cols.push_back("best ran");
  cols.push_back("AUTO / best");
  cols.push_back("quartiles");
  rep.columns(cols);

  std::mt19937_64 rng(777);
  double worst = 1e300;
  std::string worst_at, wrong_at;
  size_t points = 0, within = 0, wrong = 0, sweeps_min = (size_t)-1;
  for (int bits : {256, 512, 1024, 2048, 3072, 4096}) {
    const size_t w = (size_t)bits / 64;
    for (size_t count : {(size_t)1, (size_t)2, (size_t)3, (size_t)8, (size_t)16, (size_t)64, (size_t)256}) {
      if (bits >= 3072 && count > 64) continue;  // minutes per point
      auto picked = [](const std::vector<long> &v, long x) { return v.empty() || std::find(v.begin(), v.end(), x) != v.end(); };
      if (!picked(want_bits, bits) || !picked(want_items, (long)count)) continue;
      std::vector<uint64_t> m(w), base(count * w), e(count * w), r(count * w);
      for (auto &x : m) x = rng();
      m[0] |= 1, m[w - 1] |= 1ull << 63;
      for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < w; j++) {
          base[i * w + j] = rng();
          e[i * w + j] = rng();
        }
      for (size_t i = 0; i < count; i++) base[i * w + w - 1] >>= 1;  // < m

      std::vector<std::string> ran(nb);
      auto call = [&](size_t b) {
        mpb_call_info info;
        if (mpb_batch_powm(ctx, r.data(), base.data(), e.data(), w, count, m.data(), 1, w, count, &info) != MPB_OK) {
          std::fprintf(stderr, "powm %d bits x %zu on %s failed: %s\n", bits, count, be[b].name, info.reason);
          std::exit(1);
        }
        ran[b] = mpb_backend_name(info.backend);
      };
      // Calibrate: calls per slice for each backend (one warm-up call, then one timed).
      std::vector<size_t> calls(nb);
      for (size_t b = 0; b < nb; b++) {
        mpb_ctx_set_backend(ctx, be[b].id);
        call(b);
        const double t0 = now();
        call(b);
        const double t = now() - t0;
        calls[b] = std::max<size_t>(1, (size_t)std::lround(slice_ms * 1e-3 / std::max(t, 1e-9)));
      }
      std::vector<std::vector<double>> rate(nb);  // per sweep
      std::vector<double> spent(nb, 0.0), items(nb, 0.0);
      for (size_t sweep = 0;; sweep++) {
        bool done = true;
        for (size_t b = 0; b < nb; b++) done = done && spent[b] >= secs;
        if (done && sweep >= 5) break;
        for (size_t k = 0; k < nb; k++) {
          const size_t b = (sweep + k) % nb;
          mpb_ctx_set_backend(ctx, be[b].id);
          const double t0 = now();
          for (size_t c = 0; c < calls[b]; c++) call(b);
          const double t = now() - t0;
          spent[b] += t;
          items[b] += (double)(calls[b] * count);
          rate[b].push_back((double)(calls[b] * count) / t);
        }
      }
      const size_t sweeps = rate[0].size();
      sweeps_min = std::min(sweeps_min, sweeps);
      std::vector<double> total(nb);  // the rate over all slices
      for (size_t b = 0; b < nb; b++) total[b] = items[b] / spent[b];
      size_t bi = 1;
      for (size_t b = 2; b < nb; b++)
        if (total[b] > total[bi]) bi = b;
      std::vector<double> ratios(sweeps);
      for (size_t s = 0; s < sweeps; s++) ratios[s] = rate[0][s] / rate[bi][s];
      const double ratio = total[0] / total[bi], q1 = quantile(ratios, 0.25), q3 = quantile(ratios, 0.75);

      std::vector<std::string> row = {std::to_string(bits), std::to_string(count), mpbench::fmt(total[0], 0), ran[0]};
      for (size_t b = 1; b < nb; b++) row.push_back(mpbench::fmt(total[b], 0));
      row.push_back(be[bi].name);
      row.push_back(ran[bi]);
      row.push_back(mpbench::fmt(ratio, 2));
      row.push_back(mpbench::fmt(q1, 2) + ".." + mpbench::fmt(q3, 2));
      rep.row(row);
      const bool miss = ratio < 0.90, is_wrong = miss && ran[0] != ran[bi];
      std::printf("%5d bits x %4zu: AUTO %10.0f/s (%s), best forced %10.0f/s (%s, ran %s), AUTO/best %.2f "
                  "(%.2f..%.2f, %zu sweeps)%s\n",
                  bits, count, total[0], ran[0].c_str(), total[bi], be[bi].name, ran[bi].c_str(), ratio, q1, q3, sweeps,
                  is_wrong ? "  WRONG CHOICE" : miss ? "  (same engine: noise)" : "");
      std::fflush(stdout);
      const std::string at = std::to_string(bits) + " bits x " + std::to_string(count);
      points++;
      if (!miss) within++;
      if (is_wrong) wrong++, wrong_at += (wrong_at.empty() ? "" : ", ") + at;
      if (ratio < worst) worst = ratio, worst_at = at;
    }
  }
  char buf[768];
  std::snprintf(buf, sizeof buf,
                "mpb_batch_powm, one shared odd modulus, full-width exponents, %s, %d thread%s; AUTO and each forced "
                "CPU backend on the same batch, taking turns in slices of ~%.1f ms, %.2f s per backend per point (at "
                "least %zu sweeps). Rates: items / time over all slices; AUTO / best: the ratio of those rates "
                "(beside it the quartiles of the per-sweep slice ratio). AUTO / best >= 0.90 at %zu of %zu points; worst %.2f at %s. Wrong "
                "choices (AUTO ran another engine than the best and AUTO / best < 0.90): %zu%s%s.",
                ct ? "constant time" : "variable time", threads, threads > 1 ? "s" : "", slice_ms, secs, sweeps_min,
                within, points, worst, worst_at.c_str(), wrong, wrong ? " at " : "", wrong_at.c_str());
  rep.note(buf);
  const char *mask = std::getenv("MPBATCH_CPU_DISABLE");
  rep.note(std::string("machine: ") + mpbench::machine() + "; command: " + (mask ? "MPBATCH_CPU_DISABLE=" : "") +
           (mask ? mask : "") + (mask ? " " : "") + "bench_auto --seconds " + mpbench::fmt(secs, 2) + " --slice-ms " +
           mpbench::fmt(slice_ms, 1) + (ct ? " --ct" : "") + " --threads " + std::to_string(threads) +
           join(" --bits ", want_bits) + join(" --items ", want_items));
  rep.finish();
  mpb_ctx_destroy(ctx);
  return 0;
}
