// cuda/kernels/powm_kernels.cu: batched modular exponentiation, one thread per item, persistent grid.
#include <cuda_runtime.h>

#include "../thread/powm.cuh"
#include "device_common.cuh"
#include "kernels.h"

namespace mpb {
namespace gpu {

// base, out: count rows of N words. exp: rows of ewords words, e_stride = 0 (one exponent
// for all) or ewords. mods: m_stride = 0 (one modulus) or 1 (one ModCtx per item).
template <int N, int W, bool CT>
__global__ void __launch_bounds__(kBlockThreads, 1)
powm_kernel(uint32_t *out, const uint32_t *base, const uint32_t *exp, int ewords, size_t e_stride,
            const ModCtx<N> *mods, int m_stride, uint32_t *table, size_t count) {
  __shared__ ModCtx<N> shared_mod;
  if (m_stride == 0) load_shared(&shared_mod, mods);
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  DevTable<N, W> tab{table + tid, nthreads};
  for (size_t item = tid; item < count; item += nthreads) {
    const ModCtx<N> &m = m_stride == 0 ? shared_mod : mods[item];
    uint32_t b[N], r[N];
    MPB_UNROLL
    for (int j = 0; j < N; j++) b[j] = base[item * N + j];
    powm_item<N, W, CT>(r, b, exp + item * e_stride, ewords, m, tab);
    MPB_UNROLL
    for (int j = 0; j < N; j++) out[item * N + j] = r[j];
  }
}

template <int N>
static cudaError_t launch_powm_n(const PowmLaunch &L, cudaStream_t s) {
  constexpr int W = Window<N>::W;
  auto *mods = static_cast<const ModCtx<N> *>(L.mods);
  if (L.constant_time)
    powm_kernel<N, W, true><<<L.grid, kBlockThreads, 0, s>>>(L.out, L.base, L.exp, L.ewords,
        L.e_stride, mods, L.m_stride, L.table, L.count);
  else
    powm_kernel<N, W, false><<<L.grid, kBlockThreads, 0, s>>>(L.out, L.base, L.exp, L.ewords,
        L.e_stride, mods, L.m_stride, L.table, L.count);
  return cudaPeekAtLastError();
}

cudaError_t launch_powm(const PowmLaunch &L, cudaStream_t s) {
  switch (L.nwords) {
    case 16: return launch_powm_n<16>(L, s);
    case 32: return launch_powm_n<32>(L, s);
    default: return cudaErrorInvalidValue;
  }
}

int powm_grid(int nwords, bool ct, int device) {
  switch (nwords) {
    case 16: return ct ? full_grid(powm_kernel<16, 4, true>, device) : full_grid(powm_kernel<16, 4, false>, device);
    case 32: return ct ? full_grid(powm_kernel<32, 5, true>, device) : full_grid(powm_kernel<32, 5, false>, device);
    default: return 0;
  }
}
size_t table_words(int nwords, size_t threads) { return table_words_impl(nwords, threads); }

size_t modctx_bytes(int nwords) {
  switch (nwords) {
    case 16: return sizeof(ModCtx<16>);
    case 32: return sizeof(ModCtx<32>);
    default: return 0;
  }
}
} // namespace gpu
} // namespace mpb
