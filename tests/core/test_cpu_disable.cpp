// MPBATCH_CPU_DISABLE: the parser (names, implications, case, blanks, unknown names), and, in a
// process started with the variable set (CTest's cpu_disable_env, and the CI run with the SIMD
// features masked), that the library then behaves as on a CPU without those features.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include <mpbatch/mpbatch.h>

#include "core/cpu_features.h"

using namespace mpb::cpu;

TEST_CASE("MPBATCH_CPU_DISABLE parser", "[core][cpu_disable]") {
  std::string unknown;
  CHECK(detail::parse_disabled("", &unknown) == 0);
  CHECK(detail::parse_disabled("adx", &unknown) == F_ADX);
  CHECK(detail::parse_disabled(" AVX512IFMA , bmi2,,", &unknown) == (F_AVX512IFMA | F_BMI2));
  CHECK(unknown.empty());
  // a CPU without AVX2 has no AVX-512 and no VPCLMULQDQ; without AVX-512F no AVX-512 extension
  const uint32_t avx512 = F_AVX512F | F_AVX512DQ | F_AVX512BW | F_AVX512VL | F_AVX512IFMA;
  CHECK(detail::parse_disabled("avx2", nullptr) == (F_AVX2 | avx512 | F_VPCLMULQDQ));
  CHECK(detail::parse_disabled("avx512f", nullptr) == avx512);
  CHECK(detail::parse_disabled("pclmul", nullptr) == (F_PCLMUL | F_VPCLMULQDQ));
  const uint32_t all = detail::parse_disabled("all", nullptr);
  for (uint32_t f : {F_BMI2, F_ADX, F_AVX2, F_AVX512F, F_AVX512IFMA, F_PCLMUL, F_VPCLMULQDQ}) CHECK((all & f) == f);
  CHECK((all & detail::kValid) == 0);
  CHECK(detail::parse_disabled("sse9,avx2,Foo", &unknown) == (F_AVX2 | avx512 | F_VPCLMULQDQ));
  CHECK(unknown == "sse9,foo");
}

TEST_CASE("MPBATCH_CPU_DISABLE in effect in this process", "[core][cpu_disable]") {
  const char *env = std::getenv("MPBATCH_CPU_DISABLE");
  const std::string described = mpb_cpu_features();
  INFO("mpb_cpu_features: " << described);
  REQUIRE(!described.empty());
  if (!env) {
    CHECK(described.find("MPBATCH_CPU_DISABLE") == std::string::npos);
    return;
  }
  const uint32_t masked = detail::parse_disabled(env, nullptr);
  CHECK((detected() & masked) == 0);
  CHECK((features() & masked) == 0);
  for (uint32_t f : {F_BMI2, F_ADX, F_AVX2, F_AVX512F, F_AVX512IFMA, F_PCLMUL, F_VPCLMULQDQ})
    if (masked & f) CHECK_FALSE(has(f));
  if (masked & F_AVX512IFMA) CHECK(mpb_backend_available(MPB_BACKEND_CPU_IFMA) == 0);
  if (masked & F_AVX512F) CHECK(mpb_backend_available(MPB_BACKEND_CPU_AVX512) == 0);
  if (masked & F_AVX2) CHECK(mpb_backend_available(MPB_BACKEND_CPU_AVX2) == 0);
  if (described.find(" (masked by MPBATCH_CPU_DISABLE: ") == std::string::npos)
    CHECK((detail::parse_disabled("all", nullptr) & masked & ~detected()) == masked);  // nothing to mask here
}
