// cpu/simd/powm_portable.cpp: the lane arithmetic of cpu/simd/lanes_loop.h (the AVX2 and
// AVX-512F engines' shared exponentiation: almost-Montgomery products with 26- to 28-bit digits,
// lazy carries, the four-row passes and their overlapped heads, the fixed-window table, the
// base-2 doubling) instantiated on two 64-bit lanes of plain C++, for any CPU.
//
// It is the reference instance of that template: test_simd_powm runs every case through it
// against GMP on every machine (aarch64 under qemu included), so a change to lanes_loop.h is
// checked where neither AVX2 nor AVX-512 exists, e.g. for the AVX-512F engine on an AVX2-only
// development machine. AUTO does not use it (the scalar MULX/ADX path is faster wherever the
// library runs it); its 32x32 -> 64 products are what NEON's UMULL and SSE2's PMULUDQ do, and
// the compiler may vectorize it.
#include "simd/lanes_impl.h"
#include "simd/lanes_loop.h"

namespace mpb {
namespace simd {
namespace detail {
namespace {

// The instruction set as lanes_loop.h takes it, with KB-bit digits, two lanes per vector.
template <unsigned KB>
struct Arith {
  static constexpr unsigned kBits = KB;
  // (may_alias: the kernel views the driver's uint64_t arrays as arrays of V, as the intrinsic
  // vector types of the other instances allow)
  struct
#if defined(__GNUC__)
      __attribute__((may_alias))
#endif
      V {
    uint64_t v[2];
  };
  static constexpr bool kRows4 = true;
  static constexpr size_t kSqrRows4From = 48;  // both squaring shapes run: two-row passes (AVX-512F's) below 48 digits, four-row (AVX2's) from 48
  static constexpr bool kPackedTable = false;
  static constexpr uint64_t kMask = (uint64_t(1) << KB) - 1;
  static V zero() { return V{{0, 0}}; }
  static V load(const uint64_t *p) { return V{{p[0], p[1]}}; }
  static V add(V a, V b) { return V{{a.v[0] + b.v[0], a.v[1] + b.v[1]}}; }
  static V mul(V a, V b) {  // the low 32 bits of each lane, exact 64-bit products
    return V{{(a.v[0] & 0xffffffffu) * (b.v[0] & 0xffffffffu), (a.v[1] & 0xffffffffu) * (b.v[1] & 0xffffffffu)}};
  }
  static V lowk(V a) { return V{{a.v[0] & kMask, a.v[1] & kMask}}; }
  static V highk(V a) { return V{{a.v[0] >> KB, a.v[1] >> KB}}; }
  // Every entry is read, each masked by (idx == e) made without a branch.
  static void select(V *out, const V *tab, size_t N, V idx, unsigned entries) {
    for (size_t d = 0; d < N; ++d) out[d] = zero();
    for (unsigned e = 0; e < entries; ++e) {
      V k;
      for (unsigned l = 0; l < 2; ++l) {
        const uint64_t x = idx.v[l] ^ e;  // 0 exactly when selected
        k.v[l] = ((x | (0 - x)) >> 63) - 1;  // all ones when x == 0
      }
      const V *te = tab + e * N;
      for (size_t d = 0; d < N; ++d)
        for (unsigned l = 0; l < 2; ++l) out[d].v[l] |= k.v[l] & te[d].v[l];
    }
  }
  static V window(const Job &job, size_t pos, unsigned len) {
    return V{{window_bits(job.exp[0], job.en, pos, len), window_bits(job.exp[1], job.en, pos, len)}};
  }
};

}  // namespace

void portable_kernel(const Job &job) { window_exp_any<Arith>(job); }

} // namespace detail
} // namespace simd
} // namespace mpb
