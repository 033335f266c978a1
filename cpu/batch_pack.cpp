// cpu/batch_pack.cpp: conversions between the batch row layout and big-endian byte strings
// or mp_int values. Whole-call validation first: nothing is written when an item does not fit.
#include <cstring>

#include <mpbatch/bn.h>

#include "batch_internal.h"

using namespace mpb;
using namespace mpb::batch;

namespace {
// bytes needed for the row (0 for zero)
size_t row_bytes(const limb *a, size_t w) {
  size_t n = mpn::normalized_size(a, w);
  if (!n) return 0;
  limb top = a[n - 1];
  size_t b = 0;
  while (top) {
    b++;
    top >>= 8;
  }
  return (n - 1) * 8 + b;
}
} // namespace

extern "C" {

MPB_API int mpb_pack_be(uint64_t *rows, size_t width, const uint8_t *bytes, size_t nbytes,
                        size_t count, mpb_call_info *info) {
  Call call(info);
  if (!width_ok(width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..1024 limbs");
  if (count == 0) {
    call.choose(MPB_BACKEND_CPU, 1, "empty batch");
    return call.finish(MPB_OK);
  }
  if (!rows) return call.fail(MPB_ENULL, MPB_ARG_R, -1, "rows is NULL");
  if (!bytes && nbytes) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "bytes is NULL");
  // validation: leading bytes beyond width*8 must be zero
  if (nbytes > width * 8) {
    size_t extra = nbytes - width * 8;
    for (size_t i = 0; i < count; i++)
      for (size_t j = 0; j < extra; j++)
        if (bytes[i * nbytes + j]) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "value does not fit in width limbs");
  }
  call.choose(MPB_BACKEND_CPU, 1, "cpu: pack");
  for (size_t i = 0; i < count; i++) {
    limb *r = rows + i * width;
    mpn::zero(r, width);
    const uint8_t *s = bytes + i * nbytes;
    size_t use = nbytes < width * 8 ? nbytes : width * 8;
    for (size_t j = 0; j < use; j++) {
      size_t bi = j;  // byte index from the least significant end
      r[bi / 8] |= (limb)s[nbytes - 1 - j] << (8 * (bi % 8));
    }
  }
  return call.finish(MPB_OK);
}

MPB_API int mpb_unpack_be(uint8_t *bytes, size_t nbytes, const uint64_t *rows, size_t width,
                          size_t count, mpb_call_info *info) {
  Call call(info);
  if (!width_ok(width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..1024 limbs");
  if (count == 0) {
    call.choose(MPB_BACKEND_CPU, 1, "empty batch");
    return call.finish(MPB_OK);
  }
  if (!rows) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "rows is NULL");
  if (!bytes && nbytes) return call.fail(MPB_ENULL, MPB_ARG_R, -1, "bytes is NULL");
  for (size_t i = 0; i < count; i++)
    if (row_bytes(rows + i * width, width) > nbytes)
      return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "value does not fit in nbytes");
  call.choose(MPB_BACKEND_CPU, 1, "cpu: unpack");
  for (size_t i = 0; i < count; i++) {
    const limb *a = rows + i * width;
    uint8_t *d = bytes + i * nbytes;
    for (size_t j = 0; j < nbytes; j++) {
      size_t bi = j;
      uint8_t v = bi / 8 < width ? (uint8_t)(a[bi / 8] >> (8 * (bi % 8))) : 0;
      d[nbytes - 1 - j] = v;
    }
  }
  return call.finish(MPB_OK);
}

MPB_API int mpb_pack_mp(uint64_t *rows, size_t width, const void *const *items, size_t count,
                        mpb_call_info *info) {
  Call call(info);
  if (!width_ok(width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..1024 limbs");
  if (count == 0) {
    call.choose(MPB_BACKEND_CPU, 1, "empty batch");
    return call.finish(MPB_OK);
  }
  if (!rows) return call.fail(MPB_ENULL, MPB_ARG_R, -1, "rows is NULL");
  if (!items) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "items is NULL");
  for (size_t i = 0; i < count; i++) {
    const mp_int *x = static_cast<const mp_int *>(items[i]);
    if (!x) return call.fail(MPB_ENULL, MPB_ARG_A, (int64_t)i, "item is NULL");
    if (x->sign != MP_ZPOS && x->used > 0) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "negative value");
    if ((size_t)x->used > width) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "value does not fit in width limbs");
  }
  call.choose(MPB_BACKEND_CPU, 1, "cpu: pack mp_int");
  for (size_t i = 0; i < count; i++) {
    const mp_int *x = static_cast<const mp_int *>(items[i]);
    limb *r = rows + i * width;
    size_t u = (size_t)x->used;
    if (u) std::memcpy(r, x->dp, u * sizeof(limb));
    mpn::zero(r + u, width - u);
  }
  return call.finish(MPB_OK);
}

MPB_API int mpb_unpack_mp(void *const *items, const uint64_t *rows, size_t width, size_t count,
                          mpb_call_info *info) {
  Call call(info);
  if (!width_ok(width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..1024 limbs");
  if (count == 0) {
    call.choose(MPB_BACKEND_CPU, 1, "empty batch");
    return call.finish(MPB_OK);
  }
  if (!rows) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "rows is NULL");
  if (!items) return call.fail(MPB_ENULL, MPB_ARG_R, -1, "items is NULL");
  for (size_t i = 0; i < count; i++)
    if (!items[i]) return call.fail(MPB_ENULL, MPB_ARG_R, (int64_t)i, "item is NULL");
  // grow every item first so that a failed allocation leaves all values unchanged
  for (size_t i = 0; i < count; i++) {
    mp_int *x = static_cast<mp_int *>(items[i]);
    if (mp_grow(x, (int)width) != MP_OKAY) return call.fail(MPB_EMEM, MPB_ARG_R, (int64_t)i, "out of memory");
  }
  call.choose(MPB_BACKEND_CPU, 1, "cpu: unpack mp_int");
  for (size_t i = 0; i < count; i++) {
    mp_int *x = static_cast<mp_int *>(items[i]);
    const limb *a = rows + i * width;
    size_t n = mpn::normalized_size(a, width);
    std::memcpy(x->dp, a, width * sizeof(limb));
    for (int j = (int)width; j < x->alloc; j++) x->dp[j] = 0;
    x->used = (int)n;
    x->sign = MP_ZPOS;
  }
  return call.finish(MPB_OK);
}

} // extern "C"

// ---- binding helper: CPython int objects -> rows ---------------------------------------------
extern "C" MPB_API int mpb_pack_cpython_ints(uint64_t *rows, size_t width, const uintptr_t *objs,
                                             size_t count, int layout, mpb_call_info *info) {
  Call call(info);
  if (!width_ok(width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..1024 limbs");
  if (layout != 0 && layout != 1) return call.fail(MPB_EVAL, MPB_ARG_OPTION, -1, "layout must be 0 or 1");
  if (count == 0) return call.finish(MPB_OK);
  if (!rows || !objs) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "a required pointer is NULL");
  call.choose(MPB_BACKEND_CPU, 1, "cpu: pack CPython ints");
  for (size_t i = 0; i < count; i++) {
    const unsigned char *o = reinterpret_cast<const unsigned char *>(objs[i]);
    if (!o) return call.fail(MPB_ENULL, MPB_ARG_A, (int64_t)i, "NULL object");
    int64_t head;
    std::memcpy(&head, o + 16, sizeof head);
    size_t nd;
    bool neg;
    if (layout == 0) {
      neg = head < 0;
      nd = (size_t)(neg ? -head : head);
    } else {
      uint64_t tag = (uint64_t)head;
      neg = (tag & 3) == 2;
      nd = (size_t)(tag >> 3);
    }
    if (neg) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "negative value");
    const uint32_t *d = reinterpret_cast<const uint32_t *>(o + 24);
    limb *r = rows + i * width;
    mpn::zero(r, width);
    size_t bit = 0;
    for (size_t k = 0; k < nd; k++, bit += 30) {
      limb v = d[k] & 0x3FFFFFFFu;
      if (!v) continue;
      size_t li = bit / 64, sh = bit % 64;
      if (li >= width) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "value does not fit in width limbs");
      r[li] |= v << sh;
      if (sh > 34) {
        limb hi = v >> (64 - sh);
        if (li + 1 >= width) {
          if (hi) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "value does not fit in width limbs");
        } else {
          r[li + 1] |= hi;
        }
      }
    }
  }
  return call.finish(MPB_OK);
}

extern "C" MPB_API int mpb_unpack_cpython_ints(void *list, const uint64_t *rows, size_t width,
                                               size_t count, void *from_u64, void *new_long,
                                               void *set_item, mpb_call_info *info) {
  typedef void *(*from_u64_fn)(unsigned long long);
  typedef void *(*new_long_fn)(ptrdiff_t);
  typedef int (*set_item_fn)(void *, ptrdiff_t, void *);
  Call call(info);
  if (!width_ok(width)) return call.fail(MPB_ERANGE, MPB_ARG_WIDTH, -1, "width out of range 1..1024 limbs");
  if (count == 0) return call.finish(MPB_OK);
  if (!list || !rows || !from_u64 || !new_long || !set_item)
    return call.fail(MPB_ENULL, MPB_ARG_A, -1, "a required pointer is NULL");
  call.choose(MPB_BACKEND_CPU, 1, "cpu: unpack CPython ints");
  from_u64_fn small = reinterpret_cast<from_u64_fn>(from_u64);
  new_long_fn make = reinterpret_cast<new_long_fn>(new_long);
  set_item_fn put = reinterpret_cast<set_item_fn>(set_item);
  for (size_t i = 0; i < count; i++) {
    const limb *r = rows + i * width;
    size_t n = mpn::normalized_size(r, width);
    void *obj;
    if (n <= 1) {
      obj = small(n ? (unsigned long long)r[0] : 0ull);
    } else {
      size_t bits = 64 * (n - 1) + (64 - (size_t)__builtin_clzll(r[n - 1]));
      size_t nd = (bits + 29) / 30;
      obj = make((ptrdiff_t)nd);
      if (obj) {
        uint32_t *d = reinterpret_cast<uint32_t *>(static_cast<unsigned char *>(obj) + 24);
        for (size_t k = 0; k < nd; k++) {
          size_t bit = 30 * k, li = bit / 64, sh = bit % 64;
          limb v = r[li] >> sh;
          if (sh > 34 && li + 1 < n) v |= r[li + 1] << (64 - sh);
          d[k] = (uint32_t)(v & 0x3FFFFFFFu);
        }
      }
    }
    if (!obj) return call.fail(MPB_EMEM, MPB_ARG_R, (int64_t)i, "int allocation failed");
    if (put(list, (ptrdiff_t)i, obj) != 0) return call.fail(MPB_EVAL, MPB_ARG_R, (int64_t)i, "storing the int failed");
  }
  return call.finish(MPB_OK);
}
