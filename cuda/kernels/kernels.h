// cuda/kernels/kernels.h: launch descriptions for the kernels (host code, CUDA runtime types).
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

namespace mpb {
namespace gpu {

constexpr int kBlockThreads = 128;

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
};

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

size_t table_words(int nwords, size_t threads);
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
int powm_coop_grid(int nwords, int tpi, bool constant_time, int device);
int rsa_coop_grid(int half_nwords, int tpi, int device);
size_t coop_table_words(int nwords, int tpi, size_t threads);
cudaError_t launch_powm_coop(const PowmLaunch &L, cudaStream_t s);
cudaError_t launch_rsa_coop(const RsaLaunch &L, cudaStream_t s);
cudaError_t launch_mul(int nwords, bool delayed_carry, uint32_t *out, const uint32_t *a,
                       const uint32_t *b, size_t count, int grid, cudaStream_t s);

} // namespace gpu
} // namespace mpb
