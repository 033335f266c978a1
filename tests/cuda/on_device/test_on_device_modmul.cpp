// GPU batch modmul on a real device: the one-thread Montgomery kernel (256..1024 bits, and
// narrower widths zero padded) and the multipartite block kernel (2048/4096/8192 bits) against
// GMP on 100,000 random items per size (MPB_GPU_TEST_ITEMS overrides), shared and per-item
// moduli. Without a usable device: a WARN, and the backend must report MPB_EDEVICE cleanly.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

#include <mpbatch/batch.h>

#include "cuda/host/gpu_backend.h"
#include "device_test_util.h"
#include "support/oracle.h"

using namespace mpbt;

namespace {

// Odd moduli of `width` limbs; every 7th has its top 32-bit word equal to 1 (largest scale
// factor d in the block kernel), the others their top bit set.
std::vector<uint64_t> moduli(std::mt19937_64 &rng, size_t rows, size_t width) {
  std::vector<uint64_t> m(rows * width);
  for (size_t i = 0; i < rows; i++) {
    uint64_t *row = &m[i * width];
    for (size_t j = 0; j < width; j++) row[j] = rng();
    row[0] |= 1;
    if (i % 7 == 3 && width > 1) row[width - 1] = 1;
    else row[width - 1] |= 1ull << 63;
  }
  return m;
}

std::vector<uint64_t> below(std::mt19937_64 &rng, const std::vector<uint64_t> &m, size_t width, size_t rows,
                            size_t m_rows) {
  std::vector<uint64_t> v(rows * width);
  for (auto &x : v) x = rng();
  reduce_rows(v, m, width, rows, m_rows, true);
  return v;
}

// count random operands below their moduli (m: m_rows rows), one modmul on the device,
// every item checked against GMP.
void check_modmul_device(std::mt19937_64 &rng, const std::vector<uint64_t> &m, size_t m_rows, size_t width,
                         size_t count) {
  auto a = below(rng, m, width, count, m_rows), b = below(rng, m, width, count, m_rows);
  std::vector<uint64_t> r(count * width, 0);
  mpb::gpu::Options o;
  char why[160] = {0};
  int st = mpb::gpu::modmul(r.data(), a.data(), b.data(), m.data(), m_rows, width, count, o, why, sizeof why);
  INFO(why);
  REQUIRE(st == MPB_OK);
  size_t bad = 0;
#pragma omp parallel for reduction(+ : bad)
  for (size_t i = 0; i < count; i++) {
    Z x, y, n, want;
    to_mpz(x, &a[i * width], width);
    to_mpz(y, &b[i * width], width);
    to_mpz(n, &m[(m_rows == 1 ? 0 : i) * width], width);
    mpz_mul(want, x, y);
    mpz_mod(want, want, n);
    if (limbs_of(want, width) != std::vector<uint64_t>(&r[i * width], &r[i * width] + width)) bad++;
  }
  CHECK(bad == 0);
}

} // namespace

TEST_CASE("GPU modmul vs GMP (one-thread and multipartite block kernels)", "[cuda][modmul]") {
  if (!have_gpu_device("GPU modmul")) {
    std::vector<uint64_t> x(32, 1), m(32, 3);
    m[31] = 1ull << 63;
    char why[160] = {0};
    mpb::gpu::Options o;
    CHECK(mpb::gpu::modmul(x.data(), x.data(), x.data(), m.data(), 1, 8, 1, o, why, sizeof why) == MPB_EDEVICE);
    CHECK(mpb::gpu::modmul(x.data(), x.data(), x.data(), m.data(), 1, 32, 1, o, why, sizeof why) == MPB_EDEVICE);
    CHECK(std::string(why).size() > 0);
    return;
  }
  const size_t count = gpu_test_items();
  auto rng = make_rng(901);
  for (size_t width : {4, 8, 16, 3, 32, 64, 128, 40}) {
    REQUIRE(mpb::gpu::modmul_kernel_for(width) != 0);
    for (int per_item = 0; per_item < 2; per_item++) {
      size_t m_rows = per_item ? count : 1;
      auto m = moduli(rng, m_rows, width);
      INFO("width " << width << " per-item moduli " << per_item);
      check_modmul_device(rng, m, m_rows, width, count);
    }
  }
}

TEST_CASE("GPU modmul, even moduli (CRT kernel up to 512 bits) vs GMP", "[cuda][modmul]") {
  std::vector<uint64_t> m0(32, 7), x0(32, 0);
  m0[0] = 8;  // even, wider than the CRT kernel: refused before any device work
  char why0[160] = {0};
  mpb::gpu::Options o0;
  CHECK(mpb::gpu::modmul(x0.data(), x0.data(), x0.data(), m0.data(), 1, 32, 1, o0, why0, sizeof why0) ==
        MPB_EUNSUPPORTED);
  CHECK(mpb::gpu::modmul(x0.data(), x0.data(), x0.data(), m0.data(), 1, 16, 1, o0, why0, sizeof why0) ==
        MPB_EUNSUPPORTED);
  CHECK(mpb::gpu::modmul_even_supported(8));
  if (!have_gpu_device("GPU modmul")) return;
  const size_t count = gpu_test_items();
  auto rng = make_rng(903);
  for (size_t width : {2, 4, 8})
    for (int per_item = 0; per_item < 2; per_item++) {
      size_t m_rows = per_item ? count : 1;
      auto m = moduli(rng, m_rows, width);
      for (size_t i = 0; i < m_rows; i++) {  // m = m_o * 2^s, s from 1 to 64 * width - 1
        size_t s = 1 + (i * 37 + width) % (64 * width - 1);
        uint64_t *row = &m[i * width];
        Z z;
        to_mpz(z, row, width);
        mpz_fdiv_q_2exp(z, z, s);
        mpz_setbit(z, 0);
        mpz_mul_2exp(z, z, s);
        auto l = limbs_of(z, width);
        std::memcpy(row, l.data(), width * 8);
      }
      INFO("even moduli, width " << width << " per-item " << per_item);
      check_modmul_device(rng, m, m_rows, width, count);
    }
}

TEST_CASE("GPU modmul: chunked streaming", "[cuda][modmul]") {
  char why[160] = {0};
  mpb::gpu::Options o;
  if (!have_gpu_device("GPU modmul")) return;
  auto rng = make_rng(902);
  const size_t width = 64, count = 3001;
  auto mm = moduli(rng, 1, width);
  auto a = below(rng, mm, width, count, 1), b = below(rng, mm, width, count, 1);
  std::vector<uint64_t> r1(count * width), r2(count * width);
  REQUIRE(mpb::gpu::modmul(r1.data(), a.data(), b.data(), mm.data(), 1, width, count, o, why, sizeof why) == MPB_OK);
  o.chunk_items = 500;
  REQUIRE(mpb::gpu::modmul(r2.data(), a.data(), b.data(), mm.data(), 1, width, count, o, why, sizeof why) == MPB_OK);
  CHECK(r1 == r2);
}

// The tuning alternatives of gpu::Options (bench_gpu's sweeps) refuse values out of range before
// any device work, so this runs with or without a GPU, and writes no output.
TEST_CASE("GPU backend: tuning options out of range are refused, outputs untouched", "[cuda][options]") {
  const size_t w = 32;  // 2048 bits: the multipartite block kernel, and a powm width
  std::vector<uint64_t> m(w, ~0ull), a(w, 3), b(w, 5), r(w, 0xC0FFEEull);
  const std::vector<uint64_t> r0 = r;
  char why[200] = {0};
  for (int bad_k : {-1, 1, 17}) {
    mpb::gpu::Options o;
    o.modmul_k = bad_k;
    CHECK(mpb::gpu::modmul(r.data(), a.data(), b.data(), m.data(), 1, w, 1, o, why, sizeof why) == MPB_EVAL);
  }
  for (int bad_t : {-1, 257}) {
    mpb::gpu::Options o;
    o.modmul_threads = bad_t;
    CHECK(mpb::gpu::modmul(r.data(), a.data(), b.data(), m.data(), 1, w, 1, o, why, sizeof why) == MPB_EVAL);
  }
  for (int bad_w : {-1, 8, 99}) {
    mpb::gpu::Options o;
    o.window = bad_w;
    o.constant_time = false;
    CHECK(mpb::gpu::powm(r.data(), a.data(), b.data(), w, 1, m.data(), 1, w, 1, o, why, sizeof why) == MPB_EVAL);
  }
  {
    mpb::gpu::Options o;
    o.gf2x_variant = -1;
    std::vector<uint64_t> g(2 * 4, 0);
    CHECK(mpb::gpu::gf2x_mul(g.data(), a.data(), b.data(), 4, 1, o, why, sizeof why) == MPB_EVAL);
    o.gf2x_variant = 1000;  // never built (and none without MPB_CUDA_TUNING_SHAPES / install)
    CHECK(mpb::gpu::gf2x_mul(g.data(), a.data(), b.data(), 4, 1, o, why, sizeof why) == MPB_EUNSUPPORTED);
    CHECK(g == std::vector<uint64_t>(2 * 4, 0));
  }
  CHECK(r == r0);
}
