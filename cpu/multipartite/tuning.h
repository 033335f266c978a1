// cpu/multipartite/tuning.h: which multipartite algorithm AUTO uses by operand size.
// Each constant says where and when it was measured; `build/bench/tune` measures them again.
#pragma once
#include <cstddef>

namespace mpb {
namespace tuning {

/* Multipartite modular multiplication (cpu/multipartite*.cpp), 2 threads: which algorithm
 * AUTO uses by operand limbs. bench/results/multipartite-2threads-2026-11-21.md: sequential
 * mul + division is fastest below 2048 bits, the bipartite algorithm from 2048 bits on (it
 * beat Barrett, Montgomery and every k-part variant at every size from 2048 to 65536 bits). */
constexpr int MULTIPARTITE_MIN_LIMBS = 32;        /* below: sequential mul + division */
constexpr int MULTIPARTITE_BIPARTITE_LIMBS = 32;  /* from here: bipartite; below it (and above
                                                     MULTIPARTITE_MIN_LIMBS): k-part, k = 4 */

} // namespace tuning
} // namespace mpb
