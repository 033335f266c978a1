// bench_gpu: the CUDA backend's throughput sweep (items/s over operand sizes and batch sizes,
// next to the CPU backend and AUTO through the batch API), every result sampled against GMP.
// Writes bench/results/gpu-<date>-<commit>.json (device, driver, cuda, commit, date, results
// [{op, bits, batch, backend, items_per_s, items_checked, mismatches, bound_pct}]) and a .md.
//
//   bench_gpu [--out DIR] [--max-batch N] [--check N]
#include <gmp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <mpbatch/batch.h>

#include "../cuda/gpu_backend.h"
#include "common/report.h"

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Row {
  std::string op, backend;
  int bits;
  size_t batch;
  double items_per_s;
  size_t checked, mismatches;
  double bound_pct;  // % of the IMAD bound (0 when not applicable)
};

void to_z(mpz_t z, const uint64_t *p, size_t n) { mpz_import(z, n, -1, 8, 0, 0, p); }
bool eq_z(const mpz_t z, const uint64_t *p, size_t n) {
  mpz_t t;
  mpz_init(t);
  to_z(t, p, n);
  bool r = mpz_cmp(t, z) == 0;
  mpz_clear(t);
  return r;
}

// IMAD-bound items/s for a Montgomery exponentiation with an n-word modulus and ebits
// exponent bits, window w: 2 IMAD per 32x32 product, 2 n^2 products per multiplication.
double powm_bound(int sms, double ghz, int nwords, int ebits, int w) {
  double mults = ebits + (double)ebits / w + (1 << w);
  double imads = mults * 2.0 * nwords * nwords * 2.0;
  return sms * 64.0 * ghz * 1e9 / imads;
}

} // namespace

int main(int argc, char **argv) {
  std::string out = "bench/results";
  size_t max_batch = (size_t)1 << 20, check = 2000;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else if (!std::strcmp(argv[i], "--max-batch") && i + 1 < argc) max_batch = std::strtoull(argv[++i], nullptr, 0);
    else if (!std::strcmp(argv[i], "--check") && i + 1 < argc) check = std::strtoull(argv[++i], nullptr, 0);
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
  auto batches = [&] {
    std::vector<size_t> v;
    for (size_t b = 1; b <= max_batch; b *= 4) v.push_back(b);
    return v;
  }();

  // ---- modular exponentiation, shared modulus, full-length exponents, 512 and 1024 bits ----
  for (int bits : {512, 1024}) {
    const size_t w = bits / 64;
    std::vector<uint64_t> m(w);
    for (auto &x : m) x = rng();
    m[0] |= 1;
    m[w - 1] |= 1ull << 63;
    size_t nmax = batches.back();
    std::vector<uint64_t> base(nmax * w), e(nmax * w), r(nmax * w);
    for (auto &x : base) x = rng();
    for (size_t i = 0; i < nmax; i++) base[i * w + w - 1] &= ~(1ull << 63);  // < m
    for (auto &x : e) x = rng();
    for (int ct = 0; ct < 2; ct++)
      for (size_t batch : batches)
        for (int be = 0; be < 3; be++) {  // cuda direct, cpu via batch API, auto
          const char *bname = be == 0 ? "cuda" : be == 1 ? "cpu" : "auto";
          if (be > 0 && batch > ((size_t)1 << 16)) continue;  // the CPU at 2^20 takes minutes
          mpb_ctx_set_constant_time(ctx, ct ? MPB_CT_ON : MPB_CT_OFF);
          mpb_ctx_set_backend(ctx, be == 1 ? MPB_BACKEND_CPU : MPB_BACKEND_AUTO);
          double t0 = now();
          int st;
          if (be == 0) {
            mpb::gpu::Options o;
            o.constant_time = ct;
            st = mpb::gpu::powm(r.data(), base.data(), e.data(), w, batch, m.data(), 1, w, batch, o, why, sizeof why);
          } else {
            st = mpb_batch_powm(ctx, r.data(), base.data(), e.data(), w, batch, m.data(), 1, w, batch, nullptr);
          }
          double dt = now() - t0;
          if (st != MPB_OK) {
            std::fprintf(stderr, "powm %d %s failed: %d %s\n", bits, bname, st, why);
            continue;
          }
          size_t nc = std::min(batch, check), bad = 0;
          mpz_t zb, ze, zm, zr;
          mpz_inits(zb, ze, zm, zr, nullptr);
          to_z(zm, m.data(), w);
          for (size_t i = 0; i < nc; i++) {
            size_t j = (i * 7919) % batch;
            to_z(zb, &base[j * w], w);
            to_z(ze, &e[j * w], w);
            mpz_powm(zr, zb, ze, zm);
            if (!eq_z(zr, &r[j * w], w)) bad++;
          }
          mpz_clears(zb, ze, zm, zr, nullptr);
          double ips = batch / dt;
          double bound = powm_bound(sms, ghz, bits / 32, bits, bits >= 1024 ? 5 : 4);
          rows.push_back({ct ? "powm_ct" : "powm", bname, bits, batch, ips, nc, bad, be == 0 ? 100.0 * ips / bound : 0});
          std::printf("%-8s %5d bits batch %8zu %-5s %12.0f items/s  checked %zu mismatches %zu\n",
                      rows.back().op.c_str(), bits, batch, bname, ips, nc, bad);
        }
  }

  // ---- RSA private key by CRT, one key, RSA-1024 and RSA-2048 ----
  for (int bits : {1024, 2048}) {
    const size_t w = bits / 64, hw = w / 2;
    mpz_t p, q, n, e, d, t, phi, dp, dq, qi;
    mpz_inits(p, q, n, e, d, t, phi, dp, dq, qi, nullptr);
    gmp_randstate_t rs;
    gmp_randinit_default(rs);
    do {
      mpz_urandomb(p, rs, bits / 2);
      mpz_setbit(p, bits / 2 - 1);
      mpz_setbit(p, bits / 2 - 2);
      mpz_nextprime(p, p);
      mpz_urandomb(q, rs, bits / 2);
      mpz_setbit(q, bits / 2 - 1);
      mpz_setbit(q, bits / 2 - 2);
      mpz_nextprime(q, q);
      mpz_mul(n, p, q);
    } while (mpz_sizeinbase(n, 2) != (size_t)bits || mpz_sizeinbase(p, 2) != (size_t)bits / 2 ||
             mpz_sizeinbase(q, 2) != (size_t)bits / 2);
    mpz_set_ui(e, 65537);
    mpz_sub_ui(t, p, 1);
    mpz_sub_ui(phi, q, 1);
    mpz_lcm(phi, phi, t);
    mpz_invert(d, e, phi);
    mpz_sub_ui(t, p, 1);
    mpz_mod(dp, d, t);
    mpz_sub_ui(t, q, 1);
    mpz_mod(dq, d, t);
    mpz_invert(qi, q, p);
    auto limbs = [](mpz_t z, size_t k) {
      std::vector<uint64_t> v(k + 4, 0);
      size_t cnt = 0;
      mpz_export(v.data(), &cnt, -1, 8, 0, 0, z);
      v.resize(k);
      return v;
    };
    auto vn = limbs(n, w), vp = limbs(p, hw), vq = limbs(q, hw), vdp = limbs(dp, hw), vdq = limbs(dq, hw),
         vqi = limbs(qi, hw);
    size_t nmax = batches.back();
    std::vector<uint64_t> c(nmax * w), r(nmax * w);
    for (auto &x : c) x = rng();
    for (size_t i = 0; i < nmax; i++) c[i * w + w - 1] >>= 2;  // < n (n has its top two bits set)
    for (size_t batch : batches)
      for (int be = 0; be < 3; be++) {
        const char *bname = be == 0 ? "cuda" : be == 1 ? "cpu" : "auto";
        if (be > 0 && batch > ((size_t)1 << 16)) continue;
        mpb_ctx_set_constant_time(ctx, MPB_CT_DEFAULT);
        mpb_ctx_set_backend(ctx, be == 1 ? MPB_BACKEND_CPU : MPB_BACKEND_AUTO);
        double t0 = now();
        int st;
        if (be == 0) {
          mpb::gpu::Options o;
          st = mpb::gpu::rsa_crt(r.data(), c.data(), vp.data(), vq.data(), vdp.data(), vdq.data(), vqi.data(), w,
                                 hw, 1, batch, o, why, sizeof why);
        } else {
          st = mpb_batch_rsa_crt(ctx, r.data(), c.data(), vn.data(), vp.data(), vq.data(), vdp.data(),
                                 vdq.data(), vqi.data(), w, hw, 1, batch, nullptr);
        }
        double dt = now() - t0;
        if (st != MPB_OK) {
          std::fprintf(stderr, "rsa %d %s failed: %d %s\n", bits, bname, st, why);
          continue;
        }
        size_t nc = std::min(batch, check / 4), bad = 0;
        mpz_t zc, zr;
        mpz_inits(zc, zr, nullptr);
        for (size_t i = 0; i < nc; i++) {
          size_t j = (i * 7919) % batch;
          to_z(zc, &c[j * w], w);
          mpz_powm(zr, zc, d, n);
          if (!eq_z(zr, &r[j * w], w)) bad++;
        }
        mpz_clears(zc, zr, nullptr);
        double ips = batch / dt;
        double bound = powm_bound(sms, ghz, bits / 64, bits / 2, bits >= 2048 ? 5 : 4) / 2;
        rows.push_back({"rsa_crt", bname, bits, batch, ips, nc, bad, be == 0 ? 100.0 * ips / bound : 0});
        std::printf("rsa_crt  %5d bits batch %8zu %-5s %12.0f items/s  checked %zu mismatches %zu\n", bits, batch,
                    bname, ips, nc, bad);
      }
    mpz_clears(p, q, n, e, d, t, phi, dp, dq, qi, nullptr);
    gmp_randclear(rs);
  }

  // ---- products: delayed-carry Comba vs carry chains ----
  for (int bits : {256, 512, 1024})
    for (int dc = 0; dc < 2; dc++) {
      const size_t w = bits / 64;
      size_t nmax = batches.back();
      std::vector<uint64_t> a(nmax * w), b(nmax * w), r(nmax * 2 * w);
      for (auto &x : a) x = rng();
      for (auto &x : b) x = rng();
      for (size_t batch : batches) {
        mpb::gpu::Options o;
        double t0 = now();
        int st = mpb::gpu::mul(r.data(), a.data(), b.data(), w, batch, dc, o, why, sizeof why);
        double dt = now() - t0;
        if (st != MPB_OK) continue;
        size_t nc = std::min(batch, check), bad = 0;
        mpz_t x, y, z;
        mpz_inits(x, y, z, nullptr);
        for (size_t i = 0; i < nc; i++) {
          size_t j = (i * 7919) % batch;
          to_z(x, &a[j * w], w);
          to_z(y, &b[j * w], w);
          mpz_mul(z, x, y);
          if (!eq_z(z, &r[j * 2 * w], 2 * w)) bad++;
        }
        mpz_clears(x, y, z, nullptr);
        rows.push_back({dc ? "mul_comba_dc" : "mul_chain", "cuda", bits, batch, batch / dt, nc, bad, 0});
      }
    }

  // ---- modmul, shared odd modulus: one-thread Montgomery (<= 1024 bits), multipartite block kernel above ----
  for (int bits : {256, 512, 1024, 2048, 4096, 8192}) {
    const size_t w = bits / 64;
    size_t nmax = std::min<size_t>(batches.back(), bits > 1024 ? (size_t)1 << 16 : batches.back());
    std::vector<uint64_t> m(w), a(nmax * w), b(nmax * w), r(nmax * w);
    for (auto &x : m) x = rng();
    m[0] |= 1;
    m[w - 1] |= 1ull << 63;
    for (auto &x : a) x = rng();
    for (auto &x : b) x = rng();
    for (size_t i = 0; i < nmax; i++) a[i * w + w - 1] &= ~(1ull << 63), b[i * w + w - 1] &= ~(1ull << 63);  // < m
    for (size_t batch : batches) {
      if (batch > nmax) break;
      mpb::gpu::Options o;
      double t0 = now();
      int st = mpb::gpu::modmul(r.data(), a.data(), b.data(), m.data(), 1, w, batch, o, why, sizeof why);
      double dt = now() - t0;
      if (st != MPB_OK) continue;
      size_t nc = std::min(batch, check), bad = 0;
      mpz_t x, y, z, n;
      mpz_inits(x, y, z, n, nullptr);
      to_z(n, m.data(), w);
      for (size_t i = 0; i < nc; i++) {
        size_t j = (i * 7919) % batch;
        to_z(x, &a[j * w], w);
        to_z(y, &b[j * w], w);
        mpz_mul(z, x, y);
        mpz_mod(z, z, n);
        if (!eq_z(z, &r[j * w], w)) bad++;
      }
      mpz_clears(x, y, z, n, nullptr);
      rows.push_back({bits > 1024 ? "modmul_multipartite" : "modmul", "cuda", bits, batch, batch / dt, nc, bad, 0});
    }
  }

  // ---- JSON + markdown ----
  std::string date = mpbench::today(), commit = mpbench::commit();
  std::string base = out + "/gpu-" + date + "-" + commit;
  std::ofstream js(base + ".json");
  char drv[32] = "?", rt[32] = "?";
  mpb::gpu::device_versions(drv, rt, sizeof drv);
  js << "{\n  \"device\": \"" << desc << "\",\n  \"driver\": \"" << drv << "\",\n  \"cuda\": \"" << rt
     << "\",\n  \"commit\": \"" << commit << "\",\n  \"date\": \"" << date << "\",\n  \"host\": \""
     << mpbench::machine() << "\",\n  \"results\": [\n";
  for (size_t i = 0; i < rows.size(); i++) {
    auto &r = rows[i];
    js << "    {\"op\": \"" << r.op << "\", \"bits\": " << r.bits << ", \"batch\": " << r.batch
       << ", \"backend\": \"" << r.backend << "\", \"items_per_s\": " << mpbench::fmt(r.items_per_s, 1)
       << ", \"items_checked\": " << r.checked << ", \"mismatches\": " << r.mismatches
       << ", \"bound_pct\": " << mpbench::fmt(r.bound_pct, 2) << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  js << "  ]\n}\n";
  std::printf("wrote %s.json\n", base.c_str());
  size_t bad = 0;
  for (auto &r : rows) bad += r.mismatches;
  mpb_ctx_destroy(ctx);
  return bad ? 1 : 0;
}
