// cuda/kernels/barrett_kernels.cu: batched modular exponentiation for ANY modulus (even ones
// included) by Barrett reduction (cuda/thread/barrett.cuh, coop_barrett.cuh): one thread per
// item at 512 and 1024 bits, a group of TPI lanes per item for the same (words, TPI) pairs as
// the Montgomery kernels of coop_kernels.cu. The generic kernels of generic_kernels.cuh with
// Barrett items: same launch description (PowmLaunch, with BarrettModCtx<nwords> as the
// modulus constants), persistent grid, window widths and table layouts as the Montgomery
// kernels, so the host side sizes the tables with table_words / coop_table_words.
#include <cuda_runtime.h>

#include "cuda/warp/coop_barrett.cuh"
#include "cuda/kernels/generic_kernels.cuh"
#include "cuda/kernels/launch.h"

namespace mpb {
namespace gpu {
namespace {

template <int N>
using BarrettKernel = void (*)(uint32_t *, const uint32_t *, const uint32_t *, int, size_t,
                               const BarrettModCtx<N> *, int, uint32_t *, size_t);
template <int N>
BarrettKernel<N> thread_kernel(bool ct) {
  constexpr int W = Window<N>::W;
  return ct ? thread_powm_kernel<N, W, BarrettItem<N, W, true>> : thread_powm_kernel<N, W, BarrettItem<N, W, false>>;
}
template <int N, int TPI>
BarrettKernel<N> coop_kernel(bool ct) {
  constexpr int W = N / TPI, WIN = Window<N>::W;
  return ct ? coop_powm_kernel<TPI, W, CoopBarrettItem<N, WIN, true>>
            : coop_powm_kernel<TPI, W, CoopBarrettItem<N, WIN, false>>;
}
template <int N>
cudaError_t launch_thread(const PowmLaunch &L, cudaStream_t s) {
  return launch_powm_kernel<BarrettModCtx<N>>(thread_kernel<N>(L.constant_time), L, s);
}
template <int N, int TPI>
cudaError_t launch_coop(const PowmLaunch &L, cudaStream_t s) {
  return launch_powm_kernel<BarrettModCtx<N>>(coop_kernel<N, TPI>(L.constant_time), L, s);
}

// (words, threads per item): one thread at 16 and 32 words; the cooperative pairs of the
// Montgomery kernels (MPB_COOP_POWM_PAIRS, generic_kernels.cuh; powm_tpi picks among those).
#define MPB_BARRETT_THREAD_SIZES(X) X(16) X(32)

} // namespace

bool powm_barrett_supported(int nwords, int tpi) {
#define X(n) if (tpi == 1 && nwords == n) return true;
  MPB_BARRETT_THREAD_SIZES(X)
#undef X
#define X(n, t) if (nwords == n && tpi == t) return true;
  MPB_COOP_POWM_PAIRS(X)
#undef X
  return false;
}

cudaError_t launch_powm_barrett(const PowmLaunch &L, cudaStream_t s) {
#define X(n) if (L.tpi == 1 && L.nwords == n) return launch_thread<n>(L, s);
  MPB_BARRETT_THREAD_SIZES(X)
#undef X
#define X(n, t) if (L.nwords == n && L.tpi == t) return launch_coop<n, t>(L, s);
  MPB_COOP_POWM_PAIRS(X)
#undef X
  return cudaErrorInvalidValue;
}

int powm_barrett_grid(int nwords, int tpi, bool ct, int device) {
#define X(n) if (tpi == 1 && nwords == n) return full_grid(thread_kernel<n>(ct), device);
  MPB_BARRETT_THREAD_SIZES(X)
#undef X
#define X(n, t) if (nwords == n && tpi == t) return full_grid(coop_kernel<n, t>(ct), device);
  MPB_COOP_POWM_PAIRS(X)
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
