// cuda/kernels/powm_kernels.cu: batched modular exponentiation, one thread per item, persistent grid.
// Instantiated per size (N = 16, 32 words) for: constant time (fixed windows, masked table
// scan) and variable time (sliding windows), each with the three Montgomery arithmetics of
// mont.cuh (MontVariant; tuning::GPU_POWM_MONT is the default; except constant-time Comba
// at N = 32, which spills), plus the fixed-window variable-time loop with the default
// arithmetic for comparison (PowmLaunch::fixed_window).
#include <cuda_runtime.h>

#include "cuda/thread/powm.cuh"
#include "cuda/kernels/generic_kernels.cuh"
#include "cuda/kernels/launch.h"

namespace mpb {
namespace gpu {

template <int N>
using PowmKernel = void (*)(uint32_t *, const uint32_t *, const uint32_t *, int, size_t,
                            const ModCtx<N> *, int, uint32_t *, size_t);
template <int N, int W, bool CT, bool SLIDE, int V>
static PowmKernel<N> powm_kernel() {
  return thread_powm_kernel<N, W, MontPowmItem<N, W, CT, SLIDE, V>>;
}

// The kernel for a mode: ct (fixed windows, masked reads), else sliding windows, or fixed
// windows with direct reads when `fixed`; mont < 0: tuning::GPU_POWM_MONT. nullptr: none.
template <int N>
static PowmKernel<N> powm_kernel_for(bool ct, bool fixed, int mont) {
  constexpr int W = Window<N>::W;
  if (mont < 0) mont = tuning::GPU_POWM_MONT;
  if (!ct && fixed) return mont == tuning::GPU_POWM_MONT ? powm_kernel<N, W, false, false, tuning::GPU_POWM_MONT>() : nullptr;
  switch (mont) {
    case kMontCios: return ct ? powm_kernel<N, W, true, false, kMontCios>() : powm_kernel<N, W, false, true, kMontCios>();
    case kMontSqr: return ct ? powm_kernel<N, W, true, false, kMontSqr>() : powm_kernel<N, W, false, true, kMontSqr>();
    case kMontComba:
      // constant time at 1024 bits: the Comba square and product next to the masked table
      // scan need more than 255 registers (ptxas spills 72..160 bytes): not built
      if constexpr (N >= 32) return ct ? nullptr : powm_kernel<N, W, false, true, kMontComba>();
      else return ct ? powm_kernel<N, W, true, false, kMontComba>() : powm_kernel<N, W, false, true, kMontComba>();
    default: return nullptr;
  }
}

template <int N>
static cudaError_t launch_powm_n(const PowmLaunch &L, cudaStream_t s) {
  PowmKernel<N> k = powm_kernel_for<N>(L.constant_time, L.fixed_window, L.mont);
  if (!k) return cudaErrorInvalidValue;
  return launch_powm_kernel<ModCtx<N>>(k, L, s);
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
size_t table_words(int nwords, size_t threads) { return thread_table_words(nwords, threads); }

size_t modctx_bytes(int nwords) {
  switch (nwords) {
    case 16: return sizeof(ModCtx<16>);
    case 32: return sizeof(ModCtx<32>);
    default: return 0;
  }
}
} // namespace gpu
} // namespace mpb
