// tests/support/bn_test_common.h: shared helpers for tests/bn/test_bn_*.cpp (mp_int API vs GMP):
// random signed operands from hard limbs, operand sizes around the tuning thresholds,
// snapshots of mp_int values, and a counting / failing allocator hook.
#pragma once
#include <catch2/catch.hpp>

#include <functional>
#include <set>
#include <vector>

#include <mpbatch/bn.h>
#include "mpn/tuning.h"

#include "support/oracle.h"

namespace bnt {
using namespace mpbt;

// Sizes 0..70 limbs plus every multiplication threshold +-2 (cpu/mpn/tuning.h), and sizes
// around 120 and 140 limbs (deep Karatsuba recursion; once the reserved Toom-3 cut-offs).
inline std::vector<size_t> sizes(size_t max_small = 70) {
  std::set<size_t> s;
  for (size_t i = 0; i <= max_small; i++) s.insert(i);
  namespace t = mpb::tuning;
  for (int th : {t::MUL_COMBA_MAX, t::SQR_COMBA_MAX, t::MUL_KARATSUBA_CUTOFF, t::SQR_KARATSUBA_CUTOFF,
                 120, 140})
    for (int d = -2; d <= 2; d++)
      if (th + d >= 0) s.insert((size_t)(th + d));
  return std::vector<size_t>(s.begin(), s.end());
}

// z = a random value of n limbs (hard patterns), random sign when sign == 2, else +(0)/-(1).
inline void rand_z(std::mt19937_64 &rng, mpz_t z, size_t n, int sign = 2) {
  auto l = hard_limbs(rng, n);
  if (n) {
    // mostly keep the top limb nonzero so the size is really n
    if (l[n - 1] == 0 && (rng() & 3)) l[n - 1] = 1 + (rng() >> 1);
  }
  to_mpz(z, l.data(), n);
  bool neg = sign == 2 ? (rng() & 1) : sign == 1;
  if (neg) mpz_neg(z, z);
}

inline void setz(mp_int *a, mpz_srcptr z) { REQUIRE(from_mpz(a, z) == MP_OKAY); }
// mp_init(a), then a = z (a FailCase's setup: its teardown clears a).
inline void init_set(mp_int *a, mpz_srcptr z) {
  REQUIRE(mp_init(a) == MP_OKAY);
  setz(a, z);
}

// Structural check: clamped, zero is MP_ZPOS, used <= alloc.
inline bool well_formed(const mp_int *a) {
  if (a->used < 0 || a->used > a->alloc) return false;
  if (a->used > 0 && a->dp[a->used - 1] == 0) return false;
  if (a->used == 0 && a->sign != MP_ZPOS) return false;
  return a->sign == MP_ZPOS || a->sign == MP_NEG;
}

inline std::string hex(mpz_srcptr z) { return to_hex(z); }

#define BN_EQ(a, z)                                                            \
  do {                                                                         \
    INFO("got " << mpbt::to_hex(a) << " expected " << mpbt::to_hex(z));        \
    REQUIRE(bnt::well_formed(a));                                              \
    REQUIRE(mpbt::equal(a, z));                                                \
  } while (0)

// ---- counting / failing allocator -------------------------------------------------------
struct AllocStats {
  long long live_bytes = 0;
  long long live_blocks = 0;
  long long calls = 0;      // malloc + realloc attempts since arm()
  long long fail_at = 0;    // 0 = never fail; else fail the fail_at'th call
  long long failures = 0;
};
inline AllocStats &stats() {
  static AllocStats s;
  return s;
}
inline void *hk_malloc(size_t n) {
  auto &s = stats();
  s.calls++;
  if (s.fail_at && s.calls == s.fail_at) { s.failures++; return nullptr; }
  void *p = std::malloc(n);
  if (p) { s.live_bytes += (long long)n; s.live_blocks++; }
  return p;
}
inline void *hk_realloc(void *p, size_t o, size_t n) {
  auto &s = stats();
  s.calls++;
  if (s.fail_at && s.calls == s.fail_at) { s.failures++; return nullptr; }
  void *q = std::realloc(p, n);
  if (q) s.live_bytes += (long long)n - (long long)o;
  return q;
}
inline void hk_free(void *p, size_t n) {
  auto &s = stats();
  if (p) { s.live_bytes -= (long long)n; s.live_blocks--; }
  std::free(p);
}
// Installs the counting hook for its lifetime; restores malloc on destruction.
struct CountingAllocator {
  CountingAllocator() {
    stats() = AllocStats{};
    mpb_set_allocator(hk_malloc, hk_realloc, hk_free);
  }
  ~CountingAllocator() { mpb_set_allocator(nullptr, nullptr, nullptr); }
  void arm(long long k) { stats().calls = 0; stats().fail_at = k; }
  void disarm() { stats().fail_at = 0; }
};

// Runs `setup` (creates inputs/outputs and records what the outputs hold), then `op` with
// the k-th allocation failing, for k = 1, 2, ... until op returns MP_OKAY. After each MP_MEM,
// `unchanged` must hold; `teardown` clears everything and the hook must balance to zero.
// Returns the number of failing k (allocations op needed).
struct FailCase {
  std::function<void()> setup;
  std::function<int()> op;
  std::function<bool()> unchanged;  // called after MP_MEM
  std::function<bool()> correct;    // called after MP_OKAY
  std::function<void()> teardown;
};
inline int run_alloc_failures(FailCase &fc, int max_k = 64) {
  CountingAllocator hook;
  for (int k = 1; k <= max_k; k++) {
    fc.setup();
    hook.arm(k);
    int rc = fc.op();
    hook.disarm();
    INFO("k = " << k << " rc = " << rc);
    REQUIRE((rc == MP_OKAY || rc == MP_MEM));
    if (rc == MP_MEM) REQUIRE(fc.unchanged());
    else REQUIRE(fc.correct());
    fc.teardown();
    REQUIRE(stats().live_bytes == 0);
    REQUIRE(stats().live_blocks == 0);
    if (rc == MP_OKAY) return k - 1;
  }
  FAIL("operation never succeeded within max_k allocations");
  return -1;
}

}  // namespace bnt
