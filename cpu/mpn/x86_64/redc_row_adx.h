// cpu/mpn/x86_64/redc_row_adx.h: the x86-64 MULX/ADCX/ADOX row kernel shared by REDC and the fused
// Montgomery multiplication (internal; only compiled in functions with target("bmi2,adx")
// that are called after cpu::has_mulx_adx()).
#pragma once
#include "core/asm.h"
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {
#ifdef MPB_HAVE_ADX_ASM
// One REDC row: up[0..n) += mp[0..n) * q, returns the carry limb. n >= 1.
// MULX (rdx = q); chain 1 (ADCX, CF) adds the low product words and up[i], chain 2 (ADOX, OF)
// adds the high word of the previous limb's product. The n mod 8 leading limbs go one at a
// time, the rest eight per iteration; loop control by lea/jrcxz, which leave CF and OF alone.
__attribute__((always_inline)) static inline limb addmul_row_adx(limb *up, const limb *mp, size_t n,
                                                                 limb q) {
  limb l0, h0, l1, h1;
  size_t r = n & 7, g = n >> 3;
  __asm__ volatile(
      "xor %k[h1], %k[h1]\n\t"           // h1 = pending high word = 0; CF = OF = 0
      "jrcxz 2f\n\t"
      "1:\n\t"                           // single limbs (n mod 4 of them)
      "mulx (%[m]), %[l0], %[h0]\n\t"
      "adcx (%[u]), %[l0]\n\t"
      "adox %[h1], %[l0]\n\t"
      "mov %[l0], (%[u])\n\t"
      "mov %[h0], %[h1]\n\t"
      "lea 8(%[m]), %[m]\n\t"
      "lea 8(%[u]), %[u]\n\t"
      "lea -1(%%rcx), %%rcx\n\t"
      "jrcxz 2f\n\t"
      "jmp 1b\n\t"
      "2:\n\t"
      "mov %[g], %%rcx\n\t"
      "jrcxz 5f\n\t"                     // jrcxz reaches 127 bytes only: hop to 4f
      "jmp 3f\n\t"
      "5:\n\t"
      "jmp 4f\n\t"
      "3:\n\t"                           // eight limbs per iteration
      "mulx (%[m]), %[l0], %[h0]\n\t"
      "adcx (%[u]), %[l0]\n\t"
      "adox %[h1], %[l0]\n\t"
      "mov %[l0], (%[u])\n\t"
      "mulx 8(%[m]), %[l1], %[h1]\n\t"
      "adcx 8(%[u]), %[l1]\n\t"
      "adox %[h0], %[l1]\n\t"
      "mov %[l1], 8(%[u])\n\t"
      "mulx 16(%[m]), %[l0], %[h0]\n\t"
      "adcx 16(%[u]), %[l0]\n\t"
      "adox %[h1], %[l0]\n\t"
      "mov %[l0], 16(%[u])\n\t"
      "mulx 24(%[m]), %[l1], %[h1]\n\t"
      "adcx 24(%[u]), %[l1]\n\t"
      "adox %[h0], %[l1]\n\t"
      "mov %[l1], 24(%[u])\n\t"
      "mulx 32(%[m]), %[l0], %[h0]\n\t"
      "adcx 32(%[u]), %[l0]\n\t"
      "adox %[h1], %[l0]\n\t"
      "mov %[l0], 32(%[u])\n\t"
      "mulx 40(%[m]), %[l1], %[h1]\n\t"
      "adcx 40(%[u]), %[l1]\n\t"
      "adox %[h0], %[l1]\n\t"
      "mov %[l1], 40(%[u])\n\t"
      "mulx 48(%[m]), %[l0], %[h0]\n\t"
      "adcx 48(%[u]), %[l0]\n\t"
      "adox %[h1], %[l0]\n\t"
      "mov %[l0], 48(%[u])\n\t"
      "mulx 56(%[m]), %[l1], %[h1]\n\t"
      "adcx 56(%[u]), %[l1]\n\t"
      "adox %[h0], %[l1]\n\t"
      "mov %[l1], 56(%[u])\n\t"
      "lea 64(%[m]), %[m]\n\t"
      "lea 64(%[u]), %[u]\n\t"
      "lea -1(%%rcx), %%rcx\n\t"
      "jrcxz 4f\n\t"
      "jmp 3b\n\t"
      "4:\n\t"
      "mov $0, %k[l0]\n\t"               // mov leaves the flags alone
      "adcx %[l0], %[h1]\n\t"            // carry = last high word + CF + OF (no overflow)
      "adox %[l0], %[h1]\n\t"
      : [m] "+r"(mp), [u] "+r"(up), "+c"(r), [l0] "=&r"(l0), [h0] "=&r"(h0), [l1] "=&r"(l1),
        [h1] "=&r"(h1)
      : "d"(q), [g] "r"(g)
      : "cc", "memory");
  return h1;
}

#endif

} // namespace mpn
} // namespace mpb
