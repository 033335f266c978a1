// cuda/variants/powm_variants.h: the comparison exponentiation kernels (library mpb_cuda_variants,
// linked by bench_gpu and the device tests, never by libmpbatch): the other Montgomery
// arithmetics of the one-thread kernels and fixed windows for public exponents. After install()
// gpu::powm serves an Options with mont_variant or fixed_window set (cuda/host/gpu_backend.h).
#pragma once

namespace mpb {
namespace gpu {
namespace variants {
void install();       // the comparison exponentiation kernels, and install_gf2x()
void install_gf2x();  // the GF(2)[x] plan alternatives (with MPB_CUDA_TUNING_SHAPES; else none)
} // namespace variants
} // namespace gpu
} // namespace mpb
