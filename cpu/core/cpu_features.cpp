// Run-time CPU feature detection (see cpu_features.h).
#include "core/cpu_features.h"

#include <atomic>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define MPB_X86 1
#endif

namespace mpb {
namespace cpu {

namespace {

#ifdef MPB_X86
uint64_t read_xcr0() {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((uint64_t)edx << 32) | eax;
}
#endif

uint32_t probe() {
  uint32_t f = 0;
#ifdef MPB_X86
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const bool pclmul = (c >> 1) & 1;
  const bool osxsave = (c >> 27) & 1;
  const bool avx = (c >> 28) & 1;
  if (pclmul) f |= F_PCLMUL;
  bool ymm_ok = false, zmm_ok = false;
  if (osxsave) {
    uint64_t xcr0 = read_xcr0();
    ymm_ok = (xcr0 & 0x6) == 0x6;            // SSE + AVX state
    zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0; // opmask + ZMM_Hi256 + Hi16_ZMM
  }
  unsigned maxleaf = __get_cpuid_max(0, nullptr);
  if (maxleaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    if ((b >> 8) & 1) f |= F_BMI2;   // MULX (general-purpose registers, no OS state)
    if ((b >> 19) & 1) f |= F_ADX;   // ADCX / ADOX
    if (avx && ymm_ok) {
      if ((b >> 5) & 1) f |= F_AVX2;
      if (((c >> 10) & 1) && pclmul) f |= F_VPCLMULQDQ;  // usable at least on YMM
    }
    if (zmm_ok && ((b >> 16) & 1)) {
      f |= F_AVX512F;
      if ((b >> 21) & 1) f |= F_AVX512IFMA;
      if ((b >> 31) & 1) f |= F_AVX512VL;
      if ((b >> 30) & 1) f |= F_AVX512BW;
      if ((b >> 17) & 1) f |= F_AVX512DQ;
    }
  }
#endif
  return f;
}

using detail::kValid;
// bit 31 (kValid) marks "computed".
std::atomic<uint32_t> g_detected{0};
std::atomic<bool> g_forced{false};

} // namespace

namespace detail {
std::atomic<uint32_t> g_effective{0};
uint32_t init_effective() {
  uint32_t v = (g_forced.load(std::memory_order_relaxed) ? 0 : detected()) | kValid;
  g_effective.store(v, std::memory_order_relaxed);
  return v;
}
} // namespace detail

uint32_t detected() {
  uint32_t v = g_detected.load(std::memory_order_relaxed);
  if (!(v & kValid)) {
    v = probe() | kValid;
    g_detected.store(v, std::memory_order_relaxed);
  }
  return v & ~kValid;
}

void force_portable(bool on) {
  g_forced.store(on, std::memory_order_relaxed);
  detail::init_effective();
}
bool portable_forced() { return g_forced.load(std::memory_order_relaxed); }

const char *describe() {
  static const std::string s = [] {
    static const struct { uint32_t bit; const char *name; } names[] = {
        {F_BMI2, "bmi2"},       {F_ADX, "adx"},           {F_AVX2, "avx2"},
        {F_AVX512F, "avx512f"}, {F_AVX512DQ, "avx512dq"}, {F_AVX512BW, "avx512bw"},
        {F_AVX512VL, "avx512vl"}, {F_AVX512IFMA, "avx512ifma"}, {F_PCLMUL, "pclmul"},
        {F_VPCLMULQDQ, "vpclmulqdq"}};
    std::string r;
    uint32_t f = detected();
    for (auto &n : names)
      if (f & n.bit) {
        if (!r.empty()) r += ' ';
        r += n.name;
      }
    return r.empty() ? std::string("none") : r;
  }();
  return s.c_str();
}

} // namespace cpu
} // namespace mpb
