// cpu/mpn/mod/redc_comba.cpp: Montgomery reduction by columns (product scanning), the portable
// kernel of redc_1 wherever no MULX/ADX kernel runs (x86-64 CPUs without ADX, aarch64, the
// MemorySanitizer build).
//
// REDC adds Q*m to T, Q = sum q_i B^i chosen so that the low n limbs vanish. Column k of T + Q*m
// is t_k + sum_{i+j=k} q_i m_j. The columns are summed with mul_comba.cpp's delayed-carry
// accumulators (seed 003): the low halves of the products into one 128-bit accumulator L, the
// high halves into another, H, the carry resolved once per column. For k < n, low(L) before the
// term q_k m_0 gives q_k = low(L) * minv, and adding q_k m_0 clears that word. Columns n..2n-1 are
// the result, and what is left over is its carry (0 or 1: (T + Q m)/R < R + m).
//
// The row form (redc_1_portable: n addmul_1 rows) runs each row as one serial carry chain
// through a product's two halves; here the products of a column are independent and only the
// column carries chain. Every loop bound depends on n only (constant time), and the quotient
// digits are the same as the row form's (q_i is fixed by T), so the result is bit for bit the same.
// Portable kernels on an AMD Zen 5 (2026-11-29, `MPBATCH_CPU_DISABLE=all bench_mul --mont`, ns
// per REDC, rows -> columns): 8 limbs 57 -> 42, 16: 215-225 -> 168-170, 32: 771-790 -> 697-701,
// 64: 3,009-3,013 -> 2,627-2,636; with the loop's columns unrolled by 4, 16: 158-159, 32:
// 510-520, 64: 1,845-1,847.
#include "core/unroll.h"
#include "mpn/mod/mont.h"
#include "mpn/mul/mul_internal.h"

#include <array>
#include <utility>

namespace mpb {
namespace mpn {
namespace {

using kern::comba_mac;

// Fully unrolled for N limbs: q stays in registers or on the stack, tp is only read.
template <size_t N>
__attribute__((noinline)) limb redc_comba_fixed(limb *rp, const limb *tp, const limb *m, limb minv) {
  limb q[N], mm[N];
  MPB_UNROLL(64) for (size_t i = 0; i < N; i++) mm[i] = m[i];
  dlimb carry = 0;
  MPB_UNROLL(64) for (size_t k = 0; k < N; k++) {
    dlimb L = carry + tp[k], H = 0;
    MPB_UNROLL(64) for (size_t i = 0; i < k; i++) comba_mac(L, H, q[i], mm[k - i]);
    q[k] = (limb)L * minv;
    comba_mac(L, H, q[k], mm[0]);  // the column's low word is now 0
    carry = (L >> 64) + H;
  }
  MPB_UNROLL(64) for (size_t k = N; k < 2 * N; k++) {
    dlimb L = carry + tp[k], H = 0;
    MPB_UNROLL(64) for (size_t i = k - N + 1; i < N; i++) comba_mac(L, H, q[i], mm[k - i]);
    rp[k - N] = (limb)L;
    carry = (L >> 64) + H;
  }
  return (limb)carry;
}

using FixedFn = limb (*)(limb *, const limb *, const limb *, limb);
template <size_t... I>
constexpr auto make_table(std::index_sequence<I...>) {
  return std::array<FixedFn, sizeof...(I)>{&redc_comba_fixed<I + 1>...};
}
// Unrolled up to 8 limbs only: at 16 the unrolled kernel alone was faster than the loop (146
// against 169 ns) but, run between the square and the product kernels of an exponentiation, 1.6x
// slower (a 16-limb Montgomery squaring 385 ns against 248; Zen 5, 2026-11-29): too much code.
constexpr size_t REDC_COMBA_FIXED_MAX = 8;
const auto kFixed = make_table(std::make_index_sequence<REDC_COMBA_FIXED_MAX>{});

// Any n: q_k is kept in tp[k], whose value column k has just consumed (columns past k read only
// tp[j] for j > k and the q_i). Safe for rp == tp and rp == tp + n as well: column k >= n
// writes rp[k - n] after reading tp[k], and no later column reads tp[k - n] (q_{k-n} is past
// its last use) or tp[k].
limb redc_comba_loop(limb *rp, limb *tp, const limb *m, size_t n, limb minv) {
  dlimb carry = 0;
  for (size_t k = 0; k < n; k++) {
    dlimb L = carry + tp[k], H = 0;
    MPB_UNROLL(4) for (size_t i = 0; i < k; i++) comba_mac(L, H, tp[i], m[k - i]);
    const limb qk = (limb)L * minv;
    comba_mac(L, H, qk, m[0]);
    tp[k] = qk;
    carry = (L >> 64) + H;
  }
  for (size_t k = n; k < 2 * n; k++) {
    dlimb L = carry + tp[k], H = 0;
    MPB_UNROLL(4) for (size_t i = k - n + 1; i < n; i++) comba_mac(L, H, tp[i], m[k - i]);
    rp[k - n] = (limb)L;
    carry = (L >> 64) + H;
  }
  return (limb)carry;
}

} // namespace

limb redc_comba(limb *rp, limb *tp, const limb *m, size_t n, limb minv) {
  MPB_ASSERT(n >= 1);
  if (n <= REDC_COMBA_FIXED_MAX) return kFixed[n - 1](rp, tp, m, minv);
  return redc_comba_loop(rp, tp, m, n, minv);
}

} // namespace mpn
} // namespace mpb
