// cuda/thread/chain.cuh: 32-bit carry-chain primitives for the per-thread GPU arithmetic.
//
// On the device these are single PTX instructions that use the hardware carry flag
// (add.cc / addc / mad.lo.cc / madc.hi ...). On the host the same calls run on an emulated
// flag held in the Chain object, so every algorithm written with them is exercised by the
// CPU tests (tests/cuda/on_host/test_on_host_thread.cpp) against GMP.
//
// Usage: a chain is a sequence of calls on one Chain object that starts with a *_cc call
// without carry-in (add_cc, mad_lo_cc, ...) and continues with carry-in variants (addc*,
// madc*). Nothing else may touch the carry flag in between on the device: keep chains in
// straight-line unrolled code.
#pragma once
#include <stdint.h>

#include "core/hd.h"

// Loop unrolling hints for the device compiler (no effect on the host build).
#if defined(__CUDACC__)
#define MPB_UNROLL _Pragma("unroll")
#define MPB_NOUNROLL _Pragma("unroll 1")
#else
#define MPB_UNROLL
#define MPB_NOUNROLL
#endif

namespace mpb {
namespace gpu {

struct Chain {
#if defined(__CUDA_ARCH__)
  // ---- device: the hardware carry flag -----------------------------------------------
  MPB_HD uint32_t add_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  MPB_HD uint32_t addc_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  MPB_HD uint32_t addc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  MPB_HD uint32_t sub_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  MPB_HD uint32_t subc_cc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  MPB_HD uint32_t subc(uint32_t a, uint32_t b) {
    uint32_t r;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  // lo(a*b) + c
  MPB_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  MPB_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  MPB_HD uint32_t madc_lo(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("madc.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  // hi(a*b) + c
  MPB_HD uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  MPB_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  MPB_HD uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
#else
  // ---- host: an emulated flag (carry for additions, borrow for subtractions) ---------
  uint32_t cf = 0;
  MPB_HD uint32_t add_cc(uint32_t a, uint32_t b) {
    uint64_t s = (uint64_t)a + b;
    cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
  }
  MPB_HD uint32_t addc_cc(uint32_t a, uint32_t b) {
    uint64_t s = (uint64_t)a + b + cf;
    cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
  }
  MPB_HD uint32_t addc(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a + b + cf); }
  MPB_HD uint32_t sub_cc(uint32_t a, uint32_t b) {
    uint64_t d = (uint64_t)a - b;
    cf = (uint32_t)(d >> 63);
    return (uint32_t)d;
  }
  MPB_HD uint32_t subc_cc(uint32_t a, uint32_t b) {
    uint64_t d = (uint64_t)a - b - cf;
    cf = (uint32_t)(d >> 63);
    return (uint32_t)d;
  }
  MPB_HD uint32_t subc(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a - b - cf); }
  MPB_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return add_cc(a * b, c); }
  MPB_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return addc_cc(a * b, c); }
  MPB_HD uint32_t madc_lo(uint32_t a, uint32_t b, uint32_t c) { return addc(a * b, c); }
  MPB_HD uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    return add_cc((uint32_t)(((uint64_t)a * b) >> 32), c);
  }
  MPB_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    return addc_cc((uint32_t)(((uint64_t)a * b) >> 32), c);
  }
  MPB_HD uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
    return addc((uint32_t)(((uint64_t)a * b) >> 32), c);
  }
#endif
};

// lo/hi of a 32x32 product outside chains
MPB_HD uint32_t mul_lo(uint32_t a, uint32_t b) { return a * b; }
MPB_HD uint32_t mul_hi(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}

// Branch-free select: mask is all ones or zero.
MPB_HD uint32_t select(uint32_t mask, uint32_t if_set, uint32_t if_clear) {
  return (if_set & mask) | (if_clear & ~mask);
}
// All ones when a == b, else zero, without a branch.
MPB_HD uint32_t eq_mask(uint32_t a, uint32_t b) {
  uint32_t x = a ^ b;
  return (uint32_t)(((uint64_t)x - 1) >> 32);  // x == 0 -> 0xFFFFFFFF
}

} // namespace gpu
} // namespace mpb
