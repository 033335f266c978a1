#include "support/oracle.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include <mpbatch/batch.h>

#include "core/cpu_features.h"
#include "simd/powm_lanes.h"

namespace mpbt {

uint64_t test_seed() {
  static uint64_t seed = [] {
    uint64_t s = 0x6d70626174636821ull;
    if (const char *e = std::getenv("MPB_TEST_SEED")) s = std::strtoull(e, nullptr, 0);
    std::fprintf(stderr, "mpbatch tests: seed %llu (set MPB_TEST_SEED to reproduce)\n",
                 (unsigned long long)s);
    return s;
  }();
  return seed;
}

std::mt19937_64 make_rng(uint64_t salt) {
  std::seed_seq seq{(uint32_t)test_seed(), (uint32_t)(test_seed() >> 32), (uint32_t)salt,
                    (uint32_t)(salt >> 32)};
  return std::mt19937_64(seq);
}

bool emulated_rerun_skips(int backend) {
  if (!mpb::simd::ifma_emulation()) return false;
  return backend == MPB_BACKEND_CPU_SCALAR || backend == MPB_BACKEND_CPU_AVX512 || backend == MPB_BACKEND_CPU_AVX2 ||
         backend == MPB_BACKEND_MULTIPARTITE;
}

bool quick() {
  const char *q = std::getenv("MPB_TEST_QUICK");
  return q && *q && *q != '0';
}

std::vector<bool> kernel_passes() {
  if (mpb::cpu::portable_forced() || mpb::cpu::features() == 0) return {false};
  return {false, true};
}

std::vector<size_t> size_sweep(size_t max) {
  const bool q = quick();
  std::vector<size_t> r;
  for (size_t n = 1; n <= max; n++)
    if (!q || n <= 12 || n == 13 || n == 14 || n == 15 || n == 16 || n == 17 || n == 23 || n == 24 ||
        n == 25 || n == 31 || n == 32 || n == 33 || n == 48 || n == max)
      r.push_back(n);
  return r;
}

std::vector<uint64_t> hard_limbs(std::mt19937_64 &rng, size_t n, int kind) {
  std::vector<uint64_t> v(n);
  if (n == 0) return v;
  int mode = kind;
  if (kind == 0) mode = (int)(rng() % 4);  // 0,3: per-limb mix; 1: random; 2: bit runs
  if (mode == 1) {
    for (auto &x : v) x = rng();
  } else if (mode == 2) {
    // runs of ones and zeros of random lengths, as mpn_random2
    size_t bits = n * 64, pos = 0;
    bool one = rng() & 1;
    while (pos < bits) {
      size_t len = 1 + rng() % (rng() & 1 ? 8 : 200);
      for (size_t i = pos; i < bits && i < pos + len; i++)
        if (one) v[i / 64] |= 1ull << (i % 64);
      pos += len;
      one = !one;
    }
  } else {
    for (auto &x : v) {
      switch (rng() % 8) {
        case 0: x = 0; break;
        case 1: x = ~0ull; break;
        case 2: x = 1; break;
        case 3: x = 1ull << 63; break;
        case 4: x = ~0ull >> (rng() % 64); break;
        case 5: x = ~0ull << (rng() % 64); break;
        default: x = rng(); break;
      }
    }
  }
  return v;
}

std::vector<uint64_t> hard_bits(std::mt19937_64 &rng, size_t bits) {
  size_t n = (bits + 63) / 64;
  auto v = hard_limbs(rng, n);
  if (bits == 0) return {};
  unsigned top = (unsigned)(bits - (n - 1) * 64);  // 1..64
  if (top < 64) v[n - 1] &= (1ull << top) - 1;
  v[n - 1] |= 1ull << (top - 1);
  return v;
}

void to_mpz(mpz_t z, const uint64_t *p, size_t n) {
  mpz_import(z, n, -1, sizeof(uint64_t), 0, 0, p);
}

void to_mpz(mpz_t z, const mp_int *a) {
  to_mpz(z, a->dp, (size_t)a->used);
  if (a->sign == MP_NEG) mpz_neg(z, z);
}

int from_mpz(mp_int *a, const mpz_t z) {
  size_t n = (mpz_sizeinbase(z, 2) + 63) / 64;
  if (mpz_sgn(z) == 0) n = 0;
  int e = mp_grow(a, (int)n);
  if (e != MP_OKAY) return e;
  mp_zero(a);
  size_t cnt = 0;
  mpz_export(a->dp, &cnt, -1, sizeof(uint64_t), 0, 0, z);
  a->used = (int)cnt;
  a->sign = mpz_sgn(z) < 0 ? MP_NEG : MP_ZPOS;
  mp_clamp(a);
  return MP_OKAY;
}

std::vector<uint64_t> limbs_of(const mpz_t z, size_t n) {
  std::vector<uint64_t> v(n + (mpz_sizeinbase(z, 2) + 63) / 64 + 1, 0);
  size_t cnt = 0;
  mpz_export(v.data(), &cnt, -1, sizeof(uint64_t), 0, 0, z);
  v.resize(n);
  return v;
}

bool equal(const mp_int *a, const mpz_t z) {
  Z t;
  to_mpz(t, a);
  if (mpz_cmp(t, z) != 0) return false;
  // representation invariants: clamped, zero is positive
  if (a->used > 0 && a->dp[a->used - 1] == 0) return false;
  if (a->used == 0 && a->sign != MP_ZPOS) return false;
  if (a->used > a->alloc) return false;
  return true;
}

std::string to_hex(const mpz_t z) {
  char *s = mpz_get_str(nullptr, 16, z);
  std::string r(s);
  void (*freefunc)(void *, size_t);
  mp_get_memory_functions(nullptr, nullptr, &freefunc);
  freefunc(s, r.size() + 1);
  return r;
}

std::string to_hex(const mp_int *a) {
  Z t;
  to_mpz(t, a);
  return to_hex(t);
}

M::M() {
  if (mp_init(&v) != MP_OKAY) throw std::bad_alloc();
}

std::string vectors_dir() {
  if (const char *e = std::getenv("MPB_VECTORS")) return e;
  return MPB_VECTORS_DIR;
}

std::vector<Stanza> read_stanzas(const std::string &path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open vector file " + path);
  std::vector<Stanza> out;
  Stanza cur;
  std::string line;
  auto flush = [&] {
    if (!cur.empty() && !(cur.size() == 1 && cur.count("title"))) out.push_back(cur);
    cur.clear();
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) { flush(); continue; }
    if (line[0] == '#') continue;
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    auto trim = [](std::string s) {
      size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
      return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    std::string k = trim(line.substr(0, eq)), v = trim(line.substr(eq + 1));
    for (auto &c : k) c = (char)std::tolower((unsigned char)c);
    cur[k] = v;
  }
  flush();
  return out;
}

void set_hex(mpz_t z, const std::string &hex) {
  bool neg = !hex.empty() && hex[0] == '-';
  std::string body = neg ? hex.substr(1) : hex;
  if (body.empty()) body = "0";
  if (mpz_set_str(z, body.c_str(), 16) != 0) throw std::runtime_error("bad hex in vector: " + hex);
  if (neg) mpz_neg(z, z);
}

} // namespace mpbt
