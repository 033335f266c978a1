// cuda/variants/gf2x_variants.cu: the GF(2)[x] kernels at plans other than the tuned one (comb
// window W, panel words P, block size B; squaring: B), for bench_gpu to time beside the
// library's (rows cuda-<name>) and so set cuda/tuning.h's GPU_GF2X_*. Built only with
// MPB_CUDA_TUNING_SHAPES (compile time: bench/gpu_deps.sh --prebuilt turns it on), at the widths
// bench_gpu measures: products of 2, 3, 4, 9 and 16 limbs (not 16 in panels of 4 words: that
// spills registers), squares of 4 and 9 limbs and products
// mod the five NIST polynomials. install_gf2x() hands them to gpu::gf2x_* (Options::gf2x_variant).
#include <cuda_runtime.h>

#include <type_traits>

#include "cuda/host/gpu_backend.h"
#include "cuda/kernels/launch.h"
#include "cuda/variants/powm_variants.h"

#if defined(MPB_CUDA_TUNING_SHAPES)
#include "cuda/kernels/gf2x_kernels.cuh"

namespace mpb {
namespace gpu {
namespace {

using namespace gf2k;

// The comb plans, alternative v = index + 1 (the tuned plan is W 4 (3 up to 4 words), P 8, B 64;
// each table fits the 48 KiB of static shared memory a block may have).
struct Plan { int w, p, b; const char *name; };
constexpr Plan kPlans[] = {{2, 8, 64, "w2p8b64"},  {3, 8, 64, "w3p8b64"},  {4, 8, 64, "w4p8b64"},
                           {5, 4, 64, "w5p4b64"},  {4, 16, 32, "w4p16b32"}, {4, 8, 32, "w4p8b32"},
                           {3, 8, 128, "w3p8b128"}, {4, 4, 128, "w4p4b128"}};
constexpr int kCount = sizeof kPlans / sizeof kPlans[0];
constexpr int kSqrBlocks[] = {32, 64, 128, 256};  // squaring alternatives 1..4: block size
constexpr const char *kSqrNames[] = {"b32", "b64", "b128", "b256"};

const char *name(int op, int v) {
  if (v < 1 || v > kCount) return nullptr;
  if (op == 1) return v <= 4 ? kSqrNames[v - 1] : nullptr;
  return kPlans[v - 1].name;
}

// f(kernel, block) for alternative v of op at `limbs` (sparse field fi for mulmod); false when
// none is built.
template <int V, class F>
bool with_plan(int op, int limbs, int fi, F &&f) {
  constexpr Plan P = kPlans[V - 1];
  if (op == 0) {
    switch (limbs) {
#define MPB_CASE(L) case L: f(gf2x_mul_kernel<2 * L, P.w, P.p, P.b>, P.b); return true;
      MPB_CASE(2) MPB_CASE(3) MPB_CASE(4) MPB_CASE(9)
#undef MPB_CASE
      case 16:  // 16 limbs in panels of 4 words: 4 accumulators spill (ptxas), so not built
        if constexpr (P.p >= 8) {
          f(gf2x_mul_kernel<32, P.w, P.p, P.b>, P.b);
          return true;
        }
        return false;
      default: return false;
    }
  }
  if (op == 2) {
    switch (fi) {
#define MPB_CASE(i) case i: f(gf2x_mulmod_sparse_kernel<i, P.w, P.p, P.b>, P.b); return true;
      MPB_CASE(0) MPB_CASE(1) MPB_CASE(2) MPB_CASE(3) MPB_CASE(4)
#undef MPB_CASE
      default: return false;
    }
  }
  if (op == 1 && V <= 4) {
    constexpr int B = kSqrBlocks[V <= 4 ? V - 1 : 0];
    switch (limbs) {
      case 4: f(gf2x_sqr_kernel<8, B>, B); return true;
      case 9: f(gf2x_sqr_kernel<18, B>, B); return true;
      default: return false;
    }
  }
  return false;
}
template <class F>
bool dispatch(int op, int limbs, int fi, int v, F &&f) {
  switch (v) {
#define MPB_CASE(k) case k: return with_plan<k>(op, limbs, fi, f);
    MPB_CASE(1) MPB_CASE(2) MPB_CASE(3) MPB_CASE(4) MPB_CASE(5) MPB_CASE(6) MPB_CASE(7) MPB_CASE(8)
#undef MPB_CASE
    default: return false;
  }
}
static_assert(kCount == 8, "one dispatch case per plan");

int grid(int op, int limbs, int fi, int v, int device) {
  int g = 0;
  if (!dispatch(op, limbs, fi, v, [&](auto kernel, int block) { g = resident_grid(kernel, block, device); })) return 0;
  return g;
}

cudaError_t launch(int op, int limbs, int fi, uint32_t *out, const uint32_t *a, const uint32_t *b, size_t count,
                   int v, int grid_blocks, cudaStream_t s) {
  if (!dispatch(op, limbs, fi, v, [&](auto kernel, int block) {
        if constexpr (std::is_same_v<decltype(kernel), void (*)(uint32_t *, const uint32_t *, size_t)>)
          kernel<<<grid_blocks, block, 0, s>>>(out, a, count);
        else
          kernel<<<grid_blocks, block, 0, s>>>(out, a, b, count);
      }))
    return cudaErrorInvalidValue;
  return cudaPeekAtLastError();
}

const Gf2xVariants kGf2x = {kCount, name, grid, launch};

} // namespace

namespace variants {
void install_gf2x() { install_gf2x_variants(&kGf2x); }
} // namespace variants
} // namespace gpu
} // namespace mpb

#else  // built without MPB_CUDA_TUNING_SHAPES: no alternatives

namespace mpb {
namespace gpu {
namespace variants {
void install_gf2x() { install_gf2x_variants(nullptr); }
} // namespace variants
} // namespace gpu
} // namespace mpb

#endif
