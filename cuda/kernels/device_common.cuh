// cuda/kernels/device_common.cuh: what the kernel files share: the per-thread window table
// in global memory (interleaved across threads, coalesced), shared-memory loading, window
// widths and the persistent-grid size.
#pragma once
#include <cuda_runtime.h>

#include "../thread/powm.cuh"
#include "kernels.h"

namespace mpb {
namespace gpu {

template <int N, int W>
struct DevTable {
  uint32_t *base;  // already offset by the thread index
  size_t stride;   // threads in the grid
  __device__ __forceinline__ void store(int k, const uint32_t *x) {
    MPB_UNROLL
    for (int j = 0; j < N; j++) base[(size_t)(k * N + j) * stride] = x[j];
  }
  __device__ __forceinline__ uint32_t word(int k, int j) const {
    return base[(size_t)(k * N + j) * stride];
  }
  __device__ __forceinline__ void store_word(int k, int j, uint32_t x) {
    base[(size_t)(k * N + j) * stride] = x;
  }
};

template <class T>
__device__ __forceinline__ void load_shared(T *dst, const T *src) {
  const uint32_t *s = reinterpret_cast<const uint32_t *>(src);
  uint32_t *d = reinterpret_cast<uint32_t *>(dst);
  for (int i = threadIdx.x; i < (int)(sizeof(T) / 4); i += blockDim.x) d[i] = s[i];
  __syncthreads();
}

// Fixed-window widths of the one-thread kernels: 4 bits below 1024-bit moduli, 5 from there
// (NOT MEASURED; see the exponentiation windows in tuning.h). Sliding windows (public
// exponents) reuse the same table space with up to W + 1 bits.
constexpr int window_bits(int nwords) { return nwords >= 32 ? 5 : 4; }
template <int N>
struct Window { static constexpr int W = window_bits(N); };

// 2^W powers plus the constant-time selection slot, per thread.
inline size_t table_words_impl(int nwords, size_t threads) {
  return (((size_t)1 << window_bits(nwords)) + 1) * (size_t)nwords * threads;
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

} // namespace gpu
} // namespace mpb
