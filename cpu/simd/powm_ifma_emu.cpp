// cpu/simd/powm_ifma_emu.cpp: the IFMA engine's kernel (cpu/simd/ifma_kernel.h: mont_rows_sqr and
// amm_reg at 20 digits, the product and square tiles, the table selections, every compile-time
// and the run-time digit count) on eight 64-bit lanes of plain C++, for any CPU.
//
// VPMADD52LUQ/HUQ are computed exactly as the instructions define them (the low 52 bits of
// each operand, the low or the high 52 bits of the 104-bit product added to the 64-bit lane),
// so a result is the IFMA engine's result bit for bit. The tests and the constant-time checks
// run the kernel through it (powm_x8e) where the CPU has no AVX-512 IFMA: CI's machines, the
// sanitizer builds, valgrind, aarch64 under qemu. AUTO never uses it.
//
// Its loops stay rolled (MPB_ROLLED_LOOPS, core/unroll.h): the same results and data flow as
// the unrolled instance, a fraction of the compile time (each vector operation is a loop
// here). The products go through mul_wide (core/limb.h), whose high half MemorySanitizer
// sees as secret in the constant-time check build.
#ifndef MPB_ROLLED_LOOPS
#define MPB_ROLLED_LOOPS 1
#endif

#include "core/limb.h"
#include "simd/lanes_impl.h"
#include "core/unroll.h"

namespace mpb {
namespace simd {
namespace detail {
namespace {

// The vector operations of cpu/simd/ifma_kernel.h on eight lanes. (may_alias: the kernel views
// the driver's uint64_t arrays as arrays of V, as the intrinsic vector type allows.)
struct
#if defined(__GNUC__)
    __attribute__((may_alias))
#endif
    V {
  alignas(64) uint64_t l[8];
};
using Mask = V;  // all ones in a selected lane, zero elsewhere
constexpr uint64_t kM52 = (uint64_t(1) << 52) - 1;

static inline V vzero() { return V{}; }
static inline V vset1(uint64_t x) {
  V r;
  for (int i = 0; i < 8; ++i) r.l[i] = x;
  return r;
}
static inline V vload(const uint64_t *p) {
  V r;
  for (int i = 0; i < 8; ++i) r.l[i] = p[i];
  return r;
}
static inline V vadd(V a, V b) {
  for (int i = 0; i < 8; ++i) a.l[i] += b.l[i];
  return a;
}
static inline V vsub(V a, V b) {
  for (int i = 0; i < 8; ++i) a.l[i] -= b.l[i];
  return a;
}
static inline V vand(V a, V b) {
  for (int i = 0; i < 8; ++i) a.l[i] &= b.l[i];
  return a;
}
static inline V vshr52(V a) {
  for (int i = 0; i < 8; ++i) a.l[i] >>= 52;
  return a;
}
static inline V madlo(V z, V x, V y) {  // the low 52 bits of the product: those of its low limb
  for (int i = 0; i < 8; ++i) z.l[i] += ((x.l[i] & kM52) * (y.l[i] & kM52)) & kM52;
  return z;
}
static inline V madhi(V z, V x, V y) {  // bits 52..103 of the product
  for (int i = 0; i < 8; ++i) {
    uint64_t lo;
    const uint64_t hi = mpb::detail::mul_wide(x.l[i] & kM52, y.l[i] & kM52, &lo);
    z.l[i] += (hi << 12) | (lo >> 52);
  }
  return z;
}
static inline Mask veq(V a, V b) {  // without a branch: x == 0 exactly in an equal lane
  Mask k;
  for (int i = 0; i < 8; ++i) {
    const uint64_t x = a.l[i] ^ b.l[i];
    k.l[i] = ((x | (0 - x)) >> 63) - 1;
  }
  return k;
}
static inline V vblend(V o, Mask k, V s) {
  for (int i = 0; i < 8; ++i) o.l[i] = (o.l[i] & ~k.l[i]) | (s.l[i] & k.l[i]);
  return o;
}

static inline V valign1(V hi, V lo) {  // lo's lanes 1..7, then hi's lane 0
  V r;
  for (int i = 0; i < 7; ++i) r.l[i] = lo.l[i + 1];
  r.l[7] = hi.l[0];
  return r;
}

#define MPB_IFMA_INLINE
#include "simd/ifma_kernel.h"

}  // namespace

void ifma_emu_kernel(const Job &job) { run_any(job); }

} // namespace detail
} // namespace simd
} // namespace mpb
