// bench_powm: modular exponentiation with a full-size exponent (exponent bits == modulus
// bits), odd moduli (and one even-modulus column):
//   mpbatch mp_exptmod, mp_exptmod_ct, mpn::powm with a precomputed MontCtx (the batch path),
//   GMP mpz_powm and mpz_powm_sec, LibTomMath mp_exptmod (when found).
// Every result is checked against GMP. Times are the minimum over several timed batches.
// Usage: bench_powm [--quick] [results-dir]   (writes powm-<date>.csv/.md there)
#include <gmp.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <mpbatch/bn.h>

#include "common/report.h"
#include "mpn/powm/powm.h"

#ifdef MPB_BENCH_HAVE_LTM
void *ltm_setup(const std::vector<unsigned char> &a, const std::vector<unsigned char> &e,
                const std::vector<unsigned char> &m);
bool ltm_run(void *p);
std::vector<unsigned char> ltm_finish(void *p);
#endif

// thread CPU time (less disturbed by other processes on a shared machine than wall time)
static inline double cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

namespace {
int g_reps = 7;
double g_target_ns = 40e6;  // per timed batch

// Interleaved timing: every method is calibrated once, then each round times one batch of
// every method in turn; the result per method is the minimum over the rounds. Interleaving
// keeps the ratios fair while the load of a shared machine drifts.
std::vector<double> time_group(const std::vector<std::function<void()>> &fs) {
  std::vector<int> iters(fs.size());
  std::vector<double> best(fs.size(), -1);
  for (size_t k = 0; k < fs.size(); k++) {
    double t0 = cpu_ns();
    fs[k]();
    double one = cpu_ns() - t0;
    int it = (int)(g_target_ns / (one > 1 ? one : 1));
    iters[k] = it < 1 ? 1 : it > 100000 ? 100000 : it;
  }
  for (int r = 0; r < g_reps; r++)
    for (size_t k = 0; k < fs.size(); k++) {
      double t0 = cpu_ns();
      for (int i = 0; i < iters[k]; i++) fs[k]();
      double ns = (cpu_ns() - t0) / iters[k];
      if (best[k] < 0 || ns < best[k]) best[k] = ns;
    }
  return best;
}

void rand_bits(mpz_t z, gmp_randstate_t st, unsigned bits) {
  mpz_urandomb(z, st, bits);
  mpz_setbit(z, bits - 1);
}
std::vector<unsigned char> bytes_of(const mpz_t z) {
  size_t cnt = 0;
  std::vector<unsigned char> v((mpz_sizeinbase(z, 2) + 7) / 8 + 1);
  mpz_export(v.data(), &cnt, 1, 1, 1, 0, z);
  v.resize(cnt);
  return v;
}
void to_mp(mp_int *a, const mpz_t z) {
  auto b = bytes_of(z);
  if (mp_read_unsigned_bin(a, b.data(), (int)b.size()) != MP_OKAY) std::abort();
}
bool same(const mp_int *a, const mpz_t z) {
  std::vector<unsigned char> b(mp_unsigned_bin_size(a) + 1);
  if (mp_to_unsigned_bin(a, b.data()) != MP_OKAY) return false;
  b.resize(mp_unsigned_bin_size(a));
  return b == bytes_of(z);
}
std::string f1(double v) { return mpbench::fmt(v, 1); }
std::string f2(double v) { return mpbench::fmt(v, 2); }
} // namespace

int main(int argc, char **argv) {
  std::string dir = "bench/results";
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--quick")) {
      g_reps = 3;
      g_target_ns = 10e6;
    } else if (argv[i][0] == '-') {  // --help, or an unknown option: not an output folder
      const bool help = !std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h");
      std::fprintf(help ? stdout : stderr, "usage: %s [output-dir] [--quick]\n", "bench_powm");
      return help ? 0 : 2;
    } else dir = argv[i];
  }
  gmp_randstate_t st;
  gmp_randinit_default(st);
  gmp_randseed_ui(st, 20261121);
  mpbench::Report rep("powm", dir);
  rep.columns({"bits", "mpbatch exptmod us", "mpn::powm (ctx) us", "mpbatch exptmod_ct us",
               "GMP mpz_powm us", "GMP mpz_powm_sec us", "LTM mp_exptmod us", "mpbatch/GMP",
               "ct/GMP powm_sec", "LTM/mpbatch", "even m: mpbatch us", "even m: GMP us",
               "even mpbatch/GMP"});
  bool ok = true;
  for (unsigned bits : {512u, 1024u, 2048u, 3072u, 4096u}) {
    mpz_t zm, za, ze, zr, zr2, zme, zre;
    mpz_inits(zm, za, ze, zr, zr2, zme, zre, NULL);
    rand_bits(zm, st, bits);
    mpz_setbit(zm, 0);
    mpz_urandomm(za, st, zm);
    rand_bits(ze, st, bits);
    mpz_set(zme, zm);
    mpz_clrbit(zme, 0);  // even modulus of the same size
    mp_int a, e, m, r, me;
    if (mp_init(&a) || mp_init(&e) || mp_init(&m) || mp_init(&r) || mp_init(&me)) return 1;
    to_mp(&a, za);
    to_mp(&e, ze);
    to_mp(&m, zm);
    to_mp(&me, zme);

    size_t n = (size_t)m.used;
    std::vector<uint64_t> store(mpb::mpn::mont_ctx_itch(n)), sc(mpb::mpn::powm_itch(n, e.used)),
        bl(n, 0), rl(n);
    mpb::mpn::MontCtx ctx;
    mpb::mpn::mont_ctx_init(ctx, m.dp, n, store.data());
    std::memcpy(bl.data(), a.dp, a.used * 8);
    mp_int r_ct, r_e;
    if (mp_init(&r_ct) || mp_init(&r_e)) return 1;
    std::vector<std::function<void()>> fs = {
        [&] { mpz_powm(zr, za, ze, zm); },
        [&] { mpz_powm_sec(zr2, za, ze, zm); },
        [&] { if (mp_exptmod(&a, &e, &m, &r) != MP_OKAY) std::abort(); },
        [&] { if (mp_exptmod_ct(&a, &e, &m, &r_ct) != MP_OKAY) std::abort(); },
        [&] { mpb::mpn::powm(rl.data(), bl.data(), e.dp, e.used, ctx, sc.data()); },
        [&] { mpz_powm(zre, za, ze, zme); },
        [&] { if (mp_exptmod(&a, &e, &me, &r_e) != MP_OKAY) std::abort(); },
    };
#ifdef MPB_BENCH_HAVE_LTM
    void *ltm = ltm_setup(bytes_of(za), bytes_of(ze), bytes_of(zm));
    if (!ltm) return 1;
    fs.push_back([&] { if (!ltm_run(ltm)) std::abort(); });
#endif
    auto t = time_group(fs);
    double t_gmp = t[0], t_sec = t[1], t_mp = t[2], t_ct = t[3], t_mpn = t[4], t_gmp_e = t[5],
           t_mp_e = t[6], t_ltm = -1;
#ifdef MPB_BENCH_HAVE_LTM
    t_ltm = t[7];
    ok &= ltm_finish(ltm) == bytes_of(zr);
#endif
    ok &= same(&r, zr) && same(&r_ct, zr) && mpz_cmp(zr, zr2) == 0 && same(&r_e, zre);
    {
      mp_int tt;
      if (mp_init_size(&tt, (int)n)) return 1;
      std::memcpy(tt.dp, rl.data(), n * 8);
      tt.used = (int)n;
      mp_clamp(&tt);
      ok &= same(&tt, zr);
      mp_clear(&tt);
    }
    mp_clear(&r_ct);
    mp_clear(&r_e);
    rep.row({std::to_string(bits), f1(t_mp / 1e3), f1(t_mpn / 1e3), f1(t_ct / 1e3), f1(t_gmp / 1e3),
             f1(t_sec / 1e3), t_ltm > 0 ? f1(t_ltm / 1e3) : "-", f2(t_mp / t_gmp), f2(t_ct / t_sec),
             t_ltm > 0 ? f2(t_ltm / t_mp) : "-", f1(t_mp_e / 1e3), f1(t_gmp_e / 1e3),
             f2(t_mp_e / t_gmp_e)});
    mp_clear(&a);
    mp_clear(&e);
    mp_clear(&m);
    mp_clear(&r);
    mp_clear(&me);
    mpz_clears(zm, za, ze, zr, zr2, zme, zre, NULL);
  }
  rep.note("Full-size exponent (exponent bits = modulus bits), random odd modulus with the top bit set, "
           "base < m. Times: thread CPU time, minimum over interleaved timed batches (us per exponentiation, one thread).");
  rep.note("mpbatch/GMP < 1 means mpbatch is faster; LTM/mpbatch > 1 means mpbatch is faster.");
  rep.note(ok ? "All results checked against GMP: OK" : "RESULT MISMATCH against GMP");
  rep.finish();
  gmp_randclear(st);
  return ok ? 0 : 2;
}
