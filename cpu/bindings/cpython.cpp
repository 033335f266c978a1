// cpu/bindings/cpython.cpp: binding helpers for the Python package (python/mpbatch): CPython int
// objects (30-bit digits) <-> batch rows (64-bit limbs), without going through CPython's own
// int <-> bytes conversion.
//
// Digit <-> limb conversion works on blocks: 32 digits of 30 bits are exactly 15 limbs (960
// bits), so a whole block is converted with compile-time shifts (fully unrolled, no branches);
// the last partial block goes through a zero-padded temporary.
//
// The list forms (mpb_pack_cpython_list / mpb_unpack_cpython_list) are what the package uses:
// they read the list directly, check every item before writing anything, and split a large
// pack over threads (tuning::PYCONV_PARALLEL_MIN_LIMBS). pack calls nothing in the
// interpreter: the package runs it without the interpreter lock on a private copy of the
// slice (which keeps the ints alive and which no other thread can change). unpack creates
// objects, so it runs on one thread with the lock held (ctypes.PyDLL).
#include <omp.h>

#include <cstring>

#include <mpbatch/bindings.h>

#include "bindings/tuning.h"

#include "batch/call.h"
#include "batch/cost_model.h"

using namespace mpb;
using namespace mpb::batch;

namespace {

constexpr uint32_t DIGIT_MASK = 0x3FFFFFFFu;
constexpr size_t BLOCK_DIGITS = 32, BLOCK_LIMBS = 15;
constexpr size_t PREFETCH_AHEAD = 8;

// 32 digits -> 15 limbs (every limb written).
inline void block_digits_to_limbs(limb *r, const uint32_t *d) {
  limb out[BLOCK_LIMBS + 1] = {0};
#pragma GCC unroll 32
  for (size_t k = 0; k < BLOCK_DIGITS; k++) {
    const size_t bit = 30 * k, li = bit / 64, sh = bit % 64;
    const limb v = d[k] & DIGIT_MASK;
    out[li] |= v << sh;
    if (sh > 34) out[li + 1] |= v >> (64 - sh);
  }
  std::memcpy(r, out, BLOCK_LIMBS * sizeof(limb));
}

// 15 limbs -> 32 digits.
inline void block_limbs_to_digits(uint32_t *d, const limb *r) {
#pragma GCC unroll 32
  for (size_t k = 0; k < BLOCK_DIGITS; k++) {
    const size_t bit = 30 * k, li = bit / 64, sh = bit % 64;
    limb v = r[li] >> sh;
    if (sh > 34) v |= r[li + 1] << (64 - sh);
    d[k] = (uint32_t)v & DIGIT_MASK;
  }
}

// nd digits (a value that fits in `width` limbs) -> the whole row (zero-extended).
inline void digits_to_row(limb *r, size_t width, const uint32_t *d, size_t nd) {
  size_t full = nd / BLOCK_DIGITS, done = 0;
  for (size_t b = 0; b < full; b++, done += BLOCK_LIMBS) block_digits_to_limbs(r + done, d + b * BLOCK_DIGITS);
  // the last < 32 digits, from bit 0 of limb `done`: a 64-bit accumulator holding nb bits
  limb acc = 0;
  unsigned nb = 0;
  for (size_t k = full * BLOCK_DIGITS; k < nd; k++) {
    const limb v = d[k] & DIGIT_MASK;
    acc |= v << nb;
    if (nb >= 34) {  // the limb is full
      if (done < width) r[done] = acc;  // beyond width only zero bits remain (checked)
      done++;
      acc = nb > 34 ? v >> (64 - nb) : 0;
      nb -= 34;
    } else {
      nb += 30;
    }
  }
  if (nb && done < width) r[done++] = acc;
  if (done < width) mpn::zero(r + done, width - done);
}

// The n-limb value r (n >= 1, r[n-1] != 0) -> its nd = ceil(bits / 30) digits.
inline void row_to_digits(uint32_t *d, size_t nd, const limb *r, size_t n) {
  size_t full = nd / BLOCK_DIGITS;
  for (size_t b = 0; b < full; b++) block_limbs_to_digits(d + b * BLOCK_DIGITS, r + b * BLOCK_LIMBS);
  // the last < 32 digits, from limb 15 * full on (at most 15 limbs of it are nonzero)
  const limb *t = r + full * BLOCK_LIMBS;
  const size_t have = n - full * BLOCK_LIMBS;
  for (size_t k = 0, bit = 0; k < nd - full * BLOCK_DIGITS; k++, bit += 30) {
    const size_t li = bit / 64, sh = bit % 64;
    limb v = li < have ? t[li] >> sh : 0;
    if (sh > 34 && li + 1 < have) v |= t[li + 1] << (64 - sh);
    d[full * BLOCK_DIGITS + k] = (uint32_t)v & DIGIT_MASK;
  }
}

// The header of a CPython int object (offsets of CPython's PyLongObject, GIL builds):
// ob_type at 8, the size word at 16, digits from 24.
struct IntView {
  const uint32_t *digits;
  size_t nd;
  bool neg;
};
inline IntView int_view(const unsigned char *o, int layout) {
  int64_t head;
  std::memcpy(&head, o + 16, sizeof head);
  IntView v;
  if (layout == 0) {
    v.neg = head < 0;
    v.nd = (size_t)(v.neg ? -head : head);
  } else {
    uint64_t tag = (uint64_t)head;
    v.neg = (tag & 3) == 2;
    v.nd = (size_t)(tag >> 3);
  }
  v.digits = reinterpret_cast<const uint32_t *>(o + 24);
  return v;
}

// 0 when the digits fit in width limbs, else MPB_ERANGE (a zero top digit, which CPython never
// produces, counts as not fitting: the package then takes its checked path).
inline int fits(const IntView &v, size_t width) {
  if (v.nd == 0) return MPB_OK;
  if (30 * v.nd <= 64 * width) return MPB_OK;
  uint32_t top = v.digits[v.nd - 1] & DIGIT_MASK;
  if (!top) return MPB_ERANGE;
  size_t bits = 30 * (v.nd - 1) + (32 - (size_t)__builtin_clz(top));
  return bits <= 64 * width ? MPB_OK : MPB_ERANGE;
}

// Result rows: up to the width of a product of two operands of the batch API's widest.
inline bool row_width_ok(size_t w) { return w >= 1 && w <= 2 * (size_t)MPB_BATCH_MAX_WIDTH; }

// Threads for a conversion of count rows of width limbs.
int conv_threads(int threads, size_t count, size_t width) {
  int t = threads <= 0 ? max_threads() : threads;
  if ((size_t)t > count) t = (int)count;
  if (t > 1 && count * width < tuning::PYCONV_PARALLEL_MIN_LIMBS) t = 1;
  return t < 1 ? 1 : t;
}

// The CPython list object: length at offset 16, item array pointer at 24.
inline size_t list_size(const void *list) {
  int64_t n;
  std::memcpy(&n, static_cast<const unsigned char *>(list) + 16, sizeof n);
  return n < 0 ? 0 : (size_t)n;
}
inline const uintptr_t *list_items(const void *list) {
  const uintptr_t *p;
  std::memcpy(&p, static_cast<const unsigned char *>(list) + 24, sizeof p);
  return p;
}

typedef void *(*from_u64_fn)(unsigned long long);
typedef void *(*new_long_fn)(ptrdiff_t);
typedef int (*set_item_fn)(void *, ptrdiff_t, void *);

// Digits needed for the normalized n-limb value r (n >= 2).
inline size_t digits_for(const limb *r, size_t n) {
  size_t bits = 64 * (n - 1) + (64 - (size_t)__builtin_clzll(r[n - 1]));
  return (bits + 29) / 30;
}

// Builds the int for one row: values below 2^64 from `small`; larger ones from `make`, with
// their digits written here. NULL on failure.
inline void *make_int(const limb *r, size_t width, from_u64_fn small, new_long_fn make) {
  size_t n = mpn::normalized_size(r, width);
  if (n <= 1) return small(n ? (unsigned long long)r[0] : 0ull);
  size_t nd = digits_for(r, n);
  void *obj = make((ptrdiff_t)nd);
  if (obj) row_to_digits(reinterpret_cast<uint32_t *>(static_cast<unsigned char *>(obj) + 24), nd, r, n);
  return obj;
}

// Builds the ints of `count` rows and stores them at list[start + i], in order (set_item
// takes, and on failure releases, the new reference). Finishes the call.
int store_ints(Call &call, void *list, size_t start, const uint64_t *rows, size_t width, size_t count,
               void *from_u64, void *new_long, void *set_item) {
  from_u64_fn small = reinterpret_cast<from_u64_fn>(from_u64);
  new_long_fn make = reinterpret_cast<new_long_fn>(new_long);
  set_item_fn put = reinterpret_cast<set_item_fn>(set_item);
  for (size_t i = 0; i < count; i++) {
    void *obj = make_int(rows + i * width, width, small, make);
    if (!obj) return call.fail(MPB_EMEM, MPB_ARG_R, (int64_t)i, "int allocation failed");
    if (put(list, (ptrdiff_t)(start + i), obj) != 0)
      return call.fail(MPB_EVAL, MPB_ARG_R, (int64_t)i, "storing the int failed");
  }
  return call.finish(MPB_OK);
}

} // namespace

extern "C" {

MPB_API int mpb_pack_cpython_ints(uint64_t *rows, size_t width, const uintptr_t *objs,
                                  size_t count, int layout, mpb_call_info *info) {
  Call call(info);
  if (!width_ok(width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..1024 limbs");
  if (layout != 0 && layout != 1) return call.fail(MPB_EVAL, MPB_ARG_OPTION, -1, "layout must be 0 or 1");
  if (count == 0) return call.finish(MPB_OK);
  if (!rows || !objs) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "a required pointer is NULL");
  call.choose(MPB_BACKEND_CPU_SCALAR, 1, "cpu: pack CPython ints");
  for (size_t i = 0; i < count; i++) {
    const unsigned char *o = reinterpret_cast<const unsigned char *>(objs[i]);
    if (!o) return call.fail(MPB_ENULL, MPB_ARG_A, (int64_t)i, "NULL object");
    IntView v = int_view(o, layout);
    if (v.neg) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "negative value");
    if (fits(v, width)) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "value does not fit in width limbs");
    digits_to_row(rows + i * width, width, v.digits, v.nd);
  }
  return call.finish(MPB_OK);
}

MPB_API int mpb_unpack_cpython_ints(void *list, const uint64_t *rows, size_t width,
                                    size_t count, void *from_u64, void *new_long,
                                    void *set_item, mpb_call_info *info) {
  // the list form from item 0
  return mpb_unpack_cpython_list(list, 0, rows, width, count, from_u64, new_long, set_item, info);
}

MPB_API int mpb_pack_cpython_list(uint64_t *rows, size_t width, const void *list, size_t start,
                                  size_t count, int layout, const void *int_type, int threads,
                                  mpb_call_info *info) {
  Call call(info);
  if (!width_ok(width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..1024 limbs");
  if (layout != 0 && layout != 1) return call.fail(MPB_EVAL, MPB_ARG_OPTION, -1, "layout must be 0 or 1");
  if (count == 0) return call.finish(MPB_OK);
  if (!rows || !list || !int_type) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "a required pointer is NULL");
  size_t len = list_size(list);
  if (start > len || count > len - start)
    return call.fail(MPB_ESHAPE, MPB_ARG_COUNT, -1, "start + count is beyond the end of the list");
  if (count > SIZE_MAX / 8 / width) return call.fail(MPB_ESHAPE, MPB_ARG_COUNT, -1, "count * width overflows");
  const uintptr_t *items = list_items(list) + start;
  if (!items) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "the list has no item array");
  const uintptr_t type = reinterpret_cast<uintptr_t>(int_type);
  const int T = conv_threads(threads, count, width);
  // The objects lie scattered in memory: both passes prefetch PREFETCH_AHEAD items ahead
  // (the header and the line of the top digit of the widest value that fits; in pass 2 the
  // first lines of the object). A prefetch never faults, whatever the address.
  const size_t max_digits = (64 * width + 29) / 30;
  const size_t top_off = 24 + 4 * (max_digits - 1);
  const size_t lines = (top_off + 4 + 63) / 64 < 8 ? (top_off + 4 + 63) / 64 : 8;

  // 1. check every item (exact int, non-negative, fits); the first bad one wins
  int64_t bad = INT64_MAX;
  auto check = [&](size_t i, int64_t &first_bad) {
    if (i + PREFETCH_AHEAD < count) {
      const char *p = reinterpret_cast<const char *>(items[i + PREFETCH_AHEAD]);
      __builtin_prefetch(p);
      __builtin_prefetch(p + top_off);
    }
    const unsigned char *o = reinterpret_cast<const unsigned char *>(items[i]);
    uintptr_t t = 0;
    if (o) std::memcpy(&t, o + 8, sizeof t);
    bool ok = o && t == type;
    if (ok) {
      IntView v = int_view(o, layout);
      ok = !v.neg && fits(v, width) == MPB_OK;
    }
    if (!ok && (int64_t)i < first_bad) first_bad = (int64_t)i;
  };
  // (one thread: no parallel region, whose serialized form still costs libgomp ~0.3 us)
  if (T <= 1) {
    for (size_t i = 0; i < count; i++) check(i, bad);
  } else {
#pragma omp parallel for num_threads(T) schedule(static) reduction(min : bad)
    for (size_t i = 0; i < count; i++) check(i, bad);
  }
  if (bad != INT64_MAX) {
    const unsigned char *o = reinterpret_cast<const unsigned char *>(items[bad]);
    if (!o) return call.fail(MPB_ENULL, MPB_ARG_A, bad, "NULL item");
    uintptr_t t;
    std::memcpy(&t, o + 8, sizeof t);
    if (t != type) return call.fail(MPB_EVAL, MPB_ARG_A, bad, "item is not an int");
    return call.fail(MPB_ERANGE, MPB_ARG_A, bad,
                     int_view(o, layout).neg ? "negative value" : "value does not fit in width limbs");
  }
  // 2. convert
  call.choose(MPB_BACKEND_CPU_SCALAR, T, T > 1 ? "cpu: pack CPython list, threads" : "cpu: pack CPython list");
  auto convert = [&](size_t i) {
    if (i + PREFETCH_AHEAD < count) {
      const char *p = reinterpret_cast<const char *>(items[i + PREFETCH_AHEAD]);
      for (size_t k = 0; k < lines; k++) __builtin_prefetch(p + 64 * k);
    }
    IntView v = int_view(reinterpret_cast<const unsigned char *>(items[i]), layout);
    digits_to_row(rows + i * width, width, v.digits, v.nd);
  };
  if (T <= 1) {
    for (size_t i = 0; i < count; i++) convert(i);
  } else {
#pragma omp parallel for num_threads(T) schedule(static)
    for (size_t i = 0; i < count; i++) convert(i);
  }
  return call.finish(MPB_OK);
}

MPB_API int mpb_unpack_cpython_list(void *list, size_t start, const uint64_t *rows, size_t width,
                                    size_t count, void *from_u64, void *new_long, void *set_item,
                                    mpb_call_info *info) {
  Call call(info);
  if (!row_width_ok(width))
    return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..2048 limbs (product rows)");
  if (count == 0) return call.finish(MPB_OK);
  if (!list || !rows || !from_u64 || !new_long || !set_item)
    return call.fail(MPB_ENULL, MPB_ARG_A, -1, "a required pointer is NULL");
  if (start > (size_t)PTRDIFF_MAX || count > (size_t)PTRDIFF_MAX - start)
    return call.fail(MPB_ESHAPE, MPB_ARG_COUNT, -1, "start + count out of range");
  // One thread: creating the objects (the interpreter's allocator, page faults in fresh
  // arenas) is most of the time, and it cannot be split; the digits are written while the
  // new object is still in cache.
  call.choose(MPB_BACKEND_CPU_SCALAR, 1, "cpu: unpack CPython list");
  return store_ints(call, list, start, rows, width, count, from_u64, new_long, set_item);
}

} // extern "C"
