// mp_jacobi: the Jacobi symbol (a/n) of the magnitudes by mpn::jacobi (positive divsteps,
// cpu/mpn/gcd/jacobi_divsteps.cpp), times (-1/n) = (-1)^((n-1)/2) for a < 0.
#include "bn/bn_internal.h"

using namespace mpb;
using mpn::limb;

extern "C" MPB_API int mpb_mp_jacobi(const mp_int *a, const mp_int *n, int *c) {
  if (!a || !n || !c) return MP_VAL;
  if (n->sign == MP_NEG || n->used == 0 || (n->dp[0] & 1) == 0) return MP_VAL;
  const size_t an = (size_t)a->used, nn = (size_t)n->used;
  ScratchLimbs<512> s(mpn::jacobi_itch(an, nn));
  if (!s.ok()) return MP_MEM;
  int r = mpn::jacobi(a->dp, an, n->dp, nn, s.get());
  if (a->sign == MP_NEG && (n->dp[0] & 3) == 3) r = -r;
  *c = r;
  return MP_OKAY;
}
