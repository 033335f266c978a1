// cuda/kernels/coop_kernels.cu: batched exponentiation and RSA-CRT with a group of TPI threads
// per item (cuda/warp/coop*.cuh), for moduli whose operands do not fit one thread's
// registers (2048..8192 bits) and as the alternative mapping at 1024 bits.
//
// Persistent grid with a warp-uniform item loop (for_group_items, cuda/grid/powm_bodies.cuh); inside an
// item, the sliding-window loop (variable time) runs to the warp's largest step count
// (coop_powm.cuh, warp_any).
// powm: constant time (fixed windows, masked reads) and sliding windows per (words, threads per
// item); the fixed-window variable-time comparison kernels are in cuda/variants/. The window
// table is in global memory (StridedCoopTable, cuda/grid/powm_bodies.cuh: coalesced across the warp).
#include <cuda_runtime.h>

#include "cuda/warp/coop_powm.cuh"
#include "cuda/kernels/generic_kernels.cuh"
#include "cuda/kernels/launch.h"

namespace mpb {
namespace gpu {
namespace {

// The instantiated (words, threads per item) pairs. Window: Window<N>::W (5 bits).
template <int N>
using CoopPowmKernel = void (*)(uint32_t *, const uint32_t *, const uint32_t *, int, size_t,
                                const ModCtx<N> *, int, uint32_t *, size_t);
template <int N, int TPI>
CoopPowmKernel<N> coop_powm_kernel_for(bool ct) {
  constexpr int W = N / TPI, WIN = Window<N>::W;
  return ct ? coop_powm_kernel<TPI, W, CoopMontItem<N, WIN, true, false>>
            : coop_powm_kernel<TPI, W, CoopMontItem<N, WIN, false, true>>;
}
template <int N, int TPI>
cudaError_t powm_coop(const PowmLaunch &L, cudaStream_t s) {
  return launch_powm_kernel<ModCtx<N>>(coop_powm_kernel_for<N, TPI>(L.constant_time), L, s);
}
template <int N, int TPI>
int powm_coop_grid_n(bool ct, int device) {
  return full_grid(coop_powm_kernel_for<N, TPI>(ct), device);
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

// MPB_COOP_POWM_PAIRS: generic_kernels.cuh (shared with barrett_kernels.cu)
#ifdef MPB_CUDA_TUNING_SHAPES  // the other lane counts, for bench_gpu (generic_kernels.cuh)
#define MPB_COOP_RSA_TUNING_PAIRS(X) X(16, 4) X(32, 2) X(32, 8) X(64, 4) X(64, 16) X(128, 32)
#else
#define MPB_COOP_RSA_TUNING_PAIRS(X)
#endif
#define MPB_COOP_RSA_PAIRS(X) X(16, 2) X(32, 4) X(64, 8) X(128, 8) X(128, 16) MPB_COOP_RSA_TUNING_PAIRS(X)

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

bool coop_tuning_only(bool rsa, int nwords, int tpi) {
#define X(n, t) if (nwords == n && tpi == t) return true;
  if (rsa) {
    MPB_COOP_RSA_TUNING_PAIRS(X)
  } else {
    MPB_COOP_POWM_TUNING_PAIRS(X)
  }
#undef X
  return false;
}

cudaError_t launch_powm_coop(const PowmLaunch &L, cudaStream_t s) {
#define X(n, t) if (L.nwords == n && L.tpi == t) return powm_coop<n, t>(L, s);
  MPB_COOP_POWM_PAIRS(X)
#undef X
  return cudaErrorInvalidValue;
}
int powm_coop_grid(int nwords, int tpi, bool ct, int device) {
#define X(n, t) if (nwords == n && tpi == t) return powm_coop_grid_n<n, t>(ct, device);
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
size_t coop_table_words(int nwords, int tpi, size_t threads, int win) {
  return coop_table_words_for(nwords, tpi, threads, win);
}

} // namespace gpu
} // namespace mpb
