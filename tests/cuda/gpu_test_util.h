// tests/cuda/gpu_test_util.h: what the device tests share: the item count per operation and
// size (MPB_GPU_TEST_ITEMS overrides 100,000) and the device probe (WARNs when there is none).
#pragma once
#include <catch2/catch.hpp>

#include <cstdlib>

#include "../../cuda/gpu_backend.h"

namespace mpbt {

inline size_t gpu_test_items() {
  if (const char *e = std::getenv("MPB_GPU_TEST_ITEMS")) return std::strtoull(e, nullptr, 0);
  return 100000;
}

// True when a CUDA device is usable; else WARNs that `what` is not tested on a GPU here.
inline bool have_gpu_device(const char *what) {
  char why[160] = {0};
  int n = mpb::gpu::device_count(why, sizeof why);
  if (n == 0) WARN("no CUDA device, " << what << " not tested here: " << why);
  return n > 0;
}

} // namespace mpbt
