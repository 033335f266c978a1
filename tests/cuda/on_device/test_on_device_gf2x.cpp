// CUDA GF(2)[x] kernels on a real device: products, squares and products mod f (sparse NIST
// kernels, Barrett kernels for field polynomials at wider widths and for random dense f), each
// on 100,000 random items per operation and size (MPB_GPU_TEST_ITEMS overrides) against the
// CPU batch result (which test_batch_gf2x checks against the bit-serial reference). Without a
// usable device: a WARN, and the backend and the batch API must fail cleanly (MPB_EDEVICE,
// nothing written) or fall back to the CPU (AUTO).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

#include <mpbatch/mpbatch.h>

#include "cuda/host/gpu_backend.h"
#include "device_test_util.h"
#include "support/batch_util.h"

using namespace bt;

using namespace mpbt;

namespace {

Rows random_rows(std::mt19937_64 &rng, size_t rows, size_t width) {
  Rows v(rows * width);
  for (auto &x : v) x = rng();
  return v;
}
int degree(const uint64_t *p, size_t n) {
  for (size_t i = 64 * n; i-- > 0;)
    if ((p[i / 64] >> (i % 64)) & 1) return (int)i;
  return -1;
}
// every row below x^m
void clear_from(Rows &v, size_t width, int m) {
  for (size_t r = 0; r < v.size() / width; r++)
    for (size_t i = m; i < 64 * width; i++) v[r * width + i / 64] &= ~(1ull << (i % 64));
}
size_t mismatches(const Rows &x, const Rows &y, size_t row) {
  size_t bad = 0;
  for (size_t i = 0; i < x.size() / row; i++)
    if (std::memcmp(&x[i * row], &y[i * row], row * 8) != 0) bad++;
  return bad;
}

const size_t kMulWidths[] = {1, 2, 3, 4, 5, 7, 8, 9, 16};
const size_t kMulmodWidths[] = {1, 2, 3, 4, 5, 7, 8, 9};

// f of the NIST field of degree m with middle exponents k (fw limbs)
Rows nist_f(size_t fw, int m, std::vector<int> ks) {
  Rows f(fw, 0);
  ks.push_back(m);
  ks.push_back(0);
  for (int e : ks) f[e / 64] |= 1ull << (e % 64);
  return f;
}

} // namespace

TEST_CASE("GPU gf2x products and squares vs the CPU batch", "[cuda][gf2x]") {
  if (!have_gpu_device("GPU execution")) {
    Rows a(4, 1), r(8, CANARY);
    char why[160] = {0};
    mpb::gpu::Options o;
    CHECK(mpb::gpu::gf2x_mul(r.data(), a.data(), a.data(), 4, 1, o, why, sizeof why) == MPB_EDEVICE);
    CHECK(mpb::gpu::gf2x_sqr(r.data(), a.data(), 4, 1, o, why, sizeof why) == MPB_EDEVICE);
    CHECK(r == Rows(8, CANARY));
    CHECK(mpb::gpu::gf2x_mul(r.data(), a.data(), a.data(), 6, 1, o, why, sizeof why) == MPB_EUNSUPPORTED);
    return;
  }
  const size_t count = gpu_test_items();
  auto rng = mpbt::make_rng(601);
  Ctx cpu(MPB_BACKEND_CPU_SCALAR);
  for (size_t w : kMulWidths) {
    auto a = random_rows(rng, count, w), b = random_rows(rng, count, w);
    a[0 * w] = 0, b[1 * w] = 0;  // a few hard rows
    for (size_t j = 0; j < w; j++) a[2 * w + j] = b[2 * w + j] = ~0ull;
    Rows want(count * 2 * w), got(count * 2 * w, CANARY);
    mpb::gpu::Options o;
    char why[160] = {0};
    INFO("width " << w);
    REQUIRE(mpb_batch_gf2x_mul(cpu.c, want.data(), a.data(), b.data(), w, count, nullptr) == MPB_OK);
    REQUIRE(mpb::gpu::gf2x_mul(got.data(), a.data(), b.data(), w, count, o, why, sizeof why) == MPB_OK);
    CHECK(mismatches(want, got, 2 * w) == 0);
    REQUIRE(mpb_batch_gf2x_sqr(cpu.c, want.data(), a.data(), w, count, nullptr) == MPB_OK);
    std::fill(got.begin(), got.end(), CANARY);
    REQUIRE(mpb::gpu::gf2x_sqr(got.data(), a.data(), w, count, o, why, sizeof why) == MPB_OK);
    CHECK(mismatches(want, got, 2 * w) == 0);
  }
}

TEST_CASE("GPU gf2x mulmod (sparse NIST kernels, Barrett for any f) vs the CPU batch", "[cuda][gf2x]") {
  if (!have_gpu_device("GPU execution")) {
    Rows f = nist_f(3, 163, {7, 6, 3}), a(3, 5), r(3, CANARY);
    char why[160] = {0};
    mpb::gpu::Options o;
    CHECK(mpb::gpu::gf2x_mulmod(r.data(), a.data(), a.data(), f.data(), 3, 1, o, why, sizeof why) == MPB_EDEVICE);
    CHECK(r == Rows(3, CANARY));
    return;
  }
  const size_t count = gpu_test_items();
  auto rng = mpbt::make_rng(602);
  Ctx cpu(MPB_BACKEND_CPU_SCALAR);
  std::vector<Rows> fs = {nist_f(3, 163, {7, 6, 3}), nist_f(4, 233, {74}), nist_f(5, 283, {12, 7, 5}),
                          nist_f(7, 409, {87}), nist_f(9, 571, {10, 5, 2}),
                          nist_f(4, 163, {7, 6, 3}), nist_f(8, 409, {87})};  // last two: Barrett
  for (size_t w : kMulmodWidths) {  // random dense f: full width, and one limb short when possible
    Rows f = random_rows(rng, 1, w);
    f[w - 1] |= 1ull << 63, f[0] |= 1;
    fs.push_back(f);
    if (w > 1) {
      Rows g = random_rows(rng, 1, w);
      g[w - 1] = 0, g[w - 2] |= 1ull << 40;
      fs.push_back(g);
    }
  }
  for (auto &f : fs) {
    const size_t w = f.size();
    const int m = degree(f.data(), w);
    auto a = random_rows(rng, count, w), b = random_rows(rng, count, w);
    clear_from(a, w, m), clear_from(b, w, m);
    Rows want(count * w), got(count * w, CANARY);
    mpb::gpu::Options o;
    char why[160] = {0};
    INFO("width " << w << " deg f " << m);
    REQUIRE(mpb_batch_gf2x_mulmod(cpu.c, want.data(), a.data(), b.data(), f.data(), w, count, nullptr) == MPB_OK);
    REQUIRE(mpb::gpu::gf2x_mulmod(got.data(), a.data(), b.data(), f.data(), w, count, o, why, sizeof why) == MPB_OK);
    CHECK(mismatches(want, got, w) == 0);
  }
}

TEST_CASE("GPU gf2x through the batch API: forced CUDA, AUTO fallback, chunked streaming", "[cuda][gf2x]") {
  auto rng = mpbt::make_rng(603);
  const size_t w = 3, count = 5003;
  Rows f = nist_f(w, 163, {7, 6, 3});
  auto a = random_rows(rng, count, w), b = random_rows(rng, count, w);
  clear_from(a, w, 163), clear_from(b, w, 163);
  Ctx cpu(MPB_BACKEND_CPU_SCALAR), cuda(MPB_BACKEND_CUDA), autob(MPB_BACKEND_AUTO);
  Rows want(count * w), got(count * w, CANARY), p(count * 2 * w, CANARY);
  REQUIRE(mpb_batch_gf2x_mulmod(cpu.c, want.data(), a.data(), b.data(), f.data(), w, count, nullptr) == MPB_OK);
  mpb_call_info info;
  // no kernel for 6-limb products: EUNSUPPORTED when forced, nothing written
  auto a6 = random_rows(rng, 4, 6);
  REQUIRE(mpb_batch_gf2x_mul(cuda.c, p.data(), a6.data(), a6.data(), 6, 4, &info) == MPB_EUNSUPPORTED);
  CHECK(p == Rows(count * 2 * w, CANARY));
  // inversion has no kernel
  Rows one(w, 0);
  one[0] = 1;
  REQUIRE(mpb_batch_gf2x_inv(cuda.c, got.data(), one.data(), f.data(), w, 1, &info) == MPB_EUNSUPPORTED);
  if (!have_gpu_device("GPU execution")) {
    int st = mpb_batch_gf2x_mulmod(cuda.c, got.data(), a.data(), b.data(), f.data(), w, count, &info);
    CHECK(st == MPB_EDEVICE);
    CHECK(info.status == MPB_EDEVICE);
    CHECK(std::string(info.reason).size() > 0);
    CHECK(got == Rows(count * w, CANARY));
    CHECK(mpb_batch_gf2x_sqr(cuda.c, p.data(), a.data(), w, count, &info) == MPB_EDEVICE);
    CHECK(mpb_batch_gf2x_mul(cuda.c, p.data(), a.data(), b.data(), w, count, &info) == MPB_EDEVICE);
    CHECK(p == Rows(count * 2 * w, CANARY));
    // AUTO: the CPU
    REQUIRE(mpb_batch_gf2x_mulmod(autob.c, got.data(), a.data(), b.data(), f.data(), w, count, &info) == MPB_OK);
    CHECK(info.backend == MPB_BACKEND_CPU_SCALAR);
    CHECK(got == want);
    return;
  }
  REQUIRE(mpb_batch_gf2x_mulmod(cuda.c, got.data(), a.data(), b.data(), f.data(), w, count, &info) == MPB_OK);
  CHECK(info.backend == MPB_BACKEND_CUDA);
  CHECK(got == want);
  // chunked streaming (6 chunks through the two streams) gives the same products
  Rows p1(count * 2 * w), p2(count * 2 * w);
  mpb::gpu::Options o;
  char why[160] = {0};
  REQUIRE(mpb::gpu::gf2x_mul(p1.data(), a.data(), b.data(), w, count, o, why, sizeof why) == MPB_OK);
  o.chunk_items = 1000;
  REQUIRE(mpb::gpu::gf2x_mul(p2.data(), a.data(), b.data(), w, count, o, why, sizeof why) == MPB_OK);
  CHECK(p1 == p2);
  REQUIRE(mpb_batch_gf2x_mul(cpu.c, p.data(), a.data(), b.data(), w, count, nullptr) == MPB_OK);
  CHECK(p1 == p);
}
