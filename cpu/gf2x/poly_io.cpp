// GF(2)[x] string conversion: hexadecimal and binary, most significant coefficient first.
#include "gf2x/poly.h"

using namespace mpb::gf2xapi;

namespace {

int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// bits_per_digit: 4 (hex) or 1 (binary)
int set_str(mpb_gf2x *r, const char *s, unsigned bits_per_digit) {
  int st = check_out(r);
  if (st) return st;
  if (!s) return MPB_ENULL;
  const char pfx = bits_per_digit == 4 ? 'x' : 'b';
  if (s[0] == '0' && (s[1] == pfx || s[1] == (char)(pfx - 32))) s += 2;
  // validate and measure (stop counting early: the limit is checked on the fly)
  size_t len = 0;
  const uint64_t max_digits = (uint64_t)kMaxLimbs * 64 / bits_per_digit;
  size_t lead = 0;  // leading zero digits (do not count towards the size limit)
  bool seen_nonzero = false;
  for (const char *c = s; *c; c++, len++) {
    int v = bits_per_digit == 4 ? hexval(*c) : (*c == '0' ? 0 : *c == '1' ? 1 : -1);
    if (v < 0) return MPB_EVAL;
    if (!seen_nonzero) {
      if (v == 0) lead++;
      else seen_nonzero = true;
    }
  }
  if (len == 0) return MPB_EVAL;
  size_t digits = len - lead;
  if (digits > max_digits) return MPB_ERANGE;
  size_t rn = (digits * bits_per_digit + 63) / 64;
  Buf b;
  if (!b.alloc(rn)) return MPB_EMEM;
  // fill from the least significant digit
  const char *end = s + len;
  for (size_t i = 0; i < digits; i++) {
    char c = end[-1 - (ptrdiff_t)i];
    limb v = bits_per_digit == 4 ? (limb)hexval(c) : (limb)(c - '0');
    size_t bit = i * bits_per_digit;
    b.p[bit / 64] |= v << (bit % 64);
  }
  return commit(r, b, rn);
}

int str_size(const mpb_gf2x *a, unsigned bits_per_digit, size_t *size) {
  View va;
  int st = view(a, va);
  if (st) return st;
  if (!size) return MPB_ENULL;
  if (va.n == 0) {
    *size = 2;
    return MPB_OK;
  }
  uint64_t bits = (uint64_t)deg(va.p, va.n) + 1;
  *size = (size_t)((bits + bits_per_digit - 1) / bits_per_digit) + 1;
  return MPB_OK;
}

int get_str(const mpb_gf2x *a, char *buf, size_t bufsize, unsigned bits_per_digit) {
  size_t need = 0;
  int st = str_size(a, bits_per_digit, &need);
  if (st) return st;
  if (!buf) return MPB_ENULL;
  if (bufsize < need) return MPB_ERANGE;
  View va;
  (void)view(a, va);
  if (va.n == 0) {
    buf[0] = '0';
    buf[1] = 0;
    return MPB_OK;
  }
  static const char digits[] = "0123456789abcdef";
  size_t nd = need - 1;
  for (size_t i = 0; i < nd; i++) {  // i-th digit from the least significant end
    size_t bit = i * bits_per_digit;
    unsigned v = (unsigned)((va.p[bit / 64] >> (bit % 64)) & ((1u << bits_per_digit) - 1));
    buf[nd - 1 - i] = digits[v];
  }
  buf[nd] = 0;
  return MPB_OK;
}

}  // namespace

extern "C" {

MPB_API int mpb_gf2x_set_hex(mpb_gf2x *r, const char *s) { return set_str(r, s, 4); }
MPB_API int mpb_gf2x_set_bin(mpb_gf2x *r, const char *s) { return set_str(r, s, 1); }
MPB_API int mpb_gf2x_hex_size(const mpb_gf2x *a, size_t *size) { return str_size(a, 4, size); }
MPB_API int mpb_gf2x_bin_size(const mpb_gf2x *a, size_t *size) { return str_size(a, 1, size); }
MPB_API int mpb_gf2x_get_hex(const mpb_gf2x *a, char *buf, size_t bufsize) { return get_str(a, buf, bufsize, 4); }
MPB_API int mpb_gf2x_get_bin(const mpb_gf2x *a, char *buf, size_t bufsize) { return get_str(a, buf, bufsize, 1); }

}  // extern "C"
