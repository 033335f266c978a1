#include <chrono>
#include <x86intrin.h>

#include "backends.h"

namespace seedtable {
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
Timer::Timer() : t0(now()), c0(__rdtsc()) {}
void Timer::stop(double &sec, double &cyc) const {
  uint64_t c1 = __rdtsc();
  sec = now() - t0;
  cyc = (double)(c1 - c0);
}
} // namespace seedtable
