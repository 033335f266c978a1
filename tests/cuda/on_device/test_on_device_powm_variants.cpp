// The exponentiation kernels' variants on a real device against GMP: sliding windows (the
// variable-time default) and fixed windows (Options::fixed_window), every Montgomery
// arithmetic of the one-thread kernels (Options::mont_variant), with exponents whose
// lengths differ from item to item, so that the threads and the groups of one warp run
// different step counts (warp-uniform loop of the cooperative kernels). Without a device:
// a WARN, MPB_EDEVICE from a kernel that exists and MPB_EUNSUPPORTED from one that does not.
#include <catch2/catch.hpp>

#include <string>

#include <algorithm>
#include <cstring>
#include <vector>

#include <mpbatch/common.h>


#include "cuda/host/gpu_backend.h"
#include "cuda/variants/powm_variants.h"
#include "device_test_util.h"
#include "support/oracle.h"

using namespace mpbt;

namespace {

// count items of width limbs, one shared odd modulus; exponents of e_width limbs whose
// significant length varies per item (0 bits, 1 bit, a few bits, short, full, all ones).
// win: Options::fixed_bits (0: cuda/tuning.h's width).
void check_variant(std::mt19937_64 &rng, size_t width, int tpi, bool ct, int mont, bool fixed, size_t count,
                   int win = 0) {
  const size_t e_width = width;
  std::vector<uint64_t> m(width), base(count * width), e(count * e_width, 0), r(count * width, 0);
  for (auto &x : m) x = rng();
  m[0] |= 1;
  m[width - 1] |= 1ull << 63;
  for (size_t i = 0; i < count; i++) {
    for (size_t j = 0; j < width; j++) base[i * width + j] = rng();
    base[i * width + width - 1] &= ~(1ull << 63);  // < m
    uint64_t *ei = &e[i * e_width];
    switch (i % 7) {
      case 0: break;                                   // e = 0
      case 1: ei[0] = 1; break;
      case 2: ei[0] = 65537; break;
      case 3: ei[0] = rng() >> (rng() % 64); break;    // up to 64 bits
      case 4: for (size_t j = 0; j < e_width / 2; j++) ei[j] = rng(); break;
      case 5: for (size_t j = 0; j < e_width; j++) ei[j] = ~0ull; break;
      default: for (size_t j = 0; j < e_width; j++) ei[j] = rng(); break;
    }
  }
  mpb::gpu::Options o;
  o.constant_time = ct;
  o.tpi = tpi;
  o.mont_variant = mont;
  o.fixed_window = fixed;
  o.fixed_bits = win;
  char why[160] = {0};
  INFO("powm " << width * 64 << " bits, tpi " << tpi << ", ct " << ct << ", mont " << mont << ", fixed " << fixed
               << ", window " << win);
  int st = mpb::gpu::powm(r.data(), base.data(), e.data(), e_width, count, m.data(), 1, width, count, o, why,
                          sizeof why);
  if (st == MPB_EUNSUPPORTED) return;  // no kernel for this combination (e.g. CT Comba at 1024 bits)
  REQUIRE(st == MPB_OK);
  CHECK(powm_mismatches(r, base, e, e_width, m, 1, width, count) == 0);
}

} // namespace

TEST_CASE("GPU powm variants: sliding/fixed windows, Montgomery arithmetics, mixed exponent lengths", "[cuda]") {
  char why[160] = {0};
  std::vector<uint64_t> x(16, 1), m(16, 3);
  mpb::gpu::Options other;  // the comparison kernels live outside the library: refused until installed
  other.constant_time = false;
  other.mont_variant = 1;
  mpb::gpu::install_powm_variants(nullptr);
  CHECK(mpb::gpu::powm(x.data(), x.data(), x.data(), 1, 1, m.data(), 1, 8, 1, other, why, sizeof why) ==
        MPB_EUNSUPPORTED);
  CHECK(std::string(why).find("not installed") != std::string::npos);
  mpb::gpu::variants::install();
  mpb::gpu::Options bad;
  bad.mont_variant = 7;  // no such arithmetic: refused before any device work
  CHECK(mpb::gpu::powm(x.data(), x.data(), x.data(), 1, 1, m.data(), 1, 16, 1, bad, why, sizeof why) ==
        MPB_EUNSUPPORTED);
  for (int w : {-1, 1, 7}) {  // a fixed-window width out of range: refused before any device work
    mpb::gpu::Options badw;
    badw.fixed_bits = w;
    std::vector<uint64_t> r0(16, 0);
    CHECK(mpb::gpu::powm(r0.data(), x.data(), x.data(), 1, 1, m.data(), 1, 16, 1, badw, why, sizeof why) ==
          MPB_EVAL);
    CHECK(r0 == std::vector<uint64_t>(16, 0));
  }
  mpb::gpu::Options nowin;  // no comparison kernel with 3-bit windows at 1024 bits on 2 lanes
  nowin.fixed_bits = 3;
  nowin.tpi = 2;
  const int st_nowin = mpb::gpu::powm(x.data(), x.data(), x.data(), 1, 1, m.data(), 1, 16, 1, nowin, why, sizeof why);
  CHECK((st_nowin == MPB_EUNSUPPORTED || st_nowin == MPB_EDEVICE));
  if (!have_gpu_device("GPU powm variants")) {
    mpb::gpu::Options o;
    o.constant_time = false;
    o.mont_variant = 1;
    int st = mpb::gpu::powm(x.data(), x.data(), x.data(), 1, 1, m.data(), 1, 8, 1, o, why, sizeof why);
    CHECK(st == MPB_EDEVICE);
    return;
  }
  const size_t count = std::min<size_t>(gpu_test_items(), 20000);
  auto rng = make_rng(601);
  for (size_t width : {8, 16})
    for (int ct = 0; ct < 2; ct++)
      for (int mont = 0; mont < 3; mont++) check_variant(rng, width, 1, ct, mont, false, count);
  for (size_t width : {8, 16, 32, 64}) {
    const int tpi = mpb::gpu::powm_tpi(width, 0);
    check_variant(rng, width, tpi, false, -1, false, count * 16 / width);  // sliding
    check_variant(rng, width, tpi, false, -1, true, count * 16 / width);   // fixed
  }
  if (mpb::gpu::powm_tpi(16, 4) == 4) check_variant(rng, 16, 4, false, -1, false, count);
  // constant-time fixed windows of every width built (MPB_CUDA_TUNING_SHAPES; else unsupported,
  // skipped) at the default mappings and the RSA halves' lane counts
  for (size_t width : {8, 16, 32, 64, 128})
    for (int tpi : {mpb::gpu::powm_tpi(width, 0), width == 8 ? 2 : width == 32 ? 8 : 0})
      if (tpi > 0)
        for (int win = 3; win <= 6; win++) check_variant(rng, width, tpi, true, -1, false, count * 8 / width / 4, win);
}
