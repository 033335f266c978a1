// bench/common/race.h: timing several functions against each other on the same data.
#pragma once
#include <algorithm>
#include <chrono>
#include <vector>

namespace mpbench {

// ns per call of f over `iters` back-to-back calls.
template <class F>
double batch_ns(F &&f, long iters) {
  auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iters; i++) f();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / (double)iters;
}

// Times the functions (lambdas, called directly) alternately, `reps` rounds after a warm-up;
// the minimum ns per call of each. work: a relative cost, sizing batches to ~0.2..1 ms.
template <class... F>
std::vector<double> race(int reps, double work, F &&...fs) {
  const long iters = (long)(4e5 / work) + 20;
  std::vector<double> best(sizeof...(fs), 1e300);
  (batch_ns(fs, iters), ...);  // warm up
  for (int r = 0; r < reps; r++) {
    size_t i = 0;
    ((best[i] = std::min(best[i], batch_ns(fs, iters)), i++), ...);
  }
  return best;
}

} // namespace mpbench
