// cuda/host/run.h: the streaming machinery of cuda/host/gpu_backend.cu shared by the other host
// files of the CUDA backend (cuda/host/gpu_gf2x.cu): chunked double-buffered execution of a
// batch on one device (run_device) and the split of a batch over devices (run_split).
#pragma once
#include <cuda_runtime.h>

#include <functional>
#include <vector>

#include "../gpu_backend.h"

namespace mpb {
namespace gpu {

// printf into why (when not NULL)
void say(char *why, size_t len, const char *fmt, ...);

struct Input {
  const void *host;   // whole-batch base pointer
  size_t item_bytes;  // bytes per item (per_item) or total bytes (shared)
  bool per_item;
};

using Launch = std::function<cudaError_t(void *const *d_in, void *d_out, void *d_table,
                                         size_t n, cudaStream_t s)>;

// Items [first, first + n) of the batch on device `dev`: inputs staged through pinned buffers
// in chunks (chunk_hint items, 0: from device memory), launch() per chunk, outputs
// (out_item_bytes per item) copied back into out_host. table_bytes: per-slot device scratch.
int run_device(int dev, size_t first, size_t n, const std::vector<Input> &ins, void *out_host,
               size_t out_item_bytes, size_t table_bytes, size_t chunk_hint, const Launch &launch,
               char *why, size_t why_len);

// Splits [0, count) over the devices of opt (all visible when none), one host thread each;
// the first error wins. No device: MPB_EDEVICE.
int run_split(size_t count, const Options &opt, char *why, size_t why_len,
              const std::function<int(int dev, size_t first, size_t n, char *w, size_t wl)> &fn);

} // namespace gpu
} // namespace mpb
