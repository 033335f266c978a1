// cuda/variants/powm_variants.cu: the exponentiation kernels that only the benchmark and the device
// tests use, kept out of libmpbatch (library mpb_cuda_variants): the one-thread kernels with the
// Montgomery arithmetics other than tuning::GPU_POWM_MONT (cuda/thread/mont.cuh MontVariant),
// fixed windows with direct table reads for public exponents (one-thread and cooperative), and
// (MPB_CUDA_TUNING_SHAPES) constant-time fixed windows of other widths, which bench_gpu times
// beside the library's kernels (rows cuda-mont<V>, cuda-fixed, cuda-win<K>). install()
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

// Constant-time fixed windows of WIN bits (not cuda/tuning.h's width for the size), the default
// arithmetic, at the library's constant-time mappings: the powm defaults 512 (one thread per
// item), 1024 / 2048 (4 lanes), 4096 (8), 8192 (32) and the RSA halves' 512 (2 lanes) and 2048
// (8): what sets GPU_POWM_WINDOW_SMALL / GPU_POWM_WINDOW. Built with MPB_CUDA_TUNING_SHAPES only
// (bench/gpu_deps.sh --prebuilt), so CI's build stays as it was.
#ifdef MPB_CUDA_TUNING_SHAPES
#define MPB_WINDOW_PAIRS(X) X(16, 1) X(16, 2) X(32, 4) X(64, 4) X(64, 8) X(128, 8) X(256, 32)
template <int N, int TPI, int WIN>
ThreadKernel<N> ct_window_kernel() {
  if constexpr (WIN == Window<N>::W) return nullptr;  // the library's own kernel
  else if constexpr (TPI == 1) return thread_powm_kernel<N, WIN, MontPowmItem<N, WIN, true, false, tuning::GPU_POWM_MONT>>;
  else return coop_powm_kernel<TPI, N / TPI, CoopMontItem<N, WIN, true, false>>;
}
template <int N>
ThreadKernel<N> window_kernel(int tpi, int win) {
#define X(n, t)                                          \
  if constexpr (N == n)                                  \
    if (tpi == t) switch (win) {                         \
        case 3: return ct_window_kernel<n, t, 3>();      \
        case 4: return ct_window_kernel<n, t, 4>();      \
        case 5: return ct_window_kernel<n, t, 5>();      \
        case 6: return ct_window_kernel<n, t, 6>();      \
        default: return nullptr;                         \
      }
  MPB_WINDOW_PAIRS(X)
#undef X
  return nullptr;
}
#else
template <int N>
ThreadKernel<N> window_kernel(int, int) { return nullptr; }
#endif

// The kernel for a request, nullptr when none: a fixed-window width `win` other than the
// library's (constant time, window_kernel); tpi 1 at 16 / 32 words (any arithmetic), or a
// cooperative pair (fixed windows, variable time, the default arithmetic only).
template <int N>
ThreadKernel<N> kernel_for(int tpi, bool ct, int mont, bool fixed, int win) {
  if (win != 0) return ct && !fixed && (mont < 0 || mont == tuning::GPU_POWM_MONT) ? window_kernel<N>(tpi, win) : nullptr;
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
R with_kernel(int nwords, int tpi, bool ct, int mont, bool fixed, int win, F &&f, R none) {
  switch (nwords) {
#define MPB_VARIANT_CASE(n)                                                  \
  case n: {                                                                  \
    ThreadKernel<n> k = kernel_for<n>(tpi, ct, mont, fixed, win);            \
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

bool exists(int nwords, int tpi, bool ct, int mont, bool fixed, int win) {
  return with_kernel(nwords, tpi, ct, mont, fixed, win, [](auto) { return true; }, false);
}
int grid(int nwords, int tpi, bool ct, int mont, bool fixed, int win, int device) {
  return with_kernel(nwords, tpi, ct, mont, fixed, win, [&](auto k) { return full_grid(k, device); }, 0);
}
template <int N>
cudaError_t launch_with(ThreadKernel<N> k, const PowmLaunch &L, cudaStream_t s) {
  return launch_powm_kernel<ModCtx<N>>(k, L, s);
}
cudaError_t launch(const PowmLaunch &L, cudaStream_t s) {
  return with_kernel(L.nwords, L.tpi, L.constant_time, L.mont, L.fixed_window, L.win,
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
