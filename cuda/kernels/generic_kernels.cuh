// cuda/kernels/generic_kernels.cuh: what the kernel files share: shared-memory loading, the
// persistent-grid size, the generic exponentiation and RSA-CRT kernels (one thread, or a group
// of TPI lanes, per item) that the Montgomery and Barrett kernel files instantiate, and the list
// of cooperative pairs. The kernels' bodies, table layouts and item loops are host + device code
// in cuda/grid/powm_bodies.cuh (run by the CPU tests).
#pragma once
#include <cuda_runtime.h>

#include "cuda/warp/coop.cuh"
#include "cuda/grid/powm_bodies.cuh"
#include "cuda/kernels/launch.h"

namespace mpb {
namespace gpu {

__device__ __forceinline__ size_t grid_tid() { return (size_t)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ size_t grid_threads() { return (size_t)gridDim.x * blockDim.x; }

template <class T>
__device__ __forceinline__ void load_shared(T *dst, const T *src) {
  const uint32_t *s = reinterpret_cast<const uint32_t *>(src);
  uint32_t *d = reinterpret_cast<uint32_t *>(dst);
  for (int i = threadIdx.x; i < (int)(sizeof(T) / 4); i += blockDim.x) d[i] = s[i];
  __syncthreads();
}

// Blocks that fill the device once (persistent grid): SMs x resident blocks per SM.
template <class K>
inline int full_grid(K kernel, int device) {
  int sms = 0, per_sm = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) return 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlockThreads, 0) != cudaSuccess)
    return 0;
  return sms * (per_sm > 0 ? per_sm : 1);
}

// ---- generic kernels (bodies: cuda/grid/powm_bodies.cuh) ----------------------------------------------------
// Item: a policy with `using Ctx` (ModCtx<N> or BarrettModCtx<N>) and `run` (cuda/grid/powm_bodies.cuh). A
// shared modulus or key (stride 0) is copied to shared memory first.

template <int N, int W, class Item>
__global__ void __launch_bounds__(kBlockThreads, 1)
thread_powm_kernel(uint32_t *out, const uint32_t *base, const uint32_t *exp, int ewords, size_t e_stride,
                   const typename Item::Ctx *mods, int m_stride, uint32_t *table, size_t count) {
  __shared__ typename Item::Ctx shared_mod;
  if (m_stride == 0) load_shared(&shared_mod, mods);
  thread_powm_body<N, W, Item>(grid_tid(), grid_threads(), out, base, exp, ewords, e_stride, mods, m_stride,
                               &shared_mod, table, count);
}

template <int TPI, int W, class Item>
__global__ void __launch_bounds__(kBlockThreads, 1)
coop_powm_kernel(uint32_t *out, const uint32_t *base, const uint32_t *exp, int ewords, size_t e_stride,
                 const typename Item::Ctx *mods, int m_stride, uint32_t *table, size_t count) {
  __shared__ typename Item::Ctx shared_mod;
  if (m_stride == 0) load_shared(&shared_mod, mods);
  const DevGroup<TPI> g;
  coop_powm_body<DevGroup<TPI>, W, Item>(g, grid_tid() - threadIdx.x % TPI, grid_threads(), out, base, exp,
                                         ewords, e_stride, mods, m_stride, &shared_mod, table, count);
}

template <int N, int W, bool CT>
__global__ void __launch_bounds__(kBlockThreads, 1)
thread_rsa_kernel(uint32_t *out, const uint32_t *c, const RsaCtx<N> *keys, int k_stride, uint32_t *table,
                  size_t count) {
  __shared__ RsaCtx<N> shared_key;
  if (k_stride == 0) load_shared(&shared_key, keys);
  thread_rsa_body<N, W, CT>(grid_tid(), grid_threads(), out, c, keys, k_stride, &shared_key, table, count);
}

template <int TPI, int W, int WIN, bool CT>
__global__ void __launch_bounds__(kBlockThreads, 1)
coop_rsa_kernel(uint32_t *out, const uint32_t *c, const RsaCtx<TPI * W> *keys, int k_stride, uint32_t *table,
                size_t count) {
  __shared__ RsaCtx<TPI * W> shared_key;
  if (k_stride == 0) load_shared(&shared_key, keys);
  const DevGroup<TPI> g;
  coop_rsa_body<DevGroup<TPI>, W, WIN, CT>(g, grid_tid() - threadIdx.x % TPI, grid_threads(), out, c, keys,
                                           k_stride, &shared_key, table, count);
}

// Launches `kernel` (thread_powm_kernel or coop_powm_kernel) with the PowmLaunch's arguments.
template <class Ctx, class K>
inline cudaError_t launch_powm_kernel(K kernel, const PowmLaunch &L, cudaStream_t s) {
  kernel<<<L.grid, kBlockThreads, 0, s>>>(L.out, L.base, L.exp, L.ewords, L.e_stride,
                                         static_cast<const Ctx *>(L.mods), L.m_stride, L.table, L.count);
  return cudaPeekAtLastError();
}

// The cooperative (modulus words, threads per item) pairs built for exponentiation, Montgomery
// (coop_kernels.cu) and Barrett (barrett_kernels.cu) alike; gpu_backend's powm_tpi picks
// among them. MPB_CUDA_TUNING_SHAPES (CMake option, off by default; bench/gpu_deps.sh --prebuilt
// turns it on) adds the other lane counts for bench_gpu to measure on a GPU; a pair becomes a
// library default only after it wins there (cuda/tuning.h).
#ifdef MPB_CUDA_TUNING_SHAPES
#define MPB_COOP_POWM_TUNING_PAIRS(X) X(16, 2) X(16, 4) X(32, 2) X(32, 8) X(64, 16) X(128, 32) X(256, 16)
#else
#define MPB_COOP_POWM_TUNING_PAIRS(X)
#endif
#define MPB_COOP_POWM_PAIRS(X) X(32, 4) X(64, 4) X(64, 8) X(128, 8) X(128, 16) X(256, 32) MPB_COOP_POWM_TUNING_PAIRS(X)

} // namespace gpu
} // namespace mpb
