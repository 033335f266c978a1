// bench_mul: integer multiplication and squaring at the mpn level.
//   (1) the seed-003 table: ns per multiplication at the NIST prime sizes 192..521 bits,
//       delayed-carry Comba vs plain Comba vs GMP mpn_mul_n (and mpz_mul);
//   (2) mpn::mul_n / mpn::sqr (the dispatchers) vs GMP mpn_mul_n / mpn_sqr, 256..16384 bits.
// Every figure is the minimum over several repetitions of a timed batch; the mpbatch and GMP
// batches alternate inside one loop, so both see the same machine state.
//
// usage: bench_mul [output-dir (default <source>/bench/results)] [--quick] [--portable]
//        bench_mul --scan    (every size 1..80 limbs vs GMP, printed, no files)
#include <gmp.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/race.h"
#include "common/report.h"
#include "core/cpu_features.h"
#include "mpn/mpn.h"
#include "ref/mpn_ref.h"

namespace mpn = mpb::mpn;
using limb = mpn::limb;

namespace {

inline void clobber(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

int g_reps = 25;

std::vector<limb> rand_limbs(std::mt19937_64 &rng, size_t n) {
  std::vector<limb> v(n);
  for (auto &x : v) x = rng();
  return v;
}

}  // namespace

int main(int argc, char **argv) {
  std::string dir = std::string(MPB_SOURCE_DIR) + "/bench/results";
  bool quick = false, scan = false;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--portable")) mpb::cpu::force_portable(true);
    else if (!std::strcmp(argv[i], "--scan")) scan = true;
    else dir = argv[i];
  }
  if (quick) g_reps = 7;
  std::mt19937_64 rng(20261121);
  std::string paths = mpb::cpu::portable_forced() ? "portable C (forced)" : (mpb::cpu::has_mulx_adx() ? "MULX/ADX" : "portable C");

  // ---- (0) optional: every size 1..80 limbs (--scan), printed only -----------------------
  if (scan) {
    std::printf("limbs  mul_n  gmp  ratio  |  sqr  gmp  ratio\n");
    for (size_t n = 1; n <= 80; n++) {
      auto a = rand_limbs(rng, n), b = rand_limbs(rng, n);
      std::vector<limb> r(2 * n), s(std::max(mpn::mul_n_itch(n), mpn::sqr_itch(n)) + 1);
      mp_limb_t *gr = (mp_limb_t *)r.data();
      const mp_limb_t *ga = (const mp_limb_t *)a.data(), *gb = (const mp_limb_t *)b.data();
      auto t = mpbench::race(g_reps, (double)(n * n), [&] { mpn::mul_n(r.data(), a.data(), b.data(), n, s.data()); clobber(r.data()); },
                    [&] { mpn_mul_n(gr, ga, gb, n); clobber(gr); },
                    [&] { mpn::sqr(r.data(), a.data(), n, s.data()); clobber(r.data()); },
                    [&] { mpn_sqr(gr, ga, n); clobber(gr); });
      std::printf("%3zu %9.1f %9.1f %5.2f | %9.1f %9.1f %5.2f\n", n, t[0], t[1], t[0] / t[1], t[2], t[3], t[2] / t[3]);
    }
    return 0;
  }

  // ---- (1) seed-003 table ----------------------------------------------------------------
  {
    mpbench::Report rep(mpb::cpu::portable_forced() ? "mul-comba-portable" : "mul-comba", dir);
    rep.columns({"bits", "limbs", "delayed-carry Comba ns", "plain Comba ns", "GMP mpn_mul_n ns", "GMP mpz_mul ns",
                 "plain/delayed", "GMP/delayed", "mpn::mul_n ns (dispatcher)"});
    for (int bits : {192, 224, 256, 384, 521}) {
      size_t n = (bits + 63) / 64;
      auto a = rand_limbs(rng, n), b = rand_limbs(rng, n);
      if (bits % 64) a[n - 1] >>= 64 - bits % 64, b[n - 1] >>= 64 - bits % 64;
      a[n - 1] |= (limb)1 << ((bits - 1) % 64);
      b[n - 1] |= (limb)1 << ((bits - 1) % 64);
      std::vector<limb> r(2 * n), sc(mpn::mul_n_itch(n) + 1);
      mpz_t za, zb, zr;
      mpz_init(za), mpz_init(zb), mpz_init2(zr, 2 * bits + 64);
      mpz_import(za, n, -1, 8, 0, 0, a.data());
      mpz_import(zb, n, -1, 8, 0, 0, b.data());
      auto t = mpbench::race(g_reps, (double)(n * n), [&] { mpn::mul_comba(r.data(), a.data(), b.data(), n); clobber(r.data()); },
                     [&] { mpb::ref::mul_comba_plain(r.data(), a.data(), b.data(), n); clobber(r.data()); },
                     [&] { mpn_mul_n((mp_limb_t *)r.data(), (const mp_limb_t *)a.data(), (const mp_limb_t *)b.data(), n); clobber(r.data()); },
                     [&] { mpz_mul(zr, za, zb); clobber(zr); },
                     [&] { mpn::mul_n(r.data(), a.data(), b.data(), n, sc.data()); clobber(r.data()); });
      rep.row({std::to_string(bits), std::to_string(n), mpbench::fmt(t[0], 1), mpbench::fmt(t[1], 1), mpbench::fmt(t[2], 1),
               mpbench::fmt(t[3], 1), mpbench::fmt(t[1] / t[0], 2), mpbench::fmt(t[2] / t[0], 2), mpbench::fmt(t[4], 1)});
      mpz_clear(za), mpz_clear(zb), mpz_clear(zr);
    }
    rep.note("Seed 003 (delayed-carry Comba) on 64-bit digits: n x n limb product, no reduction. Kernels: " + paths +
             ". Both Comba columns are portable C (unsigned __int128) with the same unrolling, so they differ only in the carry handling; the last column is the production dispatcher (MULX/ADX assembly kernels when available) for reference. GMP " + gmp_version + ".");
    rep.note("ns per call, minimum over " + std::to_string(g_reps) + " timed batches; all five functions alternate within one loop.");
    rep.finish();
  }

  // ---- (2) dispatchers vs GMP ------------------------------------------------------------
  {
    mpbench::Report rep(mpb::cpu::portable_forced() ? "mul-vs-gmp-portable" : "mul-vs-gmp", dir);
    rep.columns({"bits", "limbs", "mpn::mul_n ns", "GMP mpn_mul_n ns", "mul ratio", "mpn::sqr ns", "GMP mpn_sqr ns",
                 "sqr ratio"});
    std::vector<int> sizes = {256, 512, 1024, 2048, 3072, 4096, 8192, 16384};
    for (int bits : sizes) {
      size_t n = bits / 64;
      auto a = rand_limbs(rng, n), b = rand_limbs(rng, n);
      std::vector<limb> r(2 * n), s(std::max(mpn::mul_n_itch(n), mpn::sqr_itch(n)) + 1);
      const mp_limb_t *ga = (const mp_limb_t *)a.data(), *gb = (const mp_limb_t *)b.data();
      mp_limb_t *gr = (mp_limb_t *)r.data();
      auto t = mpbench::race(g_reps, (double)(n * n), [&] { mpn::mul_n(r.data(), a.data(), b.data(), n, s.data()); clobber(r.data()); },
                     [&] { mpn_mul_n(gr, ga, gb, n); clobber(gr); },
                     [&] { mpn::sqr(r.data(), a.data(), n, s.data()); clobber(r.data()); },
                     [&] { mpn_sqr(gr, ga, n); clobber(gr); });
      rep.row({std::to_string(bits), std::to_string(n), mpbench::fmt(t[0], 1), mpbench::fmt(t[1], 1), mpbench::fmt(t[0] / t[1], 2),
               mpbench::fmt(t[2], 1), mpbench::fmt(t[3], 1), mpbench::fmt(t[2] / t[3], 2)});
    }
    rep.note("ratio = mpbatch time / GMP time (lower is better; goal <= 1.25 at 256..4096 bits). Kernels: " + paths +
             ". GMP " + gmp_version + ".");
    rep.note("ns per call, minimum over " + std::to_string(g_reps) + " timed batches; the four functions alternate within one loop.");
    rep.finish();
  }
  return 0;
}
