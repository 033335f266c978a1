// cuda/host/gpu_gf2x.cu: the GF(2)[x] batch operations on the GPU: size checks, the per-call
// constants of the reduction (which kernel for f, Barrett constants) and the streaming through
// run_split / run_device (cuda/host/device_run.h).
#include <cuda_runtime.h>

#include <atomic>
#include <vector>

#include <mpbatch/common.h>

#include "cuda/host/gpu_backend.h"
#include "cuda/kernels/launch.h"
#include "cuda/host/device_run.h"

namespace mpb {
namespace gpu {
namespace {

std::atomic<const Gf2xVariants *> g_gf2x_variants{nullptr};

// One row operation: inputs a (and b) of in_limbs per row, output out_limbs per row; op 0 mul,
// 1 sqr, 2 mulmod (sparse: the NIST polynomial's kernel, else Barrett with `barrett`). An
// Options::gf2x_variant runs the installed alternative instead of the tuned kernel.
int run_rows(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t in_limbs, size_t out_limbs,
             size_t count, int op, int sparse, const void *barrett, const Options &opt, char *why,
             size_t why_len) {
  const int w = (int)in_limbs, v = opt.gf2x_variant;
  const Gf2xVariants *var = v ? g_gf2x_variants.load() : nullptr;
  if (v && (!var || v < 0 || v > var->count || !var->name(op, v) || (op == 2 && sparse < 0))) {
    say(why, why_len, "GF(2)[x] plan alternative %d: not built for this operation (MPB_CUDA_TUNING_SHAPES, "
        "installed by bench_gpu; mulmod: NIST polynomials only)", v);
    return v < 0 ? MPB_EVAL : MPB_EUNSUPPORTED;
  }
  return run_split(count, opt, why, why_len, [&](int dev, size_t first, size_t n, char *wy, size_t wl) -> int {
    const int grid = var ? var->grid(op, w, sparse, v, dev) : gf2x_grid(op, w, sparse, dev);
    if (grid <= 0) return say(wy, wl, "device %d: no resident blocks for the gf2x kernel", dev), MPB_EDEVICE;
    std::vector<Input> ins = {{a, in_limbs * 8, true}};
    if (b) ins.push_back({b, in_limbs * 8, true});
    return run_device(dev, first, n, ins, r, out_limbs * 8, 0, opt.chunk_items,
        [&](void *const *d_in, void *d_out, void *, size_t cn, cudaStream_t s) {
          uint32_t *o = (uint32_t *)d_out;
          const uint32_t *x = (const uint32_t *)d_in[0], *y = b ? (const uint32_t *)d_in[1] : nullptr;
          if (var) return var->launch(op, w, sparse, o, x, y, cn, v, grid, s);
          return op == 0 ? launch_gf2x_mul(w, o, x, y, cn, grid, s)
               : op == 1 ? launch_gf2x_sqr(w, o, x, cn, grid, s)
                         : launch_gf2x_mulmod(w, sparse, barrett, o, x, y, cn, grid, s);
        },
        wy, wl);
  });
}

} // namespace

bool gf2x_width_supported(size_t width) { return width <= 64 && gf2x_mul_kernel_exists((int)width); }
bool gf2x_mulmod_width_supported(size_t fw) { return fw <= 64 && gf2x_mulmod_kernel_exists((int)fw); }

namespace {
// Products a*b, or squares a^2 when b is NULL, of width-limb rows.
int gf2x_product(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t width, size_t count,
                 const Options &opt, char *why, size_t why_len) {
  if (count == 0) return MPB_OK;
  if (!gf2x_width_supported(width)) {
    say(why, why_len, "no GPU kernel for %zu-limb GF(2)[x] %s", width, b ? "products" : "squares");
    return MPB_EUNSUPPORTED;
  }
  return run_rows(r, a, b, width, 2 * width, count, b ? 0 : 1, -1, nullptr, opt, why, why_len);
}
} // namespace

int gf2x_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t width, size_t count,
             const Options &opt, char *why, size_t why_len) {
  return gf2x_product(r, a, b, width, count, opt, why, why_len);
}

int gf2x_sqr(uint64_t *r, const uint64_t *a, size_t width, size_t count, const Options &opt,
             char *why, size_t why_len) {
  return gf2x_product(r, a, nullptr, width, count, opt, why, why_len);
}

int gf2x_mulmod(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *f, size_t f_width,
                size_t count, const Options &opt, char *why, size_t why_len) {
  if (count == 0) return MPB_OK;
  if (!gf2x_mulmod_width_supported(f_width)) {
    say(why, why_len, "no GPU kernel for %zu-limb GF(2)[x] moduli", f_width);
    return MPB_EUNSUPPORTED;
  }
  const int w = (int)f_width;
  const int sparse = gf2x_sparse_field(f, w);
  std::vector<unsigned char> barrett;
  if (sparse < 0) {
    barrett.resize(gf2x_barrett_bytes(w));
    if (!gf2x_barrett_setup(barrett.data(), f, w)) {
      say(why, why_len, "f must have degree >= 1");
      return MPB_EVAL;
    }
  }
  const void *params = barrett.empty() ? nullptr : barrett.data();
  return run_rows(r, a, b, f_width, f_width, count, 2, sparse, params, opt, why, why_len);
}

void install_gf2x_variants(const Gf2xVariants *v) { g_gf2x_variants.store(v); }
const Gf2xVariants *installed_gf2x_variants() { return g_gf2x_variants.load(); }
int gf2x_variant_count() {
  const Gf2xVariants *v = g_gf2x_variants.load();
  return v ? v->count : 0;
}
const char *gf2x_variant_name(int op, int v) {
  const Gf2xVariants *t = g_gf2x_variants.load();
  return t && v >= 1 && v <= t->count ? t->name(op, v) : nullptr;
}

} // namespace gpu
} // namespace mpb
