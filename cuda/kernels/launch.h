// cuda/kernels/launch.h: launch descriptions for the kernels (host code, CUDA runtime types).
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda/tuning.h"

namespace mpb {
namespace gpu {

constexpr int kBlockThreads = 128;
constexpr int kModmulBlockMaxThreads = 256;  // block modmul kernel: threads per block at most

struct PowmLaunch {
  int nwords;            // modulus words (16 .. 256)
  int tpi = 1;           // threads per item (1: powm_kernels.cu, else coop_kernels.cu)
  bool constant_time;
  uint32_t *out;         // count x nwords
  const uint32_t *base;  // count x nwords
  const uint32_t *exp;   // rows of ewords
  int ewords;
  size_t e_stride;       // 0: one exponent; ewords: one per item
  const void *mods;      // ModCtx<nwords>[1 or count]
  int m_stride;          // 0 or 1
  uint32_t *table;       // table_words(nwords, grid*kBlockThreads) words
  size_t count;
  int grid;
  // The comparison kernels only (cuda/variants/): variable time with fixed windows instead of
  // sliding ones, and the Montgomery arithmetic of the one-thread kernels (MontVariant in
  // cuda/thread/mont.cuh; -1: tuning::GPU_POWM_MONT; the cooperative kernels ignore it).
  bool fixed_window = false;
  int mont = -1;
  int win = 0;  // constant-time (or fixed_window) width other than cuda/tuning.h's (0: that one)
};

// The comparison kernels that no library path uses, built into mpb_cuda_variants
// (cuda/variants/) for bench_gpu and the device tests, which install them
// (install_powm_variants, cuda/host/gpu_backend.h); gpu::powm uses them for an Options with a
// Montgomery arithmetic other than tuning::GPU_POWM_MONT or with fixed_window.
struct PowmVariants {
  bool (*exists)(int nwords, int tpi, bool constant_time, int mont, bool fixed_window, int win);
  int (*grid)(int nwords, int tpi, bool constant_time, int mont, bool fixed_window, int win, int device);
  cudaError_t (*launch)(const PowmLaunch &L, cudaStream_t s);  // L.tpi, L.mont, L.fixed_window, L.win
};
const PowmVariants *installed_powm_variants();  // nullptr: none installed

struct RsaLaunch {
  int half_nwords;       // words per prime (16 .. 128)
  int tpi = 1;           // threads per item (1: rsa_kernels.cu, else coop_kernels.cu)
  bool constant_time;
  uint32_t *out;         // count x 2*half_nwords
  const uint32_t *c;     // count x 2*half_nwords
  const void *keys;      // RsaCtx<half_nwords>[1 or count]
  int k_stride;
  uint32_t *table;
  size_t count;
  int grid;
};

// Batch modmul (modmul_kernels.cu): nwords 8/16/32 = one thread per item with ModCtx<nwords>
// (odd moduli) or AnyModCtx<nwords> (any_parity) (rows of row_words <= nwords, zero padded); nwords 0 = one block of block_threads per item,
// the multipartite kernel, with item contexts of ctx_stride words (cuda/host/modmul_multipartite_ctx.h) and
// smem_bytes of dynamic shared memory (mp::shared_bytes).
struct ModmulLaunch {
  int nwords;
  bool any_parity;        // one-thread kernel: AnyModCtx (even moduli allowed)
  uint32_t *out;
  const uint32_t *a, *b;  // count x row_words
  int row_words;
  const void *mods;       // ModCtx<nwords> or item contexts
  int m_stride;           // 0: one for all, 1: one per item
  size_t ctx_stride;      // words per item context (block kernel)
  size_t count;
  int grid;
  int block_threads;
  size_t smem_bytes;
};
cudaError_t launch_modmul(const ModmulLaunch &L, cudaStream_t s);
size_t modmul_ctx_bytes(int nwords, bool any_parity);  // sizeof(ModCtx / AnyModCtx), 0: no kernel
// Blocks that fill `device` once (sets the shared-memory opt-in of the block kernel); 0 on error.
int modmul_grid(int nwords, bool any_parity, int block_threads, size_t smem_bytes, int device);

// win: the fixed-window width (0: cuda/tuning.h's for the size; others: the comparison kernels).
size_t table_words(int nwords, size_t threads, int win = 0);
// Blocks of kBlockThreads that fill `device` once (0 when the size has no kernel).
int powm_grid(int nwords, bool constant_time, int device);
int rsa_grid(int half_nwords, int device);
size_t modctx_bytes(int nwords);      // 0 when the size has no kernel
size_t rsactx_bytes(int half_nwords); // 0 when the size has no kernel
cudaError_t launch_powm(const PowmLaunch &L, cudaStream_t s);
cudaError_t launch_rsa_crt(const RsaLaunch &L, cudaStream_t s);
// Cooperative kernels (coop_kernels.cu): `tpi` threads of a warp per item.
bool powm_coop_supported(int nwords, int tpi);
bool rsa_coop_supported(int half_nwords, int tpi);
// True for a pair built only under MPB_CUDA_TUNING_SHAPES (for bench_gpu, not a default).
bool coop_tuning_only(bool rsa, int nwords, int tpi);
int powm_coop_grid(int nwords, int tpi, bool constant_time, int device);
int rsa_coop_grid(int half_nwords, int tpi, int device);
size_t coop_table_words(int nwords, int tpi, size_t threads, int win = 0);
cudaError_t launch_powm_coop(const PowmLaunch &L, cudaStream_t s);
cudaError_t launch_rsa_coop(const RsaLaunch &L, cudaStream_t s);
// Barrett exponentiation for any modulus (barrett_kernels.cu), even ones included: the same
// PowmLaunch with L.mods = BarrettModCtx<nwords>[1 or count] (cuda/thread/barrett.cuh); tpi 1
// at 16/32 words, else the cooperative pairs of powm_coop_supported. Tables: table_words (tpi
// 1) or coop_table_words.
bool powm_barrett_supported(int nwords, int tpi);
int powm_barrett_grid(int nwords, int tpi, bool constant_time, int device);
size_t barrett_ctx_bytes(int nwords);  // sizeof(BarrettModCtx<nwords>), 0 when no kernel
cudaError_t launch_powm_barrett(const PowmLaunch &L, cudaStream_t s);
cudaError_t launch_mul(int nwords, bool delayed_carry, uint32_t *out, const uint32_t *a,
                       const uint32_t *b, size_t count, int grid, cudaStream_t s);

// ---- GF(2)[x] (cuda/kernels/gf2x_kernels.cu), sizes in 64-bit limbs; one thread per item.
// Comb kernels: blocks of kGf2xBlock threads (each thread's window table is a slice of the
// block's static shared memory, at most 36 KiB per block); squaring: kGf2xSqrBlock threads.
constexpr int kGf2xBlock = tuning::GPU_GF2X_BLOCK;
constexpr int kGf2xSqrBlock = tuning::GPU_GF2X_SQR_BLOCK;
bool gf2x_mul_kernel_exists(int limbs);     // mul and sqr
bool gf2x_mulmod_kernel_exists(int limbs);  // mulmod by the Barrett kernel (any f)
// Barrett constants (gf2::BarrettF<2*limbs>) for f: size (0: no kernel) and host setup (false
// when deg f < 1).
size_t gf2x_barrett_bytes(int limbs);
bool gf2x_barrett_setup(void *params, const uint64_t *f, int limbs);
// Index of the compiled sparse-fold kernel for f (a NIST polynomial at its width), or -1.
int gf2x_sparse_field(const uint64_t *f, int limbs);
// Blocks that fill `device` once (persistent grid-stride grid): op 0 = mul, 1 = sqr, 2 = mulmod
// (sparse_field as for launch_gf2x_mulmod). 0 when there is no such kernel or on a CUDA error.
int gf2x_grid(int op, int limbs, int sparse_field, int device);
cudaError_t launch_gf2x_mul(int limbs, uint32_t *out, const uint32_t *a, const uint32_t *b, size_t count,
                            int grid, cudaStream_t s);
cudaError_t launch_gf2x_sqr(int limbs, uint32_t *out, const uint32_t *a, size_t count, int grid,
                            cudaStream_t s);
// sparse_field >= 0: the sparse-fold kernel (barrett unused); else the Barrett kernel with the
// constants at `barrett` (host memory, passed by value as the kernel parameter).
cudaError_t launch_gf2x_mulmod(int limbs, int sparse_field, const void *barrett, uint32_t *out,
                               const uint32_t *a, const uint32_t *b, size_t count, int grid, cudaStream_t s);

// The GF(2)[x] kernels at other plans than the tuned one (window, panel, block size), built into
// mpb_cuda_variants with MPB_CUDA_TUNING_SHAPES (cuda/variants/gf2x_variants.cu) for bench_gpu,
// which installs them (install_gf2x_variants); gpu::gf2x_* use them for Options::gf2x_variant.
// op: 0 mul, 1 sqr, 2 mulmod by a NIST polynomial (sparse_field >= 0); v: 1..count.
struct Gf2xVariants {
  int count;
  const char *(*name)(int op, int v);  // e.g. "w4p8b64" (sqr: "b128"); nullptr: no such alternative
  int (*grid)(int op, int limbs, int sparse_field, int v, int device);  // 0: no kernel (or a CUDA error)
  cudaError_t (*launch)(int op, int limbs, int sparse_field, uint32_t *out, const uint32_t *a, const uint32_t *b,
                        size_t count, int v, int grid, cudaStream_t s);
};
const Gf2xVariants *installed_gf2x_variants();  // nullptr: none installed

} // namespace gpu
} // namespace mpb
