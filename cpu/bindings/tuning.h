// cpu/bindings/tuning.h: the CPython conversion helpers' thresholds.
// Each constant says where and when it was measured; `build/bench/tune` measures them again.
#pragma once
#include <cstddef>

namespace mpb {
namespace tuning {

/* mpb_pack_cpython_list (the Python binding's ints -> rows, cpu/bindings/cpython.cpp) splits a
 * batch over the requested threads from this many limbs (count x width) on. Measured
 * 2026-11-21 (AMD EPYC 2 vCPU, shared, load ~4; medians of 41 interleaved runs, 2 threads /
 * 1 thread): 4-limb ints 0.99 0.56 0.76 0.66 0.54 at 2048 8192 16384 32768 65536 limbs,
 * 32-limb ints 1.30 0.79 0.86 0.65 0.85; two threads win from ~8192 limbs, 16384 leaves a
 * margin for a busy machine (a parallel region then waits for a core). */
constexpr size_t PYCONV_PARALLEL_MIN_LIMBS = 16384;

} // namespace tuning
} // namespace mpb
