// CUDA backend on a real device: every kernel against GMP on 100,000 random items per
// operation and size (MPB_GPU_TEST_ITEMS overrides). Without a usable device each case
// says so with a WARN and checks that the backend reports MPB_EDEVICE cleanly.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda/host/gpu_backend.h"
#include "device_test_util.h"
#include "support/oracle.h"

using namespace mpbt;

namespace {

std::vector<uint64_t> random_rows(std::mt19937_64 &rng, size_t rows, size_t width) {
  std::vector<uint64_t> v(rows * width);
  for (auto &x : v) x = rng();
  return v;
}

// One powm run on the device checked against mpz_powm: `count` items, modulus shared
// (m_rows 1) or per item, exponents of e_width limbs, `tpi` threads per item (0: default).
// even: even moduli (the Barrett kernels); per item, rows cycle through random even, shorter
// (top limb zero), odd (a mixed batch), 2^k * odd, and 2^k.
void check_powm_device(std::mt19937_64 &rng, size_t width, int tpi, bool per_item_mod, bool ct,
                       size_t count, size_t e_width, bool even = false) {
  size_t m_rows = per_item_mod ? count : 1;
  auto m = random_rows(rng, m_rows, width);
  for (size_t i = 0; i < m_rows; i++) m[i * width] |= 1, m[i * width + width - 1] |= 1ull << 63;
  for (size_t i = 0; even && i < m_rows; i++) {
    uint64_t *mi = &m[i * width];
    mi[0] &= ~1ull;
    switch (i % 5) {
      case 1: mi[width - 1] = 0, mi[width - 2] |= 1ull << 63; break;
      case 2: mi[0] |= 1; break;
      case 3: mi[0] = (mi[0] | 1) << (i % 64), mi[0] = mi[0] ? mi[0] : 2; break;
      case 4: std::fill(mi, mi + width, 0), mi[width - 1 - i % width] = 1ull << (i % 61 + 2); break;
      default: break;
    }
  }
  auto base = random_rows(rng, count, width);
  reduce_rows(base, m, width, count, m_rows);
  for (size_t i = 0; i < count && i < 4; i++) {  // hard bases: 0, 1, m-1, 2^k
    std::fill(&base[i * width], &base[i * width] + width, 0);
    if (i == 1) base[i * width] = 1;
    if (i == 2) std::memcpy(&base[i * width], &m[(m_rows == 1 ? 0 : i) * width], width * 8), base[i * width] -= 1;
    if (i == 3) base[i * width + width / 2] = 1;
  }
  auto e = random_rows(rng, count, e_width);
  if (count > 5) std::fill(&e[5 * e_width], &e[5 * e_width] + e_width, ~0ull);  // all-ones exponent
  std::vector<uint64_t> r(count * width, 0);
  mpb::gpu::Options o;
  o.constant_time = ct;
  o.tpi = tpi;
  char why[160] = {0};
  INFO("powm " << width * 64 << " bits, tpi " << mpb::gpu::powm_tpi(width, tpi) << ", even " << even << ", per-item modulus "
               << per_item_mod << ", ct " << ct << ", " << count << " items, exponent " << e_width * 64
               << " bits");
  REQUIRE(mpb::gpu::powm(r.data(), base.data(), e.data(), e_width, count, m.data(), m_rows, width, count, o,
                         why, sizeof why) == MPB_OK);
  CHECK(powm_mismatches(r, base, e, e_width, m, m_rows, width, count) == 0);
}

// The powm schedule, odd moduli (Montgomery kernels) or even ones (Barrett kernels). Without a
// device: checks that the backend refuses cleanly with MPB_EDEVICE.
void check_powm_schedule(bool even) {
  if (!have_gpu_device("GPU execution")) {
    std::vector<uint64_t> x(8, 1), m(8, even ? 4 : 3);
    char why[160] = {0};
    mpb::gpu::Options o;
    int st = mpb::gpu::powm(x.data(), x.data(), x.data(), 1, 1, m.data(), 1, 8, 1, o, why, sizeof why);
    CHECK(st == MPB_EDEVICE);
    return;
  }
  const size_t count = gpu_test_items();
  auto rng = make_rng(even ? 502 : 501);
  // 512 and 1024 bits: full-width exponents on every item, both mappings at 1024 bits
  for (size_t width : {8, 16})
    for (int tpi : {1, 4}) {
      if (mpb::gpu::powm_tpi(width, tpi) != tpi || skip_tuning_shape(false, width, tpi)) continue;
      for (int per_item_mod = 0; per_item_mod < 2; per_item_mod++)
        for (int ct = 0; ct < 2; ct++) check_powm_device(rng, width, tpi, per_item_mod, ct, count, width, even);
    }
  // 2048..8192 bits (cooperative kernels): every item with a 128-bit exponent (GMP's check
  // of 100,000 full exponentiations at 8192 bits would take the CPU an hour), plus 2048 / 512
  // / 128 items with full-width exponents; per-item moduli on 10,000 items.
  for (size_t width : {32, 64, 128})
    for (int tpi : {4, 8, 16, 32}) {
      if (mpb::gpu::powm_tpi(width, tpi) != tpi || skip_tuning_shape(false, width, tpi)) continue;
      check_powm_device(rng, width, tpi, false, true, count, 2, even);
      check_powm_device(rng, width, tpi, false, false, count, 2, even);
      check_powm_device(rng, width, tpi, true, true, std::min<size_t>(count, 10000), 2, even);
      check_powm_device(rng, width, tpi, false, true, std::min<size_t>(count, 2048 * 32 / width * 32 / width), width,
                        even);
    }
}

} // namespace

TEST_CASE("GPU powm vs GMP (shared and per-item moduli, constant time or not)", "[cuda]") {
  check_powm_schedule(false);
}

TEST_CASE("GPU powm with even moduli (Barrett kernels) vs GMP", "[cuda]") { check_powm_schedule(true); }

TEST_CASE("GPU RSA-CRT vs GMP (one key, and one key per item)", "[cuda]") {
  if (!have_gpu_device("GPU execution")) return;
  const size_t count = gpu_test_items();
  auto rng = make_rng(502);
  for (size_t hw : {8, 16, 32, 64})
   for (int tpi : {1, 2, 4, 8, 16}) {
    if (mpb::gpu::rsa_tpi(hw, tpi) != tpi || skip_tuning_shape(true, hw, tpi) || !rsa_bits_wanted(128 * hw)) continue;
    // one key for the batch, and distinct keys cycling over the items (fewer at the large
    // sizes, whose primes are slow to draw)
    for (size_t key_rows : {(size_t)1, hw <= 16 ? (size_t)64 : hw == 32 ? (size_t)8 : (size_t)4}) {
      const size_t w = 2 * hw;
      std::vector<uint64_t> n(key_rows * w), p(key_rows * hw), q(key_rows * hw), dp(key_rows * hw),
          dq(key_rows * hw), qi(key_rows * hw), d(key_rows * w);
      // primes drawn in parallel (4096-bit primes take GMP seconds each); a key whose
      // lcm(p-1, q-1) is not coprime to e gets new primes
      std::vector<std::vector<uint64_t>> start(2 * key_rows);
      std::vector<Z> primes(2 * key_rows);
      auto draw = [&](size_t i) {
        start[i] = random_rows(rng, 1, hw);
        start[i][hw - 1] |= 3ull << 62;
      };
      for (size_t i = 0; i < 2 * key_rows; i++) draw(i);
#pragma omp parallel for schedule(dynamic, 1)
      for (size_t i = 0; i < 2 * key_rows; i++) {
        to_mpz(primes[i], start[i].data(), hw);
        mpz_nextprime(primes[i], primes[i]);
      }
      for (size_t k = 0; k < key_rows; k++) {
        Z zn, e, phi, t, zd, zdp, zdq, zqi;
        mpz_ptr zp = primes[2 * k], zq = primes[2 * k + 1];
        mpz_set_ui(e, 65537);
        for (;;) {
          mpz_sub_ui(t, zp, 1);
          mpz_sub_ui(phi, zq, 1);
          mpz_lcm(phi, phi, t);
          if (mpz_cmp(zp, zq) != 0 && mpz_invert(zd, e, phi)) break;
          draw(2 * k + 1);
          to_mpz(zq, start[2 * k + 1].data(), hw);
          mpz_nextprime(zq, zq);
        }
        mpz_mul(zn, zp, zq);
        mpz_sub_ui(t, zp, 1);
        mpz_mod(zdp, zd, t);
        mpz_sub_ui(t, zq, 1);
        mpz_mod(zdq, zd, t);
        REQUIRE(mpz_invert(zqi, zq, zp));
        auto put = [&](std::vector<uint64_t> &dst, mpz_srcptr z, size_t width) {
          auto l = limbs_of(z, width);
          std::memcpy(&dst[k * width], l.data(), width * 8);
        };
        put(n, zn, w); put(p, zp, hw); put(q, zq, hw); put(dp, zdp, hw); put(dq, zdq, hw);
        put(qi, zqi, hw); put(d, zd, w);
      }
      auto c = random_rows(rng, count, w);
      if (key_rows == 1) reduce_rows(c, n, w, count, 1);  // (per-item keys: reduced once expanded, below)
      if (key_rows != 1) {  // one key per item: item i uses key i % key_rows
        std::vector<uint64_t> n2(count * w), p2(count * hw), q2(count * hw), dp2(count * hw),
            dq2(count * hw), qi2(count * hw), d2(count * w);
        for (size_t i = 0; i < count; i++) {
          size_t k = i % key_rows;
          std::memcpy(&n2[i * w], &n[k * w], w * 8);
          std::memcpy(&d2[i * w], &d[k * w], w * 8);
          std::memcpy(&p2[i * hw], &p[k * hw], hw * 8);
          std::memcpy(&q2[i * hw], &q[k * hw], hw * 8);
          std::memcpy(&dp2[i * hw], &dp[k * hw], hw * 8);
          std::memcpy(&dq2[i * hw], &dq[k * hw], hw * 8);
          std::memcpy(&qi2[i * hw], &qi[k * hw], hw * 8);
        }
        n.swap(n2); p.swap(p2); q.swap(q2); dp.swap(dp2); dq.swap(dq2); qi.swap(qi2); d.swap(d2);
        reduce_rows(c, n, w, count, count);
      }
      size_t krows = key_rows == 1 ? 1 : count;
      std::vector<uint64_t> out(count * w, 0);
      mpb::gpu::Options o;
      o.tpi = tpi;
      char why[160] = {0};
      INFO("RSA-" << w * 64 << " tpi " << tpi << " key rows " << krows);
      REQUIRE(mpb::gpu::rsa_crt(out.data(), c.data(), p.data(), q.data(), dp.data(), dq.data(), qi.data(),
                                w, hw, krows, count, o, why, sizeof why) == MPB_OK);
      // Check: out < n and out^e = c mod n (RSA is a permutation, so this pins out = c^d);
      // the first 1,000 items (200 at RSA-8192) also against mpz_powm(c, d, n) directly.
      size_t bad = 0;
#pragma omp parallel for reduction(+ : bad) schedule(dynamic, 64)
      for (size_t i = 0; i < count; i++) {
        size_t k = krows == 1 ? 0 : i;
        Z zc, zd, zn, zo, back, want;
        to_mpz(zc, &c[i * w], w);
        to_mpz(zn, &n[k * w], w);
        to_mpz(zo, &out[i * w], w);
        mpz_powm_ui(back, zo, 65537, zn);
        if (mpz_cmp(zo, zn) >= 0 || mpz_cmp(back, zc) != 0) bad++;
        if (i < (hw >= 64 ? 200u : 1000u)) {
          to_mpz(zd, &d[k * w], w);
          mpz_powm(want, zc, zd, zn);
          if (mpz_cmp(want, zo) != 0) bad++;
        }
      }
      CHECK(bad == 0);
    }
   }
}

TEST_CASE("GPU products (delayed-carry Comba and carry chains) vs GMP", "[cuda]") {
  if (!have_gpu_device("GPU execution")) return;
  const size_t count = gpu_test_items();
  auto rng = make_rng(503);
  for (size_t width : {4, 8, 16})
    for (int dc = 0; dc < 2; dc++) {
      auto a = random_rows(rng, count, width), b = random_rows(rng, count, width);
      std::vector<uint64_t> r(count * 2 * width);
      mpb::gpu::Options o;
      char why[160] = {0};
      REQUIRE(mpb::gpu::mul(r.data(), a.data(), b.data(), width, count, dc, o, why, sizeof why) == MPB_OK);
      size_t bad = 0;
#pragma omp parallel for reduction(+ : bad)
      for (size_t i = 0; i < count; i++) {
        Z x, y, z;
        to_mpz(x, &a[i * width], width);
        to_mpz(y, &b[i * width], width);
        mpz_mul(z, x, y);
        if (limbs_of(z, 2 * width) != std::vector<uint64_t>(&r[i * 2 * width], &r[i * 2 * width] + 2 * width)) bad++;
      }
      INFO("width " << width << " delayed carry " << dc);
      CHECK(bad == 0);
    }
}

TEST_CASE("GPU backend: chunked streaming gives the same results as one chunk", "[cuda]") {
  if (!have_gpu_device("GPU execution")) return;
  auto rng = make_rng(504);
  const size_t width = 8, count = 10007;
  auto m = random_rows(rng, 1, width);
  m[0] |= 1;
  m[width - 1] |= 1ull << 63;
  auto base = random_rows(rng, count, width);
  reduce_rows(base, m, width, count, 1);
  auto e = random_rows(rng, 1, width);
  std::vector<uint64_t> r1(count * width), r2(count * width);
  mpb::gpu::Options o;
  char why[160] = {0};
  REQUIRE(mpb::gpu::powm(r1.data(), base.data(), e.data(), width, 1, m.data(), 1, width, count, o, why, sizeof why) == MPB_OK);
  o.chunk_items = 1000;  // 11 chunks through the two streams
  REQUIRE(mpb::gpu::powm(r2.data(), base.data(), e.data(), width, 1, m.data(), 1, width, count, o, why, sizeof why) == MPB_OK);
  CHECK(r1 == r2);
}
