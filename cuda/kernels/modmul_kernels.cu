// cuda/kernels/modmul_kernels.cu: batched r = a*b mod m.
//  - small widths (N = 8, 16, 32 words): one thread per item, two Montgomery products
//    (cuda/thread/modmul.cuh), persistent grid, shared ModCtx in shared memory; with an even
//    modulus (N = 8, 16 only) the CRT variant on AnyModCtx;
//  - large widths: one block per item (persistent grid of blocks), the seed-004 multipartite
//    algorithm of cuda/block/modmul_multipartite.cuh with the block's threads cooperating through
//    dynamic shared memory; the phase functions are the ones the host tests run.
#include <cuda_runtime.h>

#include "cuda/thread/modmul.cuh"
#include "cuda/block/modmul_multipartite.cuh"
#include "cuda/kernels/generic_kernels.cuh"
#include "cuda/kernels/launch.h"

namespace mpb {
namespace gpu {

// Per-item work: odd moduli (ModCtx) or any parity (AnyModCtx, CRT with the power of two).
template <int N>
__device__ __forceinline__ void thread_item(uint32_t *r, const uint32_t *x, const uint32_t *y, const ModCtx<N> &m) {
  modmul_item<N>(r, x, y, m);
}
template <int N>
__device__ __forceinline__ void thread_item(uint32_t *r, const uint32_t *x, const uint32_t *y,
                                            const AnyModCtx<N> &m) {
  modmul_any_item<N>(r, x, y, m);
}

// a, b, out: count rows of rw words (rw <= N: zero padded to N). mods: Ctx[1 or count].
template <int N, class Ctx>
__global__ void __launch_bounds__(kBlockThreads)
modmul_thread_kernel(uint32_t *out, const uint32_t *a, const uint32_t *b, int rw, const Ctx *mods,
                     int m_stride, size_t count) {
  __shared__ Ctx shared_mod;
  if (m_stride == 0) load_shared(&shared_mod, mods);
  const size_t nthreads = (size_t)gridDim.x * blockDim.x;
  for (size_t item = (size_t)blockIdx.x * blockDim.x + threadIdx.x; item < count; item += nthreads) {
    const Ctx &m = m_stride == 0 ? shared_mod : mods[item];
    uint32_t x[N], y[N], r[N];
    MPB_UNROLL
    for (int j = 0; j < N; j++) {
      x[j] = j < rw ? a[item * rw + j] : 0u;
      y[j] = j < rw ? b[item * rw + j] : 0u;
    }
    thread_item<N>(r, x, y, m);
    MPB_UNROLL
    for (int j = 0; j < N; j++)
      if (j < rw) out[item * rw + j] = r[j];
  }
}

namespace {
// The block executor: every thread runs the phase, then the block synchronises.
struct DevExec {
  template <class F>
  MPB_HD void run(F f) {
#if defined(__CUDA_ARCH__)
    f((int)threadIdx.x);
    __syncthreads();
#else
    (void)f;
#endif
  }
};
} // namespace

// One block per item. ctxs: item contexts (cuda/host/modmul_multipartite_ctx.h) of ctx_stride words, one or one per item.
__global__ void __launch_bounds__(kModmulBlockMaxThreads)
modmul_block_kernel(uint32_t *out, const uint32_t *a, const uint32_t *b, int rw, const uint32_t *ctxs,
                    size_t ctx_stride, int m_stride, size_t count) {
  extern __shared__ uint64_t mp_smem[];
  for (size_t item = blockIdx.x; item < count; item += gridDim.x) {
    const uint32_t *ctx = ctxs + (m_stride ? item * ctx_stride : 0);
    mp::Block blk;
    blk.init(ctx, mp_smem, (int)blockDim.x);
    DevExec ex;
    mp::modmul_item(blk, ex, a + item * rw, b + item * rw);
    for (int i = threadIdx.x; i < rw; i += blockDim.x) out[item * rw + i] = i < blk.g.n ? blk.X[i] : 0u;
    __syncthreads();  // X is reloaded by the next item
  }
}

cudaError_t launch_modmul(const ModmulLaunch &L, cudaStream_t s) {
  switch (L.nwords) {
#define MPB_MODMUL_CASE(n)                                                                        \
  case n:                                                                                         \
    if (L.any_parity)                                                                             \
      modmul_thread_kernel<n, AnyModCtx<n>><<<L.grid, kBlockThreads, 0, s>>>(L.out, L.a, L.b,      \
          L.row_words, static_cast<const AnyModCtx<n> *>(L.mods), L.m_stride, L.count);           \
    else                                                                                          \
      modmul_thread_kernel<n, ModCtx<n>><<<L.grid, kBlockThreads, 0, s>>>(L.out, L.a, L.b,         \
          L.row_words, static_cast<const ModCtx<n> *>(L.mods), L.m_stride, L.count);              \
    break;
    MPB_MODMUL_CASE(8)
    MPB_MODMUL_CASE(16)
    case 32:  // even moduli: N <= 16 only (the CRT path spills registers at N = 32)
      if (L.any_parity) return cudaErrorInvalidValue;
      modmul_thread_kernel<32, ModCtx<32>><<<L.grid, kBlockThreads, 0, s>>>(L.out, L.a, L.b, L.row_words,
          static_cast<const ModCtx<32> *>(L.mods), L.m_stride, L.count);
      break;
#undef MPB_MODMUL_CASE
    case 0:
      modmul_block_kernel<<<L.grid, L.block_threads, L.smem_bytes, s>>>(L.out, L.a, L.b, L.row_words,
          static_cast<const uint32_t *>(L.mods), L.ctx_stride, L.m_stride, L.count);
      break;
    default: return cudaErrorInvalidValue;
  }
  return cudaPeekAtLastError();
}

size_t modmul_ctx_bytes(int nwords, bool any_parity) {
  switch (nwords) {
    case 8: return any_parity ? sizeof(AnyModCtx<8>) : sizeof(ModCtx<8>);
    case 16: return any_parity ? sizeof(AnyModCtx<16>) : sizeof(ModCtx<16>);
    case 32: return any_parity ? 0 : sizeof(ModCtx<32>);
    default: return 0;
  }
}

int modmul_grid(int nwords, bool any_parity, int block_threads, size_t smem_bytes, int device) {
  int sms = 0, per_sm = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) return 0;
  cudaError_t e = cudaSuccess;
  switch (nwords) {
    case 8:
      e = any_parity ? cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, modmul_thread_kernel<8, AnyModCtx<8>>, kBlockThreads, 0)
                     : cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, modmul_thread_kernel<8, ModCtx<8>>, kBlockThreads, 0);
      break;
    case 16:
      e = any_parity ? cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, modmul_thread_kernel<16, AnyModCtx<16>>, kBlockThreads, 0)
                     : cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, modmul_thread_kernel<16, ModCtx<16>>, kBlockThreads, 0);
      break;
    case 32:
      if (any_parity) return 0;
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, modmul_thread_kernel<32, ModCtx<32>>, kBlockThreads, 0);
      break;
    case 0:
      if (smem_bytes > 48 * 1024 &&
          (e = cudaFuncSetAttribute(modmul_block_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)smem_bytes)) != cudaSuccess)
        break;
      e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, modmul_block_kernel, block_threads, smem_bytes);
      break;
    default: return 0;
  }
  if (e != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return sms * (per_sm > 0 ? per_sm : 1);
}

} // namespace gpu
} // namespace mpb
