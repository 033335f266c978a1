// mp_int life cycle: init, clear, grow, copy, set, exchange, clamp, bit count.
#include <climits>
#include <cstring>

#include "bn/bn_internal.h"

using namespace mpb;

namespace mpb {
namespace bn {
int grow(mp_int *a, int size) {
  if (size <= a->alloc) return MP_OKAY;
  if (size > MAX_DIGITS) return MP_MEM;
  // round up to a multiple of 8 digits, with some slack
  int n = (size + 7) & ~7;
  void *p = mem_realloc(a->dp, (size_t)a->alloc * sizeof(mp_digit), (size_t)n * sizeof(mp_digit));
  if (!p) return MP_MEM;
  a->dp = static_cast<mp_digit *>(p);
  std::memset(a->dp + a->alloc, 0, (size_t)(n - a->alloc) * sizeof(mp_digit));
  a->alloc = n;
  return MP_OKAY;
}
} // namespace bn
} // namespace mpb

extern "C" {

MPB_API int mpb_mp_init_size(mp_int *a, int size) {
  if (!a || size < 0) return MP_VAL;
  if (size > bn::MAX_DIGITS) return MP_MEM;
  if (size < 1) size = 1;
  size = (size + 7) & ~7;
  void *p = mem_alloc((size_t)size * sizeof(mp_digit));
  if (!p) return MP_MEM;
  std::memset(p, 0, (size_t)size * sizeof(mp_digit));
  a->dp = static_cast<mp_digit *>(p);
  a->alloc = size;
  a->used = 0;
  a->sign = MP_ZPOS;
  return MP_OKAY;
}

MPB_API int mpb_mp_init(mp_int *a) { return mpb_mp_init_size(a, MP_PREC); }

MPB_API void mpb_mp_clear(mp_int *a) {
  if (!a || !a->dp) return;
  secure_zero(a->dp, (size_t)a->alloc * sizeof(mp_digit));
  mem_free(a->dp, (size_t)a->alloc * sizeof(mp_digit));
  a->dp = nullptr;
  a->alloc = a->used = 0;
  a->sign = MP_ZPOS;
}

MPB_API void mpb_mp_zero(mp_int *a) {
  if (a->dp) std::memset(a->dp, 0, (size_t)a->alloc * sizeof(mp_digit));
  a->used = 0;
  a->sign = MP_ZPOS;
}

MPB_API void mpb_mp_set(mp_int *a, mp_digit b) {
  mpb_mp_zero(a);
  if (a->alloc < 1) return;  // never happens for an initialised mp_int
  a->dp[0] = b;
  a->used = b ? 1 : 0;
}

MPB_API int mpb_mp_set_int(mp_int *a, unsigned long b) {
  if (a->alloc < 1) {
    int e = bn::grow(a, 1);
    if (e != MP_OKAY) return e;
  }
  mpb_mp_set(a, (mp_digit)(b & 0xFFFFFFFFul));
  return MP_OKAY;
}

MPB_API int mpb_mp_copy(const mp_int *a, mp_int *b) {
  if (a == b) return MP_OKAY;
  int e = bn::grow(b, a->used);
  if (e != MP_OKAY) return e;
  std::memcpy(b->dp, a->dp, (size_t)a->used * sizeof(mp_digit));
  if (b->used > a->used)
    std::memset(b->dp + a->used, 0, (size_t)(b->used - a->used) * sizeof(mp_digit));
  b->used = a->used;
  b->sign = a->sign;
  return MP_OKAY;
}

MPB_API int mpb_mp_init_copy(mp_int *a, const mp_int *b) {
  int e = mpb_mp_init_size(a, b->used);
  if (e != MP_OKAY) return e;
  e = mpb_mp_copy(b, a);
  if (e != MP_OKAY) mpb_mp_clear(a);
  return e;
}

MPB_API void mpb_mp_exch(mp_int *a, mp_int *b) {
  mp_int t = *a;
  *a = *b;
  *b = t;
}

MPB_API int mpb_mp_grow(mp_int *a, int size) { return bn::grow(a, size); }

MPB_API int mpb_mp_shrink(mp_int *a) {
  int n = a->used > 0 ? a->used : 1;
  if (a->alloc == n) return MP_OKAY;
  void *p = mem_realloc(a->dp, (size_t)a->alloc * sizeof(mp_digit), (size_t)n * sizeof(mp_digit));
  if (!p) return MP_MEM;
  a->dp = static_cast<mp_digit *>(p);
  a->alloc = n;
  if (a->used == 0) a->dp[0] = 0;
  return MP_OKAY;
}

MPB_API void mpb_mp_clamp(mp_int *a) { bn::clamp(a); }

MPB_API int mpb_mp_count_bits(const mp_int *a) {
  if (a->used == 0) return 0;
  return (a->used - 1) * 64 + (64 - __builtin_clzll(a->dp[a->used - 1]));
}

} // extern "C"
