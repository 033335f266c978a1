// cuda/kernels/barrett_kernels.cu: batched modular exponentiation for ANY modulus (even ones
// included) by Barrett reduction (cuda/thread/barrett.cuh, coop_barrett.cuh): one thread per
// item at 512 and 1024 bits, a group of TPI lanes per item for the same (words, TPI) pairs as
// the Montgomery kernels of coop_kernels.cu. Same launch description (PowmLaunch, with
// BarrettModCtx<nwords> as the modulus constants), same persistent grid, same window widths
// and table layouts as powm_kernels.cu / coop_kernels.cu, so the host side sizes the tables
// with table_words / coop_table_words.
#include <cuda_runtime.h>

#include "../thread/coop_barrett.cuh"
#include "device_common.cuh"
#include "kernels.h"

namespace mpb {
namespace gpu {
namespace {

template <int N, int W, bool CT>
__global__ void __launch_bounds__(kBlockThreads, 1)
powm_barrett_kernel(uint32_t *out, const uint32_t *base, const uint32_t *exp, int ewords, size_t e_stride,
                    const BarrettModCtx<N> *mods, int m_stride, uint32_t *table, size_t count) {
  __shared__ BarrettModCtx<N> shared_mod;
  if (m_stride == 0) load_shared(&shared_mod, mods);
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  DevTable<N, W> tab{table + tid, nthreads};
  for (size_t item = tid; item < count; item += nthreads) {
    const BarrettModCtx<N> &m = m_stride == 0 ? shared_mod : mods[item];
    uint32_t b[N], r[N];
    MPB_UNROLL
    for (int j = 0; j < N; j++) b[j] = base[item * N + j];
    powm_barrett_item<N, W, CT>(r, b, exp + item * e_stride, ewords, m, tab);
    MPB_UNROLL
    for (int j = 0; j < N; j++) out[item * N + j] = r[j];
  }
}

// The cooperative table and item loop, as in coop_kernels.cu (lane l of the grid keeps its
// W-word slice of entry e at table[(e*W + j) * lanes + l]; a warp-uniform loop bound).
template <int W>
struct DevCoopTableB {
  uint32_t *base;
  size_t stride;
  __device__ __forceinline__ uint32_t word(int, int e, int j) const { return base[(size_t)(e * W + j) * stride]; }
  __device__ __forceinline__ void store_word(int, int e, int j, uint32_t x) {
    base[(size_t)(e * W + j) * stride] = x;
  }
};

template <int TPI, int W, int WIN, bool CT>
__global__ void __launch_bounds__(kBlockThreads, 1)
coop_powm_barrett_kernel(uint32_t *out, const uint32_t *base, const uint32_t *exp, int ewords, size_t e_stride,
                         const BarrettModCtx<TPI * W> *mods, int m_stride, uint32_t *table, size_t count) {
  constexpr int N = TPI * W;
  using G = DevGroup<TPI>;
  __shared__ BarrettModCtx<N> shared_mod;
  if (m_stride == 0) load_shared(&shared_mod, mods);
  const G g;
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  DevCoopTableB<W> tab{table + tid, (size_t)gridDim.x * blockDim.x};
  const size_t groups = (size_t)gridDim.x * blockDim.x / TPI;
  const size_t group = tid / TPI;
  const size_t warp_first = (tid / 32) * (32 / TPI);
  for (size_t first = warp_first; first < count; first += groups) {
    const size_t it = first + (group - warp_first);
    const bool real = it < count;
    const size_t item = real ? it : count - 1;  // a group without an item computes on the last one
    const BarrettModCtx<N> &m = m_stride == 0 ? shared_mod : mods[item];
    uint32_t b[1][W], r[1][W];
    coop_load<G, W>(g, b, base + item * N);
    coop_powm_barrett_item<G, W, WIN, CT>(g, r, b, exp + item * e_stride, ewords, m, tab);
    if (real) coop_store<G, W>(g, out + item * N, r);
  }
}

template <int N>
cudaError_t launch_thread(const PowmLaunch &L, cudaStream_t s) {
  constexpr int W = Window<N>::W;
  auto *mods = static_cast<const BarrettModCtx<N> *>(L.mods);
  if (L.constant_time)
    powm_barrett_kernel<N, W, true><<<L.grid, kBlockThreads, 0, s>>>(L.out, L.base, L.exp, L.ewords, L.e_stride,
                                                                     mods, L.m_stride, L.table, L.count);
  else
    powm_barrett_kernel<N, W, false><<<L.grid, kBlockThreads, 0, s>>>(L.out, L.base, L.exp, L.ewords, L.e_stride,
                                                                      mods, L.m_stride, L.table, L.count);
  return cudaPeekAtLastError();
}
template <int N>
int grid_thread(bool ct, int device) {
  constexpr int W = Window<N>::W;
  return ct ? full_grid(powm_barrett_kernel<N, W, true>, device) : full_grid(powm_barrett_kernel<N, W, false>, device);
}
template <int N, int TPI>
cudaError_t launch_coop(const PowmLaunch &L, cudaStream_t s) {
  constexpr int W = N / TPI, WIN = Window<N>::W;
  auto *mods = static_cast<const BarrettModCtx<N> *>(L.mods);
  if (L.constant_time)
    coop_powm_barrett_kernel<TPI, W, WIN, true><<<L.grid, kBlockThreads, 0, s>>>(
        L.out, L.base, L.exp, L.ewords, L.e_stride, mods, L.m_stride, L.table, L.count);
  else
    coop_powm_barrett_kernel<TPI, W, WIN, false><<<L.grid, kBlockThreads, 0, s>>>(
        L.out, L.base, L.exp, L.ewords, L.e_stride, mods, L.m_stride, L.table, L.count);
  return cudaPeekAtLastError();
}
template <int N, int TPI>
int grid_coop(bool ct, int device) {
  constexpr int W = N / TPI, WIN = Window<N>::W;
  return ct ? full_grid(coop_powm_barrett_kernel<TPI, W, WIN, true>, device)
            : full_grid(coop_powm_barrett_kernel<TPI, W, WIN, false>, device);
}

// (words, threads per item) pairs: one thread at 16 and 32 words; the cooperative pairs are
// those of MPB_COOP_POWM_PAIRS in coop_kernels.cu (powm_tpi picks among those).
#define MPB_BARRETT_THREAD_SIZES(X) X(16) X(32)
#define MPB_BARRETT_COOP_PAIRS(X) X(32, 4) X(64, 4) X(64, 8) X(128, 16) X(256, 32)

} // namespace

bool powm_barrett_supported(int nwords, int tpi) {
#define X(n) if (tpi == 1 && nwords == n) return true;
  MPB_BARRETT_THREAD_SIZES(X)
#undef X
#define X(n, t) if (nwords == n && tpi == t) return true;
  MPB_BARRETT_COOP_PAIRS(X)
#undef X
  return false;
}

cudaError_t launch_powm_barrett(const PowmLaunch &L, cudaStream_t s) {
#define X(n) if (L.tpi == 1 && L.nwords == n) return launch_thread<n>(L, s);
  MPB_BARRETT_THREAD_SIZES(X)
#undef X
#define X(n, t) if (L.nwords == n && L.tpi == t) return launch_coop<n, t>(L, s);
  MPB_BARRETT_COOP_PAIRS(X)
#undef X
  return cudaErrorInvalidValue;
}

int powm_barrett_grid(int nwords, int tpi, bool ct, int device) {
#define X(n) if (tpi == 1 && nwords == n) return grid_thread<n>(ct, device);
  MPB_BARRETT_THREAD_SIZES(X)
#undef X
#define X(n, t) if (nwords == n && tpi == t) return grid_coop<n, t>(ct, device);
  MPB_BARRETT_COOP_PAIRS(X)
#undef X
  return 0;
}

size_t barrett_ctx_bytes(int nwords) {
  switch (nwords) {
#define X(n) case n: return sizeof(BarrettModCtx<n>);
    X(16) X(32) X(64) X(128) X(256)
#undef X
    default: return 0;
  }
}

} // namespace gpu
} // namespace mpb
