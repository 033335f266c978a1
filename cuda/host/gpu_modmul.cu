// cuda/host/gpu_modmul.cu: batch r = a*b mod m on the GPU for odd moduli (host side):
// widths up to tuning::GPU_MODMUL_THREAD_MAX_LIMBS use the one-thread-per-item Montgomery
// kernel (the modulus zero padded to 8, 16 or 32 words), wider ones up to
// tuning::GPU_MODMUL_BLOCK_MAX_LIMBS the multipartite block kernel (seed 004) with item
// contexts precomputed here (cuda/host/modmul_multipartite_ctx.h). Streaming and the multi-GPU split are
// run_device / run_split of gpu_backend.cu.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include <mpbatch/common.h>
#include "cuda/tuning.h"

#include "cuda/host/gpu_backend.h"
#include "cuda/kernels/launch.h"
#include "cuda/block/modmul_multipartite.cuh"
#include "cuda/host/modmul_any_ctx.h"
#include "cuda/host/modmul_multipartite_ctx.h"
#include "cuda/host/device_run.h"

namespace mpb {
namespace gpu {
namespace {

// The inputs of a modmul call: a and b per item, the modulus contexts (ctx_bytes each) shared
// or per item.
std::vector<Input> modmul_inputs(const uint64_t *a, const uint64_t *b, size_t width, const void *ctx,
                                 size_t ctx_bytes, size_t m_rows) {
  return {{a, width * 8, true}, {b, width * 8, true}, {ctx, ctx_bytes, m_rows != 1}};
}
// The launch fields both modmul kernels share, for one chunk of cn items.
ModmulLaunch modmul_launch(int nwords, int row_words, void *const *d_in, void *d_out, size_t m_rows, size_t cn,
                           int grid) {
  ModmulLaunch L{};
  L.nwords = nwords;
  L.out = (uint32_t *)d_out;
  L.a = (const uint32_t *)d_in[0];
  L.b = (const uint32_t *)d_in[1];
  L.row_words = row_words;
  L.mods = d_in[2];
  L.m_stride = m_rows == 1 ? 0 : 1;
  L.count = cn;
  L.grid = grid;
  return L;
}

template <int N>
void make_ctx_n(ModCtx<N> &c, const uint64_t *m) { make_modctx<N>(c, m); }
template <int N>
void make_ctx_n(AnyModCtx<N> &c, const uint64_t *m) { make_any_ctx<N>(c, m, N / 2); }

// Ctx = ModCtx<N> (odd moduli) or AnyModCtx<N> (some modulus even).
template <int N, class Ctx>
int modmul_thread_n(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t m_rows,
                    size_t width, size_t count, const Options &opt, char *why, size_t why_len) {
  constexpr size_t w = N / 2;
  constexpr bool any = sizeof(Ctx) != sizeof(ModCtx<N>);
  std::vector<Ctx> ctx;
  try {
    ctx.resize(m_rows);
  } catch (...) {
    say(why, why_len, "out of host memory for %zu modulus contexts", m_rows);
    return MPB_EMEM;
  }
  parallel_for(m_rows, [&](size_t lo, size_t hi) {
    uint64_t pad[w];
    for (size_t i = lo; i < hi; i++) {
      std::fill(pad, pad + w, 0);
      std::copy(m + i * width, m + i * width + width, pad);
      make_ctx_n(ctx[i], pad);
    }
  });
  const int rw = (int)(2 * width);
  return run_split(count, opt, why, why_len, [&](int dev, size_t first, size_t n, char *wy, size_t wl) -> int {
    int grid = modmul_grid(N, any, kBlockThreads, 0, dev);
    if (grid <= 0) return say(wy, wl, "device %d: no resident blocks for the modmul kernel", dev), MPB_EDEVICE;
    return run_device(dev, first, n, modmul_inputs(a, b, width, ctx.data(), sizeof(Ctx), m_rows), r, width * 8, 0,
        opt.chunk_items,
        [&](void *const *d_in, void *d_out, void *, size_t cn, cudaStream_t s) {
          ModmulLaunch L = modmul_launch(N, rw, d_in, d_out, m_rows, cn, grid);
          L.any_parity = any;
          return launch_modmul(L, s);
        },
        wy, wl);
  });
}

int modmul_block(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t m_rows,
                 size_t width, size_t count, const Options &opt, char *why, size_t why_len) {
  if (opt.modmul_k < 0 || opt.modmul_k == 1 || opt.modmul_k > 16 || opt.modmul_threads < 0 || opt.modmul_threads > 256)
    return say(why, why_len, "modmul block kernel: k %d (2..16) or %d threads per item (1..256) out of range",
               opt.modmul_k, opt.modmul_threads), MPB_EVAL;
  const int k = opt.modmul_k ? opt.modmul_k : tuning::GPU_MODMUL_K;
  const int T = opt.modmul_threads ? opt.modmul_threads : tuning::GPU_MODMUL_BLOCK_THREADS;
  const size_t stride = mp::ctx_stride((int)(2 * width), k);
  std::vector<uint32_t> ctx;
  try {
    ctx.resize(stride * m_rows);
  } catch (...) {
    say(why, why_len, "out of host memory for %zu modulus contexts", m_rows);
    return MPB_EMEM;
  }
  std::vector<char> ok(m_rows, 0);
  parallel_for(m_rows, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; i++) ok[i] = mp::make_ctx(&ctx[i * stride], m + i * width, width, k);
  });
  size_t smem = 0;
  for (size_t i = 0; i < m_rows; i++) {
    if (!ok[i]) {
      say(why, why_len, "modulus %zu below 256 bits: no block-kernel context", i);
      return MPB_EUNSUPPORTED;
    }
    const uint32_t *c = &ctx[i * stride];
    smem = std::max(smem, mp::shared_bytes((int)c[0], (int)c[1]));
  }
  const int rw = (int)(2 * width);
  return run_split(count, opt, why, why_len, [&](int dev, size_t first, size_t n, char *wy, size_t wl) -> int {
    int grid = modmul_grid(0, false, T, smem, dev);
    if (grid <= 0)
      return say(wy, wl, "device %d: the block modmul kernel does not fit (%zu bytes of shared memory)", dev, smem),
             MPB_EDEVICE;
    return run_device(dev, first, n, modmul_inputs(a, b, width, ctx.data(), stride * 4, m_rows), r, width * 8, 0,
        opt.chunk_items,
        [&](void *const *d_in, void *d_out, void *, size_t cn, cudaStream_t s) {
          ModmulLaunch L = modmul_launch(0, rw, d_in, d_out, m_rows, cn, grid);
          L.ctx_stride = stride;
          L.block_threads = T;
          L.smem_bytes = smem;
          return launch_modmul(L, s);
        },
        wy, wl);
  });
}

} // namespace

int modmul_kernel_for(size_t width) {
  if (width >= 1 && width <= (size_t)tuning::GPU_MODMUL_THREAD_MAX_LIMBS && width <= 16) return 1;
  if (width > (size_t)tuning::GPU_MODMUL_THREAD_MAX_LIMBS && width >= 4 &&
      width <= (size_t)tuning::GPU_MODMUL_BLOCK_MAX_LIMBS)
    return 2;
  return 0;
}

int modmul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, size_t m_rows, size_t width,
           size_t count, const Options &opt, char *why, size_t why_len) {
  if (count == 0) return MPB_OK;
  bool even = false;
  for (size_t i = 0; i < m_rows && !even; i++) even = (m[i * width] & 1) == 0;
  const int kind = modmul_kernel_for(width);
  if (even && (kind != 1 || width > (size_t)tuning::GPU_MODMUL_EVEN_MAX_LIMBS)) {
    say(why, why_len, "even modulus: the GPU modmul kernels take even moduli only up to %d bits",
        64 * tuning::GPU_MODMUL_EVEN_MAX_LIMBS);
    return MPB_EUNSUPPORTED;
  }
  switch (kind) {
    case 1:
      if (even) {
        if (width <= 4) return modmul_thread_n<8, AnyModCtx<8>>(r, a, b, m, m_rows, width, count, opt, why, why_len);
        return modmul_thread_n<16, AnyModCtx<16>>(r, a, b, m, m_rows, width, count, opt, why, why_len);
      }
      if (width <= 4) return modmul_thread_n<8, ModCtx<8>>(r, a, b, m, m_rows, width, count, opt, why, why_len);
      if (width <= 8) return modmul_thread_n<16, ModCtx<16>>(r, a, b, m, m_rows, width, count, opt, why, why_len);
      return modmul_thread_n<32, ModCtx<32>>(r, a, b, m, m_rows, width, count, opt, why, why_len);
    case 2: return modmul_block(r, a, b, m, m_rows, width, count, opt, why, why_len);
    default: say(why, why_len, "no GPU modmul kernel for %zu-bit moduli", width * 64); return MPB_EUNSUPPORTED;
  }
}

bool modmul_even_supported(size_t width) {
  return modmul_kernel_for(width) == 1 && width <= (size_t)tuning::GPU_MODMUL_EVEN_MAX_LIMBS;
}

} // namespace gpu
} // namespace mpb
