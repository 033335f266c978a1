// cpu/batch/cost_model.h: how many threads a call uses and how exponentiations split between
// the AVX-512 IFMA lanes and the scalar kernels (constants: cpu/batch/tuning.h).
#pragma once
#include <atomic>
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

// How `count` exponentiations of `limbs` limbs split between an 8-lane engine and the scalar
// kernel: `full` groups of `size` <= 8 items (8, or fewer when groups of whole runs spread over
// more threads, e.g. 9 RSA items on 2 threads with AVX2: 4 + 4 + 1 scalar instead of 8 + 1),
// then a last partial group of the next `last` items (unused lanes),
// the rest scalar; or everything scalar (use false). AUTO (forced false) takes the split of least
// estimated wall time on the threads threads_for would give it (a group costs 8 x the lane cost
// in scalar items and runs on one thread; tasks go to the least loaded thread, groups first, as
// the engine hands them out); forced: every item in groups. work_per_item: one scalar item's work
// (threads_for's unit). A partial group costs the runs it starts: its exponentiations packed
// from lane 0 into runs of 8 lanes (AVX2: 4, a group being two 4-lane runs of which an unused
// one is skipped). halves: an item is two exponentiations of `limbs` limbs (RSA-CRT), packed
// densely too, so <= 4 items take one 8-lane run, and on AVX2 2 items one run of 4 (0.67 of
// their scalar time at RSA-2048 on Zen 3) and 5 or 6 items three.
struct IfmaSplit {
  bool use = false;
  size_t size = 8;  // items per group (AUTO: fewer when that spreads the runs over the threads)
  size_t full = 0;  // groups of `size` items
  size_t last = 0;  // items in the last, partial group (0: none)
  bool partial() const { return last > 0; }
  size_t groups() const { return full + (last ? 1 : 0); }
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
// est (may be null): AUTO's estimated wall time of the split returned, in scalar items (forced
// and test-override splits: 0).
IfmaSplit ifma_split(const Settings &s, size_t count, size_t limbs, double work_per_item, bool forced,
                     bool constant_time = false, LaneIsa isa = LaneIsa::Ifma, bool halves = false,
                     double scalar_speedup = 1.0, double *est = nullptr);
// The engines AUTO weighs for a call of `exps` exponentiations (RSA: two per item) on a CPU whose
// best 8-lane engine is `best` (avx2: the CPU has the AVX2 engine too): `best`, and on an AVX-512F
// CPU without IFMA, for at most 4 exponentiations, the AVX2 engine, whose one 4-lane run costs
// about half an 8-lane run. For more exponentiations AVX-512F lanes are not dearer than AVX2
// lanes on the same CPU (the same digits and steps on twice the width), whatever the lane-cost
// tables, measured on different machines, say. Writes them to out; returns how many (1 or 2).
size_t auto_lane_isas(LaneIsa best, bool avx2, size_t exps, LaneIsa out[2]);
// AUTO among those engines: the split of least estimated time over isas[0..n) (ifma_split for
// each), the first engine kept unless another one's estimate is lower by
// tuning::BATCH_IFMA_MARGIN.
struct LaneSplit {
  IfmaSplit split;
  LaneIsa isa = LaneIsa::Ifma;
};
LaneSplit best_lane_split(const Settings &s, size_t count, size_t limbs, double work_per_item, bool constant_time,
                          const LaneIsa *isas, size_t n, bool halves = false, double scalar_speedup = 1.0);
// Test hook (tests/support/batch_util.h: SplitOverride): while >= 0, AUTO's split (forced false) is
// count / g full groups of g = split_size_override (1..8) items, then a last group of
// min(split_override, count % g) items, the rest scalar, whatever it costs, so that every
// shape of the engine's tasks runs on any machine with lanes. -1: the cost model decides.
namespace testing {
extern std::atomic<long> split_override;
extern std::atomic<long> split_size_override;
} // namespace testing
// powm2_ct's speed over powm_ct's with base 2 for exponents of ebits bits (cpu/batch/tuning.h).
double pow2_scalar_speedup(size_t ebits);
// One lane of isa's engine against one scalar item at `limbs` (the measured tables in tuning.h).
double lane_cost(LaneIsa isa, size_t limbs, bool constant_time);

} // namespace batch
} // namespace mpb
