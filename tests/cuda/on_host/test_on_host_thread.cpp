// The GPU's per-thread arithmetic (cuda/thread/*.cuh) run on the host against GMP: the same
// functions the kernels call, with the carry flag emulated. Needs no GPU and no CUDA.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <type_traits>

#include "cuda/thread/powm.cuh"
#include "support/gpu_words.h"
#include "support/oracle.h"

using namespace mpbt;
using namespace mpb::gpu;

namespace {

// A modulus context computed with GMP (independent of the library's own host precompute).

template <int N>
void random_odd_modulus(std::mt19937_64 &rng, mpz_t n) {
  std::vector<uint32_t> w(N);
  random_words(rng, w.data(), N);
  w[0] |= 1;
  if (w[N - 1] == 0) w[N - 1] = 1;
  from_words(n, w.data(), N);
}

template <int N>
void check_products(uint64_t salt) {
  auto rng = make_rng(salt);
  for (int it = 0; it < 200; it++) {
    uint32_t a[N], b[N], r1[2 * N], r2[2 * N];
    random_words(rng, a, N);
    random_words(rng, b, N);
    mul_comba_dc<N>(r1, a, b);
    mul_chain<N>(r2, a, b);
    Z za, zb, zr;
    from_words(za, a, N);
    from_words(zb, b, N);
    mpz_mul(zr, za, zb);
    auto want = words_of(zr, 2 * N);
    REQUIRE(std::vector<uint32_t>(r1, r1 + 2 * N) == want);
    REQUIRE(std::vector<uint32_t>(r2, r2 + 2 * N) == want);
  }
}

template <int N>
void check_mont(uint64_t salt) {
  auto rng = make_rng(salt);
  for (int it = 0; it < 100; it++) {
    Z n, a, b, want, Rinv, R;
    random_odd_modulus<N>(rng, n);
    ModCtx<N> m;
    make_ctx_gmp<N>(m, n);
    uint32_t aw[N], bw[N], r[N];
    random_words(rng, aw, N);
    random_words(rng, bw, N);
    from_words(a, aw, N);
    from_words(b, bw, N);
    mpz_mod(a, a, n);
    mpz_mod(b, b, n);
    if (it == 0) mpz_sub_ui(a, n, 1);  // a = n-1 (largest input)
    if (it == 1) mpz_set_ui(b, 0);
    auto av = words_of(a, N), bv = words_of(b, N);
    mont_mul<N>(r, av.data(), RegWords{bv.data()}, m.n, m.ninv);
    mpz_setbit(R, 32 * N);
    REQUIRE(mpz_invert(Rinv, R, n) != 0);
    mpz_mul(want, a, b);
    mpz_mul(want, want, Rinv);
    mpz_mod(want, want, n);
    REQUIRE(std::vector<uint32_t>(r, r + N) == words_of(want, N));
    // aliasing r == a, and squaring
    mont_sqr<N>(av.data(), av.data(), m.n, m.ninv);
    mpz_mul(want, a, a);
    mpz_mul(want, want, Rinv);
    mpz_mod(want, want, n);
    REQUIRE(av == words_of(want, N));
    // redc of a 2N-word x < n*R
    uint32_t x[2 * N];
    random_words(rng, x, 2 * N);
    Z zx, nR;
    from_words(zx, x, 2 * N);
    mpz_mul(nR, n, R);
    mpz_mod(zx, zx, nR);
    auto xw = words_of(zx, 2 * N);
    mont_redc<N>(r, xw.data(), m.n, m.ninv);
    mpz_mul(want, zx, Rinv);
    mpz_mod(want, want, n);
    REQUIRE(std::vector<uint32_t>(r, r + N) == words_of(want, N));
  }
}

// Odd moduli of N words, hard shapes: random full-width, all ones, 2^k + 1, 0x7fff..f,
// short moduli (top words zero), a single low word.
template <int N>
void hard_modulus(std::mt19937_64 &rng, mpz_t n, int kind) {
  std::vector<uint32_t> w(N);
  random_words(rng, w.data(), N);
  from_words(n, w.data(), N);
  switch (kind % 7) {
    case 0: mpz_setbit(n, 32 * N - 1); break;
    case 1: mpz_set_ui(n, 0); mpz_setbit(n, 32 * N); mpz_sub_ui(n, n, 1); break;
    case 2: mpz_set_ui(n, 0); mpz_setbit(n, 32 * N - 1); mpz_add_ui(n, n, 1); break;
    case 3: mpz_set_ui(n, 0); mpz_setbit(n, 32 * N - 1); mpz_sub_ui(n, n, 1); break;
    case 4: mpz_fdiv_q_2exp(n, n, 32 * (N / 2) + 7); break;          // top words zero
    case 5: mpz_set_ui(n, 0xFFFFFFFBu); break;                         // one word
    default: break;                                                    // as drawn
  }
  mpz_setbit(n, 0);
  if (mpz_cmp_ui(n, 3) < 0) mpz_set_ui(n, 3);
}

// Operands below n: 0, 1, n-1, n-2, powers of two, all-ones words reduced, random/hard words.
template <int N>
void hard_operand(std::mt19937_64 &rng, mpz_t a, const mpz_t n, int kind) {
  std::vector<uint32_t> w(N);
  random_words(rng, w.data(), N);
  from_words(a, w.data(), N);
  switch (kind % 9) {
    case 0: mpz_set_ui(a, 0); break;
    case 1: mpz_set_ui(a, 1); break;
    case 2: mpz_sub_ui(a, n, 1); break;
    case 3: mpz_sub_ui(a, n, 2); break;
    case 4: mpz_set_ui(a, 0); mpz_setbit(a, (unsigned)(rng() % mpz_sizeinbase(n, 2))); break;
    case 5: mpz_set_ui(a, 0); mpz_setbit(a, 32 * N); mpz_sub_ui(a, a, 1); break;  // all ones
    default: break;
  }
  mpz_mod(a, a, n);
}

// The three Montgomery arithmetics of the exponentiation loop (mont_mul with the square flag,
// mont_sqr_chain, mont_comba_dc product and square), sqr_chain, and mont_step for every
// variant, on hard moduli and operands, in place (r == a) and not.
template <int N>
void check_mont_variants(uint64_t salt, int iters) {
  auto rng = make_rng(salt);
  Z R;
  mpz_setbit(R, 32 * N);
  for (int it = 0; it < iters; it++) {
    Z n, a, b, Rinv, want_ab, want_aa, sq;
    hard_modulus<N>(rng, n, it);
    hard_operand<N>(rng, a, n, it);
    hard_operand<N>(rng, b, n, it / 9 + 2 * it + 1);
    ModCtx<N> m;
    make_ctx_gmp<N>(m, n);
    REQUIRE(mpz_invert(Rinv, R, n) != 0);
    mpz_mul(want_ab, a, b);
    mpz_mul(want_ab, want_ab, Rinv);
    mpz_mod(want_ab, want_ab, n);
    mpz_mul(sq, a, a);
    mpz_mul(want_aa, sq, Rinv);
    mpz_mod(want_aa, want_aa, n);
    const auto wab = words_of(want_ab, N), waa = words_of(want_aa, N);
    const auto av = words_of(a, N), bv = words_of(b, N);
    INFO("N=" << N << " it=" << it << " n=" << to_hex(n) << " a=" << to_hex(a) << " b=" << to_hex(b));
    uint32_t r[N], x[2 * N];
    // plain square of any N words (all ones included)
    std::vector<uint32_t> any(N);
    random_words(rng, any.data(), N);
    if (it % 4 == 0) std::fill(any.begin(), any.end(), 0xFFFFFFFFu);
    sqr_chain<N>(x, any.data());
    Z za, zs;
    from_words(za, any.data(), N);
    mpz_mul(zs, za, za);
    REQUIRE(std::vector<uint32_t>(x, x + 2 * N) == words_of(zs, 2 * N));
    sqr_chain<N>(x, av.data());
    REQUIRE(std::vector<uint32_t>(x, x + 2 * N) == words_of(sq, 2 * N));
    // products
    mont_mul<N>(r, av.data(), RegWords{bv.data()}, m.n, m.ninv);
    REQUIRE(std::vector<uint32_t>(r, r + N) == wab);
    mont_comba_dc<N, false>(r, av.data(), RegWords{bv.data()}, m.n, m.ninv);
    REQUIRE(std::vector<uint32_t>(r, r + N) == wab);
    // squares
    mont_mul<N>(r, av.data(), RegWords{bv.data()}, m.n, m.ninv, true);
    REQUIRE(std::vector<uint32_t>(r, r + N) == waa);
    mont_sqr_chain<N>(r, av.data(), m.n, m.ninv);
    REQUIRE(std::vector<uint32_t>(r, r + N) == waa);
    mont_comba_dc<N, true>(r, av.data(), RegWords{bv.data()}, m.n, m.ninv);
    REQUIRE(std::vector<uint32_t>(r, r + N) == waa);
    // in place (r == a), through mont_step for every variant
    auto step = [&](auto v, bool sqr) {
      auto t = av;
      mont_step<decltype(v)::value, N>(t.data(), RegWords{bv.data()}, m.n, m.ninv, sqr);
      return t;
    };
    REQUIRE(step(std::integral_constant<int, kMontCios>{}, false) == wab);
    REQUIRE(step(std::integral_constant<int, kMontCios>{}, true) == waa);
    REQUIRE(step(std::integral_constant<int, kMontSqr>{}, false) == wab);
    REQUIRE(step(std::integral_constant<int, kMontSqr>{}, true) == waa);
    REQUIRE(step(std::integral_constant<int, kMontComba>{}, false) == wab);
    REQUIRE(step(std::integral_constant<int, kMontComba>{}, true) == waa);
    auto t = av;
    mont_sqr_chain<N>(t.data(), t.data(), m.n, m.ninv);
    REQUIRE(t == waa);
    t = av;
    mont_comba_dc<N, false>(t.data(), t.data(), RegWords{bv.data()}, m.n, m.ninv);
    REQUIRE(t == wab);
  }
}

template <int N, int W, bool CT>
void check_powm(uint64_t salt, int iters) {
  auto rng = make_rng(salt);
  auto tab = std::make_unique<HostTable<N, W>>();
  for (int it = 0; it < iters; it++) {
    Z n, base, e, want;
    random_odd_modulus<N>(rng, n);
    ModCtx<N> m;
    make_ctx_gmp<N>(m, n);
    uint32_t bw[N];
    random_words(rng, bw, N);
    from_words(base, bw, N);
    mpz_mod(base, base, n);
    const std::vector<uint32_t> ew = some_exponent(rng, N, it < 2 ? it : -1);
    const int ewords = (int)ew.size();
    if (it == 2) mpz_set_ui(base, 0);
    if (it == 3) mpz_sub_ui(base, n, 1);
    from_words(e, ew.data(), ewords);
    mpz_powm(want, base, e, n);
    auto bv = words_of(base, N);
    uint32_t r[N];
    powm_item<N, W, CT>(r, bv.data(), ew.data(), ewords, m, *tab);
    INFO("N=" << N << " it=" << it << " n=" << to_hex(n));
    REQUIRE(std::vector<uint32_t>(r, r + N) == words_of(want, N));
  }
}


// powm_item with explicit window strategy and Montgomery variant vs mpz_powm.
template <int N, int W, bool CT, bool SLIDE, int V>
void check_powm_mode(uint64_t salt, int iters) {
  auto rng = make_rng(salt);
  auto tab = std::make_unique<HostTable<N, W>>();
  for (int it = 0; it < iters; it++) {
    Z n, base, e, want;
    hard_modulus<N>(rng, n, it / 10);
    ModCtx<N> m;
    make_ctx_gmp<N>(m, n);
    hard_operand<N>(rng, base, n, it / 3 + 2);
    // exponent lengths: 1 word up to N words, sometimes a short value in many words
    const int ewords = 1 + (int)(rng() % N);
    std::vector<uint32_t> ew(ewords);
    hard_exponent(rng, ew, it);
    from_words(e, ew.data(), ewords);
    mpz_powm(want, base, e, n);
    auto bv = words_of(base, N);
    uint32_t r[N];
    powm_item<N, W, CT, SLIDE, V>(r, bv.data(), ew.data(), ewords, m, *tab);
    INFO("N=" << N << " W=" << W << " CT=" << CT << " SLIDE=" << SLIDE << " V=" << V << " it=" << it
              << " n=" << to_hex(n) << " base=" << to_hex(base) << " e=" << to_hex(e));
    REQUIRE(std::vector<uint32_t>(r, r + N) == words_of(want, N));
  }
}

// Every sliding-window width 1..7 (the plan's cap) on exponents of every length class.
template <int N, int W_MAX>
void check_slide_widths(uint64_t salt, int iters) {
  auto rng = make_rng(salt);
  auto tab = std::make_unique<HostTable<N, W_MAX>>();
  for (int it = 0; it < iters; it++) {
    Z n, base, e, want;
    hard_modulus<N>(rng, n, 0);
    ModCtx<N> m;
    make_ctx_gmp<N>(m, n);
    hard_operand<N>(rng, base, n, 9);
    const int ewords = 1 + it % N;
    std::vector<uint32_t> ew(ewords);
    hard_exponent(rng, ew, it);
    from_words(e, ew.data(), ewords);
    mpz_powm(want, base, e, n);
    auto bv = words_of(base, N);
    // the width by the exponent's length (slide_w = 0), then every forced width (ModCtx::slide_w,
    // bench_gpu's window sweep), one past the table's cap included (capped)
    for (uint32_t force = 0; force <= (uint32_t)W_MAX + 1; force++) {
      m.slide_w = force;
      uint32_t acc[N], r[N];
      mont_mul<N>(acc, bv.data(), RegWords{m.r2}, m.n, m.ninv);
      powm_mont_chain_slide<N, W_MAX>(acc, ew.data(), ewords, m, *tab);
      mont_mul<N>(r, acc, OneWord{}, m.n, m.ninv);
      INFO("N=" << N << " W_MAX=" << W_MAX << " forced width " << force << " it=" << it << " e=" << to_hex(e));
      REQUIRE(std::vector<uint32_t>(r, r + N) == words_of(want, N));
    }
  }
}

} // namespace

TEST_CASE("GPU per-thread products (delayed-carry Comba and carry chains) vs GMP", "[gpu][host]") {
  check_products<1>(11);
  check_products<2>(12);
  check_products<8>(13);
  check_products<16>(14);
  check_products<32>(15);
}

TEST_CASE("GPU per-thread Montgomery multiplication, squaring and REDC vs GMP", "[gpu][host]") {
  check_mont<2>(21);
  check_mont<8>(22);
  check_mont<16>(23);
  check_mont<32>(24);
  check_mont<64>(25);
}

TEST_CASE("GPU per-thread Montgomery variants (CIOS square flag, dedicated square, delayed-carry Comba) vs GMP",
          "[gpu][host]") {
  check_mont_variants<2>(51, 400);
  check_mont_variants<3>(52, 300);
  check_mont_variants<8>(53, 300);
  check_mont_variants<16>(54, 200);
  check_mont_variants<32>(55, 100);
  check_mont_variants<64>(56, 20);
}

TEST_CASE("GPU per-thread exponentiation, fixed window, both table readers, vs mpz_powm", "[gpu][host]") {
  check_powm<4, 4, false>(31, 40);
  check_powm<4, 4, true>(32, 40);
  check_powm<16, 4, true>(33, 20);
  check_powm<16, 5, false>(34, 20);
  check_powm<32, 5, true>(35, 6);
  check_powm<32, 5, false>(36, 6);
  // the widths other than cuda/tuning.h's that the comparison kernels build for tuning
  check_powm<16, 3, true>(37, 10);
  check_powm<16, 6, true>(38, 10);
}

TEST_CASE("GPU per-thread exponentiation, sliding windows and Montgomery variants, vs mpz_powm",
          "[gpu][host]") {
  // the plan's window widths (tuning::gpu_slide_window by exponent bits, capped by the table)
  REQUIRE(mpb::tuning::gpu_slide_window(0) == 1);
  REQUIRE(mpb::tuning::gpu_slide_window(17) == 2);
  REQUIRE(mpb::tuning::gpu_slide_window(512) == 5);
  REQUIRE(mpb::tuning::gpu_slide_window(1024) == 6);
  for (int b = 0; b < 4000; b++) REQUIRE(slide_window_bits(b) == mpb::tuning::gpu_slide_window(b));
  {  // step counts of the plan: fewer than the fixed windows' (2^W - 2 + windows*(W+1) - W)
    auto steps = [](const std::vector<uint32_t> &ew, int w_max) {
      SlidePlan plan(ew.data(), (int)ew.size(), w_max);
      bool sqr;
      int entry;
      while (plan.next(sqr, entry)) plan.step++;
      return plan.step;
    };
    std::vector<uint32_t> f4(1, 65537u);
    CHECK(steps(f4, 6) == 2 + 16 + 2);  // w = 2: b^2, b^3; 16 squarings; products for bits 16, 0
    auto rng = make_rng(60);
    std::vector<uint32_t> e1024(32);
    random_words(rng, e1024.data(), 32);
    e1024[31] |= 0x80000000u;
    const int fixed = 30 + 205 + 204 * 5;  // W = 5 over 1024 bits
    CHECK(steps(e1024, 6) < fixed);
    CHECK(steps(e1024, 6) <= 32 + 1024 + 1024 / 6);
  }
  check_slide_widths<4, 1>(61, 40);
  check_slide_widths<4, 2>(62, 40);
  check_slide_widths<4, 3>(63, 40);
  check_slide_widths<4, 7>(64, 40);
  check_slide_widths<8, 5>(65, 40);
  // sliding windows (the kernels' variable-time path), every Montgomery variant
  check_powm_mode<4, 4, false, true, kMontCios>(71, 80);
  check_powm_mode<4, 4, false, true, kMontSqr>(72, 80);
  check_powm_mode<4, 4, false, true, kMontComba>(73, 80);
  check_powm_mode<16, 4, false, true, kMontCios>(74, 30);
  check_powm_mode<16, 4, false, true, kMontSqr>(75, 30);
  check_powm_mode<16, 4, false, true, kMontComba>(76, 30);
  check_powm_mode<32, 5, false, true, kMontCios>(77, 12);
  check_powm_mode<32, 5, false, true, kMontSqr>(78, 12);
  check_powm_mode<32, 5, false, true, kMontComba>(79, 12);
  // fixed windows: constant time with each variant, and the direct-read comparison loop
  check_powm_mode<16, 4, true, false, kMontSqr>(80, 20);
  check_powm_mode<16, 4, true, false, kMontComba>(81, 20);
  check_powm_mode<32, 5, true, false, kMontSqr>(82, 10);
  check_powm_mode<32, 5, true, false, kMontComba>(83, 10);
  check_powm_mode<16, 4, false, false, kMontCios>(84, 20);
  check_powm_mode<32, 5, false, false, kMontCios>(85, 10);
}

TEST_CASE("GPU per-thread RSA-CRT on the Wycheproof-style key shape vs mpz_powm", "[gpu][host]") {
  // random 2 x 512-bit primes (N = 16 words each) and random messages
  auto rng = make_rng(41);
  constexpr int N = 16;
  auto tab = std::make_unique<HostTable<N, 5>>();
  for (int it = 0; it < 4; it++) {
    GmpRsaKey key;
    random_rsa_key<N>(rng, key);
    RsaCtx<N> k;
    make_rsactx_gmp<N>(k, key);
    const Z &n = key.n, &d = key.d;
    Z c, want;
    for (int j = 0; j < 3; j++) {
      uint32_t cw[2 * N];
      random_words(rng, cw, 2 * N);
      from_words(c, cw, 2 * N);
      mpz_mod(c, c, n);
      if (j == 0) mpz_sub_ui(c, n, 1);
      mpz_powm(want, c, d, n);
      auto cv = words_of(c, 2 * N);
      uint32_t out[2 * N];
      rsa_crt_item<N, 5, true>(out, cv.data(), k, *tab);
      REQUIRE(std::vector<uint32_t>(out, out + 2 * N) == words_of(want, 2 * N));
      rsa_crt_item<N, 5, false>(out, cv.data(), k, *tab);
      REQUIRE(std::vector<uint32_t>(out, out + 2 * N) == words_of(want, 2 * N));
    }
  }
}
