// The seed manual's timing table (LibTomMath 0.08 manual, section 6.1): inversion, multiply,
// square and exptmod at 128..4096 bits, for mpbatch beside GMP, OpenSSL BN and LibTomMath,
// all measured in the same run. Exptmod uses a full-size exponent and an odd modulus.
//
//   bench_seed_table [--out DIR] [--quick]
// Writes DIR/seed-table-<date>.csv and .md (default DIR: bench/results), prints the table.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>

#include <gmp.h>

#include "common/report.h"
#include "seedtable/backends.h"

using namespace seedtable;

static std::vector<uint8_t> random_bytes(std::mt19937_64 &rng, int bits, bool odd) {
  std::vector<uint8_t> v((size_t)(bits + 7) / 8);
  for (auto &x : v) x = (uint8_t)rng();
  int top = bits - 8 * ((int)v.size() - 1);  // bits used in the first byte, 1..8
  v[0] &= (uint8_t)((1u << top) - 1);
  v[0] |= (uint8_t)(1u << (top - 1));
  if (odd) v.back() |= 1;
  return v;
}

int main(int argc, char **argv) {
  std::string out = "bench/results";
  bool quick = false;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else if (!std::strcmp(argv[i], "--quick")) quick = true;
  }
  struct Row { const char *name; Op op; std::vector<int> sizes; };
  std::vector<Row> rows = {
      {"Inversion", Op::Inversion, {128, 256, 512, 1024, 2048, 4096}},
      {"Multiply", Op::Multiply, {128, 256, 512, 1024, 2048, 4096}},
      {"Square", Op::Square, {128, 256, 512, 1024, 2048, 4096}},
      {"Exptmod", Op::Exptmod, {512, 768, 1024, 2048, 2560, 3072, 4096}},
  };
  mpbench::Report rep("seed-table", out);
  rep.columns({"operation", "bits", "mpbatch_cycles", "gmp_cycles", "openssl_cycles", "tommath_cycles",
               "mpbatch_ns", "gmp_ns", "openssl_ns", "tommath_ns", "mpbatch/gmp", "mpbatch/openssl",
               "mpbatch/tommath", "results_agree"});
  std::mt19937_64 rng(20261121);
  const double target = quick ? 0.01 : 0.05;  // seconds per repetition
  const int reps = quick ? 3 : 7;
  bool all_agree = true;
  for (auto &row : rows) {
    for (int bits : row.sizes) {
      Operands in;
      in.m = random_bytes(rng, bits, true);
      in.a = random_bytes(rng, bits - 1, false);  // a < m
      in.b = random_bytes(rng, bits, false);
      if (row.op == Op::Inversion) {  // a must be invertible: a prime modulus
        mpz_t z;
        mpz_init(z);
        mpz_import(z, in.m.size(), 1, 1, 0, 0, in.m.data());
        mpz_nextprime(z, z);
        size_t cnt = 0;
        in.m.assign((mpz_sizeinbase(z, 2) + 7) / 8, 0);
        mpz_export(in.m.data(), &cnt, 1, 1, 0, 0, z);
        in.m.resize(cnt);
        mpz_clear(z);
      }
      // calibrate the iteration count on GMP
      Result probe = run_gmp(row.op, in, 1, 1);
      int iters = (int)(target / (probe.seconds_per_op > 1e-9 ? probe.seconds_per_op : 1e-9));
      if (iters < 1) iters = 1;
      if (iters > 1000000) iters = 1000000;
      // repetitions interleaved across the libraries (a disturbance hits all of them alike);
      // each library keeps its best repetition
      Result r_m, r_g, r_o, r_t;
      auto keep_best = [](Result &best, const Result &r, int rep) {
        if (rep == 0 || (r.available && r.seconds_per_op < best.seconds_per_op)) best = r;
      };
      for (int rep = 0; rep < reps; rep++) {
        keep_best(r_m, run_mpbatch(row.op, in, iters, 1), rep);
        keep_best(r_g, run_gmp(row.op, in, iters, 1), rep);
        keep_best(r_o, run_openssl(row.op, in, iters, 1), rep);
        keep_best(r_t, run_tommath(row.op, in, iters, 1), rep);
      }
      bool agree = r_m.value == r_g.value && (!r_o.available || r_o.value == r_g.value) &&
                   (!r_t.available || r_t.value == r_g.value);
      all_agree &= agree;
      auto cyc = [](const Result &r) { return r.available ? mpbench::fmt(r.cycles_per_op, 0) : std::string("n/a"); };
      auto ns = [](const Result &r) { return r.available ? mpbench::fmt(r.seconds_per_op * 1e9, 1) : std::string("n/a"); };
      auto ratio = [&](const Result &r) {
        return r.available ? mpbench::fmt(r_m.seconds_per_op / r.seconds_per_op, 3) : std::string("n/a");
      };
      rep.row({row.name, std::to_string(bits), cyc(r_m), cyc(r_g), cyc(r_o), cyc(r_t), ns(r_m), ns(r_g), ns(r_o),
               ns(r_t), ratio(r_g), ratio(r_o), ratio(r_t), agree ? "yes" : "NO"});
    }
  }
  rep.note("Cycles are TSC cycles (rdtsc) per operation, best of the repetitions (interleaved across the libraries); ratios are time(mpbatch)/time(other): below 1 means mpbatch is faster.");
  rep.note("Exptmod: full-size random exponent, odd modulus. GMP mpz_powm, OpenSSL BN_mod_exp_mont (with a precomputed BN_MONT_CTX), LibTomMath mp_exptmod, mpbatch mp_exptmod.");
  rep.note("Inversion modulo a random prime of the given size (the seed: an odd number; a prime makes every a invertible); Square uses mpz_mul(r,a,a) in GMP (which detects squaring), BN_sqr, mp_sqr.");
  rep.finish();
  return all_agree ? 0 : 1;
}
