// cuda/kernels/powm_kernels.cu: batched modular exponentiation, one thread per item, persistent grid.
// Instantiated per size (N = 16, 32 words) for constant time (fixed windows, masked table scan)
// and variable time (sliding windows), with the Montgomery arithmetic tuning::GPU_POWM_MONT
// names (cuda/thread/mont.cuh MontVariant). The comparison kernels (the other arithmetics, fixed
// windows for public exponents) are in cuda/variants/, outside the library.
#include <cuda_runtime.h>

#include "cuda/thread/powm.cuh"
#include "cuda/kernels/generic_kernels.cuh"
#include "cuda/kernels/launch.h"

namespace mpb {
namespace gpu {

template <int N>
using PowmKernel = void (*)(uint32_t *, const uint32_t *, const uint32_t *, int, size_t,
                            const ModCtx<N> *, int, uint32_t *, size_t);

// The library's kernel for a mode: constant time (fixed windows, masked reads) or sliding
// windows, with the arithmetic tuning::GPU_POWM_MONT names; nullptr: none (the constant-time
// Comba at 1024 bits needs more than 255 registers: not built). The other arithmetics and the
// fixed-window variable-time loop are comparison kernels outside the library (cuda/variants/).
template <int N>
static PowmKernel<N> powm_kernel_for(bool ct) {
  constexpr int W = Window<N>::W, V = tuning::GPU_POWM_MONT;
  if (ct) {
    if constexpr (V == kMontComba && N >= 32) return nullptr;
    else return thread_powm_kernel<N, W, MontPowmItem<N, W, true, false, V>>;
  }
  return thread_powm_kernel<N, W, MontPowmItem<N, W, false, true, V>>;
}

template <int N>
static cudaError_t launch_powm_n(const PowmLaunch &L, cudaStream_t s) {
  PowmKernel<N> k = powm_kernel_for<N>(L.constant_time);
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

int powm_grid(int nwords, bool ct, int device) {
  switch (nwords) {
    case 16: {
      PowmKernel<16> k = powm_kernel_for<16>(ct);
      return k ? full_grid(k, device) : 0;
    }
    case 32: {
      PowmKernel<32> k = powm_kernel_for<32>(ct);
      return k ? full_grid(k, device) : 0;
    }
    default: return 0;
  }
}
size_t table_words(int nwords, size_t threads, int win) { return thread_table_words(nwords, threads, win); }

size_t modctx_bytes(int nwords) {
  switch (nwords) {
    case 16: return sizeof(ModCtx<16>);
    case 32: return sizeof(ModCtx<32>);
    default: return 0;
  }
}
} // namespace gpu
} // namespace mpb
