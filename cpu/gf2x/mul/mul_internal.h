// cpu/gf2x/mul/mul_internal.h: small inline helpers shared by the GF(2)[x] multiplication files
// (cpu/gf2x/mul/*.cpp). Not part of the contract in cpu/gf2x/mul/gf2x_mul.h.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gf2x/mul/gf2x_mul.h"

namespace mpb {
namespace gf2x {
namespace detail {

inline void zero(limb *r, size_t n) {
  if (n) std::memset(r, 0, n * sizeof(limb));
}
inline void copy(limb *r, const limb *a, size_t n) {
  if (n) std::memcpy(r, a, n * sizeof(limb));
}
// Vectorized linear passes (cpu/gf2x/mul/xor_shifted.cpp), used from LINEAR_MIN limbs on.
struct LinearOps {
  void (*xor_into)(limb *r, const limb *a, size_t n);
  void (*xor_shl)(limb *r, size_t rn, const limb *a, size_t an, unsigned s);  // 1 <= s <= 63
};
extern LinearOps g_linear;
constexpr size_t LINEAR_MIN = 24;

// r ^= a over n limbs
inline void xor_into(limb *r, const limb *a, size_t n) {
  if (n >= LINEAR_MIN) {
    g_linear.xor_into(r, a, n);
    return;
  }
  for (size_t i = 0; i < n; ++i) r[i] ^= a[i];
}
// r = a ^ b over n limbs
inline void xor3(limb *r, const limb *a, const limb *b, size_t n) {
  for (size_t i = 0; i < n; ++i) r[i] = a[i] ^ b[i];
}
// r (rn limbs) ^= a (an limbs) * x^s, 1 <= s < 64, one limb at a time.
inline void xor_shl_limbs(limb *r, size_t rn, const limb *a, size_t an, unsigned s) {
  size_t m = an < rn ? an : rn;
  limb prev = 0;
  for (size_t i = 0; i < m; ++i) {
    limb v = a[i];
    r[i] ^= (v << s) | (prev >> (64 - s));
    prev = v;
  }
  if (m < rn && m == an) r[m] ^= prev >> (64 - s);
}

// r (rn limbs) ^= a (an limbs) * x^s, 0 <= s < 64; bits beyond rn limbs are dropped.
inline void xor_shl(limb *r, size_t rn, const limb *a, size_t an, unsigned s) {
  size_t m = an < rn ? an : rn;
  if (s == 0) {
    xor_into(r, a, m);
    return;
  }
  if (m >= LINEAR_MIN) {
    g_linear.xor_shl(r, rn, a, an, s);
    return;
  }
  xor_shl_limbs(r, rn, a, an, s);
}

// Kernel table of the selected carry-less path (cpu/gf2x/mul/mul_clmul.cpp).
using base_fn = void (*)(limb *, const limb *, const limb *);
using school_fn = void (*)(limb *, const limb *, size_t, const limb *, size_t);
struct Kernels {
  base_fn base[BASECASE_MAX + 1];  // base[n] for 1 <= n <= 9
  school_fn school;
  void (*mul1)(limb *, limb *, limb, limb);
};
extern const Kernels *g_kernels;

} // namespace detail
} // namespace gf2x
} // namespace mpb
