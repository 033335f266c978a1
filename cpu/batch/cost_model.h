// cpu/batch/cost_model.h: how many threads a call uses and how exponentiations split between
// the AVX-512 IFMA lanes and the scalar kernels (constants: cpu/batch/tuning.h).
#pragma once
#include <cstddef>

#include "batch/call.h"

namespace mpb {
namespace batch {

// Work estimates (64x64-bit limb products) of one item.
double work_mul(size_t n);
double work_powm(size_t n, size_t ebits);

// Threads to use for `count` items of `work_per_item` (in units of 64x64-bit products):
// min(ctx threads, count), and 1 when the whole batch is too small to amortise a parallel
// region (tuning::BATCH_PARALLEL_MIN_WORK).
int threads_for(const Settings &s, size_t count, double work_per_item);
// Items per dynamic-schedule grab for items of `work_per_item` (tuning::BATCH_GRAIN_WORK).
int grain_for(double work_per_item);

// How `count` exponentiations of `limbs` limbs split between the 8-lane AVX-512 IFMA kernel
// and the scalar one: `full` groups of 8, a last partial group of the count % 8 remaining
// items (unused lanes) or those items on the scalar kernel, or everything scalar (use false).
// AUTO (forced false) takes the split of least estimated wall time on the threads threads_for
// would give it (a group costs 8 x tuning::batch_ifma_lane_cost scalar items and runs on one
// thread; tasks go to the least loaded thread, groups first, as the engine hands them out);
// forced: every item in groups. work_per_item: one scalar item's work (threads_for's unit).
// halves: an item is two exponentiations of `limbs` limbs (RSA-CRT) and a group of up to 4
// items runs them as one 8-lane run instead of two, so a last group of <= 4 items costs half a
// group (and a lone item one run of 2 lanes, ~0.64 of its scalar time at RSA-2048).
struct IfmaSplit {
  bool use = false;
  size_t full = 0;
  bool partial = false;
  size_t groups() const { return full + (partial ? 1 : 0); }
};
// The 8-lane engines: AVX-512 IFMA (radix 2^52, cpu/simd/powm_ifma.cpp), AVX-512F alone
// (26..28-bit digits, cpu/simd/powm_avx512.cpp) and AVX2 (two 4-lane runs per group of 8,
// cpu/simd/powm_avx2.cpp), backends MPB_BACKEND_CPU_IFMA / _CPU_AVX512 / _CPU_AVX2.
enum class LaneIsa { Ifma, Avx512f, Avx2 };
// constant_time: the lane cost of constant-time runs (tuning::BATCH_IFMA_LANE_COST_CT); isa: whose
// lane costs (BATCH_IFMA_LANE_COST, BATCH_AVX512F_LANE_COST, BATCH_AVX2_LANE_COST [_CT]).
// scalar_speedup: the scalar kernel of this call runs that much faster than the one the lane costs
// were measured against (powm2_ct for a base of 2: pow2_scalar_speedup), so a lane costs as much
// more, relative to it.
IfmaSplit ifma_split(const Settings &s, size_t count, size_t limbs, double work_per_item, bool forced,
                     bool constant_time = false, LaneIsa isa = LaneIsa::Ifma, bool halves = false,
                     double scalar_speedup = 1.0);
// powm2_ct's speed over powm_ct's with base 2 for exponents of ebits bits (cpu/batch/tuning.h).
double pow2_scalar_speedup(size_t ebits);
// One lane of isa's engine against one scalar item at `limbs` (the measured tables in tuning.h).
double lane_cost(LaneIsa isa, size_t limbs, bool constant_time);

} // namespace batch
} // namespace mpb
