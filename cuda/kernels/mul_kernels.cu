// cuda/kernels/mul_kernels.cu: batched products, delayed-carry Comba or carry chains, one thread per item.
#include <cuda_runtime.h>

#include "cuda/thread/powm.cuh"
#include "cuda/kernels/generic_kernels.cuh"
#include "cuda/kernels/launch.h"

namespace mpb {
namespace gpu {

// r (2N words) = a * b, delayed-carry Comba or carry chains.
template <int N, bool DC>
__global__ void __launch_bounds__(kBlockThreads)
mul_kernel(uint32_t *out, const uint32_t *a, const uint32_t *b, size_t count) {
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  for (size_t item = (size_t)blockIdx.x * blockDim.x + threadIdx.x; item < count; item += nthreads) {
    uint32_t x[N], y[N], r[2 * N];
    MPB_UNROLL
    for (int j = 0; j < N; j++) x[j] = a[item * N + j], y[j] = b[item * N + j];
    if (DC) mul_comba_dc<N>(r, x, y);
    else mul_chain<N>(r, x, y);
    MPB_UNROLL
    for (int j = 0; j < 2 * N; j++) out[item * 2 * N + j] = r[j];
  }
}

cudaError_t launch_mul(int nwords, bool delayed_carry, uint32_t *out, const uint32_t *a,
                       const uint32_t *b, size_t count, int grid, cudaStream_t s) {
#define MPB_MUL_CASE(n)                                                                      \
  case n:                                                                                   \
    if (delayed_carry) mul_kernel<n, true><<<grid, kBlockThreads, 0, s>>>(out, a, b, count); \
    else mul_kernel<n, false><<<grid, kBlockThreads, 0, s>>>(out, a, b, count);             \
    break;
  switch (nwords) {
    MPB_MUL_CASE(8)
    MPB_MUL_CASE(16)
    MPB_MUL_CASE(32)
    default: return cudaErrorInvalidValue;
  }
#undef MPB_MUL_CASE
  return cudaPeekAtLastError();
}

} // namespace gpu
} // namespace mpb
