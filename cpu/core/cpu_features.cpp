// Run-time CPU feature detection (see cpu_features.h).
#include "core/cpu_features.h"

#include <atomic>
#include <cctype>
#include <cstdlib>
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

// The names the library prints (describe(), MPBATCH_CPU_DISABLE), and what a CPU without the
// feature also lacks (no CPU has AVX-512 without AVX2, or VPCLMULQDQ without PCLMULQDQ).
struct Named {
  uint32_t bit;
  const char *name;
  uint32_t implies;
};
constexpr uint32_t kAvx512 = F_AVX512F | F_AVX512DQ | F_AVX512BW | F_AVX512VL | F_AVX512IFMA;
const Named kNames[] = {
    {F_BMI2, "bmi2", 0},
    {F_ADX, "adx", 0},
    {F_AVX2, "avx2", kAvx512 | F_VPCLMULQDQ},
    {F_AVX512F, "avx512f", kAvx512},
    {F_AVX512DQ, "avx512dq", 0},
    {F_AVX512BW, "avx512bw", 0},
    {F_AVX512VL, "avx512vl", 0},
    {F_AVX512IFMA, "avx512ifma", 0},
    {F_PCLMUL, "pclmul", F_VPCLMULQDQ},
    {F_VPCLMULQDQ, "vpclmulqdq", 0},
};

struct Disabled {
  uint32_t mask = 0;
  std::string unknown;
};
const Disabled &disabled() {
  static const Disabled d = [] {
    const char *env = std::getenv("MPBATCH_CPU_DISABLE");
    Disabled r;
    if (env) r.mask = detail::parse_disabled(env, &r.unknown);
    return r;
  }();
  return d;
}

using detail::kValid;
// bit 31 (kValid) marks "computed".
std::atomic<uint32_t> g_detected{0};
std::atomic<bool> g_forced{false};

} // namespace

namespace detail {
uint32_t parse_disabled(const char *names, std::string *unknown) {
  uint32_t mask = 0;
  std::string item;
  for (const char *p = names;; ++p) {
    const char ch = *p;
    if (ch == ',' || ch == '\0') {
      if (item == "all") mask = ~0u & ~kValid;
      else if (!item.empty()) {
        bool known = false;
        for (const Named &n : kNames)
          if (item == n.name) mask |= n.bit | n.implies, known = true;
        if (!known && unknown) *unknown += (unknown->empty() ? "" : ",") + item;
      }
      item.clear();
      if (ch == '\0') break;
    } else if (!std::isspace((unsigned char)ch)) {
      item += (char)std::tolower((unsigned char)ch);
    }
  }
  return mask;
}

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
    v = (probe() & ~disabled().mask & ~kValid) | kValid;
    g_detected.store(v, std::memory_order_relaxed);
  }
  return v & ~kValid;
}

void force_portable(bool on) {
  g_forced.store(on, std::memory_order_relaxed);
  detail::init_effective();
}
bool portable_forced() { return g_forced.load(std::memory_order_relaxed); }

bool is_amd() {
#ifdef MPB_X86
  static const bool amd = [] {
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return false;
    return b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u;  // "Auth" "enti" "cAMD"
  }();
  return amd;
#else
  return false;
#endif
}

const char *describe() {
  static const std::string s = [] {
    std::string r, masked;
    const uint32_t f = detected(), off = probe() & disabled().mask;
    for (const Named &n : kNames) {
      if (f & n.bit) r += (r.empty() ? "" : " ") + std::string(n.name);
      if (off & n.bit) masked += (masked.empty() ? "" : ",") + std::string(n.name);
    }
    if (r.empty()) r = "none";
    if (!masked.empty()) r += " (masked by MPBATCH_CPU_DISABLE: " + masked + ")";
    if (!disabled().unknown.empty()) r += " (MPBATCH_CPU_DISABLE: unknown names ignored: " + disabled().unknown + ")";
    return r;
  }();
  return s.c_str();
}

} // namespace cpu
} // namespace mpb
