// Radix conversions (mp_read_radix, mp_toradix, mp_radix_size) for every radix 2..64, and the
// big-endian binary formats (unsigned and signed), against GMP; malformed input; allocation
// failure.
#include "support/bn_test_common.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

using namespace bnt;

namespace {
const char ALPHA[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/";

// Reference conversion of |z| (independent of GMP's alphabets): repeated division.
std::string ref_radix(mpz_srcptr z, int radix) {
  if (mpz_sgn(z) == 0) return "0";
  Z t;
  mpz_abs(t, z);
  std::string s;
  while (mpz_sgn(t.v) != 0) s.push_back(ALPHA[mpz_fdiv_q_ui(t, t, (unsigned long)radix)]);
  if (mpz_sgn(z) < 0) s.push_back('-');
  std::reverse(s.begin(), s.end());
  return s;
}

std::string upper(std::string s) {
  for (auto &ch : s) ch = (char)std::toupper((unsigned char)ch);
  return s;
}
}  // namespace

TEST_CASE("mp_toradix / mp_read_radix / mp_radix_size: every radix 2..64 against GMP", "[bn][radix]") {
  auto rng = make_rng(401);
  for (int radix = 2; radix <= 64; radix++)
    for (size_t n : {0, 1, 2, 3, 5, 8, 17, 33, 70})
      for (int rep = 0; rep < 3; rep++) {
        INFO("radix " << radix << " n " << n);
        Z za;
        rand_z(rng, za, n);
        M a, b;
        setz(&a, za);
        int size = mp_radix_size(&a, radix);
        std::string ref = ref_radix(za, radix);
        REQUIRE(size == (int)ref.size() + 1);
        std::vector<unsigned char> buf((size_t)size + 8, 0xAA);
        REQUIRE(mp_toradix(&a, buf.data(), radix) == MP_OKAY);
        std::string got(reinterpret_cast<char *>(buf.data()));
        REQUIRE(got == ref);
        REQUIRE(buf[(size_t)size - 1] == 0);
        REQUIRE(buf[(size_t)size] == 0xAA);  // nothing past the size
        if (radix <= 62) {  // GMP: lower case for <= 36, 0-9A-Za-z for 37..62
          char *g = mpz_get_str(nullptr, radix, za);
          std::string gs(g);
          void (*freefunc)(void *, size_t);
          mp_get_memory_functions(nullptr, nullptr, &freefunc);
          freefunc(g, std::strlen(g) + 1);
          if (radix <= 36) REQUIRE(upper(gs) == got);
          else REQUIRE(gs == got);
        }
        REQUIRE(mp_read_radix(&b, buf.data(), radix) == MP_OKAY);
        BN_EQ(&b, za);
        if (radix <= 36) {  // lower case reads the same
          std::string low = got;
          for (auto &ch : low) ch = (char)std::tolower((unsigned char)ch);
          REQUIRE(mp_read_radix(&b, reinterpret_cast<const unsigned char *>(low.c_str()), radix) == MP_OKAY);
          BN_EQ(&b, za);
        }
        // leading zeros, "-0"
        std::string lz = (mpz_sgn(za.v) < 0 ? "-000" : "000") + (mpz_sgn(za.v) < 0 ? got.substr(1) : got);
        REQUIRE(mp_read_radix(&b, reinterpret_cast<const unsigned char *>(lz.c_str()), radix) == MP_OKAY);
        BN_EQ(&b, za);
        REQUIRE(mp_read_radix(&b, reinterpret_cast<const unsigned char *>("-0"), radix) == MP_OKAY);
        REQUIRE(mp_iszero(&b.v));
        REQUIRE(b.v.sign == MP_ZPOS);
      }
}

TEST_CASE("mp_read_radix: random digit strings of every radix against GMP", "[bn][radix]") {
  auto rng = make_rng(402);
  for (int radix = 2; radix <= 62; radix++)
    for (size_t len : {1, 2, 9, 19, 20, 21, 39, 40, 64, 65, 300, 1500}) {
      std::string s;
      for (size_t i = 0; i < len; i++) s.push_back(ALPHA[rng() % (unsigned)radix]);
      if (rng() & 1) s = "-" + s;
      std::string gs = s;
      if (radix <= 36)
        for (auto &ch : gs) ch = (char)std::tolower((unsigned char)ch);
      Z want;
      REQUIRE(mpz_set_str(want, gs.c_str(), radix) == 0);
      M a;
      REQUIRE(mp_read_radix(&a, reinterpret_cast<const unsigned char *>(s.c_str()), radix) == MP_OKAY);
      BN_EQ(&a, want);
    }
  // radix 63/64 use '+' and '/': check against the reference writer
  for (int radix : {63, 64})
    for (size_t len : {1, 11, 12, 50, 400}) {
      std::string s;
      for (size_t i = 0; i < len; i++) s.push_back(ALPHA[rng() % (unsigned)radix]);
      Z want;
      for (char ch : s) {
        mpz_mul_ui(want, want, (unsigned long)radix);
        mpz_add_ui(want, want, (unsigned long)(std::strchr(ALPHA, ch) - ALPHA));
      }
      M a;
      REQUIRE(mp_read_radix(&a, reinterpret_cast<const unsigned char *>(s.c_str()), radix) == MP_OKAY);
      BN_EQ(&a, want);
    }
}

TEST_CASE("mp_read_radix / mp_toradix / mp_radix_size reject malformed input", "[bn][radix]") {
  M a;
  mp_set(&a, 1234);
  auto rd = [&](const char *s, int radix) {
    return mp_read_radix(&a, reinterpret_cast<const unsigned char *>(s), radix);
  };
  REQUIRE(rd("", 10) == MP_VAL);
  REQUIRE(rd("-", 10) == MP_VAL);
  REQUIRE(rd("12G", 16) == MP_VAL);
  REQUIRE(rd("12g", 16) == MP_VAL);
  REQUIRE(rd("102", 2) == MP_VAL);
  REQUIRE(rd("1 2", 10) == MP_VAL);
  REQUIRE(rd(" 12", 10) == MP_VAL);
  REQUIRE(rd("+12", 10) == MP_VAL);
  REQUIRE(rd("--1", 10) == MP_VAL);
  REQUIRE(rd("1-", 10) == MP_VAL);
  REQUIRE(rd("a", 37) == MP_OKAY);  // 'a' is 36 in radix 37
  REQUIRE(mp_cmp_d(&a.v, 36) == MP_EQ);
  mp_set(&a, 1234);
  REQUIRE(rd("a", 36) == MP_OKAY);  // case-insensitive: 10
  REQUIRE(mp_cmp_d(&a.v, 10) == MP_EQ);
  mp_set(&a, 1234);
  REQUIRE(rd("+", 62) == MP_VAL);
  REQUIRE(rd("/", 63) == MP_VAL);
  REQUIRE(rd("10", 1) == MP_VAL);
  REQUIRE(rd("10", 65) == MP_VAL);
  REQUIRE(rd("10", 0) == MP_VAL);
  REQUIRE(rd("10", -16) == MP_VAL);
  REQUIRE(mp_read_radix(&a, nullptr, 10) == MP_VAL);
  REQUIRE(mp_read_radix(nullptr, reinterpret_cast<const unsigned char *>("1"), 10) == MP_VAL);
  REQUIRE(mp_cmp_d(&a.v, 1234) == MP_EQ);  // untouched by every failure
  unsigned char buf[16] = {0x55};
  REQUIRE(mp_toradix(&a, buf, 1) == MP_VAL);
  REQUIRE(mp_toradix(&a, buf, 65) == MP_VAL);
  REQUIRE(buf[0] == 0x55);
  REQUIRE(mp_toradix(&a, nullptr, 10) == MP_VAL);
  REQUIRE(mp_toradix(nullptr, buf, 10) == MP_VAL);
  REQUIRE(mp_radix_size(&a, 1) == MP_VAL);
  REQUIRE(mp_radix_size(&a, 65) == MP_VAL);
  REQUIRE(mp_radix_size(nullptr, 10) == MP_VAL);
  M z;
  REQUIRE(mp_radix_size(&z, 10) == 2);
  REQUIRE(mp_toradix(&z, buf, 10) == MP_OKAY);
  REQUIRE(std::string(reinterpret_cast<char *>(buf)) == "0");
}

TEST_CASE("binary formats: unsigned and signed round trips against GMP", "[bn][binary]") {
  auto rng = make_rng(403);
  for (size_t n : sizes(40))
    for (int rep = 0; rep < 3; rep++) {
      Z za, babs;
      rand_z(rng, za, n);
      if (rep == 2 && n) mpz_tdiv_q_2exp(za, za, rng() % 64);  // odd byte counts
      mpz_abs(babs, za);
      M a, b;
      setz(&a, za);
      size_t want_bytes = mpz_sgn(za.v) ? (mpz_sizeinbase(za, 2) + 7) / 8 : 0;
      REQUIRE(mp_unsigned_bin_size(&a) == (int)want_bytes);
      REQUIRE(mp_signed_bin_size(&a) == (int)want_bytes + 1);
      std::vector<unsigned char> buf(want_bytes + 2, 0xCC), gbuf(want_bytes + 1, 0);
      size_t cnt = 0;
      mpz_export(gbuf.data(), &cnt, 1, 1, 1, 0, za);
      REQUIRE(cnt == want_bytes);
      REQUIRE(mp_to_unsigned_bin(&a, buf.data()) == MP_OKAY);
      REQUIRE(std::equal(gbuf.begin(), gbuf.begin() + (long)cnt, buf.begin()));
      REQUIRE(buf[want_bytes] == 0xCC);
      REQUIRE(mp_read_unsigned_bin(&b, buf.data(), (int)want_bytes) == MP_OKAY);
      BN_EQ(&b, babs);
      // with leading zero bytes
      std::vector<unsigned char> padded(3, 0);
      padded.insert(padded.end(), buf.begin(), buf.begin() + (long)want_bytes);
      REQUIRE(mp_read_unsigned_bin(&b, padded.data(), (int)padded.size()) == MP_OKAY);
      BN_EQ(&b, babs);
      // signed
      std::fill(buf.begin(), buf.end(), 0xCC);
      REQUIRE(mp_to_signed_bin(&a, buf.data()) == MP_OKAY);
      REQUIRE(buf[0] == (mpz_sgn(za.v) < 0 ? 1 : 0));
      REQUIRE(std::equal(gbuf.begin(), gbuf.begin() + (long)cnt, buf.begin() + 1));
      REQUIRE(buf[want_bytes + 1] == 0xCC);
      REQUIRE(mp_read_signed_bin(&b, buf.data(), (int)want_bytes + 1) == MP_OKAY);
      BN_EQ(&b, za);
      // read into itself (a as the target)
      REQUIRE(mp_read_signed_bin(&a, buf.data(), (int)want_bytes + 1) == MP_OKAY);
      BN_EQ(&a, za);
    }
  // malformed
  M a;
  mp_set(&a, 99);
  unsigned char one[2] = {1, 0}, bad[2] = {2, 5}, neg0[1] = {1};
  REQUIRE(mp_read_unsigned_bin(&a, one, -1) == MP_VAL);
  REQUIRE(mp_read_unsigned_bin(&a, nullptr, 3) == MP_VAL);
  REQUIRE(mp_read_signed_bin(&a, one, 0) == MP_VAL);
  REQUIRE(mp_read_signed_bin(&a, one, -2) == MP_VAL);
  REQUIRE(mp_read_signed_bin(&a, bad, 2) == MP_VAL);
  REQUIRE(mp_read_signed_bin(&a, nullptr, 2) == MP_VAL);
  REQUIRE(mp_read_signed_bin(nullptr, one, 2) == MP_VAL);
  REQUIRE(mp_to_signed_bin(&a, nullptr) == MP_VAL);
  REQUIRE(mp_unsigned_bin_size(nullptr) == MP_VAL);
  REQUIRE(mp_cmp_d(&a.v, 99) == MP_EQ);
  REQUIRE(mp_read_unsigned_bin(&a, nullptr, 0) == MP_OKAY);  // empty string is zero
  REQUIRE(mp_iszero(&a.v));
  REQUIRE(mp_read_signed_bin(&a, neg0, 1) == MP_OKAY);  // "-0" -> +0
  REQUIRE(mp_iszero(&a.v));
  REQUIRE(a.v.sign == MP_ZPOS);
}

TEST_CASE("radix and binary readers/writers: MP_MEM on allocation failure, no leak", "[bn][radix][alloc]") {
  auto rng = make_rng(404);
  for (int which = 0; which < 7; which++)
    for (int radix : {10, 16, 7}) {
      INFO("which=" << which << " radix=" << radix);
      Z za, zo;
      rand_z(rng, za, 400);  // big enough for heap scratch
      mpz_set_si(zo, -3);
      std::string s = ref_radix(za, radix);
      std::vector<unsigned char> bytes(mpz_sizeinbase(za, 2) / 8 + 2);
      size_t cnt;
      mpz_export(bytes.data() + 1, &cnt, 1, 1, 1, 0, za);
      bytes[0] = mpz_sgn(za.v) < 0;
      std::vector<unsigned char> out(s.size() + 1, 0x11), out0 = out;
      mp_int a, o;
      int size_rc = 0;
      FailCase fc;
      fc.setup = [&] {
        init_set(&a, za);
        init_set(&o, zo);
        out = out0;
      };
      fc.op = [&]() -> int {
        switch (which) {
          case 0: return mp_read_radix(&o, reinterpret_cast<const unsigned char *>(s.c_str()), radix);
          case 1: return mp_toradix(&a, out.data(), radix);
          case 2: size_rc = mp_radix_size(&a, radix); return size_rc < 0 ? size_rc : MP_OKAY;
          case 3: return mp_read_signed_bin(&o, bytes.data(), (int)cnt + 1);
          case 4: return mp_read_unsigned_bin(&o, bytes.data() + 1, (int)cnt);
          case 5: return mp_neg(&a, &o);
          default: return mp_abs(&a, &o);
        }
      };
      fc.unchanged = [&] { return equal(&a, za) && equal(&o, zo) && out == out0; };
      fc.correct = [&] {
        Z absz, negz;
        mpz_abs(absz, za);
        mpz_neg(negz, za);
        switch (which) {
          case 0: case 3: return equal(&o, za);
          case 1: return std::string(reinterpret_cast<char *>(out.data())) == s;
          case 2: return size_rc == (int)s.size() + 1;
          case 4: return equal(&o, absz);
          case 5: return equal(&o, negz);
          default: return equal(&o, absz);
        }
      };
      fc.teardown = [&] { mp_clear(&a); mp_clear(&o); };
      run_alloc_failures(fc);
    }
}

TEST_CASE("mp_toradix / mp_radix_size: long numbers (divide and conquer) and digit-boundary values",
          "[bn][radix]") {
  auto rng = make_rng(405);
  auto check = [&](mpz_srcptr z, int radix) {
    INFO("radix " << radix << " bits " << mpz_sizeinbase(z, 2));
    M a, b;
    setz(&a, z);
    std::string ref = ref_radix(z, radix);
    int size = mp_radix_size(&a, radix);
    REQUIRE(size == (int)ref.size() + 1);
    std::vector<unsigned char> buf((size_t)size + 4, 0xAA);
    REQUIRE(mp_toradix(&a, buf.data(), radix) == MP_OKAY);
    REQUIRE(std::string(reinterpret_cast<char *>(buf.data())) == ref);
    REQUIRE(buf[(size_t)size] == 0xAA);
    REQUIRE(mp_read_radix(&b, buf.data(), radix) == MP_OKAY);
    BN_EQ(&b, z);
  };
  for (int radix : {3, 7, 10, 12, 36, 37, 62, 63})
    for (size_t n : {15, 16, 17, 23, 24, 25, 31, 32, 33, 40, 47, 48, 49, 64, 100, 128, 129, 300, 700}) {
      Z z;
      rand_z(rng, z, n);
      check(z, radix);
      // radix^m - 1, radix^m, radix^m + 1 for m near the size (long runs of max / zero digits)
      size_t m = (size_t)((double)n * 64 / std::log2((double)radix));
      Z p;
      mpz_ui_pow_ui(p, (unsigned long)radix, m);
      check(p, radix);
      mpz_sub_ui(z, p, 1);
      check(z, radix);
      mpz_add_ui(z, p, 1);
      mpz_neg(z, z);
      check(z, radix);
      // a power times a random small factor: zero digits in every low half
      mpz_ui_pow_ui(p, (unsigned long)radix, m / 2);
      mpz_mul_ui(z, p, (unsigned long)(rng() >> 40) + 1);
      check(z, radix);
    }
}
