// bench_divgcd: per-item time of the batch gcd, modular inverse (variable time, constant time)
// and division calls beside GMP in the same run, 256..4096 bits.
//   gcd:     mpb_batch_gcd (Lehmer double-digit)     vs mpz_gcd (GMP: Lehmer / subquadratic HGCD)
//   invmod:  mpb_batch_invmod, odd shared modulus   vs mpz_invert
//   invmod even modulus (variable time)             vs mpz_invert
//   invmod constant time (MPB_CT_ON)                vs mpn_sec_invert (GMP's side-channel-silent
//                                                      inverse, bit count 2*bits, as documented)
//   divmod:  full-width a by a shared half-width b  vs mpz_tdiv_qr
// One thread each (the same items, the same order); the time is the minimum over --rounds
// rounds of one batch of --count items (the machine may be shared: minima, not means).
// Output: bench/results/divgcd-<date>.{csv,md}.
//   bench_divgcd [--count 64] [--rounds 15]
#include <gmp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <mpbatch/mpbatch.h>

#include "common/report.h"

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
// minimum seconds of fn() over `rounds` runs (after one warm-up)
double tmin(const std::function<void()> &fn, int rounds) {
  fn();
  double best = 1e30;
  for (int r = 0; r < rounds; r++) {
    double t = now();
    fn();
    t = now() - t;
    if (t < best) best = t;
  }
  return best;
}
void put(std::vector<uint64_t> &rows, size_t i, size_t w, const mpz_t z) {
  size_t cnt = 0;
  std::fill(rows.begin() + i * w, rows.begin() + (i + 1) * w, 0);
  mpz_export(&rows[i * w], &cnt, -1, 8, 0, 0, z);
}
std::string us(double s) { return mpbench::fmt(s * 1e6, 2); }
} // namespace

int main(int argc, char **argv) {
  size_t count = 64;
  int rounds = 15;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--count") && i + 1 < argc) count = (size_t)std::atol(argv[++i]);
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::atoi(argv[++i]);
  }
  gmp_randstate_t rs;
  gmp_randinit_default(rs);
  gmp_randseed_ui(rs, 4242);
  mpb_ctx *ctx;
  if (mpb_ctx_create(&ctx) != MPB_OK) return 1;
  mpb_ctx_set_threads(ctx, 1);
  mpb_ctx_set_backend(ctx, MPB_BACKEND_CPU_SCALAR);

  mpbench::Report rep("divgcd", "bench/results");
  rep.columns({"operation", "bits", "mpbatch us/item", "GMP us/item", "GMP function", "mpbatch / GMP time"});

  for (int bits : {256, 1024, 2048, 4096}) {
    const size_t w = (size_t)bits / 64;
    std::vector<mpz_t> A(count), B(count), R(count), Q(count);
    for (size_t i = 0; i < count; i++) {
      mpz_inits(A[i], B[i], R[i], Q[i], nullptr);
    }
    std::vector<uint64_t> ra(w * count), rb(w * count), rr(w * count), rq(w * count);
    mpb_call_info info;
    auto row = [&](const char *op, double mine, double gmp, const char *fn) {
      rep.row({op, std::to_string(bits), us(mine / count), us(gmp / count), fn, mpbench::fmt(mine / gmp, 2)});
    };
    // ---- gcd: two random full-size values
    for (size_t i = 0; i < count; i++) {
      mpz_urandomb(A[i], rs, bits);
      mpz_urandomb(B[i], rs, bits);
      put(ra, i, w, A[i]);
      put(rb, i, w, B[i]);
    }
    double t_m = tmin([&] { mpb_batch_gcd(ctx, rr.data(), ra.data(), rb.data(), w, count, &info); }, rounds);
    double t_g = tmin([&] { for (size_t i = 0; i < count; i++) mpz_gcd(R[i], A[i], B[i]); }, rounds);
    for (size_t i = 0; i < count; i++) {
      std::vector<uint64_t> one(w);
      put(one, 0, w, R[i]);
      if (!std::equal(one.begin(), one.end(), rr.begin() + i * w)) { std::fprintf(stderr, "gcd mismatch\n"); return 1; }
    }
    row("gcd", t_m, t_g, "mpz_gcd");
    // ---- invmod, odd shared modulus, a < m random (invertible with overwhelming probability)
    mpz_t m;
    mpz_init(m);
    mpz_urandomb(m, rs, bits);
    mpz_setbit(m, bits - 1);
    mpz_setbit(m, 0);
    std::vector<uint64_t> rm(w);
    put(rm, 0, w, m);
    for (size_t i = 0; i < count; i++) {
      do mpz_urandomm(A[i], rs, m); while (!mpz_invert(R[i], A[i], m));
      put(ra, i, w, A[i]);
    }
    for (int ct : {0, 1}) {
      mpb_ctx_set_constant_time(ctx, ct ? MPB_CT_ON : MPB_CT_OFF);
      t_m = tmin([&] { mpb_batch_invmod(ctx, rr.data(), ra.data(), rm.data(), 1, w, count, &info); }, rounds);
      if (info.status != MPB_OK || info.constant_time != ct) { std::fprintf(stderr, "invmod failed\n"); return 1; }
      for (size_t i = 0; i < count; i++) {
        std::vector<uint64_t> one(w);
        put(one, 0, w, R[i]);
        if (!std::equal(one.begin(), one.end(), rr.begin() + i * w)) { std::fprintf(stderr, "invmod mismatch\n"); return 1; }
      }
      if (!ct) {
        t_g = tmin([&] { for (size_t i = 0; i < count; i++) mpz_invert(Q[i], A[i], m); }, rounds);
        row("invmod (variable time, odd m)", t_m, t_g, "mpz_invert");
      } else {
        // mpn_sec_invert: n-limb operands, a clobbered (copied first), bit count 2*bits
        std::vector<mp_limb_t> tp(mpn_sec_invert_itch((mp_size_t)w)), ap(w), rp(w);
        const mp_limb_t *mp = reinterpret_cast<const mp_limb_t *>(rm.data());
        t_g = tmin([&] {
          for (size_t i = 0; i < count; i++) {
            std::memcpy(ap.data(), &ra[i * w], w * 8);
            mpn_sec_invert(rp.data(), ap.data(), mp, (mp_size_t)w, 2 * (mp_bitcnt_t)bits, tp.data());
          }
        }, rounds);
        row("invmod (constant time, odd m)", t_m, t_g, "mpn_sec_invert");
      }
    }
    mpb_ctx_set_constant_time(ctx, MPB_CT_DEFAULT);
    // ---- invmod, even shared modulus
    mpz_clrbit(m, 0);
    put(rm, 0, w, m);
    for (size_t i = 0; i < count; i++) {
      do mpz_urandomm(A[i], rs, m); while (!mpz_invert(R[i], A[i], m));
      put(ra, i, w, A[i]);
    }
    t_m = tmin([&] { mpb_batch_invmod(ctx, rr.data(), ra.data(), rm.data(), 1, w, count, &info); }, rounds);
    if (info.status != MPB_OK) { std::fprintf(stderr, "invmod even failed\n"); return 1; }
    t_g = tmin([&] { for (size_t i = 0; i < count; i++) mpz_invert(Q[i], A[i], m); }, rounds);
    row("invmod (variable time, even m)", t_m, t_g, "mpz_invert");
    // ---- divmod: full-width a by a shared half-width b
    mpz_urandomb(m, rs, bits / 2);
    mpz_setbit(m, bits / 2 - 1);
    put(rm, 0, w, m);
    for (size_t i = 0; i < count; i++) {
      mpz_urandomb(A[i], rs, bits);
      put(ra, i, w, A[i]);
    }
    t_m = tmin([&] { mpb_batch_divmod(ctx, rq.data(), rr.data(), ra.data(), rm.data(), 1, w, count, &info); }, rounds);
    t_g = tmin([&] { for (size_t i = 0; i < count; i++) mpz_tdiv_qr(Q[i], R[i], A[i], m); }, rounds);
    row("divmod (a: bits, b: bits/2)", t_m, t_g, "mpz_tdiv_qr");
    mpz_clear(m);
    for (size_t i = 0; i < count; i++) mpz_clears(A[i], B[i], R[i], Q[i], nullptr);
  }
  rep.note("One thread, CPU backend, batches of " + std::to_string(count) + " items, minimum over " +
           std::to_string(rounds) + " rounds; GMP " + gmp_version + " on the same items in the same run. "
           "Ratio > 1: mpbatch slower. mpbatch: Lehmer's double-digit Euclid (about 62 bits per "
           "big-number pass, exact cofactors below m; O(n^2) per item) for gcd and the variable-time "
           "inverses; the constant-time inverse: optimized binary gcd (Pornin, 31 masked steps per "
           "pass, fixed pass count); GMP's mpz_gcd / mpz_invert: Lehmer / subquadratic half-gcd; mpn_sec_invert: "
           "bit-serial constant-time binary inversion (2*bits iterations).");
  rep.finish();
  mpb_ctx_destroy(ctx);
  return 0;
}
