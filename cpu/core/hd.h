// cpu/core/hd.h: MPB_HD, the one host/device function marker. Under nvcc it makes a function
// callable (and force-inlined) on both the host and the GPU; in a plain C++ build it is
// `inline`, so the CUDA per-thread arithmetic (cuda/thread/, cuda/warp/, ...) and the limb
// primitives (core/limb.h) compile into the CPU library and its tests without CUDA.
#pragma once

#if defined(__CUDACC__)
#define MPB_HD __host__ __device__ __forceinline__
#else
#define MPB_HD inline
#endif
