// cpu/batch/call.h: what every batch call shares: the context object, the settings snapshot,
// the per-call report (Call -> mpb_call_info), the common start of a call (begin_call), and
// the per-call memory blocks (ThreadScratch per thread, SecretBlock for shared contexts).
#pragma once
#include <omp.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include <mpbatch/batch.h>

#include "core/ct.h"
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

// Bytes of mpb_call_info.reason (the one place its size is written down is batch.h).
constexpr size_t kReasonLen = sizeof(static_cast<mpb_call_info *>(nullptr)->reason);

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
// AUTO and CPU choose among the CPU backends by the cost model (CPU never tries the GPU).
inline bool chooses_cpu(const Settings &s) { return s.backend == MPB_BACKEND_AUTO || s.backend == MPB_BACKEND_CPU; }
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
  int backend_ = MPB_BACKEND_CPU_SCALAR, threads_ = 1;
  bool ct_ = false;
  int simd_ = 0;
  char why_[kReasonLen] = {0};
};

// The checks every batch call starts with, in this order: the context and the shape (count
// rows of up to row_mult * width limbs fit in memory), an exponent width or RSA half width
// when the call has one, the settings snapshot, the backend the settings force (usable for
// this operation, whose CUDA kernel exists when `gpu`), a pointer the call needs even when
// empty, and the empty batch (nothing to do).
struct CallShape {
  size_t width, count;
  size_t row_mult = 1;  // the widest operand row, in multiples of width (2 for products)
  bool has_gpu = false; // the operation has a CUDA path
  // a second width to check: an exponent's (1..MPB_BATCH_MAX_WIDTH) or RSA's half (1..width)
  enum class Extra { None, ExponentWidth, HalfWidth } extra = Extra::None;
  size_t extra_width = 0;
  // constant_time reported for an empty batch: as the operation would run it
  enum class Ct { Off, WhenOn, UnlessOff } ct = Ct::Off;
  // a pointer needed even for an empty batch (a shared GF(2)[x] modulus f), and its argument
  const void *early_ptr = nullptr;
  int early_arg = MPB_ARG_NONE;

  CallShape(size_t w, size_t c) : width(w), count(c) {}
  CallShape &products() { return row_mult = 2, *this; }
  CallShape &gpu(bool g = true) { return has_gpu = g, *this; }
  CallShape &exponent(size_t ew) { return extra = Extra::ExponentWidth, extra_width = ew, *this; }
  CallShape &half(size_t hw) { return extra = Extra::HalfWidth, extra_width = hw, *this; }
  CallShape &ct_when_on() { return ct = Ct::WhenOn, *this; }
  CallShape &ct_unless_off() { return ct = Ct::UnlessOff, *this; }
  CallShape &needs(const void *p, int arg) { return early_ptr = p, early_arg = arg, *this; }
};
// An operand pointer that must not be NULL, and the argument it is.
struct PtrArg {
  const void *p;
  int arg;
};
// True when the call is over (a bad argument, or an empty batch): return *status. Else the
// settings are in s and the call goes on. ptrs are checked once the batch is known not to be
// empty (an empty batch may pass NULL operands).
bool begin_call(Call &call, const mpb_ctx *ctx, const CallShape &shape, Settings &s, int *status,
                std::initializer_list<PtrArg> ptrs = {});
// The start of a conversion call (no context): the width, count rows of width limbs (and, with
// row_bytes > 0, count rows of row_bytes bytes) addressable, and the empty batch.
bool begin_conversion(Call &call, size_t width, size_t count, int *status, size_t row_bytes = 0);

// Width checks shared by all calls.
inline bool width_ok(size_t w) { return w >= 1 && w <= MPB_BATCH_MAX_WIDTH; }
// True when the n-limb value is zero.
inline bool is_zero(const limb *a, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i]) return false;
  return true;
}
// a (an limbs) < m (mn limbs), any normalisation: the borrow of a - m over all limbs, with no
// early exit (a may be secret, e.g. a constant-time exponentiation's base); the outcome is
// public (cpu/core/ct.h).
inline bool less_than(const limb *a, size_t an, const limb *m, size_t mn) {
  limb borrow = 0;
  const size_t n = an > mn ? an : mn;
  for (size_t i = 0; i < n; i++) {
    const limb x = i < an ? a[i] : 0, y = i < mn ? m[i] : 0;
    const limb d = x - y;
    borrow = (limb)(x < y) | (limb)(d < borrow);
  }
  return declassify(borrow != 0);
}

// One allocation per call: `per_thread` limbs for each of `threads` threads (cache-line
// separated), wiped on release when `secret`.
class ThreadScratch {
 public:
  ThreadScratch(int threads, size_t per_thread, bool secret);
  ~ThreadScratch();
  ThreadScratch(const ThreadScratch &) = delete;
  ThreadScratch &operator=(const ThreadScratch &) = delete;
  bool ok() const { return base_ != nullptr; }
  limb *get(int tid) { return base_ + (size_t)tid * stride_; }

 private:
  limb *base_ = nullptr;
  void *raw_ = nullptr;
  size_t stride_ = 0, bytes_ = 0;
  bool secret_;
};

// Calls f(i, ws) for the items i = 0..count-1 on T threads, ws the calling thread's row of `scr`
// (nullptr without scratch): a dynamic schedule of `grain` items per grab, or a static one for
// grain 0.
template <class F>
void for_items(int T, ThreadScratch *scr, size_t count, int grain, F &&f) {
  if (T <= 1) {  // no parallel region: even a serialized one costs libgomp futex calls per call
    limb *ws = scr ? scr->get(0) : nullptr;
    for (size_t i = 0; i < count; i++) f(i, ws);
    return;
  }
#pragma omp parallel num_threads(T)
  {
    limb *ws = scr ? scr->get(omp_get_thread_num()) : nullptr;
    if (grain > 0) {
#pragma omp for schedule(dynamic, grain)
      for (int64_t i = 0; i < (int64_t)count; i++) f((size_t)i, ws);
    } else {
#pragma omp for schedule(static)
      for (int64_t i = 0; i < (int64_t)count; i++) f((size_t)i, ws);
    }
  }
}

// A block of limbs owned by one call (a shared modulus or key context, a residue block):
// allocated once, wiped on release when `secret`.
class SecretBlock {
 public:
  SecretBlock(size_t limbs, bool secret);
  ~SecretBlock();
  SecretBlock(const SecretBlock &) = delete;
  SecretBlock &operator=(const SecretBlock &) = delete;
  bool ok() const { return p_ != nullptr || limbs_ == 0; }
  limb *get() { return p_; }

 private:
  limb *p_ = nullptr;
  size_t limbs_;
  bool secret_;
};

} // namespace batch
} // namespace mpb
