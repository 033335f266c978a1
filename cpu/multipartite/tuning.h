// cpu/multipartite/tuning.h: which multipartite modular multiplication AUTO uses by operand size
// (cpu/multipartite/plan.cpp). One line per constant: value | where and when it was measured.
#pragma once
#include <cstddef>

namespace mpb {
namespace tuning {

constexpr int MULTIPARTITE_MIN_LIMBS = 32;  // below: sequential mul + division | AMD EPYC Zen 4 2 threads, 2026-11-21, bench_multipartite (bench/results/multipartite-2threads-2026-11-21.md)
constexpr int MULTIPARTITE_BIPARTITE_LIMBS = 32;  // from here: bipartite (below, above the minimum: k-part, k = 4) | AMD EPYC Zen 4 2 threads, 2026-11-21, bench_multipartite (bench/results/multipartite-2threads-2026-11-21.md)

} // namespace tuning
} // namespace mpb
