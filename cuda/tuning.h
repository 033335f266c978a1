// cuda/tuning.h: the CUDA kernels' parameters (host and device code).
// Each constant says where and when it was measured; `build/bench/tune` measures them again.
#pragma once
#include <stddef.h>

namespace mpb {
namespace tuning {

/* ---- CUDA kernels: thread mappings, windows, arithmetic variants, block sizes ------------------
 * NOT MEASURED YET: no GPU was available when these were set (2026-11-21, AMD EPYC 2-vCPU
 * host, nvcc 13.0); bench/run_gpu.sh on an H100/H200 measures them. Window widths of the
 * constant-time kernels: 4 bits below 1024-bit moduli, else 5 (cuda/kernels/generic_kernels.cuh).
 * Block size: 128 threads, persistent grid (occupancy). */
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
 * windows (4 bits below 1024-bit moduli, else 5: Window<N> in cuda/kernels/generic_kernels.cuh). */
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
/* Batch modmul on the GPU (odd moduli; even ones up to GPU_MODMUL_EVEN_MAX_LIMBS). NOT MEASURED: no GPU
 * (2026-11-21, estimates). Widths 1..GPU_MODMUL_THREAD_MAX_LIMBS: one thread per item, two
 * Montgomery products (modulus zero padded to 256/512/1024 bits); wider up to
 * GPU_MODMUL_BLOCK_MAX_LIMBS: the seed-004 multipartite kernel, one block of
 * GPU_MODMUL_BLOCK_THREADS threads per item, operands in GPU_MODMUL_K parts (k x k tiles;
 * 64 threads = one tile each at k = 8). AUTO uses the GPU from these batch sizes (a CPU
 * modmul is one product and one division, ~1 us at 2048 bits, so only large batches pay
 * for the transfers). */
constexpr int GPU_MODMUL_THREAD_MAX_LIMBS = 16;  /* <= 16 (1024 bits): kernels for 8/16/32 words */
constexpr int GPU_MODMUL_BLOCK_MAX_LIMBS = 128;  /* 8192 bits; ~27 KB of shared memory at k = 8 */
constexpr int GPU_MODMUL_K = 8;
constexpr int GPU_MODMUL_BLOCK_THREADS = 64;     /* <= 256 (kModmulBlockMaxThreads) */
/* Even moduli: the one-thread kernel's CRT variant (x mod m_o by Montgomery, x mod 2^s by a
 * low product) up to this width; at 1024 bits it spills registers, so wider even moduli stay
 * on the CPU (AUTO) or give MPB_EUNSUPPORTED (CUDA forced). A limit of the kernel, not tuned. */
constexpr int GPU_MODMUL_EVEN_MAX_LIMBS = 8;

} // namespace tuning
} // namespace mpb
