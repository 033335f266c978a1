// tune: measures size thresholds and cost-model constants on this machine and rewrites their
// lines in the library's tuning headers (value, machine, compiler, date, command and commit),
// leaving every other line as it is; --dry-run prints the new lines instead.
//
//   tune --int     integer multiplication / squaring: Comba vs schoolbook, Karatsuba cut-offs
//                  (cpu/mpn/tuning.h)
//   tune --batch   batch backend choices of AUTO (cpu/batch/tuning.h): the cost of one lane of the
//                  8-lane IFMA kernel relative to a scalar item, the modulus size from which the multipartite
//                  backend beats the scalar one for a lone item, and the work below which a
//                  batch runs on one thread (OpenMP fork/join cost vs the time of a product)
//
// Method (as GMP's tuneup): for each size n, time the dispatcher with the algorithm under test
// forced at the top level only (its recursive calls use the current lower thresholds) against
// the dispatcher without it; the threshold is the first n from which the new algorithm wins
// at that size and at two of the next three.  Minimum of several timed batches per point.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <omp.h>

#include <mpbatch/batch.h>

#include "common/report.h"
#include "tuning/tuning_file.h"
#include "core/cpu_features.h"
#include "mpn/mpn.h"
#include "mpn/mul/mul_internal.h"
#include "batch/tuning.h"
#include "mpn/tuning.h"

namespace mpn = mpb::mpn;
using limb = mpn::limb;

namespace {

inline void clobber(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

template <class F> double time_ns(F &&f, double work) {
  long iters = (long)(2e5 / work) + 10;
  double best = 1e300;
  for (int r = 0; r < 9; r++) {
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < iters; i++) f();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / (double)iters);
  }
  return best;
}

struct Ops {
  std::vector<limb> a, b, r, s;
  explicit Ops(size_t n) : a(n), b(n), r(2 * n), s(mpn::mul_n_itch(n) + mpn::sqr_itch(n) + 8) {
    std::mt19937_64 rng(n * 7919 + 1);
    for (auto &x : a) x = rng();
    for (auto &x : b) x = rng();
  }
};

// First n in [lo, hi] where `better(n)` holds at n and at two of n+1 .. n+3 (tolerates one
// noisy point on a shared machine); hi+1 if never.
int crossover(int lo, int hi, const std::function<bool(int)> &better, bool verbose, const char *what) {
  std::vector<int> win(hi + 5, 0);
  for (int n = lo; n <= hi + 3; n++) win[n] = better(n);
  for (int n = lo; n <= hi; n++)
    if (win[n] && win[n + 1] + win[n + 2] + win[n + 3] >= 2) return n;
  if (verbose) std::fprintf(stderr, "%s: no crossover in [%d, %d]\n", what, lo, hi);
  return hi + 1;
}

// ---- writing the tuning headers --------------------------------------------------------------
bool g_dry_run = false;

// "<machine>, <compiler>, <date>, <command> (<commit>)": the "where and when" of a measured line.
std::string measured_where(const std::string &cmd, const char *kernels) {
  std::string w = mpbench::machine();
  if (kernels) w += std::string(" (") + kernels + ")";
#if defined(__clang__)
  w += ", clang " + std::to_string(__clang_major__) + "." + std::to_string(__clang_minor__);
#elif defined(__GNUC__)
  w += ", gcc " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__);
#endif
  return w + ", " + mpbench::today() + ", " + cmd + " (" + mpbench::commit() + ")";
}

// Rewrites (or with --dry-run prints) the measured constants of one tuning header.
int write_constants(const char *rel, const std::map<std::string, mpbench::tuning_file::Update> &updates) {
  const std::string path = std::string(MPB_SOURCE_DIR) + "/" + rel;
  if (g_dry_run) {
    for (const auto &u : updates) std::printf("%s: %s = %s  | %s\n", rel, u.first.c_str(), u.second.value.c_str(),
                                              u.second.where.c_str());
    return 0;
  }
  std::string err;
  if (!mpbench::tuning_file::rewrite_file(path, updates, &err)) {
    std::fprintf(stderr, "tune: %s: %s\n", rel, err.c_str());
    return 1;
  }
  std::printf("tune: rewrote %zu constant(s) in %s\n", updates.size(), rel);
  return 0;
}

std::string fixed(double v, int decimals) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", decimals, v);
  return b;
}

// ---- --batch ---------------------------------------------------------------------------------
template <class F> double best_seconds(F &&f, int reps = 5) {
  double best = 1e300;
  for (int r = 0; r < reps; r++) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

void random_modulus(std::mt19937_64 &rng, std::vector<uint64_t> &m, size_t w) {
  m.assign(w, 0);
  for (auto &x : m) x = rng();
  m[0] |= 1;
  m[w - 1] |= 1ull << 63;
}

int tune_batch(const std::string &cmd, bool verbose) {
  mpb_ctx *ctx = nullptr;
  if (mpb_ctx_create(&ctx) != MPB_OK) return 1;
  std::mt19937_64 rng(2026);
  mpb_call_info info;

  // 1. the cost of one lane of the 8-lane IFMA kernel relative to a scalar item: a full group
  //    vs 8 scalar items, one thread, shared modulus, 512-bit exponents, at the widths of
  //    tuning::BATCH_IFMA_COST_LIMBS (AUTO's IFMA / scalar split, cpu/batch/ctx.cpp).
  //    Once in variable time, once in constant time (the scalar path's fixed windows and masked
  //    table scans cost it more than the lanes, whose schedule is the same in both modes).
  // The lane costs of the 8-lane engines where the CPU has them: AVX-512 IFMA (backend
  // CPU_IFMA, BATCH_IFMA_LANE_COST[_CT]), AVX-512F alone (CPU_AVX512, what AUTO uses on a CPU
  // without IFMA: BATCH_AVX512F_LANE_COST[_CT]) and AVX2 (CPU_AVX2, on a CPU without AVX-512:
  // BATCH_AVX2_LANE_COST[_CT]).
  struct Engine { int backend; const char *name, *table; std::vector<double> cost, cost_ct; };
  std::vector<Engine> engines = {{MPB_BACKEND_CPU_IFMA, "IFMA", "BATCH_IFMA_LANE_COST", {}, {}},
                                 {MPB_BACKEND_CPU_AVX512, "AVX-512F",
                                  mpb::cpu::is_amd() ? "BATCH_AVX512F_LANE_COST_AMD" : "BATCH_AVX512F_LANE_COST", {}, {}},
                                 {MPB_BACKEND_CPU_AVX2, "AVX2", "BATCH_AVX2_LANE_COST", {}, {}}};
  for (Engine &eng : engines) {
    if (!mpb_backend_available(eng.backend)) continue;
    // AUTO runs the AVX2 lanes only on CPUs without AVX-512 (AMD Zen 2/3, Intel before Skylake-SP),
    // whose costs differ from an AVX-512 CPU's with the wider engines masked: measure them there.
    if (eng.backend == MPB_BACKEND_CPU_AVX2 && mpb_backend_available(MPB_BACKEND_CPU_AVX512)) continue;
    mpb_ctx_set_threads(ctx, 1);
    for (int ct = 0; ct < 2; ct++) {
      mpb_ctx_set_constant_time(ctx, ct ? MPB_CT_ON : MPB_CT_OFF);
      for (size_t w : mpb::tuning::BATCH_IFMA_COST_LIMBS) {
        const size_t ew = 8;
        std::vector<uint64_t> m, base(8 * w), e(8 * ew), r(8 * w);
        random_modulus(rng, m, w);
        for (auto &x : base) x = rng();
        for (size_t i = 0; i < 8; i++) base[i * w + w - 1] >>= 1;
        for (auto &x : e) x = rng();
        auto run = [&](int backend) {
          mpb_ctx_set_backend(ctx, backend);
          return best_seconds([&] {
            if (mpb_batch_powm(ctx, r.data(), base.data(), e.data(), ew, 8, m.data(), 1, w, 8, &info) != MPB_OK)
              std::abort();
          });
        };
        double ts = run(MPB_BACKEND_CPU_SCALAR), ti = run(eng.backend);
        if (verbose)
          std::fprintf(stderr, "%zu limbs%s: 8 scalar %.0f us, one %s group %.0f us\n", w, ct ? " (constant time)" : "",
                       ts * 1e6, eng.name, ti * 1e6);
        // the tables are in scalar items of the MULX/ADX kernels: on a CPU without them the
        // scalar item measured here is the portable one, which AUTO scales by
        // BATCH_SCALAR_PORTABLE_SPEED, so the ratio is taken back to that unit
        const double unit = mpb::cpu::has_mulx_adx() ? 1.0 : mpb::tuning::batch_scalar_portable_speed(w);
        (ct ? eng.cost_ct : eng.cost).push_back(ti / ts / unit);
      }
    }
    mpb_ctx_set_constant_time(ctx, MPB_CT_DEFAULT);
  }

  // 2. one item, 256-bit exponent: scalar vs multipartite (all threads) from 2048 to 65536 bits.
  int mp_min = -1;
  mpb_ctx_set_threads(ctx, 0);
  for (size_t w : {32, 64, 128, 256, 384, 512, 1024}) {
    std::vector<uint64_t> m, base(w), e(4), r(w);
    random_modulus(rng, m, w);
    for (auto &x : base) x = rng();
    base[w - 1] >>= 1;
    for (auto &x : e) x = rng();
    auto run = [&](int backend) {
      mpb_ctx_set_backend(ctx, backend);
      return best_seconds([&] {
        if (mpb_batch_powm(ctx, r.data(), base.data(), e.data(), 4, 1, m.data(), 1, w, 1, &info) != MPB_OK)
          std::abort();
      }, 3);
    };
    double ts = run(MPB_BACKEND_CPU_SCALAR), tm = run(MPB_BACKEND_MULTIPARTITE);
    if (verbose) std::fprintf(stderr, "one item %zu bits: scalar %.0f us multipartite %.0f us\n", w * 64, ts * 1e6, tm * 1e6);
    if (tm < ts) {
      mp_min = (int)w;
      break;
    }
  }

  // 3. parallel-region cost vs the time of one 64x64-bit product (in a 16-limb product).
  double fork_ns = 1e300;
  for (int rep = 0; rep < 7; rep++) {
    const int iters = 2000;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; i++) {
#pragma omp parallel num_threads(2)
      { clobber(&i); }
    }
    fork_ns = std::min(fork_ns, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / iters);
  }
  Ops o(16);
  double prod_ns = time_ns([&] { mpn::mul_n(o.r.data(), o.a.data(), o.b.data(), 16, o.s.data()); clobber(o.r.data()); }, 256.0) / 256.0;
  // parallel only when one thread's share of the work takes at least 4x the fork/join cost
  double min_work = 8.0 * fork_ns / prod_ns;

  if (verbose)
    std::fprintf(stderr, "fork/join of a 2-thread region %.0f ns, one 64x64-bit product %.2f ns\n", fork_ns, prod_ns);
  const std::string where = measured_where(cmd, nullptr);
  std::map<std::string, mpbench::tuning_file::Update> up;
  up["BATCH_PARALLEL_MIN_WORK"] = {fixed(min_work, 1), where};
  if (mp_min > 0) up["BATCH_MULTIPARTITE_MIN_LIMBS"] = {std::to_string(mp_min), where};
  else std::fprintf(stderr, "tune: multipartite never beat the scalar path for one item up to 65536 bits: "
                            "BATCH_MULTIPARTITE_MIN_LIMBS left as it is (AUTO should not pick it)\n");
  for (const Engine &eng : engines) {
    if (eng.cost.empty()) {
      if (eng.backend == MPB_BACKEND_CPU_AVX2 && mpb_backend_available(MPB_BACKEND_CPU_AVX512))
        std::fprintf(stderr, "tune: this CPU has AVX-512: %s left as it is (measured on a CPU without it; "
                             "MPBATCH_CPU_DISABLE=avx512f makes this one such a CPU)\n", eng.table);
      else
        std::fprintf(stderr, "tune: no %s lanes on this CPU: %s left as it is\n", eng.name, eng.table);
      continue;
    }
    std::string v = "{", vc = "{", l = "{";
    for (size_t i = 0; i < eng.cost.size(); i++) {
      v += (i ? ", " : "") + fixed(eng.cost[i], 2);
      vc += (i ? ", " : "") + fixed(eng.cost_ct[i], 2);
      l += (i ? ", " : "") + std::to_string(mpb::tuning::BATCH_IFMA_COST_LIMBS[i]);
    }
    up[eng.table] = {v + "}", where};
    up[std::string(eng.table) + "_CT"] = {vc + "}", where};
    up["BATCH_IFMA_COST_LIMBS"] = {l + "}", where};
  }
  mpb_ctx_destroy(ctx);
  return write_constants("cpu/batch/tuning.h", up);
}

} // namespace

int main(int argc, char **argv) {
  bool do_int = false, do_batch = false, verbose = false;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--int")) do_int = true;
    else if (!std::strcmp(argv[i], "--batch")) do_batch = true;
    else if (!std::strcmp(argv[i], "-v")) verbose = true;
    else if (!std::strcmp(argv[i], "--portable")) mpb::cpu::force_portable(true);
    else if (!std::strcmp(argv[i], "--dry-run")) g_dry_run = true;
    else {
      std::fprintf(stderr, "usage: tune [--int] [--batch] [-v] [--portable] [--dry-run]\n");
      return 2;
    }
  }
  if (!do_int && !do_batch) {
    std::fprintf(stderr, "usage: tune [--int] [--batch] [-v] [--portable] [--dry-run]\n");
    return 2;
  }
  int status = 0;
  if (do_batch) {
    std::string bcmd = "tune";
    for (int i = 1; i < argc; i++) bcmd += std::string(" ") + argv[i];
    status |= tune_batch(bcmd, verbose);
  }
  if (!do_int) return status;
  auto &p = mpb::tuning::params();
  mpb::tuning::reset_params();
  const int BIG = 1 << 30;

  // 1. Comba vs schoolbook rows. With MULX/ADX the dispatcher takes its row kernels below
  //    Karatsuba (products up to 64 limbs, squares up to 32) whatever these limits say, so they
  //    steer the portable path only: measured with --portable (or without ADX), else kept.
  p.mul_karatsuba = p.sqr_karatsuba = BIG;
  const bool tune_comba = !mpn::kern::use_adx();
  auto comba_better = [&](int n, bool sqr) {
    Ops o(n);
    double tc, tb;
    if (sqr) {
      tc = time_ns([&] { mpn::sqr_comba(o.r.data(), o.a.data(), n); clobber(o.r.data()); }, (double)n * n / 2);
      tb = time_ns([&] { mpn::sqr_basecase(o.r.data(), o.a.data(), n); clobber(o.r.data()); }, (double)n * n / 2);
    } else {
      tc = time_ns([&] { mpn::mul_comba(o.r.data(), o.a.data(), o.b.data(), n); clobber(o.r.data()); }, (double)n * n);
      tb = time_ns([&] { mpn::mul_basecase(o.r.data(), o.a.data(), n, o.b.data(), n); clobber(o.r.data()); }, (double)n * n);
    }
    if (verbose) std::fprintf(stderr, "%s n=%d comba %.1f basecase %.1f\n", sqr ? "sqr" : "mul", n, tc, tb);
    return tc <= tb;
  };
  // comba_max = last n where Comba still wins (first n where basecase wins 4 times, minus 1)
  int mul_comba_max = p.mul_comba_max, sqr_comba_max = p.sqr_comba_max;
  if (tune_comba) {
    mul_comba_max = crossover(2, 40, [&](int n) { return !comba_better(n, false); }, verbose, "mul comba") - 1;
    sqr_comba_max = crossover(2, 40, [&](int n) { return !comba_better(n, true); }, verbose, "sqr comba") - 1;
    p.mul_comba_max = mul_comba_max;
    p.sqr_comba_max = sqr_comba_max;
  } else if (verbose) {
    std::fprintf(stderr, "MULX/ADX: the Comba limits steer only the portable path (tune --int --portable)\n");
  }

  // 2. Karatsuba at the top level vs the small-size dispatch.
  auto kara_better = [&](int n, bool sqr) {
    Ops o(n);
    int save = sqr ? p.sqr_karatsuba : p.mul_karatsuba;
    auto run = [&] {
      if (sqr) mpn::sqr(o.r.data(), o.a.data(), n, o.s.data());
      else mpn::mul_n(o.r.data(), o.a.data(), o.b.data(), n, o.s.data());
      clobber(o.r.data());
    };
    (sqr ? p.sqr_karatsuba : p.mul_karatsuba) = BIG;
    double t_small = time_ns(run, (double)n * n);
    // Karatsuba at the top only: halves (< n) go to the small-size code.
    (sqr ? p.sqr_karatsuba : p.mul_karatsuba) = n;
    double t_kara = time_ns(run, (double)n * n);
    (sqr ? p.sqr_karatsuba : p.mul_karatsuba) = save;
    if (verbose) std::fprintf(stderr, "%s n=%d small %.1f karatsuba %.1f\n", sqr ? "sqr" : "mul", n, t_small, t_kara);
    return t_kara < t_small;
  };
  // mul_n/sqr take the unrolled MULX/ADX kernels for n <= 8 before looking at the thresholds,
  // so with them the search starts above 8 (below, both timings would be the same code).
  int kara_lo = 4;
#ifdef MPB_HAVE_ADX_ASM
  if (mpn::kern::use_adx()) kara_lo = (int)mpn::kern::FIXED_ADX_MAX + 1;
#endif
  int mul_kara = crossover(kara_lo, 60, [&](int n) { return kara_better(n, false); }, verbose, "mul karatsuba");
  int sqr_kara = crossover(kara_lo, 60, [&](int n) { return kara_better(n, true); }, verbose, "sqr karatsuba");

  // 3. powm_ct's squaring (mpn::sqr_ct): its Karatsuba at the top vs the small kernels.
  auto kara_ct_better = [&](int n) {
    Ops o(n);
    auto run = [&] { mpn::sqr_ct(o.r.data(), o.a.data(), n, o.s.data()); clobber(o.r.data()); };
    p.sqr_karatsuba_ct = BIG;
    double t_small = time_ns(run, (double)n * n);
    p.sqr_karatsuba_ct = n;
    double t_kara = time_ns(run, (double)n * n);
    if (verbose) std::fprintf(stderr, "sqr_ct n=%d small %.1f karatsuba %.1f\n", n, t_small, t_kara);
    return t_kara < t_small;
  };
  int sqr_kara_ct = crossover(kara_lo, 80, kara_ct_better, verbose, "sqr_ct karatsuba");
  p.sqr_karatsuba_ct = sqr_kara_ct;

  std::string cmd = "tune";
  for (int i = 1; i < argc; i++) cmd += std::string(" ") + argv[i];
  const bool adx = !mpb::cpu::portable_forced() && mpb::cpu::has_mulx_adx();
  const std::string where = measured_where(cmd, adx ? "MULX/ADX kernels" : "portable C kernels");
  std::map<std::string, mpbench::tuning_file::Update> up;
  if (tune_comba) {
    up["MUL_COMBA_MAX"] = {std::to_string(mul_comba_max), where};
    up["SQR_COMBA_MAX"] = {std::to_string(sqr_comba_max), where};
  }
  up["MUL_KARATSUBA_CUTOFF"] = {std::to_string(mul_kara), where};
  up["SQR_KARATSUBA_CUTOFF"] = {std::to_string(sqr_kara), where};
  up["SQR_KARATSUBA_CT_CUTOFF"] = {std::to_string(sqr_kara_ct), where};
  return status | write_constants("cpu/mpn/tuning.h", up);
}
