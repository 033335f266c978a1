// cpu/batch/tuning.h: the batch layer's cost model (cpu/batch/cost_model.cpp) and AUTO's choices:
// threads per call, IFMA groups vs scalar items, multipartite for a lone huge modulus, and from
// which batch size the GPU is used. One line per constant: value | where and when it was
// measured. `build/bench/tune --batch` measures the BATCH_* cost constants again and rewrites
// their lines; the GPU_MIN_* lines are NOT MEASURED until bench/run_gpu.sh runs on a GPU
// (bench_gpu prints the crossovers). How each value was chosen: docs/TUNING.md.
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
constexpr size_t GPU_MIN_ITEMS_PER_CPU_THREAD_POWM = 64;  // AUTO: powm/DH on the GPU from this many items per CPU thread | NOT MEASURED: no GPU yet (estimate, 2026-11-21)
constexpr size_t GPU_MIN_ITEMS_PER_CPU_THREAD_RSA = 64;  // AUTO: RSA-CRT on the GPU from this many items per CPU thread | NOT MEASURED: no GPU yet (estimate, 2026-11-21)
constexpr size_t GPU_MIN_BATCH_EXP = 256;  // AUTO: exponentiations on the GPU from at least this many items | NOT MEASURED: no GPU yet (estimate, 2026-11-21)
constexpr size_t GPU_MIN_BATCH_MUL = (size_t)1 << 18;  // AUTO: integer products on the GPU from this many items | NOT MEASURED: no GPU yet (estimate, 2026-11-21)
constexpr size_t GPU_MIN_BATCH_GF2X_MUL = (size_t)1 << 18;  // AUTO: GF(2)[x] products on the GPU | NOT MEASURED: no GPU yet (estimate, 2026-11-21)
constexpr size_t GPU_MIN_BATCH_GF2X_SQR = (size_t)1 << 22;  // AUTO: GF(2)[x] squares on the GPU | NOT MEASURED: no GPU yet (estimate, 2026-11-21)
constexpr size_t GPU_MIN_BATCH_GF2X_MULMOD = (size_t)1 << 16;  // AUTO: GF(2)[x] products mod f on the GPU | NOT MEASURED: no GPU yet (estimate, 2026-11-21)
constexpr size_t GPU_MIN_BATCH_MODMUL = (size_t)1 << 16;  // AUTO: modmul on the one-thread kernel | NOT MEASURED: no GPU yet (estimate, 2026-11-21)
constexpr size_t GPU_MIN_BATCH_MODMUL_BLOCK = (size_t)1 << 12;  // AUTO: modmul on the multipartite block kernel | NOT MEASURED: no GPU yet (estimate, 2026-11-21)

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
