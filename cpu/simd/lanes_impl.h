// cpu/simd/lanes_impl.h: internal glue between the lane-parallel exponentiation driver
// (cpu/simd/powm_lanes.cpp: validation, radix conversion, R^2 mod m, final reduction) and the
// instruction-set kernels (cpu/simd/powm_ifma.cpp, powm_avx512.cpp, powm_avx2.cpp).
//
// Only <cstddef>/<cstdint> here and only internal-linkage helpers: the kernel files are
// compiled under `#pragma GCC target(...)` (clang: `#pragma clang attribute push` of the
// target), and an inline function with external linkage emitted there could be picked by the
// linker for the portable callers.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mpb {
namespace simd {
namespace detail {

constexpr unsigned kWindow = 5;               // widest fixed window
constexpr unsigned kTable = 1u << kWindow;    // 32 table entries (room for the widest)

// The window width for an exponent of `bits` bits (public: the declared width in constant time):
// the w <= kWindow of fewest multiplications, 2^w - 2 to build the table plus one per window (the
// squarings do not depend on w). 2 bits for a 17-bit public exponent (11 products instead of 34
// with 5-bit windows), 3 for 64 bits, 4 for 128, 5 from ~330 bits (RSA, DH).
static constexpr unsigned window_for(size_t bits) {
  unsigned best = 1;
  size_t best_cost = (size_t)-1;
  for (unsigned w = 1; w <= kWindow; ++w) {
    const size_t cost = ((size_t)1 << w) - 2 + (bits + w - 1) / w;
    if (cost < best_cost) best = w, best_cost = cost;
  }
  return best;
}

// The IFMA kernel's path for few used lanes (cpu/simd/ifma_kernel.h run_single: each number's
// digits across the lanes, two exponentiations side by side): at N digits, up to this many pairs
// of used lanes run that way, one pair after the other, instead of one 8-lane run; 0: never.
// Measured on the AMD EPYC Zen 5 VM, 2026-11-29, RSA-CRT items of one key, one thread: one pair
// beats the 8-lane run at N = 20, 30 and 40 (RSA-2048 1 item 4,348 -> 5,174/s, RSA-3072 1,223 ->
// 2,575, RSA-4096 561 -> 1,397); two pairs at N = 30 and 40 (2 items: RSA-3072 2,343-2,453 ->
// 2,465-2,552/s, RSA-4096 1,076-1,106 -> 1,335-1,388) but not at N = 20 (RSA-2048 8,541 -> 5,173);
// three pairs nowhere (3 items level or slower). At N = 60 and 79 (3072/4096-bit moduli, bench_auto
// constant time): one pair 2.5 / 5.6 ms against 5.9 / 13.7 ms for an 8-lane run, two pairs 4.9 /
// 10.9 ms, three would be 7.4 / 16.4. Other N: not built (the 8-lane kernel).
static constexpr unsigned ifma_single_max_pairs(size_t N) {
  return N == 20 ? 1 : N == 30 || N == 40 || N == 60 || N == 79 ? 2 : 0;
}

// Everything a kernel needs. Digit arrays are lane-interleaved: digit d of lane l is at
// [d * L + l]; all arrays are aligned to 64 bytes. Digits are < 2^K (K = 52, or 26..28).
struct Job {
  unsigned L = 0;          // lanes (8 or 4)
  unsigned K = 0;          // digit bits (52, or 26..28: narrow_digit_bits)
  size_t N = 0;            // digits per number; 2^(K*N) > 4 * every modulus
  size_t ebits = 0;        // exponent bits processed (from the top), same for all lanes
  unsigned win = kWindow;  // window width (window_for(ebits)): the table holds 2^win entries
  bool vt = false;         // variable time (MPB_CT_OFF): a window that is 0 in every lane is skipped
  bool base_two = false;   // every base is 2 (the narrow kernels: pow2_exp, no table; B unused)
  unsigned used = 0;       // bit l set: lane l is used (the IFMA kernel runs few used lanes apart: run_single)
  size_t en = 0;           // exponent limbs
  const uint64_t *exp[8] = {};  // nullptr = unused lane (reads as 0)
  uint64_t *M = nullptr;    // moduli, N*L
  uint64_t *MINV = nullptr; // -m^-1 mod 2^K, L
  uint64_t *R2 = nullptr;   // R^2 mod m, N*L
  uint64_t *RB = nullptr;   // the factor taking the bases into the domain, N*L: R2, or LaneR2::vb's
  uint64_t *B = nullptr;    // bases, N*L
  uint64_t *ONE = nullptr;  // the number 1, N*L
  uint64_t *TAB = nullptr;  // kTable * N * L (base_two: [x, 2x, 2x - 2m, 2^(KN) - 2m] at entries 0..3)
  uint64_t *ACC = nullptr;  // N*L: the result (base^exp mod m, in [0, m]) on return
  uint64_t *SEL = nullptr;  // N*L
  uint64_t *T = nullptr;    // 2*N*L (+L) accumulator
};

// Bits [pos, pos+len) of the en-limb number e (len <= 32); e == nullptr reads as 0.
// The addresses read depend only on pos, len and en.
__attribute__((always_inline)) static inline uint64_t window_bits(const uint64_t *e, size_t en, size_t pos, unsigned len) {
  if (!e) return 0;
  size_t li = pos / 64;
  unsigned off = (unsigned)(pos % 64);
  uint64_t v = li < en ? e[li] >> off : 0;
  if (off + len > 64 && li + 1 < en) v |= e[li + 1] << (64 - off);
  return v & ((uint64_t(1) << len) - 1);
}

// Variable time only: whether the window [pos, pos+len) is 0 in every lane (its product with
// the table's entry 0, the Montgomery one, can then be skipped; public exponents such as
// 65537 are mostly zero windows).
static inline bool window_zero_all(const Job &job, size_t pos, unsigned len) {
  uint64_t any = 0;
  for (unsigned l = 0; l < job.L; ++l) any |= window_bits(job.exp[l], job.en, pos, len);
  return any == 0;
}

// The window width of a run: job.win, or for a variable-time run with public exponents of at
// most 64 bits (job.vt: zero windows are skipped) the w <= kWindow of fewest products, 2^w - 2
// for the table plus the windows below the top one that are nonzero in some lane. e = 65537:
// w = 1, 2 products against 4 with window_for(17) = 2 (2 for the table, 1 for the last window).
static inline unsigned run_window(const Job &job) {
  const size_t bits = job.ebits;
  if (!job.vt || bits == 0 || bits > 64) return job.win;
  unsigned best = job.win;
  size_t best_cost = (size_t)-1;
  for (unsigned w = 1; w <= kWindow; ++w) {
    size_t cost = ((size_t)1 << w) - 2;
    const size_t nw = (bits + w - 1) / w;
    for (size_t i = 0; i + 1 < nw; ++i) cost += !window_zero_all(job, i * w, w);
    if (cost < best_cost) best = w, best_cost = cost;
  }
  return best;
}

// The kernels: run the exponentiation described by the job (ACC gets the result).
// The portable instance of the narrow engines' template, 2 lanes, any CPU (cpu/simd/powm_portable.cpp).
void portable_kernel(const Job &job);
// The IFMA kernel on 8 emulated lanes, K = 52, any CPU (cpu/simd/powm_ifma_emu.cpp).
void ifma_emu_kernel(const Job &job);
// x86-64 only: elsewhere ifma_available() and avx2_available() are false and the entry points
// return MPB_EUNSUPPORTED.
#if defined(__x86_64__)
#define MPB_HAVE_X86_LANES 1
void ifma_kernel(const Job &job);
void avx512f_kernel(const Job &job);  // 8 lanes, K = 26..28 (cpu/simd/powm_avx512.cpp)
void avx2_kernel(const Job &job);     // 4 lanes, K = 26..28 (cpu/simd/powm_avx2.cpp)
#endif

} // namespace detail
} // namespace simd
} // namespace mpb
