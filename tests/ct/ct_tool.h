// tests/ct/ct_tool.h: how tests/ct/ct_check.cpp marks secrets and reveals results, for each of
// the two tools that run it.
//  - valgrind memcheck (build -DMPB_VALGRIND_CT=ON, CTest runs the program under valgrind):
//    client requests make memory undefined / defined. memcheck reports a conditional jump, a
//    memory address or a system call argument that depends on undefined bits. It sees inline
//    assembly (it runs the machine code), but it emulates no AVX-512: the IFMA kernels are not
//    run under it. Their logic is, through the instance with the instructions emulated in C++
//    (case ifma_emu_lanes, cpu/simd/powm_ifma_emu.cpp: the same kernel text, ifma_kernel.h).
//  - MemorySanitizer (build -DMPB_MSAN_CT=ON, clang, native run): poison / unpoison. It reports
//    a conditional branch, a pointer dereference or a divisor that depends on poisoned bits,
//    and it runs the AVX-512 IFMA kernels (their intrinsics propagate poison lane by lane).
//    It cannot see inside inline assembly, so that build compiles none (-DMPB_NO_ASM: the
//    portable C kernels replace the MULX/ADX ones, which valgrind covers instead). Its shadow of
//    a sum or product is the OR of the operands' shadows bit for bit, so the carry out of a
//    128-bit sum of limbs and the high half of a 128-bit product would look public: in this
//    build cpu/core/limb.h computes addc / subb's carries as comparisons and poisons mul_wide's
//    high half (the sanity_borrow_branch / sanity_product_branch cases check both). The code
//    that does its own 128-bit arithmetic (the portable delayed-carry Comba kernels, the gcd /
//    inverse steps) keeps that blind spot here. Valgrind sees such carries (through the flags),
//    but it runs the MULX/ADX kernels in the Comba kernels' place, so a branch on a carry inside
//    the portable Comba kernels would be seen by neither tool (they have none by construction).
// Neither sees the timing of single instructions (a variable-latency multiply, for example);
// both cover only the paths the test's inputs take.
#pragma once
#include <cstddef>

#if defined(MPB_MSAN_CT)
#include <sanitizer/msan_interface.h>
#define CT_TOOL_NAME "MemorySanitizer"
inline void secret(const void *p, size_t bytes) { __msan_poison(p, bytes); }
inline void reveal_mem(const void *p, size_t bytes) { __msan_unpoison(p, bytes); }
#else
#include <valgrind/memcheck.h>
#define CT_TOOL_NAME "valgrind memcheck"
inline void secret(const void *p, size_t bytes) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, bytes); }
inline void reveal_mem(const void *p, size_t bytes) { (void)VALGRIND_MAKE_MEM_DEFINED(p, bytes); }
#endif
