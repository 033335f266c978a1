// libFuzzer target: the text and byte parsers. mp_read_radix on arbitrary strings and radixes
// (a string of valid digits must give GMP's value for radix <= 36; whatever is accepted must
// print back and parse to the same value), the unsigned binary round trip, GF(2)[x] hex and
// binary strings (accepted strings print and parse back to the same polynomial), and
// mpb_pack_be / mpb_unpack_be with arbitrary widths, byte lengths and overflowing counts.
#include <string>

#include "fuzz_util.h"

using namespace fz;

namespace {

struct M {
  mp_int v;
  M() {
    if (mp_init(&v) != MP_OKAY) std::abort();
  }
  ~M() { mp_clear(&v); }
  mp_int *operator&() { return &v; }
};

bool plain_digits(const std::string &s, int radix) {
  size_t i = s.size() && s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); i++) {
    const char ch = s[i];
    const int v = ch >= '0' && ch <= '9' ? ch - '0'
                  : ch >= 'a' && ch <= 'z' ? ch - 'a' + 10
                  : ch >= 'A' && ch <= 'Z' ? ch - 'A' + 10
                                           : 99;
    if (v >= radix) return false;
  }
  return true;
}

void radix(Input &in) {
  const int r = 2 + in.u8() % 63;
  std::string s;
  while (in.pos < in.n && s.size() < 300) s.push_back((char)in.u8());
  M a, b;
  const int st = mp_read_radix(&a, (const unsigned char *)s.c_str(), r);
  if (r <= 36 && plain_digits(s, r)) {
    expect(st == MP_OKAY, "a string of valid digits refused");
    Z z;
    expect(mpz_set_str(z, s.c_str(), r) == 0, "GMP refused the digits");
    Rows got(a.v.used ? (size_t)a.v.used : 1, 0);
    if (a.v.used) std::memcpy(got.data(), a.v.dp, (size_t)a.v.used * 8);
    Z za;
    to_z(za, got.data(), got.size());
    if (a.v.sign == MP_NEG) mpz_neg(za, za);
    expect(mpz_cmp(z, za) == 0, "mp_read_radix value != GMP");
  }
  if (st != MP_OKAY) return;
  const int size = mp_radix_size(&a, r);
  expect(size > 0, "radix size");
  std::string buf((size_t)size + 1, '\x7f');
  expect(mp_toradix(&a, (unsigned char *)&buf[0], r) == MP_OKAY, "toradix");
  expect(buf[(size_t)size - 1] == '\0' && buf[(size_t)size] == '\x7f', "toradix length");
  expect(mp_read_radix(&b, (const unsigned char *)buf.c_str(), r) == MP_OKAY, "re-read");
  expect(mp_cmp(&a, &b) == MP_EQ, "radix round trip");
  // unsigned binary round trip of |a|
  const int nb = mp_unsigned_bin_size(&a);
  std::vector<unsigned char> bytes((size_t)nb + 1, 0xee);
  expect(mp_to_unsigned_bin(&a, bytes.data()) == MP_OKAY && bytes[(size_t)nb] == 0xee, "to_unsigned_bin");
  expect(mp_read_unsigned_bin(&b, bytes.data(), nb) == MP_OKAY, "read_unsigned_bin");
  expect(mp_cmp_mag(&a, &b) == MP_EQ, "binary round trip");
}

void gf2x(Input &in) {
  const bool hex = in.u8() & 1;
  std::string s;
  while (in.pos < in.n && s.size() < 400) s.push_back((char)in.u8());
  mpb_gf2x a, b;
  if (mpb_gf2x_init(&a) != MPB_OK || mpb_gf2x_init(&b) != MPB_OK) std::abort();
  const int st = hex ? mpb_gf2x_set_hex(&a, s.c_str()) : mpb_gf2x_set_bin(&a, s.c_str());
  if (st == MPB_OK) {
    size_t need = 0;
    expect((hex ? mpb_gf2x_hex_size(&a, &need) : mpb_gf2x_bin_size(&a, &need)) == MPB_OK, "size");
    std::string buf(need + 1, '\x7f');
    expect((hex ? mpb_gf2x_get_hex(&a, &buf[0], need) : mpb_gf2x_get_bin(&a, &buf[0], need)) == MPB_OK, "print");
    expect(buf[need] == '\x7f', "printed past the size");
    expect((hex ? mpb_gf2x_set_hex(&b, buf.c_str()) : mpb_gf2x_set_bin(&b, buf.c_str())) == MPB_OK, "re-parse");
    int eq = 0;
    expect(mpb_gf2x_equal(&a, &b, &eq) == MPB_OK && eq == 1, "gf2x string round trip");
  } else {
    expect(st == MPB_EVAL, "a bad string gives MPB_EVAL");
  }
  (void)mpb_gf2x_free(&a);
  (void)mpb_gf2x_free(&b);
}

void pack(Input &in) {
  const size_t w = 1 + in.u8() % 6, nbytes = in.u8() % 60, count = in.u8() % 5;
  std::vector<uint8_t> bytes(nbytes * count);
  for (auto &x : bytes) x = in.u8();
  Rows rows(w * count + 1, CANARY);
  mpb_call_info info;
  const int st = mpb_pack_be(rows.data(), w, bytes.data(), nbytes, count, &info);
  if (st != MPB_OK) {
    expect(st == MPB_ERANGE && untouched(rows), "pack_be error");
  } else {
    for (size_t i = 0; i < count; i++) {
      Z zb, zr;
      if (nbytes) mpz_import(zb, nbytes, 1, 1, 1, 0, &bytes[i * nbytes]);
      to_z(zr, &rows[i * w], w);
      expect(mpz_cmp(zb, zr) == 0, "pack_be value");
    }
    std::vector<uint8_t> back(nbytes * count + 1, 0x3c);
    expect(mpb_unpack_be(back.data(), nbytes, rows.data(), w, count, &info) == MPB_OK, "unpack_be");
    expect((bytes.empty() || std::memcmp(back.data(), bytes.data(), bytes.size()) == 0) && back.back() == 0x3c,
           "pack round trip");
  }
  // counts whose buffers cannot exist: refused before anything is touched
  const size_t huge = SIZE_MAX / (1 + in.u8() % 4);
  Rows small(4, CANARY);
  std::vector<uint8_t> sb(16, 0x3c);
  expect(mpb_pack_be(small.data(), w, sb.data(), 8, huge, &info) == MPB_ERANGE && untouched(small), "pack_be overflow");
  expect(mpb_unpack_be(sb.data(), 8 + nbytes, small.data(), w, huge, &info) == MPB_ERANGE, "unpack_be overflow");
  for (uint8_t x : sb) expect(x == 0x3c, "unpack_be overflow wrote");
}

void run(Input &in) {
  switch (in.u8() % 3) {
    case 0: radix(in); break;
    case 1: gf2x(in); break;
    default: pack(in); break;
  }
}

} // namespace

MPB_FUZZ_TARGET(run)
