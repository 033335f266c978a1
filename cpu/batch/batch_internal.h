// cpu/batch/batch_internal.h: shared plumbing of the CPU batch backend (cpu/batch/*.cpp):
// the context object, the settings snapshot, the per-call report and validation helpers,
// the per-thread scratch block and the OpenMP item loop.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include <mpbatch/batch.h>

#include "core/memory.h"
#include "mpn/mpn.h"

struct mpb_ctx {
  std::atomic<int> threads{0};  // <= 0: all cores
  std::atomic<int> backend{MPB_BACKEND_AUTO};
  std::atomic<int> ct{MPB_CT_DEFAULT};
  std::atomic<int> mm_algo{MPB_MM_AUTO};
  std::atomic<int> mm_k{0};
  std::atomic<int> ndev{0};                    // 0: every visible GPU
  std::atomic<int> dev[MPB_MAX_DEVICES] = {};  // GPU ordinals (first ndev)
};

namespace mpb {
namespace batch {

using limb = mpn::limb;

struct Settings {
  int threads;  // resolved (>= 1)
  int backend;  // as set (may be AUTO)
  int ct;       // as set (may be DEFAULT)
  int mm_algo;
  int mm_k;
  int ndev;                  // GPUs chosen (0: all)
  int dev[MPB_MAX_DEVICES];
};
Settings snapshot(const mpb_ctx *ctx);
int max_threads();

// The per-call report. Fill with fail()/finish(); the destructor does nothing.
class Call {
 public:
  explicit Call(mpb_call_info *info);
  // Validation failure: records and returns status.
  int fail(int status, int arg, int64_t index, const char *why);
  // Successful dispatch decision.
  void choose(int backend, int threads, const char *why);
  void set_ct(bool ct) { ct_ = ct; }
  void add_simd(int items) { simd_ += items; }
  int finish(int status);
  int backend() const { return backend_; }

 private:
  mpb_call_info *info_;
  double t0_;
  int backend_ = MPB_BACKEND_CPU, threads_ = 1;
  bool ct_ = false;
  int simd_ = 0;
  char why_[112] = {0};
};

// Width checks shared by all calls.
inline bool width_ok(size_t w) { return w >= 1 && w <= MPB_BATCH_MAX_WIDTH; }
// True when the n-limb value is zero.
inline bool is_zero(const limb *a, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i]) return false;
  return true;
}
// a (an limbs) < m (mn limbs), any normalisation.
inline bool less_than(const limb *a, size_t an, const limb *m, size_t mn) {
  return mpn::cmp2(a, an, m, mn) < 0;
}

// One allocation per call: `per_thread` limbs for each of `threads` threads (cache-line
// separated), wiped on release when `secret`.
class ThreadScratch {
 public:
  ThreadScratch(int threads, size_t per_thread, bool secret);
  ~ThreadScratch();
  bool ok() const { return base_ != nullptr; }
  limb *get(int tid) { return base_ + (size_t)tid * stride_; }

 private:
  limb *base_ = nullptr;
  void *raw_ = nullptr;
  size_t stride_ = 0, bytes_ = 0;
  bool secret_;
};

// Threads to use for `count` items of `work_per_item` (in units of 64x64-bit products):
// min(ctx threads, count), and 1 when the whole batch is too small to amortise a parallel
// region (tuning::BATCH_PARALLEL_MIN_WORK).
int threads_for(const Settings &s, size_t count, double work_per_item);
// Items per dynamic-schedule grab for items of `work_per_item` (tuning::BATCH_GRAIN_WORK).
int grain_for(double work_per_item);

// How `count` exponentiations of `limbs` limbs split between the 8-lane AVX-512 IFMA kernel
// and the scalar one: `full` groups of 8, a last partial group of the count % 8 remaining
// items (unused lanes) or those items on the scalar kernel, or everything scalar (use false).
// AUTO (forced false) takes the split of least estimated wall time on the threads threads_for
// would give it (a group costs 8 x tuning::batch_ifma_lane_cost scalar items and runs on one
// thread; tasks go to the least loaded thread, groups first, as the engines hand them out);
// forced: every item in groups. work_per_item: one scalar item's work (threads_for's unit).
struct IfmaSplit {
  bool use = false;
  size_t full = 0;
  bool partial = false;
  size_t groups() const { return full + (partial ? 1 : 0); }
};
IfmaSplit ifma_split(const Settings &s, size_t count, size_t limbs, double work_per_item, bool forced);

// Work estimates (64x64 products) used by the cost model.
double work_mul(size_t n);
double work_powm(size_t n, size_t ebits);

} // namespace batch
} // namespace mpb

namespace mpb {
namespace batch {
// ---- validation helpers (cpu/batch/validate.cpp). Each returns MPB_OK or the failing status,
// already recorded in `call`. ------------------------------------------------------------------
// ctx not NULL, width in range, count*rowwidth fits. `row_mult`: largest row multiple of width
// (2 for products).
int check_shape(Call &call, const mpb_ctx *ctx, size_t width, size_t count, size_t row_mult);
int check_ptr(Call &call, const void *p, int arg);
// rows must be 1 or count.
int check_rows(Call &call, size_t rows, size_t count, int arg);
// The backend the settings force is usable for this op (gpu_ok: the op has a CUDA path).
int check_backend(Call &call, const Settings &s, bool gpu_ok = false);
// Every modulus row nonzero (need_odd: odd and > 1).
int check_modulus(Call &call, const limb *m, size_t rows, size_t width, bool need_odd, int arg);
// Every modulus row > 1 (any parity).
int check_modulus_above_one(Call &call, const limb *m, size_t rows, size_t width, int arg);
// a[i] < m[rows==1 ? 0 : i] for i < count (a has `count` rows of aw limbs, m rows of mw limbs).
int check_below(Call &call, const limb *a, size_t aw, size_t count, const limb *m, size_t mrows,
                size_t mw, int arg);
// RSA key rows (see batch.h). scratch-free (allocates one temporary block).
int check_rsa_keys(Call &call, const limb *n, const limb *p, const limb *q, const limb *dp,
                   const limb *dq, const limb *qinv, size_t width, size_t hw, size_t rows);
// 2 <= peer[i] <= p-2.
int check_dh_peer(Call &call, const limb *peer, const limb *p, size_t width, size_t count);
} // namespace batch
} // namespace mpb

namespace mpb {
namespace batch {
// The exponentiation engine behind powm / DH / (half of) RSA (cpu/batch/powm.cpp), after
// validation. Row strides are in limbs; a stride of 0 means "one row shared by all items".
// m rows: `width` limbs each (odd, > 1), bases < m, exponents `ew` limbs.
// Picks CPU / IFMA / MULTIPARTITE from the settings, records the decision in `call`.
int powm_engine(Call &call, const Settings &s, limb *r, const limb *base, size_t base_stride,
                const limb *e, size_t ew, size_t e_stride, const limb *m, size_t m_stride,
                size_t width, size_t count, bool ct);

// The CUDA backend (cpu/batch/gpu.cpp), tried first when the settings say AUTO or CUDA.
// true: the call is finished on the GPU (*status = MPB_OK) or must fail (*status < 0, forced
// CUDA only); false: continue on the CPU, `why` says why the GPU was not used.
bool gpu_try_powm(Call &call, const Settings &s, limb *r, const limb *base, size_t base_stride,
                  const limb *e, size_t ew, size_t e_stride, const limb *m, size_t m_stride,
                  size_t width, size_t count, bool ct, int *status, char *why, size_t len);
bool gpu_try_rsa(Call &call, const Settings &s, limb *out, const limb *c, const limb *p, const limb *q,
                 const limb *dp, const limb *dq, const limb *qinv, size_t width, size_t hw, size_t key_rows,
                 size_t count, int *status, char *why, size_t len);
bool gpu_try_mul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, size_t width,
                 size_t count, int *status, char *why, size_t len);
// GF(2)[x] (cpu/batch/gf2x.cpp); mulmod after the field checks (f shared, f_width limbs).
bool gpu_try_gf2x_mul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, size_t width,
                      size_t count, int *status, char *why, size_t len);
bool gpu_try_gf2x_sqr(Call &call, const Settings &s, limb *r, const limb *a, size_t width, size_t count,
                      int *status, char *why, size_t len);
bool gpu_try_gf2x_mulmod(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, const limb *f,
                         size_t f_width, size_t count, int *status, char *why, size_t len);
// r = a*b mod m (m_rows 1 or count); even moduli only at the widths the GPU takes them
// (gpu::modmul_even_supported; otherwise the CPU, or MPB_EUNSUPPORTED when CUDA is forced).
bool gpu_try_modmul(Call &call, const Settings &s, limb *r, const limb *a, const limb *b, const limb *m,
                    size_t m_rows, size_t width, size_t count, int *status, char *why, size_t len);
} // namespace batch
} // namespace mpb
