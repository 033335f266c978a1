// cpu/mpn/mod/barrett.h: Barrett reduction on raw limb arrays (namespace mpb::mpn), any modulus:
// a context set up once per modulus (cpu/mpn/mod/barrett.cpp), caller scratch only.
#pragma once
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

// ================================ Barrett ================================================

// A Barrett context for any modulus m of n >= 1 limbs (m[n-1] != 0): mu = floor(B^(2n) / m),
// B = 2^64, of mun (n+1, or n+2 when m is a power of B) limbs.
struct BarrettCtx {
  const limb *m = nullptr;   // copy of m, n limbs
  size_t n = 0;
  const limb *mu = nullptr;  // mun limbs
  size_t mun = 0;
};
// Storage for barrett_ctx_init: kept part 2n+3 limbs, plus temporaries during init.
size_t barrett_ctx_itch(size_t n);
// cpu/mpn/mod/barrett.cpp. storage: barrett_ctx_itch(n) limbs, must outlive ctx, not overlap m.
void barrett_ctx_init(BarrettCtx &ctx, const limb *m, size_t n, limb *storage);
// Scratch for barrett_reduce.
size_t barrett_reduce_itch(size_t n);
// rp[0..n) = xp mod m for any 2n-limb xp (HAC 14.42). Uses the seed's half-precision
// products: only the top columns of q1*mu and the low n+1 limbs of q3*m are computed.
// rp may not overlap xp. scratch: barrett_reduce_itch(n) limbs.
void barrett_reduce(limb *rp, const limb *xp, const BarrettCtx &ctx, limb *scratch);
// Same result in constant time: the final corrections are three masked subtractions (r < 4m).
void barrett_reduce_ct(limb *rp, const limb *xp, const BarrettCtx &ctx, limb *scratch);

} // namespace mpn
} // namespace mpb
