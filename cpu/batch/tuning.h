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

constexpr double BATCH_PARALLEL_MIN_WORK = 14223.5;  // a batch of less work (64x64 products) runs on one thread | Intel(R) Xeon(R) Processor, 2 logical cores, gcc 12.2, 2026-11-26, tune --batch -v (f5bf858)
constexpr double BATCH_GRAIN_WORK = 20000.0;  // work per dynamic-schedule grab (~10 us) | AMD EPYC Zen 4 2 vCPU, 2026-11-21, pipelined Python list path 1.52x -> 1.38x the C API time (python_overhead)
constexpr int BATCH_MULTIPARTITE_MIN_LIMBS = 256;  // AUTO: multipartite from this modulus size when count < threads | Intel(R) Xeon(R) Processor, 2 logical cores, gcc 12.2, 2026-11-26, tune --batch -v (f5bf858)
constexpr int BATCH_IFMA_MIN_LIMBS = 1;  // AUTO: IFMA groups from this width | the kernel's range (1..256 limbs), not a measured crossover
constexpr int BATCH_IFMA_MAX_LIMBS = 256;  // AUTO: IFMA groups up to this width | the kernel's range (1..256 limbs), not a measured crossover
constexpr size_t BATCH_IFMA_COST_LIMBS[] = {2, 4, 6, 8, 16, 32, 64, 96, 128, 192, 256};  // widths of the lane-cost table | AMD EPYC, 2 logical cores, gcc 12.2, 2026-11-28, tune --batch -v (996fd8f)
constexpr double BATCH_IFMA_LANE_COST[] = {0.50, 0.50, 0.30, 0.30, 0.16, 0.17, 0.18, 0.19, 0.19, 0.19, 0.19};  // one IFMA lane / one scalar item, one thread | AMD EPYC, 2 logical cores, gcc 12.2, 2026-11-28, tune --batch -v (996fd8f)
constexpr double BATCH_IFMA_LANE_COST_CT[] = {0.31, 0.26, 0.18, 0.19, 0.12, 0.14, 0.15, 0.16, 0.16, 0.16, 0.16};  // the same in constant time (fixed windows, masked table scans on both paths) | AMD EPYC, 2 logical cores, gcc 12.2, 2026-11-28, tune --batch -v (996fd8f)
constexpr double BATCH_IFMA_PAIR_COST[] = {1.20, 0.64, 0.52, 0.56, 0.55};  // the IFMA engine's few-lane path (cpu/simd/lanes_impl.h ifma_single_max_pairs): one pair of exponentiations / one scalar exponentiation, at 16, 24, 32, 48, 64 limbs (N = 20, 30, 40, 60, 79), variable time | AMD EPYC Zen 5, 2 logical cores, gcc 12.2, 2026-11-29, bench_auto --bits 1024,2048,3072,4096 --items 1,2 and the RSA-3072 1-item rate against the scalar backend's (MPB_CT_OFF); 16 limbs 2026-11-30 after the 16-limb block kernels (7e91988), bench_auto 1024 bits x 1 item: scalar 6,158/s, IFMA 5,112/s
constexpr double BATCH_IFMA_PAIR_COST_CT[] = {1.11, 0.57, 0.45, 0.48, 0.47};  // the same in constant time | AMD EPYC Zen 5, 2 logical cores, gcc 12.2, 2026-11-29, bench_auto --ct --bits 1024,2048,3072,4096 --items 1,2 and RSA-3072/4096 1-item rates against the scalar backend's; 16 limbs 2026-11-30 (7e91988), bench_auto --ct 1024 bits x 1 item: scalar 5,618/s, IFMA 5,041/s
constexpr double BATCH_AVX512F_LANE_COST[] = {0.53, 0.72, 0.63, 0.86, 0.82, 0.87, 0.90, 0.99, 0.98, 1.11, 1.12};  // one AVX-512F lane (no IFMA: 26..28-bit digits, VPMULUDQ) / one scalar item, one thread, at BATCH_IFMA_COST_LIMBS | Intel(R) Xeon(R) Processor, 2 logical cores, gcc 12.2, 2026-11-26, tune --batch -v (f5bf858)
constexpr double BATCH_AVX512F_LANE_COST_CT[] = {0.44, 0.57, 0.52, 0.67, 0.77, 0.74, 0.78, 0.84, 0.79, 0.79, 0.87};  // the same in constant time | Intel(R) Xeon(R) Processor, 2 logical cores, gcc 12.2, 2026-11-26, tune --batch -v (f5bf858)
constexpr double BATCH_AVX512F_LANE_COST_AMD[] = {0.56, 0.72, 0.57, 0.63, 0.52, 0.49, 0.48, 0.47, 0.49, 0.58, 0.61};  // the same on an AMD CPU (cpu::is_amd(); IFMA masked: every AMD CPU with AVX-512 has IFMA) | AMD EPYC Zen 5, 2 logical cores, gcc 12.2, 2026-11-30, median of 5 MPBATCH_CPU_DISABLE=avx512ifma tune --batch --dry-run (7059941), after the scalar path's gains since f33df32 (2026-11-29)
constexpr double BATCH_AVX512F_LANE_COST_AMD_CT[] = {0.35, 0.38, 0.39, 0.47, 0.51, 0.45, 0.42, 0.41, 0.43, 0.51, 0.52};  // the same in constant time | AMD EPYC Zen 5, 2 logical cores, gcc 12.2, 2026-11-30, as above (7059941); with f33df32's 0.35 at 16 limbs AUTO ran 3 items of 1024 bits as one 8-lane group at 0.75 of the scalar path (bench_auto, bench/results/cpu-2026-11-30c-zen5/)
constexpr double BATCH_AVX2_LANE_COST[] = {0.78, 1.03, 0.86, 0.93, 0.87, 0.87, 0.90, 0.86, 0.89, 0.90, 0.94};  // one AVX2 lane (two 4-lane runs per group of 8, 26..28-bit digits) / one scalar item, one thread, at BATCH_IFMA_COST_LIMBS | AMD EPYC Zen 5 (family 26 model 2) with AVX-512 masked (MPBATCH_CPU_DISABLE=avx512ifma,avx512f), 2 logical cores, gcc 12.2, 2026-11-30, median of 5 tune --batch --dry-run (7059941), matching bench_auto's full groups there; the Zen 3 values of 2026-11-27 (c124639) predate the scalar kernels' gains since (block kernels, REDC quotients by pairs, the selections inside the kernels: ~1.25x at 16 limbs)
constexpr double BATCH_AVX2_LANE_COST_CT[] = {0.48, 0.58, 0.59, 0.69, 0.85, 0.78, 0.77, 0.76, 0.77, 0.77, 0.81};  // the same in constant time | AMD EPYC Zen 5 with AVX-512 masked, as above, 2026-11-30 (7059941); with the Zen 3 values (0.67 at 16 limbs) AUTO ran 3 items of 1024 bits on the AVX2 lanes at 0.89 of the scalar path (bench_auto, bench/results/cpu-2026-11-30c-zen5/)
constexpr double BATCH_SCALAR_PORTABLE_SPEED[] = {0.88, 0.88, 0.84, 0.79, 0.50, 0.60, 0.67, 0.67, 0.67, 0.67, 0.67};  // the scalar path's speed without MULX/ADX (the portable C kernels) / with them, per BATCH_IFMA_COST_LIMBS width, constant time (2 limbs: 4's; 6: between 4 and 8; past 64: the 64-limb value; 48 limbs measured 0.59) | AMD EPYC Zen 5, 2 logical cores, gcc 12.2, 2026-11-29, bench_auto --ct --items 1 scalar rates with MPBATCH_CPU_DISABLE=adx,avx512f against none (3c3cc83)
constexpr double BATCH_POW2_SPEEDUP_A = 1.12;  // scalar 2^e (powm2_ct) over powm_ct with base 2: A + B / exponent bits | AMD EPYC Zen 3 (family 25 model 1), gcc 12.2, 2026-11-27, TSC cycles, one process: 1.32 at 32 limbs / 225 bits, 1.31 at 48 / 275, 1.31 at 64 / 325, 1.14 at 32 / 2048
constexpr double BATCH_POW2_SPEEDUP_B = 45.0;  // (the table and lookups powm2_ct saves, per exponent, in units of its per-bit cost) | fitted with BATCH_POW2_SPEEDUP_A to the same four points
constexpr double BATCH_IFMA_MARGIN = 0.97;  // more IFMA groups only below this fraction of the estimate with fewer | hysteresis, set 2026-11-21 with bench_auto (bench/results/auto-cpu-2026-11-21.md)
constexpr int BATCH_EVEN_SPLIT_CHUNK = 4096;  // items per chunk of a shared even modulus (caps the residue block) | a memory bound, NOT MEASURED as a speed threshold
// AUTO's GPU model (how it was fitted: docs/TUNING.md): on a batch of b items the GPU does about
// R * b / (b + half) items/s (R its plateau, `half` the batch at which it reaches half of it), T CPU
// threads T * r. AUTO takes the GPU when T < ratio = R / r and b >= half * T / (ratio - T), and
// b >= GPU_MIN_BATCH (the model flatters the GPU on a handful of items: its latency floor).
// Fitted by bench/gpu_fit.py to run 7 on an NVIDIA H200 beside its 16-thread host CPU (r is one of
// those threads), 2026-11-26: bench/results/gpu-2026-11-26-2f7e3c5.json, every operation and size
// with the default GPU mapping, the CPU backend and AUTO timed in the same rounds (best of 3 per
// point; python3 bench/gpu_fit.py bench/results/gpu-2026-11-26-2f7e3c5.json --threads 16 --auto:
// by the model the chosen backend does at least 0.929 of the better one at all 358 points).
// GF(2)[x] mulmod was refitted on an H100 beside its 16-thread host (run 11) after the CPU's
// mulmod became 20-40x faster (a sparse or Barrett reduction instead of a bit-serial division).
// A faster CPU thread lowers `ratio` (the GPU then needs larger batches), so on other machines
// these are estimates; `limbs`: modulus (RSA: n) or operand width; other widths take the nearest.
struct GpuFit {
  size_t limbs;
  double ratio;  // GPU plateau / one CPU thread's rate (< 1: the GPU never pays)
  double half;   // batch at half the GPU's plateau
};
constexpr size_t GPU_MIN_BATCH = 4;  // AUTO: never the GPU below this many items (its latency floor) | H200 2026-11-26 (15723f9, dfa08f3): 8192-bit powm, where the model sends 16 CPU threads' work to the GPU from the first items: 1 item GPU 5/s vs CPU 8/s, 4 items 28 vs 21, 16 items 114 vs 80
constexpr GpuFit GPU_FIT_POWM[] = {{8, 67.09, 8163}, {16, 77.63, 4337}, {32, 166.40, 3802}, {64, 235.64, 2125}, {128, 287.83, 184}};  // odd moduli, variable time | H200 2026-11-26, run 7 (bench/results/gpu-2026-11-26-2f7e3c5.json: default mappings and the CPU in the same rounds, best of 3): 512 (tpi 1), 1024 (tpi 4), 2048 (tpi 4), 4096 (tpi 8), 8192 (tpi 32)
constexpr GpuFit GPU_FIT_POWM_CT[] = {{8, 78.60, 12338}, {16, 74.38, 5039}, {32, 159.22, 4214}, {64, 182.93, 1971}, {128, 245.60, 211}};  // odd moduli, constant time | H200 2026-11-26, run 7 (gpu-2026-11-26-2f7e3c5.json, as above): 512 (tpi 1), 1024 (tpi 4), 2048 (tpi 4), 4096 (tpi 8), 8192 (tpi 32)
constexpr GpuFit GPU_FIT_POWM_EVEN[] = {{8, 70.81, 11822}, {16, 46.57, 4433}, {32, 73.77, 2102}, {64, 62.31, 838}, {128, 81.74, 680}};  // even moduli (Barrett kernels) | H200 2026-11-26, run 7 (gpu-2026-11-26-2f7e3c5.json, as above; 8192 bits from batch 256, its own part): 512 (tpi 1), 1024 (tpi 4), 2048 (tpi 8), 4096 (tpi 16), 8192 (tpi 32)
constexpr GpuFit GPU_FIT_RSA[] = {{16, 106.27, 12458}, {32, 99.37, 4925}, {64, 156.31, 2094}, {128, 196.39, 1678}};  // RSA-CRT by modulus width | H200 2026-11-26, run 7 (gpu-2026-11-26-2f7e3c5.json, as above): RSA-1024 (tpi 1; the library now runs 2 lanes per item, 1.32x the plateau in run 8, so AUTO takes the GPU a little later than it could there), 2048 (tpi 4), 4096 (tpi 8), 8192 (tpi 8)
constexpr GpuFit GPU_FIT_MODMUL[] = {{4, 3.54, 18578}, {8, 3.46, 5276}, {16, 3.83, 4562}, {32, 4.14, 1246}, {64, 4.30, 689}, {128, 6.79, 388}};  // shared odd modulus; one-thread kernel <= 16 limbs, multipartite block kernel above | H200 2026-11-26, run 7 (gpu-2026-11-26-2f7e3c5.json, as above)
constexpr GpuFit GPU_FIT_MUL[] = {{4, 0.20, 6522}, {8, 0.25, 5521}, {16, 0.46, 1162}};  // integer products: never (one CPU thread does more) | H200 2026-11-26, run 7 (gpu-2026-11-26-2f7e3c5.json, as above)
constexpr GpuFit GPU_FIT_GF2X_MUL[] = {{3, 0.24, 15675}, {4, 0.08, 5528}, {9, 0.20, 3263}, {16, 0.27, 33977}};  // GF(2)[x] products: never (one PCLMUL thread does more) | H200 2026-11-26, run 7 (gpu-2026-11-26-2f7e3c5.json, as above)
constexpr GpuFit GPU_FIT_GF2X_SQR[] = {{4, 0.31, 11600}, {9, 0.20, 12366}};  // GF(2)[x] squares: never | H200 2026-11-26, run 7 (gpu-2026-11-26-2f7e3c5.json, as above)
constexpr GpuFit GPU_FIT_GF2X_MULMOD[] = {{3, 1.86, 20182}, {4, 1.18, 11942}, {5, 1.29, 11463}, {7, 0.81, 49805}, {9, 1.14, 20350}};  // products mod the NIST trinomials / pentanomials B-163 .. B-571: the GPU never beats 16 threads of the CPU's sparse fold (c2f37c8), 2 or more threads at any batch | H100 2026-11-26, run 11 (bench/results/gpu-2026-11-26-c2f37c8.json: default mapping, the CPU and AUTO in the same rounds, best of 3; python3 bench/gpu_fit.py bench/results/gpu-2026-11-26-c2f37c8.json --threads 16)

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
// The smallest batch at which the GPU beats `threads` CPU threads (SIZE_MAX: never). With all T
// threads busy the GPU wins from b = half * T / (ratio - T); when that is below T, a smaller batch
// keeps only b threads busy and the GPU wins there too (ratio * b / (b + half) > b for every
// b < T), so the threshold drops to the latency floor GPU_MIN_BATCH.
constexpr size_t gpu_min_batch(const GpuFit &f, int threads) {
  const double T = threads < 1 ? 1.0 : (double)threads;
  if (f.ratio <= T) return (size_t)-1;
  const double b = f.half * T / (f.ratio - T);
  return b < T || b < (double)GPU_MIN_BATCH ? GPU_MIN_BATCH : (size_t)b + 1;
}

// A lane-cost table c (one value per BATCH_IFMA_COST_LIMBS width) at `limbs`: linear between the
// measured widths (the end values outside).
constexpr double lane_cost_at(const double *c, size_t limbs) {
  constexpr size_t n = sizeof BATCH_IFMA_COST_LIMBS / sizeof BATCH_IFMA_COST_LIMBS[0];
  if (limbs <= BATCH_IFMA_COST_LIMBS[0]) return c[0];
  for (size_t i = 1; i < n; i++)
    if (limbs <= BATCH_IFMA_COST_LIMBS[i]) {
      const double f = (double)(limbs - BATCH_IFMA_COST_LIMBS[i - 1]) /
                       (double)(BATCH_IFMA_COST_LIMBS[i] - BATCH_IFMA_COST_LIMBS[i - 1]);
      return c[i - 1] + f * (c[i] - c[i - 1]);
    }
  return c[n - 1];
}
// The IFMA lane cost at `limbs`.
constexpr double batch_ifma_lane_cost(size_t limbs, bool constant_time = false) {
  return lane_cost_at(constant_time ? BATCH_IFMA_LANE_COST_CT : BATCH_IFMA_LANE_COST, limbs);
}
static_assert(sizeof BATCH_IFMA_COST_LIMBS / sizeof BATCH_IFMA_COST_LIMBS[0] ==
                  sizeof BATCH_IFMA_LANE_COST / sizeof BATCH_IFMA_LANE_COST[0],
              "one lane cost per width");
static_assert(sizeof BATCH_IFMA_LANE_COST_CT == sizeof BATCH_IFMA_LANE_COST, "one constant-time lane cost per width");
// One pair of exponentiations on the IFMA engine's few-lane path, in scalar exponentiations of
// `limbs` limbs; 0 where there is no measured value (then the 8-lane run's cost stands).
constexpr double batch_ifma_pair_cost(size_t limbs, bool constant_time = false) {
  const double *c = constant_time ? BATCH_IFMA_PAIR_COST_CT : BATCH_IFMA_PAIR_COST;
  return limbs == 16 ? c[0] : limbs == 24 ? c[1] : limbs == 32 ? c[2] : limbs == 48 ? c[3] : limbs == 64 ? c[4] : 0.0;
}
// The same for the AVX-512F engine (CPUs with AVX-512 but no IFMA).
// amd: the AMD table (cpu::is_amd(): Zen 4/5, whose AVX-512F lanes are reached only with IFMA
// masked, as every AMD CPU with AVX-512 has IFMA), else the Intel one (Skylake-SP, Cascade Lake).
constexpr double batch_avx512f_lane_cost(size_t limbs, bool constant_time = false, bool amd = false) {
  return lane_cost_at(amd ? (constant_time ? BATCH_AVX512F_LANE_COST_AMD_CT : BATCH_AVX512F_LANE_COST_AMD)
                          : (constant_time ? BATCH_AVX512F_LANE_COST_CT : BATCH_AVX512F_LANE_COST),
                      limbs);
}
static_assert(sizeof BATCH_AVX512F_LANE_COST == sizeof BATCH_IFMA_LANE_COST &&
                  sizeof BATCH_AVX512F_LANE_COST_CT == sizeof BATCH_IFMA_LANE_COST &&
                  sizeof BATCH_AVX512F_LANE_COST_AMD == sizeof BATCH_IFMA_LANE_COST &&
                  sizeof BATCH_AVX512F_LANE_COST_AMD_CT == sizeof BATCH_IFMA_LANE_COST,
              "one AVX-512F lane cost per width");
// The scalar path's speed without MULX/ADX relative to the speed the lane costs were measured
// against (with them), at `limbs`.
constexpr double batch_scalar_portable_speed(size_t limbs) { return lane_cost_at(BATCH_SCALAR_PORTABLE_SPEED, limbs); }
static_assert(sizeof BATCH_SCALAR_PORTABLE_SPEED == sizeof BATCH_IFMA_LANE_COST, "one portable speed per width");
// The same for the AVX2 engine (CPUs without AVX-512).
constexpr double batch_avx2_lane_cost(size_t limbs, bool constant_time = false) {
  return lane_cost_at(constant_time ? BATCH_AVX2_LANE_COST_CT : BATCH_AVX2_LANE_COST, limbs);
}
static_assert(sizeof BATCH_AVX2_LANE_COST == sizeof BATCH_IFMA_LANE_COST &&
                  sizeof BATCH_AVX2_LANE_COST_CT == sizeof BATCH_IFMA_LANE_COST,
              "one AVX2 lane cost per width");

} // namespace tuning
} // namespace mpb
