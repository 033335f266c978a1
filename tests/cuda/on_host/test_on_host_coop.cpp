// The GPU's cooperative arithmetic (cuda/warp/coop*.cuh: TPI threads own one item and talk
// through shuffles and ballots) run on the host with all lanes of a group emulated in lock
// step (HostGroup), against GMP. These are the functions the 2048..8192-bit kernels call.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

#include "cuda/warp/coop_powm.cuh"
#include "support/gpu_words.h"
#include "support/oracle.h"

using namespace mpbt;
using namespace mpb::gpu;

namespace {

// Slices of an N-word value for the host group (lane l = slot l).
template <int TPI, int W>
struct Sl {
  uint32_t v[TPI][W];
  void set(const std::vector<uint32_t> &w) { std::memcpy(v, w.data(), sizeof v); }
  void set(const mpz_t z) { set(words_of(z, TPI * W)); }
  std::vector<uint32_t> get() const {
    std::vector<uint32_t> w(TPI * W);
    std::memcpy(w.data(), v, sizeof v);
    return w;
  }
};

// Odd moduli of exactly N words: random, all ones, 2^(32N-1)+1, just above/below powers of two.
void modulus(std::mt19937_64 &rng, mpz_t n, int N, int kind) {
  std::vector<uint32_t> w(N);
  random_words(rng, w.data(), N);
  from_words(n, w.data(), N);
  switch (kind % 6) {
    case 0: mpz_setbit(n, 32 * N - 1); break;                                          // random, full
    case 1: mpz_set_ui(n, 0); mpz_setbit(n, 32 * N); mpz_sub_ui(n, n, 1); break;       // all ones
    case 2: mpz_set_ui(n, 0); mpz_setbit(n, 32 * N - 1); mpz_add_ui(n, n, 1); break;   // 2^k + 1
    case 3: mpz_set_ui(n, 0); mpz_setbit(n, 32 * N - 1); mpz_setbit(n, 32 * N - 2);
            mpz_sub_ui(n, n, 1); break;                                                // 0x7fff..
    case 4: break;                                                                     // maybe short
    default: mpz_setbit(n, 32 * N - 1); mpz_setbit(n, 31); break;
  }
  mpz_setbit(n, 0);
  if (mpz_cmp_ui(n, 3) < 0) mpz_set_ui(n, 3);
}

// Random value below n, or a hard one (0, 1, n-1, n-2, 2^k, all-ones words masked below n).
void below(std::mt19937_64 &rng, mpz_t a, const mpz_t n, int N, int kind) {
  std::vector<uint32_t> w(N);
  random_words(rng, w.data(), N);
  from_words(a, w.data(), N);
  mpz_mod(a, a, n);
  switch (kind % 8) {
    case 0: mpz_set_ui(a, 0); break;
    case 1: mpz_set_ui(a, 1); break;
    case 2: mpz_sub_ui(a, n, 1); break;
    case 3: mpz_sub_ui(a, n, 2); break;
    case 4: mpz_set_ui(a, 0); mpz_setbit(a, mpz_sizeinbase(n, 2) - 2); break;
    default: break;
  }
}

template <int TPI, int W>
void check_arith(uint64_t salt, int iters) {
  constexpr int N = TPI * W;
  HostGroup<TPI> g;
  auto rng = make_rng(salt);
  Z n, a, b, want, R, Rinv, t;
  mpz_setbit(R, 32 * N);
  for (int it = 0; it < iters; it++) {
    modulus(rng, n, N, it);
    below(rng, a, n, N, it);
    below(rng, b, n, N, it / 8 + 3 * it);
    REQUIRE(mpz_invert(Rinv, R, n) != 0);
    Sl<TPI, W> sa, sb, sn, sr, shi;
    sa.set(a);
    sb.set(b);
    sn.set(n);
    const uint32_t ninv = mont_ninv32(sn.v[0][0]);
    INFO("TPI=" << TPI << " W=" << W << " it=" << it << " n=" << to_hex(n) << " a=" << to_hex(a)
                << " b=" << to_hex(b));
    // Montgomery product, and in place with r == a, and squaring (a == b)
    coop_mont_mul<HostGroup<TPI>, W>(g, sr.v, sa.v, sb.v, sn.v, ninv);
    mpz_mul(want, a, b);
    mpz_mul(want, want, Rinv);
    mpz_mod(want, want, n);
    REQUIRE(sr.get() == words_of(want, N));
    Sl<TPI, W> sa2 = sa;
    coop_mont_mul<HostGroup<TPI>, W>(g, sa2.v, sa2.v, sa2.v, sn.v, ninv);
    mpz_mul(want, a, a);
    mpz_mul(want, want, Rinv);
    mpz_mod(want, want, n);
    REQUIRE(sa2.get() == words_of(want, N));
    // REDC of any x < R with b = 1 (used to reduce the halves of RSA inputs)
    std::vector<uint32_t> xw(N);
    random_words(rng, xw.data(), N);
    Sl<TPI, W> sx, one;
    sx.set(xw);
    coop_set_one<HostGroup<TPI>, W>(g, one.v);
    coop_mont_mul<HostGroup<TPI>, W>(g, sr.v, sx.v, one.v, sn.v, ninv);
    from_words(t, xw.data(), N);
    mpz_mul(want, t, Rinv);
    mpz_mod(want, want, n);
    REQUIRE(sr.get() == words_of(want, N));
    // modular add and sub
    coop_add_mod<HostGroup<TPI>, W>(g, sr.v, sa.v, sb.v, sn.v);
    mpz_add(want, a, b);
    mpz_mod(want, want, n);
    REQUIRE(sr.get() == words_of(want, N));
    coop_sub_mod<HostGroup<TPI>, W>(g, sr.v, sa.v, sb.v, sn.v);
    mpz_sub(want, a, b);
    mpz_mod(want, want, n);
    REQUIRE(sr.get() == words_of(want, N));
    // full product of arbitrary N-word values (all-ones included)
    std::vector<uint32_t> yw(N);
    random_words(rng, yw.data(), N);
    if (it % 5 == 0) std::fill(yw.begin(), yw.end(), 0xFFFFFFFFu);
    if (it % 7 == 0) std::fill(xw.begin(), xw.end(), 0xFFFFFFFFu);
    Sl<TPI, W> sy;
    sx.set(xw);
    sy.set(yw);
    coop_mul_full<HostGroup<TPI>, W>(g, sr.v, shi.v, sx.v, sy.v);
    Z zx, zy;
    from_words(zx, xw.data(), N);
    from_words(zy, yw.data(), N);
    mpz_mul(want, zx, zy);
    auto ww = words_of(want, 2 * N);
    REQUIRE(sr.get() == std::vector<uint32_t>(ww.begin(), ww.begin() + N));
    REQUIRE(shi.get() == std::vector<uint32_t>(ww.begin() + N, ww.end()));
  }
}

template <int TPI, int W, int WIN, bool CT>
void check_powm(uint64_t salt, int iters, int max_ewords) {
  constexpr int N = TPI * W;
  HostGroup<TPI> g;
  auto rng = make_rng(salt);
  auto tab = std::make_unique<HostCoopTable<TPI, W, WIN>>();
  auto m = std::make_unique<ModCtx<N>>();
  for (int it = 0; it < iters; it++) {
    Z n, base, e, want;
    modulus(rng, n, N, it);
    below(rng, base, n, N, it + 2);
    make_ctx_gmp<N>(*m, n);
    const std::vector<uint32_t> ew = some_exponent(rng, max_ewords, it);
    const int ewords = (int)ew.size();
    from_words(e, ew.data(), ewords);
    mpz_powm(want, base, e, n);
    Sl<TPI, W> sb, sr;
    sb.set(base);
    coop_powm_item<HostGroup<TPI>, W, WIN, CT>(g, sr.v, sb.v, ew.data(), ewords, *m, *tab);
    INFO("TPI=" << TPI << " W=" << W << " it=" << it << " n=" << to_hex(n) << " base=" << to_hex(base)
                << " e=" << to_hex(e));
    REQUIRE(sr.get() == words_of(want, N));
  }
}

// A host group whose emulated warp holds a sibling group that runs `extra` more steps of a
// warp-uniform loop: warp_any stays true that long after this group is done, so the group
// does idle steps that must not change its result.
template <int TPI>
struct HostGroupPadded : HostGroup<TPI> {
  mutable int extra = 0;
  bool warp_any(bool pred) const {
    if (pred) return true;
    return extra-- > 0;
  }
};


// Sliding-window exponentiation (and the fixed-window direct-read loop) vs mpz_powm, with
// idle steps from an emulated longer-running sibling group in the warp.
template <int TPI, int W, int WIN, bool SLIDE>
void check_powm_slide(uint64_t salt, int iters, int max_ewords) {
  constexpr int N = TPI * W;
  using G = HostGroupPadded<TPI>;
  G g;
  auto rng = make_rng(salt);
  auto tab = std::make_unique<HostCoopTable<TPI, W, WIN>>();
  auto m = std::make_unique<ModCtx<N>>();
  for (int it = 0; it < iters; it++) {
    Z n, base, e, want;
    modulus(rng, n, N, it / 10);
    below(rng, base, n, N, it / 3 + 2);
    make_ctx_gmp<N>(*m, n);
    if (SLIDE) m->slide_w = (uint32_t)(it % (WIN + 3));  // 0: by the length; else forced (WIN + 2: capped)
    int ewords = 1 + (int)(rng() % max_ewords);
    std::vector<uint32_t> ew(ewords);
    hard_exponent(rng, ew, it);
    from_words(e, ew.data(), ewords);
    mpz_powm(want, base, e, n);
    Sl<TPI, W> sb, sr;
    sb.set(base);
    g.extra = (int)(rng() % 3 == 0 ? 0 : rng() % 40);
    coop_powm_item<G, W, WIN, false, SLIDE>(g, sr.v, sb.v, ew.data(), ewords, *m, *tab);
    INFO("TPI=" << TPI << " W=" << W << " WIN=" << WIN << " SLIDE=" << SLIDE << " forced width " << m->slide_w
                << " it=" << it << " n=" << to_hex(n) << " base=" << to_hex(base) << " e=" << to_hex(e));
    REQUIRE(sr.get() == words_of(want, N));
    if (SLIDE) REQUIRE(g.extra <= 0);  // the idle steps were taken
  }
}

// Random RSA keys with primes of exactly 32*N bits; p > q and p < q both.
template <int TPI, int W, int WIN, bool CT>
void check_rsa(uint64_t salt, int iters) {
  constexpr int N = TPI * W;
  HostGroup<TPI> g;
  auto rng = make_rng(salt);
  auto tab = std::make_unique<HostCoopTable<TPI, W, WIN>>();
  auto k = std::make_unique<RsaCtx<N>>();
  for (int it = 0; it < iters; it++) {
    GmpRsaKey key;
    random_rsa_key<N>(rng, key);
    make_rsactx_gmp<N>(*k, key);
    const Z &p = key.p, &q = key.q, &n = key.n, &d = key.d;
    Z c, want;
    for (int m = 0; m < 3; m++) {
      std::vector<uint32_t> cw(2 * N);
      random_words(rng, cw.data(), 2 * N);
      from_words(c, cw.data(), 2 * N);
      mpz_mod(c, c, n);
      if (m == 1) mpz_sub_ui(c, n, 1);
      if (m == 2 && it == 0) mpz_set_ui(c, 0);
      if (m == 2 && it == 1) mpz_set(c, p);  // c = 0 mod p
      cw = words_of(c, 2 * N);
      mpz_powm(want, c, d, n);
      Sl<TPI, W> lo, hi;
      coop_rsa_crt_item<HostGroup<TPI>, W, WIN, CT>(g, lo.v, hi.v, cw.data(), *k, *tab);
      auto got = lo.get();
      auto h = hi.get();
      got.insert(got.end(), h.begin(), h.end());
      INFO("TPI=" << TPI << " W=" << W << " it=" << it << " m=" << m << " p=" << to_hex(p) << " q=" << to_hex(q));
      REQUIRE(got == words_of(want, 2 * N));
    }
  }
}

} // namespace

TEST_CASE("GPU cooperative Montgomery, add/sub mod and full products vs GMP", "[gpu][host][coop]") {
  check_arith<2, 2>(101, 400);   // 128-bit: every carry path is hit often
  check_arith<4, 2>(102, 300);
  check_arith<2, 8>(103, 200);
  check_arith<4, 8>(104, 100);   // 1024 bits (RSA-2048 halves)
  check_arith<8, 8>(105, 60);    // 2048 bits
  check_arith<4, 16>(106, 60);   // 2048 bits, 16 words per lane
  check_arith<16, 8>(107, 20);   // 4096 bits
  check_arith<32, 8>(108, 8);    // 8192 bits
}

TEST_CASE("GPU cooperative exponentiation, both table readers, vs mpz_powm", "[gpu][host][coop]") {
  check_powm<2, 2, 4, false>(201, 60, 4);
  check_powm<2, 2, 4, true>(202, 60, 4);
  check_powm<4, 8, 5, true>(203, 6, 32);   // 1024-bit modulus, exponents up to 1024 bits
  check_powm<8, 8, 5, false>(204, 4, 8);
  check_powm<8, 8, 5, true>(205, 2, 64);   // a full 2048-bit exponent
  check_powm<4, 16, 5, true>(206, 3, 8);
  check_powm<16, 8, 5, true>(207, 2, 4);
  check_powm<32, 8, 5, false>(208, 2, 2);
  // constant-time widths other than cuda/tuning.h's (the comparison kernels built for tuning)
  check_powm<2, 8, 3, true>(209, 6, 16);   // 512-bit modulus, 2 lanes
  check_powm<2, 8, 5, true>(221, 6, 16);
  check_powm<4, 8, 4, true>(222, 4, 32);   // 1024 bits
  check_powm<4, 8, 6, true>(223, 4, 32);
  check_powm<8, 8, 6, true>(224, 2, 64);   // 2048 bits, 8 lanes
}

TEST_CASE("GPU cooperative exponentiation, sliding windows with idle warp steps, vs mpz_powm",
          "[gpu][host][coop]") {
  check_powm_slide<2, 2, 4, true>(211, 120, 4);
  check_powm_slide<2, 2, 2, true>(212, 60, 4);   // small table: windows of up to 3 bits
  check_powm_slide<4, 2, 5, true>(213, 60, 8);
  check_powm_slide<4, 8, 5, true>(214, 20, 32);  // 1024-bit modulus
  check_powm_slide<8, 8, 5, true>(215, 10, 64);  // 2048 bits, exponents up to 2048 bits
  check_powm_slide<4, 16, 5, true>(216, 6, 16);
  check_powm_slide<16, 8, 5, true>(217, 3, 8);
  check_powm_slide<32, 8, 5, true>(218, 2, 4);
  check_powm_slide<4, 8, 5, false>(219, 10, 32);  // fixed windows, direct reads
}

TEST_CASE("GPU cooperative RSA-CRT vs mpz_powm (RSA-512 .. RSA-4096 shapes)", "[gpu][host][coop]") {
  check_rsa<2, 4, 4, true>(301, 6);    // 2 x 256-bit primes
  check_rsa<2, 8, 4, true>(304, 4);    // RSA-1024 (its library mapping: 2 lanes per 512-bit prime)
  check_rsa<4, 8, 5, true>(302, 2);    // RSA-2048
  check_rsa<8, 8, 5, false>(303, 1);   // RSA-4096
}
