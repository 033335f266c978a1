// The one Catch2 main of every test executable.
//
// MPB_TEST_IFMA_EMULATION=1 in the environment turns on the IFMA emulation
// (cpu/simd/powm_lanes.h: set_ifma_emulation) before any test runs: the library then takes its
// AVX-512 IFMA paths on any CPU, with the instructions computed in C++ (tests/CMakeLists.txt
// runs the batch programs so once more). Not with MPBATCH_CPU_DISABLE set: the masked reruns
// (scripts/test.sh) would repeat that run.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include "simd/powm_lanes.h"

int main(int argc, char **argv) {
  const char *emu = std::getenv("MPB_TEST_IFMA_EMULATION");
  const char *masked = std::getenv("MPBATCH_CPU_DISABLE");
  if (emu && *emu && *emu != '0' && !(masked && *masked)) mpb::simd::set_ifma_emulation(true);
  return Catch::Session().run(argc, argv);
}
