// cuda/kernels/device_common.cuh: what the kernel files share: the window tables in global
// memory (interleaved across threads, coalesced), shared-memory loading, window widths, the
// persistent-grid size and item loops, the generic exponentiation kernels (one thread, or a
// group of TPI lanes, per item) that the Montgomery and Barrett kernel files instantiate, and
// the list of cooperative (words, threads per item) pairs.
#pragma once
#include <cuda_runtime.h>

#include "../thread/coop.cuh"
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

// Cooperative kernels: lane l of the grid keeps its W-word slice of entry e at
// table[(e*W + j) * lanes + l].
template <int W>
struct DevCoopTable {
  uint32_t *base;  // offset by the thread's index in the grid
  size_t stride;   // threads in the grid
  __device__ __forceinline__ uint32_t word(int, int e, int j) const {
    return base[(size_t)(e * W + j) * stride];
  }
  __device__ __forceinline__ void store_word(int, int e, int j, uint32_t x) {
    base[(size_t)(e * W + j) * stride] = x;
  }
};

__device__ __forceinline__ size_t grid_tid() { return (size_t)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ size_t grid_threads() { return (size_t)gridDim.x * blockDim.x; }

// Persistent grid, group of TPI lanes per item: group g handles items g, g + groups, ... with a
// warp-uniform loop bound (a group without an item gets the last item again, real = false, and
// must store nothing), so every full-mask shuffle and ballot has the whole warp present.
// body(item, real).
template <int TPI, class Body>
__device__ __forceinline__ void for_group_items(size_t count, Body body) {
  const size_t tid = grid_tid();
  const size_t groups = grid_threads() / TPI;
  const size_t group = tid / TPI;
  const size_t warp_first = (tid / 32) * (32 / TPI);
  for (size_t first = warp_first; first < count; first += groups) {
    const size_t item = first + (group - warp_first);
    const bool real = item < count;
    body(real ? item : count - 1, real);
  }
}

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

// ---- generic exponentiation kernels ---------------------------------------------------------
// Item: a policy with `using Ctx` (the modulus constants, ModCtx<N> or BarrettModCtx<N>) and
// `static run(r, b, e, ewords, ctx, tab)` (one thread) or `run(g, r, b, e, ewords, ctx, tab)`
// (a group). base, out: count rows of N words. exp: rows of ewords words, e_stride = 0 (one
// exponent for all) or ewords. mods: m_stride = 0 (one modulus, copied to shared memory) or 1.

template <int N, int W, class Item>
__global__ void __launch_bounds__(kBlockThreads, 1)
thread_powm_kernel(uint32_t *out, const uint32_t *base, const uint32_t *exp, int ewords, size_t e_stride,
                   const typename Item::Ctx *mods, int m_stride, uint32_t *table, size_t count) {
  using Ctx = typename Item::Ctx;
  __shared__ Ctx shared_mod;
  if (m_stride == 0) load_shared(&shared_mod, mods);
  const size_t tid = grid_tid(), nthreads = grid_threads();
  DevTable<N, W> tab{table + tid, nthreads};
  for (size_t item = tid; item < count; item += nthreads) {
    const Ctx &m = m_stride == 0 ? shared_mod : mods[item];
    uint32_t b[N], r[N];
    MPB_UNROLL
    for (int j = 0; j < N; j++) b[j] = base[item * N + j];
    Item::run(r, b, exp + item * e_stride, ewords, m, tab);
    MPB_UNROLL
    for (int j = 0; j < N; j++) out[item * N + j] = r[j];
  }
}

template <int TPI, int W, class Item>
__global__ void __launch_bounds__(kBlockThreads, 1)
coop_powm_kernel(uint32_t *out, const uint32_t *base, const uint32_t *exp, int ewords, size_t e_stride,
                 const typename Item::Ctx *mods, int m_stride, uint32_t *table, size_t count) {
  constexpr int N = TPI * W;
  using G = DevGroup<TPI>;
  using Ctx = typename Item::Ctx;
  __shared__ Ctx shared_mod;
  if (m_stride == 0) load_shared(&shared_mod, mods);
  const G g;
  DevCoopTable<W> tab{table + grid_tid(), grid_threads()};
  for_group_items<TPI>(count, [&](size_t item, bool real) {
    const Ctx &m = m_stride == 0 ? shared_mod : mods[item];
    uint32_t b[1][W], r[1][W];
    coop_load<G, W>(g, b, base + item * N);
    Item::run(g, r, b, exp + item * e_stride, ewords, m, tab);
    if (real) coop_store<G, W>(g, out + item * N, r);
  });
}

// Launches `kernel` (one of the two above) with the PowmLaunch's arguments.
template <class Ctx, class K>
inline cudaError_t launch_powm_kernel(K kernel, const PowmLaunch &L, cudaStream_t s) {
  kernel<<<L.grid, kBlockThreads, 0, s>>>(L.out, L.base, L.exp, L.ewords, L.e_stride,
                                         static_cast<const Ctx *>(L.mods), L.m_stride, L.table, L.count);
  return cudaPeekAtLastError();
}

// The cooperative (modulus words, threads per item) pairs built for exponentiation, Montgomery
// (coop_kernels.cu) and Barrett (barrett_kernels.cu) alike; gpu_backend's powm_tpi picks
// among them.
#define MPB_COOP_POWM_PAIRS(X) X(32, 4) X(64, 4) X(64, 8) X(128, 16) X(256, 32)

} // namespace gpu
} // namespace mpb
