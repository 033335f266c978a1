// bench/seedtable: the seed manual's timing table (LibTomMath 0.08, section 6.1) for mpbatch,
// GMP, OpenSSL BN and LibTomMath. Each library lives in its own translation unit because
// tommath.h and mpbatch/bn.h both define mp_int.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace seedtable {

enum class Op { Inversion, Multiply, Square, Exptmod };

struct Operands {
  std::vector<uint8_t> a, b, m;  // big-endian magnitudes; m odd (used by Inversion and Exptmod)
};

struct Result {
  double seconds_per_op = 0;      // best of the repetitions
  double cycles_per_op = 0;       // TSC cycles, best of the repetitions
  std::vector<uint8_t> value;     // result of the operation (big-endian), to cross-check
  bool available = true;
};

// Each runs the operation `iters` times per repetition, `reps` repetitions.
Result run_mpbatch(Op op, const Operands &in, int iters, int reps);
Result run_gmp(Op op, const Operands &in, int iters, int reps);
Result run_openssl(Op op, const Operands &in, int iters, int reps);
Result run_tommath(Op op, const Operands &in, int iters, int reps);

// The entry point of a library this build was configured without: it reports available = false.
#define SEEDTABLE_UNAVAILABLE(fn) \
  namespace seedtable {           \
  Result fn(Op, const Operands &, int, int) { Result r; r.available = false; return r; } \
  }

// Timing helpers shared by the backends.
struct Timer {
  double t0;
  uint64_t c0;
  Timer();
  void stop(double &sec, double &cyc) const;
};

// Runs one_op() `iters` times per repetition, `reps` repetitions, and keeps the best time and
// cycle count per call in res.
template <class F>
void time_best(Result &res, int iters, int reps, F &&one_op) {
  res.seconds_per_op = res.cycles_per_op = 1e300;
  for (int rep = 0; rep < reps; rep++) {
    Timer t;
    for (int i = 0; i < iters; i++) one_op();
    double s, c;
    t.stop(s, c);
    if (s / iters < res.seconds_per_op) res.seconds_per_op = s / iters;
    if (c / iters < res.cycles_per_op) res.cycles_per_op = c / iters;
  }
}

} // namespace seedtable
