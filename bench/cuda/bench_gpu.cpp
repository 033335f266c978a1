// bench_gpu: the CUDA backend's throughput sweep: items/s over operand sizes and batch sizes
// for the GPU kernels (every thread mapping that is built: one thread per item or TPI
// threads per item; for powm also the one-thread kernels' other Montgomery arithmetics,
// rows "cuda-mont<V>", and variable-time fixed windows next to the default sliding ones,
// "cuda-fixed"), next to the CPU backend and AUTO through the batch API; a sample of
// every result is checked against GMP (RSA results through the public exponent).
// Writes <out>/gpu-<date>-<commit>.json (device, driver, cuda, commit, date, results
// [{op, bits, batch, backend, tpi, items_per_s, items_checked, mismatches, bound_pct}], AUTO
// rows also `chose`: the backend AUTO ran) and prints a table, the AUTO-vs-best summary (AUTO's
// own timing, and the row of the backend it chose: the decision alone) and the CPU/GPU crossovers.
//
//   bench_gpu [--out DIR] [--min-batch N] [--max-batch N] [--check N] [--cap SECONDS] [--bits 1024,2048,...]
//             [--ops powm,powm_ct,powm_even,rsa_crt,mul,modmul,gf2x,powm_window,powm_ct_win] [--no-cpu]
//             [--default-mappings] [--reps N]
// (powm_window and powm_ct_win only when named: the sliding-window widths by exponent length and
// the constant-time fixed-window widths, see below.)
// Without --default-mappings also the tuning alternatives: modmul's block kernel at other k and
// threads per item (cuda-k<K>-t<T>), the GF(2)[x] plans built with MPB_CUDA_TUNING_SHAPES
// (cuda-w<W>p<P>b<B>, squares cuda-b<B>).
// --default-mappings: only the library's own GPU mapping per size (no tpi / Montgomery /
// fixed-window alternatives): the AUTO check. --reps N: N rounds per point in which the
// configurations of one operation and size run in turn, each keeping its best time.
// powm_even: as powm with an even modulus (the Barrett kernels; bound_pct against the
// Montgomery bound).
// --cap: a configuration stops growing its batch once a run took longer than this (the
// throughput has long reached its plateau by then); default 2 s.
#include <gmp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <mpbatch/batch.h>
#include "cuda/tuning.h"

#include "cuda/host/gpu_backend.h"
#include "cuda/variants/powm_variants.h"
#include "common/gmp_rows.h"
#include "common/report.h"
#include "common/rsa_key.h"

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Seconds one run of call() took (it returns an mpb status), or -1 after reporting its error
// (`why`, the reason buffer the call filled) as "<op> <bits> <name> failed".
template <class F>
double timed_run(const char *op, int bits, const char *name, const char *why, F &&call) {
  const double t0 = now();
  const int st = call();
  const double dt = now() - t0;
  if (st != MPB_OK) {
    std::fprintf(stderr, "%s %d %s failed: %d %s\n", op, bits, name, st, why);
    return -1;
  }
  return dt;
}

struct Row {
  std::string op, backend;
  int bits, tpi;
  size_t batch;
  double items_per_s;
  size_t checked, mismatches;
  double bound_pct;  // % of the IMAD bound (0 when not applicable)
  std::string chose;  // AUTO rows: the backend AUTO ran ("cpu" / "cuda") on the last timed call
};

// The last batch-API call's report (every API call passes it): which backend AUTO chose.
mpb_call_info g_info;
void mark_auto(std::vector<Row> &rows) {
  if (!rows.empty() && rows.back().backend == "auto")
    rows.back().chose = g_info.backend == MPB_BACKEND_CUDA ? "cuda" : "cpu";
}

using mpbench::limbs;
using mpbench::to_z;

// IMAD-bound items/s for a Montgomery exponentiation with an n-word modulus and ebits
// exponent bits, window w: 2 IMAD per 32x32 product, 2 n^2 products per multiplication.
double powm_bound(int sms, double ghz, int nwords, int ebits, int w) {
  double mults = ebits + (double)ebits / w + (1 << w);
  double imads = mults * 2.0 * nwords * nwords * 2.0;
  return sms * 64.0 * ghz * 1e9 / imads;
}

// Runs check(i) for the sampled items on every core; returns the mismatches.
size_t parallel_check(size_t batch, size_t n, const std::function<bool(size_t)> &ok) {
  std::atomic<size_t> next{0}, bad{0};
  unsigned t = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> th;
  for (unsigned k = 0; k < t; k++)
    th.emplace_back([&] {
      for (size_t i; (i = next++) < n;)
        if (!ok((i * 7919) % batch)) bad++;
    });
  for (auto &x : th) x.join();
  return bad;
}

// r == b^e mod m against GMP (w limbs each; the exponent too).
bool powm_item_ok(const uint64_t *m, const uint64_t *b, const uint64_t *e, const uint64_t *r, size_t w) {
  mpz_t zb, ze, zm, zr, got;
  mpz_inits(zb, ze, zm, zr, got, nullptr);
  to_z(zm, m, w);
  to_z(zb, b, w);
  to_z(ze, e, w);
  to_z(got, r, w);
  mpz_powm(zr, zb, ze, zm);
  const bool ok = mpz_cmp(zr, got) == 0;
  mpz_clears(zb, ze, zm, zr, got, nullptr);
  return ok;
}

// A w-limb modulus with its top bit set (odd, or even for the Barrett kernels) and rows of
// bases below it and random full-length exponents, grown on demand: ensure(n) gives at least n
// rows (the rows already there stay as they are). trim(ebits): exponents of exactly ebits bits.
struct PowmRows {
  std::mt19937_64 &rng;
  size_t w;
  int ebits = 0;  // 0: full length
  std::vector<uint64_t> m, base, e, r;
  PowmRows(std::mt19937_64 &g, size_t width, bool even = false) : rng(g), w(width), m(width) {
    for (auto &x : m) x = rng();
    m[0] = even ? m[0] & ~1ull : m[0] | 1;
    m[w - 1] |= 1ull << 63;
  }
  void ensure(size_t n) {
    size_t old = base.size() / w;
    if (n <= old) return;
    base.resize(n * w), e.resize(n * w), r.resize(n * w);
    for (size_t i = old * w; i < n * w; i++) base[i] = rng(), e[i] = rng();
    for (size_t i = old; i < n; i++) {
      base[i * w + w - 1] &= ~(1ull << 63);  // < m
      if (ebits == 0) continue;
      uint64_t *ei = &e[i * w];  // exactly ebits bits
      for (size_t l = 0; l < w; l++)
        if ((int)(64 * l) >= ebits) ei[l] = 0;
        else if ((int)(64 * l + 64) > ebits) ei[l] &= ~0ull >> (64 * l + 64 - ebits);
      ei[(ebits - 1) / 64] |= 1ull << ((ebits - 1) % 64);
    }
  }
};

struct Config {
  std::string name;  // cuda, cuda-tpi4, cuda-mont1, cuda-fixed, cpu, auto
  int tpi;           // GPU threads per item (0 for cpu/auto)
  int backend;       // -1: direct GPU call; else the batch API backend
  int mont = -1;     // powm: Options::mont_variant (cuda-mont<V>)
  bool fixed = false;  // powm: Options::fixed_window (cuda-fixed: fixed windows, variable time)
  int mk = 0, mt = 0;  // modmul block kernel: Options::modmul_k / modmul_threads (cuda-k<K>-t<T>)
};

std::vector<Config> configs(int tpi_default, const std::vector<int> &tpis, bool cpu, bool default_only) {
  std::vector<Config> v{{"cuda", tpi_default, -1}};
  for (int t : tpis)
    if (t != tpi_default && !default_only) v.push_back({"cuda-tpi" + std::to_string(t), t, -1});
  if (cpu) {
    v.push_back({"cpu", 0, MPB_BACKEND_CPU});
    v.push_back({"auto", 0, MPB_BACKEND_AUTO});
  }
  return v;
}

} // namespace

int main(int argc, char **argv) {
  mpb::gpu::variants::install();  // the comparison kernels (rows cuda-mont<V>, cuda-fixed)
  std::string out = "bench/results";
  size_t max_batch = (size_t)1 << 20, min_batch = 1, check = 2000;
  double cap = 2.0;
  bool cpu = true, default_only = false;
  int reps = 1;
  std::vector<int> bits_list = {1024, 2048, 4096, 8192};
  std::set<std::string> ops = {"powm", "powm_ct", "powm_even", "rsa_crt", "mul", "modmul", "gf2x"};
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else if (!std::strcmp(argv[i], "--max-batch") && i + 1 < argc) max_batch = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--min-batch") && i + 1 < argc) min_batch = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--check") && i + 1 < argc) check = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--cap") && i + 1 < argc) cap = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-cpu")) cpu = false;
    else if (!std::strcmp(argv[i], "--default-mappings")) default_only = true;
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--bits") && i + 1 < argc) {
      bits_list.clear();
      for (char *s = argv[++i]; *s;) {
        bits_list.push_back((int)std::strtol(s, &s, 10));
        if (*s == ',') s++;
      }
    } else if (!std::strcmp(argv[i], "--ops") && i + 1 < argc) {
      ops.clear();
      std::string s = argv[++i];
      for (size_t a = 0, b; a <= s.size(); a = b + 1) {
        b = s.find(',', a);
        if (b == std::string::npos) b = s.size();
        ops.insert(s.substr(a, b - a));
      }
    } else {
      std::fprintf(stderr, "usage: bench_gpu [--out DIR] [--min-batch N] [--max-batch N] [--check N] [--cap S] [--bits L] [--ops L (powm,powm_ct,powm_even,rsa_crt,mul,modmul,gf2x,powm_window,powm_ct_win)] [--no-cpu]"
                           " [--default-mappings] [--reps N]\n");
      return 2;
    }
  }
  char why[200] = {0}, desc[300] = {0};
  if (mpb::gpu::device_count(why, sizeof why) == 0) {
    std::fprintf(stderr, "bench_gpu: no usable CUDA device (%s); no GPU figure measured\n", why);
    return 2;
  }
  mpb::gpu::device_description(0, desc, sizeof desc);
  int sms = 0;
  double ghz = 0;
  mpb::gpu::device_sm_clock(0, &sms, &ghz);
  if (ghz <= 0) ghz = 1.98;
  std::printf("device: %s; %d SMs at %.2f GHz\n", desc, sms, ghz);

  mpb_ctx *ctx = nullptr;
  if (mpb_ctx_create(&ctx) != MPB_OK) return 1;
  std::mt19937_64 rng(7);
  std::vector<Row> rows;
  std::vector<size_t> batches;
  for (size_t b = 1; b <= max_batch; b *= 4)
    if (b >= min_batch) batches.push_back(b);
  if (batches.empty() || batches.back() != max_batch) batches.push_back(max_batch);

  // The JSON is rewritten after every measured point, so a run cut short (the device tool
  // stops a command after 10 minutes) still leaves everything measured so far.
  const std::string date = mpbench::today(), commit = mpbench::commit();
  const std::string json_path = out + "/gpu-" + date + "-" + commit + ".json";
  char drv[32] = "?", rt[32] = "?";
  mpb::gpu::device_versions(drv, rt, sizeof drv);
  const std::string host = mpbench::machine();
  auto write_json = [&] {
    std::ofstream js(json_path + ".tmp");
    js << "{\n  \"device\": \"" << desc << "\",\n  \"driver\": \"" << drv << "\",\n  \"cuda\": \"" << rt
       << "\",\n  \"commit\": \"" << commit << "\",\n  \"date\": \"" << date << "\",\n  \"host\": \""
       << host << "\",\n  \"host_threads\": " << std::max(1u, std::thread::hardware_concurrency())
       << ",\n  \"sms\": " << sms << ",\n  \"sm_ghz\": " << mpbench::fmt(ghz, 3)
       << ",\n  \"results\": [\n";
    for (size_t i = 0; i < rows.size(); i++) {
      auto &r = rows[i];
      js << "    {\"op\": \"" << r.op << "\", \"bits\": " << r.bits << ", \"batch\": " << r.batch
         << ", \"backend\": \"" << r.backend << "\", \"tpi\": " << r.tpi
         << ", \"items_per_s\": " << mpbench::fmt(r.items_per_s, 1) << ", \"items_checked\": " << r.checked
         << ", \"mismatches\": " << r.mismatches << ", \"bound_pct\": " << mpbench::fmt(r.bound_pct, 2)
         << (r.chose.empty() ? "" : ", \"chose\": \"" + r.chose + "\"") << "}"
         << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    js << "  ]\n}\n";
    js.close();
    std::rename((json_path + ".tmp").c_str(), json_path.c_str());
  };

  // The configurations of one operation and size, measured together: for each batch size, `reps`
  // rounds in which every configuration runs once in turn (so that the host's load changes hit
  // them alike: the CPU / AUTO / GPU rows are compared with each other), each keeping its best
  // time; a configuration is recorded (and its output checked) right after its last run at that
  // batch, and stops growing its batch once that best took longer than `cap` (a GPU run's time
  // stays flat until the device is full, so the time itself decides, not its extrapolation).
  // add(run, record) queues one configuration: run(batch) returns the seconds taken (< 0 on
  // failure: the configuration stops); flush() measures the queued ones.
  struct Series {
    std::function<double(size_t)> run;
    std::function<void(size_t, double)> record;
  };
  std::vector<Series> pending;
  auto add = [&](std::function<double(size_t)> run, std::function<void(size_t, double)> record) {
    pending.push_back({std::move(run), std::move(record)});
  };
  auto flush = [&] {
    std::vector<char> live(pending.size(), 1);
    for (size_t batch : batches) {
      if (std::find(live.begin(), live.end(), 1) == live.end()) break;
      std::vector<double> best(pending.size(), -1.0);
      std::vector<char> done(pending.size(), 0);
      // one untimed run first (the first configuration of a batch otherwise pays for the GPU
      // clocking up and the host threads waking after GMP's check), and each round starts one
      // configuration further on (none always runs right after a GPU call, or after the CPU)
      for (size_t k = 0; k < pending.size(); k++)
        if (live[k]) {
          pending[k].run(batch);
          break;
        }
      const size_t np = pending.size();
      for (int round = 0; round < reps; round++)
        for (size_t kk = 0; kk < np; kk++) {
          const size_t k = (kk + (size_t)round) % np;
          if (!live[k] || done[k]) continue;
          const double dt = pending[k].run(batch);
          if (dt < 0) {
            live[k] = 0;
            continue;
          }
          best[k] = best[k] < 0 ? dt : std::min(best[k], dt);
          if (round + 1 == reps || best[k] >= cap / 2) {  // its last run at this batch: r holds its output
            done[k] = 1;
            pending[k].record(batch, best[k]);
            write_json();
            if (best[k] > cap) live[k] = 0;
          }
        }
    }
    pending.clear();
  };

  // RSA first: a run cut short by the device tool's 10-minute limit keeps the headline rows.
  // ---- RSA private key by CRT, one key: RSA-1024 .. RSA-8192 ----
  if (ops.count("rsa_crt"))
    for (int bits : bits_list) {
      const size_t w = bits / 64, hw = w / 2;
      if (!mpb::gpu::rsa_half_width_supported(hw)) continue;
      gmp_randstate_t rs;
      gmp_randinit_default(rs);
      gmp_randseed_ui(rs, (unsigned long)bits);
      const mpbench::RsaKey key(rs, bits);
      mpz_srcptr p = key.p, q = key.q, n = key.n, e = key.e, dp = key.dp, dq = key.dq, qi = key.qinv;
      auto vn = limbs(n, w), vp = limbs(p, hw), vq = limbs(q, hw), vdp = limbs(dp, hw), vdq = limbs(dq, hw),
           vqi = limbs(qi, hw);
      std::vector<uint64_t> c, r;
      auto ensure = [&](size_t k) {
        size_t old = c.size() / w;
        if (k <= old) return;
        c.resize(k * w), r.resize(k * w);
        for (size_t i = old * w; i < k * w; i++) c[i] = rng();
        for (size_t i = old; i < k; i++) c[i * w + w - 1] >>= 2;  // < n (n has its top two bits set)
      };
      std::vector<int> tpis;
      for (int tp : {1, 2, 4, 8, 16, 32})
        if (mpb::gpu::rsa_tpi(hw, tp) == tp) tpis.push_back(tp);
      for (const Config &cf : configs(mpb::gpu::rsa_tpi(hw, 0), tpis, cpu, default_only)) {
        add(
            [&, cf](size_t batch) -> double {
              ensure(batch);
              return timed_run("rsa_crt", bits, cf.name.c_str(), why, [&]() -> int {
                if (cf.backend < 0) {
                  mpb::gpu::Options o;
                  o.tpi = cf.tpi;
                  return mpb::gpu::rsa_crt(r.data(), c.data(), vp.data(), vq.data(), vdp.data(), vdq.data(),
                                           vqi.data(), w, hw, 1, batch, o, why, sizeof why);
                } else {
                  mpb_ctx_set_constant_time(ctx, MPB_CT_DEFAULT);
                  mpb_ctx_set_backend(ctx, cf.backend);
                  return mpb_batch_rsa_crt(ctx, r.data(), c.data(), vn.data(), vp.data(), vq.data(), vdp.data(),
                                           vdq.data(), vqi.data(), w, hw, 1, batch, &g_info);
                }
              });
            },
            [&, cf](size_t batch, double dt) {
              // out^e = c (mod n) with out < n pins out = c^d: cheap enough to check many
              size_t nc = std::min(batch, check);
              size_t bad = parallel_check(batch, nc, [&](size_t j) {
                mpz_t zc, zo, back;
                mpz_inits(zc, zo, back, nullptr);
                to_z(zc, &c[j * w], w);
                to_z(zo, &r[j * w], w);
                mpz_powm_ui(back, zo, 65537, n);
                bool ok = mpz_cmp(zo, n) < 0 && mpz_cmp(back, zc) == 0;
                mpz_clears(zc, zo, back, nullptr);
                return ok;
              });
              double ips = batch / dt;
              double bound = powm_bound(sms, ghz, bits / 64, bits / 2, 5) / 2;
              rows.push_back({"rsa_crt", cf.name, bits, cf.tpi, batch, ips, nc, bad,
                              cf.backend < 0 ? 100.0 * ips / bound : 0}); mark_auto(rows);
              std::printf("rsa_crt  %5d bits batch %8zu %-10s %12.0f items/s  %5.1f%% of bound  checked %zu mismatches %zu\n",
                          bits, batch, cf.name.c_str(), ips, rows.back().bound_pct, nc, bad);
              std::fflush(stdout);
            });
      }
      flush();
      gmp_randclear(rs);
    }

  // ---- modular exponentiation: shared modulus, full-length per-item exponents ----
  for (const char *op : {"powm", "powm_ct", "powm_even"}) {
    if (!ops.count(op)) continue;
    const bool ct = !std::strcmp(op, "powm_ct");
    const bool even = !std::strcmp(op, "powm_even");
    for (int bits : bits_list) {
      const size_t w = bits / 64;
      if (!mpb::gpu::powm_width_supported(w)) continue;
      PowmRows rows_(rng, w, even);  // (even: the Barrett kernels)
      std::vector<uint64_t> &m = rows_.m, &base = rows_.base, &e = rows_.e, &r = rows_.r;
      auto ensure = [&](size_t n) { rows_.ensure(n); };
      std::vector<int> tpis;
      for (int t : {1, 2, 4, 8, 16, 32})
        if (mpb::gpu::powm_tpi(w, t) == t) tpis.push_back(t);
      // the library's mapping for the call: even moduli have their own (cuda/tuning.h)
      const int tpi0 = mpb::gpu::powm_tpi(w, even ? mpb::tuning::gpu_powm_even_tpi(w) : 0);
      auto cfs = configs(tpi0, tpis, cpu, default_only);
      // the other Montgomery arithmetics of the one-thread kernels, and (variable time) fixed
      // windows next to the sliding ones; a combination without a kernel is skipped
      for (int v = 0; v < 3 && !even && !default_only; v++)  // (the Barrett kernels have one arithmetic)
        if (v != mpb::tuning::GPU_POWM_MONT && mpb::gpu::powm_tpi(w, 1) == 1)
          cfs.push_back({"cuda-mont" + std::to_string(v), 1, -1, v, false});
      if (!ct && !even && !default_only) cfs.push_back({"cuda-fixed", tpi0, -1, -1, true});
      for (const Config &cf : cfs) {
        add(
            [&, cf](size_t batch) -> double {
              ensure(batch);
              return timed_run(op, bits, cf.name.c_str(), why, [&]() -> int {
                if (cf.backend < 0) {
                  mpb::gpu::Options o;
                  o.constant_time = ct;
                  o.tpi = cf.tpi;
                  o.mont_variant = cf.mont;
                  o.fixed_window = cf.fixed;
                  return mpb::gpu::powm(r.data(), base.data(), e.data(), w, batch, m.data(), 1, w, batch, o, why, sizeof why);
                } else {
                  mpb_ctx_set_constant_time(ctx, ct ? MPB_CT_ON : MPB_CT_OFF);
                  mpb_ctx_set_backend(ctx, cf.backend);
                  return mpb_batch_powm(ctx, r.data(), base.data(), e.data(), w, batch, m.data(), 1, w, batch, &g_info);
                }
              });
            },
            [&, cf](size_t batch, double dt) {
              // GMP's check of 8192-bit exponentiations is slow: fewer samples for large sizes
              size_t nc = std::min(batch, std::max<size_t>(16, check * 1024 / bits * 1024 / bits));
              size_t bad = parallel_check(batch, nc, [&](size_t j) {
                return powm_item_ok(m.data(), &base[j * w], &e[j * w], &r[j * w], w);
              });
              double ips = batch / dt;
              double bound = powm_bound(sms, ghz, bits / 32, bits, 5);
              rows.push_back({op, cf.name, bits, cf.tpi, batch, ips, nc, bad, cf.backend < 0 ? 100.0 * ips / bound : 0}); mark_auto(rows);
              std::printf("%-8s %5d bits batch %8zu %-10s %12.0f items/s  %5.1f%% of bound  checked %zu mismatches %zu\n",
                          op, bits, batch, cf.name.c_str(), ips, rows.back().bound_pct, nc, bad);
              std::fflush(stdout);
            });
      }
      flush();
    }
  }

  // ---- sliding windows (variable time) by exponent length: op powm_slide_e<E> (E exponent bits,
  // the same for every item), the library's width by the length (row cuda) against every forced
  // width (cuda-w<K>, Options::window), the library's mapping; what sets cuda/tuning.h's
  // GPU_SLIDE_W*_MAX_BITS ----
  if (ops.count("powm_window"))
    for (int bits : bits_list) {
      const size_t w = bits / 64;
      if (!mpb::gpu::powm_width_supported(w)) continue;
      const std::vector<uint64_t> m = PowmRows(rng, w).m;
      const int tpi0 = mpb::gpu::powm_tpi(w, 0);
      for (int ebits : {4, 8, 12, 16, 24, 32, 48, 64, 80, 112, 160, 240, 352, 512, 672, 1024, 1792, 2048, 4096, 8192}) {
        if (ebits > bits) break;
        const std::string op = "powm_slide_e" + std::to_string(ebits);
        PowmRows rows_(rng, w);
        rows_.m = m;
        rows_.ebits = ebits;
        std::vector<uint64_t> &base = rows_.base, &e = rows_.e, &r = rows_.r;
        auto ensure = [&](size_t n) { rows_.ensure(n); };
        for (int win = 0; win <= 6; win++) {  // (the tables hold windows of up to 6 bits from 1024 bits)
          const std::string name = win ? "cuda-w" + std::to_string(win) : "cuda";
          add(
              [&, win, name, op](size_t batch) -> double {
                ensure(batch);
                return timed_run(op.c_str(), bits, name.c_str(), why, [&]() -> int {
                  mpb::gpu::Options o;
                  o.constant_time = false;
                  o.tpi = tpi0;
                  o.window = win;
                  return mpb::gpu::powm(r.data(), base.data(), e.data(), w, batch, m.data(), 1, w, batch, o, why,
                                        sizeof why);
                });
              },
              [&, name, op](size_t batch, double dt) {
                size_t nc = std::min<size_t>(batch, 64);
                size_t bad = parallel_check(batch, nc, [&](size_t j) {
                  return powm_item_ok(m.data(), &base[j * w], &e[j * w], &r[j * w], w);
                });
                rows.push_back({op, name, bits, tpi0, batch, batch / dt, nc, bad, 0});
                std::printf("%-16s %5d bits batch %8zu %-8s %12.0f items/s  checked %zu mismatches %zu\n", op.c_str(),
                            bits, batch, name.c_str(), batch / dt, nc, bad);
                std::fflush(stdout);
              });
        }
        flush();
      }
    }

  // ---- constant-time fixed windows by width: op powm_ct_win (full exponents, one shared odd
  // modulus), every width 3..6 (cuda-t<T>-w<K>; the library's own width is its kernel, the others
  // the comparison kernels built with MPB_CUDA_TUNING_SHAPES) at the powm mapping for the size and
  // at RSA's for a prime of that size; what sets cuda/tuning.h's GPU_POWM_WINDOW_SMALL /
  // GPU_POWM_WINDOW (RSA's halves are these exponentiations) ----
  if (ops.count("powm_ct_win"))
    for (int bits : bits_list) {
      const size_t w = bits / 64;
      if (!mpb::gpu::powm_width_supported(w)) continue;
      PowmRows rows_(rng, w);
      std::vector<uint64_t> &m = rows_.m, &base = rows_.base, &e = rows_.e, &r = rows_.r;
      auto ensure = [&](size_t n) { rows_.ensure(n); };
      std::set<int> tpis = {mpb::gpu::powm_tpi(w, 0)};
      const int rsa_t = mpb::gpu::rsa_half_width_supported(w) ? mpb::gpu::rsa_tpi(w, 0) : 0;
      if (rsa_t > 0 && mpb::gpu::powm_tpi(w, rsa_t) == rsa_t) tpis.insert(rsa_t);
      for (int tp : tpis)
        for (int win = 3; win <= 6; win++) {
          const std::string name = "cuda-t" + std::to_string(tp) + "-w" + std::to_string(win);
          add(
              [&, tp, win, name](size_t batch) -> double {
                ensure(batch);
                return timed_run("powm_ct_win", bits, name.c_str(), why, [&]() -> int {
                  mpb::gpu::Options o;
                  o.constant_time = true;
                  o.tpi = tp;
                  o.fixed_bits = win;
                  return mpb::gpu::powm(r.data(), base.data(), e.data(), w, batch, m.data(), 1, w, batch, o, why,
                                        sizeof why);
                });
              },
              [&, tp, win, name](size_t batch, double dt) {
                size_t nc = std::min(batch, std::max<size_t>(16, check * 256 / bits * 1024 / bits));
                size_t bad = parallel_check(batch, nc, [&](size_t j) {
                  return powm_item_ok(m.data(), &base[j * w], &e[j * w], &r[j * w], w);
                });
                const double ips = batch / dt, bound = powm_bound(sms, ghz, bits / 32, bits, win);
                rows.push_back({"powm_ct_win", name, bits, tp, batch, ips, nc, bad, 100.0 * ips / bound});
                std::printf("powm_ct_win %5d bits batch %8zu %-12s %12.0f items/s  %5.1f%% of bound  checked %zu "
                            "mismatches %zu\n",
                            bits, batch, name.c_str(), ips, rows.back().bound_pct, nc, bad);
                std::fflush(stdout);
              });
        }
      flush();
    }

  // ---- products: delayed-carry Comba vs carry chains ----
  if (ops.count("mul"))
    for (int bits : {256, 512, 1024})
      for (int dc = 0; dc < 2; dc++) {
        if (default_only && dc != (int)mpb::tuning::GPU_MUL_DELAYED_CARRY) continue;
        const size_t w = bits / 64;
        std::vector<uint64_t> a, b, r;
        auto ensure = [&](size_t k) {
          size_t old = a.size() / w;
          if (k <= old) return;
          a.resize(k * w), b.resize(k * w), r.resize(k * 2 * w);
          for (size_t i = old * w; i < k * w; i++) a[i] = rng(), b[i] = rng();
        };
        const char *op = dc ? "mul_comba_dc" : "mul_chain";
        // the CPU backend and AUTO through the batch API (rows of the op "mul"), once per size
        std::vector<std::pair<std::string, int>> api;
        if (cpu && dc) api = {{"cpu", MPB_BACKEND_CPU}, {"auto", MPB_BACKEND_AUTO}};
        for (const auto &be : api)
          add(
              [&, be](size_t batch) -> double {
                ensure(batch);
                mpb_ctx_set_backend(ctx, be.second);
                return timed_run("mul", bits, be.first.c_str(), why, [&]() -> int {
                  return mpb_batch_mul(ctx, r.data(), a.data(), b.data(), w, batch, &g_info);
                });
              },
              [&, be](size_t batch, double dt) {
                rows.push_back({"mul", be.first, bits, 0, batch, batch / dt, 0, 0, 0}); mark_auto(rows);
                std::printf("%-12s %5d bits batch %8zu %-5s %12.0f items/s\n", "mul", bits, batch, be.first.c_str(),
                            batch / dt);
              });
        add(
            [&](size_t batch) -> double {
              ensure(batch);
              mpb::gpu::Options o;
              double t0 = now();
              int st = mpb::gpu::mul(r.data(), a.data(), b.data(), w, batch, dc, o, why, sizeof why);
              return st == MPB_OK ? now() - t0 : -1;
            },
            [&](size_t batch, double dt) {
              size_t nc = std::min(batch, check);
              size_t bad = parallel_check(batch, nc, [&](size_t j) {
                mpz_t x, y, z, got;
                mpz_inits(x, y, z, got, nullptr);
                to_z(x, &a[j * w], w);
                to_z(y, &b[j * w], w);
                to_z(got, &r[j * 2 * w], 2 * w);
                mpz_mul(z, x, y);
                bool ok = mpz_cmp(z, got) == 0;
                mpz_clears(x, y, z, got, nullptr);
                return ok;
              });
              rows.push_back({op, "cuda", bits, 1, batch, batch / dt, nc, bad, 0}); mark_auto(rows);
              if (dc == (int)mpb::tuning::GPU_MUL_DELAYED_CARRY)  // the kernel the library uses, beside cpu / auto
                rows.push_back({"mul", "cuda", bits, 1, batch, batch / dt, nc, bad, 0}); mark_auto(rows);
              std::printf("%-12s %5d bits batch %8zu cuda %12.0f items/s  checked %zu mismatches %zu\n", op, bits,
                          batch, batch / dt, nc, bad);
            });
        flush();
      }

  // ---- modmul, shared odd modulus: one-thread Montgomery (<= 1024 bits), multipartite block
  // kernel above; cuda direct, and the CPU backend and AUTO through the batch API ----
  if (ops.count("modmul"))
    for (int bits : {256, 512, 1024, 2048, 4096, 8192}) {
      const size_t w = bits / 64;
      std::vector<uint64_t> m(w), a, b, r;
      for (auto &x : m) x = rng();
      m[0] |= 1;
      m[w - 1] |= 1ull << 63;
      auto ensure = [&](size_t k) {
        size_t old = a.size() / w;
        if (k <= old) return;
        a.resize(k * w), b.resize(k * w), r.resize(k * w);
        for (size_t i = old * w; i < k * w; i++) a[i] = rng(), b[i] = rng();
        for (size_t i = old; i < k; i++) a[i * w + w - 1] &= ~(1ull << 63), b[i * w + w - 1] &= ~(1ull << 63);  // < m
      };
      const char *op = bits > 1024 ? "modmul_multipartite" : "modmul";
      auto cfs = configs(1, {}, cpu, default_only);
      // the block kernel's other shapes: operands in k parts, T threads per item
      if (bits > 1024 && !default_only)
        for (int k : {4, 8, 16})
          for (int t : {32, 64, 128, 256})
            if (k != mpb::tuning::GPU_MODMUL_K || t != mpb::tuning::GPU_MODMUL_BLOCK_THREADS) {
              Config c{"cuda-k" + std::to_string(k) + "-t" + std::to_string(t), 1, -1};
              c.mk = k, c.mt = t;
              cfs.push_back(c);
            }
      for (const Config &cf : cfs) {
        add(
            [&, cf](size_t batch) -> double {
              ensure(batch);
              return timed_run(op, bits, cf.name.c_str(), why, [&]() -> int {
                if (cf.backend < 0) {
                  mpb::gpu::Options o;
                  o.modmul_k = cf.mk;
                  o.modmul_threads = cf.mt;
                  return mpb::gpu::modmul(r.data(), a.data(), b.data(), m.data(), 1, w, batch, o, why, sizeof why);
                } else {
                  mpb_ctx_set_backend(ctx, cf.backend);
                  return mpb_batch_modmul(ctx, r.data(), a.data(), b.data(), m.data(), 1, w, batch, &g_info);
                }
              });
            },
            [&, cf](size_t batch, double dt) {
              size_t nc = std::min(batch, check);
              size_t bad = parallel_check(batch, nc, [&](size_t j) {
                mpz_t x, y, z, n, got;
                mpz_inits(x, y, z, n, got, nullptr);
                to_z(n, m.data(), w);
                to_z(x, &a[j * w], w);
                to_z(y, &b[j * w], w);
                to_z(got, &r[j * w], w);
                mpz_mul(z, x, y);
                mpz_mod(z, z, n);
                bool ok = mpz_cmp(z, got) == 0;
                mpz_clears(x, y, z, n, got, nullptr);
                return ok;
              });
              rows.push_back({op, cf.name, bits, cf.backend < 0 ? 1 : 0, batch, batch / dt, nc, bad, 0}); mark_auto(rows);
              std::printf("%-19s %5d bits batch %8zu %-5s %12.0f items/s  checked %zu mismatches %zu\n", op, bits,
                          batch, cf.name.c_str(), batch / dt, nc, bad);
            });
      }
      flush();
    }

  // ---- GF(2)[x]: products and squares (bits = width * 64), products mod the NIST polynomials
  // (bits = field degree; sparse-fold kernels); cuda direct and the CPU backend, sampled items
  // checked against the CPU batch ----
  if (ops.count("gf2x")) {
    struct G { const char *op; int bits; size_t w; std::vector<int> f; };  // f: exponents of f
    const std::vector<G> gops = {
        {"gf2x_mul", 128, 2, {}}, {"gf2x_mul", 192, 3, {}}, {"gf2x_mul", 256, 4, {}}, {"gf2x_mul", 576, 9, {}}, {"gf2x_mul", 1024, 16, {}},
        {"gf2x_sqr", 256, 4, {}}, {"gf2x_sqr", 576, 9, {}},
        {"gf2x_mulmod", 163, 3, {163, 7, 6, 3, 0}}, {"gf2x_mulmod", 233, 4, {233, 74, 0}},
        {"gf2x_mulmod", 283, 5, {283, 12, 7, 5, 0}}, {"gf2x_mulmod", 409, 7, {409, 87, 0}},
        {"gf2x_mulmod", 571, 9, {571, 10, 5, 2, 0}}};
    for (const G &g : gops) {
      const size_t w = g.w, ow = g.f.empty() ? 2 * w : w;
      const bool sq = g.op[5] == 's', mm = !g.f.empty();
      std::vector<uint64_t> f(w, 0), a, b, r;
      for (int e : g.f) f[e / 64] |= 1ull << (e % 64);
      auto ensure = [&](size_t k) {
        size_t old = a.size() / w;
        if (k <= old) return;
        a.resize(k * w), b.resize(k * w), r.resize(k * ow);
        for (size_t i = old * w; i < k * w; i++) {
          a[i] = rng(), b[i] = rng();
          if (mm) {  // below x^m: limb l keeps its bits under g.bits
            const size_t bit = 64 * (i % w);
            const uint64_t keep = bit >= (size_t)g.bits ? 0 : bit + 64 <= (size_t)g.bits ? ~0ull : ~0ull >> (bit + 64 - g.bits);
            a[i] &= keep, b[i] &= keep;
          }
        }
      };
      // (info: the call's report; the check's CPU call passes its own, so g_info keeps the
      // timed call's choice for mark_auto)
      auto run_api = [&](uint64_t *rr, const uint64_t *x, const uint64_t *y, size_t n, mpb_call_info *info) {
        if (mm) return mpb_batch_gf2x_mulmod(ctx, rr, x, y, f.data(), w, n, info);
        return sq ? mpb_batch_gf2x_sqr(ctx, rr, x, w, n, info) : mpb_batch_gf2x_mul(ctx, rr, x, y, w, n, info);
      };
      // cuda direct (the tuned plan, then, unless --default-mappings, the plan alternatives built
      // with MPB_CUDA_TUNING_SHAPES: cuda-<name>); cpu and auto via the batch API
      struct B { std::string name; int be, variant; };
      std::vector<B> bes = {{"cuda", 0, 0}};
      const int gop = sq ? 1 : mm ? 2 : 0;
      for (int v = 1; v <= mpb::gpu::gf2x_variant_count() && !default_only; v++)
        if (const char *vn = mpb::gpu::gf2x_variant_name(gop, v)) bes.push_back({std::string("cuda-") + vn, 0, v});
      if (cpu) bes.push_back({"cpu", 1, 0}), bes.push_back({"auto", 2, 0});
      for (const B &bb : bes) {
        const int be = bb.be, variant = bb.variant;
        const std::string bname_s = bb.name;
        add(
            [&, be, variant, bname_s](size_t batch) -> double {
              const char *bname = bname_s.c_str();
              ensure(batch);
              mpb_ctx_set_backend(ctx, be == 2 ? MPB_BACKEND_AUTO : MPB_BACKEND_CPU);
              mpb::gpu::Options o;
              o.gf2x_variant = variant;
              return timed_run(g.op, g.bits, bname, why, [&]() -> int {
                if (be >= 1) return run_api(r.data(), a.data(), b.data(), batch, &g_info);
                else if (mm) return mpb::gpu::gf2x_mulmod(r.data(), a.data(), b.data(), f.data(), w, batch, o, why, sizeof why);
                else if (sq) return mpb::gpu::gf2x_sqr(r.data(), a.data(), w, batch, o, why, sizeof why);
                else return mpb::gpu::gf2x_mul(r.data(), a.data(), b.data(), w, batch, o, why, sizeof why);
              });
            },
            [&, bname_s](size_t batch, double dt) {
              const char *bname = bname_s.c_str();
              size_t nc = std::min(batch, check), bad = 0;
              std::vector<uint64_t> sa(nc * w), sb(nc * w), sr(nc * ow);
              for (size_t i = 0; i < nc; i++) {
                size_t j = (i * 7919) % batch;
                std::memcpy(&sa[i * w], &a[j * w], w * 8);
                std::memcpy(&sb[i * w], &b[j * w], w * 8);
              }
              mpb_ctx_set_backend(ctx, MPB_BACKEND_CPU);
              mpb_call_info check_info;
              if (nc && run_api(sr.data(), sa.data(), sb.data(), nc, &check_info) != MPB_OK) bad = nc;
              for (size_t i = 0; i < nc && !bad; i++)
                if (std::memcmp(&sr[i * ow], &r[((i * 7919) % batch) * ow], ow * 8)) bad++;
              rows.push_back({g.op, bname, g.bits, 1, batch, batch / dt, nc, bad, 0}); mark_auto(rows);
              std::printf("%-11s %5d bits batch %8zu %-5s %12.0f items/s  checked %zu mismatches %zu\n", g.op,
                          g.bits, batch, bname, batch / dt, nc, bad);
            });
      }
      flush();
    }
  }

  // ---- AUTO against the better of CPU and the default GPU mapping; crossovers ----
  std::map<std::tuple<std::string, int, size_t>, std::map<std::string, double>> by;
  std::map<std::tuple<std::string, int, size_t>, std::string> chose;
  for (auto &r : rows) {
    by[{r.op, r.bits, r.batch}][r.backend] = r.items_per_s;
    if (!r.chose.empty()) chose[{r.op, r.bits, r.batch}] = r.chose;
  }
  double worst = 1e9, worst_choice = 1e9;
  std::string worst_at = "-", worst_choice_at = "-";
  size_t points = 0, below = 0, below_choice = 0;
  std::map<std::pair<std::string, int>, size_t> crossover;
  for (auto &kv : by) {
    auto &m = kv.second;
    if (m.count("cpu") && m.count("cuda")) {
      auto key = std::make_pair(std::get<0>(kv.first), std::get<1>(kv.first));
      if (m["cuda"] > m["cpu"] && !crossover.count(key)) crossover[key] = std::get<2>(kv.first);
      if (m.count("auto")) {
        double ratio = m["auto"] / std::max(m["cpu"], m["cuda"]);
        points++;
        if (ratio < 0.909) below++;
        // the choice alone: the rate of the row AUTO's backend has (the same code, timed in the
        // same rounds), against the better one; free of the noise between two timings of it
        if (chose.count(kv.first)) {
          const double c = m[chose[kv.first]] / std::max(m["cpu"], m["cuda"]);
          if (c < 0.909) below_choice++;
          if (c < worst_choice) {
            worst_choice = c;
            worst_choice_at = std::get<0>(kv.first) + " " + std::to_string(std::get<1>(kv.first)) + " bits batch " +
                              std::to_string(std::get<2>(kv.first)) + " (chose " + chose[kv.first] + ")";
          }
        }
        if (ratio < worst) {
          worst = ratio;
          worst_at = std::get<0>(kv.first) + " " + std::to_string(std::get<1>(kv.first)) + " bits batch " +
                     std::to_string(std::get<2>(kv.first));
        }
      }
    }
  }
  if (worst < 1e9)
    std::printf("AUTO: worst throughput / best backend = %.3f (%s); goal >= 0.909 (at most 10%% slower); %zu of %zu"
                " points below\n", worst, worst_at.c_str(), below, points);
  if (worst_choice < 1e9)
    std::printf("AUTO's choice: worst rate of the chosen backend's row / best = %.3f (%s); %zu of %zu points below"
                " 0.909\n", worst_choice, worst_choice_at.c_str(), below_choice, points);
  const unsigned host_threads = std::max(1u, std::thread::hardware_concurrency());
  for (auto &kv : crossover)
    std::printf("crossover: %s %d bits: GPU faster than CPU from batch %zu (%.1f items per CPU thread, %u threads;"
                " AUTO: cpu/batch/tuning.h GPU_FIT_*, bench/gpu_fit.py)\n",
                kv.first.first.c_str(), kv.first.second, kv.second, (double)kv.second / host_threads, host_threads);

  write_json();
  std::printf("wrote %s\n", json_path.c_str());
  size_t bad = 0;
  for (auto &r : rows) bad += r.mismatches;
  mpb_ctx_destroy(ctx);
  return bad ? 1 : 0;
}
