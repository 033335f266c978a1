// Addition and subtraction of limb arrays, with carry/borrow out.
#include "core/asm.h"
#include "mpn/mpn.h"

namespace mpb {
namespace mpn {
using detail::addc;
using detail::subb;

#ifdef MPB_HAVE_ADX_ASM
// x86-64: one ADC/SBB chain, 4 limbs per iteration (baseline x86-64, no CPUID check).  The
// n mod 4 leading limbs are done in C; their carry enters the chain through "add $-1, c"
// (CF = c != 0).  DEC leaves CF alone.  rp may equal ap or bp: each limb is read before
// it is written.
#define MPB_ADDSUB_N(NAME, OP, CFUN)                                                          \
  limb NAME(limb *rp, const limb *ap, const limb *bp, size_t n) {                            \
    limb c = 0;                                                                              \
    size_t r = n & 3;                                                                        \
    for (size_t i = 0; i < r; i++) c = CFUN(ap[i], bp[i], c, &rp[i]);                         \
    size_t q = n >> 2;                                                                       \
    if (q == 0) return c;                                                                    \
    ap += r, bp += r, rp += r;                                                               \
    limb t0, t1, t2, t3;                                                                     \
    __asm__ volatile("add $-1, %[c]\n\t"                                                     \
                     "1:\n\t"                                                               \
                     "mov (%[ap]), %[t0]\n\t"                                               \
                     "mov 8(%[ap]), %[t1]\n\t"                                              \
                     "mov 16(%[ap]), %[t2]\n\t"                                             \
                     "mov 24(%[ap]), %[t3]\n\t"                                             \
                     OP " (%[bp]), %[t0]\n\t"                                               \
                     OP " 8(%[bp]), %[t1]\n\t"                                              \
                     OP " 16(%[bp]), %[t2]\n\t"                                             \
                     OP " 24(%[bp]), %[t3]\n\t"                                             \
                     "mov %[t0], (%[rp])\n\t"                                               \
                     "mov %[t1], 8(%[rp])\n\t"                                              \
                     "mov %[t2], 16(%[rp])\n\t"                                             \
                     "mov %[t3], 24(%[rp])\n\t"                                             \
                     "lea 32(%[ap]), %[ap]\n\t"                                             \
                     "lea 32(%[bp]), %[bp]\n\t"                                             \
                     "lea 32(%[rp]), %[rp]\n\t"                                             \
                     "dec %[q]\n\t"                                                         \
                     "jnz 1b\n\t"                                                           \
                     "mov $0, %k[c]\n\t"                                                    \
                     "adc $0, %k[c]\n\t"                                                    \
                     : [c] "+&r"(c), [ap] "+&r"(ap), [bp] "+&r"(bp), [rp] "+&r"(rp), [q] "+&r"(q), \
                       [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)       \
                     :                                                                       \
                     : "cc", "memory");                                                      \
    return c;                                                                                \
  }
MPB_ADDSUB_N(add_n, "adc", addc)
MPB_ADDSUB_N(sub_n, "sbb", subb)
#undef MPB_ADDSUB_N
#else
limb add_n(limb *rp, const limb *ap, const limb *bp, size_t n) {
  limb c = 0;
  for (size_t i = 0; i < n; i++) c = addc(ap[i], bp[i], c, &rp[i]);
  return c;
}

limb sub_n(limb *rp, const limb *ap, const limb *bp, size_t n) {
  limb b = 0;
  for (size_t i = 0; i < n; i++) b = subb(ap[i], bp[i], b, &rp[i]);
  return b;
}
#endif

namespace {
// a + b or a - b for one limb b (Op: addc or subb): the carry runs only while it lasts, then the
// rest of a is copied (nothing to do in place).
template <limb (*Op)(limb, limb, limb, limb *)>
inline limb carry_1(limb *rp, const limb *ap, size_t n, limb b) {
  size_t i = 0;
  for (; i < n && b; i++) b = Op(ap[i], b, 0, &rp[i]);
  if (rp != ap)
    for (; i < n; i++) rp[i] = ap[i];
  return b;
}
} // namespace

limb add_1(limb *rp, const limb *ap, size_t n, limb b) { return carry_1<addc>(rp, ap, n, b); }

limb sub_1(limb *rp, const limb *ap, size_t n, limb b) { return carry_1<subb>(rp, ap, n, b); }

limb add(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn) {
  MPB_ASSERT(an >= bn);
  limb c = add_n(rp, ap, bp, bn);
  return add_1(rp + bn, ap + bn, an - bn, c);
}

limb sub(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn) {
  MPB_ASSERT(an >= bn);
  limb b = sub_n(rp, ap, bp, bn);
  return sub_1(rp + bn, ap + bn, an - bn, b);
}

int sub_abs_n(limb *rp, const limb *ap, const limb *bp, size_t n) {
  if (cmp(ap, bp, n) >= 0) {
    sub_n(rp, ap, bp, n);
    return 0;
  }
  sub_n(rp, bp, ap, n);
  return 1;
}

#ifdef MPB_HAVE_ADX_ASM
// x86-64: rp = ap +- (bp & mask), 4 limbs per iteration: the four masked limbs first (AND
// clears CF), then the chain of four ADC/SBB with the carry kept as 0 / -1 between iterations
// ("add $-1, c" sets CF from it, "sbb c, c" saves it). The n mod 4 leading limbs in C. Every
// limb of bp is read and masked whatever cond is. (The C loop, with its carry through setc
// per limb, was 6% of an RSA-2048 item on the scalar path: one subtraction per Montgomery
// product.)
#define MPB_CND_ADDSUB_N(NAME, OP, CFUN)                                                     \
  limb NAME(limb cond, limb *rp, const limb *ap, const limb *bp, size_t n) {                 \
    const limb mask = (limb)0 - (limb)(cond != 0);                                           \
    limb c = 0;                                                                              \
    size_t r = n & 3;                                                                        \
    for (size_t i = 0; i < r; i++) c = CFUN(ap[i], bp[i] & mask, c, &rp[i]);                  \
    size_t q = n >> 2;                                                                       \
    if (q == 0) return c;                                                                    \
    ap += r, bp += r, rp += r;                                                               \
    c = (limb)0 - c;                                                                         \
    limb t0, t1, t2, t3, u;                                                                  \
    __asm__ volatile("1:\n\t"                                                               \
                     "mov (%[bp]), %[t0]\n\t"                                               \
                     "mov 8(%[bp]), %[t1]\n\t"                                              \
                     "mov 16(%[bp]), %[t2]\n\t"                                             \
                     "mov 24(%[bp]), %[t3]\n\t"                                             \
                     "and %[mask], %[t0]\n\t"                                               \
                     "and %[mask], %[t1]\n\t"                                               \
                     "and %[mask], %[t2]\n\t"                                               \
                     "and %[mask], %[t3]\n\t"                                               \
                     "add $-1, %[c]\n\t"                                                    \
                     "mov (%[ap]), %[u]\n\t"                                                \
                     OP " %[t0], %[u]\n\t"                                                  \
                     "mov %[u], (%[rp])\n\t"                                                \
                     "mov 8(%[ap]), %[u]\n\t"                                               \
                     OP " %[t1], %[u]\n\t"                                                  \
                     "mov %[u], 8(%[rp])\n\t"                                               \
                     "mov 16(%[ap]), %[u]\n\t"                                              \
                     OP " %[t2], %[u]\n\t"                                                  \
                     "mov %[u], 16(%[rp])\n\t"                                              \
                     "mov 24(%[ap]), %[u]\n\t"                                              \
                     OP " %[t3], %[u]\n\t"                                                  \
                     "mov %[u], 24(%[rp])\n\t"                                              \
                     "sbb %[c], %[c]\n\t"                                                   \
                     "lea 32(%[ap]), %[ap]\n\t"                                             \
                     "lea 32(%[bp]), %[bp]\n\t"                                             \
                     "lea 32(%[rp]), %[rp]\n\t"                                             \
                     "dec %[q]\n\t"                                                         \
                     "jnz 1b\n\t"                                                           \
                     : [c] "+&r"(c), [ap] "+&r"(ap), [bp] "+&r"(bp), [rp] "+&r"(rp), [q] "+&r"(q), \
                       [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [u] "=&r"(u) \
                     : [mask] "r"(mask)                                                      \
                     : "cc", "memory");                                                      \
    return c & 1;                                                                            \
  }
MPB_CND_ADDSUB_N(cnd_add_n, "adc", addc)
MPB_CND_ADDSUB_N(cnd_sub_n, "sbb", subb)
#undef MPB_CND_ADDSUB_N
#else
limb cnd_add_n(limb cond, limb *rp, const limb *ap, const limb *bp, size_t n) {
  limb mask = (limb)0 - (limb)(cond != 0);
  limb c = 0;
  for (size_t i = 0; i < n; i++) c = addc(ap[i], bp[i] & mask, c, &rp[i]);
  return c;
}

limb cnd_sub_n(limb cond, limb *rp, const limb *ap, const limb *bp, size_t n) {
  limb mask = (limb)0 - (limb)(cond != 0);
  limb b = 0;
  for (size_t i = 0; i < n; i++) b = subb(ap[i], bp[i] & mask, b, &rp[i]);
  return b;
}
#endif

} // namespace mpn
} // namespace mpb
