// cpu/mont_adx.h: the x86-64 MULX/ADCX/ADOX row kernel shared by REDC and the fused
// Montgomery multiplication (internal; only compiled in functions with target("bmi2,adx")
// that are called after cpu::has_mulx_adx()).
#pragma once
#include "mpn.h"

namespace mpb {
namespace mpn {
#if defined(__x86_64__) && defined(__GNUC__)
// One REDC row: up[0..n) += m[0..n) * q, returns the carry limb. n >= 1.
// MULX (rdx = q) + ADCX (chain 1: low words into up) + ADOX (chain 2: high words).
__attribute__((always_inline)) static inline limb addmul_row_adx(limb *up, const limb *mp, size_t n,
                                                                 limb q) {
  limb cy;
  limb lo, hi, t;
  size_t cnt = n;
  // Loop: per limb i: (hi:lo) = m[i]*q; up[i] = up[i] + lo + c1 (ADCX) ; lo' of next gets hi via ADOX.
  // We keep "pending hi" in register r_hi and add it with ADOX into the next up[i].
  __asm__ volatile(
      "xor %%r8d, %%r8d\n\t"          // r8 = pending high word = 0; clears CF and OF
      "1:\n\t"
      "mulx (%[m]), %[lo], %[hi]\n\t"  // hi:lo = m[i] * q
      "mov (%[u]), %[t]\n\t"
      "adcx %[lo], %[t]\n\t"           // t = up[i] + lo + CF
      "adox %%r8, %[t]\n\t"            // t += previous hi + OF
      "mov %[t], (%[u])\n\t"
      "mov %[hi], %%r8\n\t"
      "lea 8(%[m]), %[m]\n\t"
      "lea 8(%[u]), %[u]\n\t"
      "lea -1(%[cnt]), %[cnt]\n\t"     // lea/jrcxz leave CF and OF alone
      "jrcxz 2f\n\t"
      "jmp 1b\n\t"
      "2:\n\t"
      "mov $0, %[t]\n\t"
      "adcx %[t], %%r8\n\t"            // r8 = last hi + CF + OF (cannot overflow)
      "adox %[t], %%r8\n\t"
      "mov %%r8, %[cy]\n\t"
      : [m] "+r"(mp), [u] "+r"(up), [cnt] "+c"(cnt), [lo] "=&r"(lo), [hi] "=&r"(hi), [t] "=&r"(t),
        [cy] "=&r"(cy)
      : "d"(q)
      : "r8", "cc", "memory");
  return cy;
}

#endif

} // namespace mpn
} // namespace mpb
