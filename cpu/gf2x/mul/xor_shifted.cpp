// cpu/gf2x/mul/xor_shifted.cpp: the linear passes of Karatsuba / Toom (r ^= a, r ^= a * x^s) on
// 512-bit vectors when the CPU has AVX-512F, chosen once at load time. The library itself is
// compiled for baseline x86-64, so without this the passes run 128 bits wide.
#include "core/intrinsics.h"

#include "core/cpu_features.h"
#include "gf2x/mul/mul_internal.h"


namespace mpb {
namespace gf2x {
namespace detail {

static void xor_into_scalar(limb *r, const limb *a, size_t n) {
  for (size_t i = 0; i < n; ++i) r[i] ^= a[i];
}
static void xor_shl_scalar(limb *r, size_t rn, const limb *a, size_t an, unsigned s) {
  xor_shl_limbs(r, rn, a, an, s);
}

#if defined(__x86_64__)
#define MPB_TGT_AVX512 __attribute__((target("avx512f")))
MPB_TGT_AVX512 static void xor_into_avx512(limb *r, const limb *a, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m512i x = _mm512_xor_si512(_mm512_loadu_si512((const void *)(r + i)), _mm512_loadu_si512((const void *)(a + i)));
    _mm512_storeu_si512((void *)(r + i), x);
  }
  if (i < n) {
    __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
    __m512i x = _mm512_xor_si512(_mm512_maskz_loadu_epi64(m, r + i), _mm512_maskz_loadu_epi64(m, a + i));
    _mm512_mask_storeu_epi64(r + i, m, x);
  }
}
// r[0, m) ^= (a * x^s)[0, m), 1 <= s <= 63, then the bits shifted out of a[m-1] when room
MPB_TGT_AVX512 static void xor_shl_avx512(limb *r, size_t rn, const limb *a, size_t an, unsigned s) {
  size_t m = an < rn ? an : rn;
  if (m == 0) return;
  r[0] ^= a[0] << s;
  const __m512i vs = _mm512_set1_epi64(s), vt = _mm512_set1_epi64(64 - s);
  size_t i = 1;
  for (; i + 8 <= m; i += 8) {
    __m512i cur = _mm512_loadu_si512((const void *)(a + i));
    __m512i prv = _mm512_loadu_si512((const void *)(a + i - 1));
    __m512i v = _mm512_or_si512(_mm512_sllv_epi64(cur, vs), _mm512_srlv_epi64(prv, vt));
    _mm512_storeu_si512((void *)(r + i), _mm512_xor_si512(_mm512_loadu_si512((const void *)(r + i)), v));
  }
  for (; i < m; ++i) r[i] ^= (a[i] << s) | (a[i - 1] >> (64 - s));
  if (m < rn && m == an) r[m] ^= a[m - 1] >> (64 - s);
}
#endif

static LinearOps pick() {
#if defined(__x86_64__)
  if (cpu::has_avx512f()) return {xor_into_avx512, xor_shl_avx512};
#endif
  return {xor_into_scalar, xor_shl_scalar};
}
// Constant-initialized to the scalar loops, switched to AVX-512 at load time.
LinearOps g_linear = {xor_into_scalar, xor_shl_scalar};
static const bool g_linear_init = (g_linear = pick(), true);

} // namespace detail
} // namespace gf2x
} // namespace mpb
