/* mpbatch/tuning.h: every size threshold and cost-model constant of the library, in one place.
 *
 * Each constant says where it was measured (machine, date, command). `bench/tune` measures
 * them again and prints a replacement block for this file. The values are also loaded into
 * the runtime struct mpb::tuning::params (see cpu/tuning.cpp), which the tuner and the tests
 * may override to force an algorithm; library code reads the runtime struct.
 *
 * C++ only (internal and tooling use); C programs never need it.
 */
#ifndef MPBATCH_TUNING_H
#define MPBATCH_TUNING_H
#ifdef __cplusplus
#include <stddef.h>

namespace mpb {
namespace tuning {

/* ---- integer multiplication / squaring (limbs of 64 bits) ------------------------------
 * Machine: AMD EPYC (Zen 4, 2 vCPU, BMI2/ADX), gcc 12.2 -O3, MULX/ADX kernels, 2026-11-21.
 * Command: build/bench/tune --int, four runs on a shared machine (load ~10), printing
 * COMBA_MAX mul/sqr, KARATSUBA mul/sqr = 16/16/14/17 (699b06a), 16/16/17/17 (699b06a),
 * 15/16/17/17 and 15/16/15/17 (af94399).  Karatsuba mul at 14 kept: bench_mul showed 16, 32
 * and 64 limbs 8-12% faster than with 17 (16 limbs = 3 unrolled 8-limb products).
 * Squaring: after the 9..24-limb assembly squaring kernels were added, SQR_COMBA_MAX = 24 and
 * SQR_KARATSUBA = 25 were chosen from a forced-threshold sweep (sizes 16..80, configurations
 * 16/17, 24/17, 24/20, 24/23, 24/25 vs GMP mpn_sqr; 24/25 best or within noise everywhere);
 * tune --int at 9d3ffff then printed 15/24/14/25 (MUL_COMBA_MAX 15 vs 16 makes no difference
 * while Karatsuba starts at 14).
 * With MULX/ADX, n <= 8 always uses the unrolled row kernels and 9..COMBA_MAX the unrolled
 * product-scanning kernels (cpu/mul_fixed_adx.cpp); without, COMBA_MAX selects the portable
 * delayed-carry Comba against the schoolbook rows (not tuned separately for that path). */
constexpr int MUL_COMBA_MAX = 16;          /* Comba used up to this many limbs */
constexpr int SQR_COMBA_MAX = 24;
constexpr int MUL_KARATSUBA_CUTOFF = 14;   /* Karatsuba at n >= this */
constexpr int SQR_KARATSUBA_CUTOFF = 25;
constexpr int MUL_TOOM3_CUTOFF = 120;      /* reserved: no Toom-3 (Karatsuba already <= GMP to 16384 bits) */
constexpr int SQR_TOOM3_CUTOFF = 140;      /* reserved */
constexpr int EXPTMOD_BARRETT_WINDOW_MIN = 1; /* reserved */

/* ---- modular exponentiation window (cpu/powm_mont.cpp, cpu/powm_barrett.cpp) -----------
 * Sliding window width w for an exponent of e bits: w = 1 for e <= POWM_W1_MAXBITS, 3 up to
 * POWM_W3_MAXBITS, ..., 6 up to POWM_W6_MAXBITS, else 7. Machine: AMD EPYC (Zen 4, 2 vCPU),
 * gcc 12.2, 2026-11-21: mpn::powm with w = 4..8 forced at 1024..4096 bits (full exponent) was
 * flat within noise between 6 and 7 (helper modarith micro-benchmark, not in the tree). */
constexpr int POWM_W1_MAXBITS = 7;
constexpr int POWM_W3_MAXBITS = 36;
constexpr int POWM_W4_MAXBITS = 140;
constexpr int POWM_W5_MAXBITS = 450;
constexpr int POWM_W6_MAXBITS = 3529;

/* ---- GF(2)[x] multiplication (limbs of 64 bits) ----------------------------------------
 * Machine: AMD EPYC (Zen 4, 2 vCPU, VPCLMULQDQ), gcc 12.2 -O3, 2026-11-21, VPCLMUL path.
 * Command: bench_gf2x --only mpb_mul --min-time 0.0005 --reps 40 --params K,T3,T4 --sizes ...
 * (sweeps of each cut-off, min of 12..40 runs; the box was shared, so crossovers are +-20%).
 * The product-scanning VPCLMUL schoolbook beats Karatsuba up to ~48 limbs; Toom-3 and
 * Toom-4 are within a few % of each other from 250 to 600 limbs, Toom-4 wins above. */
constexpr int GF2X_MUL_KARA_CUTOFF = 48;   /* Karatsuba at n >= this (below: unrolled/clmul base cases) */
constexpr int GF2X_MUL_TOOM3_CUTOFF = 250; /* Toom-3 at n >= this */
constexpr int GF2X_MUL_TOOM4_CUTOFF = 400; /* Toom-4 at n >= this */
static_assert(GF2X_MUL_KARA_CUTOFF >= 2 && GF2X_MUL_TOOM3_CUTOFF >= 3 && GF2X_MUL_TOOM4_CUTOFF >= 4,
              "gf2x cut-offs below the algorithms' minimum sizes");

/* ---- CUDA backend (cuda/, cpu/batch_gpu.cpp) -------------------------------------------
 * NOT MEASURED YET: no GPU was available when these were set (2026-11-21, AMD EPYC 2-vCPU
 * host, nvcc 13.0). They are estimates (a GPU exponentiation thread needs milliseconds, so
 * small batches stay on the CPU) until bench/run_gpu.sh runs on an H100/H200 and replaces
 * them with measured crossovers. AUTO sends a batch to the GPU only from these sizes.
 * Kernels exist for 512..8192-bit moduli (powm, DH), RSA-1024..RSA-8192 (CRT) and 256..1024-bit
 * products; other sizes run on the CPU. Window widths: 4 bits below 1024-bit moduli, else 5
 * (cuda/kernels/device_common.cuh). Block size: 128 threads, persistent grid (occupancy). */
/* Exponentiations (powm, DH, RSA-CRT): the GPU's time for a small batch is about the latency
 * of one item on one group of threads, and the CPU's is count x (time per item) / threads, so
 * the crossover batch grows with the CPU threads the context may use: AUTO sends the batch to
 * the GPU from GPU_MIN_ITEMS_PER_CPU_THREAD x threads items (and at least GPU_MIN_BATCH_EXP).
 * bench_gpu prints the measured crossover batch and this per-thread figure. */
constexpr size_t GPU_MIN_ITEMS_PER_CPU_THREAD_POWM = 64;
constexpr size_t GPU_MIN_ITEMS_PER_CPU_THREAD_RSA = 64;
constexpr size_t GPU_MIN_BATCH_EXP = 256;
constexpr size_t GPU_MIN_BATCH_MUL = (size_t)1 << 18;
constexpr bool GPU_MUL_DELAYED_CARRY = true;  /* delayed-carry Comba vs carry chains: unmeasured */
/* Thread mapping of the exponentiation kernels: threads per item (1: one thread per item,
 * cuda/kernels/{powm,rsa}_kernels.cu; 2..32: that many lanes of a warp share the item,
 * cuda/kernels/coop_kernels.cu), by modulus (powm) or prime (RSA) width in 64-bit limbs;
 * 0: no kernel. Instantiated alternatives (bench_gpu --tpi measures them): powm 1024-bit
 * 1 or 4, 2048-bit 4 or 8; RSA-2048 halves 1 or 4. NOT MEASURED (no GPU yet): one thread
 * per item where it fits without spills, else 8 words (256 bits) per lane. */
constexpr int gpu_powm_tpi(size_t width) {
  return width == 8 || width == 16 ? 1 : width == 32 ? 8 : width == 64 ? 16 : width == 128 ? 32 : 0;
}
constexpr int gpu_rsa_tpi(size_t half_width) {
  return half_width == 8 || half_width == 16 ? 1 : half_width == 32 ? 8 : half_width == 64 ? 16 : 0;
}
/* Exponentiation windows, NOT MEASURED: no GPU (2026-11-21, operation-count model). Public
 * exponents (variable time) use left-to-right sliding windows over a table of the 2^(w-1) odd
 * powers; w per item from the exponent's significant bits: about 2^(w-1) + bits/(w+1)
 * products plus bits squarings, minimal at these widths (capped by the table: the per-thread
 * kernels hold 2^W + 1 entries, so w <= W + 1; the cooperative ones 2^W, so w <= W + 1 too,
 * the square b^2 sharing the last entry). Secret exponents (constant time) keep fixed
 * windows (4 bits below 1024-bit moduli, else 5: Window<N> in cuda/kernels/device_common.cuh). */
constexpr int GPU_SLIDE_W1_MAX_BITS = 6;     /* exponents up to this many bits: w = 1 */
constexpr int GPU_SLIDE_W2_MAX_BITS = 24;    /* ... w = 2 */
constexpr int GPU_SLIDE_W3_MAX_BITS = 80;
constexpr int GPU_SLIDE_W4_MAX_BITS = 240;
constexpr int GPU_SLIDE_W5_MAX_BITS = 672;
constexpr int GPU_SLIDE_W6_MAX_BITS = 1792;  /* above: w = 7 */
/* (host side; the device code, cuda/thread/powm.cuh slide_window_bits, reads the scalars) */
constexpr int gpu_slide_window(int bits) {
  return bits <= GPU_SLIDE_W1_MAX_BITS ? 1 : bits <= GPU_SLIDE_W2_MAX_BITS ? 2
       : bits <= GPU_SLIDE_W3_MAX_BITS ? 3 : bits <= GPU_SLIDE_W4_MAX_BITS ? 4
       : bits <= GPU_SLIDE_W5_MAX_BITS ? 5 : bits <= GPU_SLIDE_W6_MAX_BITS ? 6 : 7;
}
/* Montgomery arithmetic of the one-thread exponentiation kernels (512 and 1024-bit moduli;
 * cuda/thread/mont.cuh MontVariant), NOT MEASURED: no GPU. 0: one inlined CIOS mont_mul for
 * squarings and products (smallest code: at 1024 bits two unrolled copies may not fit the
 * instruction cache); 1: CIOS products + a dedicated square (cross products once, ~N^2/2
 * products, then REDC); 2: delayed-carry product-scanning (seed-003 Comba) product and square.
 * All three are compiled for powm; bench_gpu times them (rows cuda-mont1, cuda-mont2). */
constexpr int GPU_POWM_MONT = 0;
/* GF(2)[x] kernels (cuda/kernels/gf2x_kernels.cu, cuda/thread/gf2x.cuh), NOT MEASURED: no GPU
 * (2026-11-21, estimates). One thread per item, 32-bit words; mul and mulmod: windowed comb,
 * window W = 3 bits for operands up to 128 bits, else 4; the table covers a panel of at most
 * P = 8 words (256 bits) of the tabled operand and lives in shared memory (2^W (P+1) words per
 * thread, interleaved across the block: conflict free), blocks of 64 threads (at most 36 KiB
 * of shared memory each); sqr: bit spreading, blocks of 128. mulmod: compiled sparse fold for
 * the NIST polynomials at their widths, Barrett (3 comb products) for any other f.
 * Kernels: mul/sqr at 1, 2, 3, 4, 5, 7, 8, 9, 16 limbs, mulmod at 1..5, 7, 8, 9 limbs.
 * AUTO thresholds: the CPU multiplies with PCLMUL and every item crosses PCIe twice, so the GPU
 * needs large batches; a square costs the CPU less than its transfer, so squaring goes to the
 * GPU in AUTO only for very large batches. */
constexpr int GPU_GF2X_WINDOW_SMALL = 3;   /* comb window for operands of <= 4 words (128 bits) */
constexpr int GPU_GF2X_WINDOW = 4;         /* comb window above that */
constexpr int GPU_GF2X_PANEL_WORDS = 8;    /* words of the tabled operand per window table */
constexpr int GPU_GF2X_BLOCK = 64;         /* threads per block, comb kernels (mul, mulmod) */
constexpr int GPU_GF2X_SQR_BLOCK = 128;    /* threads per block, squaring */
constexpr size_t GPU_MIN_BATCH_GF2X_MUL = (size_t)1 << 18;
constexpr size_t GPU_MIN_BATCH_GF2X_SQR = (size_t)1 << 22;
constexpr size_t GPU_MIN_BATCH_GF2X_MULMOD = (size_t)1 << 16;
/* Batch modmul on the GPU (odd moduli; even ones up to GPU_MODMUL_EVEN_MAX_LIMBS). NOT MEASURED: no GPU
 * (2026-11-21, estimates). Widths 1..GPU_MODMUL_THREAD_MAX_LIMBS: one thread per item, two
 * Montgomery products (modulus zero padded to 256/512/1024 bits); wider up to
 * GPU_MODMUL_BLOCK_MAX_LIMBS: the seed-004 multipartite kernel, one block of
 * GPU_MODMUL_BLOCK_THREADS threads per item, operands in GPU_MODMUL_K parts (k x k tiles;
 * 64 threads = one tile each at k = 8). AUTO uses the GPU from these batch sizes (a CPU
 * modmul is one product and one division, ~1 us at 2048 bits, so only large batches pay
 * for the transfers). */
constexpr size_t GPU_MIN_BATCH_MODMUL = (size_t)1 << 16;       /* one-thread kernel */
constexpr size_t GPU_MIN_BATCH_MODMUL_BLOCK = (size_t)1 << 12; /* block kernel */
constexpr int GPU_MODMUL_THREAD_MAX_LIMBS = 16;  /* <= 16 (1024 bits): kernels for 8/16/32 words */
constexpr int GPU_MODMUL_BLOCK_MAX_LIMBS = 128;  /* 8192 bits; ~27 KB of shared memory at k = 8 */
constexpr int GPU_MODMUL_K = 8;
constexpr int GPU_MODMUL_BLOCK_THREADS = 64;     /* <= 256 (kModmulBlockMaxThreads) */
/* Even moduli: the one-thread kernel's CRT variant (x mod m_o by Montgomery, x mod 2^s by a
 * low product) up to this width; at 1024 bits it spills registers, so wider even moduli stay
 * on the CPU (AUTO) or give MPB_EUNSUPPORTED (CUDA forced). A limit of the kernel, not tuned. */
constexpr int GPU_MODMUL_EVEN_MAX_LIMBS = 8;
/* CPU batch backend (cpu/batch_ctx.cpp). Work is counted in 64x64-bit limb products.
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
/* mpb_pack_cpython_list (the Python binding's ints -> rows, cpu/batch_cpython.cpp) splits a
 * batch over the requested threads from this many limbs (count x width) on. Measured
 * 2026-11-21 (AMD EPYC 2 vCPU, shared, load ~4; medians of 41 interleaved runs, 2 threads /
 * 1 thread): 4-limb ints 0.99 0.56 0.76 0.66 0.54 at 2048 8192 16384 32768 65536 limbs,
 * 32-limb ints 1.30 0.79 0.86 0.65 0.85; two threads win from ~8192 limbs, 16384 leaves a
 * margin for a busy machine (a parallel region then waits for a core). */
constexpr size_t PYCONV_PARALLEL_MIN_LIMBS = 16384;
/* AUTO sends exponentiation groups of 8 items to the AVX-512 IFMA kernel for widths in
 * [BATCH_IFMA_MIN_LIMBS, BATCH_IFMA_MAX_LIMBS]. A group costs 8 lanes whether or not all of them
 * hold an item, and one group runs on one thread, so whether a partial group (or the IFMA
 * kernel at all) pays depends on the thread count: AUTO estimates the wall time of each split
 * (scalar items and groups, greedily over the threads) with the cost of one lane relative to a
 * scalar item below (cpu/batch_ctx.cpp, ifma_split) and takes the fastest.
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
/* A shared even modulus m = 2^s * q (cpu/batch_powm.cpp) is processed in chunks of this many
 * items (reduce the bases mod q, the odd-modulus engine on q, then mod 2^s and the CRT), which
 * caps the temporary residue block at 2 x chunk x limbs(q). A memory bound, NOT MEASURED as a
 * speed threshold: a multiple of 8 (whole IFMA groups) large enough that the per-chunk
 * start of the odd engine's parallel loop is negligible (the base reduction, the power mod 2^s
 * and the CRT run as per-task hooks inside that loop). */
constexpr int BATCH_EVEN_SPLIT_CHUNK = 4096;
/* Multipartite modular multiplication (cpu/multipartite*.cpp), 2 threads: which algorithm
 * AUTO uses by operand limbs. bench/results/multipartite-2threads-2026-11-21.md: sequential
 * mul + division is fastest below 2048 bits, the bipartite algorithm from 2048 bits on (it
 * beat Barrett, Montgomery and every k-part variant at every size from 2048 to 65536 bits). */
constexpr int MULTIPARTITE_MIN_LIMBS = 32;        /* below: sequential mul + division */
constexpr int MULTIPARTITE_BIPARTITE_LIMBS = 32;  /* from here: bipartite; below it (and above
                                                     MULTIPARTITE_MIN_LIMBS): k-part, k = 4 */

} // namespace tuning

namespace tuning {
/* Runtime copy of the thresholds above (defined in cpu/tuning.cpp). */
struct Params {
  int mul_comba_max = MUL_COMBA_MAX;
  int sqr_comba_max = SQR_COMBA_MAX;
  int mul_karatsuba = MUL_KARATSUBA_CUTOFF;
  int sqr_karatsuba = SQR_KARATSUBA_CUTOFF;
  int mul_toom3 = MUL_TOOM3_CUTOFF;
  int sqr_toom3 = SQR_TOOM3_CUTOFF;
  int gf2x_kara = GF2X_MUL_KARA_CUTOFF;
  int gf2x_toom3 = GF2X_MUL_TOOM3_CUTOFF;
  int gf2x_toom4 = GF2X_MUL_TOOM4_CUTOFF;
};
Params &params();          /* the live values */
void reset_params();       /* back to the compiled defaults */
} // namespace tuning
} // namespace mpb

#endif /* __cplusplus */
#endif /* MPBATCH_TUNING_H */
