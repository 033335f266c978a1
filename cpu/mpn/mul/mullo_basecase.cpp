// Short (low-half) product: rp = a*b mod B^n, B = 2^64, by rows that stop at column n
// (about n^2/2 limb products instead of n^2). The loop structure depends only on n and
// mul_1 / addmul_1 have no data-dependent branch, so this is constant time. Used by the
// exponentiation modulo 2^s (cpu/mpn/powm/powm_2k.cpp, cpu/mpn/powm/powm_2k_ct.cpp), the inverse modulo 2^s
// (cpu/mpn/mod/binvert_2k.cpp) and the CRT recombination (cpu/mpn/powm/powm_split.cpp).
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

void mullo_basecase(limb *rp, const limb *ap, const limb *bp, size_t n) {
  MPB_ASSERT(n >= 1);
  MPB_ASSERT(!overlap(rp, n, ap, n) && !overlap(rp, n, bp, n));
  mul_1(rp, ap, n, bp[0]);
  for (size_t j = 1; j < n; j++) addmul_1(rp + j, ap, n - j, bp[j]);
}

} // namespace mpn
} // namespace mpb
