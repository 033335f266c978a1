// cpu/core/cpu_features.h: run-time CPU feature detection (x86-64 CPUID + XGETBV), cached.
//
// All queries are cheap (one load of a cached word after the first call) and thread-safe
// (the first call computes the same value in every thread). On non-x86 builds every
// query returns false.
//
// force_portable(true) makes every query return false, so the tests and benchmarks can
// exercise the portable C code paths on a machine that has the extensions.  It is an
// internal, process-wide switch: flip it only while no other thread is computing.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

namespace mpb {
namespace cpu {

enum Feature : uint32_t {
  F_BMI2 = 1u << 0,
  F_ADX = 1u << 1,
  F_AVX2 = 1u << 2,
  F_AVX512F = 1u << 3,
  F_AVX512IFMA = 1u << 4,
  F_AVX512VL = 1u << 5,
  F_AVX512BW = 1u << 6,
  F_PCLMUL = 1u << 7,
  F_VPCLMULQDQ = 1u << 8,
  F_AVX512DQ = 1u << 9,
};

// The detected feature bits: hardware and OS support, less what MPBATCH_CPU_DISABLE masks
// (read once, here; see mpb_cpu_features in <mpbatch/common.h>), ignoring force_portable.
uint32_t detected();

namespace detail {
constexpr uint32_t kValid = 1u << 31;
// The effective bits | kValid once computed (0 before): one relaxed load per query.
extern std::atomic<uint32_t> g_effective;
uint32_t init_effective();  // computes, stores and returns the effective bits | kValid
// The feature bits named in an MPBATCH_CPU_DISABLE value (comma-separated, case and blanks
// ignored, "all"), with what a CPU without them also lacks; unknown names are appended to
// *unknown (comma-separated) when it is not null.
uint32_t parse_disabled(const char *names, std::string *unknown);
} // namespace detail

// The effective feature bits: detected() unless force_portable(true) is in effect (then 0).
inline uint32_t features() {
  uint32_t v = detail::g_effective.load(std::memory_order_relaxed);
  if (__builtin_expect(!(v & detail::kValid), 0)) v = detail::init_effective();
  return v & ~detail::kValid;
}

// Force the portable code paths (true) or go back to the detected ones (false).
void force_portable(bool on);
bool portable_forced();

// The CPU's vendor is AMD (CPUID leaf 0; MPBATCH_CPU_DISABLE does not change it): AUTO's
// AVX-512F lane costs differ between AMD's AVX-512 cores and Intel's (cpu/batch/tuning.h).
bool is_amd();

inline bool has(uint32_t f) { return (features() & f) == f; }
inline bool has_bmi2() { return has(F_BMI2); }
inline bool has_adx() { return has(F_ADX); }
// MULX + ADCX/ADOX, what the multiplication kernels need.
inline bool has_mulx_adx() { return has(F_BMI2 | F_ADX); }
inline bool has_avx2() { return has(F_AVX2); }
inline bool has_avx512f() { return has(F_AVX512F); }
inline bool has_avx512ifma() { return has(F_AVX512IFMA | F_AVX512F); }
inline bool has_avx512vl() { return has(F_AVX512VL); }
inline bool has_avx512bw() { return has(F_AVX512BW); }
inline bool has_pclmul() { return has(F_PCLMUL); }
inline bool has_vpclmulqdq() { return has(F_VPCLMULQDQ); }

// Human-readable list of the detected features, e.g. "bmi2 adx avx2 avx512f ...", with what
// MPBATCH_CPU_DISABLE masked (mpb_cpu_features).
const char *describe();

} // namespace cpu
} // namespace mpb
