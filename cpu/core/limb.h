// cpu/core/limb.h: 64-bit limb primitives (add with carry, subtract with borrow, wide product,
// inverse mod 2^64) shared by the CPU code and, through MPB_HD (core/hd.h), usable on the GPU.
#pragma once
#include <stdint.h>

#include "core/hd.h"
#if defined(MPB_MSAN_CT)
#include <sanitizer/msan_interface.h>
#endif

namespace mpb {
namespace detail {

typedef uint64_t limb_t;
__extension__ typedef unsigned __int128 dlimb_t;

#if defined(MPB_MSAN_CT)
/* The MemorySanitizer constant-time build (tests/ct): MemorySanitizer's shadow of a sum or a
 * difference is the OR of its operands' shadows, bit for bit, so in the 128-bit forms below the
 * carry out of secret limbs (bit 64) would look public and a branch on it would go unreported.
 * Comparisons are propagated (poisoned when an operand is), hence the carries as comparisons. */
MPB_HD limb_t addc(limb_t a, limb_t b, limb_t cin, limb_t *r) {
  const limb_t s = a + b, t = s + cin;
  *r = t;
  return (limb_t)(s < a) | (limb_t)(t < s);
}
MPB_HD limb_t subb(limb_t a, limb_t b, limb_t bin, limb_t *r) {
  const limb_t d = a - b, t = d - bin;
  *r = t;
  return (limb_t)(a < b) | (limb_t)(d < bin);
}
#else
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
#endif
/* (hi, lo) = a * b */
MPB_HD limb_t mul_wide(limb_t a, limb_t b, limb_t *lo) {
  dlimb_t p = (dlimb_t)a * b;
  *lo = (limb_t)p;
  limb_t hi = (limb_t)(p >> 64);
#if defined(MPB_MSAN_CT)
  /* the same for a product: the shadow of the 128-bit product of zero-extended limbs is the OR
   * of theirs, clean above bit 63, so the high half would look public; poison it when either
   * factor is */
  if (__msan_test_shadow(&a, sizeof a) != -1 || __msan_test_shadow(&b, sizeof b) != -1)
    __msan_poison(&hi, sizeof hi);
#endif
  return hi;
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
