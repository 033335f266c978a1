// Big-endian byte formats: mp_unsigned_bin_size / mp_read_unsigned_bin / mp_to_unsigned_bin
// (|a|, no sign, zero is 0 bytes) and the signed variants (first byte 0 for a >= 0, 1 for
// a < 0, then the big-endian magnitude). A NULL pointer or a negative length -> MP_VAL; a
// signed string must be at least one byte and start with 0 or 1.
#include "bn/bn_ops.h"

using namespace mpb;
using mpn::limb;

namespace {
// a = the big-endian bytes [b, b+c), sign. Grows a first: on MP_MEM a is unchanged.
int read_be(mp_int *a, const unsigned char *b, size_t c, int sign) {
  while (c > 0 && *b == 0) { b++; c--; }  // leading zero bytes
  const size_t n = (c + 7) / 8;
  int e = bn::ensure(a, n);
  if (e != MP_OKAY) return e;
  size_t old = bn::used(a);
  for (size_t i = 0; i < n; i++) {
    // limb i holds bytes [c - 8(i+1), c - 8i)
    limb v = 0;
    size_t hi = c - 8 * i, lo = hi >= 8 ? hi - 8 : 0;
    for (size_t j = lo; j < hi; j++) v = (v << 8) | b[j];
    a->dp[i] = v;
  }
  bn::finish(a, n, old, sign);
  return MP_OKAY;
}

size_t bytes_of(const mp_int *a) { return ((size_t)mpb_mp_count_bits(a) + 7) / 8; }

void write_be(const mp_int *a, unsigned char *b) {
  size_t nb = bytes_of(a);
  for (size_t k = 0; k < nb; k++) {  // byte k from the least significant end
    b[nb - 1 - k] = (unsigned char)(a->dp[k / 8] >> (8 * (k % 8)));
  }
}
}  // namespace

extern "C" {

MPB_API int mpb_mp_unsigned_bin_size(const mp_int *a) {
  if (!a) return MP_VAL;
  return (int)bytes_of(a);
}

MPB_API int mpb_mp_read_unsigned_bin(mp_int *a, const unsigned char *b, int c) {
  if (!a || c < 0 || (c > 0 && !b)) return MP_VAL;
  return read_be(a, b, (size_t)c, MP_ZPOS);
}

MPB_API int mpb_mp_to_unsigned_bin(const mp_int *a, unsigned char *b) {
  if (!a || (!b && a->used > 0)) return MP_VAL;
  write_be(a, b);
  return MP_OKAY;
}

MPB_API int mpb_mp_signed_bin_size(const mp_int *a) {
  if (!a) return MP_VAL;
  return 1 + (int)bytes_of(a);
}

MPB_API int mpb_mp_read_signed_bin(mp_int *a, const unsigned char *b, int c) {
  if (!a || !b || c < 1 || b[0] > 1) return MP_VAL;
  return read_be(a, b + 1, (size_t)c - 1, b[0] ? MP_NEG : MP_ZPOS);
}

MPB_API int mpb_mp_to_signed_bin(const mp_int *a, unsigned char *b) {
  if (!a || !b) return MP_VAL;
  b[0] = (a->sign == MP_NEG && a->used > 0) ? 1 : 0;
  write_be(a, b + 1);
  return MP_OKAY;
}

}  // extern "C"
