// The GPU's Barrett exponentiation for any modulus (cuda/thread/barrett.cuh per thread,
// cuda/warp/coop_barrett.cuh per group of TPI lanes, emulated in lock step by HostGroup)
// run on the host against GMP: even (and odd) moduli of every kernel size and shorter ones,
// hard moduli (2, 2^k, 2^k * odd, all ones with the low bit cleared, B/2 = 2^(32N-1)), hard
// bases (0, 1, m-1, powers of two), exponents 0, 1, all ones and random, both table readers.
// The reduction itself is checked on random x < m'^2 and on the extreme x = (m'-1)^2.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

#include "cuda/host/barrett_ctx.h"
#include "cuda/warp/coop_barrett.cuh"
#include "support/gpu_words.h"
#include "support/oracle.h"

using namespace mpbt;
using namespace mpb::gpu;

namespace {

// Barrett constants computed with GMP (independent of the host code in cuda/host/).
template <int N>
void make_barrett_gmp(BarrettModCtx<N> &c, const mpz_t m) {
  const size_t bits = mpz_sizeinbase(m, 2);
  const unsigned k = (unsigned)(32 * N - bits);
  Z mp, mu, t;
  mpz_mul_2exp(mp, m, k);
  mpz_set_ui(t, 0);
  mpz_setbit(t, 64 * N);
  mpz_sub_ui(t, t, 1);
  mpz_tdiv_q(mu, t, mp);
  mpz_clrbit(mu, 32 * N);  // mu' = mu - 2^(32N)
  auto put = [](uint32_t *dst, const mpz_t z) {
    auto w = words_of(z, N);
    std::memcpy(dst, w.data(), 4 * N);
  };
  put(c.m, mp);
  put(c.mu, mu);
  mpz_set_ui(t, 0);
  mpz_setbit(t, k);
  put(c.p2k, t);
  mpz_set_ui(t, 0);
  mpz_setbit(t, 32 * N - 1 - k);
  put(c.p2r, t);
}

// Moduli of at most N words: 0 random even (full), 1 = 2^j, 2 = 2^j * odd, 3 = all ones with
// the low bit cleared, 4 = 2, 5 = random even of fewer words (top words zero), 6 = random odd,
// 7 = 2^(32N-1).
void modulus(std::mt19937_64 &rng, mpz_t m, int N, int kind) {
  std::vector<uint32_t> w(N);
  random_words(rng, w.data(), N);
  from_words(m, w.data(), N);
  switch (kind % 8) {
    case 0: mpz_setbit(m, 32 * N - 1); mpz_clrbit(m, 0); break;
    case 1: mpz_set_ui(m, 0); mpz_setbit(m, 1 + rng() % (32 * N - 1)); break;
    case 2: {
      unsigned sh = 1 + (unsigned)(rng() % (32 * N - 2));
      mpz_tdiv_r_2exp(m, m, 32 * N - sh);
      mpz_setbit(m, 0);
      mpz_mul_2exp(m, m, sh);
      break;
    }
    case 3: mpz_set_ui(m, 0); mpz_setbit(m, 32 * N); mpz_sub_ui(m, m, 2); break;
    case 4: mpz_set_ui(m, 2); break;
    case 5: mpz_tdiv_r_2exp(m, m, 32 * (1 + rng() % (N > 1 ? N - 1 : 1))); mpz_clrbit(m, 0); break;
    case 6: mpz_setbit(m, 0); break;
    default: mpz_set_ui(m, 0); mpz_setbit(m, 32 * N - 1); break;
  }
  if (mpz_cmp_ui(m, 2) < 0) mpz_set_ui(m, 2);
}

// 0, 1, m-1, a power of two below m, random below m
void below(std::mt19937_64 &rng, mpz_t a, const mpz_t m, int N, int kind) {
  std::vector<uint32_t> w(N);
  random_words(rng, w.data(), N);
  from_words(a, w.data(), N);
  switch (kind % 6) {
    case 0: mpz_set_ui(a, 0); break;
    case 1: mpz_set_ui(a, 1); break;
    case 2: mpz_sub_ui(a, m, 1); break;
    case 3: mpz_set_ui(a, 0); mpz_setbit(a, rng() % mpz_sizeinbase(m, 2)); break;
    default: break;
  }
  mpz_mod(a, a, m);
}

template <int N>
void check_reduce(uint64_t salt, int iters) {
  auto rng = make_rng(salt);
  auto c = std::make_unique<BarrettModCtx<N>>();
  for (int it = 0; it < iters; it++) {
    Z m, mp, x, want, sq;
    modulus(rng, m, N, it);
    make_barrett_gmp<N>(*c, m);
    from_words(mp, c->m, N);
    std::vector<uint32_t> xw(2 * N);
    random_words(rng, xw.data(), 2 * N);
    from_words(x, xw.data(), 2 * N);
    mpz_mul(sq, mp, mp);
    mpz_mod(x, x, sq);
    if (it % 4 == 1) {  // the largest product (m'-1)^2
      mpz_sub_ui(x, mp, 1);
      mpz_mul(x, x, x);
    }
    auto xv = words_of(x, 2 * N);
    uint32_t r[N];
    barrett_reduce<N>(r, xv.data(), *c);
    mpz_mod(want, x, mp);
    INFO("N=" << N << " it=" << it << " m=" << to_hex(m) << " x=" << to_hex(x));
    REQUIRE(std::vector<uint32_t>(r, r + N) == words_of(want, N));
    // product and un-normalization
    Z a, b;
    below(rng, a, mp, N, it);
    below(rng, b, mp, N, it + 3);
    auto av = words_of(a, N), bv = words_of(b, N);
    barrett_mul<N>(r, av.data(), RegWords{bv.data()}, *c);
    mpz_mul(want, a, b);
    mpz_mod(want, want, mp);
    REQUIRE(std::vector<uint32_t>(r, r + N) == words_of(want, N));
    barrett_unnormalize<N>(r, r, *c);
    mpz_mod(want, want, m);
    REQUIRE(std::vector<uint32_t>(r, r + N) == words_of(want, N));
  }
}

template <int N, int W, bool CT>
void check_powm(uint64_t salt, int iters, int max_ewords) {
  auto rng = make_rng(salt);
  auto tab = std::make_unique<HostTable<N, W>>();
  auto c = std::make_unique<BarrettModCtx<N>>();
  for (int it = 0; it < iters; it++) {
    Z m, base, e, want;
    modulus(rng, m, N, it);
    make_barrett_gmp<N>(*c, m);
    below(rng, base, m, N, it / 8);
    const std::vector<uint32_t> ew = some_exponent(rng, max_ewords, it % 5 - 1);
    const int ewords = (int)ew.size();
    from_words(e, ew.data(), ewords);
    mpz_powm(want, base, e, m);
    auto bv = words_of(base, N);
    uint32_t r[N];
    powm_barrett_item<N, W, CT>(r, bv.data(), ew.data(), ewords, *c, *tab);
    INFO("N=" << N << " it=" << it << " m=" << to_hex(m) << " base=" << to_hex(base) << " e=" << to_hex(e));
    REQUIRE(std::vector<uint32_t>(r, r + N) == words_of(want, N));
  }
}

template <int TPI, int W>
struct Sl {
  uint32_t v[TPI][W];
  void set(const mpz_t z) {
    auto w = words_of(z, TPI * W);
    std::memcpy(v, w.data(), sizeof v);
  }
  std::vector<uint32_t> get() const {
    std::vector<uint32_t> w(TPI * W);
    std::memcpy(w.data(), v, sizeof v);
    return w;
  }
};

template <int TPI, int W>
void check_coop_reduce(uint64_t salt, int iters) {
  constexpr int N = TPI * W;
  HostGroup<TPI> g;
  auto rng = make_rng(salt);
  auto c = std::make_unique<BarrettModCtx<N>>();
  for (int it = 0; it < iters; it++) {
    Z m, mp, a, b, want;
    modulus(rng, m, N, it);
    make_barrett_gmp<N>(*c, m);
    from_words(mp, c->m, N);
    below(rng, a, mp, N, it);
    below(rng, b, mp, N, it / 6 + 2);
    if (it % 7 == 5) mpz_sub_ui(a, mp, 1), mpz_sub_ui(b, mp, 1);
    Sl<TPI, W> sa, sb, sr;
    sa.set(a);
    sb.set(b);
    coop_barrett_mul<HostGroup<TPI>, W>(g, sr.v, sa.v, sb.v, *c);
    mpz_mul(want, a, b);
    mpz_mod(want, want, mp);
    INFO("TPI=" << TPI << " W=" << W << " it=" << it << " m=" << to_hex(m) << " a=" << to_hex(a) << " b=" << to_hex(b));
    REQUIRE(sr.get() == words_of(want, N));
    coop_barrett_mul<HostGroup<TPI>, W>(g, sa.v, sa.v, sa.v, *c);  // aliasing, squaring
    mpz_mul(want, a, a);
    mpz_mod(want, want, mp);
    REQUIRE(sa.get() == words_of(want, N));
    coop_barrett_unnormalize<HostGroup<TPI>, W>(g, sa.v, sa.v, *c);
    mpz_mod(want, want, m);
    REQUIRE(sa.get() == words_of(want, N));
  }
}

template <int TPI, int W, int WIN, bool CT>
void check_coop_powm(uint64_t salt, int iters, int max_ewords) {
  constexpr int N = TPI * W;
  HostGroup<TPI> g;
  auto rng = make_rng(salt);
  auto tab = std::make_unique<HostCoopTable<TPI, W, WIN>>();
  auto c = std::make_unique<BarrettModCtx<N>>();
  for (int it = 0; it < iters; it++) {
    Z m, base, e, want;
    modulus(rng, m, N, it);
    make_barrett_gmp<N>(*c, m);
    below(rng, base, m, N, it / 8 + it);
    const std::vector<uint32_t> ew = some_exponent(rng, max_ewords, it % 5 - 1);
    const int ewords = (int)ew.size();
    from_words(e, ew.data(), ewords);
    mpz_powm(want, base, e, m);
    Sl<TPI, W> sb, sr;
    sb.set(base);
    coop_powm_barrett_item<HostGroup<TPI>, W, WIN, CT>(g, sr.v, sb.v, ew.data(), ewords, *c, *tab);
    INFO("TPI=" << TPI << " W=" << W << " it=" << it << " m=" << to_hex(m) << " base=" << to_hex(base)
                << " e=" << to_hex(e));
    REQUIRE(sr.get() == words_of(want, N));
  }
}

// The library's host precomputation (cuda/host/barrett_ctx.h, used by gpu_backend.cu) equals
// the GMP one on every modulus kind.
template <int N>
void check_host_ctx(uint64_t salt, int iters) {
  auto rng = make_rng(salt);
  auto a = std::make_unique<BarrettModCtx<N>>();
  auto b = std::make_unique<BarrettModCtx<N>>();
  for (int it = 0; it < iters; it++) {
    Z m;
    modulus(rng, m, N, it);
    make_barrett_gmp<N>(*a, m);
    auto limbs = limbs_of(m, N / 2);
    make_barrett_ctx<N>(*b, limbs.data());
    INFO("N=" << N << " it=" << it << " m=" << to_hex(m));
    REQUIRE(std::memcmp(a.get(), b.get(), sizeof *a) == 0);
  }
}

} // namespace

TEST_CASE("GPU Barrett constants: host precomputation (mpn) vs GMP", "[gpu][host][barrett]") {
  check_host_ctx<2>(841, 200);
  check_host_ctx<4>(842, 200);
  check_host_ctx<16>(843, 100);
  check_host_ctx<32>(844, 100);
  check_host_ctx<64>(845, 50);
  check_host_ctx<256>(846, 24);
}

TEST_CASE("GPU per-thread Barrett reduction, product and un-normalization vs GMP", "[gpu][host][barrett]") {
  check_reduce<1>(801, 400);
  check_reduce<2>(802, 400);
  check_reduce<4>(803, 300);
  check_reduce<16>(804, 200);
  check_reduce<32>(805, 100);
}

TEST_CASE("GPU per-thread Barrett exponentiation (any modulus), both table readers, vs mpz_powm",
          "[gpu][host][barrett]") {
  check_powm<2, 4, false>(811, 160, 4);
  check_powm<2, 4, true>(812, 160, 4);
  check_powm<4, 4, true>(813, 80, 4);
  check_powm<16, 4, false>(814, 24, 16);  // the 512-bit kernel's shape
  check_powm<16, 4, true>(815, 24, 16);
  check_powm<32, 5, false>(816, 24, 32);  // the 1024-bit kernel's shape
  check_powm<32, 5, true>(817, 24, 32);
}

TEST_CASE("GPU cooperative Barrett product and un-normalization vs GMP", "[gpu][host][coop][barrett]") {
  check_coop_reduce<2, 2>(821, 400);
  check_coop_reduce<4, 2>(822, 300);
  check_coop_reduce<4, 8>(823, 100);   // 1024 bits
  check_coop_reduce<4, 16>(824, 60);   // 2048 bits, 16 words per lane
  check_coop_reduce<8, 8>(825, 60);    // 2048 bits
  check_coop_reduce<16, 8>(826, 24);   // 4096 bits
  check_coop_reduce<32, 8>(827, 10);   // 8192 bits
}

TEST_CASE("GPU cooperative Barrett exponentiation (any modulus), both table readers, vs mpz_powm",
          "[gpu][host][coop][barrett]") {
  check_coop_powm<2, 2, 4, false>(831, 80, 4);
  check_coop_powm<2, 2, 4, true>(832, 80, 4);
  check_coop_powm<4, 8, 5, true>(833, 24, 32);   // 1024-bit modulus, exponents up to 1024 bits
  check_coop_powm<4, 8, 5, false>(834, 8, 8);
  check_coop_powm<4, 16, 5, true>(835, 16, 8);
  check_coop_powm<8, 8, 5, false>(836, 8, 4);
  check_coop_powm<8, 8, 5, true>(837, 8, 64);   // a full 2048-bit exponent
  check_coop_powm<16, 8, 5, true>(838, 8, 4);
  check_coop_powm<32, 8, 5, false>(839, 8, 1);  // every modulus kind at 8192 bits
}
