// cuda/variants/powm_variants.cu: the exponentiation kernels that only the benchmark and the device
// tests use, kept out of libmpbatch (library mpb_cuda_variants): the one-thread kernels with the
// Montgomery arithmetics other than tuning::GPU_POWM_MONT (cuda/thread/mont.cuh MontVariant),
// and fixed windows with direct table reads for public exponents (one-thread and cooperative),
// which bench_gpu times beside the library's kernels (rows cuda-mont<V>, cuda-fixed). install()
// hands them to the library's gpu::powm (cuda/host/gpu_backend.h).
#include <cuda_runtime.h>

#include "cuda/host/gpu_backend.h"
#include "cuda/kernels/generic_kernels.cuh"
#include "cuda/kernels/launch.h"
#include "cuda/thread/powm.cuh"
#include "cuda/variants/powm_variants.h"
#include "cuda/warp/coop_powm.cuh"

namespace mpb {
namespace gpu {
namespace {

template <int N>
using ThreadKernel = void (*)(uint32_t *, const uint32_t *, const uint32_t *, int, size_t, const ModCtx<N> *,
                              int, uint32_t *, size_t);

template <int N, bool CT, bool SLIDE, int V>
ThreadKernel<N> thread_kernel() {
  constexpr int W = Window<N>::W;
  return thread_powm_kernel<N, W, MontPowmItem<N, W, CT, SLIDE, V>>;
}

// One thread per item, arithmetic `mont` (-1: the default): constant time, sliding windows, or
// (fixed, variable time) fixed windows with the default arithmetic. nullptr: not built (the
// constant-time Comba at 1024 bits spills registers).
template <int N>
ThreadKernel<N> thread_variant(bool ct, bool fixed, int mont) {
  if (mont < 0) mont = tuning::GPU_POWM_MONT;
  if (!ct && fixed) return mont == tuning::GPU_POWM_MONT ? thread_kernel<N, false, false, tuning::GPU_POWM_MONT>() : nullptr;
  switch (mont) {
    case kMontCios: return ct ? thread_kernel<N, true, false, kMontCios>() : thread_kernel<N, false, true, kMontCios>();
    case kMontSqr: return ct ? thread_kernel<N, true, false, kMontSqr>() : thread_kernel<N, false, true, kMontSqr>();
    case kMontComba:
      if constexpr (N >= 32) return ct ? nullptr : thread_kernel<N, false, true, kMontComba>();
      else return ct ? thread_kernel<N, true, false, kMontComba>() : thread_kernel<N, false, true, kMontComba>();
    default: return nullptr;
  }
}

// A group of TPI threads per item, fixed windows for a public exponent (the cooperative
// kernels have one arithmetic).
template <int N, int TPI>
ThreadKernel<N> coop_fixed() {
  constexpr int W = N / TPI, WIN = Window<N>::W;
  return coop_powm_kernel<TPI, W, CoopMontItem<N, WIN, false, false>>;
}

// The kernel for a request, nullptr when none: tpi 1 at 16 / 32 words (any arithmetic), or a
// cooperative pair (fixed windows, variable time, the default arithmetic only).
template <int N>
ThreadKernel<N> kernel_for(int tpi, bool ct, int mont, bool fixed) {
  if (tpi == 1) {
    if constexpr (N == 16 || N == 32) return thread_variant<N>(ct, fixed, mont);
    return nullptr;
  }
  if (ct || !fixed || (mont >= 0 && mont != tuning::GPU_POWM_MONT)) return nullptr;
#define X(n, t) if constexpr (N == n) if (tpi == t) return coop_fixed<n, t>();
  MPB_COOP_POWM_PAIRS(X)
#undef X
  return nullptr;
}

// Runs f(kernel_for<N>(...)) for the request's size; `none` when the size has no kernel.
template <class F, class R>
R with_kernel(int nwords, int tpi, bool ct, int mont, bool fixed, F &&f, R none) {
  switch (nwords) {
#define MPB_VARIANT_CASE(n)                                                  \
  case n: {                                                                  \
    ThreadKernel<n> k = kernel_for<n>(tpi, ct, mont, fixed);                 \
    return k ? f(k) : none;                                                  \
  }
    MPB_VARIANT_CASE(16)
    MPB_VARIANT_CASE(32)
    MPB_VARIANT_CASE(64)
    MPB_VARIANT_CASE(128)
    MPB_VARIANT_CASE(256)
#undef MPB_VARIANT_CASE
    default: return none;
  }
}

bool exists(int nwords, int tpi, bool ct, int mont, bool fixed) {
  return with_kernel(nwords, tpi, ct, mont, fixed, [](auto) { return true; }, false);
}
int grid(int nwords, int tpi, bool ct, int mont, bool fixed, int device) {
  return with_kernel(nwords, tpi, ct, mont, fixed, [&](auto k) { return full_grid(k, device); }, 0);
}
template <int N>
cudaError_t launch_with(ThreadKernel<N> k, const PowmLaunch &L, cudaStream_t s) {
  return launch_powm_kernel<ModCtx<N>>(k, L, s);
}
cudaError_t launch(const PowmLaunch &L, cudaStream_t s) {
  return with_kernel(L.nwords, L.tpi, L.constant_time, L.mont, L.fixed_window,
                     [&](auto k) { return launch_with(k, L, s); }, cudaErrorInvalidValue);
}

const PowmVariants kVariants = {exists, grid, launch};

} // namespace

namespace variants {
void install() {
  install_powm_variants(&kVariants);
  install_gf2x();  // cuda/variants/gf2x_variants.cu
}
} // namespace variants

} // namespace gpu
} // namespace mpb
