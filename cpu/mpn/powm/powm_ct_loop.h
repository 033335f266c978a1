// The constant-time fixed-window exponentiation loop shared by powm_ct (Montgomery, odd
// moduli: cpu/mpn/powm/powm_ct.cpp) and powm_barrett_ct (Barrett, any modulus: cpu/mpn/powm/powm_barrett_ct.cpp).
// Fixed CT_W-bit windows over exactly `ebits` exponent bits (ebits <= 64*en: the exponent is
// taken mod 2^ebits; the top window is the shorter one), a table
// b^0..b^(2^CT_W - 1) in the Ops' domain, every lookup reads all entries and keeps one with
// masks, every window does CT_W squarings and one product (also by b^0). Branches and memory
// indices depend only on n and ebits, provided the Ops are constant time.
#pragma once
#include <algorithm>
#include <type_traits>
#include <utility>
#include "core/memory.h"
#include "mpn/powm/powm.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mpb {
namespace mpn {
namespace ct_loop {

constexpr unsigned CT_W = 5;
constexpr size_t CT_T = (size_t)1 << CT_W;

// all ones iff k == idx (both < 2^63), without a branch
inline limb eq_mask(limb k, limb idx) {
  const limb x = k ^ idx;
  return (limb)0 - ((x - 1) >> 63);
}

// dst = tab[idx] (idx < CT_T) reading every entry. On x86-64 with SSE2 (every x86-64 CPU):
// blocks of up to 16 limbs held in 8 XMM registers over the 32 entries, two limbs per AND/OR
// (the scalar loop's loads and stores of dst per entry were 12% of an RSA-2048 item on the
// scalar path, 2026-11-26). The entry's mask is a PCMPEQD of the index with a running count
// (idx, k < 2^31: both dwords of a lane compare equal iff k == idx), and with the table 16-byte
// aligned and n even (run() aligns it) each load folds into its PAND (legacy SSE folds aligned
// loads only): 118 -> 106 TSC cycles per 16-limb selection on the Zen 5 VM (2026-11-30).
inline void select(limb *dst, const limb *tab, size_t n, limb idx) {
  size_t j0 = 0;
#if defined(__SSE2__)
  const bool aligned = n % 2 == 0 && ((uintptr_t)tab & 15) == 0;
  const __m128i iv = _mm_set1_epi32((int)idx), one = _mm_set1_epi32(1);
  for (; j0 + 16 <= n; j0 += 16) {
    __m128i acc[8];
    for (int i = 0; i < 8; i++) acc[i] = _mm_setzero_si128();
    __m128i kv = _mm_setzero_si128();
    for (size_t k = 0; k < CT_T; k++) {
      const __m128i m = _mm_cmpeq_epi32(kv, iv);
      kv = _mm_add_epi32(kv, one);
      const __m128i *e = reinterpret_cast<const __m128i *>(tab + k * n + j0);
      if (aligned)
        for (int i = 0; i < 8; i++) acc[i] = _mm_or_si128(acc[i], _mm_and_si128(m, _mm_load_si128(e + i)));
      else
        for (int i = 0; i < 8; i++) acc[i] = _mm_or_si128(acc[i], _mm_and_si128(m, _mm_loadu_si128(e + i)));
    }
    for (int i = 0; i < 8; i++) _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + j0 + 2 * i), acc[i]);
  }
#endif
  if (j0 == n) return;
  zero(dst + j0, n - j0);
  for (size_t k = 0; k < CT_T; k++) {
    const limb mask = eq_mask((limb)k, idx);
    const limb *e = tab + k * n;
    for (size_t j = j0; j < n; j++) dst[j] |= e[j] & mask;
  }
}

// the CT_W-bit window whose lowest bit is `lo` (bits past the end read as 0); the position
// is public, only the value is secret.
inline limb window_at(const limb *ep, size_t en, size_t lo) {
  size_t li = lo / 64, sh = lo % 64;
  limb v = ep[li] >> sh;
  if (sh > 64 - CT_W && li + 1 < en) v |= ep[li + 1] << (64 - sh);
  return v & (CT_T - 1);
}

// Table, accumulator and selection: CT_T*n + 2n limbs at the start of the scratch, plus one to
// align the table to 16 bytes (select).
inline size_t itch(size_t n) { return CT_T * n + 2 * n + 1; }

// Ops whose squaring can carry a slice of the next window's selection: sel_job() gives the job
// (iv in limbs 0-1, then an n-limb accumulator; null where the kernel is missing at this n),
// sqr_sel(r, a, entries) squares as sqr and ORs the SEL_SLICE entries at `entries`, each masked
// by (k == iv), into the accumulator (MontCtOps with kern::sqr_sel_adx_fn, powm_ct.cpp).
template <class Ops, class = void> struct sel_in_sqr : std::false_type {};

// A selection job's index: v (mod 2^32) in each 32-bit word of limbs 0-1, as the kernels'
// PCMPEQD against their entry counter takes it.
inline void set_job_index(limb *job, limb v) {
  const limb w = (uint32_t)v;
  job[0] = job[1] = w << 32 | w;
}
template <class Ops>
struct sel_in_sqr<Ops, std::void_t<decltype(std::declval<Ops &>().sel_job())>> : std::true_type {};

// The windows after the first, with each selection spread over the five squarings before its
// product: squaring s takes entries k0 = min(s * SEL_SLICE, CT_T - SEL_SLICE) .. k0 + SEL_SLICE
// (the last slice overlaps the one before it, and ORing an entry twice changes nothing), with
// iv = idx - k0 so that its mask is (k == iv) for k = 0 .. SEL_SLICE-1. The slices' addresses
// depend only on s.
template <class Ops>
void windows_sel_in_sqr(const limb *ep, size_t en, size_t lo, size_t n, Ops &op, const limb *tab, limb *acc,
                        limb *job) {
  constexpr size_t S = Ops::SEL_SLICE;
  static_assert(CT_W * S >= CT_T && S <= CT_T, "the slices cover the table");
  limb *sacc = job + 2;
  while (lo > 0) {
    lo -= CT_W;
    const limb idx = window_at(ep, en, lo);
    zero(sacc, n);
    for (unsigned s = 0; s < CT_W; s++) {
      const size_t k0 = std::min<size_t>(s * S, CT_T - S);
      set_job_index(job, idx - k0);
      op.sqr_sel(acc, acc, tab + k0 * n);
    }
    op.mul(acc, acc, sacc);
  }
  secure_zero(job, (2 + n) * sizeof(limb));
}

// Ops whose product can carry the whole selection of the next window: sel_jobs() gives two jobs
// of 2 + n limbs each (iv in limbs 0-1, then an n-limb accumulator; null where the kernel is
// missing at this n), mul_sel(r, a, b, tab, job) multiplies as mul and sets the job's accumulator
// to tab[iv] (MontCtOps with kern::mul_sel_adx_fn, powm_ct.cpp).
template <class Ops, class = void> struct sel_in_mul : std::false_type {};
template <class Ops>
struct sel_in_mul<Ops, std::void_t<decltype(std::declval<Ops &>().sel_jobs())>> : std::true_type {};

// The windows after the first, with the entry of each window after the second selected inside the
// product before it. The two jobs take turns: the product reads the entry in one job's
// accumulator while it selects the next into the other's. The window positions, and so which
// product carries a selection, are public.
template <class Ops>
void windows_sel_in_mul(const limb *ep, size_t en, size_t lo, size_t n, Ops &op, const limb *tab, limb *acc,
                        limb *sel, limb *jobs) {
  limb *job[2] = {jobs, jobs + 2 + n};
  const limb *cur = sel;
  lo -= CT_W;
  select(sel, tab, n, window_at(ep, en, lo));
  for (int t = 0;; t ^= 1) {
    for (unsigned s = 0; s < CT_W; s++) op.sqr(acc, acc);
    if (lo == 0) {
      op.mul(acc, acc, cur);
      break;
    }
    set_job_index(job[t], window_at(ep, en, lo - CT_W));
    op.mul_sel(acc, acc, cur, tab, job[t]);
    cur = job[t] + 2;
    lo -= CT_W;
  }
  secure_zero(jobs, 2 * (2 + n) * sizeof(limb));
}

// Ops: one(x) = 1 in the domain, to(x, b), mul(r, a, b), sqr(r, a) (r may equal a), from(r, x);
// optionally sel_job() and sqr_sel() (sel_in_sqr above), or sel_jobs() and mul_sel() (sel_in_mul).
template <class Ops>
void run(limb *rp, const limb *bp, const limb *ep, size_t en, size_t ebits, size_t n, Ops &op, limb *scratch) {
  MPB_ASSERT(ebits <= 64 * en);
  limb *tab = scratch + (((uintptr_t)scratch & 15) ? 1 : 0);  // 16-byte aligned (select)
  limb *acc = tab + CT_T * n;
  limb *sel = acc + n;
  op.one(tab);
  op.to(tab + n, bp);
  // b^k: the even entries are squares of b^(k/2), which cost less than products
  for (size_t k = 2; k < CT_T; k++) {
    if (k % 2 == 0) op.sqr(tab + k * n, tab + k / 2 * n);
    else op.mul(tab + k * n, tab + (k - 1) * n, tab + n);
  }
  if (ebits == 0) {
    op.from(rp, tab);
    secure_zero(scratch, itch(n) * sizeof(limb));
    return;
  }
  size_t lo = ((ebits + CT_W - 1) / CT_W - 1) * CT_W;
  const limb top_mask = ((limb)1 << (ebits - lo)) - 1;  // the top window's bits below ebits
  select(acc, tab, n, window_at(ep, en, lo) & top_mask);
  if constexpr (sel_in_sqr<Ops>::value) {
    if (limb *job = op.sel_job()) {
      windows_sel_in_sqr(ep, en, lo, n, op, tab, acc, job);
      lo = 0;
    }
  }
  if constexpr (sel_in_mul<Ops>::value) {
    if (limb *jobs = lo > 0 ? op.sel_jobs() : nullptr) {
      windows_sel_in_mul(ep, en, lo, n, op, tab, acc, sel, jobs);
      lo = 0;
    }
  }
  while (lo > 0) {
    lo -= CT_W;
    for (unsigned s = 0; s < CT_W; s++) op.sqr(acc, acc);
    select(sel, tab, n, window_at(ep, en, lo));
    op.mul(acc, acc, sel);
  }
  op.from(rp, acc);
  secure_zero(scratch, itch(n) * sizeof(limb));
}

} // namespace ct_loop
} // namespace mpn
} // namespace mpb
