// cuda/kernels/gf2x_kernels.cu: the library's GF(2)[x] kernels (cuda/kernels/gf2x_kernels.cuh) at
// the tuned plan (cuda/tuning.h GPU_GF2X_*): their widths, grids and launches.
#include <cuda_runtime.h>

#include "cuda/kernels/gf2x_kernels.cuh"
#include "cuda/kernels/launch.h"

namespace mpb {
namespace gpu {

using namespace gf2;
using namespace gf2k;

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

int gf2x_grid(int op, int limbs, int sparse_field, int device) {
  if (op == 2 && sparse_field >= 0) {
    switch (sparse_field) {
#define MPB_CASE(i) case i: return resident_grid(gf2x_mulmod_sparse_kernel<i, 0, 0, kGf2xBlock>, kGf2xBlock, device);
      MPB_CASE(0) MPB_CASE(1) MPB_CASE(2) MPB_CASE(3) MPB_CASE(4)
#undef MPB_CASE
      default: return 0;
    }
  }
  switch (limbs) {
#define MPB_CASE(w)                                                                             \
  case w:                                                                                       \
    if (op == 0) return resident_grid(gf2x_mul_kernel<2 * w, 0, 0, kGf2xBlock>, kGf2xBlock, device);              \
    if (op == 1) return resident_grid(gf2x_sqr_kernel<2 * w, kGf2xSqrBlock>, kGf2xSqrBlock, device);           \
    break;
    MPB_GF2X_MUL_WIDTHS(MPB_CASE)
#undef MPB_CASE
    default: break;
  }
  if (op == 2) switch (limbs) {
#define MPB_CASE(w) case w: return resident_grid(gf2x_mulmod_barrett_kernel<2 * w, 0, 0, kGf2xBlock>, kGf2xBlock, device);
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
  case w: gf2x_mul_kernel<2 * w, 0, 0, kGf2xBlock><<<grid, kGf2xBlock, 0, s>>>(out, a, b, count); break;
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
  case w: gf2x_sqr_kernel<2 * w, kGf2xSqrBlock><<<grid, kGf2xSqrBlock, 0, s>>>(out, a, count); break;
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
    gf2x_mulmod_sparse_kernel<i, 0, 0, kGf2xBlock><<<grid, kGf2xBlock, 0, s>>>(out, a, b, count);                  \
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
    gf2x_mulmod_barrett_kernel<2 * w, 0, 0, kGf2xBlock><<<grid, kGf2xBlock, 0, s>>>(                               \
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
