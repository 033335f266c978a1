// cpu/mpn/gcd/gcd.cpp: the gcd dispatcher (contract in cpu/mpn/mpn.h). Lehmer's algorithm at every
// size: faster than the binary gcd at every measured size, 256..4096 bits
// (bench/results/divgcd-lehmer-2026-11-21.md); it falls back to gcd_binary itself if a pass ever
// misbehaves.
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

size_t gcd_itch(size_t n) { return gcd_lehmer_itch(n); }

size_t gcd(limb *rp, const limb *ap, const limb *bp, size_t n, limb *scratch) {
  return gcd_lehmer(rp, ap, bp, n, scratch);
}

} // namespace mpn
} // namespace mpb
