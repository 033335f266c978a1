// x86-64 single-limb products with MULX (BMI2) and the two independent carry chains of
// ADCX (CF) / ADOX (OF), as GCC inline assembly (no -m flags needed: the caller checks
// CPUID through cpu::has_mulx_adx() before calling these).
//
// Main loops handle 4 limbs per iteration; the n mod 4 leading limbs go through the same
// instructions one limb at a time first, inside the same asm block, so the carries stay in
// CF/OF and the carry limb in a register.  Loop control uses LEA + JRCXZ (and MOV to reload
// the counter), which leave CF and OF alone.
#include "mpn/mul/mul_internal.h"

#ifdef MPB_HAVE_ADX_ASM

namespace mpb {
namespace mpn {
namespace kern {

// rp[0..n) = ap * b, returns the high limb.  One carry chain (CF) adds the previous high
// half to the current low half.
limb mul_1_adx(limb *rp, const limb *ap, size_t n, limb b) {
  if (n == 0) return 0;
  limb c = 0, lo0, hi0, lo1;
  limb cnt = (limb)0 - (n & 3), nq = (limb)0 - (n >> 2);
  __asm__ volatile(
      "xor %k[lo0], %k[lo0]\n\t"  // CF = OF = 0
      "jrcxz 3f\n"
      "4:\n\t"                    // n mod 4 single limbs
      "mulx (%[ap]), %[lo0], %[hi0]\n\t"
      "adcx %[c], %[lo0]\n\t"
      "mov %[lo0], (%[rp])\n\t"
      "mov %[hi0], %[c]\n\t"
      "lea 8(%[ap]), %[ap]\n\t"
      "lea 8(%[rp]), %[rp]\n\t"
      "lea 1(%[cnt]), %[cnt]\n\t"
      "jrcxz 3f\n\t"
      "jmp 4b\n"
      "3:\n\t"
      "mov %[nq], %[cnt]\n\t"
      "jrcxz 5f\n\t"  // JRCXZ reaches only rel8: hop over the loop through a near JMP
      "jmp 1f\n"
      "5:\n\t"
      "jmp 2f\n"
      "1:\n\t"
      "mulx (%[ap]), %[lo0], %[hi0]\n\t"
      "adcx %[c], %[lo0]\n\t"
      "mov %[lo0], (%[rp])\n\t"
      "mulx 8(%[ap]), %[lo1], %[c]\n\t"
      "adcx %[hi0], %[lo1]\n\t"
      "mov %[lo1], 8(%[rp])\n\t"
      "mulx 16(%[ap]), %[lo0], %[hi0]\n\t"
      "adcx %[c], %[lo0]\n\t"
      "mov %[lo0], 16(%[rp])\n\t"
      "mulx 24(%[ap]), %[lo1], %[c]\n\t"
      "adcx %[hi0], %[lo1]\n\t"
      "mov %[lo1], 24(%[rp])\n\t"
      "lea 32(%[ap]), %[ap]\n\t"
      "lea 32(%[rp]), %[rp]\n\t"
      "lea 1(%[cnt]), %[cnt]\n\t"
      "jrcxz 2f\n\t"
      "jmp 1b\n"
      "2:\n\t"
      "mov $0, %k[lo0]\n\t"
      "adcx %[lo0], %[c]\n\t"
      : [c] "+&r"(c), [ap] "+&r"(ap), [rp] "+&r"(rp), [cnt] "+&c"(cnt), [lo0] "=&r"(lo0),
        [hi0] "=&r"(hi0), [lo1] "=&r"(lo1)
      : "d"(b), [nq] "r"(nq)
      : "cc", "memory");
  return c;
}

// rp[0..n) += ap * b, returns the carry limb.  CF chain: low half + previous high half;
// OF chain: + rp[i].
limb addmul_1_adx(limb *rp, const limb *ap, size_t n, limb b) {
  if (n == 0) return 0;
  limb c = 0, lo0, hi0, lo1;
  limb cnt = (limb)0 - (n & 3), nq = (limb)0 - (n >> 2);
  __asm__ volatile(
      "xor %k[lo0], %k[lo0]\n\t"
      "jrcxz 3f\n"
      "4:\n\t"
      "mulx (%[ap]), %[lo0], %[hi0]\n\t"
      "adcx %[c], %[lo0]\n\t"
      "adox (%[rp]), %[lo0]\n\t"
      "mov %[lo0], (%[rp])\n\t"
      "mov %[hi0], %[c]\n\t"
      "lea 8(%[ap]), %[ap]\n\t"
      "lea 8(%[rp]), %[rp]\n\t"
      "lea 1(%[cnt]), %[cnt]\n\t"
      "jrcxz 3f\n\t"
      "jmp 4b\n"
      "3:\n\t"
      "mov %[nq], %[cnt]\n\t"
      "jrcxz 5f\n\t"  // JRCXZ reaches only rel8: hop over the loop through a near JMP
      "jmp 1f\n"
      "5:\n\t"
      "jmp 2f\n"
      "1:\n\t"
      "mulx (%[ap]), %[lo0], %[hi0]\n\t"
      "adcx %[c], %[lo0]\n\t"
      "adox (%[rp]), %[lo0]\n\t"
      "mov %[lo0], (%[rp])\n\t"
      "mulx 8(%[ap]), %[lo1], %[c]\n\t"
      "adcx %[hi0], %[lo1]\n\t"
      "adox 8(%[rp]), %[lo1]\n\t"
      "mov %[lo1], 8(%[rp])\n\t"
      "mulx 16(%[ap]), %[lo0], %[hi0]\n\t"
      "adcx %[c], %[lo0]\n\t"
      "adox 16(%[rp]), %[lo0]\n\t"
      "mov %[lo0], 16(%[rp])\n\t"
      "mulx 24(%[ap]), %[lo1], %[c]\n\t"
      "adcx %[hi0], %[lo1]\n\t"
      "adox 24(%[rp]), %[lo1]\n\t"
      "mov %[lo1], 24(%[rp])\n\t"
      "lea 32(%[ap]), %[ap]\n\t"
      "lea 32(%[rp]), %[rp]\n\t"
      "lea 1(%[cnt]), %[cnt]\n\t"
      "jrcxz 2f\n\t"
      "jmp 1b\n"
      "2:\n\t"
      "mov $0, %k[lo0]\n\t"
      "adcx %[lo0], %[c]\n\t"
      "adox %[lo0], %[c]\n\t"
      : [c] "+&r"(c), [ap] "+&r"(ap), [rp] "+&r"(rp), [cnt] "+&c"(cnt), [lo0] "=&r"(lo0),
        [hi0] "=&r"(hi0), [lo1] "=&r"(lo1)
      : "d"(b), [nq] "r"(nq)
      : "cc", "memory");
  return c;
}

// rp[0..n) -= ap * b, returns the borrow limb.  Uses r - t - bin = ~(~r + t + bin): the OF
// chain adds the product word t to ~rp[i]; its carry is the borrow.
limb submul_1_adx(limb *rp, const limb *ap, size_t n, limb b) {
  if (n == 0) return 0;
  limb c = 0, lo0, hi0, lo1, t0;
  limb cnt = (limb)0 - (n & 3), nq = (limb)0 - (n >> 2);
  __asm__ volatile(
      "xor %k[lo0], %k[lo0]\n\t"
      "jrcxz 3f\n"
      "4:\n\t"
      "mulx (%[ap]), %[lo0], %[hi0]\n\t"
      "adcx %[c], %[lo0]\n\t"
      "mov (%[rp]), %[t0]\n\t"
      "not %[t0]\n\t"
      "adox %[lo0], %[t0]\n\t"
      "not %[t0]\n\t"
      "mov %[t0], (%[rp])\n\t"
      "mov %[hi0], %[c]\n\t"
      "lea 8(%[ap]), %[ap]\n\t"
      "lea 8(%[rp]), %[rp]\n\t"
      "lea 1(%[cnt]), %[cnt]\n\t"
      "jrcxz 3f\n\t"
      "jmp 4b\n"
      "3:\n\t"
      "mov %[nq], %[cnt]\n\t"
      "jrcxz 5f\n\t"  // JRCXZ reaches only rel8: hop over the loop through a near JMP
      "jmp 1f\n"
      "5:\n\t"
      "jmp 2f\n"
      "1:\n\t"
      "mulx (%[ap]), %[lo0], %[hi0]\n\t"
      "adcx %[c], %[lo0]\n\t"
      "mov (%[rp]), %[t0]\n\t"
      "not %[t0]\n\t"
      "adox %[lo0], %[t0]\n\t"
      "not %[t0]\n\t"
      "mov %[t0], (%[rp])\n\t"
      "mulx 8(%[ap]), %[lo1], %[c]\n\t"
      "adcx %[hi0], %[lo1]\n\t"
      "mov 8(%[rp]), %[t0]\n\t"
      "not %[t0]\n\t"
      "adox %[lo1], %[t0]\n\t"
      "not %[t0]\n\t"
      "mov %[t0], 8(%[rp])\n\t"
      "mulx 16(%[ap]), %[lo0], %[hi0]\n\t"
      "adcx %[c], %[lo0]\n\t"
      "mov 16(%[rp]), %[t0]\n\t"
      "not %[t0]\n\t"
      "adox %[lo0], %[t0]\n\t"
      "not %[t0]\n\t"
      "mov %[t0], 16(%[rp])\n\t"
      "mulx 24(%[ap]), %[lo1], %[c]\n\t"
      "adcx %[hi0], %[lo1]\n\t"
      "mov 24(%[rp]), %[t0]\n\t"
      "not %[t0]\n\t"
      "adox %[lo1], %[t0]\n\t"
      "not %[t0]\n\t"
      "mov %[t0], 24(%[rp])\n\t"
      "lea 32(%[ap]), %[ap]\n\t"
      "lea 32(%[rp]), %[rp]\n\t"
      "lea 1(%[cnt]), %[cnt]\n\t"
      "jrcxz 2f\n\t"
      "jmp 1b\n"
      "2:\n\t"
      "mov $0, %k[lo0]\n\t"
      "adcx %[lo0], %[c]\n\t"
      "adox %[lo0], %[c]\n\t"
      : [c] "+&r"(c), [ap] "+&r"(ap), [rp] "+&r"(rp), [cnt] "+&c"(cnt), [lo0] "=&r"(lo0),
        [hi0] "=&r"(hi0), [lo1] "=&r"(lo1), [t0] "=&r"(t0)
      : "d"(b), [nq] "r"(nq)
      : "cc", "memory");
  return c;
}

} // namespace kern
} // namespace mpn
} // namespace mpb

#endif // MPB_HAVE_ADX_ASM
