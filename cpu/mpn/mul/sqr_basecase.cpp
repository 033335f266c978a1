// Schoolbook squaring: the off-diagonal triangle sum_{i<j} a_i a_j 2^(64(i+j)) once (by rows,
// mul_1 / addmul_1), doubled by a one-bit left shift, plus the diagonal squares a_i^2.
#include "mpn/mul/mul_internal.h"

namespace mpb {
namespace mpn {

void sqr_basecase(limb *rp, const limb *ap, size_t n) {
  MPB_ASSERT(n >= 1);
  MPB_ASSERT(!overlap(rp, 2 * n, ap, n));
  if (n == 1) return sqr_limb(rp, ap[0]);
  // Triangle into rp[1 .. 2n-1): row i holds a_i * a[i+1..n) at offset 2i+1.
  rp[0] = 0;
  rp[n] = mul_1(rp + 1, ap + 1, n - 1, ap[0]);
  for (size_t i = 1; i + 1 < n; i++) rp[n + i] = addmul_1(rp + 2 * i + 1, ap + i + 1, n - i - 1, ap[i]);
  // Double: 2T < a^2 < 2^(128n), so the bit shifted out of rp[1 .. 2n-1) is limb 2n-1.
  rp[2 * n - 1] = lshift(rp + 1, rp + 1, 2 * n - 2, 1);
  // Diagonal.
  limb c = 0;
  for (size_t i = 0; i < n; i++) {
    limb lo, hi = detail::mul_wide(ap[i], ap[i], &lo);
    c = detail::addc(rp[2 * i], lo, c, &rp[2 * i]);
    c = detail::addc(rp[2 * i + 1], hi, c, &rp[2 * i + 1]);
  }
}

} // namespace mpn
} // namespace mpb
