// x86-64 single-limb products with MULX (BMI2) and the two independent carry chains of
// ADCX (CF) / ADOX (OF), as GCC inline assembly (no -m flags needed: the caller checks
// CPUID through cpu::has_mulx_adx() before calling these).
//
// Main loops handle 4 limbs per iteration; the n mod 4 leading limbs go through the same
// instructions one limb at a time first (no C fallback, so the carry stays in a register).
// Loop control uses LEA + JRCXZ, which leave CF and OF alone.
#include "mul_internal.h"

#ifdef MPB_HAVE_ADX_ASM

namespace mpb {
namespace mpn {
namespace kern {

// rp[0..n) = ap * b, returns the high limb.  One carry chain (CF) adds the previous high
// half to the current low half.
limb mul_1_adx(limb *rp, const limb *ap, size_t n, limb b) {
  limb c = 0;
  size_t r = n & 3;
  for (size_t i = 0; i < r; i++) {  // leading n mod 4 limbs, C (at most 3)
    dlimb p = (dlimb)ap[i] * b + c;
    rp[i] = (limb)p;
    c = (limb)(p >> 64);
  }
  size_t q = n >> 2;
  if (q == 0) return c;
  ap += r;
  rp += r;
  limb lo0, hi0, lo1, cnt = (limb)0 - q;
  __asm__ volatile(
      "xor %k[lo0], %k[lo0]\n\t"  // CF = OF = 0
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
      : "d"(b)
      : "cc", "memory");
  return c;
}

// rp[0..n) += ap * b, returns the carry limb.  CF chain: low half + previous high half;
// OF chain: + rp[i].
limb addmul_1_adx(limb *rp, const limb *ap, size_t n, limb b) {
  limb c = 0;
  size_t r = n & 3;
  for (size_t i = 0; i < r; i++) {
    dlimb p = (dlimb)ap[i] * b + rp[i] + c;
    rp[i] = (limb)p;
    c = (limb)(p >> 64);
  }
  size_t q = n >> 2;
  if (q == 0) return c;
  ap += r;
  rp += r;
  limb lo0, hi0, lo1, cnt = (limb)0 - q;
  __asm__ volatile(
      "xor %k[lo0], %k[lo0]\n\t"
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
      : "d"(b)
      : "cc", "memory");
  return c;
}

// rp[0..n) -= ap * b, returns the borrow limb.  Uses r - t - bin = ~(~r + t + bin): the OF
// chain adds the product word t to ~rp[i]; its carry is the borrow.
limb submul_1_adx(limb *rp, const limb *ap, size_t n, limb b) {
  limb c = 0;
  size_t r = n & 3;
  for (size_t i = 0; i < r; i++) {
    dlimb p = (dlimb)ap[i] * b + c;
    limb lo = (limb)p;
    c = (limb)(p >> 64);
    limb x = rp[i];
    rp[i] = x - lo;
    c += (x < lo);
  }
  size_t q = n >> 2;
  if (q == 0) return c;
  ap += r;
  rp += r;
  limb lo0, hi0, lo1, t0, cnt = (limb)0 - q;
  __asm__ volatile(
      "xor %k[lo0], %k[lo0]\n\t"
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
      : "d"(b)
      : "cc", "memory");
  return c;
}

} // namespace kern
} // namespace mpn
} // namespace mpb

#endif // MPB_HAVE_ADX_ASM
