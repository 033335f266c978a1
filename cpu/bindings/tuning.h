// cpu/bindings/tuning.h: the CPython conversion helpers' threshold (cpu/bindings/cpython.cpp).
// One line per constant: value | where and when it was measured.
#pragma once
#include <cstddef>

namespace mpb {
namespace tuning {

constexpr size_t PYCONV_PARALLEL_MIN_LIMBS = 16384;  // mpb_pack_cpython_list threads from count*width limbs | AMD EPYC Zen 4 2 vCPU, 2026-11-21, medians of 41 interleaved runs, 1 vs 2 threads, 2048..65536 limbs

} // namespace tuning
} // namespace mpb
