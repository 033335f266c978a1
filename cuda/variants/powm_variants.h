// cuda/variants/powm_variants.h: the comparison exponentiation kernels (library mpb_cuda_variants,
// linked by bench_gpu and the device tests, never by libmpbatch): the other Montgomery
// arithmetics of the one-thread kernels and fixed windows for public exponents. After install()
// gpu::powm serves an Options with mont_variant or fixed_window set (cuda/host/gpu_backend.h).
#pragma once

namespace mpb {
namespace gpu {
namespace variants {
void install();
} // namespace variants
} // namespace gpu
} // namespace mpb
