// cuda/kernels/gf2x_kernels.cu: batched GF(2)[x] products, squares and products mod one shared f,
// one thread per item, grid-stride. The comb window tables live in shared memory, one slice per
// thread interleaved across the block (cuda/thread/gf2x.cuh), so blocks are kGf2xBlock threads.
#include <cuda_runtime.h>

#include "cuda/thread/gf2x.cuh"
#include "cuda/kernels/launch.h"

namespace mpb {
namespace gpu {

namespace {

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

template <int N>
using DevTab = StridedTab<Gf2Plan<N>::P + 1, kGf2xBlock>;
// the tables are static shared memory: at most 48 KiB per block without an opt-in
static_assert(Gf2Plan<32>::TAB_WORDS * kGf2xBlock * 4 <= 48 * 1024, "gf2x window tables exceed 48 KiB per block");

template <int N>
__global__ void __launch_bounds__(kGf2xBlock)
gf2x_mul_kernel(u32 *out, const u32 *a, const u32 *b, size_t count) {
  __shared__ u32 smem[Gf2Plan<N>::TAB_WORDS * kGf2xBlock];
  DevTab<N> T{smem + threadIdx.x};
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  for (size_t item = (size_t)blockIdx.x * blockDim.x + threadIdx.x; item < count; item += nthreads) {
    u32 x[N], y[N], r[2 * N];
    load_row<N>(x, a, item);
    load_row<N>(y, b, item);
    mul<N>(r, x, y, T);
    store_row<2 * N>(out, r, item);
  }
}

template <int N>
__global__ void __launch_bounds__(kGf2xSqrBlock)
gf2x_sqr_kernel(u32 *out, const u32 *a, size_t count) {
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  for (size_t item = (size_t)blockIdx.x * blockDim.x + threadIdx.x; item < count; item += nthreads) {
    u32 x[N], r[2 * N];
    load_row<N>(x, a, item);
    sqr<N>(r, x);
    store_row<2 * N>(out, r, item);
  }
}

template <int N>
__global__ void __launch_bounds__(kGf2xBlock)
gf2x_mulmod_barrett_kernel(u32 *out, const u32 *a, const u32 *b, const BarrettF<N> F, size_t count) {
  __shared__ u32 smem[Gf2Plan<N>::TAB_WORDS * kGf2xBlock];
  DevTab<N> T{smem + threadIdx.x};
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  for (size_t item = (size_t)blockIdx.x * blockDim.x + threadIdx.x; item < count; item += nthreads) {
    u32 x[N], y[N];
    load_row<N>(x, a, item);
    load_row<N>(y, b, item);
    mulmod_barrett<N>(x, x, y, F, T);
    store_row<N>(out, x, item);
  }
}

template <int FI>
__global__ void __launch_bounds__(kGf2xBlock)
gf2x_mulmod_sparse_kernel(u32 *out, const u32 *a, const u32 *b, size_t count) {
  constexpr SparseField S = kSparseFields[FI];
  constexpr int N = 2 * S.limbs;
  __shared__ u32 smem[Gf2Plan<N>::TAB_WORDS * kGf2xBlock];
  DevTab<N> T{smem + threadIdx.x};
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  for (size_t item = (size_t)blockIdx.x * blockDim.x + threadIdx.x; item < count; item += nthreads) {
    u32 x[N], y[N];
    load_row<N>(x, a, item);
    load_row<N>(y, b, item);
    mulmod_sparse<N, S.m, S.k1, S.k2, S.k3>(x, x, y, T);
    store_row<N>(out, x, item);
  }
}

} // namespace

// The widths (64-bit limbs) with kernels: NIST field widths 3, 5, 7, 9 and powers of two.
#define MPB_GF2X_MUL_WIDTHS(X) X(1) X(2) X(3) X(4) X(5) X(7) X(8) X(9) X(16)
#define MPB_GF2X_MULMOD_WIDTHS(X) X(1) X(2) X(3) X(4) X(5) X(7) X(8) X(9)

bool gf2x_mul_kernel_exists(int limbs) {
#define MPB_CASE(w) if (limbs == w) return true;
  MPB_GF2X_MUL_WIDTHS(MPB_CASE)
#undef MPB_CASE
  return false;
}
bool gf2x_mulmod_kernel_exists(int limbs) {
#define MPB_CASE(w) if (limbs == w) return true;
  MPB_GF2X_MULMOD_WIDTHS(MPB_CASE)
#undef MPB_CASE
  return false;
}
size_t gf2x_barrett_bytes(int limbs) {
#define MPB_CASE(w) if (limbs == w) return sizeof(BarrettF<2 * w>);
  MPB_GF2X_MULMOD_WIDTHS(MPB_CASE)
#undef MPB_CASE
  return 0;
}
bool gf2x_barrett_setup(void *params, const uint64_t *f, int limbs) {
#define MPB_CASE(w) if (limbs == w) return barrett_setup<2 * w>(*static_cast<BarrettF<2 * w> *>(params), f, w);
  MPB_GF2X_MULMOD_WIDTHS(MPB_CASE)
#undef MPB_CASE
  return false;
}
int gf2x_sparse_field(const uint64_t *f, int limbs) { return sparse_field_index(f, (size_t)limbs); }

namespace {
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
} // namespace

int gf2x_grid(int op, int limbs, int sparse_field, int device) {
  if (op == 2 && sparse_field >= 0) {
    switch (sparse_field) {
#define MPB_CASE(i) case i: return resident_grid(gf2x_mulmod_sparse_kernel<i>, kGf2xBlock, device);
      MPB_CASE(0) MPB_CASE(1) MPB_CASE(2) MPB_CASE(3) MPB_CASE(4)
#undef MPB_CASE
      default: return 0;
    }
  }
  switch (limbs) {
#define MPB_CASE(w)                                                                             \
  case w:                                                                                       \
    if (op == 0) return resident_grid(gf2x_mul_kernel<2 * w>, kGf2xBlock, device);              \
    if (op == 1) return resident_grid(gf2x_sqr_kernel<2 * w>, kGf2xSqrBlock, device);           \
    break;
    MPB_GF2X_MUL_WIDTHS(MPB_CASE)
#undef MPB_CASE
    default: break;
  }
  if (op == 2) switch (limbs) {
#define MPB_CASE(w) case w: return resident_grid(gf2x_mulmod_barrett_kernel<2 * w>, kGf2xBlock, device);
      MPB_GF2X_MULMOD_WIDTHS(MPB_CASE)
#undef MPB_CASE
      default: break;
    }
  return 0;
}

cudaError_t launch_gf2x_mul(int limbs, uint32_t *out, const uint32_t *a, const uint32_t *b, size_t count,
                            int grid, cudaStream_t s) {
  switch (limbs) {
#define MPB_CASE(w) \
  case w: gf2x_mul_kernel<2 * w><<<grid, kGf2xBlock, 0, s>>>(out, a, b, count); break;
    MPB_GF2X_MUL_WIDTHS(MPB_CASE)
#undef MPB_CASE
    default: return cudaErrorInvalidValue;
  }
  return cudaPeekAtLastError();
}

cudaError_t launch_gf2x_sqr(int limbs, uint32_t *out, const uint32_t *a, size_t count, int grid,
                            cudaStream_t s) {
  switch (limbs) {
#define MPB_CASE(w) \
  case w: gf2x_sqr_kernel<2 * w><<<grid, kGf2xSqrBlock, 0, s>>>(out, a, count); break;
    MPB_GF2X_MUL_WIDTHS(MPB_CASE)
#undef MPB_CASE
    default: return cudaErrorInvalidValue;
  }
  return cudaPeekAtLastError();
}

cudaError_t launch_gf2x_mulmod(int limbs, int sparse_field, const void *barrett, uint32_t *out,
                               const uint32_t *a, const uint32_t *b, size_t count, int grid, cudaStream_t s) {
  if (sparse_field >= 0) {
    switch (sparse_field) {
#define MPB_CASE(i)                                                                              \
  case i:                                                                                        \
    if (limbs != kSparseFields[i].limbs) return cudaErrorInvalidValue;                           \
    gf2x_mulmod_sparse_kernel<i><<<grid, kGf2xBlock, 0, s>>>(out, a, b, count);                  \
    break;
      MPB_CASE(0) MPB_CASE(1) MPB_CASE(2) MPB_CASE(3) MPB_CASE(4)
#undef MPB_CASE
      default: return cudaErrorInvalidValue;
    }
    static_assert(kNumSparseFields == 5, "one sparse kernel per field");
    return cudaPeekAtLastError();
  }
  switch (limbs) {
#define MPB_CASE(w)                                                                              \
  case w:                                                                                        \
    gf2x_mulmod_barrett_kernel<2 * w><<<grid, kGf2xBlock, 0, s>>>(                               \
        out, a, b, *static_cast<const BarrettF<2 * w> *>(barrett), count);                       \
    break;
    MPB_GF2X_MULMOD_WIDTHS(MPB_CASE)
#undef MPB_CASE
    default: return cudaErrorInvalidValue;
  }
  return cudaPeekAtLastError();
}

} // namespace gpu
} // namespace mpb
