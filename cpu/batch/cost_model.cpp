// cpu/batch/cost_model.cpp: the batch layer's cost model (cpu/batch/cost_model.h): work
// estimates, threads per call, the dynamic-schedule grain and AUTO's IFMA / scalar split.
#include <algorithm>
#include <atomic>
#include <vector>

#include "batch/cost_model.h"
#include "batch/tuning.h"
#include "core/cpu_features.h"
#include "simd/powm_lanes.h"

namespace mpb {
namespace batch {

double work_mul(size_t n) { return (double)n * (double)n; }
double work_powm(size_t n, size_t ebits) {
  // ~ebits squarings + ebits/5 multiplications, each one n^2 product + n^2 for REDC
  return 2.4 * (double)ebits * (double)n * (double)n;
}

int threads_for(const Settings &s, size_t count, double work_per_item) {
  int t = s.threads;
  if ((size_t)t > count) t = (int)(count ? count : 1);
  if (t > 1 && (double)count * work_per_item < tuning::BATCH_PARALLEL_MIN_WORK) t = 1;
  return t < 1 ? 1 : t;
}

namespace {
// Estimated wall time, in scalar-item units, of `groups` tasks of cost c (the last one of cost
// `last`) then `scalar` tasks of cost 1 handed to the least loaded of T threads.
double split_time(size_t groups, size_t scalar, double c, double last, int T) {
  if (T < 1) T = 1;
  const size_t tasks = groups + scalar;
  if (tasks > (size_t)64 * (size_t)T)  // balanced
    return ((double)groups * c + (groups ? last - c : 0.0) + (double)scalar) / T + c;
  std::vector<double> load((size_t)T, 0.0);
  for (size_t t = 0; t < tasks; t++) {
    auto it = std::min_element(load.begin(), load.end());
    *it += t + 1 < groups ? c : t + 1 == groups ? last : 1.0;
  }
  return *std::max_element(load.begin(), load.end());
}
} // namespace

double lane_cost(LaneIsa isa, size_t limbs, bool constant_time) {
  return isa == LaneIsa::Ifma      ? tuning::batch_ifma_lane_cost(limbs, constant_time)
         : isa == LaneIsa::Avx512f ? tuning::batch_avx512f_lane_cost(limbs, constant_time, cpu::is_amd())
                                   : tuning::batch_avx2_lane_cost(limbs, constant_time);
}

double pow2_scalar_speedup(size_t ebits) {
  return tuning::BATCH_POW2_SPEEDUP_A + tuning::BATCH_POW2_SPEEDUP_B / (double)(ebits ? ebits : 1);
}

IfmaSplit ifma_split(const Settings &s, size_t count, size_t limbs, double work_per_item, bool forced,
                     bool constant_time, LaneIsa isa, bool halves, double scalar_speedup, double *est) {
  IfmaSplit r;
  if (est) *est = 0.0;
  if (forced) {
    r.use = true, r.full = count / 8, r.last = count % 8;
    return r;
  }
  if (const long o = testing::split_override.load(std::memory_order_relaxed); o >= 0) {
    const long g = testing::split_size_override.load(std::memory_order_relaxed);
    r.use = true, r.size = g >= 1 && g <= 8 ? (size_t)g : 8;
    r.full = count / r.size, r.last = std::min((size_t)o, count % r.size);
    return r;
  }
  // The lane costs are in scalar exponentiations of the MULX/ADX kernels; without them the
  // scalar path is the portable C one, slower (a CPU with AVX2 but no ADX, e.g. Haswell: before
  // this factor AUTO kept two 1024-bit items scalar at 0.68x the AVX2 lanes' rate).
  if (!cpu::has_mulx_adx()) scalar_speedup *= tuning::batch_scalar_portable_speed(limbs);
  const double c = 8.0 * lane_cost(isa, limbs, constant_time) * scalar_speedup;
  // A group of k items: its exponentiations (two per item with halves) packed from lane 0 into
  // runs of W lanes, each run costing W lanes whether they are used or not (AVX2: a group's
  // two runs of 4, an unused one skipped), so c (8 items) is 8 * per lanes' worth.
  const size_t W = isa == LaneIsa::Avx2 ? 4 : 8, per = halves ? 2 : 1;
  const size_t u = W / per;  // items per run: the smaller group sizes are multiples of it
  auto runs = [&](size_t k) { return (k * per + W - 1) / W; };
  // the IFMA engine runs up to `few` exponentiations as pairs on its few-lane path instead
  const size_t few = isa == LaneIsa::Ifma ? simd::ifma_single_max_exps(limbs) : 0;
  const double pair = tuning::batch_ifma_pair_cost(limbs, constant_time) * scalar_speedup / (double)per;
  auto group_cost = [&](size_t k) {
    if (k * per <= few && pair > 0.0) return (double)((k * per + 1) / 2) * pair;
    return (double)(runs(k) * W) * c / (double)(8 * per);
  };
  auto time_of = [&](size_t groups, size_t scalar, double each, double last) {
    const int T = threads_for(s, groups + scalar, work_per_item * (groups ? 8.0 : 1.0));
    return split_time(groups, scalar, each, last, T);
  };
  // More lanes only when clearly faster (tuning::BATCH_IFMA_MARGIN). In this order, each taken
  // when it beats the best so far by the margin: all scalar; then for groups of g = 8 items, and
  // of fewer (multiples of u: whole runs; fewer groups than threads leave threads idle, smaller
  // groups spread the runs over them), the full groups with the rest scalar and a last group of
  // the first j of the rest (the others scalar). Of two last groups of the same size g with as
  // many runs, the one with more items is taken when it is no slower.
  double best = time_of(0, count, c, c);
  for (size_t g = 8; g >= u; g -= u) {
    const size_t full = count / g, rem = count % g;
    const double each = group_cost(g);
    if (full > 0) {
      const double t = time_of(full, rem, each, each);
      if (t < tuning::BATCH_IFMA_MARGIN * best) best = t, r.use = true, r.size = g, r.full = full, r.last = 0;
    }
    for (size_t j = 1; j <= rem; j++) {
      const double t = time_of(full + 1, rem - j, each, group_cost(j));
      if (t < tuning::BATCH_IFMA_MARGIN * best || (r.size == g && r.last && runs(j) == runs(r.last) && t <= best))
        best = t, r.use = true, r.size = g, r.full = full, r.last = j;
    }
  }
  if (est) *est = best;
  return r;
}

size_t auto_lane_isas(LaneIsa best, bool avx2, size_t exps, LaneIsa out[2]) {
  out[0] = best;
  if (best != LaneIsa::Avx512f || !avx2 || exps > 4) return 1;
  out[1] = LaneIsa::Avx2;
  return 2;
}

LaneSplit best_lane_split(const Settings &s, size_t count, size_t limbs, double work_per_item, bool constant_time,
                          const LaneIsa *isas, size_t n, bool halves, double scalar_speedup) {
  LaneSplit r;
  double best = 0.0;
  for (size_t i = 0; i < n; i++) {
    double t = 0.0;
    const IfmaSplit sp = ifma_split(s, count, limbs, work_per_item, false, constant_time, isas[i], halves,
                                    scalar_speedup, &t);
    if (i == 0 || (sp.use && t < tuning::BATCH_IFMA_MARGIN * best)) r.split = sp, r.isa = isas[i], best = t;
  }
  return r;
}

namespace testing {
std::atomic<long> split_override{-1};
std::atomic<long> split_size_override{8};
} // namespace testing

int grain_for(double work_per_item) {
  double g = tuning::BATCH_GRAIN_WORK / (work_per_item > 1.0 ? work_per_item : 1.0);
  return g < 1.0 ? 1 : g > 65536.0 ? 65536 : (int)g;
}

} // namespace batch
} // namespace mpb
