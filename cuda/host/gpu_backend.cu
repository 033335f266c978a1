// cuda/host/gpu_backend.cu: devices, streams, pinned staging, chunked pipelining, multi-GPU
// split, and the precomputation of modulus/key constants for the kernels.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>
#include <type_traits>
#include <vector>

#include <mpbatch/common.h>
#include "cuda/tuning.h"

#include "core/memory.h"
#include "mpn/mod/mont.h"
#include "mpn/mpn.h"
#include "cuda/host/gpu_backend.h"
#include "cuda/kernels/launch.h"
#include "cuda/grid/powm_bodies.cuh"  // window_bits
#include "cuda/thread/powm.cuh"
#include "cuda/host/barrett_ctx.h"
#include "cuda/host/device_run.h"

namespace mpb {
namespace gpu {

void say(char *why, size_t len, const char *fmt, ...) {
  if (!why || !len) return;
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(why, len, fmt, ap);
  va_end(ap);
}

#define MPB_CUDA_TRY(call)                                                                  \
  do {                                                                                      \
    cudaError_t e_ = (call);                                                                \
    if (e_ != cudaSuccess) {                                                                \
      say(why, why_len, "%s: %s", #call, cudaGetErrorString(e_));                           \
      return MPB_EDEVICE;                                                                   \
    }                                                                                       \
  } while (0)

// ---- host precomputation of the Montgomery constants (library's own mpn layer) -------------
// Constant time in the value of n (RSA primes are secret): mpn::pow2_mod and mpn::mont_reduce,
// no division. n is odd (the Montgomery kernels' moduli).
// rem = 2^(64*k) mod n, n of w limbs (w >= 1, may have leading zero limbs), rem w limbs.
void pow2_mod(uint64_t *rem, size_t k, const uint64_t *n, size_t w) {
  const size_t dn = mpn::normalized_size(n, w);
  std::vector<uint64_t> scratch(mpn::pow2_mod_itch(dn));
  std::fill(rem, rem + w, 0);
  mpn::pow2_mod(rem, 64 * k, n, dn, scratch.data());
  secure_zero(scratch.data(), scratch.size() * sizeof(uint64_t));
}
// rem = (a * 2^(64*k)) mod n, a of w limbs
void shl_mod(uint64_t *rem, const uint64_t *a, size_t k, const uint64_t *n, size_t w) {
  const size_t dn = mpn::normalized_size(n, w);
  std::vector<uint64_t> num(k + w, 0), store(mpn::mont_ctx_itch(dn) + mpn::mont_reduce_itch(dn));
  std::copy(a, a + w, num.begin() + k);
  mpn::MontCtx ctx;
  mpn::mont_ctx_init(ctx, n, dn, store.data());
  std::fill(rem, rem + w, 0);
  mpn::mont_reduce(rem, num.data(), k + w, ctx, store.data() + mpn::mont_ctx_itch(dn));
  secure_zero(store.data(), store.size() * sizeof(uint64_t));
  secure_zero(num.data(), num.size() * sizeof(uint64_t));
}

namespace {

template <int N>
void make_rsactx(RsaCtx<N> &k, const uint64_t *p, const uint64_t *q, const uint64_t *dp,
                 const uint64_t *dq, const uint64_t *qinv) {
  constexpr size_t w = N / 2;
  make_modctx<N>(k.p, p);
  make_modctx<N>(k.q, q);
  std::memcpy(k.dp, dp, sizeof k.dp);
  std::memcpy(k.dq, dq, sizeof k.dq);
  std::memcpy(k.qw, q, sizeof k.qw);
  uint64_t t[w];
  shl_mod(t, qinv, w, p, w);  // qinv * R mod p
  std::memcpy(k.qinv_m, t, sizeof k.qinv_m);
}

} // namespace

// Runs fn(i) for i in [0, n) on the host's cores (contexts for per-item moduli/keys).
void parallel_for(size_t n, const std::function<void(size_t, size_t)> &fn) {
  unsigned t = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  if (n < 1024 || t == 1) return fn(0, n);
  std::vector<std::thread> th;
  size_t per = (n + t - 1) / t;
  for (unsigned i = 0; i < t; i++) {
    size_t a = i * per, b = std::min(n, a + per);
    if (a < b) th.emplace_back(fn, a, b);
  }
  for (auto &x : th) x.join();
}

// ---- chunked, double-buffered execution on one device ---------------------------------------
int run_device(int dev, size_t first, size_t n, const std::vector<Input> &ins, void *out_host,
               size_t out_item_bytes, size_t table_bytes, size_t chunk_hint, const Launch &launch,
               char *why, size_t why_len) {
  MPB_CUDA_TRY(cudaSetDevice(dev));
  size_t per_item = out_item_bytes, shared = table_bytes;
  for (auto &in : ins) (in.per_item ? per_item : shared) += in.item_bytes;
  size_t free_b = 0, total_b = 0;
  MPB_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  size_t chunk = chunk_hint ? chunk_hint : (size_t)1 << 20;
  size_t budget = free_b / 2 > 2 * shared ? (free_b / 2 - 2 * shared) / 2 : 0;
  if (per_item * chunk > budget) chunk = std::max<size_t>(1, budget / per_item);
  chunk = std::min(chunk, n);
  if (chunk == 0) return MPB_OK;

  struct Slot {
    std::vector<void *> d_in;
    void *d_out = nullptr, *d_table = nullptr;
    std::vector<void *> h_in;
    void *h_out = nullptr;
    cudaStream_t s = nullptr;
    cudaEvent_t done = nullptr;  // recorded after the slot's work: the host waits on it, asleep
    size_t first = 0, n = 0;     // chunk held (n == 0: none)
  } slot[2];
  int status = MPB_OK;
  auto cleanup = [&] {
    for (auto &sl : slot) {
      if (sl.s) cudaStreamSynchronize(sl.s), cudaStreamDestroy(sl.s);
      if (sl.done) cudaEventDestroy(sl.done);
      for (void *p : sl.d_in) cudaFree(p);
      for (void *p : sl.h_in) cudaFreeHost(p);
      cudaFree(sl.d_out);
      cudaFree(sl.d_table);
      cudaFreeHost(sl.h_out);
    }
  };
  auto fail = [&](cudaError_t e, const char *what) {
    say(why, why_len, "device %d: %s: %s", dev, what, cudaGetErrorString(e));
    status = MPB_EDEVICE;
  };
  for (auto &sl : slot) {
    cudaError_t e = cudaStreamCreateWithFlags(&sl.s, cudaStreamNonBlocking);
    if (e) { fail(e, "cudaStreamCreate"); break; }
    // A blocking-sync event: the waiting host thread sleeps instead of spinning on its core
    // (cudaStreamSynchronize spins under the default schedule when there are more cores than
    // contexts), which a server shares with its own work, e.g. the OpenSSL provider's flush
    // thread with HAProxy's event loop: measured on an H200 host, 2026-11-27.
    if ((e = cudaEventCreateWithFlags(&sl.done, cudaEventBlockingSync | cudaEventDisableTiming))) {
      fail(e, "cudaEventCreate");
      break;
    }
    for (auto &in : ins) {
      size_t bytes = in.per_item ? in.item_bytes * chunk : in.item_bytes;
      void *d = nullptr, *h = nullptr;
      if ((e = cudaMalloc(&d, bytes))) { fail(e, "cudaMalloc"); break; }
      sl.d_in.push_back(d);
      if (in.per_item) {
        if ((e = cudaMallocHost(&h, bytes))) { fail(e, "cudaMallocHost"); break; }
      } else {  // shared input: uploaded once per slot
        if ((e = cudaMemcpyAsync(d, in.host, bytes, cudaMemcpyHostToDevice, sl.s))) {
          fail(e, "cudaMemcpyAsync");
          break;
        }
      }
      sl.h_in.push_back(h);
    }
    if (status) break;
    if ((e = cudaMalloc(&sl.d_out, out_item_bytes * chunk))) { fail(e, "cudaMalloc"); break; }
    if ((e = cudaMallocHost(&sl.h_out, out_item_bytes * chunk))) { fail(e, "cudaMallocHost"); break; }
    if (table_bytes && (e = cudaMalloc(&sl.d_table, table_bytes))) { fail(e, "cudaMalloc"); break; }
  }
  auto drain = [&](Slot &sl) {
    cudaError_t e = cudaEventRecord(sl.done, sl.s);
    if (!e) e = cudaEventSynchronize(sl.done);
    if (e) return fail(e, "kernel or copy"), false;
    if (sl.n)
      std::memcpy((char *)out_host + sl.first * out_item_bytes, sl.h_out, sl.n * out_item_bytes);
    sl.n = 0;
    return true;
  };
  size_t k = 0;
  for (size_t off = 0; status == MPB_OK && off < n; off += chunk, k++) {
    Slot &sl = slot[k & 1];
    if (!drain(sl)) break;
    size_t cn = std::min(chunk, n - off), abs_first = first + off;
    std::vector<void *> d_ptrs;
    cudaError_t e = cudaSuccess;
    for (size_t i = 0; i < ins.size() && !e; i++) {
      d_ptrs.push_back(sl.d_in[i]);
      if (!ins[i].per_item) continue;
      size_t bytes = ins[i].item_bytes * cn;
      std::memcpy(sl.h_in[i], (const char *)ins[i].host + abs_first * ins[i].item_bytes, bytes);
      e = cudaMemcpyAsync(sl.d_in[i], sl.h_in[i], bytes, cudaMemcpyHostToDevice, sl.s);
    }
    if (e) { fail(e, "cudaMemcpyAsync H2D"); break; }
    if ((e = launch(d_ptrs.data(), sl.d_out, sl.d_table, cn, sl.s))) { fail(e, "kernel launch"); break; }
    if ((e = cudaMemcpyAsync(sl.h_out, sl.d_out, out_item_bytes * cn, cudaMemcpyDeviceToHost, sl.s))) {
      fail(e, "cudaMemcpyAsync D2H");
      break;
    }
    sl.first = abs_first;
    sl.n = cn;
  }
  if (status == MPB_OK && drain(slot[k & 1])) drain(slot[(k + 1) & 1]);
  cleanup();
  return status;
}

// Splits [0, count) over the devices, one host thread each; the first error wins.
int run_split(size_t count, const Options &opt, char *why, size_t why_len,
              const std::function<int(int dev, size_t first, size_t n, char *w, size_t wl)> &fn) {
  std::vector<int> devs;
  if (opt.devices && opt.ndevices > 0) {
    devs.assign(opt.devices, opt.devices + opt.ndevices);
  } else {
    int nd = device_count(why, why_len);
    for (int d = 0; d < nd; d++) devs.push_back(d);
  }
  if (devs.empty()) {
    if (why && !why[0]) say(why, why_len, "no CUDA device");
    return MPB_EDEVICE;
  }
  size_t nd = std::min(devs.size(), std::max<size_t>(1, count));
  std::vector<int> st(nd, MPB_OK);
  std::vector<std::vector<char>> msgs(nd, std::vector<char>(160, 0));
  std::vector<std::thread> th;
  size_t per = (count + nd - 1) / nd;
  for (size_t i = 0; i < nd; i++) {
    size_t a = i * per, b = std::min(count, a + per);
    if (a >= b) continue;
    th.emplace_back([&, i, a, b] { st[i] = fn(devs[i], a, b - a, msgs[i].data(), msgs[i].size()); });
  }
  for (auto &t : th) t.join();
  for (size_t i = 0; i < nd; i++)
    if (st[i] != MPB_OK) {
      say(why, why_len, "%s", msgs[i].data());
      return st[i];
    }
  return MPB_OK;
}

namespace {

// f(std::integral_constant<int, 2 * w>) (32-bit words) for the one w of Ws (64-bit limbs) equal to
// `width`; kNoSuchWidth when none is.
constexpr int kNoSuchWidth = 1;
template <int... Ws, class F>
int by_width(size_t width, F &&f) {
  int st = kNoSuchWidth;
  (void)((width == (size_t)Ws ? (st = f(std::integral_constant<int, 2 * Ws>{}), true) : false) || ...);
  return st;
}

// An Options asking for a comparison kernel (cuda/variants/) rather than the library's own.
// win_bits: the fixed-window width the request asks for at this size (0: cuda/tuning.h's).
int win_bits(const Options &o, int nwords) { return o.fixed_bits == window_bits(nwords) ? 0 : o.fixed_bits; }
bool comparison_kernel(const Options &o, int nwords) {
  return o.fixed_window || win_bits(o, nwords) != 0 ||
         (o.mont_variant >= 0 && o.mont_variant != tuning::GPU_POWM_MONT);
}

// barrett: every item by the Barrett kernels (BarrettModCtx), else Montgomery (ModCtx).
template <int N>
int powm_n(uint64_t *r, const uint64_t *base, const uint64_t *e, size_t e_width, size_t e_rows,
           const uint64_t *m, size_t m_rows, size_t count, int tpi, bool barrett, const Options &opt,
           char *why, size_t why_len) {
  std::vector<ModCtx<N>> ctx(barrett ? 0 : m_rows);
  std::vector<BarrettModCtx<N>> bctx(barrett ? m_rows : 0);
  parallel_for(m_rows, [&](size_t a, size_t b) {
    for (size_t i = a; i < b; i++) {
      if (barrett) make_barrett_ctx<N>(bctx[i], m + i * (N / 2));
      else {
        make_modctx<N>(ctx[i], m + i * (N / 2));
        ctx[i].slide_w = (uint32_t)opt.window;
      }
    }
  });
  const void *ctx_host = barrett ? (const void *)bctx.data() : (const void *)ctx.data();
  const size_t ctx_bytes = barrett ? sizeof(BarrettModCtx<N>) : sizeof(ModCtx<N>);
  return run_split(count, opt, why, why_len, [&](int dev, size_t first, size_t n, char *w, size_t wl) -> int {
    const PowmVariants *var = !barrett && comparison_kernel(opt, N) ? installed_powm_variants() : nullptr;
    const int win = var ? win_bits(opt, N) : 0;
    int grid = barrett ? powm_barrett_grid(N, tpi, opt.constant_time, dev)
               : var   ? var->grid(N, tpi, opt.constant_time, opt.mont_variant, opt.fixed_window, win, dev)
               : tpi > 1 ? powm_coop_grid(N, tpi, opt.constant_time, dev)
                         : powm_grid(N, opt.constant_time, dev);
    if (grid <= 0) return say(w, wl, "device %d: no resident blocks for the kernel", dev), MPB_EDEVICE;
    std::vector<Input> ins = {
        {base, N * 4, true},
        {e, e_width * 8, e_rows != 1},                // per item, or one shared row
        {ctx_host, ctx_bytes, m_rows != 1},
    };
    const size_t threads = (size_t)grid * kBlockThreads;
    size_t tbytes = (tpi > 1 ? coop_table_words(N, tpi, threads, win) : table_words(N, threads, win)) * 4;
    return run_device(dev, first, n, ins, r, N * 4, tbytes, opt.chunk_items,
        [&](void *const *d_in, void *d_out, void *d_table, size_t cn, cudaStream_t s) {
          PowmLaunch L;
          L.nwords = N;
          L.tpi = tpi;
          L.constant_time = opt.constant_time;
          L.fixed_window = opt.fixed_window;
          L.mont = opt.mont_variant;
          L.win = win;
          L.out = (uint32_t *)d_out;
          L.base = (const uint32_t *)d_in[0];
          L.exp = (const uint32_t *)d_in[1];
          L.ewords = (int)(2 * e_width);
          L.e_stride = e_rows == 1 ? 0 : 2 * e_width;
          L.mods = d_in[2];
          L.m_stride = m_rows == 1 ? 0 : 1;
          L.table = (uint32_t *)d_table;
          L.count = cn;
          L.grid = grid;
          if (barrett) return launch_powm_barrett(L, s);
          if (var) return var->launch(L, s);
          return tpi > 1 ? launch_powm_coop(L, s) : launch_powm(L, s);
        },
        w, wl);
  });
}

template <int N>
int rsa_n(uint64_t *out, const uint64_t *c, const uint64_t *p, const uint64_t *q,
          const uint64_t *dp, const uint64_t *dq, const uint64_t *qinv, size_t key_rows,
          size_t count, int tpi, const Options &opt, char *why, size_t why_len) {
  constexpr size_t hw = N / 2;
  std::vector<RsaCtx<N>> keys(key_rows);
  parallel_for(key_rows, [&](size_t a, size_t b) {
    for (size_t i = a; i < b; i++)
      make_rsactx<N>(keys[i], p + i * hw, q + i * hw, dp + i * hw, dq + i * hw, qinv + i * hw);
  });
  return run_split(count, opt, why, why_len, [&](int dev, size_t first, size_t n, char *w, size_t wl) -> int {
    int grid = tpi > 1 ? rsa_coop_grid(N, tpi, dev) : rsa_grid(N, dev);
    if (grid <= 0) return say(w, wl, "device %d: no resident blocks for the kernel", dev), MPB_EDEVICE;
    std::vector<Input> ins = {
        {c, 2 * N * 4, true},
        {keys.data(), sizeof(RsaCtx<N>), key_rows != 1},
    };
    const size_t threads = (size_t)grid * kBlockThreads;
    size_t tbytes = (tpi > 1 ? coop_table_words(N, tpi, threads) : table_words(N, threads)) * 4;
    return run_device(dev, first, n, ins, out, 2 * N * 4, tbytes, opt.chunk_items,
        [&](void *const *d_in, void *d_out, void *d_table, size_t cn, cudaStream_t s) {
          RsaLaunch L;
          L.half_nwords = N;
          L.tpi = tpi;
          L.constant_time = true;
          L.out = (uint32_t *)d_out;
          L.c = (const uint32_t *)d_in[0];
          L.keys = d_in[1];
          L.k_stride = key_rows == 1 ? 0 : 1;
          L.table = (uint32_t *)d_table;
          L.count = cn;
          L.grid = grid;
          return tpi > 1 ? launch_rsa_coop(L, s) : launch_rsa_crt(L, s);
        },
        w, wl);
  });
}

} // namespace

bool built() { return true; }

namespace {
std::atomic<const PowmVariants *> g_variants{nullptr};
} // namespace
void install_powm_variants(const PowmVariants *v) { g_variants.store(v); }
const PowmVariants *installed_powm_variants() { return g_variants.load(); }

int device_count(char *why, size_t why_len) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    say(why, why_len, "cudaGetDeviceCount: %s", cudaGetErrorString(e));
    cudaGetLastError();  // clear the sticky-free error state
    return 0;
  }
  if (n == 0) say(why, why_len, "no CUDA device");
  return n;
}

int device_description(int d, char *out, size_t out_len) {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) return MPB_EDEVICE;
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  say(out, out_len, "%s (sm_%d%d, %d SMs, %.1f GiB); driver %d.%d; runtime %d.%d", prop.name,
      prop.major, prop.minor, prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0,
      drv / 1000, (drv % 1000) / 10, rt / 1000, (rt % 1000) / 10);
  return MPB_OK;
}

int device_versions(char *driver, char *runtime, size_t len) {
  int drv = 0, rt = 0;
  if (cudaDriverGetVersion(&drv) != cudaSuccess || cudaRuntimeGetVersion(&rt) != cudaSuccess)
    return MPB_EDEVICE;
  std::snprintf(driver, len, "%d.%d", drv / 1000, (drv % 1000) / 10);
  std::snprintf(runtime, len, "%d.%d", rt / 1000, (rt % 1000) / 10);
  return MPB_OK;
}

int device_sm_clock(int d, int *sms, double *ghz) {
  int khz = 0;
  if (cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, d) != cudaSuccess) return MPB_EDEVICE;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d) != cudaSuccess) {
    cudaGetLastError();
    khz = 0;
  }
  *ghz = khz / 1e6;
  return MPB_OK;
}

// Threads per item for a size: the caller's request (Options::tpi) or cuda/tuning.h's choice;
// 0 when no kernel serves that pair.
int powm_tpi(size_t width, int requested) {
  const int t = requested > 0 ? requested : tuning::gpu_powm_tpi(width);
  const int n = (int)(2 * width);
  if (t == 1) return modctx_bytes(n) ? 1 : 0;
  return t > 1 && powm_coop_supported(n, t) ? t : 0;
}
int rsa_tpi(size_t half_width, int requested) {
  const int t = requested > 0 ? requested : tuning::gpu_rsa_tpi(half_width);
  const int n = (int)(2 * half_width);
  if (t == 1) return rsactx_bytes(n) ? 1 : 0;
  return t > 1 && rsa_coop_supported(n, t) ? t : 0;
}

bool tuning_only_tpi(bool rsa, size_t width, int tpi) { return coop_tuning_only(rsa, (int)(2 * width), tpi); }

bool powm_width_supported(size_t width) { return powm_tpi(width, 0) != 0; }
bool rsa_half_width_supported(size_t hwidth) { return rsa_tpi(hwidth, 0) != 0; }
bool mul_width_supported(size_t width) { return width == 4 || width == 8 || width == 16; }

int powm(uint64_t *r, const uint64_t *base, const uint64_t *e, size_t e_width, size_t e_rows,
         const uint64_t *m, size_t m_rows, size_t width, size_t count, const Options &opt,
         char *why, size_t why_len) {
  if (count == 0) return MPB_OK;
  if (opt.window < 0 || opt.window > 7) {  // a forced sliding-window width (bench_gpu's sweep)
    say(why, why_len, "sliding-window width %d out of range (0: by the exponent, 1..7)", opt.window);
    return MPB_EVAL;
  }
  if (opt.fixed_bits != 0 && (opt.fixed_bits < 2 || opt.fixed_bits > 6)) {  // bench_gpu's fixed-window sweep
    say(why, why_len, "fixed-window width %d out of range (0: cuda/tuning.h's, 2..6)", opt.fixed_bits);
    return MPB_EVAL;
  }
  // Any even modulus row: the whole call on the Barrett kernels (one kernel per call; odd rows
  // of a mixed batch are served correctly by Barrett too), with their own default mapping.
  bool barrett = false;
  for (size_t i = 0; i < m_rows && !barrett; i++) barrett = (m[i * width] & 1) == 0;
  const int tpi = powm_tpi(width, opt.tpi > 0 ? opt.tpi : barrett ? tuning::gpu_powm_even_tpi(width) : 0);
  if (tpi == 0) {
    say(why, why_len, "no GPU kernel for %zu-bit moduli with %d threads per item", width * 64, opt.tpi);
    return MPB_EUNSUPPORTED;
  }
  if (barrett && !powm_barrett_supported((int)(2 * width), tpi)) {
    say(why, why_len, "no GPU Barrett kernel for %zu-bit even moduli with %d threads per item", width * 64, tpi);
    return MPB_EUNSUPPORTED;
  }
  const int nw = (int)(2 * width);
  if (barrett && win_bits(opt, nw) != 0) {
    say(why, why_len, "no GPU Barrett kernel with %d-bit fixed windows", opt.fixed_bits);
    return MPB_EUNSUPPORTED;
  }
  if (!barrett && comparison_kernel(opt, nw)) {  // the Barrett kernels have no comparison forms
    const PowmVariants *var = installed_powm_variants();
    if (!var || !var->exists(nw, tpi, opt.constant_time, opt.mont_variant, opt.fixed_window, win_bits(opt, nw))) {
      say(why, why_len, "no GPU powm kernel for %zu-bit moduli (%d threads per item) with Montgomery variant %d%s%s, "
          "window %d%s", width * 64, tpi, opt.mont_variant, opt.fixed_window ? ", fixed windows" : "",
          opt.constant_time ? " (constant time)" : "", opt.fixed_bits,
          var ? "" : " (comparison kernels not installed: cuda/variants/)");
      return MPB_EUNSUPPORTED;
    }
  }
  int st = by_width<8, 16, 32, 64, 128>(width, [&](auto n) {
    return powm_n<n.value>(r, base, e, e_width, e_rows, m, m_rows, count, tpi, barrett, opt, why, why_len);
  });
  if (st == kNoSuchWidth) say(why, why_len, "no GPU kernel for %zu-bit moduli", width * 64);
  return st == kNoSuchWidth ? MPB_EUNSUPPORTED : st;
}

int rsa_crt(uint64_t *out, const uint64_t *c, const uint64_t *p, const uint64_t *q,
            const uint64_t *dp, const uint64_t *dq, const uint64_t *qinv, size_t width,
            size_t half_width, size_t key_rows, size_t count, const Options &opt, char *why,
            size_t why_len) {
  if (count == 0) return MPB_OK;
  if (width != 2 * half_width) {
    say(why, why_len, "the GPU RSA kernel needs width == 2 * half_width");
    return MPB_EUNSUPPORTED;
  }
  const int tpi = rsa_tpi(half_width, opt.tpi);
  if (tpi == 0) {
    say(why, why_len, "no GPU kernel for RSA-%zu with %d threads per item", width * 64, opt.tpi);
    return MPB_EUNSUPPORTED;
  }
  int st = by_width<8, 16, 32, 64>(half_width, [&](auto n) {
    return rsa_n<n.value>(out, c, p, q, dp, dq, qinv, key_rows, count, tpi, opt, why, why_len);
  });
  if (st == kNoSuchWidth) say(why, why_len, "no GPU kernel for RSA-%zu", width * 64);
  return st == kNoSuchWidth ? MPB_EUNSUPPORTED : st;
}

int mul(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t width, size_t count, bool dc,
        const Options &opt, char *why, size_t why_len) {
  if (count == 0) return MPB_OK;
  if (!mul_width_supported(width)) {
    say(why, why_len, "no GPU kernel for %zu-bit products", width * 64);
    return MPB_EUNSUPPORTED;
  }
  const int N = (int)(2 * width);
  return run_split(count, opt, why, why_len, [&](int dev, size_t first, size_t n, char *w, size_t wl) -> int {
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) sms = 1;
    std::vector<Input> ins = {{a, (size_t)N * 4, true}, {b, (size_t)N * 4, true}};
    return run_device(dev, first, n, ins, r, (size_t)N * 8, 0, opt.chunk_items,
        [&](void *const *d_in, void *d_out, void *, size_t cn, cudaStream_t s) {
          return launch_mul(N, dc, (uint32_t *)d_out, (const uint32_t *)d_in[0],
                            (const uint32_t *)d_in[1], cn, sms * 8, s);
        },
        w, wl);
  });
}

} // namespace gpu
} // namespace mpb
