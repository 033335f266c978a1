// cpu/gf2x/mul/mul_clmul.cpp: carry-less base cases of GF(2)[x] multiplication.
//
// Three kernel sets, chosen at run time (cpu/core/cpu_features.h) and switchable for the tests:
//  - Vpclmul: AVX-512 VPCLMULQDQ product scanning, 8 output limbs per block (4 carry-less
//    products per instruction, masked loads for the edges of b);
//  - Pclmul: 128-bit PCLMULQDQ product scanning, 2 output limbs per block;
//  - Portable: the same product scanning over a windowed (4-bit) software 64x64 product.
// Product scanning: output block [k, k+B) collects acc0 = sum_i a_i * b[k-i .. k-i+B) (even
// qwords of each 128-bit lane) and acc1 = the odd ones, which land one limb higher; acc1 is
// shifted up by one limb across the block and its top limb carried into the next block.
// The unrolled n x n base cases (n <= 9) are the same code instantiated with constant sizes.
#include "core/intrinsics.h"

#include <cstring>

#include "core/cpu_features.h"
#include "core/unroll.h"
#include "gf2x/mul/mul_internal.h"


namespace mpb {
namespace gf2x {

// ---------------------------------------------------------------------------------------
// Portable: windowed software 64x64 -> 128 carry-less product.
static inline void mul1_portable(limb *lo, limb *hi, limb a, limb b) {
  limb tab[16];
  tab[0] = 0;
  tab[1] = a;
  for (int u = 2; u < 16; u += 2) {
    tab[u] = tab[u >> 1] << 1;
    tab[u + 1] = tab[u] ^ a;
  }
  limb l = tab[b & 15], h = 0;
  for (int i = 4; i < 64; i += 4) {
    limb t = tab[(b >> i) & 15];
    l ^= t << i;
    h ^= t >> (64 - i);
  }
  // bits 61..63 of a were dropped from the table entries u*a (u of degree 1..3): add them.
  h ^= ((b & 0xeeeeeeeeeeeeeeeeULL) >> 1) & (0 - (a >> 63));
  h ^= ((b & 0xccccccccccccccccULL) >> 2) & (0 - ((a >> 62) & 1));
  h ^= ((b & 0x8888888888888888ULL) >> 3) & (0 - ((a >> 61) & 1));
  *lo = l;
  *hi = h;
}

static inline __attribute__((always_inline)) void school_portable_impl(limb *c, const limb *a,
                                                                       size_t an, const limb *b,
                                                                       size_t bn) {
  limb carry = 0;  // high half of the previous column
  size_t cn = an + bn;
  for (size_t k = 0; k + 1 < cn; ++k) {
    size_t ilo = k + 1 > bn ? k + 1 - bn : 0;
    size_t ihi = k < an - 1 ? k : an - 1;
    limb l = 0, h = 0;
    for (size_t i = ilo; i <= ihi; ++i) {
      limb pl, ph;
      mul1_portable(&pl, &ph, a[i], b[k - i]);
      l ^= pl;
      h ^= ph;
    }
    c[k] = l ^ carry;
    carry = h;
  }
  c[cn - 1] = carry;
}

static void school_portable(limb *c, const limb *a, size_t an, const limb *b, size_t bn) {
  school_portable_impl(c, a, an, b, bn);
}
template <size_t N>
static void base_portable(limb *c, const limb *a, const limb *b) {
  school_portable_impl(c, a, N, b, N);
}

#if defined(__x86_64__) || defined(__i386__)
#define MPB_GF2X_X86 1
// ---------------------------------------------------------------------------------------
// PCLMULQDQ, 128 bits.
#define MPB_TGT_PCLMUL __attribute__((target("pclmul,sse4.1")))

MPB_TGT_PCLMUL static void mul1_pclmul(limb *lo, limb *hi, limb a, limb b) {
  __m128i p = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)a), _mm_cvtsi64_si128((long long)b), 0);
  *lo = (limb)_mm_cvtsi128_si64(p);
  *hi = (limb)_mm_extract_epi64(p, 1);
}

// b[s], b[s+1] with zeros outside [0, bn)
MPB_TGT_PCLMUL static inline __attribute__((always_inline)) __m128i load2(const limb *b, ptrdiff_t s,
                                                                          size_t bn) {
  if (s >= 0 && (size_t)s + 1 < bn) return _mm_loadu_si128((const __m128i *)(b + s));
  limb x0 = (s >= 0 && (size_t)s < bn) ? b[s] : 0;
  limb x1 = (s + 1 >= 0 && (size_t)(s + 1) < bn) ? b[s + 1] : 0;
  return _mm_set_epi64x((long long)x1, (long long)x0);
}

MPB_TGT_PCLMUL static inline __attribute__((always_inline)) void school_pclmul_impl(
    limb *c, const limb *a, size_t an, const limb *b, size_t bn) {
  size_t cn = an + bn;
  __m128i prev1 = _mm_setzero_si128();
  MPB_UNROLL(9)
  for (size_t k = 0; k < cn; k += 2) {
    __m128i acc0 = _mm_setzero_si128(), acc1 = _mm_setzero_si128();
    size_t ilo = k + 1 > bn ? k + 1 - bn : 0;
    size_t ihi = k + 1 < an - 1 ? k + 1 : an - 1;
    MPB_UNROLL(9)
    for (size_t i = ilo; i <= ihi; ++i) {
      __m128i A = _mm_loadl_epi64((const __m128i *)(a + i));
      __m128i B = load2(b, (ptrdiff_t)k - (ptrdiff_t)i, bn);
      acc0 = _mm_xor_si128(acc0, _mm_clmulepi64_si128(A, B, 0x00));
      acc1 = _mm_xor_si128(acc1, _mm_clmulepi64_si128(A, B, 0x10));
    }
    __m128i out = _mm_xor_si128(acc0, _mm_xor_si128(_mm_slli_si128(acc1, 8), _mm_srli_si128(prev1, 8)));
    prev1 = acc1;
    if (k + 1 < cn)
      _mm_storeu_si128((__m128i *)(c + k), out);
    else
      c[k] = (limb)_mm_cvtsi128_si64(out);
  }
}

MPB_TGT_PCLMUL static void school_pclmul(limb *c, const limb *a, size_t an, const limb *b, size_t bn) {
  school_pclmul_impl(c, a, an, b, bn);
}
template <size_t N>
MPB_TGT_PCLMUL static void base_pclmul(limb *c, const limb *a, const limb *b) {
  school_pclmul_impl(c, a, N, b, N);
}

// ---------------------------------------------------------------------------------------
// VPCLMULQDQ on 512-bit vectors (AVX-512F/BW for masks and alignr).
#define MPB_TGT_VPCLMUL __attribute__((target("avx512f,avx512bw,avx512vl,vpclmulqdq,pclmul,sse4.1")))

// b[s .. s+8) with zeros outside [0, bn); masked-off lanes are not accessed.
MPB_TGT_VPCLMUL static inline __attribute__((always_inline)) __m512i load8(const limb *b, ptrdiff_t s,
                                                                           size_t bn) {
  if (s >= 0 && (size_t)s + 8 <= bn) return _mm512_loadu_si512((const void *)(b + s));
  ptrdiff_t lo = s < 0 ? -s : 0;
  ptrdiff_t hi = (ptrdiff_t)bn - s;
  if (hi > 8) hi = 8;
  unsigned m = ((1u << hi) - 1u) & ~((1u << lo) - 1u);
  const limb *p = (const limb *)((uintptr_t)b + (uintptr_t)(s * (ptrdiff_t)sizeof(limb)));
  return _mm512_maskz_loadu_epi64((__mmask8)m, (const void *)p);
}

MPB_TGT_VPCLMUL static inline __attribute__((always_inline)) void school_vpclmul_impl(
    limb *c, const limb *a, size_t an, const limb *b, size_t bn) {
  size_t cn = an + bn;
  __m512i prev1 = _mm512_setzero_si512();
  MPB_UNROLL(3)
  for (size_t k = 0; k < cn; k += 8) {
    __m512i acc0 = _mm512_setzero_si512(), acc1 = _mm512_setzero_si512();
    size_t ilo = k + 1 > bn ? k + 1 - bn : 0;
    size_t ihi = k + 7 < an - 1 ? k + 7 : an - 1;
    MPB_UNROLL(9)
    for (size_t i = ilo; i <= ihi; ++i) {
      __m512i A = _mm512_set1_epi64((long long)a[i]);
      __m512i B = load8(b, (ptrdiff_t)k - (ptrdiff_t)i, bn);
      acc0 = _mm512_xor_si512(acc0, _mm512_clmulepi64_epi128(A, B, 0x00));
      acc1 = _mm512_xor_si512(acc1, _mm512_clmulepi64_epi128(A, B, 0x10));
    }
    __m512i out = _mm512_xor_si512(acc0, _mm512_alignr_epi64(acc1, prev1, 7));
    prev1 = acc1;
    if (k + 8 <= cn)
      _mm512_storeu_si512((void *)(c + k), out);
    else
      _mm512_mask_storeu_epi64((void *)(c + k), (__mmask8)((1u << (cn - k)) - 1u), out);
  }
}

// Same product scanning, with b copied between 8 zero limbs on each side (bp = b[0] in the
// padded copy), so every load of b is a plain unaligned load. Two accumulator pairs.
MPB_TGT_VPCLMUL static inline __attribute__((always_inline)) void school_vpclmul_padded(
    limb *c, const limb *a, size_t an, const limb *bp, size_t bn) {
  size_t cn = an + bn;
  __m512i prev1 = _mm512_setzero_si512();
  for (size_t k = 0; k < cn; k += 8) {
    __m512i acc0 = _mm512_setzero_si512(), acc1 = _mm512_setzero_si512();
    __m512i acc2 = _mm512_setzero_si512(), acc3 = _mm512_setzero_si512();
    size_t ilo = k + 1 > bn ? k + 1 - bn : 0;
    size_t ihi = k + 7 < an - 1 ? k + 7 : an - 1;
    const limb *bk = bp + k;  // bk - i = &b[k - i]
    size_t i = ilo;
    for (; i + 1 <= ihi; i += 2) {
      __m512i A0 = _mm512_set1_epi64((long long)a[i]);
      __m512i B0 = _mm512_loadu_si512((const void *)(bk - i));
      __m512i A1 = _mm512_set1_epi64((long long)a[i + 1]);
      __m512i B1 = _mm512_loadu_si512((const void *)(bk - i - 1));
      acc0 = _mm512_xor_si512(acc0, _mm512_clmulepi64_epi128(A0, B0, 0x00));
      acc1 = _mm512_xor_si512(acc1, _mm512_clmulepi64_epi128(A0, B0, 0x10));
      acc2 = _mm512_xor_si512(acc2, _mm512_clmulepi64_epi128(A1, B1, 0x00));
      acc3 = _mm512_xor_si512(acc3, _mm512_clmulepi64_epi128(A1, B1, 0x10));
    }
    if (i <= ihi) {
      __m512i A0 = _mm512_set1_epi64((long long)a[i]);
      __m512i B0 = _mm512_loadu_si512((const void *)(bk - i));
      acc0 = _mm512_xor_si512(acc0, _mm512_clmulepi64_epi128(A0, B0, 0x00));
      acc1 = _mm512_xor_si512(acc1, _mm512_clmulepi64_epi128(A0, B0, 0x10));
    }
    acc0 = _mm512_xor_si512(acc0, acc2);
    acc1 = _mm512_xor_si512(acc1, acc3);
    __m512i out = _mm512_xor_si512(acc0, _mm512_alignr_epi64(acc1, prev1, 7));
    prev1 = acc1;
    if (k + 8 <= cn)
      _mm512_storeu_si512((void *)(c + k), out);
    else
      _mm512_mask_storeu_epi64((void *)(c + k), (__mmask8)((1u << (cn - k)) - 1u), out);
  }
}

constexpr size_t PAD_MAX = 256;  // b up to this many limbs is copied into a padded stack buffer

MPB_TGT_VPCLMUL static void school_vpclmul(limb *c, const limb *a, size_t an, const limb *b, size_t bn) {
  if (bn > an) {
    const limb *t = a; a = b; b = t;
    size_t s = an; an = bn; bn = s;
  }
  if (bn > PAD_MAX) {
    school_vpclmul_impl(c, a, an, b, bn);
    return;
  }
  alignas(64) limb buf[PAD_MAX + 16];
  _mm512_store_si512((void *)buf, _mm512_setzero_si512());
  std::memcpy(buf + 8, b, bn * sizeof(limb));
  _mm512_storeu_si512((void *)(buf + 8 + bn), _mm512_setzero_si512());
  school_vpclmul_padded(c, a, an, buf + 8, bn);
}
template <size_t N>
MPB_TGT_VPCLMUL static void base_vpclmul(limb *c, const limb *a, const limb *b) {
  school_vpclmul_impl(c, a, N, b, N);
}
#endif

// ---------------------------------------------------------------------------------------
// Kernel tables and the path switch.
namespace detail {
static const Kernels k_portable = {
    {nullptr, base_portable<1>, base_portable<2>, base_portable<3>, base_portable<4>, base_portable<5>,
     base_portable<6>, base_portable<7>, base_portable<8>, base_portable<9>},
    school_portable,
    mul1_portable};
#ifdef MPB_GF2X_X86
static const Kernels k_pclmul = {
    {nullptr, base_pclmul<1>, base_pclmul<2>, base_pclmul<3>, base_pclmul<4>, base_pclmul<5>,
     base_pclmul<6>, base_pclmul<7>, base_pclmul<8>, base_pclmul<9>},
    school_pclmul,
    mul1_pclmul};
static const Kernels k_vpclmul = {
    {nullptr, base_pclmul<1>, base_pclmul<2>, base_pclmul<3>, base_vpclmul<4>, base_vpclmul<5>,
     base_vpclmul<6>, base_vpclmul<7>, base_vpclmul<8>, base_vpclmul<9>},
    school_vpclmul,
    mul1_pclmul};
#endif

static ClmulPath best_path() {
  if (cpu_has_clmul_path(ClmulPath::Vpclmul)) return ClmulPath::Vpclmul;
  if (cpu_has_clmul_path(ClmulPath::Pclmul)) return ClmulPath::Pclmul;
  return ClmulPath::Portable;
}
static const Kernels *table_for(ClmulPath p) {
#ifdef MPB_GF2X_X86
  if (p == ClmulPath::Vpclmul) return &k_vpclmul;
  if (p == ClmulPath::Pclmul) return &k_pclmul;
#endif
  (void)p;
  return &k_portable;
}
// Constant-initialized to the portable set (safe even for a call from another file's static
// initializer), then switched to the best set the CPU has when this file is initialized.
static ClmulPath g_path = ClmulPath::Portable;
const Kernels *g_kernels = &k_portable;
} // namespace detail

bool cpu_has_clmul_path(ClmulPath p) {
  switch (p) {
    case ClmulPath::Auto:
    case ClmulPath::Portable: return true;
#ifdef MPB_GF2X_X86
    case ClmulPath::Pclmul: return cpu::has_pclmul();
    case ClmulPath::Vpclmul:
      return cpu::has_pclmul() && cpu::has_vpclmulqdq() && cpu::has_avx512f() && cpu::has_avx512bw() &&
             cpu::has_avx512vl();
#endif
    default: return false;
  }
}

bool set_clmul_path(ClmulPath p) {
  if (p == ClmulPath::Auto) p = detail::best_path();
  if (!cpu_has_clmul_path(p)) return false;
  detail::g_path = p;
  detail::g_kernels = detail::table_for(p);
  return true;
}

ClmulPath clmul_path() { return detail::g_path; }

namespace detail {
static const bool g_path_init = set_clmul_path(ClmulPath::Auto);
} // namespace detail

void mul_1x1(limb *lo, limb *hi, limb a, limb b) { detail::g_kernels->mul1(lo, hi, a, b); }

void mul_clmul(limb *c, const limb *a, size_t an, const limb *b, size_t bn) {
  detail::g_kernels->school(c, a, an, b, bn);
}

void mul_basecase_n(limb *c, const limb *a, const limb *b, size_t n) {
  detail::g_kernels->base[n](c, a, b);
}

} // namespace gf2x
} // namespace mpb
