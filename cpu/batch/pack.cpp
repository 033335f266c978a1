// cpu/batch/pack.cpp: conversions between the batch row layout and big-endian byte strings
// or mp_int values. Whole-call validation first: nothing is written when an item does not fit.
#include <cstring>

#include <mpbatch/bn.h>

#include "batch/call.h"

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
  int st;
  if (begin_conversion(call, width, count, &st, nbytes)) return st;
  if (!rows) return call.fail(MPB_ENULL, MPB_ARG_R, -1, "rows is NULL");
  if (!bytes && nbytes) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "bytes is NULL");
  // validation: leading bytes beyond width*8 must be zero
  if (nbytes > width * 8) {
    size_t extra = nbytes - width * 8;
    for (size_t i = 0; i < count; i++)
      for (size_t j = 0; j < extra; j++)
        if (bytes[i * nbytes + j]) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "value does not fit in width limbs");
  }
  call.choose(MPB_BACKEND_CPU_SCALAR, 1, "cpu: pack");
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
  int st;
  if (begin_conversion(call, width, count, &st, nbytes)) return st;
  if (!rows) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "rows is NULL");
  if (!bytes && nbytes) return call.fail(MPB_ENULL, MPB_ARG_R, -1, "bytes is NULL");
  for (size_t i = 0; i < count; i++)
    if (row_bytes(rows + i * width, width) > nbytes)
      return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "value does not fit in nbytes");
  call.choose(MPB_BACKEND_CPU_SCALAR, 1, "cpu: unpack");
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
  int st;
  if (begin_conversion(call, width, count, &st)) return st;
  if (!rows) return call.fail(MPB_ENULL, MPB_ARG_R, -1, "rows is NULL");
  if (!items) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "items is NULL");
  for (size_t i = 0; i < count; i++) {
    const mp_int *x = static_cast<const mp_int *>(items[i]);
    if (!x) return call.fail(MPB_ENULL, MPB_ARG_A, (int64_t)i, "item is NULL");
    if (x->sign != MP_ZPOS && x->used > 0) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "negative value");
    if ((size_t)x->used > width) return call.fail(MPB_ERANGE, MPB_ARG_A, (int64_t)i, "value does not fit in width limbs");
  }
  call.choose(MPB_BACKEND_CPU_SCALAR, 1, "cpu: pack mp_int");
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
  int st;
  if (begin_conversion(call, width, count, &st)) return st;
  if (!rows) return call.fail(MPB_ENULL, MPB_ARG_A, -1, "rows is NULL");
  if (!items) return call.fail(MPB_ENULL, MPB_ARG_R, -1, "items is NULL");
  for (size_t i = 0; i < count; i++)
    if (!items[i]) return call.fail(MPB_ENULL, MPB_ARG_R, (int64_t)i, "item is NULL");
  // grow every item first so that a failed allocation leaves all values unchanged
  for (size_t i = 0; i < count; i++) {
    mp_int *x = static_cast<mp_int *>(items[i]);
    if (mp_grow(x, (int)width) != MP_OKAY) return call.fail(MPB_EMEM, MPB_ARG_R, (int64_t)i, "out of memory");
  }
  call.choose(MPB_BACKEND_CPU_SCALAR, 1, "cpu: unpack mp_int");
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

// The CPython int binding helpers (mpb_pack_cpython_ints, ...) are in cpu/bindings/cpython.cpp.
