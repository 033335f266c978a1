// cpu/gf2x/mul/sqr.cpp: GF(2)[x] squaring by bit spreading (a^2 = sum a_i x^(2i)).
// PCLMULQDQ (a_i * a_i carry-less), BMI2 PDEP, or a 256-entry byte table. In-place allowed:
// limbs are processed from the top, so a[i] is read before c[2i], c[2i+1] are written.
#include "core/intrinsics.h"

#include "core/cpu_features.h"
#include "gf2x/mul/mul_internal.h"

namespace mpb {
namespace gf2x {

namespace {
struct SpreadTable {
  uint16_t v[256];
  constexpr SpreadTable() : v() {
    for (int i = 0; i < 256; ++i) {
      uint16_t r = 0;
      for (int j = 0; j < 8; ++j)
        if (i >> j & 1) r |= (uint16_t)(1u << (2 * j));
      v[i] = r;
    }
  }
};
constexpr SpreadTable k_spread;

inline limb spread32(uint32_t x) {
  return (limb)k_spread.v[x & 255] | (limb)k_spread.v[(x >> 8) & 255] << 16 |
         (limb)k_spread.v[(x >> 16) & 255] << 32 | (limb)k_spread.v[x >> 24] << 48;
}

void sqr_table(limb *c, const limb *a, size_t n) {
  for (size_t i = n; i-- > 0;) {
    limb v = a[i];
    c[2 * i + 1] = spread32((uint32_t)(v >> 32));
    c[2 * i] = spread32((uint32_t)v);
  }
}

#if defined(__x86_64__)
__attribute__((target("pclmul,sse4.1"))) void sqr_pclmul(limb *c, const limb *a, size_t n) {
  for (size_t i = n; i-- > 0;) {
    __m128i v = _mm_cvtsi64_si128((long long)a[i]);
    _mm_storeu_si128((__m128i *)(c + 2 * i), _mm_clmulepi64_si128(v, v, 0));
  }
}
#endif
} // namespace

void sqr(limb *c, const limb *a, size_t n) {
#if defined(__x86_64__)
  if (clmul_path() != ClmulPath::Portable) {
    sqr_pclmul(c, a, n);
    return;
  }
#endif
  sqr_table(c, a, n);
}

} // namespace gf2x
} // namespace mpb
