// cuda/host/device_run.h: host-side plumbing shared by the files of cuda/host/ (defined in
// gpu_backend.cu; used by gpu_gf2x.cu and gpu_modmul.cu): reasons, Montgomery constants, host parallel loops, and the chunked,
// double-buffered execution on one device (run_device) split over the devices (run_split).
#pragma once
#include <cuda_runtime.h>

#include <cstring>
#include <functional>
#include <vector>

#include "cuda/host/gpu_backend.h"
#include "cuda/thread/powm.cuh"

namespace mpb {
namespace gpu {

// printf into why (len bytes), when why is not NULL.
void say(char *why, size_t len, const char *fmt, ...);
// rem (w limbs) = 2^(64k) mod n; rem = a * 2^(64k) mod n (n: w limbs, may have leading zeros).
void pow2_mod(uint64_t *rem, size_t k, const uint64_t *n, size_t w);
void shl_mod(uint64_t *rem, const uint64_t *a, size_t k, const uint64_t *n, size_t w);

template <int N>
void make_modctx(ModCtx<N> &m, const uint64_t *n) {
  constexpr size_t w = N / 2;
  std::memcpy(m.n, n, sizeof m.n);
  uint64_t t[w];
  pow2_mod(t, 2 * w, n, w);
  std::memcpy(m.r2, t, sizeof m.r2);
  pow2_mod(t, w, n, w);
  std::memcpy(m.one, t, sizeof m.one);
  m.ninv = mont_ninv32(m.n[0]);
  m.slide_w = 0;
}

// Runs fn(a, b) over [0, n) on the host's cores (contexts for per-item moduli/keys).
void parallel_for(size_t n, const std::function<void(size_t, size_t)> &fn);

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
