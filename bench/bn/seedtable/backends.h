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

// Timing helpers shared by the backends.
struct Timer {
  double t0;
  uint64_t c0;
  Timer();
  void stop(double &sec, double &cyc) const;
};

} // namespace seedtable
