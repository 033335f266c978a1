// cuda/kernels/rsa_kernels.cu: batched RSA private-key operations by CRT, one thread per item.
#include <cuda_runtime.h>

#include "cuda/thread/powm.cuh"
#include "cuda/kernels/generic_kernels.cuh"
#include "cuda/kernels/launch.h"

namespace mpb {
namespace gpu {

template <int N>
static cudaError_t launch_rsa_n(const RsaLaunch &L, cudaStream_t s) {
  constexpr int W = Window<N>::W;
  auto *keys = static_cast<const RsaCtx<N> *>(L.keys);
  // Always the constant-time kernel: RSA exponents are secret, and one variant per size
  // halves the build time. (A variable-time request gets the same, slower-is-safer code.)
  thread_rsa_kernel<N, W, true><<<L.grid, kBlockThreads, 0, s>>>(L.out, L.c, keys, L.k_stride,
                                                               L.table, L.count);
  return cudaPeekAtLastError();
}

cudaError_t launch_rsa_crt(const RsaLaunch &L, cudaStream_t s) {
  switch (L.half_nwords) {
    case 16: return launch_rsa_n<16>(L, s);
    case 32: return launch_rsa_n<32>(L, s);
    default: return cudaErrorInvalidValue;
  }
}

int rsa_grid(int half_nwords, int device) {
  switch (half_nwords) {
    case 16: return full_grid(thread_rsa_kernel<16, 4, true>, device);
    case 32: return full_grid(thread_rsa_kernel<32, 5, true>, device);
    default: return 0;
  }
}

size_t rsactx_bytes(int half_nwords) {
  switch (half_nwords) {
    case 16: return sizeof(RsaCtx<16>);
    case 32: return sizeof(RsaCtx<32>);
    default: return 0;
  }
}

} // namespace gpu
} // namespace mpb
