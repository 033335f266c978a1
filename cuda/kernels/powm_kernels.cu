// cuda/kernels/powm_kernels.cu: batched modular exponentiation, one thread per item, persistent grid.
// Instantiated per size (N = 16, 32 words) for: constant time (fixed windows, masked table
// scan) and variable time (sliding windows), each with the three Montgomery arithmetics of
// mont.cuh (MontVariant; tuning::GPU_POWM_MONT is the default; except constant-time Comba
// at N = 32, which spills), plus the fixed-window variable-time loop with the default
// arithmetic for comparison (PowmLaunch::fixed_window).
#include <cuda_runtime.h>

#include "../thread/powm.cuh"
#include "device_common.cuh"
#include "kernels.h"

namespace mpb {
namespace gpu {

// base, out: count rows of N words. exp: rows of ewords words, e_stride = 0 (one exponent
// for all) or ewords. mods: m_stride = 0 (one modulus) or 1 (one ModCtx per item).
template <int N, int W, bool CT, bool SLIDE, int V>
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
    powm_item<N, W, CT, SLIDE, V>(r, b, exp + item * e_stride, ewords, m, tab);
    MPB_UNROLL
    for (int j = 0; j < N; j++) out[item * N + j] = r[j];
  }
}

template <int N>
using PowmKernel = void (*)(uint32_t *, const uint32_t *, const uint32_t *, int, size_t,
                            const ModCtx<N> *, int, uint32_t *, size_t);

// The kernel for a mode: ct (fixed windows, masked reads), else sliding windows, or fixed
// windows with direct reads when `fixed`; mont < 0: tuning::GPU_POWM_MONT. nullptr: none.
template <int N>
static PowmKernel<N> powm_kernel_for(bool ct, bool fixed, int mont) {
  constexpr int W = Window<N>::W;
  if (mont < 0) mont = tuning::GPU_POWM_MONT;
  if (!ct && fixed) return mont == tuning::GPU_POWM_MONT ? powm_kernel<N, W, false, false, tuning::GPU_POWM_MONT> : nullptr;
  switch (mont) {
    case kMontCios: return ct ? powm_kernel<N, W, true, false, kMontCios> : powm_kernel<N, W, false, true, kMontCios>;
    case kMontSqr: return ct ? powm_kernel<N, W, true, false, kMontSqr> : powm_kernel<N, W, false, true, kMontSqr>;
    case kMontComba:
      // constant time at 1024 bits: the Comba square and product next to the masked table
      // scan need more than 255 registers (ptxas spills 72..160 bytes): not built
      if constexpr (N >= 32) return ct ? nullptr : powm_kernel<N, W, false, true, kMontComba>;
      else return ct ? powm_kernel<N, W, true, false, kMontComba> : powm_kernel<N, W, false, true, kMontComba>;
    default: return nullptr;
  }
}

template <int N>
static cudaError_t launch_powm_n(const PowmLaunch &L, cudaStream_t s) {
  PowmKernel<N> k = powm_kernel_for<N>(L.constant_time, L.fixed_window, L.mont);
  if (!k) return cudaErrorInvalidValue;
  k<<<L.grid, kBlockThreads, 0, s>>>(L.out, L.base, L.exp, L.ewords, L.e_stride,
                                     static_cast<const ModCtx<N> *>(L.mods), L.m_stride, L.table, L.count);
  return cudaPeekAtLastError();
}

cudaError_t launch_powm(const PowmLaunch &L, cudaStream_t s) {
  switch (L.nwords) {
    case 16: return launch_powm_n<16>(L, s);
    case 32: return launch_powm_n<32>(L, s);
    default: return cudaErrorInvalidValue;
  }
}

bool powm_variant_exists(int nwords, bool ct, int mont, bool fixed_window) {
  switch (nwords) {
    case 16: return powm_kernel_for<16>(ct, fixed_window, mont) != nullptr;
    case 32: return powm_kernel_for<32>(ct, fixed_window, mont) != nullptr;
    default: return false;
  }
}

int powm_grid(int nwords, bool ct, int device, int mont, bool fixed_window) {
  switch (nwords) {
    case 16: {
      PowmKernel<16> k = powm_kernel_for<16>(ct, fixed_window, mont);
      return k ? full_grid(k, device) : 0;
    }
    case 32: {
      PowmKernel<32> k = powm_kernel_for<32>(ct, fixed_window, mont);
      return k ? full_grid(k, device) : 0;
    }
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
