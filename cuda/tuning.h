// cuda/tuning.h: the CUDA kernels' parameters (host and device code): thread mappings, window
// widths, the Montgomery arithmetic of the one-thread kernels, GF(2)[x] and modmul block shapes.
// One line per constant: value | where and when it was measured. NOT MEASURED YET: no GPU was
// available when these were set (2026-11-21, AMD EPYC 2-vCPU host, nvcc 13.0): estimates until
// bench/run_gpu.sh runs on an H100/H200 (bench_gpu times every instantiated alternative). The
// reasoning behind each estimate: docs/TUNING.md. When AUTO uses the GPU: cpu/batch/tuning.h.
#pragma once
#include <stddef.h>

namespace mpb {
namespace tuning {

// Threads per item of the exponentiation kernels (1: one thread per item, 2..32: lanes of a
// warp per item) by modulus (powm) or prime (RSA) size.
constexpr int GPU_POWM_TPI_512 = 1;  // powm, 512-bit moduli | NOT MEASURED: no GPU yet (one thread where it fits without spills)
constexpr int GPU_POWM_TPI_1024 = 1;  // powm, 1024-bit moduli (4 also instantiated) | NOT MEASURED: no GPU yet (one thread where it fits without spills)
constexpr int GPU_POWM_TPI_2048 = 8;  // powm, 2048-bit moduli (4 also instantiated) | NOT MEASURED: no GPU yet (8 words per lane)
constexpr int GPU_POWM_TPI_4096 = 16;  // powm, 4096-bit moduli | NOT MEASURED: no GPU yet (8 words per lane)
constexpr int GPU_POWM_TPI_8192 = 32;  // powm, 8192-bit moduli | NOT MEASURED: no GPU yet (8 words per lane)
constexpr int GPU_RSA_TPI_1024 = 1;  // RSA-1024 halves (512-bit primes) | NOT MEASURED: no GPU yet (one thread where it fits without spills)
constexpr int GPU_RSA_TPI_2048 = 1;  // RSA-2048 halves (4 also instantiated) | NOT MEASURED: no GPU yet (one thread where it fits without spills)
constexpr int GPU_RSA_TPI_4096 = 8;  // RSA-4096 halves | NOT MEASURED: no GPU yet (8 words per lane)
constexpr int GPU_RSA_TPI_8192 = 16;  // RSA-8192 halves | NOT MEASURED: no GPU yet (8 words per lane)
constexpr bool GPU_MUL_DELAYED_CARRY = true;  // integer products: delayed-carry Comba (else carry chains) | NOT MEASURED: no GPU yet
constexpr int GPU_POWM_MONT = 0;  // one-thread powm arithmetic: 0 CIOS, 1 CIOS + dedicated square, 2 delayed-carry Comba | NOT MEASURED: no GPU yet (0: smallest code)
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
