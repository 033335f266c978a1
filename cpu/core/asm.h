// cpu/core/asm.h: whether the x86-64 GCC inline-assembly kernels (MULX/ADCX/ADOX rows, ADC/SBB
// chains, the unrolled Comba products, DIVQ) are compiled in. -DMPB_NO_ASM leaves only C and
// intrinsics: the MemorySanitizer build of the constant-time check (tests/ct) uses it, since
// MemorySanitizer cannot see inside inline assembly.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(MPB_NO_ASM)
#define MPB_HAVE_ADX_ASM 1
#endif
