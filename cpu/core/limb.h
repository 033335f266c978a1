// cpu/core/limb.h: 64-bit limb primitives (add with carry, subtract with borrow, wide product,
// inverse mod 2^64) shared by the CPU code and, through MPB_HD (core/hd.h), usable on the GPU.
#pragma once
#include <stdint.h>

#include "core/hd.h"

namespace mpb {
namespace detail {

typedef uint64_t limb_t;
__extension__ typedef unsigned __int128 dlimb_t;

/* r = a + b + cin, returns carry out (0/1) */
MPB_HD limb_t addc(limb_t a, limb_t b, limb_t cin, limb_t *r) {
  dlimb_t s = (dlimb_t)a + b + cin;
  *r = (limb_t)s;
  return (limb_t)(s >> 64);
}
/* r = a - b - bin, returns borrow out (0/1) */
MPB_HD limb_t subb(limb_t a, limb_t b, limb_t bin, limb_t *r) {
  dlimb_t d = (dlimb_t)a - b - bin;
  *r = (limb_t)d;
  return (limb_t)(d >> 64) & 1;
}
/* (hi, lo) = a * b */
MPB_HD limb_t mul_wide(limb_t a, limb_t b, limb_t *lo) {
  dlimb_t p = (dlimb_t)a * b;
  *lo = (limb_t)p;
  return (limb_t)(p >> 64);
}
/* 32-bit digit helpers used by the GPU kernels and their host tests */
MPB_HD uint32_t mul_hi32(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }

/* inverse of an odd a modulo 2^64 (Newton iteration, 5 steps from a 4-bit seed) */
MPB_HD limb_t binvert_limb(limb_t a) {
  limb_t x = (3 * a) ^ 2;       /* correct to 5 bits */
  x *= 2 - a * x;               /* 10 */
  x *= 2 - a * x;               /* 20 */
  x *= 2 - a * x;               /* 40 */
  x *= 2 - a * x;               /* 80 */
  return x;
}

} // namespace detail
} // namespace mpb
