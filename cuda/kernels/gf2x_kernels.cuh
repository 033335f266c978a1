// cuda/kernels/gf2x_kernels.cuh: the batched GF(2)[x] kernels (products, squares, products mod
// one shared f), one thread per item, grid-stride, as templates over the comb's plan: window
// WO and panel PO (0: cuda/tuning.h's, see Gf2Plan in cuda/thread/gf2x.cuh) and the block size
// BLOCK. The comb window tables live in shared memory, one slice per thread interleaved across
// the block, so the block size is part of the kernel. gf2x_kernels.cu instantiates the tuned
// plan; cuda/variants/gf2x_variants.cu the alternatives bench_gpu times.
#pragma once
#include <cuda_runtime.h>

#include "cuda/thread/gf2x.cuh"

namespace mpb {
namespace gpu {
namespace gf2k {

using namespace gf2;

// Row loads/stores in 64-bit limbs (rows are 8-byte aligned): half the memory instructions of
// word accesses; neighbouring threads touch neighbouring rows.
template <int N>
__device__ __forceinline__ void load_row(u32 *x, const u32 *src, size_t item) {
  const uint2 *p = reinterpret_cast<const uint2 *>(src) + item * (N / 2);
  MPB_UNROLL
  for (int l = 0; l < N / 2; l++) {
    uint2 v = p[l];
    x[2 * l] = v.x, x[2 * l + 1] = v.y;
  }
}
template <int N>
__device__ __forceinline__ void store_row(u32 *dst, const u32 *x, size_t item) {
  uint2 *p = reinterpret_cast<uint2 *>(dst) + item * (N / 2);
  MPB_UNROLL
  for (int l = 0; l < N / 2; l++) p[l] = make_uint2(x[2 * l], x[2 * l + 1]);
}

// The tables are static shared memory: at most 48 KiB per block without an opt-in.
template <int N, int WO, int PO, int BLOCK>
struct CombShape {
  using Pl = Gf2Plan<N, WO, PO>;
  using Tab = StridedTab<Pl::P + 1, BLOCK>;
  static constexpr int SMEM_WORDS = Pl::TAB_WORDS * BLOCK;
  static_assert(SMEM_WORDS * 4 <= 48 * 1024, "gf2x window tables exceed 48 KiB per block");
};

template <int N, int WO, int PO, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
gf2x_mul_kernel(u32 *out, const u32 *a, const u32 *b, size_t count) {
  using S = CombShape<N, WO, PO, BLOCK>;
  __shared__ u32 smem[S::SMEM_WORDS];
  typename S::Tab T{smem + threadIdx.x};
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  for (size_t item = (size_t)blockIdx.x * blockDim.x + threadIdx.x; item < count; item += nthreads) {
    u32 x[N], y[N], r[2 * N];
    load_row<N>(x, a, item);
    load_row<N>(y, b, item);
    mul<N, typename S::Pl>(r, x, y, T);
    store_row<2 * N>(out, r, item);
  }
}

template <int N, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
gf2x_sqr_kernel(u32 *out, const u32 *a, size_t count) {
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  for (size_t item = (size_t)blockIdx.x * blockDim.x + threadIdx.x; item < count; item += nthreads) {
    u32 x[N], r[2 * N];
    load_row<N>(x, a, item);
    sqr<N>(r, x);
    store_row<2 * N>(out, r, item);
  }
}

template <int N, int WO, int PO, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
gf2x_mulmod_barrett_kernel(u32 *out, const u32 *a, const u32 *b, const BarrettF<N> F, size_t count) {
  using S = CombShape<N, WO, PO, BLOCK>;
  __shared__ u32 smem[S::SMEM_WORDS];
  typename S::Tab T{smem + threadIdx.x};
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  for (size_t item = (size_t)blockIdx.x * blockDim.x + threadIdx.x; item < count; item += nthreads) {
    u32 x[N], y[N];
    load_row<N>(x, a, item);
    load_row<N>(y, b, item);
    mulmod_barrett<N, typename S::Pl>(x, x, y, F, T);
    store_row<N>(out, x, item);
  }
}

// FI: index of the NIST polynomial in kSparseFields.
template <int FI, int WO, int PO, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
gf2x_mulmod_sparse_kernel(u32 *out, const u32 *a, const u32 *b, size_t count) {
  constexpr SparseField F = kSparseFields[FI];
  constexpr int N = 2 * F.limbs;
  using S = CombShape<N, WO, PO, BLOCK>;
  __shared__ u32 smem[S::SMEM_WORDS];
  typename S::Tab T{smem + threadIdx.x};
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  for (size_t item = (size_t)blockIdx.x * blockDim.x + threadIdx.x; item < count; item += nthreads) {
    u32 x[N], y[N];
    load_row<N>(x, a, item);
    load_row<N>(y, b, item);
    mulmod_sparse<N, F.m, F.k1, F.k2, F.k3, typename S::Pl>(x, x, y, T);
    store_row<N>(out, x, item);
  }
}

// SMs x resident blocks of `kernel` (block threads, static shared memory only); 0 on error.
template <class K>
int resident_grid(K kernel, int block, int device) {
  int sms = 0, per_sm = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return sms * (per_sm > 0 ? per_sm : 1);
}

} // namespace gf2k
} // namespace gpu
} // namespace mpb
