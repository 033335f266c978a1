// bench_mul: integer multiplication and squaring at the mpn level.
//   (1) the seed-003 table: ns per multiplication at the NIST prime sizes 192..521 bits,
//       delayed-carry Comba vs plain Comba vs GMP mpn_mul_n (and mpz_mul);
//   (2) mpn::mul_n / mpn::sqr (the dispatchers) vs GMP mpn_mul_n / mpn_sqr, 256..16384 bits.
//   --mont (printed only): the constant-time Montgomery kernels of the scalar exponentiation
//       (mont_sqr_ct, mont_mul_ct and their parts; mont_mul beside them) in ns per 64x64-bit limb product, against this
//       core's peak rate of independent 64x64 -> 128-bit products (x86-64: MUL in a loop), and
//       the RSA-2048 private operations per second those kernels allow: how far the scalar path
//       is from the multiplier's bound.
// Every figure is the minimum over several repetitions of a timed batch; the mpbatch and GMP
// batches alternate inside one loop, so both see the same machine state.
//
// usage: bench_mul [output-dir (default <source>/bench/results)] [--quick] [--portable]
//        bench_mul --scan    (every size 1..80 limbs vs GMP, printed, no files)
//        bench_mul --mont    (the Montgomery kernels against the multiplier's peak, printed;
//                             MPB_MONT_SIZES=16,24,... picks the limb counts)
//        bench_mul --help    (this usage; any other option starting with '-' is an error)
#include <gmp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/race.h"
#include "common/report.h"
#include "core/cpu_features.h"
#include "mpn/mod/mont.h"
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

// ns per 64x64 -> 128-bit product at the core's peak: blocks of 8 independent MULs (four
// multiplicands, one multiplier), no other work; 0 where there is no such instruction to time.
double peak_product_ns() {
#if defined(__x86_64__)
  auto block = [] {
    for (int i = 0; i < 256; i++)
      __asm__ volatile(
          "mov %%r8, %%rax\n\tmulq %%r9\n\tmov %%r10, %%rax\n\tmulq %%r9\n\t"
          "mov %%r11, %%rax\n\tmulq %%r9\n\tmov %%r8, %%rax\n\tmulq %%r10\n\t"
          "mov %%r9, %%rax\n\tmulq %%r11\n\tmov %%r10, %%rax\n\tmulq %%r8\n\t"
          "mov %%r11, %%rax\n\tmulq %%r10\n\tmov %%r8, %%rax\n\tmulq %%r11\n\t"
          :
          :
          : "rax", "rdx", "cc");
  };
  return mpbench::race(g_reps, 2048.0, block)[0] / 2048.0;
#else
  return 0;
#endif
}

// --mont: see the file comment. MPB_MONT_SIZES (comma-separated limb counts) replaces the sizes.
std::vector<size_t> mont_sizes() {
  std::vector<size_t> v;
  if (const char *e = std::getenv("MPB_MONT_SIZES"))
    for (const char *p = e; *p;) {
      char *end;
      const unsigned long x = std::strtoul(p, &end, 10);
      if (end == p) break;
      if (x >= 1 && x <= 256) v.push_back((size_t)x);
      p = *end == ',' ? end + 1 : end;
    }
  if (v.empty()) v = {8, 16, 24, 32, 48, 64};
  return v;
}

int mont_report(std::mt19937_64 &rng, const std::string &paths) {
  const double peak = peak_product_ns();
  std::printf("Montgomery kernels of the constant-time scalar exponentiation (powm_ct), kernels: %s\n", paths.c_str());
  if (peak > 0) std::printf("peak: %.3f ns per 64x64-bit product (independent MULs)\n", peak);
  std::printf("ns per call and ns per limb product (efficiency = peak / that)\n");
  std::printf("limbs |    sqr          |   mul_n         |   REDC          | mont_sqr_ct     | mont_mul_ct     | mont_mul\n");
  double rsa_ns = 0;
  for (size_t n : mont_sizes()) {
    std::vector<limb> m = rand_limbs(rng, n), a = rand_limbs(rng, n), b = rand_limbs(rng, n);
    m[0] |= 1;
    m[n - 1] |= (limb)1 << 63;
    a[n - 1] >>= 1;
    b[n - 1] >>= 1;
    std::vector<limb> st(mpn::mont_ctx_itch(n)), t(2 * n), t0(2 * n), r(n);
    std::vector<limb> s(std::max({mpn::mont_sqr_itch(n), mpn::sqr_itch(n), mpn::mul_n_itch(n)}) + 1);
    mpn::MontCtx ctx;
    mpn::mont_ctx_init(ctx, m.data(), n, st.data());
    mpn::mul_n(t0.data(), a.data(), b.data(), n, s.data());
    auto tt = mpbench::race(g_reps, (double)(n * n),
                            [&] { mpn::sqr_ct(t.data(), a.data(), n, s.data()); clobber(t.data()); },
                            [&] { mpn::mul_n(t.data(), a.data(), b.data(), n, s.data()); clobber(t.data()); },
                            [&] { mpn::copy(t.data(), t0.data(), 2 * n); mpn::mont_redc(r.data(), t.data(), ctx); clobber(r.data()); },
                            [&] { mpn::copy(t.data(), t0.data(), 2 * n); clobber(t.data()); },
                            [&] { mpn::mont_sqr_ct(a.data(), a.data(), ctx, s.data()); clobber(a.data()); },
                            [&] { mpn::mont_mul_ct(b.data(), b.data(), a.data(), ctx, s.data()); clobber(b.data()); },
                            [&] { mpn::mont_mul(b.data(), b.data(), a.data(), ctx, s.data()); clobber(b.data()); });
    const double nn = (double)n * n, sq = n * (n + 1) / 2.0, red = nn + n;  // REDC: n rows + n quotients
    const double t_redc = tt[2] - tt[3];
    auto cell = [&](double ns, double products) {
      if (peak > 0) std::printf(" %7.1f %5.3f %3.0f%% |", ns, ns / products, 100 * peak * products / ns);
      else std::printf(" %7.1f %5.3f      |", ns, ns / products);
    };
    std::printf("%5zu |", n);
    cell(tt[0], sq), cell(tt[1], nn), cell(t_redc, red), cell(tt[4], sq + red), cell(tt[5], nn + red), cell(tt[6], nn + red);
    std::printf("\n");
    if (n == 16)  // an RSA-2048 half: 1024 squarings, 205 + 30 products (5-bit windows, table)
      rsa_ns = 2 * (1024 * tt[4] + 235 * tt[5]);
  }
  if (rsa_ns > 0) {
    std::printf("RSA-2048 by CRT at these kernels: two 1024-bit exponentiations of 1024 mont_sqr_ct + 235 mont_mul_ct\n");
    std::printf("  (5-bit windows and the table; no table reads, conversions or recombination): %.0f ops/s", 1e9 / rsa_ns);
    if (peak > 0) {
      const double products = 2 * (1024 * (136 + 272) + 235 * (256 + 272));
      std::printf("; at the peak product rate %.0f ops/s (%.0f products)", 1e9 / (products * peak), products);
    }
    std::printf("\n");
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  std::string dir = std::string(MPB_SOURCE_DIR) + "/bench/results";
  bool quick = false, scan = false, mont = false;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--portable")) mpb::cpu::force_portable(true);
    else if (!std::strcmp(argv[i], "--scan")) scan = true;
    else if (!std::strcmp(argv[i], "--mont")) mont = true;
    else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::printf("usage: bench_mul [output-dir] [--quick] [--portable] | --scan | --mont | --help\n"
                  "  output-dir: where the tables go (default %s/bench/results)\n"
                  "  --mont: the Montgomery kernels, printed (MPB_MONT_SIZES=16,24,... limb counts)\n",
                  MPB_SOURCE_DIR);
      return 0;
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "bench_mul: unknown option %s (see --help)\n", argv[i]);
      return 2;
    } else dir = argv[i];
  }
  if (quick) g_reps = 7;
  std::mt19937_64 rng(20261121);
  std::string paths = mpb::cpu::portable_forced() ? "portable C (forced)" : (mpb::cpu::has_mulx_adx() ? "MULX/ADX" : "portable C");

  if (mont) return mont_report(rng, paths);

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
