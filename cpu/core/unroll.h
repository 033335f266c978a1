// cpu/core/unroll.h: MPB_UNROLL(n), the one loop-unrolling marker of the CPU kernels.
//
// A kernel loop whose trip count is a compile-time constant (a Comba column, a carry-less
// base case, an IFMA operand window) is written once and unrolled by the compiler: n copies
// of the body, which keeps the operands in registers. A sanitizer, fuzzing or constant-time
// check build (MPB_ROLLED_LOOPS, CMakeLists.txt) keeps such loops rolled: the same results and
// the same data flow, and minutes less of instrumentation (clang + ASan/UBSan + libFuzzer's
// coverage: mul_comba.cpp 53 s unrolled, 2 s rolled; mul_clmul.cpp 20 s against 3 s; Zen 3,
// 2026-11-28). Whether a secret reaches a branch, an address or a syscall does not depend on
// unrolling a loop whose trip count is public.
#pragma once

#define MPB_PRAGMA(x) _Pragma(#x)
#if defined(MPB_ROLLED_LOOPS)
#define MPB_UNROLL(n) MPB_PRAGMA(GCC unroll 1)
#else
#define MPB_UNROLL(n) MPB_PRAGMA(GCC unroll n)
#endif
