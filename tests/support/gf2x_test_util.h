// tests/support/gf2x_test_util.h: shared helpers of the GF(2)[x] / GF(2^m) API tests.
#pragma once
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <mpbatch/gf2x.h>

#include "ref/gf2x_ref.h"
#include "support/oracle.h"

namespace gf2xt {

// RAII polynomial
struct P {
  mpb_gf2x v;
  P() { REQUIRE(mpb_gf2x_init(&v) == MPB_OK); }
  explicit P(const gf2ref::Poly &a) {
    auto l = gf2ref::to_limbs(a);
    REQUIRE(mpb_gf2x_init_limbs(&v, l.data(), l.size()) == MPB_OK);
  }
  ~P() { mpb_gf2x_free(&v); }
  P(const P &) = delete;
  P &operator=(const P &) = delete;
  mpb_gf2x *operator&() { return &v; }
  const mpb_gf2x *operator&() const { return &v; }
  gf2ref::Poly poly() const {
    REQUIRE(v.size <= v.alloc);
    if (v.size) REQUIRE(v.limbs[v.size - 1] != 0);  // normalized
    return gf2ref::from_limbs(v.limbs, v.size);
  }
  void set(const gf2ref::Poly &a) {
    auto l = gf2ref::to_limbs(a);
    REQUIRE(mpb_gf2x_set_limbs(&v, l.data(), l.size()) == MPB_OK);
  }
  // the raw state, to check that failed calls wrote nothing
  std::vector<uint64_t> snapshot() const {
    std::vector<uint64_t> s{(uint64_t)(uintptr_t)v.limbs, v.size, v.alloc};
    for (size_t i = 0; i < v.size; i++) s.push_back(v.limbs[i]);
    return s;
  }
};

// Operand kinds: 0 random (hard limbs), 1 all-ones, 2 single bit, 3 top bit set, 4 zero
inline gf2ref::Poly operand(std::mt19937_64 &rng, size_t n, int kind) {
  std::vector<uint64_t> l(n, 0);
  switch (kind) {
    case 0: l = mpbt::hard_limbs(rng, n); break;
    case 1: for (auto &x : l) x = ~(uint64_t)0; break;
    case 2: { size_t b = rng() % (64 * n); l[b / 64] = (uint64_t)1 << (b % 64); } break;
    case 3: l = mpbt::hard_limbs(rng, n, 1); l[n - 1] |= (uint64_t)1 << 63; break;
    default: break;
  }
  return gf2ref::from_limbs(l.data(), n);
}

// f(ra, pa) for polynomials of 1..40 limbs of every operand kind: ra the reference's, pa the
// library's copy.
template <class F> void each_operand(uint64_t seed, F &&f) {
  auto rng = mpbt::make_rng(seed);
  for (size_t n = 1; n <= 40; n++)
    for (int kind = 0; kind < 5; kind++) {
      gf2ref::Poly ra = operand(rng, n, kind);
      P pa(ra);
      f(ra, pa, rng);
    }
}

// An allocator for mpb_set_allocator that fails once g_budget allocations have been made
// (g_budget < 0: never).
inline int g_budget = -1;
inline void *fail_malloc(size_t n) {
  if (g_budget == 0) return nullptr;
  if (g_budget > 0) g_budget--;
  return malloc(n);
}
inline void *fail_realloc(void *p, size_t, size_t n) { return realloc(p, n); }
inline void fail_free(void *p, size_t) { free(p); }

}  // namespace gf2xt
