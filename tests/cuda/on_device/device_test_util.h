// tests/cuda/on_device/device_test_util.h: what the device tests share: the item count per operation and
// size (MPB_GPU_TEST_ITEMS overrides 100,000) and the device probe (WARNs when there is none).
#pragma once
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda/host/gpu_backend.h"
#include "support/oracle.h"

namespace mpbt {

inline size_t gpu_test_items() {
  if (const char *e = std::getenv("MPB_GPU_TEST_ITEMS")) return std::strtoull(e, nullptr, 0);
  return 100000;
}

// Shapes built only for tuning (MPB_CUDA_TUNING_SHAPES) are left to bench_gpu's GMP-checked
// samples unless MPB_GPU_TEST_ALL_SHAPES=1 (a full test of each costs minutes of the host's GMP).
inline bool skip_tuning_shape(bool rsa, size_t width, int tpi) {
  const char *e = std::getenv("MPB_GPU_TEST_ALL_SHAPES");
  return mpb::gpu::tuning_only_tpi(rsa, width, tpi) && !(e && std::strcmp(e, "1") == 0);
}

// Whether the RSA test covers RSA-`bits`: MPB_GPU_TEST_RSA_BITS (a comma-separated list, e.g.
// "1024" to rerun one size's mapping on a device) names the sizes; unset: every size.
inline bool rsa_bits_wanted(size_t bits) {
  const char *e = std::getenv("MPB_GPU_TEST_RSA_BITS");
  if (!e || !*e) return true;
  for (const char *s = e; *s;) {
    char *end = nullptr;
    const unsigned long long v = std::strtoull(s, &end, 10);
    if (end == s) break;
    if (v == bits) return true;
    s = *end == ',' ? end + 1 : end;
  }
  return false;
}

// True when a CUDA device is usable; else WARNs that `what` is not tested on a GPU here.
inline bool have_gpu_device(const char *what) {
  char why[160] = {0};
  int n = mpb::gpu::device_count(why, sizeof why);
  if (n == 0) WARN("no CUDA device, " << what << " not tested here: " << why);
  return n > 0;
}

// Reduces every row of v (width limbs) below the matching row of m (m_rows 1 or rows); with
// `edges`, rows 1, 1001, ... become m - 1 and rows 2, 1002, ... zero.
inline void reduce_rows(std::vector<uint64_t> &v, const std::vector<uint64_t> &m, size_t width, size_t rows,
                        size_t m_rows, bool edges = false) {
#pragma omp parallel for
  for (size_t i = 0; i < rows; i++) {
    Z a, n;
    to_mpz(a, &v[i * width], width);
    to_mpz(n, &m[(m_rows == 1 ? 0 : i) * width], width);
    mpz_mod(a, a, n);
    if (edges && i % 1000 == 1) mpz_sub_ui(a, n, 1);  // m - 1
    if (edges && i % 1000 == 2) mpz_set_ui(a, 0);
    auto l = limbs_of(a, width);
    std::memcpy(&v[i * width], l.data(), width * 8);
  }
}

// Items i < count whose r row differs from GMP's base^e mod m (rows of `width` limbs; e rows
// of e_width limbs, one per item; m_rows 1 or count), checked in parallel.
inline size_t powm_mismatches(const std::vector<uint64_t> &r, const std::vector<uint64_t> &base,
                              const std::vector<uint64_t> &e, size_t e_width, const std::vector<uint64_t> &m,
                              size_t m_rows, size_t width, size_t count) {
  size_t bad = 0;
#pragma omp parallel for reduction(+ : bad) schedule(dynamic, 64)
  for (size_t i = 0; i < count; i++) {
    Z b, ee, n, want;
    to_mpz(b, &base[i * width], width);
    to_mpz(ee, &e[i * e_width], e_width);
    to_mpz(n, &m[(m_rows == 1 ? 0 : i) * width], width);
    mpz_powm(want, b, ee, n);
    if (limbs_of(want, width) != std::vector<uint64_t>(&r[i * width], &r[i * width] + width)) bad++;
  }
  return bad;
}

} // namespace mpbt
