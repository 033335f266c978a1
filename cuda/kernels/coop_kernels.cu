// cuda/kernels/coop_kernels.cu: batched exponentiation and RSA-CRT with a group of TPI threads
// per item (cuda/thread/coop*.cuh), for moduli whose operands do not fit one thread's
// registers (2048..8192 bits) and as the alternative mapping at 1024 bits.
//
// Persistent grid: group g handles items g, g + groups, ... The loop bound is uniform across a
// warp (a group without an item computes on a copy of the last one and stores nothing), so
// every shuffle and ballot has the whole warp present; inside an item, the sliding-window
// loop (variable time) runs to the warp's largest step count (coop_powm.cuh, warp_any).
// powm: constant time (fixed windows, masked reads), sliding windows, and fixed windows with
// direct reads (PowmLaunch::fixed_window, for comparison) per (words, threads per item). The window table is in global memory:
// lane l of the grid keeps its W-word slice of entry e at table[(e*W + j) * lanes + l]
// (coalesced across the warp).
#include <cuda_runtime.h>

#include "../thread/coop_powm.cuh"
#include "device_common.cuh"
#include "kernels.h"

namespace mpb {
namespace gpu {
namespace {

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

// Iterates the items of the calling thread's group with a warp-uniform bound; body(item, real).
template <int TPI, class Body>
__device__ __forceinline__ void for_group_items(size_t count, Body body) {
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t groups = (size_t)gridDim.x * blockDim.x / TPI;
  const size_t group = tid / TPI;
  const size_t warp_first = (tid / 32) * (32 / TPI);
  for (size_t first = warp_first; first < count; first += groups) {
    const size_t item = first + (group - warp_first);
    const bool real = item < count;
    body(real ? item : count - 1, real);
  }
}

template <int TPI, int W, int WIN, bool CT, bool SLIDE>
__global__ void __launch_bounds__(kBlockThreads, 1)
coop_powm_kernel(uint32_t *out, const uint32_t *base, const uint32_t *exp, int ewords,
                 size_t e_stride, const ModCtx<TPI * W> *mods, int m_stride, uint32_t *table,
                 size_t count) {
  constexpr int N = TPI * W;
  using G = DevGroup<TPI>;
  __shared__ ModCtx<N> shared_mod;
  if (m_stride == 0) load_shared(&shared_mod, mods);
  const G g;
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  DevCoopTable<W> tab{table + tid, (size_t)gridDim.x * blockDim.x};
  for_group_items<TPI>(count, [&](size_t item, bool real) {
    const ModCtx<N> &m = m_stride == 0 ? shared_mod : mods[item];
    uint32_t b[1][W], r[1][W];
    coop_load<G, W>(g, b, base + item * N);
    coop_powm_item<G, W, WIN, CT, SLIDE>(g, r, b, exp + item * e_stride, ewords, m, tab);
    if (real) coop_store<G, W>(g, out + item * N, r);
  });
}

template <int TPI, int W, int WIN, bool CT>
__global__ void __launch_bounds__(kBlockThreads, 1)
coop_rsa_kernel(uint32_t *out, const uint32_t *c, const RsaCtx<TPI * W> *keys, int k_stride,
                uint32_t *table, size_t count) {
  constexpr int N = TPI * W;
  using G = DevGroup<TPI>;
  __shared__ RsaCtx<N> shared_key;
  if (k_stride == 0) load_shared(&shared_key, keys);
  const G g;
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  DevCoopTable<W> tab{table + tid, (size_t)gridDim.x * blockDim.x};
  for_group_items<TPI>(count, [&](size_t item, bool real) {
    const RsaCtx<N> &k = k_stride == 0 ? shared_key : keys[item];
    uint32_t lo[1][W], hi[1][W];
    coop_rsa_crt_item<G, W, WIN, CT>(g, lo, hi, c + item * 2 * N, k, tab);
    if (real) {
      coop_store<G, W>(g, out + item * 2 * N, lo);
      coop_store<G, W>(g, out + item * 2 * N + N, hi);
    }
  });
}

// The instantiated (words, threads per item) pairs. Window: Window<N>::W (5 bits).
template <int N>
using CoopPowmKernel = void (*)(uint32_t *, const uint32_t *, const uint32_t *, int, size_t,
                                const ModCtx<N> *, int, uint32_t *, size_t);
template <int N, int TPI>
CoopPowmKernel<N> coop_powm_kernel_for(bool ct, bool fixed) {
  constexpr int W = N / TPI, WIN = Window<N>::W;
  if (ct) return coop_powm_kernel<TPI, W, WIN, true, false>;
  return fixed ? coop_powm_kernel<TPI, W, WIN, false, false> : coop_powm_kernel<TPI, W, WIN, false, true>;
}
template <int N, int TPI>
cudaError_t powm_coop(const PowmLaunch &L, cudaStream_t s) {
  auto *mods = static_cast<const ModCtx<N> *>(L.mods);
  CoopPowmKernel<N> k = coop_powm_kernel_for<N, TPI>(L.constant_time, L.fixed_window);
  k<<<L.grid, kBlockThreads, 0, s>>>(L.out, L.base, L.exp, L.ewords, L.e_stride, mods, L.m_stride,
                                     L.table, L.count);
  return cudaPeekAtLastError();
}
template <int N, int TPI>
int powm_coop_grid_n(bool ct, bool fixed, int device) {
  return full_grid(coop_powm_kernel_for<N, TPI>(ct, fixed), device);
}
template <int N, int TPI>
cudaError_t rsa_coop(const RsaLaunch &L, cudaStream_t s) {
  constexpr int W = N / TPI, WIN = Window<N>::W;
  // Always the constant-time kernel (RSA exponents are secret), as in rsa_kernels.cu.
  coop_rsa_kernel<TPI, W, WIN, true><<<L.grid, kBlockThreads, 0, s>>>(
      L.out, L.c, static_cast<const RsaCtx<N> *>(L.keys), L.k_stride, L.table, L.count);
  return cudaPeekAtLastError();
}
template <int N, int TPI>
int rsa_coop_grid_n(int device) {
  constexpr int W = N / TPI, WIN = Window<N>::W;
  return full_grid(coop_rsa_kernel<TPI, W, WIN, true>, device);
}

#define MPB_COOP_POWM_PAIRS(X) X(32, 4) X(64, 4) X(64, 8) X(128, 16) X(256, 32)
#define MPB_COOP_RSA_PAIRS(X) X(32, 4) X(64, 8) X(128, 16)

} // namespace

bool powm_coop_supported(int nwords, int tpi) {
#define X(n, t) if (nwords == n && tpi == t) return true;
  MPB_COOP_POWM_PAIRS(X)
#undef X
  return false;
}
bool rsa_coop_supported(int half_nwords, int tpi) {
#define X(n, t) if (half_nwords == n && tpi == t) return true;
  MPB_COOP_RSA_PAIRS(X)
#undef X
  return false;
}

cudaError_t launch_powm_coop(const PowmLaunch &L, cudaStream_t s) {
#define X(n, t) if (L.nwords == n && L.tpi == t) return powm_coop<n, t>(L, s);
  MPB_COOP_POWM_PAIRS(X)
#undef X
  return cudaErrorInvalidValue;
}
int powm_coop_grid(int nwords, int tpi, bool ct, int device, bool fixed_window) {
#define X(n, t) if (nwords == n && tpi == t) return powm_coop_grid_n<n, t>(ct, fixed_window, device);
  MPB_COOP_POWM_PAIRS(X)
#undef X
  return 0;
}
cudaError_t launch_rsa_coop(const RsaLaunch &L, cudaStream_t s) {
#define X(n, t) if (L.half_nwords == n && L.tpi == t) return rsa_coop<n, t>(L, s);
  MPB_COOP_RSA_PAIRS(X)
#undef X
  return cudaErrorInvalidValue;
}
int rsa_coop_grid(int half_nwords, int tpi, int device) {
#define X(n, t) if (half_nwords == n && tpi == t) return rsa_coop_grid_n<n, t>(device);
  MPB_COOP_RSA_PAIRS(X)
#undef X
  return 0;
}
size_t coop_table_words(int nwords, int tpi, size_t threads) {
  const int win = nwords >= 32 ? 5 : 4;  // Window<N>::W
  return ((size_t)1 << win) * (size_t)(nwords / tpi) * threads;
}

} // namespace gpu
} // namespace mpb
