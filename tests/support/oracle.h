// tests/support/oracle.h: what every test shares: the seeded RNG, hard operands, GMP
// conversions for mp_int and raw limbs, and the third-party vector files.
#pragma once
#include <gmp.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <mpbatch/bn.h>

namespace mpbt {

// The test seed: MPB_TEST_SEED from the environment, else a fixed default. Printed once.
uint64_t test_seed();
// A generator seeded from test_seed() and a per-test salt.
std::mt19937_64 make_rng(uint64_t salt);
// MPB_TEST_QUICK=1 in the environment (the sanitizer and the emulated aarch64 runs): the size
// sweeps and the largest vectors are trimmed; the plain runs test every size.
bool quick();
// In the rerun with the IFMA emulation on (MPB_TEST_IFMA_EMULATION, tests/support/catch_main.cpp):
// whether a loop over backends skips `backend`, whose path the emulation leaves as it was (the
// scalar, AVX-512F, AVX2 and multipartite backends: the plain run tested them). False otherwise.
bool emulated_rerun_skips(int backend);
// The kernel passes of a test that runs both kernel sets: false (the run-time kernels) and true
// (the portable C ones, cpu::force_portable) where the run-time ones are not already those (no
// CPU extension in use: none on this CPU, MPBATCH_CPU_DISABLE=all, aarch64).
std::vector<bool> kernel_passes();
// Limb counts 1..max for the size sweeps; quick(): 1..12 and the sizes around the algorithm
// cut-offs and the RSA / DH half sizes only.
std::vector<size_t> size_sweep(size_t max);

// n random limbs mixing the hard cases: 0, 1, all-ones, 0x8000..., long runs of 0s and 1s
// (like GMP's mpn_random2), and plain random words. kind: 0 = mixed (default), 1 = plain
// random, 2 = runs of bits only.
std::vector<uint64_t> hard_limbs(std::mt19937_64 &rng, size_t n, int kind = 0);
// A random value with exactly `bits` bits (top bit set) built from hard_limbs.
std::vector<uint64_t> hard_bits(std::mt19937_64 &rng, size_t bits);

// GMP conversions.
void to_mpz(mpz_t z, const mp_int *a);
void to_mpz(mpz_t z, const uint64_t *p, size_t n);
// Sets a from z (a must be initialised). Returns MP_OKAY or MP_MEM.
int from_mpz(mp_int *a, const mpz_t z);
std::vector<uint64_t> limbs_of(const mpz_t z, size_t n);  // low n limbs of |z|
bool equal(const mp_int *a, const mpz_t z);
std::string to_hex(const mp_int *a);
std::string to_hex(const mpz_t z);

// RAII wrappers.
struct Z {
  mpz_t v;
  Z() { mpz_init(v); }
  explicit Z(const char *hex) { mpz_init_set_str(v, hex, 16); }
  ~Z() { mpz_clear(v); }
  Z(const Z &) = delete;
  Z &operator=(const Z &) = delete;
  operator mpz_ptr() { return v; }
  operator mpz_srcptr() const { return v; }
};
struct M {
  mp_int v;
  M();
  ~M() { mp_clear(&v); }
  M(const M &) = delete;
  M &operator=(const M &) = delete;
  mp_int *operator&() { return &v; }
  const mp_int *operator&() const { return &v; }
};

// The directory of ../shared/vectors (MPB_VECTORS from the environment overrides).
std::string vectors_dir();

// OpenSSL BN test stanzas: keys lower-cased, values as in the file (signed hex).
using Stanza = std::map<std::string, std::string>;
std::vector<Stanza> read_stanzas(const std::string &path);
// Parse an OpenSSL signed hex value into z (leading '-' allowed, "0" and "00" ok).
void set_hex(mpz_t z, const std::string &hex);

} // namespace mpbt
