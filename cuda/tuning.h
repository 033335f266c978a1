// cuda/tuning.h: the CUDA kernels' parameters (host and device code): thread mappings, window
// widths, the Montgomery arithmetic of the one-thread kernels, GF(2)[x] and modmul block shapes.
// One line per constant: value | where and when it was measured. The thread mappings and the
// one-thread Montgomery arithmetic were measured on an NVIDIA H200 on 2026-11-26 (bench/run_gpu.sh,
// bench_gpu timing every instantiated alternative); the lines still NOT MEASURED are estimates
// from 2026-11-21 (no GPU then) that the sweep did not reach or that have no built alternative.
// The reasoning behind each estimate: docs/TUNING.md. When AUTO uses the GPU: cpu/batch/tuning.h.
#pragma once
#include <stddef.h>

namespace mpb {
namespace tuning {

// Threads per item of the exponentiation kernels (1: one thread per item, 2..32: lanes of a
// warp per item) by modulus (powm) or prime (RSA) size.
constexpr int GPU_POWM_TPI_512 = 1;  // powm, 512-bit moduli (the one mapping built) | NVIDIA H200, 2026-11-26, bench_gpu at 15723f9 / dfa08f3: 3.0-3.2M/s (12-13% of the IMAD bound: the one-thread CIOS kernel)
constexpr int GPU_POWM_TPI_1024 = 4;  // powm, 1024-bit moduli (1 also instantiated; 2 and 8 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 4 1,183,094/s vs tpi 2 1,199,502 (a tie), 8 1,026,825, 1 581,686; constant time tpi 4 1,068,763 vs 2 1,064,986, 8 895,330
constexpr int GPU_POWM_TPI_2048 = 4;  // powm, 2048-bit moduli (8 also instantiated; 16 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 4 262,426/s vs 8 245,952, 16 204,371; constant time tpi 4 243,989 vs 8 227,261, 16 170,261
constexpr int GPU_POWM_TPI_4096 = 8;  // powm, 4096-bit moduli (16 also instantiated; 32 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 8 40,573/s vs 16 36,011, 32 31,036; constant time tpi 8 37,284 vs 16 33,879, 32 28,249
constexpr int GPU_POWM_TPI_8192 = 32;  // powm, 8192-bit moduli (16 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 32 3,137/s vs 16 2,818 at batch 1024; constant time 2,944 vs 2,598
constexpr int GPU_RSA_TPI_1024 = 1;  // RSA-1024 halves (512-bit primes; the one mapping built) | NVIDIA H200, 2026-11-26, bench_gpu at 72e2709 (bench/results/gpu-2026-11-26-72e2709.json): 2,009,589/s at batch 2^20
constexpr int GPU_RSA_TPI_2048 = 4;  // RSA-2048 halves (1 also instantiated; 2 and 8 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 4 611,234/s vs 2 573,243, 8 554,772, 1 302,360 at batch 2^18
constexpr int GPU_RSA_TPI_4096 = 8;  // RSA-4096 halves (4 and 16 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 8 117,254/s vs 4 113,077, 16 99,399 at batch 65536
constexpr int GPU_RSA_TPI_8192 = 8;  // RSA-8192 halves (16 also instantiated; 32 with MPB_CUDA_TUNING_SHAPES) | NVIDIA H200, 2026-11-26, bench_gpu at dfa08f3 (bench/results/gpu-2026-11-26-dfa08f3.json, the 64-bit multiply-add Montgomery): tpi 8 18,023/s vs 16 16,876, 32 12,044 at batch 16384
constexpr int GPU_POWM_EVEN_TPI_512 = 1;  // powm with even moduli (Barrett kernels), 512 bits | NVIDIA H200, 2026-11-26 (15723f9): 3,163,380/s, the one mapping built
constexpr int GPU_POWM_EVEN_TPI_1024 = 4;  // even moduli, 1024 bits | NVIDIA H200, 2026-11-26, bench_gpu at 15723f9: tpi 4 646,208/s vs 2 516,803, 8 511,728, 1 482,138
constexpr int GPU_POWM_EVEN_TPI_2048 = 8;  // even moduli, 2048 bits | NVIDIA H200, 2026-11-26, bench_gpu at 15723f9: tpi 8 102,371/s vs 4 87,096, 16 83,889
constexpr int GPU_POWM_EVEN_TPI_4096 = 16;  // even moduli, 4096 bits | NVIDIA H200, 2026-11-26, bench_gpu at 15723f9: tpi 16 11,585/s vs 32 11,761 (a tie), 8 8,677
constexpr int GPU_POWM_EVEN_TPI_8192 = 32;  // even moduli, 8192 bits | NOT MEASURED: the sweeps stopped at batch 1 (the same mapping as odd moduli)
constexpr bool GPU_MUL_DELAYED_CARRY = true;  // integer products: delayed-carry Comba (else carry chains) | NVIDIA H200, 2026-11-26, bench_gpu at 72e2709 (bench/results/gpu-2026-11-26-72e2709.json): within 4% of each other at 256..1024 bits (5.96M vs 5.39M/s at 256, 1.30M vs 1.34M at 1024): both bound by the host transfers
constexpr int GPU_POWM_MONT = 0;  // one-thread powm arithmetic: 0 CIOS, 1 CIOS + dedicated square, 2 delayed-carry Comba | NVIDIA H200, 2026-11-26, bench_gpu at 72e2709 (bench/results/gpu-2026-11-26-72e2709.json), 1024 bits one thread: 0 619,045/s, 2 463,613, 1 302,612 (variable time); constant time 1 578,076 vs 0 515,367 (2: no kernel)
constexpr int GPU_SLIDE_W1_MAX_BITS = 6;  // public exponents: sliding window 1 up to this many bits | NOT MEASURED: no GPU yet (operation-count model, 2026-11-21)
constexpr int GPU_SLIDE_W2_MAX_BITS = 24;  // window 2 up to this many bits | NOT MEASURED: no GPU yet (operation-count model, 2026-11-21)
constexpr int GPU_SLIDE_W3_MAX_BITS = 80;  // window 3 up to this many bits | NOT MEASURED: no GPU yet (operation-count model, 2026-11-21)
constexpr int GPU_SLIDE_W4_MAX_BITS = 240;  // window 4 up to this many bits | NOT MEASURED: no GPU yet (operation-count model, 2026-11-21)
constexpr int GPU_SLIDE_W5_MAX_BITS = 672;  // window 5 up to this many bits | NOT MEASURED: no GPU yet (operation-count model, 2026-11-21)
constexpr int GPU_SLIDE_W6_MAX_BITS = 1792;  // window 6 up to this many bits, then 7 | NOT MEASURED: no GPU yet (operation-count model, 2026-11-21)
constexpr int GPU_GF2X_WINDOW_SMALL = 3;  // GF(2)[x] comb window for operands of <= 4 words | NOT MEASURED: no GPU yet
constexpr int GPU_GF2X_WINDOW = 4;  // GF(2)[x] comb window above that | NOT MEASURED: no GPU yet
constexpr int GPU_GF2X_PANEL_WORDS = 8;  // words of the tabled operand per window table | NOT MEASURED: no GPU yet
constexpr int GPU_GF2X_BLOCK = 64;  // threads per block, GF(2)[x] comb kernels (mul, mulmod) | NOT MEASURED: no GPU yet (36 KiB shared memory at most)
constexpr int GPU_GF2X_SQR_BLOCK = 128;  // threads per block, GF(2)[x] squaring | NOT MEASURED: no GPU yet
constexpr int GPU_MODMUL_THREAD_MAX_LIMBS = 16;  // modmul: one thread per item up to this width | a kernel limit (kernels for 8/16/32 words)
constexpr int GPU_MODMUL_BLOCK_MAX_LIMBS = 128;  // modmul: the multipartite block kernel up to this width | a kernel limit (~27 KB shared memory at k = 8)
constexpr int GPU_MODMUL_K = 8;  // modmul block kernel: operands in k parts (k x k tiles) | NOT MEASURED: no GPU yet
constexpr int GPU_MODMUL_BLOCK_THREADS = 64;  // modmul block kernel: threads per item (<= 256) | NOT MEASURED: no GPU yet
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
