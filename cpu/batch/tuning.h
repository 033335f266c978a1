// cpu/batch/tuning.h: the batch layer's cost model and AUTO thresholds (CPU backends, and when the GPU is used).
// Each constant says where and when it was measured; `build/bench/tune` measures them again.
#pragma once
#include <cstddef>

namespace mpb {
namespace tuning {

/* ---- when AUTO uses the CUDA backend (cpu/batch/gpu.cpp; kernels: cuda/tuning.h) ---------------
 * NOT MEASURED YET: no GPU was available when these were set (2026-11-21, AMD EPYC 2-vCPU
 * host, nvcc 13.0). They are estimates (a GPU exponentiation thread needs milliseconds, so
 * small batches stay on the CPU) until bench/run_gpu.sh runs on an H100/H200 and replaces
 * them with measured crossovers. AUTO sends a batch to the GPU only from these sizes.
 * Kernels exist for 512..8192-bit moduli (powm, DH), RSA-1024..RSA-8192 (CRT) and 256..1024-bit
 * products; other sizes run on the CPU. Window widths: 4 bits below 1024-bit moduli, else 5
 * (cuda/kernels/generic_kernels.cuh). Block size: 128 threads, persistent grid (occupancy). */
/* Exponentiations (powm, DH, RSA-CRT): the GPU's time for a small batch is about the latency
 * of one item on one group of threads, and the CPU's is count x (time per item) / threads, so
 * the crossover batch grows with the CPU threads the context may use: AUTO sends the batch to
 * the GPU from GPU_MIN_ITEMS_PER_CPU_THREAD x threads items (and at least GPU_MIN_BATCH_EXP).
 * bench_gpu prints the measured crossover batch and this per-thread figure. */
constexpr size_t GPU_MIN_ITEMS_PER_CPU_THREAD_POWM = 64;
constexpr size_t GPU_MIN_ITEMS_PER_CPU_THREAD_RSA = 64;
constexpr size_t GPU_MIN_BATCH_EXP = 256;
constexpr size_t GPU_MIN_BATCH_MUL = (size_t)1 << 18;
/* GF(2)[x]: AUTO thresholds (see cuda/tuning.h for the kernels). */
constexpr size_t GPU_MIN_BATCH_GF2X_MUL = (size_t)1 << 18;
constexpr size_t GPU_MIN_BATCH_GF2X_SQR = (size_t)1 << 22;
constexpr size_t GPU_MIN_BATCH_GF2X_MULMOD = (size_t)1 << 16;
/* Batch modmul: AUTO thresholds (see cuda/tuning.h for the kernels). */
constexpr size_t GPU_MIN_BATCH_MODMUL = (size_t)1 << 16;       /* one-thread kernel */
constexpr size_t GPU_MIN_BATCH_MODMUL_BLOCK = (size_t)1 << 12; /* block kernel */
/* CPU batch backend (cpu/batch/ctx.cpp). Work is counted in 64x64-bit limb products.
 * `bench/tune --batch` measures the three AUTO choices below (2026-11-21, AMD EPYC 2 vCPU,
 * commit 6d65a35): fork/join of a 2-thread region 600 ns, one product 0.49 ns, so
 * BATCH_PARALLEL_MIN_WORK = 8 x fork/join = ~9,800 products (two runs: 9842, 9483; a
 * batch below it runs on one thread); one item with a 256-bit exponent: multipartite
 * 13.6 ms vs scalar 15.2 ms at 16384 bits, slower below (MIN_LIMBS 256); partial IFMA
 * group from 3 items (k = 3: 653 us vs 909 us scalar). */
constexpr double BATCH_PARALLEL_MIN_WORK = 10000.0;
/* Dynamic-schedule grain of the batch modmul item loop: a thread takes about this much work
 * (in products, ~10 us here) per grab, so a preempted thread delays the call by at most one grain
 * instead of its whole static share. Set 2026-11-21 (AMD EPYC 2 vCPU, shared, load 2-6): the
 * pipelined Python list path (C calls overlapped with conversions on the same 2 cores) went from
 * 1.52x to 1.38x the C API time with it; the C API call itself was unchanged within the noise
 * (one grab costs one atomic add, ~0.2% at 2048 bits). */
constexpr double BATCH_GRAIN_WORK = 20000.0;
/* AUTO picks the multipartite backend (each modular multiplication parallelised inside)
 * for powm/modmul when count < threads and the modulus has at least this many limbs.
 * Measured 2026-11-21 (2-core Zen 4, /tmp/mp_auto-style run: one powm, 256-bit exponent):
 * scalar Montgomery 248 us / 879 us / 3.2 ms / 16.6 ms at 2048/4096/8192/16384 bits, i.e.
 * 0.65 / 2.3 / 8.3 / 43 us per multiplication, against 1.35 / 2.9 / 8.7 / 26.7 us for the
 * 2-thread bipartite multiplication (bench/results/multipartite-2threads-2026-11-21.md):
 * the partite path only wins from 16384 bits. */
constexpr int BATCH_MULTIPARTITE_MIN_LIMBS = 256;
/* AUTO sends exponentiation groups of 8 items to the AVX-512 IFMA kernel for widths in
 * [BATCH_IFMA_MIN_LIMBS, BATCH_IFMA_MAX_LIMBS]. A group costs 8 lanes whether or not all of them
 * hold an item, and one group runs on one thread, so whether a partial group (or the IFMA
 * kernel at all) pays depends on the thread count: AUTO estimates the wall time of each split
 * (scalar items and groups, greedily over the threads) with the cost of one lane relative to a
 * scalar item below (cpu/batch/ctx.cpp, ifma_split) and takes the fastest.
 * Measured 2026-11-21 with `build/bench/tune --batch -v` (AMD EPYC 2 vCPU, commit 8fe6ce5+dirty;
 * one group of 8 vs 8 scalar items, one thread, shared modulus, 512-bit exponents): IFMA lane /
 * scalar item = 0.52 0.31 0.32 0.35 0.28 0.31 0.35 0.38 0.36 0.36 0.40 at 2 4 6 8 16 32 64 96
 * 128 192 256 limbs (an earlier run over 64 items, full exponents, CPU time: 0.36 0.28 0.32
 * 0.35 0.24 0.30 0.36 0.39 0.37 0.42 0.40). Before the thread count entered the choice (a
 * fixed "3 items make a group" rule), AUTO ran 0.72-0.89x the scalar rate for 3 items on 2
 * threads (bench/results/auto-cpu-before-2026-11-21.md; after: auto-cpu-2026-11-21.md). */
constexpr int BATCH_IFMA_MIN_LIMBS = 1;
constexpr int BATCH_IFMA_MAX_LIMBS = 256;
constexpr size_t BATCH_IFMA_COST_LIMBS[] = {2, 4, 6, 8, 16, 32, 64, 96, 128, 192, 256};
constexpr double BATCH_IFMA_LANE_COST[] = {0.52, 0.31, 0.32, 0.35, 0.28, 0.31, 0.35, 0.38, 0.36, 0.36, 0.40};
/* A split with more IFMA groups is taken only when its estimate is below this fraction of the
 * estimate with fewer (hysteresis against timing noise near ties). */
constexpr double BATCH_IFMA_MARGIN = 0.97;
/* The lane cost at `limbs`: linear between the measured widths (the end values outside). */
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
/* A shared even modulus m = 2^s * q (cpu/batch/powm.cpp) is processed in chunks of this many
 * items (reduce the bases mod q, the odd-modulus engine on q, then mod 2^s and the CRT), which
 * caps the temporary residue block at 2 x chunk x limbs(q). A memory bound, NOT MEASURED as a
 * speed threshold: a multiple of 8 (whole IFMA groups) large enough that the per-chunk
 * start of the odd engine's parallel loop is negligible (the base reduction, the power mod 2^s
 * and the CRT run as per-task hooks inside that loop). */
constexpr int BATCH_EVEN_SPLIT_CHUNK = 4096;

} // namespace tuning
} // namespace mpb
