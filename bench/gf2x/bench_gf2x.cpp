// bench/gf2x/bench_gf2x.cpp: GF(2)[x] multiplication timings (seed 002, Table 1): the time of 100
// multiplications of two random polynomials of n limbs, n = 10..500 step 10, 1000..10000
// step 500, one column per method, plus Debian's gf2x, a gf2x built with its PCLMUL code
// (dlopen, --gf2x-pclmul PATH) and NTL's GF2X, all in the same run.
//
// Columns comb_* / karatsuba / toom3 / toom4 call that method at the top level; their
// recursion goes through the dispatcher with the other sub-quadratic methods switched off
// (karatsuba: Karatsuba only; toom3: Toom-3 then Karatsuba; toom4: Toom-4 then Karatsuba),
// over the same clmul base cases. `mul` is the dispatcher with the tuned cut-offs.
// Each entry: samples of K multiplications (K chosen for >= --min-time seconds), the columns
// sampled in turns for R rounds (--reps), minimum per column, scaled to 100 multiplications. Quadratic comb methods stop at --comb-max limbs (CSV: "skip").
//
//   bench_gf2x [--out DIR] [--gf2x-pclmul /tmp/gf2x-pclmul/lib/libgf2x.so] [--sizes a,b,c]
//              [--only name,name] [--comb-max N] [--reps R] [--min-time S] [--tag TAG]
//              [--params kara,toom3,toom4]   (override the cut-offs for this run)
//              [--path portable|pclmul|vpclmul]  (force a carry-less kernel set)
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gf2x/tuning.h"

#include "common/report.h"
#include "gf2x/mul/gf2x_mul.h"

#ifdef MPB_BENCH_HAVE_GF2X
#include <gf2x.h>
#endif
#ifdef MPB_BENCH_HAVE_NTL
#include <NTL/GF2X.h>
#endif

namespace g = mpb::gf2x;
using limb = uint64_t;
using Clock = std::chrono::steady_clock;

namespace {

struct Opts {
  std::string out = "bench/results";
  std::string pclmul_lib;
  std::vector<size_t> sizes;
  std::vector<std::string> only;
  size_t comb_max = 2000;
  int reps = 15;
  double min_time = 0.002;
  std::string tag = "gf2x_mul";
};

std::vector<size_t> default_sizes() {
  std::vector<size_t> s;
  for (size_t n = 10; n <= 500; n += 10) s.push_back(n);
  for (size_t n = 1000; n <= 10000; n += 500) s.push_back(n);
  return s;
}

using MulFn = std::function<void(limb *, const limb *, const limb *, size_t)>;
struct Column {
  std::string name;
  MulFn f;
  size_t max_n;  // skip above
};

// Calibration: how many multiplications make one sample of >= min_time seconds.
long calibrate(const MulFn &f, limb *c, const limb *a, const limb *b, size_t n, const Opts &o) {
  auto t0 = Clock::now();
  f(c, a, b, n);
  double t1 = std::chrono::duration<double>(Clock::now() - t0).count();
  long K = t1 > 0 ? (long)(o.min_time / t1) : 1000;
  return std::max(1L, std::min(K, 100000L));
}
// One sample: seconds per multiplication over K calls.
double sample(const MulFn &f, limb *c, const limb *a, const limb *b, size_t n, long K) {
  auto s = Clock::now();
  for (long i = 0; i < K; ++i) f(c, a, b, n);
  return std::chrono::duration<double>(Clock::now() - s).count() / (double)K;
}

std::string shell1(const char *cmd) {
  std::string r;
  if (FILE *p = popen(cmd, "r")) {
    char buf[512];
    if (fgets(buf, sizeof buf, p)) r = buf;
    pclose(p);
  }
  while (!r.empty() && (r.back() == '\n' || r.back() == '\r')) r.pop_back();
  return r;
}

std::vector<size_t> parse_sizes(const char *s) {
  std::vector<size_t> v;
  while (*s) {
    v.push_back(std::strtoul(s, (char **)&s, 10));
    if (*s == ',') ++s;
  }
  return v;
}
std::vector<std::string> parse_names(const char *s) {
  std::vector<std::string> v;
  std::string cur;
  for (; *s; ++s) {
    if (*s == ',') { v.push_back(cur); cur.clear(); } else cur += *s;
  }
  if (!cur.empty()) v.push_back(cur);
  return v;
}

// scratch big enough for every column at every size
std::vector<limb> g_scratch;
limb *scratch_for(size_t need) {
  if (g_scratch.size() < need) g_scratch.resize(need);
  return g_scratch.data();
}

void with_params(int kara, int t3, int t4) {
  auto &P = mpb::tuning::gf2x_params();
  P.kara = kara;
  P.toom3 = t3;
  P.toom4 = t4;
}
const int OFF = 1 << 30;

typedef int (*gf2x_mul_t)(unsigned long *, const unsigned long *, unsigned long, const unsigned long *,
                          unsigned long);

} // namespace

int main(int argc, char **argv) {
  Opts o;
  o.sizes = default_sizes();
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", a.c_str()); std::exit(2); }
      return argv[++i];
    };
    if (a == "--out") o.out = next();
    else if (a == "--gf2x-pclmul") o.pclmul_lib = next();
    else if (a == "--sizes") o.sizes = parse_sizes(next());
    else if (a == "--only") o.only = parse_names(next());
    else if (a == "--comb-max") o.comb_max = std::strtoul(next(), nullptr, 10);
    else if (a == "--reps") o.reps = std::atoi(next());
    else if (a == "--min-time") o.min_time = std::atof(next());
    else if (a == "--tag") o.tag = next();
    else if (a == "--path") {  // force a carry-less kernel set: portable, pclmul, vpclmul
      std::string v = next();
      g::ClmulPath cp = v == "portable" ? g::ClmulPath::Portable : v == "pclmul" ? g::ClmulPath::Pclmul
                                                                                  : g::ClmulPath::Vpclmul;
      if (!g::set_clmul_path(cp)) { std::fprintf(stderr, "path %s not available\n", v.c_str()); return 2; }
    } else if (a == "--params") {  // kara,toom3,toom4 cut-offs for this run (tuning experiments)
      auto v = parse_sizes(next());
      if (v.size() == 3) with_params((int)v[0], (int)v[1], (int)v[2]);
    }
    else { std::fprintf(stderr, "unknown option %s\n", a.c_str()); return 2; }
  }
  const auto defaults = mpb::tuning::gf2x_params();
  const int K = defaults.kara;

  std::vector<Column> cols;
  auto comb = [&](const char *name, int which) {
    cols.push_back({name, [which](limb *c, const limb *a, const limb *b, size_t n) {
                      limb *s = scratch_for(g::mul_comb_ltr_w_itch(n, n, 8) + 16);
                      switch (which) {
                        case 0: g::mul_comb_rtl(c, a, n, b, n, s); break;
                        case 1: g::mul_comb_ltr(c, a, n, b, n, s); break;
                        case 4: g::mul_comb_ltr_w(c, a, n, b, n, 4, s); break;
                        default: g::mul_comb_ltr_w(c, a, n, b, n, 8, s); break;
                      }
                    }, o.comb_max});
  };
  comb("comb_rtl", 0);
  comb("comb_ltr", 1);
  comb("comb_w4", 4);
  comb("comb_w8", 8);
  cols.push_back({"karatsuba", [=](limb *c, const limb *a, const limb *b, size_t n) {
                    with_params(K, OFF, OFF);
                    g::mul_karatsuba(c, a, n, b, n, scratch_for(g::mul_itch(n, n)));
                    mpb::tuning::gf2x_params() = defaults;
                  }, (size_t)-1});
  cols.push_back({"toom3", [=](limb *c, const limb *a, const limb *b, size_t n) {
                    with_params(K, defaults.toom3, OFF);
                    g::mul_toom3(c, a, n, b, n, scratch_for(g::mul_itch(n, n)));
                    mpb::tuning::gf2x_params() = defaults;
                  }, (size_t)-1});
  cols.push_back({"toom4", [=](limb *c, const limb *a, const limb *b, size_t n) {
                    with_params(K, OFF, defaults.toom4);
                    g::mul_toom4(c, a, n, b, n, scratch_for(g::mul_itch(n, n)));
                    mpb::tuning::gf2x_params() = defaults;
                  }, (size_t)-1});
  cols.push_back({"clmul_basecase", [](limb *c, const limb *a, const limb *b, size_t n) {
                    g::mul_clmul(c, a, n, b, n);
                  }, (size_t)-1});
  cols.push_back({"mpb_mul", [](limb *c, const limb *a, const limb *b, size_t n) {
                    g::mul(c, a, n, b, n, scratch_for(g::mul_itch(n, n)));
                  }, (size_t)-1});
#ifdef MPB_BENCH_HAVE_GF2X
  cols.push_back({"gf2x_debian", [](limb *c, const limb *a, const limb *b, size_t n) {
                    gf2x_mul((unsigned long *)c, (const unsigned long *)a, n, (const unsigned long *)b, n);
                  }, (size_t)-1});
#endif
  if (!o.pclmul_lib.empty()) {
    void *h = dlopen(o.pclmul_lib.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!h) {
      std::fprintf(stderr, "cannot load %s: %s\n", o.pclmul_lib.c_str(), dlerror());
      return 1;
    }
    auto fn = (gf2x_mul_t)dlsym(h, "gf2x_mul");
    if (!fn) { std::fprintf(stderr, "no gf2x_mul in %s\n", o.pclmul_lib.c_str()); return 1; }
    cols.push_back({"gf2x_pclmul", [fn](limb *c, const limb *a, const limb *b, size_t n) {
                      fn((unsigned long *)c, (const unsigned long *)a, n, (const unsigned long *)b, n);
                    }, (size_t)-1});
  }
#ifdef MPB_BENCH_HAVE_NTL
  cols.push_back({"ntl", [](limb *c, const limb *a, const limb *b, size_t n) {
                    static NTL::GF2X A, B, C;
                    static const limb *la = nullptr;
                    static size_t ln = 0;
                    if (la != a || ln != n) {  // conversion outside the timed loop (cached)
                      A.xrep.SetLength((long)n);
                      B.xrep.SetLength((long)n);
                      for (size_t i = 0; i < n; ++i) {
                        A.xrep[(long)i] = (_ntl_ulong)a[i];
                        B.xrep[(long)i] = (_ntl_ulong)b[i];
                      }
                      A.normalize();
                      B.normalize();
                      la = a;
                      ln = n;
                    }
                    NTL::mul(C, A, B);
                    (void)c;
                  }, (size_t)-1});
#endif
  if (!o.only.empty()) {
    std::vector<Column> keep;
    for (auto &c : cols)
      if (std::find(o.only.begin(), o.only.end(), c.name) != o.only.end()) keep.push_back(c);
    cols = keep;
  }

  // correctness cross-check of every column against the dispatcher at one size
  std::mt19937_64 rng(20261121);
  {
    size_t n = 37;
    std::vector<limb> a(n), b(n), c0(2 * n), c1(2 * n);
    for (auto &x : a) x = rng();
    for (auto &x : b) x = rng();
    g::mul(c0.data(), a.data(), n, b.data(), n, scratch_for(g::mul_itch(n, n)));
    for (auto &col : cols) {
      if (col.name == "ntl") continue;
      std::fill(c1.begin(), c1.end(), 0);
      col.f(c1.data(), a.data(), b.data(), n);
      if (c1 != c0) { std::fprintf(stderr, "column %s disagrees with mpb_mul\n", col.name.c_str()); return 1; }
    }
  }

  std::string date = shell1("date -u +%Y-%m-%dT%H:%M:%SZ");
  std::string commit = mpbench::commit();  // shared with the other benchmarks
  std::string cpu = mpbench::machine();
  const char *path = g::clmul_path() == g::ClmulPath::Vpclmul ? "vpclmul"
                     : g::clmul_path() == g::ClmulPath::Pclmul ? "pclmul" : "portable";

  std::string csv_path = o.out + "/" + o.tag + ".csv", md_path = o.out + "/" + o.tag + ".md";
  FILE *csv = std::fopen(csv_path.c_str(), "w");
  if (!csv) { std::fprintf(stderr, "cannot write %s\n", csv_path.c_str()); return 1; }
  std::fprintf(csv, "# bench_gf2x: seconds for 100 multiplications of two random n-limb polynomials\n");
  std::fprintf(csv, "# machine: %s; clmul path: %s; date: %s; commit: %s\n", cpu.c_str(), path, date.c_str(),
               commit.c_str());
  std::fprintf(csv, "# cut-offs: kara %d, toom3 %d, toom4 %d; comb methods skipped above %zu limbs (\"skip\")\n",
               defaults.kara, defaults.toom3, defaults.toom4, o.comb_max);
  std::fprintf(csv, "limbs");
  for (auto &c : cols) std::fprintf(csv, ",%s", c.name.c_str());
  std::fprintf(csv, "\n");

  std::vector<std::vector<double>> table;
  for (size_t n : o.sizes) {
    std::vector<limb> a(n), b(n), c(2 * n + 8);
    for (auto &x : a) x = rng();
    for (auto &x : b) x = rng();
    std::vector<double> row;
    std::fprintf(csv, "%zu", n);
    std::printf("%6zu", n);
    // the columns are sampled in turns (R rounds), so a busy moment of the machine hits
    // them alike; each column keeps its minimum
    std::vector<long> reps_of(cols.size(), 0);
    std::vector<double> best(cols.size(), 1e300);
    for (size_t j = 0; j < cols.size(); ++j)
      if (n <= cols[j].max_n) reps_of[j] = calibrate(cols[j].f, c.data(), a.data(), b.data(), n, o);
    for (int r = 0; r < o.reps; ++r)
      for (size_t j = 0; j < cols.size(); ++j)
        if (reps_of[j]) best[j] = std::min(best[j], sample(cols[j].f, c.data(), a.data(), b.data(), n, reps_of[j]));
    for (size_t j = 0; j < cols.size(); ++j) {
      if (!reps_of[j]) {
        row.push_back(-1);
        std::fprintf(csv, ",skip");
        std::printf(" %12s", "skip");
        continue;
      }
      double t = best[j] * 100.0;
      row.push_back(t);
      std::fprintf(csv, ",%.6g", t);
      std::printf(" %s=%.3e", cols[j].name.c_str(), t);
    }
    std::fprintf(csv, "\n");
    std::printf("\n");
    std::fflush(stdout);
    std::fflush(csv);
    table.push_back(row);
  }
  std::fclose(csv);

  // markdown: microseconds per multiplication, and the dispatcher / gf2x-PCLMUL ratio
  FILE *md = std::fopen(md_path.c_str(), "w");
  if (!md) return 1;
  std::fprintf(md, "# GF(2)[x] multiplication, n x n limbs\n\n");
  std::fprintf(md, "- machine: %s (clmul path: %s)\n- date: %s\n- commit: %s\n", cpu.c_str(), path, date.c_str(),
               commit.c_str());
  std::fprintf(md, "- cut-offs: kara %d, toom3 %d, toom4 %d (cpu/gf2x/tuning.h)\n", defaults.kara,
               defaults.toom3, defaults.toom4);
  std::fprintf(md, "- command: bench_gf2x");
  for (int i = 1; i < argc; ++i) std::fprintf(md, " %s", argv[i]);
  std::fprintf(md, "\n- unit: microseconds per multiplication (min of %d runs); CSV %s has seconds per 100.\n\n",
               o.reps, (o.tag + ".csv").c_str());
  int imul = -1, ipcl = -1;
  for (size_t j = 0; j < cols.size(); ++j) {
    if (cols[j].name == "mpb_mul") imul = (int)j;
    if (cols[j].name == "gf2x_pclmul") ipcl = (int)j;
  }
  std::fprintf(md, "| limbs |");
  for (auto &c : cols) std::fprintf(md, " %s |", c.name.c_str());
  if (imul >= 0 && ipcl >= 0) std::fprintf(md, " mpb_mul / gf2x_pclmul |");
  std::fprintf(md, "\n|---|");
  for (size_t j = 0; j < cols.size(); ++j) std::fprintf(md, "---|");
  if (imul >= 0 && ipcl >= 0) std::fprintf(md, "---|");
  std::fprintf(md, "\n");
  double worst = 0;
  size_t worst_n = 0;
  for (size_t i = 0; i < table.size(); ++i) {
    std::fprintf(md, "| %zu |", o.sizes[i]);
    for (double t : table[i]) {
      if (t < 0) std::fprintf(md, " skip |");
      else std::fprintf(md, " %.4g |", t * 1e6 / 100.0);
    }
    if (imul >= 0 && ipcl >= 0) {
      double r = table[i][imul] / table[i][ipcl];
      if (r > worst) { worst = r; worst_n = o.sizes[i]; }
      std::fprintf(md, " %.3f |", r);
    }
    std::fprintf(md, "\n");
  }
  if (imul >= 0 && ipcl >= 0)
    std::fprintf(md, "\nWorst ratio mpb_mul / gf2x_pclmul: %.3f at %zu limbs.\n", worst, worst_n);
  std::fclose(md);
  std::printf("wrote %s and %s\n", csv_path.c_str(), md_path.c_str());
  if (imul >= 0 && ipcl >= 0) std::printf("worst ratio mpb_mul / gf2x_pclmul: %.3f at %zu limbs\n", worst, worst_n);
  return 0;
}
