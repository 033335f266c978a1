// cuda/tuning.h: the CUDA kernels' parameters (host and device code): thread mappings, window
// widths, the Montgomery arithmetic of the one-thread kernels, GF(2)[x] and modmul block shapes.
// One line per constant: value | where and when it was measured. The thread mappings and the
// one-thread Montgomery arithmetic were measured on an NVIDIA H200 on 2026-11-26 (bench/run_gpu.sh,
// bench_gpu timing every instantiated alternative), the fixed-window widths on an H100 the same
// day; the lines that say "a kernel limit" are bounds of what is built, not speed choices. The
// reasoning behind each value: docs/TUNING.md. When AUTO uses the GPU: cpu/batch/tuning.h.
#pragma once
#include <stddef.h>

namespace mpb {
namespace tuning {

// Threads per item of the exponentiation kernels (1: one thread per item, 2..32: lanes of a
// warp per item) by modulus (powm) or prime (RSA) size.
constexpr int GPU_POWM_TPI_512 = 1;  // powm, 512-bit moduli (2 and 4 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, run 8 (bench/results/gpu-2026-11-26-7a7fd07.json, part extra): tpi 1 3,695,856/s vs 2 3,898,993, 4 3,758,861 (within the run-to-run spread); constant time 1 3,628,816 vs 2 3,635,357, 4 3,241,820
constexpr int GPU_POWM_TPI_1024 = 4;  // powm, 1024-bit moduli (1 also instantiated; 2 and 8 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 4 1,183,094/s vs tpi 2 1,199,502 (a tie), 8 1,026,825, 1 581,686; constant time tpi 4 1,068,763 vs 2 1,064,986, 8 895,330
constexpr int GPU_POWM_TPI_2048 = 4;  // powm, 2048-bit moduli (8 also instantiated; 16 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 4 262,426/s vs 8 245,952, 16 204,371; constant time tpi 4 243,989 vs 8 227,261, 16 170,261
constexpr int GPU_POWM_TPI_4096 = 8;  // powm, 4096-bit moduli (16 also instantiated; 32 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 8 40,573/s vs 16 36,011, 32 31,036; constant time tpi 8 37,284 vs 16 33,879, 32 28,249
constexpr int GPU_POWM_TPI_8192 = 32;  // powm, 8192-bit moduli (16 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 32 3,137/s vs 16 2,818 at batch 1024; constant time 2,944 vs 2,598
constexpr int GPU_RSA_TPI_1024 = 2;  // RSA-1024 halves (512-bit primes; 1 also built, 4 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, run 8 (bench/results/gpu-2026-11-26-7a7fd07.json, part extra): tpi 2 2,541,634/s vs 4 2,382,110, 1 1,923,096 (the one-thread kernel, 15% of the IMAD bound) at batch 2^18..2^20
constexpr int GPU_RSA_TPI_2048 = 4;  // RSA-2048 halves (1 also instantiated; 2 and 8 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 4 611,234/s vs 2 573,243, 8 554,772, 1 302,360 at batch 2^18
constexpr int GPU_RSA_TPI_4096 = 8;  // RSA-4096 halves (4 and 16 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 8 117,254/s vs 4 113,077, 16 99,399 at batch 65536
constexpr int GPU_RSA_TPI_8192 = 8;  // RSA-8192 halves (16 also instantiated; 32 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 8 18,023/s vs 16 16,876, 32 12,044 at batch 16384
constexpr int GPU_POWM_EVEN_TPI_512 = 1;  // powm with even moduli (Barrett kernels), 512 bits | NVIDIA H200, 2026-11-26 (15723f9): 3,163,380/s, the one mapping built
constexpr int GPU_POWM_EVEN_TPI_1024 = 4;  // even moduli, 1024 bits | NVIDIA H200, 2026-11-26, bench_gpu at 15723f9: tpi 4 646,208/s vs 2 516,803, 8 511,728, 1 482,138
constexpr int GPU_POWM_EVEN_TPI_2048 = 8;  // even moduli, 2048 bits | NVIDIA H200, 2026-11-26, bench_gpu at 15723f9: tpi 8 102,371/s vs 4 87,096, 16 83,889
constexpr int GPU_POWM_EVEN_TPI_4096 = 16;  // even moduli, 4096 bits | NVIDIA H200, 2026-11-26, bench_gpu at 15723f9: tpi 16 11,585/s vs 32 11,761 (a tie), 8 8,677
constexpr int GPU_POWM_EVEN_TPI_8192 = 32;  // even moduli, 8192 bits (16 also built) | NVIDIA H200, 2026-11-26, run 7 (bench/results/gpu-2026-11-26-2f7e3c5.json, part extra, from batch 256): tpi 32 1,240/s vs 16 917 at batch 1024, 1,727/s at 4096 (tpi 16 397 vs 364 at 256)
constexpr bool GPU_MUL_DELAYED_CARRY = true;  // integer products: delayed-carry Comba (else carry chains) | NVIDIA H200, 2026-11-26, bench_gpu at 72e2709 (bench/results/gpu-2026-11-26-72e2709.json): within 4% of each other at 256..1024 bits (5.96M vs 5.39M/s at 256, 1.30M vs 1.34M at 1024): both bound by the host transfers
constexpr int GPU_POWM_MONT = 0;  // one-thread powm arithmetic: 0 CIOS, 1 CIOS + dedicated square, 2 delayed-carry Comba | NVIDIA H200, 2026-11-26, bench_gpu at 72e2709 (bench/results/gpu-2026-11-26-72e2709.json), 1024 bits one thread: 0 619,045/s, 2 463,613, 1 302,612 (variable time); constant time 1 578,076 vs 0 515,367 (2: no kernel)
constexpr int GPU_SLIDE_W1_MAX_BITS = 6;  // public exponents: sliding window 1 up to this many bits | NVIDIA H200, 2026-11-26, runs 8 and 9 (bench_gpu --ops powm_window, gpu-2026-11-26-7a7fd07.json / -9a82f53.json): every width 1..6 timed at exponents of 4..2048 bits, 1024- and 2048-bit moduli, 65,536 items: below ~300-bit exponents the call is bound by the host transfers and no width is measurably faster (rows spread +-25% at random); from 352 bits up the widths the model picks are within 5% of the best (at 1024..2048 bits w1 0.73-0.88, w3 0.85-0.97, w5/w6 0.95-1.0), so the operation-count thresholds stay
constexpr int GPU_SLIDE_W2_MAX_BITS = 24;  // window 2 up to this many bits | as GPU_SLIDE_W1_MAX_BITS (runs 8, 9)
constexpr int GPU_SLIDE_W3_MAX_BITS = 80;  // window 3 up to this many bits | as GPU_SLIDE_W1_MAX_BITS (runs 8, 9)
constexpr int GPU_SLIDE_W4_MAX_BITS = 240;  // window 4 up to this many bits | as GPU_SLIDE_W1_MAX_BITS (runs 8, 9)
constexpr int GPU_SLIDE_W5_MAX_BITS = 672;  // window 5 up to this many bits | as GPU_SLIDE_W1_MAX_BITS (runs 8, 9): at 672-bit exponents w5 0.95-0.99 of the best, w6 0.94-1.0
constexpr int GPU_SLIDE_W6_MAX_BITS = 1792;  // window 6 up to this many bits, then 7 (capped at the table: 6 from 1024-bit moduli, 5 below) | as GPU_SLIDE_W1_MAX_BITS (runs 8, 9): at 1024..2048-bit exponents w6 0.94-1.0, w5 0.98-1.0
constexpr int GPU_GF2X_WINDOW_SMALL = 3;  // GF(2)[x] comb window for operands of <= 4 words | NVIDIA H200, 2026-11-26, runs 8 and 9 (bench_gpu --ops gf2x, tune parts of gpu-2026-11-26-7a7fd07.json / -9a82f53.json): 8 plans (window 2..5, panel 4..16 words, blocks 32..128) at every product and NIST mulmod width, batches 2^18..2^20: no plan is faster in both runs by more than the spread between identical plans (the default plan timed twice differs by up to 16%); products are 0.91-1.10x the default, mulmod 0.87-1.18x; 128-bit products: w2..w5 1.00-1.07x
constexpr int GPU_GF2X_WINDOW = 4;  // GF(2)[x] comb window above that | as GPU_GF2X_WINDOW_SMALL (runs 8, 9)
constexpr int GPU_GF2X_PANEL_WORDS = 8;  // words of the tabled operand per window table | as GPU_GF2X_WINDOW_SMALL (runs 8, 9): panels of 4 words at 1024-bit products spill registers (not built), of 16 words 0.98-1.07x
constexpr int GPU_GF2X_BLOCK = 64;  // threads per block, GF(2)[x] comb kernels (mul, mulmod) | as GPU_GF2X_WINDOW_SMALL (runs 8, 9): 32 and 128 threads 0.90-1.10x (36 KiB shared memory at most)
constexpr int GPU_GF2X_SQR_BLOCK = 128;  // threads per block, GF(2)[x] squaring | NVIDIA H200, 2026-11-26, runs 8 and 9: blocks of 32/64/256 threads 0.80-1.09x of 128 (the 128-thread alternative itself 0.96-1.09x)
constexpr int GPU_MODMUL_THREAD_MAX_LIMBS = 16;  // modmul: one thread per item up to this width | a kernel limit (kernels for 8/16/32 words)
constexpr int GPU_MODMUL_BLOCK_MAX_LIMBS = 128;  // modmul: the multipartite block kernel up to this width | a kernel limit (~27 KB shared memory at k = 8)
constexpr int GPU_MODMUL_K = 8;  // modmul block kernel: operands in k parts (k x k tiles) | NVIDIA H200, 2026-11-26, runs 8 and 9 (bench_gpu --ops modmul, tune parts of gpu-2026-11-26-7a7fd07.json / -9a82f53.json): k 4/8/16 x 32..256 threads at 2048/4096/8192 bits, batches 16,384 and 65,536: no shape faster in both runs beyond their spread (8192 bits at 65,536 items: the default 296,095/s in run 8, 196,835 in run 9, bound by the host transfers); k 4 with 32 threads was 1.03-1.17x at 2048 bits in both runs but 0.84-1.06x at 4096
constexpr int GPU_MODMUL_BLOCK_THREADS = 64;  // modmul block kernel: threads per item (<= 256) | as GPU_MODMUL_K (runs 8, 9)
constexpr int GPU_POWM_WINDOW_SMALL = 4;  // fixed windows of the exponentiation kernels (constant time; sliding windows of up to one bit more share the table) below 1024-bit moduli | NVIDIA H100, 2026-11-26, runs 10 and 11 (bench_gpu --ops powm_ct_win, tune-ctwin parts of gpu-2026-11-26-e219cdd.json / -c2f37c8.json): widths 3..6 at 512 bits, 1 and 2 lanes, 4,096..262,144 items: 3, 4 and 5 within the spread of one another (the best width changes from batch to batch and run to run, 0.71-1.0 of the best), 6 the slowest (0.62-0.94)
constexpr int GPU_POWM_WINDOW = 5;  // the same from 1024-bit moduli | as GPU_POWM_WINDOW_SMALL (runs 10, 11) at 1024/2048/4096 bits (8192: run 10) with the powm and RSA lane counts: in run 11 (best of 3) 4 and 5 within 10% of the best at every batch of 65,536 items and more, 3 0.83-1.0 (more windows, smaller constant-time table scans), 6 0.80-0.98; run 10 (one round) spread more (1024 bits, 262,144 items: 3 bits 1.17x 5 bits; even at 65,536)
constexpr int GPU_MODMUL_EVEN_MAX_LIMBS = 8;  // modmul: even moduli (CRT variant) up to this width | a kernel limit (spills at 1024 bits)

// Threads per item by width in limbs (0: no kernel).
constexpr int gpu_powm_tpi(size_t width) {
  return width == 8 ? GPU_POWM_TPI_512 : width == 16 ? GPU_POWM_TPI_1024 : width == 32 ? GPU_POWM_TPI_2048
       : width == 64 ? GPU_POWM_TPI_4096 : width == 128 ? GPU_POWM_TPI_8192 : 0;
}
constexpr int gpu_powm_even_tpi(size_t width) {
  return width == 8 ? GPU_POWM_EVEN_TPI_512 : width == 16 ? GPU_POWM_EVEN_TPI_1024 : width == 32 ? GPU_POWM_EVEN_TPI_2048
       : width == 64 ? GPU_POWM_EVEN_TPI_4096 : width == 128 ? GPU_POWM_EVEN_TPI_8192 : 0;
}
constexpr int gpu_rsa_tpi(size_t half_width) {
  return half_width == 8 ? GPU_RSA_TPI_1024 : half_width == 16 ? GPU_RSA_TPI_2048
       : half_width == 32 ? GPU_RSA_TPI_4096 : half_width == 64 ? GPU_RSA_TPI_8192 : 0;
}
// (host side; the device code, cuda/thread/powm.cuh slide_window_bits, reads the scalars)
constexpr int gpu_slide_window(int bits) {
  return bits <= GPU_SLIDE_W1_MAX_BITS ? 1 : bits <= GPU_SLIDE_W2_MAX_BITS ? 2
       : bits <= GPU_SLIDE_W3_MAX_BITS ? 3 : bits <= GPU_SLIDE_W4_MAX_BITS ? 4
       : bits <= GPU_SLIDE_W5_MAX_BITS ? 5 : bits <= GPU_SLIDE_W6_MAX_BITS ? 6 : 7;
}

} // namespace tuning
} // namespace mpb
