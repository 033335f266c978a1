// Lane-parallel Montgomery exponentiation (cpu/simd/powm_lanes.h): IFMA x8, AVX-512F x8, AVX2 x4, the
// portable x2 instance and the emulated IFMA x8 against
// GMP mpz_powm, at many sizes (multiples of 52 and 64 bits and neither), with hard moduli,
// bases and exponents, shared and per-lane moduli, unused lanes, aliasing, both modes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <mpbatch/common.h>

#include "simd/lanes_impl.h"
#include "simd/powm_lanes.h"
#include "support/oracle.h"

using namespace mpbt;
using Limbs = std::vector<uint64_t>;

namespace {

using mpb::simd::LaneR2;
using MultiFn = int (*)(uint64_t *const *, const uint64_t *const *, const uint64_t *const *, size_t,
                        const uint64_t *const *, size_t, bool, uint64_t *, const LaneR2 *, size_t, bool);
using SharedFn = int (*)(uint64_t *const *, const uint64_t *const *, const uint64_t *const *, size_t,
                         const uint64_t *, size_t, bool, uint64_t *, const LaneR2 *, size_t, bool);

struct Path {
  const char *name;
  unsigned L, K;
  bool (*avail)();
  size_t (*itch)(size_t);
  MultiFn multi;
  SharedFn shared;
  bool emulated = false;  // instructions computed in plain C++ (see usable)
};

const Path kPaths[] = {
    {"ifma_x8", 8, 52, mpb::simd::ifma_available, mpb::simd::powm_x8_itch, mpb::simd::powm_x8_multi,
     mpb::simd::powm_x8},
    // K 0: the narrow engines' digit size depends on the moduli (narrow_digit_bits)
    {"avx512f_x8", 8, 0, mpb::simd::avx512f_available, mpb::simd::powm_x8f_itch, mpb::simd::powm_x8f_multi,
     mpb::simd::powm_x8f},
    {"avx2_x4", 4, 0, mpb::simd::avx2_available, mpb::simd::powm_x4_itch, mpb::simd::powm_x4_multi,
     mpb::simd::powm_x4},
    // the batch layer's AVX2 groups of 8: two 4-lane runs behind the 8-lane interface
    {"avx2_x4x2", 8, 0, mpb::simd::avx2_available, mpb::simd::powm_x4x2_itch, mpb::simd::powm_x4x2_multi,
     mpb::simd::powm_x4x2},
    // the narrow engines' template in plain C++ (any CPU): its logic checked where AVX2 and
    // AVX-512F are missing (the AVX-512F engine shares every line of it but the instructions)
    {"portable_x2", 2, 0, [] { return true; }, mpb::simd::powm_x2p_itch, mpb::simd::powm_x2p_multi,
     mpb::simd::powm_x2p},
    // the IFMA engine's kernel with the instructions emulated (any CPU): its logic checked where
    // AVX-512 IFMA is missing, bit for bit what ifma_x8 computes
    {"ifma_emu_x8", 8, 52, [] { return true; }, mpb::simd::powm_x8e_itch, mpb::simd::powm_x8e_multi,
     mpb::simd::powm_x8e, true},
};

bool usable(const Path &p) {
  if (p.emulated) {
    // The emulated IFMA kernel is ~50-100x slower than the instructions and does the same work
    // whatever the CPU: in the quick runs (sanitizers, aarch64 under qemu) it runs only in its own
    // short test case below, and a rerun with CPU features masked would repeat the unmasked run.
    if (quick()) {
      WARN(p.name << " skipped here (MPB_TEST_QUICK): its own case, \"the emulated IFMA kernel\", runs instead");
      return false;
    }
    if (const char *d = std::getenv("MPBATCH_CPU_DISABLE"); d && *d) {
      WARN(p.name << " skipped under MPBATCH_CPU_DISABLE: its work does not depend on the CPU's features");
      return false;
    }
    return true;
  }
  if (p.avail()) return true;
  WARN("CPU lacks the instruction set for " << p.name << ": its tests are skipped");
  return false;
}

// Random value < m (m given as n limbs).
Limbs below(std::mt19937_64 &rng, const Limbs &m) {
  Z zm, z;
  to_mpz(zm, m.data(), m.size());
  auto v = hard_limbs(rng, m.size());
  to_mpz(z, v.data(), v.size());
  mpz_mod(z, z, zm);
  return limbs_of(z, m.size());
}

Limbs odd_modulus(std::mt19937_64 &rng, size_t bits, size_t n) {
  auto v = hard_bits(rng, bits);
  v[0] |= 1;
  v.resize(n, 0);
  return v;
}

// Runs one call and checks every used lane against mpz_powm.
void check_call(const Path &p, const std::vector<Limbs> &mods, bool shared,
                const std::vector<Limbs> &bases, const std::vector<Limbs> &exps, size_t en,
                size_t n, bool ct, const std::vector<bool> &used, int alias = 0, size_t ebits = SIZE_MAX,
                bool base_two = false) {
  // alias: 0 = separate outputs, 1 = r[l] is base[l]'s buffer, 2 = r[l] is exp[l]'s (en == n)
  const bool alias_base = alias == 1, alias_exp = alias == 2;
  const unsigned L = p.L;
  std::vector<Limbs> out(L, Limbs(n, 0xdeadbeefULL));
  std::vector<Limbs> bcopy = bases, ecopy = exps;  // aliasing: the output goes into these
  uint64_t *r[8] = {};
  const uint64_t *b[8] = {}, *e[8] = {}, *m[8] = {};
  for (unsigned l = 0; l < L; ++l) {
    if (!used[l]) continue;
    r[l] = alias_base ? bcopy[l].data() : alias_exp ? ecopy[l].data() : out[l].data();
    b[l] = bcopy[l].data();
    e[l] = ecopy[l].data();
    m[l] = shared ? mods[0].data() : mods[l].data();
  }
  Limbs scratch(p.itch(n), 0x5a5a5a5a5a5a5a5aULL);
  int rc = shared ? p.shared(r, b, e, en, mods[0].data(), n, ct, scratch.data(), nullptr, ebits, base_two)
                  : p.multi(r, b, e, en, m, n, ct, scratch.data(), nullptr, ebits, base_two);
  REQUIRE(rc == MPB_OK);
  for (unsigned l = 0; l < L; ++l) {
    if (!used[l]) {
      REQUIRE(out[l] == Limbs(n, 0xdeadbeefULL));
      continue;
    }
    Z zb, ze, zm, zr;
    to_mpz(zb, bases[l].data(), n);
    to_mpz(ze, exps[l].data(), en);
    if (ebits < 64 * en) mpz_fdiv_r_2exp(ze, ze, ebits);  // only the low ebits bits count
    to_mpz(zm, m[l], n);
    mpz_powm(zr, zb, ze, zm);
    Limbs got = alias_base ? bcopy[l] : alias_exp ? ecopy[l] : out[l];
    got.resize(n);
    INFO(p.name << " lane " << l << " n=" << n << " en=" << en << " ebits=" << ebits << " ct=" << ct << " shared=" << shared
                << "\n m=" << to_hex(zm) << "\n b=" << to_hex(zb) << "\n e=" << to_hex(ze));
    REQUIRE(got == limbs_of(zr, n));
  }
  if (ct) {
    bool wiped = true;
    for (uint64_t w : scratch) wiped = wiped && w == 0;
    REQUIRE(wiped);
  }
}

void random_round(const Path &p, std::mt19937_64 &rng, size_t bits, size_t ebits, bool shared,
                  bool ct, size_t extra_limbs = 0) {
  const unsigned L = p.L;
  const size_t n = (bits + 63) / 64 + extra_limbs;
  std::vector<Limbs> mods, bases, exps;
  for (unsigned l = 0; l < L; ++l) mods.push_back(odd_modulus(rng, bits, n));
  const size_t en = (ebits + 63) / 64;
  for (unsigned l = 0; l < L; ++l) {
    bases.push_back(below(rng, shared ? mods[0] : mods[l]));
    Limbs e = en ? hard_bits(rng, ebits - (l % 3) * (ebits > 8 ? 3 : 0)) : Limbs{};
    e.resize(en, 0);
    exps.push_back(e);
  }
  check_call(p, mods, shared, bases, exps, en, n, ct, std::vector<bool>(L, true));
}

}  // namespace

TEST_CASE("simd powm: random operands at many sizes, shared modulus", "[simd][powm]") {
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    auto rng = make_rng(0x51D0 + p.L);
    // (640..1270 bits: the narrow engines' digit counts 23..48, up to the AVX2 square's switch to four-
    // row passes at 48, with every residue mod 4, so each mix of four-, two- and one-row passes)
    for (size_t bits : {3, 50, 52, 64, 100, 200, 511, 512, 640, 644, 700, 730, 1000, 1024, 1040, 1100, 1240, 1260,
                        1270, 1536, 2048, 2080, 3072, 4096, 8192, 16384}) {
      for (bool ct : {false, true}) {
        size_t ebits = bits <= 1100 ? bits : (bits <= 2080 ? 300 : (bits <= 4096 ? 130 : 70));  // full length up to 1100
        random_round(p, rng, bits, ebits, true, ct);
      }
    }
  }
}

TEST_CASE("simd powm: full-length exponents at RSA sizes", "[simd][powm][slow]") {
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    auto rng = make_rng(0x51D1 + p.L);
    for (size_t bits : {1024, 1536, 2048, 3072, 4096}) {
      random_round(p, rng, bits, bits, true, true);
      random_round(p, rng, bits, bits, false, false);
    }
  }
}

TEST_CASE("simd powm: a different modulus per lane", "[simd][powm]") {
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    auto rng = make_rng(0x51D2 + p.L);
    for (size_t bits : {64, 1000, 1024, 1100, 2048})
      for (bool ct : {false, true}) random_round(p, rng, bits, 257, false, ct);
    // moduli of different bit lengths in one call (n = 16 limbs, 600..1024 bits)
    const unsigned L = p.L;
    const size_t n = 16;
    std::vector<Limbs> mods, bases, exps;
    for (unsigned l = 0; l < L; ++l) {
      mods.push_back(odd_modulus(rng, 600 + 53 * l, n));
      bases.push_back(below(rng, mods[l]));
      Limbs e = hard_bits(rng, 100 + 40 * l);
      e.resize(8, 0);
      exps.push_back(e);
    }
    for (bool ct : {false, true}) check_call(p, mods, false, bases, exps, 8, n, ct, std::vector<bool>(L, true));
    // modulus with leading zero limbs (n bigger than needed)
    random_round(p, rng, 700, 700, false, true, 3);
  }
}

TEST_CASE("simd powm: hard moduli, bases and exponents", "[simd][powm]") {
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    auto rng = make_rng(0x51D3 + p.L);
    const unsigned L = p.L;
    // (1174/1175 and 4588/4589 bits: the narrow engines' digit size changes there, 28 -> 27 -> 26
    // bits, each side at its largest accumulator bound with all-ones digits)
    for (size_t bits : {64, 512, 1000, 1024, 1100, 1174, 1175, 2048, 4588, 4589}) {
      const size_t n = (bits + 63) / 64;
      std::vector<Limbs> hard_mods;
      Z z;
      // all ones
      mpz_ui_pow_ui(z, 2, bits); mpz_sub_ui(z, z, 1); hard_mods.push_back(limbs_of(z, n));
      // just above a power of two
      mpz_ui_pow_ui(z, 2, bits - 1); mpz_add_ui(z, z, 1); hard_mods.push_back(limbs_of(z, n));
      // top bit set, random below
      auto v = odd_modulus(rng, bits, n); hard_mods.push_back(v);
      // 2^bits - 2^(bits/2) - 1 : long runs
      mpz_ui_pow_ui(z, 2, bits); { Z h; mpz_ui_pow_ui(h, 2, bits / 2); mpz_sub(z, z, h); } mpz_sub_ui(z, z, 1);
      hard_mods.push_back(limbs_of(z, n));
      // the modulus 1 (everything is 0) and 3
      Limbs one(n, 0); one[0] = 1; hard_mods.push_back(one);
      Limbs three(n, 0); three[0] = 3; hard_mods.push_back(three);
      for (const Limbs &m : hard_mods) {
        Z zm; to_mpz(zm, m.data(), n);
        std::vector<Limbs> bases, exps;
        const size_t en = bits > 2048 ? 4 : n + 1;  // (the accumulator bounds hold per product)
        for (unsigned l = 0; l < L; ++l) {
          Z zb;
          switch (l % 4) {
            case 0: mpz_set_ui(zb, 0); break;
            case 1: mpz_set_ui(zb, 1); break;
            case 2: mpz_sub_ui(zb, zm, 1); break;
            default: { auto bb = below(rng, m); to_mpz(zb, bb.data(), n); }
          }
          if (mpz_cmp(zb, zm) >= 0) mpz_set_ui(zb, 0);
          bases.push_back(limbs_of(zb, n));
          Limbs e(en, 0);
          switch ((l / 2 + l) % 4) {
            case 0: break;                                    // 0
            case 1: e[0] = 1; break;                          // 1
            case 2: for (auto &w : e) w = ~0ULL; break;       // all ones
            default: e[0] = 2; e[en - 1] = 1ULL << 63; break; // sparse
          }
          exps.push_back(e);
        }
        for (bool ct : {false, true}) {
          check_call(p, {m}, true, bases, exps, en, n, ct, std::vector<bool>(L, true));
        }
      }
    }
    // all exponents zero / empty (en = 0)
    std::vector<Limbs> mods{odd_modulus(rng, 300, 5)}, bases, exps;
    for (unsigned l = 0; l < L; ++l) { bases.push_back(below(rng, mods[0])); exps.push_back(Limbs(1, 0)); }
    for (bool ct : {false, true}) {
      check_call(p, mods, true, bases, exps, 1, 5, ct, std::vector<bool>(L, true));
      check_call(p, mods, true, bases, exps, 0, 5, ct, std::vector<bool>(L, true));
    }
  }
}

// Exponents of every width from 1 to 400 bits (each window width of detail::window_for, the
// table sized to it) and public exponents whose windows are zero in every lane (65537, 3, powers
// of two, one shared exponent; variable time skips those products), constant time or not.
TEST_CASE("simd powm: window widths by exponent length, all-zero windows", "[simd][powm]") {
  REQUIRE(mpb::simd::detail::window_for(17) == 2);
  REQUIRE(mpb::simd::detail::window_for(64) == 3);
  REQUIRE(mpb::simd::detail::window_for(128) == 4);
  REQUIRE(mpb::simd::detail::window_for(1024) == 5);
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    auto rng = make_rng(0x3A1D + p.L);
    const unsigned L = p.L;
    for (size_t bits : {512, 2048}) {
      const size_t n = bits / 64;
      std::vector<Limbs> mods{odd_modulus(rng, bits, n)}, bases;
      for (unsigned l = 0; l < L; ++l) bases.push_back(below(rng, mods[0]));
      for (size_t ebits : {1, 2, 3, 5, 8, 17, 31, 64, 65, 100, 128, 200, 330, 400}) {
        const size_t en = (ebits + 63) / 64;
        std::vector<Limbs> exps;
        for (unsigned l = 0; l < L; ++l) {
          Limbs e = hard_bits(rng, ebits);
          e.resize(en, 0);
          exps.push_back(e);
        }
        for (bool ct : {false, true}) check_call(p, mods, true, bases, exps, en, n, ct, std::vector<bool>(L, true));
      }
      for (uint64_t pub : {65537ull, 3ull, 1ull << 20, (1ull << 63) + 1, 0x8000000000000001ull >> 1}) {
        std::vector<Limbs> exps(L, Limbs{pub});
        for (bool ct : {false, true}) check_call(p, mods, true, bases, exps, 1, n, ct, std::vector<bool>(L, true));
      }
      // one lane with a dense exponent among sparse ones: only windows zero in every lane are skipped
      std::vector<Limbs> mixed(L, Limbs{65537, 0});
      mixed[L - 1] = Limbs{~0ull, 0x5555};
      check_call(p, mods, true, bases, mixed, 2, n, false, std::vector<bool>(L, true));
    }
  }
}

// A public bound on the exponents' length (ebits, e.g. a DH group's 225-bit private keys):
// only the low ebits bits count, the exponents taken mod 2^ebits, at bounds around the window
// and limb boundaries; exponents below the bound (the batch layer's promise) and above it.
TEST_CASE("simd powm: exponent length bound ebits", "[simd][powm]") {
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    auto rng = make_rng(0xEB17 + p.L);
    const unsigned L = p.L;
    for (size_t bits : {1024, 2048}) {
      const size_t n = bits / 64, en = 4;
      std::vector<Limbs> mods, bases;
      for (unsigned l = 0; l < L; ++l) mods.push_back(odd_modulus(rng, bits, n));
      for (size_t ebits : {0, 1, 4, 5, 6, 63, 64, 65, 128, 224, 225, 226, 255, 256, 1000}) {
        for (bool below_bound : {true, false}) {
          std::vector<Limbs> exps;
          for (unsigned l = 0; l < L; ++l) {
            Limbs e = l == 0 ? Limbs(en, ~0ull) : hard_limbs(rng, en);  // lane 0: all ones
            e.resize(en, 0);
            if (below_bound)  // cut to ebits bits (lane 1: one bit shorter)
              for (size_t k = ebits - (l == 1 && ebits > 0); k < 64 * en; ++k) e[k / 64] &= ~(1ull << (k % 64));
            exps.push_back(e);
          }
          for (bool shared : {true, false}) {
            std::vector<Limbs> bs;
            for (unsigned l = 0; l < L; ++l) bs.push_back(below(rng, shared ? mods[0] : mods[l]));
            for (bool ct : {false, true})
              check_call(p, mods, shared, bs, exps, en, n, ct, std::vector<bool>(L, true), 0, ebits);
          }
        }
      }
    }
  }
}

// base_two: every base 2 (DH keygen with g = 2): the narrow engines square and double per
// exponent bit, IFMA computes with the base as given; the same results as mpz_powm(2, e, m) at
// the digit-size boundaries and the common sizes, hard moduli (all ones, 2^k + 1: the doubling's
// conditional subtraction at both ends), short and full exponents, unused lanes, both modes.
TEST_CASE("simd powm: bases of 2 (base_two)", "[simd][powm]") {
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    auto rng = make_rng(0xBA52 + p.L);
    const unsigned L = p.L;
    for (size_t bits : {3, 64, 500, 1024, 1174, 1175, 2048, 3072, 4096, 4588, 4589}) {
      const size_t n = (bits + 63) / 64;
      Z z;
      std::vector<Limbs> mods;
      for (unsigned l = 0; l < L; ++l) {
        if (l == 1) { mpz_ui_pow_ui(z, 2, bits); mpz_sub_ui(z, z, 1); mods.push_back(limbs_of(z, n)); }       // all ones
        else if (l == 2 && bits > 3) { mpz_ui_pow_ui(z, 2, bits - 1); mpz_add_ui(z, z, 1); mods.push_back(limbs_of(z, n)); }  // 2^(b-1) + 1
        else mods.push_back(odd_modulus(rng, bits, n));
      }
      for (size_t ebits : {size_t(1), size_t(5), size_t(225), bits <= 1175 ? bits : size_t(330)}) {
        const size_t en = (ebits + 63) / 64;
        std::vector<Limbs> exps;
        for (unsigned l = 0; l < L; ++l) {
          Limbs e = l == 0 ? Limbs(en, ~0ull) : hard_limbs(rng, en);
          e.resize(en, 0);
          for (size_t k = ebits; k < 64 * en; ++k) e[k / 64] &= ~(1ull << (k % 64));
          exps.push_back(e);
        }
        for (bool shared : {true, false}) {
          Limbs two(n, 0);
          two[0] = 2;  // (every modulus has its top bit set: >= 5 at 3 bits)
          std::vector<Limbs> twos(L, two);
          std::vector<bool> used(L, true);
          if (ebits == 225) used[L - 1] = false;
          for (bool ct : {false, true})
            check_call(p, mods, shared, twos, exps, en, n, ct, used, 0, ebits, true);
        }
      }
    }
  }
}

TEST_CASE("simd powm: the narrow engines' digit size by modulus length", "[simd][powm]") {
  // the widest digits whose lazy accumulators stay < 2^63: 3N terms of < 2^(2K)
  using mpb::simd::lanes_digits;
  using mpb::simd::narrow_digit_bits;
  for (size_t bits : {1, 64, 1024, 1100, 1174}) CHECK(narrow_digit_bits(bits) == 28);
  for (size_t bits : {1175, 1536, 2048, 3072, 4096, 4588}) CHECK(narrow_digit_bits(bits) == 27);
  for (size_t bits : {4589, 8192, 16384}) CHECK(narrow_digit_bits(bits) == 26);
  for (size_t bits = 1; bits <= 16384; ++bits) {
    const unsigned K = narrow_digit_bits(bits);
    const size_t N = lanes_digits(K, bits);
    CHECK(K * N >= bits + 2);                              // R > 4m
    CHECK(3 * N < (size_t(1) << (63 - 2 * K)));              // the accumulator bound
    if (K < 28) CHECK(3 * lanes_digits(K + 1, bits) >= (size_t(1) << (61 - 2 * K)));  // the widest
  }
  CHECK(lanes_digits(28, 1024) == 37);
  CHECK(lanes_digits(27, 2048) == 76);
  CHECK(lanes_digits(27, 4096) == 152);
}

TEST_CASE("simd powm: R^2 given ahead (LaneR2), lanes_r2 against GMP", "[simd][powm]") {
  auto rng = mpbt::make_rng(3141);
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    for (size_t bits : {64, 500, 1024, 1031}) {
      const size_t n = (bits + 63) / 64 + 1;  // a spare top limb: N from the bit length, not n
      std::vector<Limbs> mods, bases, exps, r2v(p.L);
      for (unsigned l = 0; l < p.L; ++l) {
        mods.push_back(odd_modulus(rng, bits - (l & 1), n));
        bases.push_back(below(rng, mods[l]));
        exps.push_back(hard_bits(rng, 128));
      }
      size_t mbits = 0;
      for (auto &m : mods) {
        Z zm;
        to_mpz(zm, m.data(), n);
        mbits = std::max(mbits, (size_t)mpz_sizeinbase(zm, 2));
      }
      const unsigned K = p.K ? p.K : mpb::simd::narrow_digit_bits(mbits);
      const size_t N = mpb::simd::lanes_digits(K, mbits);
      CHECK(N == (mbits + 2 + K - 1) / K);
      Limbs ws(mpb::simd::lanes_r2_itch(n));
      for (unsigned l = 0; l < p.L; ++l) {  // lanes_r2 = 2^(2KN) mod m, as GMP computes it
        r2v[l].assign(n, 0);
        mpb::simd::lanes_r2(r2v[l].data(), mods[l].data(), n, K, N, ws.data());
        Z zm, z2;
        to_mpz(zm, mods[l].data(), n);
        mpz_setbit(z2, 2 * K * N);
        mpz_mod(z2, z2, zm);
        REQUIRE(r2v[l] == limbs_of(z2, n));
      }
      auto run = [&](const LaneR2 *given, bool ct) {
        std::vector<Limbs> out(p.L, Limbs(n));
        uint64_t *r[8] = {};
        const uint64_t *b[8] = {}, *e[8] = {}, *m[8] = {};
        for (unsigned l = 0; l < p.L; ++l) r[l] = out[l].data(), b[l] = bases[l].data(), e[l] = exps[l].data(), m[l] = mods[l].data();
        Limbs scratch(p.itch(n));
        REQUIRE(p.multi(r, b, e, 2, m, n, ct, scratch.data(), given, SIZE_MAX, false) == MPB_OK);
        return out;
      };
      std::vector<Limbs> expect(p.L);
      for (unsigned l = 0; l < p.L; ++l) {
        Z zb, ze, zm, zr;
        to_mpz(zb, bases[l].data(), n);
        to_mpz(ze, exps[l].data(), 2);
        to_mpz(zm, mods[l].data(), n);
        mpz_powm(zr, zb, ze, zm);
        expect[l] = limbs_of(zr, n);
      }
      for (bool ct : {false, true}) {
        LaneR2 g;
        g.K = K, g.N = N;
        for (unsigned l = 0; l < p.L; ++l) g.v[l] = (l % 3 == 2) ? nullptr : r2v[l].data();  // some lanes compute theirs
        CHECK(run(&g, ct) == expect);
        // the given values are used: another lane's R^2 (matching K, N) changes lane 0's result
        LaneR2 wrong = g;
        wrong.v[0] = r2v[1].data();
        CHECK(run(&wrong, ct)[0] != expect[0]);
        // values for another digit count (or digit size) are ignored
        LaneR2 other = wrong;
        other.N = N + 1;
        CHECK(run(&other, ct) == expect);
        other = wrong;
        other.K = K == 52 ? 26 : 52;
        CHECK(run(&other, ct) == expect);
      }
    }
  }
}

TEST_CASE("simd powm: unused lanes and aliasing", "[simd][powm]") {
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    auto rng = make_rng(0x51D4 + p.L);
    const unsigned L = p.L;
    const size_t n = 16, en = 16;
    std::vector<Limbs> mods, bases, exps;
    for (unsigned l = 0; l < L; ++l) {
      mods.push_back(odd_modulus(rng, 1024, n));
      bases.push_back(below(rng, mods[l]));
      exps.push_back(hard_bits(rng, 1020));
    }
    for (bool shared : {true, false}) {
      for (bool ct : {false, true}) {
        std::vector<bool> used(L, false);
        used[1] = true;
        used[L - 1] = true;
        for (unsigned l = 0; l < L; ++l) bases[l] = below(rng, shared ? mods[0] : mods[l]);
        check_call(p, mods, shared, bases, exps, en, n, ct, used);
        check_call(p, mods, shared, bases, exps, en, n, ct, std::vector<bool>(L, true), 1);
        check_call(p, mods, shared, bases, exps, en, n, ct, std::vector<bool>(L, true), 2);
      }
    }
    // no lane used at all: nothing happens
    uint64_t *r[8] = {};
    const uint64_t *b[8] = {}, *e[8] = {};
    REQUIRE(p.shared(r, b, e, 1, mods[0].data(), n, true, nullptr, nullptr, SIZE_MAX, false) == MPB_OK);
  }
}

TEST_CASE("simd powm: bad input gives an error and writes nothing", "[simd][powm]") {
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    auto rng = make_rng(0x51D5 + p.L);
    const unsigned L = p.L;
    const size_t n = 4;
    Limbs m = odd_modulus(rng, 256, n);
    std::vector<Limbs> out(L, Limbs(n, 7)), bases(L, below(rng, m)), exps(L, Limbs(n, 3));
    Limbs scratch(p.itch(n));
    uint64_t *r[8] = {};
    const uint64_t *b[8] = {}, *e[8] = {}, *ms[8] = {};
    for (unsigned l = 0; l < L; ++l) { r[l] = out[l].data(); b[l] = bases[l].data(); e[l] = exps[l].data(); ms[l] = m.data(); }
    auto untouched = [&] { for (auto &o : out) REQUIRE(o == Limbs(n, 7)); };
    Limbs even = m; even[0] &= ~1ULL;
    REQUIRE(p.shared(r, b, e, n, even.data(), n, false, scratch.data(), nullptr, SIZE_MAX, false) == MPB_EVAL);
    Limbs zero(n, 0);
    REQUIRE(p.shared(r, b, e, n, zero.data(), n, false, scratch.data(), nullptr, SIZE_MAX, false) == MPB_EVAL);
    Limbs big = m;  // base == m
    b[L - 1] = big.data();
    REQUIRE(p.shared(r, b, e, n, m.data(), n, true, scratch.data(), nullptr, SIZE_MAX, false) == MPB_EVAL);
    b[L - 1] = bases[L - 1].data();
    REQUIRE(p.shared(r, b, e, n, m.data(), 0, false, scratch.data(), nullptr, SIZE_MAX, false) == MPB_ERANGE);
    REQUIRE(p.shared(r, b, e, n, m.data(), 257, false, scratch.data(), nullptr, SIZE_MAX, false) == MPB_ERANGE);  // > 16384 bits
    REQUIRE(p.shared(r, b, e, n, nullptr, n, false, scratch.data(), nullptr, SIZE_MAX, false) == MPB_ENULL);
    REQUIRE(p.shared(r, b, e, n, m.data(), n, false, nullptr, nullptr, SIZE_MAX, false) == MPB_ENULL);
    const unsigned mid = L > 2 ? 2 : 0;  // a lane before the last
    ms[mid] = even.data();
    REQUIRE(p.multi(r, b, e, n, ms, n, false, scratch.data(), nullptr, SIZE_MAX, false) == MPB_EVAL);
    ms[mid] = nullptr;
    REQUIRE(p.multi(r, b, e, n, ms, n, false, scratch.data(), nullptr, SIZE_MAX, false) == MPB_ENULL);
    ms[mid] = m.data();
    ms[L - 1] = even.data();  // the last lane (avx2_x4x2: in the second run; the first writes nothing either)
    REQUIRE(p.multi(r, b, e, n, ms, n, true, scratch.data(), nullptr, SIZE_MAX, false) == MPB_EVAL);
    ms[L - 1] = m.data();
    e[L - 1] = nullptr;
    REQUIRE(p.multi(r, b, e, n, ms, n, false, scratch.data(), nullptr, SIZE_MAX, false) == MPB_ENULL);
    untouched();
  }
}

TEST_CASE("simd powm: every digit count up to 2400 bits", "[simd][powm]") {
  for (const Path &p : kPaths) {
    if (!usable(p)) continue;
    auto rng = make_rng(0x51D6 + p.L);
    for (size_t bits = 2; bits <= 2400; bits += 23) {
      const bool ct = (bits / 23) % 2;
      random_round(p, rng, bits, 40 + bits % 61, bits % 3 == 0, ct);
    }
  }
}

// The emulated IFMA kernel (cpu/simd/ifma_kernel.h through cpu/simd/powm_ifma_emu.cpp) in every
// run, quick ones included: each instantiation the IFMA engine has, with short exponents (the
// same kernels run per product and square whatever the exponent's length) and a few with the
// widest window (32 table entries, from ~330 exponent bits). Digit counts: 2 (amm, N < 8),
// 10 and 13 (run-time N, tiles of 8 with and without a remainder), 20 (mont_rows_sqr and amm_reg,
// the selection carried by the squarings), 30 / 60 (tiles of 6), 40 / 79 (tiles of 8), 81
// (run-time N past them).
TEST_CASE("simd powm: the emulated IFMA kernel, each instantiation", "[simd][powm]") {
  const Path &p = kPaths[sizeof kPaths / sizeof kPaths[0] - 1];
  REQUIRE(p.emulated);
  auto rng = make_rng(0x51D7);
  struct Case {
    size_t bits, ebits;
  };
  for (const Case c : {Case{100, 64}, Case{500, 40}, Case{660, 70}, Case{1024, 340}, Case{1000, 90},
                       Case{1536, 60}, Case{2048, 340}, Case{3072, 40}, Case{4096, 40}, Case{4200, 20}}) {
    INFO("bits " << c.bits << " ebits " << c.ebits);
    random_round(p, rng, c.bits, c.ebits, true, true);
    random_round(p, rng, c.bits, c.ebits / 2 + 1, false, false);
  }
}


// The IFMA kernel's path for few used lanes at N = 20, 30, 40, 60 and 79 (987..1038, 1507..1558,
// 2027..2078, 3067..3118 and 4055..4106-bit moduli: each number's digits across the vectors,
// cpu/simd/ifma_kernel.h run_single), native where the CPU has IFMA
// and emulated in every run (quick ones included: a few exponentiations): lanes 0, 7, {0, 1},
// {2, 6}, at both ends of each N, with the hard moduli (all ones, 2^(b-1) + 1, long runs), bases
// 0, 1, m - 1, exponents 0 (and none), 1, all ones, 65537 (a 2-bit window), a bound ebits, shared
// and per-lane moduli, aliasing, both modes; and the 8-lane kernel beside it at three lanes.
TEST_CASE("simd powm: one or two used lanes at N = 20, 30, 40, 60, 79", "[simd][powm]") {
  for (const Path &p : kPaths) {
    if (p.K != 52) continue;
    if (!p.emulated && !usable(p)) continue;
    const bool small = p.emulated && (quick() || std::getenv("MPBATCH_CPU_DISABLE"));
    auto rng = make_rng(0x51D8);
    const unsigned L = p.L;
    std::vector<size_t> sizes = {987, 1024, 1038, 1507, 1536, 1558, 2027, 2048, 2078, 3067, 3072, 3118, 4055, 4096, 4106};
    if (small) sizes = {1024, 1536, 2048, 3072, 4096};
    for (size_t bits : sizes) {
      INFO(p.name << " bits " << bits);
      const size_t nd = mpb::simd::lanes_digits(52, bits);
      REQUIRE((nd == 20 || nd == 30 || nd == 40 || nd == 60 || nd == 79));
      const size_t n = (bits + 63) / 64;
      std::vector<Limbs> mods;
      Z z;
      mpz_ui_pow_ui(z, 2, bits); mpz_sub_ui(z, z, 1); mods.push_back(limbs_of(z, n));
      mpz_ui_pow_ui(z, 2, bits - 1); mpz_add_ui(z, z, 1); mods.push_back(limbs_of(z, n));
      mpz_ui_pow_ui(z, 2, bits); { Z h; mpz_ui_pow_ui(h, 2, bits / 2); mpz_sub(z, z, h); } mpz_sub_ui(z, z, 1);
      mods.push_back(limbs_of(z, n));
      while (mods.size() < L) mods.push_back(odd_modulus(rng, bits, n));
      const size_t en = nd >= 60 ? 2 : n;  // (short exponents at the large sizes: the same products, fewer)
      std::vector<std::vector<bool>> shapes;
      for (std::vector<unsigned> ls : {std::vector<unsigned>{0}, {7}, {0, 1}, {2, 6}, {1, 4, 5}}) {
        std::vector<bool> u(L, false);
        for (unsigned l : ls) u[l] = true;
        shapes.push_back(u);
      }
      for (int round = 0; round < (small ? 2 : 6); ++round) {
        const bool ct = round % 2 == 1, shared = round % 3 == 2;
        std::vector<Limbs> bases, exps;
        for (unsigned l = 0; l < L; ++l) {
          const Limbs &m = shared ? mods[0] : mods[l];
          Z zm, zb;
          to_mpz(zm, m.data(), n);
          switch ((l + round) % 4) {
            case 0: mpz_set_ui(zb, 0); break;
            case 1: mpz_set_ui(zb, 1); break;
            case 2: mpz_sub_ui(zb, zm, 1); break;
            default: { auto bb = below(rng, m); to_mpz(zb, bb.data(), n); }
          }
          bases.push_back(limbs_of(zb, n));
          Limbs e(en, 0);
          switch ((l + 2 * round) % 5) {
            case 0: break;                               // 0
            case 1: e[0] = 1; break;                     // 1
            case 2: for (auto &w : e) w = ~0ULL; break;  // all ones
            case 3: e[0] = 65537; break;
            default: e = hard_bits(rng, 64 * en - 1); e.resize(en, 0);
          }
          exps.push_back(e);
        }
        for (const auto &u : shapes) {
          if (small && std::count(u.begin(), u.end(), true) > 2) continue;
          check_call(p, mods, shared, bases, exps, en, n, ct, u);
        }
        if (!small) {
          check_call(p, mods, shared, bases, exps, en, n, ct, shapes[2], 1);     // r aliases the base
          if (en == n) check_call(p, mods, shared, bases, exps, en, n, ct, shapes[3], 2);  // r aliases the exponent
          check_call(p, mods, shared, bases, exps, en, n, ct, shapes[1], 0, 17); // ebits: 17 bits
          check_call(p, mods, shared, bases, exps, 0, n, ct, shapes[2]);         // no exponent limbs
        }
      }
    }
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>

// Every engine returns with the upper halves of the vector registers in their initial state
// (VZEROUPPER): the scalar kernels' legacy SSE instructions (the table selection) are slower
// while they are dirty. On the Zen 5 VM, after an AVX2 or AVX-512F call, scalar 1024-bit
// exponentiations ran at 4,700 instead of 5,650 items/s (2026-11-30); GCC had made the
// engines' last call a tail jump into code without VZEROUPPER. Checked with XGETBV(ECX = 1)
// (XINUSE): bit 2 is the upper 128 bits of YMM0-15, bit 6 the upper 256 bits of ZMM0-15.
TEST_CASE("simd powm: every engine returns with the upper vector state clean", "[simd][powm][avx]") {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(0xd, 1, &a, &b, &c, &d) || !(a & 4)) {
    WARN("XGETBV with ECX = 1 is not supported here: the state check is skipped");
    return;
  }
  auto xinuse = [] {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
    return ((uint64_t)hi << 32) | lo;
  };
  auto rng = make_rng(91);
  int checked = 0;
  for (const Path &p : kPaths) {
    if (p.emulated || !usable(p)) continue;
    for (size_t bits : {256, 1024, 2048}) {
      const size_t n = bits / 64;
      const Limbs m = odd_modulus(rng, bits, n);
      std::vector<Limbs> bases, exps;
      uint64_t *r[8] = {};
      const uint64_t *bp[8] = {}, *ep[8] = {};
      std::vector<Limbs> out(p.L, Limbs(n));
      for (unsigned l = 0; l < p.L; ++l) bases.push_back(below(rng, m)), exps.push_back(hard_bits(rng, bits));
      for (unsigned l = 0; l < p.L; ++l) r[l] = out[l].data(), bp[l] = bases[l].data(), ep[l] = exps[l].data();
      Limbs scratch(p.itch(n));
      for (int ct = 0; ct < 2; ct++) {
        const int rc = p.shared(r, bp, ep, n, m.data(), n, ct != 0, scratch.data(), nullptr, SIZE_MAX, false);
        const uint64_t x = xinuse();  // before anything else runs
        INFO(p.name << ", " << bits << " bits, ct " << ct << ": XINUSE " << std::hex << x);
        REQUIRE(rc == MPB_OK);
        CHECK((x & 4) == 0);
        CHECK((x & 64) == 0);
        checked++;
      }
    }
  }
  if (checked == 0) WARN("no vector engine runs on this CPU: nothing to check");
}
#endif
