// tests/fuzz/fuzz_util.h: what the libFuzzer targets share: a reader over the fuzzer's bytes,
// limb rows built from them (raw bytes, or hard patterns: zero, all ones, a power of two), GMP
// conversions, and the abort that makes a wrong answer a crash the fuzzer keeps.
#pragma once
#include <gmp.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <mpbatch/mpbatch.h>

#include "support/oracle.h"
#include "common/rsa_key.h" // bench/

// The libFuzzer entry point of a target whose work is `void fn(fz::Input &)`.
#define MPB_FUZZ_TARGET(fn)                                                   \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { \
    fz::Input in(data, size);                                                 \
    fn(in);                                                                   \
    return 0;                                                                 \
  }

namespace fz {

using Rows = std::vector<uint64_t>;
constexpr uint64_t CANARY = 0xA5A5C3C3DEADBEEFull;

struct Input {
  const uint8_t *d;
  size_t n, pos = 0;
  Input(const uint8_t *data, size_t size) : d(data), n(size) {}
  uint8_t u8() { return pos < n ? d[pos++] : 0; }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)u8() << (8 * i);
    return v;
  }
  // one limb: raw, or a hard pattern picked by a selector byte
  uint64_t limb() {
    switch (u8() % 8) {
      case 0: return 0;
      case 1: return ~0ull;
      case 2: return 1ull << (u8() % 64);
      case 3: return 1;
      default: return u64();
    }
  }
  Rows rows(size_t limbs) {
    Rows r(limbs);
    for (auto &x : r) x = limb();
    return r;
  }
};

inline void fail(const char *what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what);
  std::abort();
}
inline void expect(bool ok, const char *what) {
  if (!ok) fail(what);
}

inline void to_z(mpz_t z, const uint64_t *r, size_t w) { mpz_import(z, w, -1, 8, 0, 0, r); }
inline Rows of_z(const mpz_t z, size_t w) {
  Rows r(w, 0);
  if (mpz_sizeinbase(z, 2) > 64 * w) fail("a GMP value does not fit its row");
  size_t c = 0;
  mpz_export(r.data(), &c, -1, 8, 0, 0, z);
  return r;
}
inline bool same(const Rows &r, size_t off, const mpz_t z, size_t w) {
  const Rows want = of_z(z, w);
  return std::memcmp(r.data() + off, want.data(), w * 8) == 0;
}
inline bool untouched(const Rows &r) {
  for (uint64_t x : r)
    if (x != CANARY) return false;
  return true;
}

using mpbt::Z;  // an mpz_t that clears itself (tests/support/oracle.h)

// An RSA key from a fixed GMP seed (bench/common/rsa_key.h's, n of `bits` bits).
struct SeededRsaKey {
  gmp_randstate_t rs;
  mpbench::RsaKey *key;
  SeededRsaKey(unsigned long seed, int bits) {
    gmp_randinit_default(rs);
    gmp_randseed_ui(rs, seed);
    key = new mpbench::RsaKey(rs, bits);
  }
  ~SeededRsaKey() {
    delete key;
    gmp_randclear(rs);
  }
  SeededRsaKey(const SeededRsaKey &) = delete;
  SeededRsaKey &operator=(const SeededRsaKey &) = delete;
};

struct Ctx {
  mpb_ctx *c = nullptr;
  Ctx() {
    if (mpb_ctx_create(&c) != MPB_OK) std::abort();
  }
  ~Ctx() { mpb_ctx_destroy(c); }
};

} // namespace fz
