// cpu/batch/tuning.h: the batch layer's cost model (cpu/batch/cost_model.cpp) and AUTO's choices:
// threads per call, IFMA groups vs scalar items, multipartite for a lone huge modulus, and from
// which batch size the GPU is used. One line per constant: value | where and when it was
// measured. `build/bench/tune --batch` measures the BATCH_* cost constants again and rewrites
// their lines; the GPU_* lines come from bench/run_gpu.sh on a GPU (bench/gpu_fit.py fits them
// to its JSON). How each value was chosen: docs/TUNING.md.
#pragma once
#include <cstddef>

namespace mpb {
namespace tuning {

constexpr double BATCH_PARALLEL_MIN_WORK = 10000.0;  // a batch of less work (64x64 products) runs on one thread | AMD EPYC Zen 4 2 vCPU, 2026-11-21, tune --batch (6d65a35): 8 x fork/join 600 ns / 0.49 ns per product
constexpr double BATCH_GRAIN_WORK = 20000.0;  // work per dynamic-schedule grab (~10 us) | AMD EPYC Zen 4 2 vCPU, 2026-11-21, pipelined Python list path 1.52x -> 1.38x the C API time (python_overhead)
constexpr int BATCH_MULTIPARTITE_MIN_LIMBS = 256;  // AUTO: multipartite from this modulus size when count < threads | AMD EPYC Zen 4 2 threads, 2026-11-21, tune --batch (6d65a35): one item 16384 bits 13.6 ms vs scalar 15.2 ms
constexpr int BATCH_IFMA_MIN_LIMBS = 1;  // AUTO: IFMA groups from this width | the kernel's range (1..256 limbs), not a measured crossover
constexpr int BATCH_IFMA_MAX_LIMBS = 256;  // AUTO: IFMA groups up to this width | the kernel's range (1..256 limbs), not a measured crossover
constexpr size_t BATCH_IFMA_COST_LIMBS[] = {2, 4, 6, 8, 16, 32, 64, 96, 128, 192, 256};  // widths of the lane-cost table | AMD EPYC Zen 4 2 vCPU, 2026-11-21, tune --batch -v (8fe6ce5+dirty)
constexpr double BATCH_IFMA_LANE_COST[] = {0.52, 0.31, 0.32, 0.35, 0.28, 0.31, 0.35, 0.38, 0.36, 0.36, 0.40};  // one IFMA lane / one scalar item, one thread | AMD EPYC Zen 4 2 vCPU, 2026-11-21, tune --batch -v (8fe6ce5+dirty)
constexpr double BATCH_IFMA_MARGIN = 0.97;  // more IFMA groups only below this fraction of the estimate with fewer | hysteresis, set 2026-11-21 with bench_auto (bench/results/auto-cpu-2026-11-21.md)
constexpr int BATCH_EVEN_SPLIT_CHUNK = 4096;  // items per chunk of a shared even modulus (caps the residue block) | a memory bound, NOT MEASURED as a speed threshold
// AUTO's GPU model (how it was fitted: docs/TUNING.md): on a batch of b items the GPU does about
// R * b / (b + half) items/s (R its plateau, `half` the batch at which it reaches half of it), T CPU
// threads T * r. AUTO takes the GPU when T < ratio = R / r and b >= half * T / (ratio - T), and
// b >= GPU_MIN_BATCH (the model flatters the GPU on a handful of items: its latency floor).
// Fitted by bench/gpu_fit.py to one run: NVIDIA H200 beside its 16-thread host CPU (r is one of
// those threads), 2026-11-26, bench_gpu at 72e2709 (bench/results/gpu-2026-11-26-72e2709.json).
// A faster CPU thread lowers `ratio` (the GPU then needs larger batches), so on other machines
// these are estimates; `limbs`: modulus (RSA: n) or operand width; other widths take the nearest.
struct GpuFit {
  size_t limbs;
  double ratio;  // GPU plateau / one CPU thread's rate (< 1: the GPU never pays)
  double half;   // batch at half the GPU's plateau
};
constexpr size_t GPU_MIN_BATCH = 32;  // AUTO: never the GPU below this many items | H200 2026-11-26: 16 items of 2048-bit powm took 15 ms there, one CPU thread 11 ms
constexpr GpuFit GPU_FIT_POWM[] = {{8, 62.0, 5400}, {16, 62.07, 5449}, {32, 113.70, 1698}, {64, 81.43, 494}, {128, 80.0, 500}};  // odd moduli, variable time | H200 2026-11-26 (72e2709): 1024 (tpi 4), 2048 (tpi 8), 4096 (tpi 16); 512 and 8192 NOT MEASURED (copies of 1024 / 4096)
constexpr GpuFit GPU_FIT_POWM_CT[] = {{8, 61.0, 4900}, {16, 61.22, 4854}, {32, 103.20, 2114}, {64, 88.35, 549}, {128, 80.0, 550}};  // odd moduli, constant time | H200 2026-11-26 (72e2709): 1024, 2048, 4096; 512 and 8192 NOT MEASURED (copies of 1024 / 4096)
constexpr GpuFit GPU_FIT_POWM_EVEN[] = {{8, 44.0, 5200}, {16, 44.50, 5148}, {32, 67.63, 1585}, {64, 40.0, 800}, {128, 40.0, 800}};  // even moduli (Barrett kernels) | H200 2026-11-26 (72e2709): 1024 (tpi 4), 2048 (tpi 8); 512, 4096 and 8192 NOT MEASURED (the sweep stopped at batch 1 at 4096: estimates, half the odd ratio)
constexpr GpuFit GPU_FIT_RSA[] = {{16, 86.30, 12465}, {32, 86.31, 3715}, {64, 127.26, 2034}, {128, 120.0, 2000}};  // RSA-CRT by modulus width | H200 2026-11-26 (72e2709): RSA-1024 (tpi 1), 2048 (tpi 4), 4096 (tpi 8); RSA-8192 NOT MEASURED (copy of 4096)
constexpr GpuFit GPU_FIT_MODMUL[] = {{4, 2.45, 9341}, {8, 2.55, 3585}, {16, 2.88, 2755}, {32, 3.95, 1128}, {64, 4.73, 798}, {128, 8.29, 391}};  // shared odd modulus; one-thread kernel <= 16 limbs, multipartite block kernel above | H200 2026-11-26 (72e2709)
constexpr GpuFit GPU_FIT_MUL[] = {{4, 0.0, 0}, {8, 0.0, 0}, {16, 0.0, 0}};  // integer products: never | NOT MEASURED against the CPU (no CPU row in that run): the GPU's 1.30-5.96M/s at 1024..256 bits is below one CPU thread's Comba rate, as for GF(2)[x] products
constexpr GpuFit GPU_FIT_GF2X_MUL[] = {{3, 0.14, 10883}, {4, 0.13, 7805}, {9, 0.16, 9658}, {16, 0.30, 7999}};  // GF(2)[x] products: never (one PCLMUL thread does more) | H200 2026-11-26 (72e2709)
constexpr GpuFit GPU_FIT_GF2X_SQR[] = {{4, 0.16, 24013}, {9, 0.18, 4955}};  // GF(2)[x] squares: never | H200 2026-11-26 (72e2709)
constexpr GpuFit GPU_FIT_GF2X_MULMOD[] = {{3, 15.07, 21828}, {4, 16.04, 10918}, {5, 19.04, 19114}, {7, 20.74, 13377}, {9, 23.69, 5983}};  // products mod the NIST trinomials / pentanomials B-163 .. B-571 | H200 2026-11-26 (72e2709)

// The fit for `limbs` (the nearest width of the table), and AUTO's choice with it.
template <size_t N>
constexpr const GpuFit &gpu_fit(const GpuFit (&t)[N], size_t limbs) {
  size_t best = 0;
  for (size_t i = 1; i < N; i++) {
    const size_t d = t[i].limbs > limbs ? t[i].limbs - limbs : limbs - t[i].limbs;
    const size_t db = t[best].limbs > limbs ? t[best].limbs - limbs : limbs - t[best].limbs;
    if (d < db) best = i;
  }
  return t[best];
}
// The smallest batch at which the GPU beats `threads` CPU threads (SIZE_MAX: never).
constexpr size_t gpu_min_batch(const GpuFit &f, int threads) {
  const double T = threads < 1 ? 1.0 : (double)threads;
  if (f.ratio <= T) return (size_t)-1;
  const double b = f.half * T / (f.ratio - T);
  return b < (double)GPU_MIN_BATCH ? GPU_MIN_BATCH : (size_t)b + 1;
}

// The lane cost at `limbs`: linear between the measured widths (the end values outside).
constexpr double batch_ifma_lane_cost(size_t limbs) {
  constexpr size_t n = sizeof BATCH_IFMA_COST_LIMBS / sizeof BATCH_IFMA_COST_LIMBS[0];
  if (limbs <= BATCH_IFMA_COST_LIMBS[0]) return BATCH_IFMA_LANE_COST[0];
  for (size_t i = 1; i < n; i++)
    if (limbs <= BATCH_IFMA_COST_LIMBS[i]) {
      const double f = (double)(limbs - BATCH_IFMA_COST_LIMBS[i - 1]) /
                       (double)(BATCH_IFMA_COST_LIMBS[i] - BATCH_IFMA_COST_LIMBS[i - 1]);
      return BATCH_IFMA_LANE_COST[i - 1] + f * (BATCH_IFMA_LANE_COST[i] - BATCH_IFMA_LANE_COST[i - 1]);
    }
  return BATCH_IFMA_LANE_COST[n - 1];
}
static_assert(sizeof BATCH_IFMA_COST_LIMBS / sizeof BATCH_IFMA_COST_LIMBS[0] ==
                  sizeof BATCH_IFMA_LANE_COST / sizeof BATCH_IFMA_LANE_COST[0],
              "one lane cost per width");

} // namespace tuning
} // namespace mpb
