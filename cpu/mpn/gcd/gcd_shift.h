// cpu/mpn/gcd/gcd_shift.h: helpers shared by the binary gcd and the variable-time binary inversion
// (cpu/mpn/gcd/gcd_binary.cpp, cpu/mpn/gcd/invmod_odd_binary.cpp): removing the trailing zero bits of a value
// whose normalized size is tracked by the caller.
#pragma once
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {

// u (un limbs, nonzero) >>= its number of trailing zero bits, which is returned; un is
// updated to the normalized size of the result. Limbs at and above the new un are garbage.
inline size_t strip_tz(limb *u, size_t &un) {
  size_t z = 0;
  while (u[z] == 0) z++;
  unsigned b = (unsigned)__builtin_ctzll(u[z]);
  if (z) {
    copy(u, u + z, un - z);
    un -= z;
  }
  if (b) {
    rshift(u, u, un, b);
    if (u[un - 1] == 0) un--;
  }
  return z * 64 + b;
}

} // namespace mpn
} // namespace mpb
