// cpu/simd/powm_lanes.cpp: the lane-parallel exponentiation driver shared by the IFMA (8 lanes,
// radix 2^52), AVX-512F (8 lanes) and AVX2 (4 lanes) kernels (radix 2^26..2^28 by the moduli's
// size: narrow_digit_bits): argument checks, scratch layout,
// conversion between 64-bit limbs and lane-interleaved K-bit digits, R^2 mod m (mpn::pow2_mod:
// constant time in m, no division; mpn::pow2_divrem in variable time), the window width by the
// exponent's length (detail::window_for), the final conditional subtraction, and the public
// entry points.
#include "simd/powm_lanes.h"

#include <algorithm>
#include <atomic>

#include <mpbatch/common.h>
#include "core/limb.h"

#include "core/cpu_features.h"
#include "core/ct.h"
#include "core/memory.h"
#include "mpn/mod/mont.h"
#include "mpn/mpn.h"
#include "simd/lanes_impl.h"

namespace mpb {
namespace simd {

namespace {
std::atomic<bool> g_ifma_emulation{false};
}  // namespace

void set_ifma_emulation(bool on) { g_ifma_emulation.store(on, std::memory_order_relaxed); }
bool ifma_emulation() { return g_ifma_emulation.load(std::memory_order_relaxed); }

bool ifma_available() { return cpu::has_avx512ifma() || (ifma_emulation() && !cpu::portable_forced()); }
bool avx512f_available() { return cpu::has_avx512f(); }
bool avx2_available() { return cpu::has_avx2(); }

namespace {

using detail::Job;
using detail::kTable;

// Largest modulus: 16384 bits. Keeps every lazy accumulator digit < 2^63, i.e. fewer than
// 2^11 terms of < 2^52 (IFMA: about 4N terms, N <= 316; AVX2: about 3N terms, N <= 631).
constexpr size_t kMaxLimbs = 256;

size_t max_digits(unsigned K, size_t n) { return (64 * n + 2 + K - 1) / K; }

size_t vec_limbs(unsigned L, size_t N) { return ((7 + kTable + 2) * N + 2) * L; }
// R^2 mod m (the value + its scratch: Montgomery squarings in constant time, a division
// otherwise; 2KN < 128n + 128 bits); reused for the final subtraction
size_t scalar_limbs(size_t n) {
  return n + std::max(mpn::pow2_mod_itch(n), mpn::pow2_divrem_itch(128 * n + 128, n)) + 2 * n;
}

size_t itch(unsigned L, unsigned K, size_t n) {
  if (n == 0 || n > kMaxLimbs) return 0;
  size_t N = max_digits(K, n);
  return 8 + vec_limbs(L, N) + scalar_limbs(n);
}

size_t bit_length(const uint64_t *a, size_t n) {
  n = mpn::normalized_size(a, n);
  return n ? 64 * n - (size_t)__builtin_clzll(a[n - 1]) : 0;
}

// Digits d = 0..N-1 of the n-limb a into out[d*L + lane].
void to_digits(uint64_t *out, unsigned L, unsigned lane, unsigned K, size_t N, const uint64_t *a,
               size_t n) {
  const uint64_t mask = (uint64_t(1) << K) - 1;
  for (size_t d = 0; d < N; ++d) {
    size_t bit = d * K, li = bit / 64;
    unsigned off = (unsigned)(bit % 64);
    uint64_t v = 0;
    if (li < n) {
      v = a[li] >> off;
      if (off + K > 64 && li + 1 < n) v |= a[li + 1] << (64 - off);
    }
    out[d * L + lane] = v & mask;
  }
}

// Inverse of to_digits for normalized digits whose value fits n limbs.
void from_digits(uint64_t *a, size_t n, const uint64_t *in, unsigned L, unsigned lane, unsigned K,
                 size_t N) {
  mpn::zero(a, n);
  for (size_t d = 0; d < N; ++d) {
    uint64_t v = in[d * L + lane];
    size_t bit = d * K, li = bit / 64;
    unsigned off = (unsigned)(bit % 64);
    if (li < n) {
      a[li] |= v << off;
      if (off + K > 64 && li + 1 < n) a[li + 1] |= v >> (64 - off);
    }
  }
}

uint64_t *align64(uint64_t *p) {
  uintptr_t u = reinterpret_cast<uintptr_t>(p);
  return reinterpret_cast<uint64_t *>((u + 63) & ~uintptr_t(63));
}

// The checks before anything is written (every entry point, in this order): MPB_OK with
// *first (the first used lane; -1: none, nothing to do) and *mbits (the largest modulus's bit
// length), or the error. The moduli may be secret (RSA-CRT's primes): only their bit lengths and
// the checks' outcomes are public (declassify, cpu/core/ct.h), as in the scalar path. base < m
// is checked through the borrow of base - m (no data-dependent branch inside), in scratch.
int check_args(unsigned L, uint64_t *const r[], const uint64_t *const base[], const uint64_t *const exp[],
               size_t en, const uint64_t *const m[], size_t n, uint64_t *scratch, int *first, size_t *mbits) {
  *first = -1;
  *mbits = 0;
  if (!r) return MPB_ENULL;
  if (n == 0 || n > kMaxLimbs) return MPB_ERANGE;
  for (unsigned l = 0; l < L; ++l) {
    if (!r[l]) continue;
    if (!base || !m || !base[l] || !m[l] || (en && (!exp || !exp[l]))) return MPB_ENULL;
    if (*first < 0) *first = (int)l;
    const size_t b = declassify(mpn::sec_bit_length(m[l], n));
    if (b == 0 || declassify(m[l][0] & 1) == 0) return MPB_EVAL;
    if (b > *mbits) *mbits = b;
  }
  if (*first < 0) return MPB_OK;
  if (!scratch) return MPB_ENULL;
  for (unsigned l = 0; l < L; ++l) {
    if (!r[l]) continue;
    if (declassify(mpn::sub_n(scratch, base[l], m[l], n)) == 0) return MPB_EVAL;
  }
  return MPB_OK;
}

// K: the digit bits, or 0 for narrow_digit_bits(the largest modulus's bit length).
[[maybe_unused]] int run(unsigned L, unsigned K, void (*kernel)(const Job &), uint64_t *const r[],
        const uint64_t *const base[], const uint64_t *const exp[], size_t en,
        const uint64_t *const m[], size_t n, bool ct, uint64_t *scratch, const LaneR2 *r2, size_t ebits_max, bool base_two) {
  int first;
  size_t mbits;
  const int st = check_args(L, r, base, exp, en, m, n, scratch, &first, &mbits);
  if (st != MPB_OK || first < 0) return st;
  const unsigned kitch = K ? K : 26;  // the digit size the caller's scratch was sized for
  if (K == 0) K = narrow_digit_bits(mbits);
  const size_t N = lanes_digits(K, mbits);
  if (r2 && (r2->K != K || r2->N != N)) r2 = nullptr;  // computed for another digit size
  uint64_t *const sbase = scratch;
  uint64_t *p = align64(scratch);
  uint64_t *tmp = p + vec_limbs(L, N);  // scalar area
  Job job;
  job.L = L;
  job.K = K;
  job.N = N;
  job.en = en;
  // What the squarings touch (M, MINV, ACC, SEL, then the table) is laid out first and side by
  // side, so that in a 64-set cache each set holds at most one line of M/MINV/ACC/SEL besides the
  // table's share: with 1024-bit moduli on IFMA (N = 20, L = 8) the table alone is 640 lines, 10
  // per set of a 48 KB 12-way L1, and the former order (M, R2, B, ONE, table, ACC, SEL) put ACC
  // over M's sets: 12 hot lines there before the stack's. (On Zen 5, 2026-11-28, one build of the
  // former order ran 1024-bit modexp at 26.5K/s instead of ~36K/s for ten minutes; rebuilt later
  // the same way it did not, and in every reproduction the two orders measured the same.)
  job.M = p;
  job.MINV = job.M + N * L;
  job.ACC = job.MINV + L;
  job.SEL = job.ACC + N * L;
  job.TAB = job.SEL + N * L;
  job.R2 = job.TAB + kTable * N * L;
  job.B = job.R2 + N * L;
  job.ONE = job.B + N * L;
  // the bases' factor: R2, or its own area when a caller gives one (LaneR2::vb)
  bool own_rb = false;
  if (r2)
    for (unsigned l = 0; l < L; ++l) own_rb = own_rb || (r[l] && r2->v[l] && r2->vb[l]);
  job.RB = own_rb ? job.ONE + N * L : job.R2;
  job.T = job.ONE + 2 * N * L;  // 2N*L + L
  const uint64_t kmask = (uint64_t(1) << K) - 1;
  const uint64_t *prev_m = nullptr;  // the modulus whose R^2 is in tmp
  size_t ebits = 0;
  for (unsigned l = 0; l < L; ++l) {
    const bool used = r[l] != nullptr;
    if (used) job.used |= 1u << l;
    const uint64_t *ml = used ? m[l] : m[first];
    job.exp[l] = used && en ? exp[l] : nullptr;
    if (used && !ct) {
      size_t b = bit_length(exp[l], en);
      if (b > ebits) ebits = b;
    }
    to_digits(job.M, L, l, K, N, ml, n);
    job.MINV[l] = (0 - mpb::detail::binvert_limb(ml[0])) & kmask;
    if (used) to_digits(job.B, L, l, K, N, base[l], n);
    else for (size_t d = 0; d < N; ++d) job.B[d * L + l] = 0;
    for (size_t d = 0; d < N; ++d) job.ONE[d * L + l] = d == 0;
    // R^2 mod m with R = 2^(K*N), once per distinct modulus: in constant time in m (RSA primes)
    // by Montgomery squarings, or in variable time (nothing secret: MPB_CT_OFF) by one division,
    // ~10x faster (the public-exponent checks of RSA results run here)
    // (or given: r2; an unused lane, which runs on the first used lane's modulus, takes that
    // lane's, so that no R^2 of a secret modulus is ever computed in variable time here)
    uint64_t *rem = tmp, *ds = rem + n;
    const uint64_t *given = r2 ? r2->v[used ? l : (unsigned)first] : nullptr;
    if (!given && ml != prev_m) {
      const size_t dn = declassify(mpn::sec_normalized_size(ml, n));
      mpn::zero(rem, n);
      if (ct) mpn::pow2_mod(rem, 2 * (size_t)K * N, ml, dn, ds);
      else mpn::pow2_divrem(nullptr, rem, 2 * (size_t)K * N, ml, dn, ds);
      prev_m = ml;
    }
    to_digits(job.R2, L, l, K, N, given ? given : rem, n);
    if (own_rb) {
      const uint64_t *gb = given ? r2->vb[used ? l : (unsigned)first] : nullptr;
      to_digits(job.RB, L, l, K, N, gb ? gb : given ? given : rem, n);
    }
  }
  job.ebits = std::min(ct ? 64 * en : ebits, ebits_max);
  job.win = detail::window_for(job.ebits);
  job.vt = !ct;
  // every base 2: the narrow kernels double instead of multiplying by table entries (the IFMA
  // kernel takes the general way with the base 2); entry 3 of the table gets 2^(KN) - 2m per lane
  job.base_two = base_two && kitch != 52;
  if (job.base_two) {
    uint64_t *C = job.TAB + 3 * N * L;
    for (unsigned l = 0; l < L; ++l) {
      uint64_t c2 = 0, bw = 0;  // the carry of 2m, the borrow of 0 - 2m (branch free: m may be secret)
      for (size_t d = 0; d < N; ++d) {
        const uint64_t t = 2 * job.M[d * L + l] + c2;
        c2 = t >> K;
        const uint64_t u = 0 - ((t & kmask) + bw);
        bw = u >> 63;
        C[d * L + l] = u & kmask;
      }
    }
  }
  kernel(job);
  // ---- results: ACC holds values in [0, m]; subtract m once where the result is >= m
  for (unsigned l = 0; l < L; ++l) {
    if (!r[l]) continue;
    uint64_t *a = tmp, *d = tmp + n;
    from_digits(a, n, job.ACC, L, l, K, N);
    uint64_t borrow = mpn::sub_n(d, a, m[l], n);
    uint64_t keep = 0 - borrow;  // all ones: keep a
    for (size_t i = 0; i < n; ++i) r[l][i] = (a[i] & keep) | (d[i] & ~keep);
  }
  if (ct) secure_zero(sbase, itch(L, kitch, n) * sizeof(uint64_t));
  return MPB_OK;
}

}  // namespace

size_t lanes_digits(unsigned K, size_t mbits) { return (mbits + 2 + K - 1) / K; }

size_t ifma_single_max_exps(size_t n) { return 2 * (size_t)detail::ifma_single_max_pairs(lanes_digits(52, 64 * n)); }

unsigned narrow_digit_bits(size_t mbits) {
  // 3N terms of < 2^(2K) per accumulator digit stay < 2^63 (cpu/simd/lanes_loop.h)
  for (unsigned K = 28; K > 26; --K)
    if (3 * lanes_digits(K, mbits) < (size_t(1) << (63 - 2 * K))) return K;
  return 26;
}

size_t lanes_r2_itch(size_t n) { return n + mpn::pow2_mod_itch(n); }

void lanes_r2(uint64_t *r2, const uint64_t *m, size_t n, unsigned K, size_t N, uint64_t *scratch, size_t extra) {
  const size_t dn = declassify(mpn::sec_normalized_size(m, n));
  mpn::zero(r2, n);
  mpn::pow2_mod(r2, 2 * (size_t)K * N + extra, m, dn, scratch);
}

size_t powm_x8_itch(size_t n) { return itch(8, 52, n); }
size_t powm_x8f_itch(size_t n) { return itch(8, 26, n); }  // (26: the most digits)
size_t powm_x4_itch(size_t n) { return itch(4, 26, n); }

int powm_x8_multi(uint64_t *const r[8], const uint64_t *const base[8],
                  const uint64_t *const exp[8], size_t en, const uint64_t *const m[8], size_t n,
                  bool constant_time, uint64_t *scratch, const LaneR2 *r2, size_t ebits, bool base_two) {
  // (the switch read once: the kernel run is the one that was checked for)
  const bool emulated = ifma_emulation() && !cpu::portable_forced();
  if (!emulated && !cpu::has_avx512ifma()) return MPB_EUNSUPPORTED;
  void (*kernel)(const Job &) = detail::ifma_emu_kernel;
#ifdef MPB_HAVE_X86_LANES
  if (!emulated) kernel = detail::ifma_kernel;
#endif
  return run(8, 52, kernel, r, base, exp, en, m, n, constant_time, scratch, r2, ebits, base_two);
}

int powm_x8(uint64_t *const r[8], const uint64_t *const base[8], const uint64_t *const exp[8],
            size_t en, const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch, const LaneR2 *r2, size_t ebits, bool base_two) {
  if (!m) return MPB_ENULL;
  const uint64_t *ms[8] = {m, m, m, m, m, m, m, m};
  return powm_x8_multi(r, base, exp, en, ms, n, constant_time, scratch, r2, ebits, base_two);
}

int powm_x8f_multi(uint64_t *const r[8], const uint64_t *const base[8],
                   const uint64_t *const exp[8], size_t en, const uint64_t *const m[8], size_t n,
                   bool constant_time, uint64_t *scratch, const LaneR2 *r2, size_t ebits, bool base_two) {
  if (!avx512f_available()) return MPB_EUNSUPPORTED;
#ifdef MPB_HAVE_X86_LANES
  return run(8, 0, detail::avx512f_kernel, r, base, exp, en, m, n, constant_time, scratch, r2, ebits, base_two);
#else
  (void)r, (void)base, (void)exp, (void)en, (void)m, (void)n, (void)constant_time, (void)scratch, (void)r2, (void)ebits, (void)base_two;
  return MPB_EUNSUPPORTED;
#endif
}

int powm_x8f(uint64_t *const r[8], const uint64_t *const base[8], const uint64_t *const exp[8],
             size_t en, const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch, const LaneR2 *r2, size_t ebits, bool base_two) {
  if (!m) return MPB_ENULL;
  const uint64_t *ms[8] = {m, m, m, m, m, m, m, m};
  return powm_x8f_multi(r, base, exp, en, ms, n, constant_time, scratch, r2, ebits, base_two);
}

int powm_x4_multi(uint64_t *const r[4], const uint64_t *const base[4],
                  const uint64_t *const exp[4], size_t en, const uint64_t *const m[4], size_t n,
                  bool constant_time, uint64_t *scratch, const LaneR2 *r2, size_t ebits, bool base_two) {
  if (!avx2_available()) return MPB_EUNSUPPORTED;
#ifdef MPB_HAVE_X86_LANES
  return run(4, 0, detail::avx2_kernel, r, base, exp, en, m, n, constant_time, scratch, r2, ebits, base_two);
#else
  (void)r, (void)base, (void)exp, (void)en, (void)m, (void)n, (void)constant_time, (void)scratch, (void)r2, (void)ebits, (void)base_two;
  return MPB_EUNSUPPORTED;
#endif
}

size_t powm_x4x2_itch(size_t n) { return powm_x4_itch(n); }

int powm_x4x2_multi(uint64_t *const r[8], const uint64_t *const base[8], const uint64_t *const exp[8],
                    size_t en, const uint64_t *const m[8], size_t n, bool constant_time, uint64_t *scratch,
                    const LaneR2 *r2, size_t ebits, bool base_two) {
  if (!avx2_available()) return MPB_EUNSUPPORTED;
  // every lane checked first, so that a bad lane in the second run leaves the first run's
  // outputs unwritten too
  int first;
  size_t mbits;
  const int st = check_args(8, r, base, exp, en, m, n, scratch, &first, &mbits);
  if (st != MPB_OK || first < 0) return st;
  for (unsigned h = 0; h < 2; ++h) {
    uint64_t *rh[4];
    bool used = false;
    for (unsigned l = 0; l < 4; ++l) rh[l] = r[4 * h + l], used = used || rh[l];
    if (!used) continue;
    LaneR2 g;
    if (r2) {
      g.K = r2->K, g.N = r2->N;
      for (unsigned l = 0; l < 4; ++l) g.v[l] = r2->v[4 * h + l], g.vb[l] = r2->vb[4 * h + l];
    }
    const int sh = powm_x4_multi(rh, base + 4 * h, exp ? exp + 4 * h : nullptr, en, m + 4 * h, n,
                                 constant_time, scratch, r2 ? &g : nullptr, ebits, base_two);
    if (sh != MPB_OK) return sh;
  }
  return MPB_OK;
}

int powm_x4x2(uint64_t *const r[8], const uint64_t *const base[8], const uint64_t *const exp[8], size_t en,
              const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch, const LaneR2 *r2, size_t ebits, bool base_two) {
  if (!m) return MPB_ENULL;
  const uint64_t *ms[8] = {m, m, m, m, m, m, m, m};
  return powm_x4x2_multi(r, base, exp, en, ms, n, constant_time, scratch, r2, ebits, base_two);
}

int powm_x4(uint64_t *const r[4], const uint64_t *const base[4], const uint64_t *const exp[4],
            size_t en, const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch, const LaneR2 *r2, size_t ebits, bool base_two) {
  if (!m) return MPB_ENULL;
  const uint64_t *ms[4] = {m, m, m, m};
  return powm_x4_multi(r, base, exp, en, ms, n, constant_time, scratch, r2, ebits, base_two);
}

size_t powm_x2p_itch(size_t n) { return itch(2, 26, n); }

int powm_x2p_multi(uint64_t *const r[2], const uint64_t *const base[2], const uint64_t *const exp[2],
                   size_t en, const uint64_t *const m[2], size_t n, bool constant_time, uint64_t *scratch,
                   const LaneR2 *r2, size_t ebits, bool base_two) {
  return run(2, 0, detail::portable_kernel, r, base, exp, en, m, n, constant_time, scratch, r2, ebits, base_two);
}

int powm_x2p(uint64_t *const r[2], const uint64_t *const base[2], const uint64_t *const exp[2], size_t en,
             const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch, const LaneR2 *r2, size_t ebits,
             bool base_two) {
  if (!m) return MPB_ENULL;
  const uint64_t *ms[2] = {m, m};
  return powm_x2p_multi(r, base, exp, en, ms, n, constant_time, scratch, r2, ebits, base_two);
}

size_t powm_x8e_itch(size_t n) { return itch(8, 52, n); }

int powm_x8e_multi(uint64_t *const r[8], const uint64_t *const base[8], const uint64_t *const exp[8],
                   size_t en, const uint64_t *const m[8], size_t n, bool constant_time, uint64_t *scratch,
                   const LaneR2 *r2, size_t ebits, bool base_two) {
  return run(8, 52, detail::ifma_emu_kernel, r, base, exp, en, m, n, constant_time, scratch, r2, ebits, base_two);
}

int powm_x8e(uint64_t *const r[8], const uint64_t *const base[8], const uint64_t *const exp[8], size_t en,
             const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch, const LaneR2 *r2, size_t ebits,
             bool base_two) {
  if (!m) return MPB_ENULL;
  const uint64_t *ms[8] = {m, m, m, m, m, m, m, m};
  return powm_x8e_multi(r, base, exp, en, ms, n, constant_time, scratch, r2, ebits, base_two);
}

} // namespace simd
} // namespace mpb
